// Offline extractor evaluation: precision and recall against the gold set
// in test/fixtures/gold/ (journals labelled by hand before the extractor read them; the labelling
// and matching rules are in test/fixtures/gold/README.md).
//
// Each journal goes through the OfflineExtractor as the pipeline calls it (frontmatter removed,
// blocks from splitBlocks, the default sectionHeadings setting); nothing is written. An extracted
// item matches a label when the categories are equal and `wordSimilarity`
// (src/core/extraction/dedupe.ts: the dedupe measure without its value, negation and name checks)
// of their texts is at least 0.5; each label matches at most one item, best pairs first. Precision = matched items / extracted items; recall = matched labels / labels.
// Recall is also given by how the journal signals the item (the label's `cue`) and by journal style.
//
// Usage: npm run eval:extract [-- --json] [--verbose]
//   writes bench/results/extract-eval.md
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseNote } from "../src/core/frontmatter";
import { splitBlocks } from "../src/core/journal/blocks";
import { wordSimilarity } from "../src/core/extraction/dedupe";
import { OfflineExtractor } from "../src/core/extraction/offline";
import { defaultSettings } from "../src/core/settings";
import { CATEGORIES, type Category, type ExtractedItem } from "../src/core/extraction/types";

/** Texts at least this similar (with equal categories) are the same item. */
export const MATCH_THRESHOLD = 0.5;

const root = fileURLToPath(new URL("..", import.meta.url));
const goldDir = join(root, "test", "fixtures", "gold");
const args = process.argv.slice(2);

type Cue = "convention" | "heading" | "phrasing" | "none";
interface Label {
  category: Category;
  text: string;
  cue: Cue;
  owner?: string;
}
interface Gold {
  style: "headings" | "prose";
  language: string;
  items: Label[];
}
interface JournalResult {
  name: string;
  gold: Gold;
  items: ExtractedItem[];
  /** Index of the label each item matched, or -1. */
  itemMatch: number[];
  /** Index of the item each label matched, or -1. */
  labelMatch: number[];
}

/** Best pairs first, one to one: each label and each item in at most one pair. */
function match(
  items: readonly ExtractedItem[],
  labels: readonly Label[],
): { itemMatch: number[]; labelMatch: number[] } {
  const pairs: { i: number; j: number; s: number }[] = [];
  items.forEach((it, i) =>
    labels.forEach((l, j) => {
      if (it.category !== l.category) return;
      const s = wordSimilarity(it.text, l.text);
      if (s >= MATCH_THRESHOLD) pairs.push({ i, j, s });
    }),
  );
  pairs.sort((a, b) => b.s - a.s || a.i - b.i || a.j - b.j);
  const itemMatch = items.map(() => -1);
  const labelMatch = labels.map(() => -1);
  for (const p of pairs) {
    if (itemMatch[p.i] !== -1 || labelMatch[p.j] !== -1) continue;
    itemMatch[p.i] = p.j;
    labelMatch[p.j] = p.i;
  }
  return { itemMatch, labelMatch };
}

async function evaluate(): Promise<JournalResult[]> {
  const extractor = new OfflineExtractor();
  const sectionHeadings = defaultSettings().sectionHeadings;
  const names = readdirSync(goldDir)
    .filter((f) => f.endsWith(".md") && f !== "README.md")
    .map((f) => f.replace(/\.md$/, ""))
    .sort();
  const out: JournalResult[] = [];
  for (const name of names) {
    const text = readFileSync(join(goldDir, `${name}.md`), "utf8");
    const gold = JSON.parse(readFileSync(join(goldDir, `${name}.labels.json`), "utf8")) as Gold;
    const note = parseNote(text, `${name}.md`);
    const blocks = splitBlocks(note.body);
    const result = await extractor.extract({
      path: `${name}.md`,
      title: name,
      body: note.body,
      blocks,
      context: { agent: "me", topics: [], openItems: [], agents: [] },
      sectionHeadings,
    });
    out.push({ name, gold, items: result.items, ...match(result.items, gold.items) });
  }
  return out;
}

interface Score {
  extracted: number;
  correct: number;
  labels: number;
  found: number;
}
const empty = (): Score => ({ extracted: 0, correct: 0, labels: 0, found: 0 });
const ratio = (a: number, b: number) => (b === 0 ? "–" : (a / b).toFixed(2));

function score(
  results: readonly JournalResult[],
  keepLabel: (l: Label, r: JournalResult) => boolean,
  keepItem: (it: ExtractedItem, r: JournalResult) => boolean,
): Score {
  const s = empty();
  for (const r of results) {
    r.items.forEach((it, i) => {
      if (!keepItem(it, r)) return;
      s.extracted++;
      if (r.itemMatch[i] !== -1) s.correct++;
    });
    r.gold.items.forEach((l, j) => {
      if (!keepLabel(l, r)) return;
      s.labels++;
      if (r.labelMatch[j] !== -1) s.found++;
    });
  }
  return s;
}

function row(name: string, s: Score, withPrecision = true): string {
  return `| ${name} | ${withPrecision ? s.extracted : "–"} | ${withPrecision ? s.correct : "–"} | ${withPrecision ? ratio(s.correct, s.extracted) : "–"} | ${s.labels} | ${s.found} | ${ratio(s.found, s.labels)} |`;
}

const HEAD =
  "| | extracted | correct | precision | labels | found | recall |\n|---|---:|---:|---:|---:|---:|---:|";

async function main(): Promise<void> {
  const results = await evaluate();
  const all = () => true;
  const overall = score(results, all, all);
  const perCategory = CATEGORIES.map((c) => ({
    c,
    s: score(
      results,
      (l) => l.category === c,
      (it) => it.category === c,
    ),
  }));
  const byStyle = (["headings", "prose"] as const).map((style) => ({
    style,
    s: score(
      results,
      (_l, r) => r.gold.style === style,
      (_it, r) => r.gold.style === style,
    ),
  }));
  const byCue = (["convention", "heading", "phrasing", "none"] as const).map((cue) => ({
    cue,
    s: score(
      results,
      (l) => l.cue === cue,
      () => false,
    ),
  }));
  const signalled = score(
    results,
    (l) => l.cue !== "none",
    () => false,
  );

  // Owners: of the matched task labels, how many got the owner the label gives (none included).
  let ownerRight = 0;
  let ownerTotal = 0;
  for (const r of results) {
    r.gold.items.forEach((l, j) => {
      const i = r.labelMatch[j] ?? -1;
      if (l.category !== "task" || i === -1) return;
      ownerTotal++;
      if ((r.items[i]?.owner ?? "").toLowerCase() === (l.owner ?? "").toLowerCase()) ownerRight++;
    });
  }

  const lines: string[] = [];
  lines.push("# Offline extractor on the gold set", "");
  lines.push(
    `${results.length} journals, ${overall.labels} labelled items (test/fixtures/gold/). Match: same category and text similarity ≥ ${MATCH_THRESHOLD} (dedupe.ts), one to one, best pairs first. Generated by \`npm run eval:extract\`.`,
    "",
  );
  lines.push("## Overall and per category", "", HEAD, row("**overall**", overall));
  for (const { c, s } of perCategory) lines.push(row(c, s));
  lines.push("", "## By journal style", "", HEAD);
  for (const { style, s } of byStyle) lines.push(row(`${style} journals`, s));
  lines.push("", "## Recall by how the item is signalled (label `cue`)", "", HEAD);
  for (const { cue, s } of byCue) lines.push(row(cue, s, false));
  lines.push(row("convention + heading + phrasing", signalled, false));
  lines.push(
    "",
    `Owners: ${ownerRight} of ${ownerTotal} matched tasks have the labelled owner (or none when the label has none).`,
    "",
  );
  lines.push(
    "## Per journal",
    "",
    "| journal | style | extracted | correct | precision | labels | found | recall |",
    "|---|---|---:|---:|---:|---:|---:|---:|",
  );
  for (const r of results) {
    const s = score([r], all, all);
    lines.push(
      `| ${r.name} | ${r.gold.style} | ${s.extracted} | ${s.correct} | ${ratio(s.correct, s.extracted)} | ${s.labels} | ${s.found} | ${ratio(s.found, s.labels)} |`,
    );
  }
  lines.push("", "## Extracted items that match no label", "");
  for (const r of results)
    r.items.forEach(
      (it, i) => r.itemMatch[i] === -1 && lines.push(`- ${r.name}: ${it.category} — ${it.text}`),
    );
  lines.push("", "## Labels no item matched", "");
  for (const r of results)
    r.gold.items.forEach(
      (l, j) =>
        r.labelMatch[j] === -1 && lines.push(`- ${r.name}: ${l.category} (${l.cue}) — ${l.text}`),
    );
  const md = `${lines.join("\n")}\n`;
  mkdirSync(join(root, "bench", "results"), { recursive: true });
  writeFileSync(join(root, "bench", "results", "extract-eval.md"), md);
  if (args.includes("--json")) {
    process.stdout.write(
      `${JSON.stringify({ overall, perCategory, byStyle, byCue, signalled, owners: { right: ownerRight, total: ownerTotal } }, null, 2)}\n`,
    );
    return;
  }
  const summary = md.split("\n## Per journal")[0] ?? md;
  process.stdout.write(
    args.includes("--verbose") ? md : `${summary}\nFull report: bench/results/extract-eval.md\n`,
  );
}

await main();
