// readNoteInfo (src/core/health/note-info.ts) and locateFrontmatter (src/core/markdown/lines.ts)
// read plain frontmatter with the index's fast reader:
// what it gives must be what the full YAML parse gives, for the notes the fast reader takes and
// for those it leaves to parseNote.
import { describe, expect, it } from "vitest";
import { parseNote } from "../../../src/core/frontmatter";
import { readNoteInfo } from "../../../src/core/health/note-info";
import { readSimpleFrontmatter } from "../../../src/core/markdown/fast-frontmatter";
import { locateFrontmatter, splitLines } from "../../../src/core/markdown/lines";

const NOTES: Record<string, string> = {
  plain: "---\ntype: knowledge\nstatus: active\nupdated_at: 2026-11-20\n---\n# Deploys\n\nText.\n",
  crlf: "---\r\ntype: knowledge\r\naliases:\r\n  - canary\r\n  - 金丝雀\r\n---\r\n# Canary\r\n\r\nText.\r\n",
  bom: "\uFEFF---\ntags: [ops, deploy]\ncreated_at: 2026-11-01T10:00:00+08:00\n---\nBody.\n",
  nested: "---\ntype: knowledge\nsource:\n  url: https://example.com\n---\n# Nested\n",
  none: "# No frontmatter\n\nText.\n",
  empty: "---\n---\n# Empty\n",
  invalid: "---\ntype: [unclosed\n---\n# Bad\n",
  unclosed: "---\ntype: knowledge\n# never closed\n",
  "no body": "---\ntype: tracker\nkind: tasks\ntags: [inbox]\n---",
};

describe("readNoteInfo's frontmatter", () => {
  it("the fast reader takes plain frontmatter and leaves the rest to parseNote", () => {
    expect(readSimpleFrontmatter(NOTES.plain!)).not.toBeNull();
    expect(readSimpleFrontmatter(NOTES.crlf!)).not.toBeNull();
    expect(readSimpleFrontmatter(NOTES.nested!)).toBeNull();
  });

  for (const [name, text] of Object.entries(NOTES)) {
    it(`${name}: data, body, body line and validity are those of parseNote`, () => {
      const info = readNoteInfo(
        `Memory/Library/${name}.md`,
        text,
        { size: text.length, mtime: 0 },
        {
          collection: "library",
          agent: null,
        },
      );
      let expected: { data: unknown; body: string; bodyLine: number; invalid: boolean };
      try {
        const p = parseNote(text, name);
        expected = { data: p.data, body: p.body, bodyLine: p.bodyLine, invalid: false };
      } catch {
        expected = { data: null, body: info.body, bodyLine: info.bodyLine, invalid: true };
      }
      expect({
        data: info.data,
        body: info.body,
        bodyLine: info.bodyLine,
        invalid: info.invalid,
      }).toEqual(expected);
    });
  }

  for (const [name, text] of Object.entries(NOTES)) {
    it(`${name}: locateFrontmatter finds the body where parseNote does`, () => {
      const { lines } = splitLines(text);
      let bodyStart: number;
      try {
        const p = parseNote(text);
        bodyStart = p.data === null ? 0 : Math.min(lines.length, Math.max(0, p.bodyLine - 1));
      } catch {
        bodyStart = -1;
      }
      const found = locateFrontmatter(text, lines);
      if (bodyStart >= 0) expect(found).toEqual({ bodyStart, error: null });
      else expect(found.error).not.toBeNull();
    });
  }
});
