// The indexer's fast frontmatter path must agree with parseNote on every note it accepts
// (fast-frontmatter.ts), and hand everything else to parseNote.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseNote } from "../../../src/core/frontmatter";
import { readSimpleFrontmatter } from "../../../src/core/markdown/fast-frontmatter";

/** What parseNote says, in the form the indexer uses; `null` when it throws. */
function full(text: string): { data: Record<string, unknown>; body: string } | null {
  try {
    const p = parseNote(text, "t.md");
    return { data: p.data ?? {}, body: p.body };
  } catch {
    return null;
  }
}

const KEYS = [
  "id",
  "type",
  "status",
  "tags",
  "title",
  "created_at",
  "confidence",
  "aliases",
  "x-y",
  "a_b",
];
const VALUES = [
  "plain words",
  "0123",
  "12",
  "1.5",
  "1e3",
  "-5",
  "+1",
  ".5",
  "5.",
  "1_000",
  "0x1F",
  "0o17",
  ".inf",
  "true",
  "False",
  "yes",
  "null",
  "~",
  "2024-05-23T22:17:03+08:00",
  "2024-03-05 09:30:00",
  "'a b'",
  "'it''s'",
  '"a: b"',
  '"esc\\"aped"',
  "[a, b]",
  "[a, 'b c', 3]",
  "[[Project Alpha]]",
  "[[Person A]], [[Person B]]",
  "[a, ]",
  "[, a]",
  "[]",
  "[a: b]",
  "a: b",
  "a #c",
  "C#",
  "#c",
  "&x",
  "*y",
  "!t",
  "|",
  ">",
  "@x",
  "`x`",
  "%x",
  "- x",
  "--",
  "-x",
  "x:",
  "http://example.com/a?b=c",
  "{a: 1}",
  "a\tb",
  "中文 值",
];
const lineArb = fc.oneof(
  fc.tuple(fc.constantFrom(...KEYS), fc.constantFrom(...VALUES)).map(([k, v]) => `${k}: ${v}`),
  fc
    .tuple(
      fc.constantFrom(...KEYS),
      fc.array(fc.constantFrom(...VALUES), { minLength: 0, maxLength: 3 }),
      fc.constantFrom("  - ", "- ", "    - "),
    )
    .map(([k, vs, bullet]) => [`${k}:`, ...vs.map((v) => `${bullet}${v}`)].join("\n")),
  fc.constantFrom(
    "# a comment",
    "",
    "  indented: x",
    "key:value",
    "  # indented comment",
    "-",
    "  -",
    "key with space: x",
    "...",
    "%YAML 1.2",
  ),
);

describe("fast frontmatter path", () => {
  it("agrees with parseNote whenever it accepts a note", () => {
    let accepted = 0;
    fc.assert(
      fc.property(
        fc.array(lineArb, { maxLength: 8 }),
        fc.constantFrom("\n", "\r\n"),
        fc.boolean(),
        (lines, eol, bom) => {
          const text = `${bom ? "\uFEFF" : ""}---${eol}${lines.join("\n").replace(/\n/g, eol)}${eol}---${eol}body text${eol}`;
          const fast = readSimpleFrontmatter(text);
          if (fast === null) return;
          accepted++;
          expect(fast).toEqual(full(text));
        },
      ),
      { numRuns: 3000 },
    );
    // The generator must exercise the fast path, not only the fallback.
    expect(accepted).toBeGreaterThan(300);
  });

  it("cases 01–04: hands broken, ambiguous or non-mapping frontmatter to parseNote", () => {
    expect(readSimpleFrontmatter("---\n\nMet Person A about Project Alpha.\n\n---\n")).toBeNull();
    expect(
      readSimpleFrontmatter(
        "---\nproject: [[Project Alpha]]\npeople: [[Person A]], [[Person B]]\n---\n",
      ),
    ).toBeNull();
    expect(
      readSimpleFrontmatter("---\nid: 0123\ncreated_at: 2024-05-23T22:17:03+08:00\n---\nx"),
    ).toEqual({
      data: { id: "0123", created_at: "2024-05-23T22:17:03+08:00" },
      body: "x",
    });
    expect(readSimpleFrontmatter("no frontmatter\n---\n")).toEqual({
      data: {},
      body: "no frontmatter\n---\n",
    });
    expect(readSimpleFrontmatter("---\nid: 1\nno closing line")).toBeNull();
    expect(readSimpleFrontmatter("---\nid: 1\n")).toEqual(full("---\nid: 1\n"));
  });

  it("agrees with parseNote on every note of the sample and fixture vaults", () => {
    const root = fileURLToPath(new URL("../../..", import.meta.url));
    const notes: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const p = join(dir, name);
        if (statSync(p).isDirectory()) walk(p);
        else if (name.endsWith(".md")) notes.push(p);
      }
    };
    for (const dir of ["examples/vault", "test/fixtures"]) walk(join(root, dir));
    expect(notes.length).toBeGreaterThan(10);
    for (const p of notes) {
      const text = readFileSync(p, "utf8");
      const fast = readSimpleFrontmatter(text);
      if (fast !== null) expect(fast, p).toEqual(full(text));
    }
  });
});
