import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  DUPLICATE_THRESHOLD,
  SimilarityIndex,
  findDuplicate,
  similarity,
  subjectSimilarity,
} from "../../../src/core/extraction/dedupe";
import { findContradiction, findRestatement } from "../../../src/core/extraction/contradiction";
import { StatementIndex } from "../../../src/core/extraction/statements";
import { matchTrackerItem, trackerMatcher } from "../../../src/core/extraction/destination-match";
import { listItems } from "../../../src/core/trackers/format";

// The indexes that keep dedupe from comparing every pair (docs/decisions.md, "Dedupe compares only
// texts that share a token") must choose exactly what a scan of every text chooses.

const word = fc.constantFrom(
  "deploy",
  "the",
  "review",
  "invoice",
  "customer",
  "order",
  "limit",
  "report",
  "reports",
  "server",
  "not",
  "Friday",
  "March",
  "部署",
  "客户",
  "订单",
  "预算",
  "不",
  "周五",
  "的",
);
const text = fc.oneof(
  fc
    .array(fc.oneof(word, fc.integer({ min: 0, max: 30 }).map(String)), {
      minLength: 0,
      maxLength: 7,
    })
    .map((ws) => ws.join(" ")),
  fc.array(word, { minLength: 1, maxLength: 5 }).map((ws) => ws.join("")),
);

describe("SimilarityIndex", () => {
  it("case 01: candidates hold every text at least as similar as the threshold, in order", () => {
    fc.assert(
      fc.property(
        fc.array(text, { maxLength: 30 }),
        text,
        fc.constantFrom(DUPLICATE_THRESHOLD, 0.5, 0.3, 0.9),
        (texts, query, threshold) => {
          const index = new SimilarityIndex();
          const subjects = new SimilarityIndex(true);
          for (const t of texts) {
            index.add(t);
            subjects.add(t);
          }
          const got = index.candidates(query, threshold);
          expect(got).toEqual([...got].sort((a, b) => a - b));
          texts.forEach((t, i) => {
            if (similarity(query, t) >= threshold) expect(got).toContain(i);
            if (subjectSimilarity(query, t) >= threshold)
              expect(subjects.candidates(query, threshold)).toContain(i);
          });
          // So a scan of the candidates finds what a scan of all finds.
          const all = findDuplicate(query, texts, (t) => t, threshold);
          const some = got[findDuplicate(query, got, (i) => texts[i] ?? "", threshold)] ?? -1;
          expect(some).toBe(all);
          // The statement rule's index: what it passes over is a separate fact.
          const statements = new StatementIndex();
          for (const t of texts) statements.add(t);
          const near = statements.candidates(query);
          const contradicted = findContradiction(query, texts, (t) => t);
          expect(near[findContradiction(query, near, (i) => texts[i] ?? "")] ?? -1).toBe(
            contradicted,
          );
          const restated = findRestatement(query, texts, (t) => t);
          expect(near[findRestatement(query, near, (i) => texts[i] ?? "")] ?? -1).toBe(restated);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("SimilarityIndex, probing token pairs", () => {
  it("case 03: candidates hold every text at least as similar as the threshold, texts added before and after pairs were needed", () => {
    fc.assert(
      fc.property(
        fc.array(text, { maxLength: 30 }),
        fc.array(text, { minLength: 1, maxLength: 4 }),
        fc.constantFrom(DUPLICATE_THRESHOLD, 0.5, 0.3, 0.9),
        (texts, queries, threshold) => {
          // pairsFrom 0: pairs are probed whenever they are cheaper than single tokens.
          const index = new SimilarityIndex(false, { pairsFrom: 0 });
          const subjects = new SimilarityIndex(true, { pairsFrom: 0 });
          texts.forEach((t, n) => {
            index.add(t);
            subjects.add(t);
            for (const query of queries) {
              const got = index.candidates(query, threshold);
              expect(got).toEqual([...got].sort((a, b) => a - b));
              const near = subjects.candidates(query, threshold);
              for (let i = 0; i <= n; i++) {
                const other = texts[i] ?? "";
                if (similarity(query, other) >= threshold) expect(got).toContain(i);
                if (subjectSimilarity(query, other) >= threshold) expect(near).toContain(i);
              }
            }
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it("case 04: among thousands of similar texts, a query collects few candidates and still finds its duplicate", () => {
    const verbs = ["check", "fix", "rewrite", "draft", "review", "audit", "measure", "update"];
    const objects = ["pricing page", "blog index", "docs sidebar", "sitemap", "login flow"];
    const where = ["for the mobile site", "before the release", "in the CMS", "for finance"];
    const syllables = ["ka", "lo", "mi", "ru", "te", "vo", "ni", "sa", "du"];
    const clients = syllables.flatMap((a) => syllables.map((b) => `${a}${b}corp`));
    const texts: string[] = [];
    for (const c of clients)
      for (const v of verbs)
        for (const o of objects) for (const w of where) texts.push(`${v} the ${o} ${w} for ${c}`);
    const index = new SimilarityIndex();
    for (const t of texts) index.add(t);
    const query = "Review the sitemap in the CMS for mirucorp";
    const got = index.candidates(query, DUPLICATE_THRESHOLD);
    expect(texts.length).toBe(12_960);
    // Single tokens: every text with "mirucorp" (160) and with the next rarest word, "review" (1,620).
    const singles = new SimilarityIndex(false, { pairsFrom: Infinity });
    for (const t of texts) singles.add(t);
    expect(singles.candidates(query, DUPLICATE_THRESHOLD).length).toBeGreaterThan(1_620);
    // Pairs: "mirucorp" with "review" (20) and "sitemap" (32), "review" with "sitemap" (324).
    expect(got.length).toBeLessThan(400);
    const all = findDuplicate(query, texts, (t) => t);
    expect(all).toBeGreaterThanOrEqual(0);
    expect(got[findDuplicate(query, got, (i) => texts[i] ?? "")]).toBe(all);
  });

  it("case 05: a text with numbers or a negation has only texts with the same ones as candidates", () => {
    const index = new SimilarityIndex();
    const texts = [
      "check the sitemap (12 items)",
      "check the sitemap (13 items)",
      "check the sitemap",
      "do not check the sitemap (12 items)",
      "check the sitemap (12 items) today",
    ];
    for (const t of texts) index.add(t);
    expect(index.candidates("Check the sitemap (12 items)", 0.5)).toEqual([0, 4]);
    expect(index.candidates("never check the sitemap (12 items)", 0.5)).toEqual([3]);
  });
});

describe("trackerMatcher", () => {
  it("case 02: matches what matchTrackerItem matches, also as items are added", () => {
    const status = fc.constantFrom(" ", "x", "-", "/");
    const source = fc.constantFrom(
      "",
      " [source:: [[Memory/Agents/a/Journal/2026-11-24#^am-k3f9]]]",
      " [source:: [[2026-11-24#^am-k3f9]], [[2026-11-25#^am-aaaa]]]",
      " [source:: [[2026-11-25#^am-aaaa]]]",
      " [superseded_by:: [[x#^d-001]]]",
    );
    const line = fc.tuple(status, text, source).map(([s, t, src]) => `- [${s}] ${t || "x"}${src}`);
    const link = fc.constantFrom(
      "[[Memory/Agents/a/Journal/2026-11-24#^am-k3f9]]",
      "[[Memory/Agents/b/Journal/2026-11-25#^am-aaaa]]",
      "[[Memory/Agents/a/Journal/2026-11-26#^am-bbbb]]",
    );
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 20 }),
        fc.array(line, { maxLength: 5 }),
        fc.array(fc.tuple(text, link), { minLength: 1, maxLength: 5 }),
        fc.constantFrom<"tasks" | "decisions">("tasks", "decisions"),
        (lines, more, queries, kind) => {
          const items = listItems(
            lines.map((l, i) => `${l} ^t-${String(i + 1).padStart(3, "0")}`).join("\n"),
          );
          const matcher = trackerMatcher([...items], kind);
          const check = (all: typeof items): void => {
            for (const [q, l] of queries) {
              const want = matchTrackerItem(all, q, kind, l);
              const got = matcher.match(q, l);
              expect(
                got ? { item: matcher.entries[got.index], recorded: got.recorded } : null,
              ).toEqual(want);
            }
          };
          check(items);
          const grown = [...items];
          for (const it of listItems(more.join("\n"))) {
            grown.push(it);
            matcher.push(it);
            check(grown);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
