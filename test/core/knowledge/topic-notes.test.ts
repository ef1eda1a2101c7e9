import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { FrontmatterError } from "../../../src/core/errors";
import { parseNote, unclosedFrontmatterError } from "../../../src/core/frontmatter";
import {
  addEntrySource,
  appendTopicEntry,
  formatCallout,
  listTopicEntries,
  topicDestination,
  topicId,
  topicKey,
  type TopicEntryInput,
  type TopicMeta,
} from "../../../src/core/knowledge/topic";
import { MemoryLayout } from "../../../src/core/layout";
import { defaultSettings } from "../../../src/core/settings";
import { joinLines, locateFrontmatter, splitLines } from "../../../src/core/markdown/lines";
import { tempVault } from "../../helpers/temp-vault";
import { trackerNote } from "../../helpers/tracker-arbitraries";
import { textOf } from "../../helpers/edit-result";

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

const META: TopicMeta = {
  title: "Content quality",
  agent: "link",
  category: "learning",
  type: "knowledge",
  createdAt: "2026-03-27T10:00:00+08:00",
};
const INSIGHT: TopicEntryInput = {
  kind: "insight",
  heading: "Insights",
  date: "2026-03-27",
  confidence: 0.8,
  text: "Creating tickets faster than review can absorb them looks productive but changes nothing.",
  source: "Agents/link/Journal/2026-03-27#^am-9k2f",
};
/** The callout of docs/architecture.md, "Topic notes", verbatim. */
const DOCUMENTED_CALLOUT = [
  "> [!insight] 2026-03-27 · confidence 0.8",
  "> Creating tickets faster than review can absorb them looks productive but changes nothing.",
  "> Source: [[Agents/link/Journal/2026-03-27#^am-9k2f]]",
];

const INSIGHT_LINES = DOCUMENTED_CALLOUT.length;

/** Every file under a folder, relative, with `/`. */
function filesUnder(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const abs = join(dir, name);
      if (statSync(abs).isDirectory()) walk(abs);
      else out.push(relative(root, abs).split("\\").join("/"));
    }
  };
  walk(root);
  return out.sort();
}

describe("topic notes: creating and appending", () => {
  it("creates a note with frontmatter, a title and the callout in the documented form", () => {
    const text = appendTopicEntry(
      null,
      { ...META, related: ["Agents/link/Knowledge/learning/Reviews.md", "[[睡眠质量]]"] },
      INSIGHT,
    );
    expect(text).toBe(
      [
        "---",
        "id: link/content-quality",
        "type: knowledge",
        "domain: learning",
        "category: learning",
        "status: active",
        "created_at: 2026-03-27T10:00:00+08:00",
        "updated_at: 2026-03-27T10:00:00+08:00",
        'related_to: ["[[Agents/link/Knowledge/learning/Reviews]]", "[[睡眠质量]]"]',
        "agent: link",
        "---",
        "# Content quality",
        "",
        "## Insights",
        "",
        ...DOCUMENTED_CALLOUT,
        "",
      ].join("\n"),
    );
    const data = parseNote(text).data;
    expect(data?.created_at).toBe("2026-03-27T10:00:00+08:00");
    expect(data?.related_to).toEqual([
      "[[Agents/link/Knowledge/learning/Reviews]]",
      "[[睡眠质量]]",
    ]);
  });

  it("a library note has type library and no agent", () => {
    const text = appendTopicEntry(
      null,
      {
        title: "Refund policy",
        category: "compliance",
        type: "library",
        createdAt: "2026-03-27T10:00:00Z",
      },
      INSIGHT,
    );
    const data = parseNote(text).data;
    expect(data).toMatchObject({
      id: "library/refund-policy",
      type: "library",
      domain: "compliance",
      related_to: [],
    });
    expect(data?.agent).toBeUndefined();
  });

  it("appends after the last callout of an existing section, before the next heading, one blank line apart", () => {
    const note = [
      "---",
      "id: link/content-quality",
      "# a comment a person wrote",
      "updated_at: 2026-03-01",
      "---",
      "# Content quality",
      "",
      "## Insights",
      "Intro a person wrote.",
      "",
      "> [!insight] 2026-03-01 · confidence 0.6",
      "> First.",
      "> Source: [[Agents/link/Journal/2026-03-01#^am-0001]]",
      "## Decisions",
      "",
      "> [!decision] 2026-03-02 · confidence 0.9",
      "> Ship weekly.",
      "",
    ].join("\n");
    const out = appendTopicEntry(
      note,
      { ...META, createdAt: "2026-03-27T11:00:00+08:00" },
      INSIGHT,
    );
    expect(out).toBe(
      [
        "---",
        "id: link/content-quality",
        "# a comment a person wrote",
        "updated_at: 2026-03-27T11:00:00+08:00",
        "---",
        "# Content quality",
        "",
        "## Insights",
        "Intro a person wrote.",
        "",
        "> [!insight] 2026-03-01 · confidence 0.6",
        "> First.",
        "> Source: [[Agents/link/Journal/2026-03-01#^am-0001]]",
        "",
        ...DOCUMENTED_CALLOUT,
        "",
        "## Decisions",
        "",
        "> [!decision] 2026-03-02 · confidence 0.9",
        "> Ship weekly.",
        "",
      ].join("\n"),
    );
  });

  it("a section without callouts gets the callout after its last line; headings match without case", () => {
    const note = "# T\n\n## insights\nSome text.\n\n\n### Sub\n\nmore\n\n## Patterns\n";
    const out = appendTopicEntry(note, META, INSIGHT);
    expect(out.split("---\n")[2]).toBe(
      `# T\n\n## insights\nSome text.\n\n\n### Sub\n\nmore\n\n${DOCUMENTED_CALLOUT.join("\n")}\n\n## Patterns\n`,
    );
  });

  it("creates the heading at the end when missing, also after text without a final newline", () => {
    const note = "---\nid: x\n---\n# Content quality\n\nNotes so far.";
    const out = appendTopicEntry(note, META, {
      ...INSIGHT,
      kind: "pattern",
      heading: "Patterns",
      text: "Line one.\n\nLine two.",
    });
    expect(out).toBe(
      [
        "---",
        "id: x",
        "updated_at: 2026-03-27T10:00:00+08:00",
        "---",
        "# Content quality",
        "",
        "Notes so far.",
        "",
        "## Patterns",
        "",
        "> [!pattern] 2026-03-27 · confidence 0.8",
        "> Line one.",
        ">",
        "> Line two.",
        "> Source: [[Agents/link/Journal/2026-03-27#^am-9k2f]]",
        "",
      ].join("\n"),
    );
  });

  it("keeps CRLF and BOM; the lines a person wrote stay byte for byte", () => {
    const note =
      "\uFEFF---\r\nid: x\r\nupdated_at: 2026-03-01\r\n---\r\n# 睡眠质量\r\n\r\n## Insights\r\n\r\n> [!insight] 2026-03-01 · confidence 0.7\r\n> 早睡有用。\r\n\r\n## 其他\r\n手写的内容\r\n";
    const out = appendTopicEntry(
      note,
      { ...META, title: "睡眠质量" },
      { ...INSIGHT, text: "午睡超过 30 分钟影响夜间睡眠。" },
    );
    expect(out.startsWith("\uFEFF---\r\n")).toBe(true);
    expect(out.replace(/\r\n/g, "")).not.toContain("\n");
    expect(out).toContain(
      "> 早睡有用。\r\n\r\n> [!insight] 2026-03-27 · confidence 0.8\r\n> 午睡超过 30 分钟影响夜间睡眠。\r\n> Source: [[Agents/link/Journal/2026-03-27#^am-9k2f]]\r\n\r\n## 其他\r\n手写的内容\r\n",
    );
    const before = splitLines(note).lines.filter((l) => !l.text.startsWith("updated_at"));
    const after = splitLines(out).lines;
    for (const line of before) expect(after).toContainEqual(line);
  });

  it("case 10: the same entry again changes nothing; from a new block it gains a source instead of a copy", () => {
    const once = appendTopicEntry(null, META, INSIGHT);
    expect(
      appendTopicEntry(once, { ...META, createdAt: "2026-03-28T09:00:00+08:00" }, INSIGHT),
    ).toBe(once);
    const respaced = { ...INSIGHT, text: `  ${INSIGHT.text.toUpperCase()} ` };
    expect(
      appendTopicEntry(once, { ...META, createdAt: "2026-03-28T09:00:00+08:00" }, respaced),
    ).toBe(once);
    const twice = appendTopicEntry(
      once,
      { ...META, createdAt: "2026-03-28T09:00:00+08:00" },
      { ...INSIGHT, source: "Agents/link/Journal/2026-03-28#^am-aaaa" },
    );
    const entries = listTopicEntries(twice);
    expect(entries).toHaveLength(1);
    expect(entries[0]?.sources).toEqual([
      "Agents/link/Journal/2026-03-27#^am-9k2f",
      "Agents/link/Journal/2026-03-28#^am-aaaa",
    ]);
    expect(parseNote(twice).data?.updated_at).toBe("2026-03-28T09:00:00+08:00");
  });

  it("merges related_to as quoted wikilinks, reading unquoted ones a person wrote (case 04)", () => {
    const note = "---\nid: x\nrelated_to: [[Project Alpha]]\n---\n# T\n";
    const out = appendTopicEntry(
      note,
      { ...META, related: ["Project Alpha", "Memory/Library/ops/Runbook.md"] },
      INSIGHT,
    );
    expect(out).toContain('related_to: ["[[Project Alpha]]", "[[Memory/Library/ops/Runbook]]"]\n');
    expect(parseNote(out).data?.related_to).toEqual([
      "[[Project Alpha]]",
      "[[Memory/Library/ops/Runbook]]",
    ]);
    const again = appendTopicEntry(out, { ...META, related: ["project alpha"] }, INSIGHT);
    expect(again).toBe(out);
  });

  it("never rewrites a note whose frontmatter does not parse, and names it", () => {
    const note =
      "---\npeople: [[Person A]], [[Person B]]\n---\n# T\n\n> [!insight] 2026-03-01 · confidence 0.5\n> x\n";
    const path = "Memory/Agents/link/Knowledge/learning/T.md";
    expect(() => appendTopicEntry(note, { ...META, path }, INSIGHT)).toThrow(FrontmatterError);
    expect(() => appendTopicEntry(note, { ...META, path }, INSIGHT)).toThrow(/T\.md/);
    expect(() => addEntrySource(note, 0, "a#^b", path)).toThrow(FrontmatterError);
  });

  it("ignores headings and callouts inside code fences", () => {
    const note = "# T\n\n```md\n## Insights\n> [!insight] fake\n```\n";
    expect(listTopicEntries(note)).toEqual([]);
    const out = appendTopicEntry(note, META, INSIGHT);
    expect(out.endsWith(`\`\`\`\n\n## Insights\n\n${DOCUMENTED_CALLOUT.join("\n")}\n`)).toBe(true);
  });
});

describe("topic notes: properties over generated notes", () => {
  /** Generated notes (CRLF, BOM, CJK, frontmatter, no final newline), some with an Insights section. */
  const topicNote = fc.tuple(trackerNote, fc.option(fc.nat(), { nil: null })).map(([g, at]) => {
    if (at === null) return g.text;
    const { bom, lines } = splitLines(g.text);
    const start = locateFrontmatter(g.text, lines).bodyStart;
    const i = start + (at % (lines.length - start + 1));
    lines.splice(
      i,
      0,
      ...["## Insights", "> [!insight] 2026-03-01 · confidence 0.5", "> Older.", ""].map(
        (text) => ({ text, eol: g.eol }),
      ),
    );
    return joinLines(bom, lines);
  });

  it("appending keeps every body line in order, adds one entry, and a second append changes nothing", () => {
    fc.assert(
      fc.property(topicNote, (text) => {
        fc.pre(text.trim() !== ""); // blank notes become new notes: tested below
        // Frontmatter opened and never closed is refused, naming the note, and nothing is written
        // (docs/decisions.md, "Frontmatter that is opened and never closed is refused on write").
        if (unclosedFrontmatterError(text, "n.md")) {
          expect(() => appendTopicEntry(text, META, INSIGHT)).toThrow(/never closed/);
          return;
        }
        const out = appendTopicEntry(text, META, INSIGHT);
        const bodyOf = (t: string) => {
          const { lines } = splitLines(t);
          return lines.slice(locateFrontmatter(t, lines).bodyStart).map((l) => l.text);
        };
        const before = bodyOf(text);
        const after = bodyOf(out);
        let j = 0;
        for (const line of after) if (j < before.length && line === before[j]) j++;
        expect(j).toBe(before.length);
        expect(after.length - before.length).toBeLessThanOrEqual(INSIGHT_LINES + 4);
        expect(listTopicEntries(out)).toHaveLength(listTopicEntries(text).length + 1);
        expect(out.startsWith("\uFEFF")).toBe(text.startsWith("\uFEFF"));
        expect(appendTopicEntry(out, META, INSIGHT)).toBe(out);
      }),
      { numRuns: 200 },
    );
  });
});

describe("topic notes: blank files", () => {
  it("a blank note (whitespace or only a BOM) becomes a new topic note and keeps its BOM", () => {
    for (const blank of ["", "  ", "\n\n", "\uFEFF", "\uFEFF\n"]) {
      const out = appendTopicEntry(blank, META, INSIGHT);
      expect(listTopicEntries(out)).toHaveLength(1);
      expect(out.startsWith("\uFEFF")).toBe(blank.startsWith("\uFEFF"));
      expect(appendTopicEntry(out, META, INSIGHT)).toBe(out);
    }
  });
});

describe("topic notes: entries and sources", () => {
  const note = [
    "# T",
    "## Insights",
    "> [!insight] 2026-03-27 · confidence 0.8",
    "> Two lines",
    "> of text.",
    "> Source: [[a#^x]]",
    "",
    "> [!NOTE]",
    "> A person's note.",
    "## Decisions",
    "> [!decision] 2026-03-20 · confidence 0.95",
    "> Ship weekly.",
  ].join("\n");

  it("lists callouts with heading, date, confidence, text and sources", () => {
    expect(listTopicEntries(note)).toEqual([
      {
        kind: "insight",
        heading: "Insights",
        date: "2026-03-27",
        confidence: 0.8,
        text: "Two lines\nof text.",
        sources: ["a#^x"],
        fields: [],
        id: null,
        line: 2,
        endLine: 6,
        idLine: null,
      },
      {
        kind: "note",
        heading: "Insights",
        date: null,
        confidence: null,
        text: "A person's note.",
        sources: [],
        fields: [],
        id: null,
        line: 7,
        endLine: 9,
        idLine: null,
      },
      {
        kind: "decision",
        heading: "Decisions",
        date: "2026-03-20",
        confidence: 0.95,
        text: "Ship weekly.",
        sources: [],
        fields: [],
        id: null,
        line: 10,
        endLine: 12,
        idLine: null,
      },
    ]);
  });

  it("reads a callout's fields line and its block id, after a blank line or at the end of its last line (docs/contradictions.md)", () => {
    const text = [
      "## Insights",
      "> [!insight] 2026-03-02 · confidence 0.9",
      "> The limit is 100 per second",
      "> Source: [[J#^am-aaaa]]",
      "> [valid_to:: 2026-03-09] [superseded_by:: [[T#^c-0new]]]",
      "",
      "^c-0old",
      "",
      "> [!insight] 2026-03-09 · confidence 0.9",
      "> The limit is 200 per second ^c-0new",
    ].join("\n");
    const [old, current] = listTopicEntries(text);
    expect(old).toMatchObject({
      text: "The limit is 100 per second",
      id: "c-0old",
      idLine: 6,
      fields: [
        { key: "valid_to", value: "2026-03-09" },
        { key: "superseded_by", value: "[[T#^c-0new]]" },
      ],
    });
    expect(current).toMatchObject({
      text: "The limit is 200 per second",
      id: "c-0new",
      idLine: null,
      fields: [],
    });
  });

  it("addEntrySource appends to the Source line or adds one, never twice", () => {
    const a = addEntrySource(note, 0, "[[b#^y]]");
    expect(textOf(a)).toContain("> Source: [[a#^x]], [[b#^y]]\n");
    expect(addEntrySource(textOf(a), "two lines of text.", "b#^y")).toMatchObject({
      ok: true,
      value: { changed: false },
    });
    const c = addEntrySource(note, "Ship weekly.", "c#^z");
    expect(textOf(c).endsWith("> Ship weekly.\n> Source: [[c#^z]]\n")).toBe(true);
    expect(addEntrySource(note, 7, "x")).toMatchObject({ ok: false, error: { found: false } });
    expect(addEntrySource(note, "no such text", "x")).toMatchObject({
      ok: false,
      error: { found: false },
    });
  });

  it("formats confidence clamped to 0–1 with at most two decimals", () => {
    expect(formatCallout({ ...INSIGHT, confidence: 0.8333 })[0]).toBe(
      "> [!insight] 2026-03-27 · confidence 0.83",
    );
    expect(formatCallout({ ...INSIGHT, confidence: 7 })[0]).toBe(
      "> [!insight] 2026-03-27 · confidence 1",
    );
    expect(formatCallout({ ...INSIGHT, confidence: Number.NaN })[0]).toBe(
      "> [!insight] 2026-03-27 · confidence 0",
    );
  });
});

describe("topic names and paths", () => {
  const layout = new MemoryLayout(defaultSettings());

  it("case 11: Chinese topics give distinct keys, ids and files, never a shared fallback", async () => {
    expect(topicKey("睡眠质量")).not.toBe(topicKey("早起习惯"));
    expect(topicKey("睡眠质量")).toBe("睡眠质量");
    expect(topicId("睡眠质量", "me")).toBe("me/睡眠质量");
    expect(topicId("早起习惯", "me")).toBe("me/早起习惯");
    expect(topicId("???")).not.toBe(topicId("***"));
    expect(topicKey("  Content   Quality.md ")).toBe(topicKey("[[content quality]]"));
    expect(topicKey("ＡＢＣ")).toBe("abc");

    const t = tempVault();
    cleanup = t.cleanup;
    for (const title of ["睡眠质量", "早起习惯"]) {
      const dest = topicDestination(layout, { title, agent: "me", category: "learning" });
      expect(dest.ok).toBe(true);
      if (!dest.ok) continue;
      expect(
        await t.vault.process(dest.value.path, (cur) =>
          appendTopicEntry(
            cur,
            { ...META, title, agent: "me" },
            { ...INSIGHT, text: `关于${title}的心得` },
          ),
        ),
      ).toBe(true);
    }
    expect(filesUnder(t.root)).toEqual([
      "Memory/Agents/me/Knowledge/learning/早起习惯.md",
      "Memory/Agents/me/Knowledge/learning/睡眠质量.md",
    ]);
    const sleep = readFileSync(
      join(t.root, "Memory/Agents/me/Knowledge/learning/睡眠质量.md"),
      "utf8",
    );
    expect(sleep).toContain("# 睡眠质量\n");
    expect(parseNote(sleep).data?.id).toBe("me/睡眠质量");
  });

  it("case 11: only characters no file system allows are replaced", () => {
    const dest = topicDestination(layout, { title: 'Q1: "what" <is> a|b*c?', agent: "me" });
    expect(dest).toEqual({
      ok: true,
      value: {
        path: "Memory/Agents/me/Knowledge/learning/Q1- -what- -is- a-b-c-.md",
        key: 'q1: "what" <is> a|b*c?',
      },
    });
  });

  it("case 12: a topic chosen to escape lands inside the agent's knowledge folder", async () => {
    const dest = topicDestination(layout, {
      title: "../../.obsidian/plugins/x/main",
      agent: "link",
      category: "learning",
    });
    expect(dest.ok).toBe(true);
    if (!dest.ok) return;
    expect(dest.value.path.startsWith("Memory/Agents/link/Knowledge/learning/")).toBe(true);
    expect(dest.value.path.slice("Memory/Agents/link/Knowledge/learning/".length)).not.toContain(
      "/",
    );

    const t = tempVault();
    cleanup = t.cleanup;
    await t.vault.process(dest.value.path, (cur) =>
      appendTopicEntry(cur, { ...META, title: "../../.obsidian/plugins/x/main" }, INSIGHT),
    );
    const files = filesUnder(t.root);
    expect(files).toEqual([dest.value.path]);
    expect(files.every((f) => f.startsWith("Memory/Agents/link/Knowledge/"))).toBe(true);
  });

  it("case 12: a topic with nothing usable, or a bad agent name, is rejected with a reason", () => {
    for (const where of [
      { title: "../../../..", agent: "link" },
      { title: "  ", agent: "link" },
      { title: "ok", agent: "../x" },
      { title: "ok", area: "" },
    ]) {
      const dest = topicDestination(layout, where);
      expect(dest.ok).toBe(false);
      if (!dest.ok) expect(dest.error.length).toBeGreaterThan(0);
    }
    expect(topicDestination(layout, { title: "Refunds", area: "compliance" })).toEqual({
      ok: true,
      value: { path: "Memory/Library/compliance/Refunds.md", key: "refunds" },
    });
  });
});
