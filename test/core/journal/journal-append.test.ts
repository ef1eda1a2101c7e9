// appendJournalBlock / newJournalNote (`append_journal`, docs/mcp.md, "Tools"): the journal format
// and block ids.
import { describe, expect, it } from "vitest";
import {
  appendJournalBlock,
  insertJournalBlock,
  newJournalNote,
} from "../../../src/core/journal/append";
import { FrontmatterError } from "../../../src/core/errors";
import { existingBlockIds, idMarkers, splitBlocks } from "../../../src/core/journal/blocks";

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

  /** The block of a journal's body each id names, as our splitter (and `read_note`) resolves it. */
  const resolved = (text: string, ids: readonly string[]) => {
    const blocks = splitBlocks(text.slice(text.indexOf("# ")));
    return ids.map((id) => {
      const b = blocks.find((x) => x.blockId === id);
      return b ? [b.kind, b.text] : null;
    });
  };

  it("puts a code block's id on a line of its own after its closing fence, never on a fence line", () => {
    const { text, ids } = appendJournalBlock(null, "Ran this:\n```sh\nnpm test\n```", note);
    expect(text.endsWith(`Ran this: ^${ids[0]}\n\`\`\`sh\nnpm test\n\`\`\`\n\n^${ids[1]}\n`)).toBe(
      true,
    );
    expect(resolved(text, ids)).toEqual([
      ["paragraph", "Ran this:"],
      ["code", "```sh\nnpm test\n```"],
    ]);
  });

  it("closes a fence the appended text leaves open, so its id and later blocks are not code", () => {
    for (const [block, code] of [
      ["Ran this:\n```sh\nnpm test", "```sh\nnpm test\n```"],
      ["Output:\n~~~~\nok\n```", "~~~~\nok\n```\n~~~~"],
      ["Ends with a fence\n```", "```\n```"],
    ] as const) {
      const first = appendJournalBlock(null, block, note);
      expect(resolved(first.text, first.ids)).toEqual([
        ["paragraph", block.split("\n")[0]],
        ["code", code],
      ]);
      const next = appendJournalBlock(first.text, "Afterwards: a paragraph", note);
      expect(next.text.startsWith(first.text)).toBe(true);
      expect(resolved(next.text, next.ids)).toEqual([["paragraph", "Afterwards: a paragraph"]]);
      expect(idMarkers(next.text).map((m) => m.id)).toEqual([...first.ids, ...next.ids]);
    }
    // In a list item, the fence closes inside the item, at the opener's indent.
    const item = appendJournalBlock(null, "- ran:\n  ```sh\n  npm test", note);
    expect(item.text.endsWith(`- ran: ^${item.ids[0]}\n  \`\`\`sh\n  npm test\n  \`\`\`\n`)).toBe(
      true,
    );
    expect(resolved(item.text, item.ids)).toEqual([
      ["list-item", "- ran:\n  ```sh\n  npm test\n  ```"],
    ]);
  });

  it("closes a fence the journal leaves open before the block, keeping its bytes", () => {
    const current = "---\r\nid: j\r\n---\r\n# Day\r\n```\r\nhalf a snippet\r\n";
    const { text, ids } = appendJournalBlock(current, "Learned: fences close", note);
    expect(text).toBe(`${current}\`\`\`\r\n\r\nLearned: fences close ^${ids[0]}\r\n`);
    expect(resolved(text, ids)).toEqual([["paragraph", "Learned: fences close"]]);
    // Frontmatter is not read as a fence; a closed fence gets no second closer.
    const closed = "---\ntitle: x\n---\n# Day\n```\ncode\n```\n";
    expect(appendJournalBlock(closed, "x", note).text.startsWith(`${closed}\nx ^`)).toBe(true);
  });

  it("puts a table's and a list's ids where Obsidian reads them", () => {
    const { text, ids } = appendJournalBlock(
      null,
      "| page | score |\n| --- | --- |\n| blog | 79 |\n\n- one\n- two\n  child",
      note,
    );
    expect(text).toContain(
      `| blog | 79 |\n\n^${ids[0]}\n\n- one ^${ids[1]}\n- two ^${ids[2]}\n  child\n`,
    );
    expect(resolved(text, ids)).toEqual([
      ["table", "| page | score |\n| --- | --- |\n| blog | 79 |"],
      ["list-item", "- one"],
      ["list-item", "- two\n  child"],
    ]);
  });

  it("refuses an empty block", () => {
    expect(() => appendJournalBlock(null, " \n ", note)).toThrow(/empty/);
  });
});
