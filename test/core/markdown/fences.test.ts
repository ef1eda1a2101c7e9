// The one fence rule (src/core/markdown/fences.ts), each CommonMark rule tried on both sides.
import { describe, expect, it } from "vitest";
import {
  closesFence,
  codeSpans,
  fenceCloserAfter,
  fenceOpener,
} from "../../../src/core/markdown/fences";
import { findConflictMarkers } from "../../../src/core/markdown/conflict-markers";
import { scanAnchors, sectionUnder } from "../../../src/core/markdown/anchors";
import { splitBlocks } from "../../../src/core/journal/blocks";

describe("fence openers", () => {
  it("takes three or more backticks or tildes, not two", () => {
    expect(fenceOpener("```")).toBe("```");
    expect(fenceOpener("~~~")).toBe("~~~");
    expect(fenceOpener("`````")).toBe("`````");
    expect(fenceOpener("``")).toBeNull();
    expect(fenceOpener("~~")).toBeNull();
  });

  it("allows up to three spaces of indent, not four", () => {
    expect(fenceOpener("   ```")).toBe("```");
    expect(fenceOpener("    ```")).toBeNull();
    expect(fenceOpener("\t```")).toBeNull();
  });

  it("keeps the info string out of the marker", () => {
    expect(fenceOpener("```ts title")).toBe("```");
    expect(fenceOpener("~~~~ md")).toBe("~~~~");
    expect(fenceOpener("text ```")).toBeNull();
  });
});

describe("code spans", () => {
  it("a backtick run up to the next run of the same length; an unclosed run is text", () => {
    expect(codeSpans("a `b` c")).toEqual([[2, 5]]);
    expect(codeSpans("``a ` b`` c `d`")).toEqual([
      [0, 9],
      [12, 15],
    ]);
    expect(codeSpans("a ` b")).toEqual([]);
    expect(codeSpans("`a`` b")).toEqual([]);
    expect(codeSpans("no code")).toEqual([]);
  });
});

describe("fence closers", () => {
  it("needs the same character", () => {
    expect(closesFence("```", "```")).toBe(true);
    expect(closesFence("~~~", "```")).toBe(false);
    expect(closesFence("```", "~~~")).toBe(false);
  });

  it("needs a run at least as long as the opener", () => {
    expect(closesFence("````", "````")).toBe(true);
    expect(closesFence("`````", "````")).toBe(true);
    expect(closesFence("```", "````")).toBe(false);
  });

  it("allows up to three spaces of indent, not four", () => {
    expect(closesFence("   ```", "```")).toBe(true);
    expect(closesFence("    ```", "```")).toBe(false);
  });

  it("allows nothing but spaces and tabs after the run", () => {
    expect(closesFence("```  \t", "```")).toBe(true);
    expect(closesFence("```\r", "```")).toBe(true);
    expect(closesFence("```ts", "```")).toBe(false);
    expect(closesFence("``` x", "```")).toBe(false);
    expect(closesFence("~~~ ~", "~~~")).toBe(false);
  });
});

describe("the closer of a fence left open", () => {
  it("is the opener's indent and marker, and null when every fence closes", () => {
    expect(fenceCloserAfter(["Ran:", "```sh", "npm test"])).toBe("```");
    expect(fenceCloserAfter(["  ~~~~ md", "```", "x\r"])).toBe("  ~~~~");
    expect(fenceCloserAfter(["```", "x", "```"])).toBeNull();
    expect(fenceCloserAfter(["```", "```", "```"])).toBe("```");
    expect(fenceCloserAfter(["    ```", "x"])).toBeNull();
    expect(fenceCloserAfter([])).toBeNull();
  });
});

describe("the callers read code the same way", () => {
  const note = [
    "````md",
    "```",
    "<<<<<<< ours",
    "## Not a heading ^not-an-id",
    "```ts",
    "````",
    "## Heading ^real",
    "",
  ].join("\n");

  it("a shorter or an info-string line inside a fence closes nothing", () => {
    expect(findConflictMarkers(note)).toEqual([]);
    const anchors = scanAnchors(note);
    expect([...anchors.blockIds.keys()]).toEqual(["real"]);
    const blocks = splitBlocks(note);
    expect(blocks.map((b) => b.kind)).toEqual(["code", "heading"]);
  });

  it("a heading's section (read_note's #Heading) skips headings in code and ends at the next", () => {
    expect(sectionUnder(note, "Not a heading")).toBeNull();
    expect(sectionUnder(note, "heading")).toBe("## Heading ^real");
    const doc = [
      "# Runbook",
      "## Deploy",
      "~~~sh",
      "```",
      "# not a heading",
      "~~~",
      "steps",
      "### Rollback",
      "undo",
      "## Other",
      "x",
    ].join("\n");
    expect(sectionUnder(doc, "deploy")).toBe(
      ["## Deploy", "~~~sh", "```", "# not a heading", "~~~", "steps", "### Rollback", "undo"].join(
        "\n",
      ),
    );
    expect(sectionUnder(doc, "not a heading")).toBeNull();
    expect(sectionUnder(doc, "Rollback")).toBe("### Rollback\nundo");
    expect(sectionUnder(doc, "Other")).toBe("## Other\nx");
    expect(sectionUnder(doc, "missing")).toBeNull();
  });
});
