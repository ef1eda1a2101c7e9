import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import matter from "gray-matter";
import { describe, expect, it } from "vitest";
import { NodeVault } from "../../src/node/node-vault";
import { FrontmatterError } from "../../src/core/errors";
import { frontmatterProblems, parseNote, setFrontmatter } from "../../src/core/frontmatter";
import { appendTopicEntry } from "../../src/core/knowledge/topic";
import { addTrackerItem } from "../../src/core/trackers/store";
import { readNoteInfo } from "../../src/core/health/note-info";
import { locateFrontmatter, splitLines } from "../../src/core/markdown/lines";
import {
  isFrontmatterDelimiter,
  locateFrontmatterBlock,
  textAfterFrontmatter,
} from "../../src/core/markdown/frontmatter-block";
import { readSimpleFrontmatter } from "../../src/core/markdown/fast-frontmatter";

const NESTED_LIST = "An unquoted wikilink in frontmatter reads as a nested list, not as a link.";

const CASE_02 = [
  "---",
  "created_at: 2024-05-23T22:17:03+08:00",
  "date: 2024-03-05",
  "reviewed: 2024-03-05 09:30:00",
  "id: 0123",
  "---",
  "",
].join("\n");

describe("parseNote", () => {
  it("case 01: parsing twice must not share state", () => {
    const text = "---\ntags: [inbox]\n---\nsame body\n";
    const first = parseNote(text);
    (first.data?.tags as string[]).push("leak");
    const second = parseNote(text);
    expect(second.data).toEqual({ tags: ["inbox"] });
    expect(second.body).toBe("same body\n");
  });

  it("case 01: invalid YAML is an error every time", () => {
    const text = "---\ntitle: [unclosed\n---\nbody\n";
    for (let i = 0; i < 3; i++) expect(() => parseNote(text, "j/a.md")).toThrow(FrontmatterError);
  });

  it("case 02: dates and timestamps stay strings, 0123 is never octal 83", () => {
    const { data } = parseNote(CASE_02);
    expect(data).toEqual({
      created_at: "2024-05-23T22:17:03+08:00",
      date: "2024-03-05",
      reviewed: "2024-03-05 09:30:00",
      id: "0123",
    });
    for (const value of Object.values(data ?? {})) expect(value).not.toBeInstanceOf(Date);
  });

  it("reads YAML 1.2 core scalars (yes stays a string, numbers stay numbers)", () => {
    const { data } = parseNote(
      "---\nanswer: yes\nconfidence: 0.8\ncount: 12\nzero: 0\ndone: true\nnothing:\n---\n",
    );
    expect(data).toEqual({
      answer: "yes",
      confidence: 0.8,
      count: 12,
      zero: 0,
      done: true,
      nothing: null,
    });
  });

  it("case 03: a horizontal rule is not frontmatter; the whole text is body", () => {
    const text = "---\n\nMet Person A about Project Alpha.\n\n---";
    const note = parseNote(text);
    expect(note.data).toBeNull();
    expect(note.body).toBe(text);
    expect(note.bodyLine).toBe(1);
  });

  it("an unclosed --- and a ---- line are not frontmatter", () => {
    expect(parseNote("---\ntitle: x\nbody\n").data).toBeNull();
    expect(parseNote("---\ntitle: x\n----\nbody\n").data).toBeNull();
    expect(parseNote("----\ntitle: x\n---\nbody\n").data).toBeNull();
  });

  it("splits a note with BOM and CRLF, giving the body's offset and line", () => {
    const text = "\uFEFF---\r\ntitle: x\r\n---\r\n# Heading\r\ntext\r\n";
    const note = parseNote(text);
    expect(note).toMatchObject({
      data: { title: "x" },
      body: "# Heading\r\ntext\r\n",
      bom: true,
      eol: "\r\n",
      bodyLine: 4,
    });
    expect(text.slice(note.bodyOffset)).toBe(note.body);
  });

  it("an empty frontmatter block is an empty mapping", () => {
    expect(parseNote("---\n---\nbody").data).toEqual({});
    expect(parseNote("---\n# only a comment\n---\nbody").data).toEqual({});
  });

  it("a note without frontmatter is all body", () => {
    expect(parseNote("\uFEFFjust text\n")).toMatchObject({
      data: null,
      body: "just text\n",
      bodyOffset: 1,
      bom: true,
    });
    expect(parseNote("")).toMatchObject({ data: null, body: "" });
  });

  it("unparseable YAML throws a FrontmatterError naming the file, the line and the reason", () => {
    const text = "---\ntitle: ok\npeople: [[Person A]], [[Person B]]\n---\nbody\n";
    let error: unknown;
    try {
      parseNote(text, "Memory/Agents/me/Journal/2024-03-05.md");
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(FrontmatterError);
    expect((error as FrontmatterError).subject).toBe("Memory/Agents/me/Journal/2024-03-05.md");
    expect((error as Error).message).toMatch(/2024-03-05\.md.*line 3.*Unexpected scalar/);
    expect((error as Error).message).toContain('people: ["[[Person A]]", "[[Person B]]"]');
  });

  it("rejects duplicate keys", () => {
    expect(() => parseNote("---\na: 1\na: 2\n---\n")).toThrow(/line 3/);
  });
});

describe("setFrontmatter", () => {
  it("case 02: editing another key writes the four lines back byte for byte", () => {
    const out = setFrontmatter(CASE_02, { status: "active" });
    expect(out).toBe(CASE_02.replace("id: 0123\n", "id: 0123\nstatus: active\n"));
  });

  it("case 02: a timestamp given as a string is written plain and reads back unchanged", () => {
    const out = setFrontmatter(CASE_02, { created_at: "2025-01-02T03:04:05+08:00" });
    expect(out).toContain("\ncreated_at: 2025-01-02T03:04:05+08:00\ndate: 2024-03-05\n");
    expect(parseNote(out).data?.created_at).toBe("2025-01-02T03:04:05+08:00");
  });

  it("case 04: wikilinks are always quoted, lists of them in flow style", () => {
    const out = setFrontmatter("---\ntype: knowledge\n---\n", {
      related_to: ["[[Project Alpha]]"],
      source: "[[2024-03-05#^am-k3f9]]",
    });
    expect(out).toBe(
      '---\ntype: knowledge\nrelated_to: ["[[Project Alpha]]"]\nsource: "[[2024-03-05#^am-k3f9]]"\n---\n',
    );
    expect(parseNote(out).data?.related_to).toEqual(["[[Project Alpha]]"]);
    expect(frontmatterProblems(out)).toEqual([]);
  });

  it("keeps comments, key order, BOM and CRLF; replaces a block value with its continuation lines", () => {
    const text = [
      "\uFEFF---",
      "# written by me",
      "title: Weekly review # keep this",
      "tags:",
      "  - inbox",
      "  # a comment inside the list",
      "  - review",
      "# before status",
      "status: draft",
      "---",
      "body",
      "",
    ].join("\r\n");
    const out = setFrontmatter(text, {
      tags: ["done"],
      status: "active",
      title: "Weekly review 2",
    });
    expect(out).toBe(
      [
        "\uFEFF---",
        "# written by me",
        "title: Weekly review 2 # keep this",
        "tags: [done]",
        "# before status",
        "status: active",
        "---",
        "body",
        "",
      ].join("\r\n"),
    );
  });

  it("creates frontmatter when the note has none, keeping the body", () => {
    expect(setFrontmatter("# Title\n\ntext", { type: "journal" })).toBe(
      "---\ntype: journal\n---\n# Title\n\ntext",
    );
    expect(setFrontmatter("\uFEFFline\r\nline\r\n", { a: 1 })).toBe(
      "\uFEFF---\r\na: 1\r\n---\r\nline\r\nline\r\n",
    );
  });

  it("refuses to write on a note whose first line opens frontmatter that is never closed, naming it", () => {
    expect(() => setFrontmatter("---\nno closing line\n", { a: 1 }, "J.md")).toThrow(
      /J\.md: frontmatter opened by the first line \(---\) is never closed/,
    );
    // Writing nothing is not a write: the note stays as it is.
    expect(setFrontmatter("---\nno closing line\n", {}, "J.md")).toBe("---\nno closing line\n");
    // A closing line anywhere below makes it frontmatter, which is edited as usual.
    expect(setFrontmatter("---\nb: 2\n---\nbody\n", { a: 1 }, "J.md")).toBe(
      "---\nb: 2\na: 1\n---\nbody\n",
    );
  });

  // docs/decisions.md, "Frontmatter that is a YAML list or a single value is never wrapped": a
  // second block in front of the first is what Obsidian would then show as the note's properties;
  // the person's block would turn into body text.
  const PATH = "Memory/Agents/me/Journal/2026-11-27.md";
  const NOT_MAPPINGS: [string, string][] = [
    ["---\n- a\n- b\n---\nbody", "a YAML list"],
    ["\uFEFF---\r\n- a\r\n- b\r\n---\r\nbody\r\n", "a YAML list"],
    ["---\n[a, b]\n---\n", "a YAML list"],
    ["---\nhello\n---", "a single YAML value"],
    ["---\n42\n---\nbody", "a single YAML value"],
    // The horizontal rules of "case 03: …" above: read as body, but never wrapped either.
    ["---\n\nMet Person A about Project Alpha.\n\n---", "a single YAML value"],
  ];

  it("frontmatter that is a YAML list or a single value reads as no fields, with the whole text as body", () => {
    for (const [text] of NOT_MAPPINGS) {
      const note = parseNote(text, PATH);
      expect(note.data).toBeNull();
      expect(note.body).toBe(text.replace(/^\uFEFF/, ""));
    }
  });

  it("a list or a single value as frontmatter is never wrapped: FrontmatterError naming the file, nothing written", () => {
    for (const [text, what] of NOT_MAPPINGS) {
      let thrown: unknown;
      try {
        setFrontmatter(
          text,
          { extracted_at: "2026-11-27T10:00:00+08:00", extraction_hash: "abc" },
          PATH,
        );
      } catch (err) {
        thrown = err;
      }
      expect(thrown, JSON.stringify(text)).toBeInstanceOf(FrontmatterError);
      expect((thrown as Error).message).toBe(
        `${PATH}: frontmatter is ${what}, not a mapping of fields; nothing written`,
      );
    }
  });

  it("a topic note, whose writes set updated_at, is refused too; a tracker's item lines go in without any frontmatter", () => {
    const topic = "---\n- a\n---\n# Sleep\n\n## Insights\n";
    const entry = {
      kind: "insight",
      heading: "Insights",
      date: "2026-11-27",
      confidence: 0.8,
      text: "Naps help",
      source: "[[2026-11-27]]",
    } as const;
    expect(() =>
      appendTopicEntry(
        topic,
        { title: "Sleep", type: "knowledge", createdAt: "2026-11-27", path: "Sleep.md" },
        entry,
      ),
    ).toThrow(/Sleep\.md: .*frontmatter is a YAML list, not a mapping of fields/);
    // As in test/core/trackers/trackers-format.test.ts, "case 03: …": such a tracker stays writable; its block is
    // kept as it is.
    const tracker = addTrackerItem(
      "---\nhello\n---\n# Tasks\n",
      "tasks",
      { text: "b", fields: [] },
      { agent: "me", title: "Tasks", createdAt: "2026-11-27" },
      "Tasks.md",
    );
    expect(tracker.text).toBe(`---\nhello\n---\n# Tasks\n- [ ] b ^${tracker.id}\n`);
  });

  it("an empty frontmatter block is an empty mapping: the keys go into it", () => {
    expect(setFrontmatter("---\n---\nbody", { extracted_at: "x" }, PATH)).toBe(
      "---\nextracted_at: x\n---\nbody",
    );
    expect(setFrontmatter("---\r\n---\r\n", { a: 1 }, PATH)).toBe("---\r\na: 1\r\n---\r\n");
    expect(setFrontmatter("---\n# only a comment\n---\nbody", { a: 1 }, PATH)).toBe(
      "---\n# only a comment\na: 1\n---\nbody",
    );
  });

  it("leaves keys set to undefined, and returns the same text when nothing changes", () => {
    expect(setFrontmatter(CASE_02, { date: undefined })).toBe(CASE_02);
    expect(setFrontmatter(CASE_02, { date: "2024-03-05", id: "0123" })).toBe(CASE_02);
  });

  it("quotes strings that would not read back as themselves", () => {
    const out = setFrontmatter("---\na: 1\n---\n", {
      b: "0124",
      c: "true",
      d: "it: is",
      e: "two\nlines",
      f: "",
      g: "睡眠质量",
    });
    expect(out).toBe(
      '---\na: 1\nb: "0124"\nc: "true"\nd: "it: is"\ne: "two\\nlines"\nf: ""\ng: 睡眠质量\n---\n',
    );
    expect(parseNote(out).data).toEqual({
      a: 1,
      b: "0124",
      c: "true",
      d: "it: is",
      e: "two\nlines",
      f: "",
      g: "睡眠质量",
    });
  });

  it("writes nested values as indented block lines", () => {
    const out = setFrontmatter("---\n  a: 1\n---\n", { b: { c: [1, { d: "[[x]]" }] } });
    expect(parseNote(out).data).toEqual({ a: 1, b: { c: [1, { d: "[[x]]" }] } });
    expect(out).toContain('      - d: "[[x]]"');
  });

  it("re-serialises a flow-mapping frontmatter it cannot edit by lines, and refuses a broken alias", () => {
    expect(parseNote(setFrontmatter("---\n{a: 1, b: 2}\n---\nx", { a: 3 })).data).toEqual({
      a: 3,
      b: 2,
    });
    expect(() => setFrontmatter("---\na: &x 1\nb: *x\n---\n", { a: 2 })).toThrow(FrontmatterError);
  });

  it("unparseable YAML: FrontmatterError naming the file, and the note is never rewritten", async () => {
    const dir = await mkdtemp(join(tmpdir(), "am-fm-"));
    try {
      const vault = new NodeVault(dir);
      const text = "---\nproject: [[A]], [[B]]\n---\nbody\n";
      await writeFile(join(dir, "note.md"), text);
      await expect(
        vault.process("note.md", (current) =>
          setFrontmatter(current ?? "", { status: "active" }, "note.md"),
        ),
      ).rejects.toThrow(/note\.md.*line 2/);
      expect(await readFile(join(dir, "note.md"), "utf8")).toBe(text);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("frontmatterProblems", () => {
  it("case 04: reports both wikilink lines with how to quote them", () => {
    const problems = frontmatterProblems("---\nproject: [[Project Alpha]]\n---\n");
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({
      line: 2,
      severity: "error",
      message: NESTED_LIST,
      hint: 'Quote wikilinks in frontmatter: project: "[[Project Alpha]]"',
    });
    const both = frontmatterProblems(
      "---\nproject: [[Project Alpha]]\npeople: [[Person A]], [[Person B]]\n---\n",
    );
    expect(both.map((p) => [p.line, p.severity, p.hint])).toEqual([
      [2, "error", 'Quote wikilinks in frontmatter: project: "[[Project Alpha]]"'],
      [3, "error", 'Quote wikilinks in frontmatter: people: ["[[Person A]]", "[[Person B]]"]'],
    ]);
    expect(both[1]?.message).toMatch(/not valid YAML/);
    const inList = frontmatterProblems("---\nrelated_to:\n  - [[Note A]]\n---\n");
    expect(inList.map((p) => [p.line, p.hint])).toEqual([
      [3, 'Quote wikilinks in frontmatter: - "[[Note A]]"'],
    ]);
  });

  it("case 03: warns that a leading --- block which is not a mapping is read as body", () => {
    const [problem, ...rest] = frontmatterProblems(
      "---\n\nMet Person A about Project Alpha.\n\n---",
    );
    expect(rest).toEqual([]);
    expect(problem).toMatchObject({ line: 1, severity: "warning" });
    expect(problem?.message).toMatch(/not a YAML mapping/);
    expect(frontmatterProblems("---\nno closing line\n").map((p) => [p.line, p.severity])).toEqual([
      [1, "warning"],
    ]);
  });

  it("finds nothing in healthy notes and notes without frontmatter", () => {
    expect(frontmatterProblems(CASE_02)).toEqual([]);
    expect(frontmatterProblems("# Title\n\ntext")).toEqual([]);
  });

  it("gives the line of a YAML error in a CRLF note with a BOM", () => {
    expect(
      frontmatterProblems("\uFEFF---\r\na: 1\r\nb: [x\r\n---\r\n").map((p) => [p.line, p.severity]),
    ).toEqual([[3, "error"]]);
  });

  it("a YAML error names the line that opened it, the same in every report", () => {
    // Unterminated: the parser stops at the closing `---` (line 4); the line to fix is 3.
    const open = "---\ntitle: x\ntags: [a, b\n---\nbody\n";
    expect(frontmatterProblems(open).map((p) => p.line)).toEqual([3]);
    expect(() => parseNote(open, "n.md")).toThrow(
      /^n\.md: frontmatter is not valid YAML \(line 3\)/,
    );
    // Nothing opened a bracket: the last filled line before the blank one.
    const plain = '---\na: 1\nb: "c\n\n---\n';
    expect(frontmatterProblems(plain).map((p) => p.line)).toEqual([3]);
    // An error inside the YAML keeps its own line, though a later line has a bracket.
    const inside = "---\na: 1\n  b: 2\nc: [d]\n---\n";
    const line = frontmatterProblems(inside)[0]?.line;
    expect(line).toBeLessThan(4);
    expect(() => parseNote(inside, "n.md")).toThrow(`(line ${line})`);
  });
});

// ---------------------------------------------------------------------------------------------
// Property: setting one key leaves every other line identical.

const scalarText = fc.constantFrom(
  "2024-05-23T22:17:03+08:00",
  "2024-03-05",
  "2024-03-05 09:30:00",
  "0123",
  "42",
  "0.8",
  "true",
  "draft",
  '"[[Project Alpha]]"',
  '["[[Person A]]", "[[Person B]]"]',
  "睡眠质量与早起习惯",
  "it's fine",
  "'quoted: x'",
  "null",
  "",
  "|\n  line one\n  line two",
  "\n  - a\n  - b",
  "\n  nested: 1\n  other: [x, y]",
);
const trailingComment = fc.constantFrom("", "", " # a comment", "  #另一个注释");
const keyName = fc.stringMatching(/^[a-z][a-z_]{0,7}$/);
const noise = fc.constantFrom("# a comment line", "", "# 中文注释");
const newValue = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme" }),
  fc.constantFrom(
    "2026-03-24",
    "2024-05-23T22:17:03+08:00",
    "0123",
    "[[Project Alpha]]",
    "yes",
    "- not a list",
    "a: b",
  ),
  fc.array(fc.constantFrom("[[Project Alpha]]", "[[睡眠质量]]", "inbox", "a, b"), { maxLength: 3 }),
  fc.integer(),
  fc.double({ noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.dictionary(keyName, fc.oneof(fc.string(), fc.integer()), { maxKeys: 3 }),
);

const noteArb = fc
  .record({
    keys: fc.uniqueArray(keyName, { minLength: 0, maxLength: 6 }),
    values: fc.array(fc.tuple(scalarText, trailingComment, fc.option(noise, { nil: undefined })), {
      minLength: 6,
      maxLength: 6,
    }),
    eol: fc.constantFrom("\n", "\r\n"),
    bom: fc.boolean(),
    body: fc.array(
      fc.constantFrom(
        "# 今日",
        "Met Person A.",
        "- [ ] call Person B",
        "---",
        "",
        "今天完成了认证系统的重构。",
      ),
      { maxLength: 5 },
    ),
    target: fc.nat(),
    isNew: fc.boolean(),
    value: newValue,
  })
  .map((r) => {
    const entries = r.keys.map((key, i) => {
      const [value, comment, extra] = r.values[i] ?? ["", "", undefined];
      const multiLine = value.includes("\n");
      const lines =
        `${key}:${value === "" || value.startsWith("\n") ? "" : " "}${value}${multiLine ? "" : comment}`.split(
          "\n",
        );
      return { key, lines, extra };
    });
    return { ...r, entries };
  });

describe("setFrontmatter property", () => {
  it("setting one key leaves every other line identical, and the note reads back as set", () => {
    fc.assert(
      fc.property(noteArb, (n) => {
        const fmLines = n.entries.flatMap((e) =>
          e.extra === undefined ? e.lines : [e.extra, ...e.lines],
        );
        const head = `${n.bom ? "\uFEFF" : ""}---${n.eol}`;
        const tail = `---${n.eol}${n.body.join(n.eol)}`;
        const text = head + fmLines.map((l) => l + n.eol).join("") + tail;
        const before = parseNote(text).data ?? {};
        const targetEntry =
          n.isNew || n.entries.length === 0 ? undefined : n.entries[n.target % n.entries.length];
        const key = targetEntry?.key ?? "zz_new_key";
        expect(setFrontmatter(text, {})).toBe(text);
        const out = setFrontmatter(text, { [key]: n.value });

        const after = parseNote(out);
        expect(after.data).toEqual({ ...before, [key]: structuredClone(n.value) });
        expect(after.body).toBe(n.body.join(n.eol));
        if (out === text) return;
        // Lines before and after the target entry are untouched and in order.
        const outLines = out.split(n.eol);
        const inLines = text.split(n.eol);
        let start = inLines.length - (tail.split(n.eol).length - 1) - 1; // index of the closing --- (for a new key)
        let count = 0;
        if (targetEntry) {
          start =
            1 +
            n.entries
              .slice(0, n.entries.indexOf(targetEntry))
              .reduce((s, e) => s + e.lines.length + (e.extra === undefined ? 0 : 1), 0);
          start += targetEntry.extra === undefined ? 0 : 1;
          count = targetEntry.lines.length;
        }
        expect(outLines.slice(0, start)).toEqual(inLines.slice(0, start));
        const suffix = inLines.slice(start + count);
        expect(outLines.slice(outLines.length - suffix.length)).toEqual(suffix);
      }),
      { numRuns: 400 },
    );
  });
});

describe("splitting agrees with gray-matter where gray-matter is right", () => {
  it("case 01: gray-matter without options shares one cached object between parses; parseNote does not", () => {
    const text = "---\ntags: [inbox]\n---\nsame body\n";
    (matter(text).data.tags as string[]).push("leak");
    expect(matter(text).data.tags).toEqual(["inbox", "leak"]);
    (parseNote(text).data?.tags as string[]).push("leak");
    expect(parseNote(text).data?.tags).toEqual(["inbox"]);
  });

  it("gives gray-matter's body for well-formed notes (gray-matter called with options: no cache)", () => {
    fc.assert(
      fc.property(noteArb, (n) => {
        const fm = n.entries.flatMap((e) =>
          e.extra === undefined ? e.lines : [e.extra, ...e.lines],
        );
        const text = `${n.bom ? "\uFEFF" : ""}---${n.eol}${fm.map((l) => l + n.eol).join("")}---${n.eol}${n.body.join(n.eol)}`;
        const theirs = matter(text, { engines: { yaml: () => ({}) } });
        expect(parseNote(text).body).toBe(theirs.content);
      }),
      { numRuns: 200 },
    );
  });
});

// One boundary rule (src/core/markdown/frontmatter-block.ts) for every reader of frontmatter: the
// parser, the search index's fast path, the health check's note info and line-preserving edits.
describe("the frontmatter boundary", () => {
  it("takes `---` with trailing blanks as a delimiter, and not `----`, `--- x` or YAML's `...`", () => {
    for (const line of ["---", "---  ", "---\t", "---\r"])
      expect(isFrontmatterDelimiter(line), line).toBe(true);
    for (const line of ["----", "--- x", "...", " ---", "-- -", ""])
      expect(isFrontmatterDelimiter(line), line).toBe(false);
  });

  const notes: [string, string, string][] = [
    ["plain", "---\na: 1\n---\nbody\n", "body\n"],
    ["blanks after the delimiters", "---  \na: 1\n---\t\nbody\n", "body\n"],
    ["CRLF and a BOM", "\uFEFF---\r\na: 1\r\n---\r\nbody\r\n", "body\r\n"],
    ["`...` inside, closed by `---`", "---\na: 1\n...\n---\nbody\n", "body\n"],
    ["no closing line", "---\na: 1\n...\nbody\n", "---\na: 1\n...\nbody\n"],
    ["`----` is not a closing line", "---\na: 1\n----\nbody\n", "---\na: 1\n----\nbody\n"],
  ];
  for (const [what, text, body] of notes) {
    it(`parser, fast path and block locator agree: ${what}`, () => {
      expect(textAfterFrontmatter(text)).toBe(body);
      expect(parseNote(text).body).toBe(body);
      const fast = readSimpleFrontmatter(text);
      if (fast) expect(fast.body).toBe(body);
      const block = locateFrontmatterBlock(text).block;
      const { lines } = splitLines(text);
      expect(locateFrontmatter(text, lines).bodyStart).toBe(block ? block.closeLine + 1 : 0);
    });
  }

  it("skips an unparsable block up to the same `---` line, never an earlier `...`", () => {
    const text = "---\na: [1\n...\nb: 2\n---\nbody\n";
    expect(() => parseNote(text)).toThrow(FrontmatterError);
    const { lines } = splitLines(text);
    const edit = locateFrontmatter(text, lines);
    expect(edit.error).not.toBeNull();
    expect(edit.bodyStart).toBe(5);
    const info = readNoteInfo(
      "n.md",
      text,
      { size: text.length, mtime: 0 },
      { collection: "library", agent: null },
    );
    expect(info.invalid).toBe(true);
    expect(info.bodyLine).toBe(6);
    expect(info.body).toBe("body\n");
    expect(textAfterFrontmatter(text)).toBe("body\n");
  });

  it("gives the fast path's result only where the parser gives the same", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom("---", "--- ", "...", "----", "a: 1", "b: x", "", "text", "\r"), {
          maxLength: 8,
        }),
        (parts) => {
          const text = parts.join("\n");
          const fast = readSimpleFrontmatter(text);
          if (fast) expect(fast.body).toBe(parseNote(text).body);
          if (fast) expect(fast.body).toBe(textAfterFrontmatter(text));
        },
      ),
    );
  });
});
