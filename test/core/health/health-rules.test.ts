// Health rules one by one, on notes built in memory (docs/architecture.md, "The health check";
// "case 03: …" and "case 04: …" below).
import { describe, expect, it } from "vitest";
import { readNoteInfo, type NoteInfo } from "../../../src/core/health/note-info";
import {
  checkFrontmatterSyntax,
  checkMisreadValues,
  checkRequiredFields,
  checkTypes,
  quoteUnquotedWikilinks,
} from "../../../src/core/health/frontmatter-rules";
import {
  LinkResolver,
  findWikilinks,
  parseWikilinkTarget,
  wikilinkDisplayText,
} from "../../../src/core/markdown/wikilinks";
import { scanAnchors } from "../../../src/core/markdown/anchors";
import { checkDuplicateIds } from "../../../src/core/health/link-rules";
import {
  checkExpired,
  checkStaleDraft,
  checkStaleKnowledge,
} from "../../../src/core/health/time-rules";
import { lastUpdated } from "../../../src/core/knowledge/last-updated";
import { TermMatcher } from "../../../src/core/health/mentions";
import { renderHealthText, toHealthJson } from "../../../src/core/health/report";
import type { Collection } from "../../../src/core/layout";

function note(
  path: string,
  text: string,
  collection: Collection = "knowledge",
  agent: string | null = "ada",
  mtime = 0,
): NoteInfo {
  return readNoteInfo(path, text, { size: text.length, mtime }, { collection, agent });
}

describe("frontmatter rules", () => {
  it("case 04: both lines are reported, each with its quoted form", () => {
    const n = note(
      "k.md",
      "---\nproject: [[Project Alpha]]\npeople: [[Person A]], [[Person B]]\n---\nbody\n",
    );
    expect(n.invalid).toBe(true);
    const found = checkFrontmatterSyntax(n);
    expect(found.map((p) => [p.rule, p.line])).toEqual([
      ["unquoted-wikilink", 2],
      ["unquoted-wikilink", 3],
    ]);
    expect(found[0]?.message).toContain('project: "[[Project Alpha]]"');
    expect(found[1]?.message).toContain('people: ["[[Person A]]", "[[Person B]]"]');
  });

  it("case 04: an unquoted wikilink in valid YAML (a nested list) is found without a second parse", () => {
    const n = note("k.md", "---\nid: a\nrelated_to: [[Topic]]\nsee:\n  - [[Other]]\n---\n");
    expect(n.invalid).toBe(false);
    expect(checkFrontmatterSyntax(n).map((p) => [p.rule, p.line])).toEqual([
      ["unquoted-wikilink", 3],
      ["unquoted-wikilink", 5],
    ]);
    // Reported once: the type rule skips the line already reported.
    expect(checkTypes(n, new Set([3, 5]))).toEqual([]);
  });

  it("quoted wikilinks are fine", () => {
    for (const line of [
      'related_to: ["[[A]]", "[[B]]"]',
      'project: "[[Project Alpha]]"',
      "  - '[[A]]'",
      "title: about [[A]] and more",
      "tags: [a, b]",
    ]) {
      expect(quoteUnquotedWikilinks(line), line).toBeNull();
    }
  });

  it("case 03: a horizontal rule at the top is a warning and the text stays body", () => {
    const n = note("j.md", "---\n\nMet Person A about Project Alpha.\n\n---\n", "journal");
    expect(n.invalid).toBe(false);
    expect(n.data).toBeNull();
    expect(n.body).toContain("Met Person A");
    expect(checkFrontmatterSyntax(n).map((p) => [p.rule, p.severity, p.line])).toEqual([
      ["frontmatter-not-mapping", "warning", 1],
    ]);
  });

  it("YAML that does not parse is reported with its line", () => {
    const n = note("k.md", '---\nid: a\ntitle: "open\n---\n');
    const found = checkFrontmatterSyntax(n);
    expect(found.map((p) => [p.rule, p.line])).toEqual([["frontmatter-invalid", 3]]);
    expect(checkRequiredFields(n, ["id"])).toEqual([]);
  });

  it("required fields: absent or empty values are missing", () => {
    const n = note("k.md", "---\nid: a\ntype:\nstatus: ''\n---\n");
    expect(checkRequiredFields(n, ["id", "type", "status", "created_at"])[0]?.message).toBe(
      "Required fields missing: type, status, created_at.",
    );
  });

  it("wrong types: related_to, dates, confidence, tags, single values", () => {
    const n = note(
      "k.md",
      [
        "---",
        'related_to: "[[A]]"',
        "created_at: 2026-02-30",
        "updated_at: 2026",
        "expires_at: 2026-12-31T10:00:00+08:00",
        "confidence: 1.5",
        "tags: {a: 1}",
        "status: [active, draft]",
        "---",
        "",
      ].join("\n"),
    );
    expect(checkTypes(n, new Set()).map((p) => [p.line, p.message.split(" ")[0]])).toEqual([
      [2, "related_to"],
      [3, "created_at"],
      [4, "updated_at"],
      [6, "confidence"],
      [7, "tags"],
      [8, "status"],
    ]);
    const listOfText = note("k.md", '---\nrelated_to: ["[[A]]", "B"]\n---\n');
    expect(checkTypes(listOfText, new Set())[0]?.message).toBe(
      'related_to entries that are not wikilinks: "B".',
    );
    const fine = note(
      "k.md",
      "---\nrelated_to: []\ncreated_at: 2024-05-23T22:17:03+08:00\nupdated_at: 2024-03-05 09:30:00\nid: 0123\nconfidence: 0\ntags: x\n---\n",
    );
    expect(checkTypes(fine, new Set())).toEqual([]);
  });

  it("a value YAML reads as other than written is a misread-value finding with its quoted form", () => {
    const n = note(
      "k.md",
      "---\nid: a\ntitle: Fix bug #42 in the parser\ntags: #project #idea\naliases: Alpha, Project A\nstatus: active # set by hand\nkeywords:\n  - #seo\n  - speed\n---\n",
    );
    expect(n.invalid).toBe(false);
    const found = checkMisreadValues(n);
    expect(found.map((p) => [p.rule, p.severity, p.line])).toEqual([
      ["misread-value", "warning", 3],
      ["misread-value", "warning", 4],
      ["misread-value", "warning", 5],
      ["misread-value", "warning", 8],
    ]);
    expect(found[0]?.message).toBe(
      'title reads as "Fix bug": YAML takes " #" as the start of a comment; quote it: title: "Fix bug #42 in the parser"',
    );
    expect(found[1]?.message).toBe(
      'tags reads as empty: YAML takes " #" as the start of a comment; quote it: tags: "#project #idea"',
    );
    expect(found[2]?.message).toBe(
      "aliases reads as one text, not a list; write it as a list: aliases: [Alpha, Project A]",
    );
    expect(found[3]?.message).toBe(
      'keywords reads as empty: YAML takes " #" as the start of a comment; quote it: - "#seo"',
    );
  });

  it("comments, quoted values and real lists are not misread values", () => {
    const n = note(
      "k.md",
      '---\nid: a\nstatus: active # set by hand\ntitle: "Fix bug #42"\ntags: [a, b]\nsummary: one, two and three\nurl: https://x.org/#top\n---\n',
    );
    expect(checkMisreadValues(n)).toEqual([]);
  });
});

describe("links", () => {
  it("shows wikilinks as Obsidian does: alias, note name, note > heading", () => {
    expect(
      wikilinkDisplayText("Review the [[Pricing page|pricing draft]] with [[Agents/ming]]"),
    ).toBe("Review the pricing draft with ming");
    expect(
      wikilinkDisplayText("see [[SEO audit#Findings]], [[2026-11-24#^am-k3f9]] and ![[chart.png]]"),
    ).toBe("see SEO audit > Findings, 2026-11-24 and chart.png");
    expect(wikilinkDisplayText("no links [here]")).toBe("no links [here]");
  });

  const resolver = new LinkResolver([
    "Memory/Agents/a/Journal/2026-03-24.md",
    "Memory/Agents/b/Journal/2026-03-24.md",
    "Memory/Agents/a/Trackers/Tasks.md",
    "Memory/Library/SEO/Core Web Vitals.md",
    "Top.md",
  ]);

  it("parses targets, headings, block ids and aliases", () => {
    expect(parseWikilinkTarget("Note#^am-1|alias")).toMatchObject({
      path: "Note",
      blockId: "am-1",
      heading: null,
    });
    expect(parseWikilinkTarget("Note#A#B")).toMatchObject({
      path: "Note",
      blockId: null,
      heading: "B",
    });
    expect(findWikilinks("see [[A]] and ![[B#^x]]").map((l) => l.path)).toEqual(["A", "B"]);
  });

  it("resolves by full path, suffix, name (case-insensitive), relative path; the nearest of two same names", () => {
    expect(resolver.resolve("Memory/Library/SEO/Core Web Vitals", "x.md")).toBe(
      "Memory/Library/SEO/Core Web Vitals.md",
    );
    expect(resolver.resolve("core web vitals.md", "x.md")).toBe(
      "Memory/Library/SEO/Core Web Vitals.md",
    );
    expect(resolver.resolve("Agents/b/Journal/2026-03-24", "x.md")).toBe(
      "Memory/Agents/b/Journal/2026-03-24.md",
    );
    expect(resolver.resolve("2026-03-24", "Memory/Agents/b/Trackers/Tasks.md")).toBe(
      "Memory/Agents/b/Journal/2026-03-24.md",
    );
    expect(resolver.resolve("2026-03-24", "Memory/Agents/a/Trackers/Tasks.md")).toBe(
      "Memory/Agents/a/Journal/2026-03-24.md",
    );
    expect(resolver.resolve("../Journal/2026-03-24", "Memory/Agents/a/Trackers/Tasks.md")).toBe(
      "Memory/Agents/a/Journal/2026-03-24.md",
    );
    expect(resolver.resolve("", "Top.md")).toBe("Top.md");
    expect(resolver.resolve("Nope", "Top.md")).toBeNull();
    expect(resolver.resolve("Other/Journal/2026-03-24", "Top.md")).toBeNull();
  });

  it("finds block ids at line ends and headings, not inside code fences", () => {
    const a = scanAnchors(
      "# Title\n\nText ^am-1\n\n```\nfake ^am-2\n```\n## Sub: part\n- item ^t-001\n^solo\n",
      5,
    );
    expect([...a.blockIds.keys()]).toEqual(["am-1", "t-001", "solo"]);
    expect(a.blockIds.get("am-1")).toEqual([7]);
    expect(a.headings.has("title")).toBe(true);
    expect(a.headings.has("sub part")).toBe(true);
  });

  it("duplicate ids: the second note by path is reported, naming the first; repeated block ids too", () => {
    const x = note("B.md", "---\nid: same\n---\n");
    const y = note("A.md", "---\nid: same\n---\ntext ^b1\nmore ^b1\n");
    const found = checkDuplicateIds([x, y]);
    expect(found.map((p) => [p.path, p.line])).toEqual([
      ["B.md", 2],
      ["A.md", 5],
    ]);
    expect(found[0]?.message).toBe('id "same" is also the id of A.md.');
  });
});

describe("time rules", () => {
  it("last update: the latest of updated_at, created_at and callout dates; mtime only without them", () => {
    expect(
      lastUpdated(
        note(
          "k.md",
          "---\ncreated_at: 2026-01-01\nupdated_at: 2026-02-01T23:30:00-05:00\n---\n> [!insight] 2026-03-05 · x\n> y\n",
        ),
      ),
    ).toBe("2026-03-05");
    expect(
      lastUpdated(note("k.md", "no frontmatter", "knowledge", null, Date.UTC(2026, 4, 6, 12))),
    ).toBe("2026-05-06");
  });

  it("stale draft after draftDays, not on the limit", () => {
    const n = note("d.md", "---\nstatus: draft\nupdated_at: 2026-05-01\n---\n");
    expect(checkStaleDraft(n, "2026-05-31", 30)).toEqual([]);
    expect(checkStaleDraft(n, "2026-06-01", 30)[0]?.message).toBe(
      "Draft not updated since 2026-05-01 (31 days; limit 30).",
    );
  });

  it("expiry: a date after its day, a date-time at its instant", () => {
    const d = note("e.md", "---\nexpires_at: 2026-05-31\n---\n");
    expect(checkExpired(d, "2026-05-31", 0)).toEqual([]);
    expect(checkExpired(d, "2026-06-01", 0)).toHaveLength(1);
    const t = note("e.md", "---\nexpires_at: 2026-06-01T10:00:00+08:00\n---\n");
    expect(checkExpired(t, "2026-06-01", Date.parse("2026-06-01T01:59:00Z"))).toEqual([]);
    expect(checkExpired(t, "2026-06-01", Date.parse("2026-06-01T02:01:00Z"))).toHaveLength(1);
  });

  it("stale knowledge needs a newer journal of the same agent mentioning the topic as a whole word; CJK by characters", () => {
    const old = "---\nstatus: active\nupdated_at: 2025-01-01\n---\n";
    const topic = note("Memory/Agents/ada/Knowledge/x/Pricing.md", old);
    const cjk = note(
      "Memory/Agents/ada/Knowledge/x/客户流失.md",
      `---\nstatus: active\nupdated_at: 2025-01-01\naliases: [Churn]\n---\n`,
    );
    const libraryTopic = note("Memory/Library/x/Runbook.md", old, "library", null);
    const j1 = note(
      "Memory/Agents/ada/Journal/2026-05-01.md",
      "We changed the pricingpage and the repricing.\n客户流失率上升。",
      "journal",
    );
    const j2 = note(
      "Memory/Agents/bo/Journal/2026-05-02.md",
      "Pricing again. Runbook updated. churn",
      "journal",
      "bo",
    );
    const found = checkStaleKnowledge([topic, cjk, libraryTopic, j1, j2], "2026-06-01", 90);
    // "pricingpage"/"repricing" are not the word "pricing"; bo's journal does not count for ada's note.
    expect(found.map((p) => p.path)).toEqual([
      "Memory/Agents/ada/Knowledge/x/客户流失.md",
      "Memory/Library/x/Runbook.md",
    ]);
    expect(found[1]?.message).toContain(
      "latest Memory/Agents/bo/Journal/2026-05-02.md (2026-05-02)",
    );
  });

  it("the term matcher finds overlapping terms sharing prefixes, once each", () => {
    const m = new TermMatcher(["topic 1", "topic 12", "opic", "客户", "客户流失"]);
    expect([...m.find("see topic 12 and 客户流失")].sort()).toEqual([1, 3, 4]);
    expect([...m.find("topic 1.")]).toEqual([0]);
  });
});

describe("text and JSON output", () => {
  it("a clean report says so; JSON omits line when there is none", () => {
    const clean = {
      checked: 3,
      compliant: 3,
      compliance: 1,
      errors: [],
      warnings: [],
      today: "2026-06-01",
    };
    expect(renderHealthText(clean)).toBe(
      "3 notes checked on 2026-06-01: compliance 100.0% (3 without errors), 0 errors, 0 warnings\n\nNo problems found.",
    );
    const one = {
      ...clean,
      warnings: [
        { path: "a.md", rule: "expired" as const, severity: "warning" as const, message: "m" },
      ],
    };
    expect(toHealthJson(one).warnings).toEqual([{ path: "a.md", rule: "expired", message: "m" }]);
  });

  it("compliance is never rounded up to 100% while a note has an error", () => {
    const r = {
      checked: 2001,
      compliant: 2000,
      compliance: 2000 / 2001,
      errors: [],
      warnings: [],
      today: "2026-06-01",
    };
    expect(renderHealthText(r)).toContain("compliance 99.9%");
  });
});
