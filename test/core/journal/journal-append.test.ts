// appendJournalBlock / newJournalNote (`append_journal`, docs/mcp.md, "Tools"): the journal format
// and block ids.
import { describe, expect, it } from "vitest";
import {
  appendJournalBlock,
  insertJournalBlock,
  newJournalNote,
} from "../../../src/core/journal/append";
import { FrontmatterError } from "../../../src/core/errors";
import { existingBlockIds, splitBlocks } from "../../../src/core/journal/blocks";

const note = {
  agent: "link",
  date: "2026-11-27",
  path: "Memory/Agents/link/Journal/2026-11-27.md",
};

describe("appendJournalBlock", () => {
  it("starts a missing journal in the init format and gives the block an id", () => {
    const { text, ids } = appendJournalBlock(null, "Learned: canonical tags matter", note);
    expect(text.startsWith(newJournalNote("link", "2026-11-27"))).toBe(true);
    expect(text).toContain("id: journal-link-2026-11-27");
    expect(ids).toHaveLength(1);
    expect(text.endsWith(`Learned: canonical tags matter ^${ids[0]}\n`)).toBe(true);
  });

  it("keeps the note byte for byte, CRLF included, and separates the block by one blank line", () => {
    const current = "---\r\nid: j\r\n---\r\n# Day\r\nfirst line";
    const { text, ids } = appendJournalBlock(current, "- [ ] a task", note);
    expect(text).toBe(`${current}\r\n\r\n- [ ] a task ^${ids[0]}\r\n`);
  });

  it("refuses a journal whose frontmatter does not parse, naming it and the YAML error", () => {
    for (const current of [
      "---\ntitle: [unclosed\n---\n# Day\n",
      "---\na: 1\na: 2\n---\n# Day\n",
    ]) {
      expect(() => appendJournalBlock(current, "Learned: x", note)).toThrow(
        new RegExp(
          `^${note.path}: frontmatter does not parse, the note is left as it is \\(frontmatter is not valid YAML \\(line [23]\\): `,
        ),
      );
      expect(() => insertJournalBlock(current, "Learned: x", note, 0)).toThrow(FrontmatterError);
    }
    // Frontmatter that parses, or none at all: written.
    for (const current of ["---\ntitle: ok\n---\n# Day\n", "# Day\n", "---\n---\n# Day\n"])
      expect(appendJournalBlock(current, "Learned: x", note).text.startsWith(current)).toBe(true);
  });

  it("refuses a journal whose frontmatter is a list, a single value or never closed", () => {
    // Extraction could not mark such a journal afterwards, so a section written there would never
    // be read while the command said "nothing written".
    for (const [current, reason] of [
      [
        "---\n- a\n- b\n---\n# Day\n",
        /frontmatter is a YAML list, not a mapping of fields; nothing written$/,
      ],
      ["---\njust a string\n---\n# Day\n", /frontmatter is a single YAML value, not a mapping/],
      ["---\ntitle: x\n# Day\n", /frontmatter opened by the first line \(---\) is never closed/],
    ] as const) {
      expect(() => appendJournalBlock(current, "Learned: x", note)).toThrow(reason);
      expect(() => insertJournalBlock(current, "Learned: x", note, 0)).toThrow(FrontmatterError);
    }
  });

  it("gives the same text appended twice two different ids, each on its own block", () => {
    const once = appendJournalBlock(null, "same", note);
    const twice = appendJournalBlock(once.text, "same", note);
    expect(twice.ids[0]).not.toBe(once.ids[0]);
    expect([...existingBlockIds(twice.text)].sort()).toEqual([once.ids[0], twice.ids[0]].sort());
  });

  it("puts a callout's id on a line after it and keeps an id the block brings", () => {
    const { text, ids } = appendJournalBlock(null, "> [!insight]\n> text\n\npara ^mine", note);
    expect(ids[1]).toBe("mine");
    const blocks = splitBlocks(text.slice(text.indexOf("# ")));
    expect(blocks.find((b) => b.kind === "callout")?.blockId).toBe(ids[0]);
  });

  it("gives headings no block id (Obsidian links them by their text), and refuses a block of headings alone", () => {
    const r = appendJournalBlock(
      "# Day\n",
      "Decision: ship it\n\n## Next steps\n- Email the editor",
      { agent: "a", date: "2026-12-01", path: "j.md" },
    );
    expect(r.text).toMatch(/\n## Next steps\n/);
    expect(r.text).not.toMatch(/## Next steps \^/);
    expect(r.ids).toHaveLength(2);
    for (const id of r.ids) expect(r.text).toContain(`^${id}`);
    expect(() =>
      appendJournalBlock("# Day\n", "## Only a heading", {
        agent: "a",
        date: "2026-12-01",
        path: "j.md",
      }),
    ).toThrow(/only headings/);
  });

  it("refuses an empty block", () => {
    expect(() => appendJournalBlock(null, " \n ", note)).toThrow(/empty/);
  });
});
