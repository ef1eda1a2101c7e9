// restoreLostLines: a save our rename hid is put back line by line (docs/write-safety.md).
import { describe, expect, it } from "vitest";
import { restoreLostLines } from "../../src/core/merge-lines";

describe("restoreLostLines", () => {
  it("puts back a line appended by a save into the old file, after our edit", () => {
    const base = "# Tasks\n- [ ] a\n";
    const theirs = "# Tasks\n- [ ] a\nhand line 1\n";
    const current = "# Tasks\n- [ ] a\n- [ ] extracted\nhand line 2\n"; // ours, then their next save
    expect(restoreLostLines(base, theirs, current)).toBe(
      "# Tasks\n- [ ] a\nhand line 1\n- [ ] extracted\nhand line 2\n",
    );
  });

  it("changes nothing when current already holds every added line (the other side)", () => {
    const base = "a\nb\n";
    const theirs = "a\nx\nb\n";
    expect(restoreLostLines(base, theirs, "a\nx\nb\nours\n")).toBe("a\nx\nb\nours\n");
    expect(restoreLostLines(base, base, "a\nb\nours\n")).toBe("a\nb\nours\n");
  });

  it("inserts a line after the line before it in theirs, at the start or the end when that line is gone", () => {
    expect(restoreLostLines("a\nb\n", "a\nmid\nb\n", "a\nb\nc\n")).toBe("a\nmid\nb\nc\n");
    expect(restoreLostLines("a\n", "top\na\n", "a\nc\n")).toBe("top\na\nc\n");
    expect(restoreLostLines("a\nb\n", "a\nb2\nnew\n", "z\n")).toBe("z\nb2\nnew\n");
  });

  it("keeps lines theirs removed, CRLF endings, a missing final newline and repeated lines", () => {
    expect(restoreLostLines("a\r\nb\r\n", "a\r\nx\r\n", "a\r\nb\r\nours\r\n")).toBe(
      "a\r\nx\r\nb\r\nours\r\n",
    );
    expect(restoreLostLines("a", "a\nx", "a\nours")).toBe("a\nx\nours");
    expect(restoreLostLines("- [ ]\n", "- [ ]\n- [ ]\n", "- [ ]\nours\n")).toBe(
      "- [ ]\n- [ ]\nours\n",
    );
  });
});
