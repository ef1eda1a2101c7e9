// Statement rule evaluation: how the rule that compares a later statement with an earlier one
// (docs/contradictions.md) labels the pairs of bench/data/fact-pairs.jsonl, written and labelled
// by hand before the rule was tuned (bench/data/README.md).
//
// Each pair {a, b} is compared as extraction compares a new item `b` with a recorded entry `a`.
// The outcome is a restatement (no new entry), a change (`b` supersedes `a`), a separate fact (both
// current) or a possible change (both current, listed by the health check for a person).
// Printed: accuracy per class and per language, the three targets, and every miss.
//   - changes superseded: change pairs whose outcome is a change (target ≥ 95%);
//   - separate facts superseded: separate pairs whose outcome is a change (target 0);
//   - restatements left as two current entries: restatement pairs whose outcome is a separate fact
//     or a possible change (target 0).
//
// Usage: npm run eval:facts [-- --json]
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { compareStatements } from "../src/core/extraction/statements";

type Label = "change" | "separate" | "restatement";
type Outcome = Label | "possible-change";
interface Pair {
  a: string;
  b: string;
  label: Label;
  lang: string;
  note?: string;
}

const LABELS: readonly Label[] = ["change", "separate", "restatement"];

/** The rule's outcome for `b` written after `a`. */
function outcomeOf(a: string, b: string): Outcome {
  return compareStatements(b, a).outcome;
}

const file = fileURLToPath(new URL("./data/fact-pairs.jsonl", import.meta.url));
const pairs: Pair[] = readFileSync(file, "utf8")
  .split("\n")
  .filter((l) => l.trim() !== "")
  .map((l, i) => {
    const p = JSON.parse(l) as Pair;
    if (!LABELS.includes(p.label) || !p.a || !p.b || !p.lang)
      throw new Error(`bench/data/fact-pairs.jsonl line ${i + 1}: needs a, b, label and lang`);
    return p;
  });

const results = pairs.map((p) => ({ ...p, outcome: outcomeOf(p.a, p.b) }));
const pct = (n: number, d: number) => (d === 0 ? "-" : `${((100 * n) / d).toFixed(1)}%`);
const count = (f: (r: (typeof results)[number]) => boolean) => results.filter(f).length;

const byClass = LABELS.map((label) => {
  const all = count((r) => r.label === label);
  const right = count((r) => r.label === label && r.outcome === label);
  return { label, pairs: all, correct: right, accuracy: pct(right, all) };
});
const langs = [...new Set(results.map((r) => r.lang))].sort();
const byLanguage = langs.map((lang) => {
  const row: Record<string, string | number> = { lang };
  for (const label of LABELS) {
    const all = count((r) => r.lang === lang && r.label === label);
    row[label] =
      `${count((r) => r.lang === lang && r.label === label && r.outcome === label)}/${all}`;
  }
  const all = count((r) => r.lang === lang);
  row.accuracy = pct(
    count((r) => r.lang === lang && r.outcome === r.label),
    all,
  );
  return row;
});
const changes = count((r) => r.label === "change");
const targets = {
  changesSuperseded: pct(
    count((r) => r.label === "change" && r.outcome === "change"),
    changes,
  ),
  separateSuperseded: count((r) => r.label === "separate" && r.outcome === "change"),
  restatementsLeftTwice: count(
    (r) =>
      r.label === "restatement" && (r.outcome === "separate" || r.outcome === "possible-change"),
  ),
  possibleChanges: count((r) => r.outcome === "possible-change"),
};
const misses = results.filter((r) => r.outcome !== r.label);
const print = (line = "") => process.stdout.write(`${line}\n`);

if (process.argv.includes("--json")) {
  print(JSON.stringify({ pairs: results.length, byClass, byLanguage, targets, misses }, null, 2));
} else {
  print(`${results.length} pairs (${file})\n`);
  print("Accuracy per class");
  for (const c of byClass) print(`  ${c.label.padEnd(12)} ${c.correct}/${c.pairs}  ${c.accuracy}`);
  print("\nPer language (correct/pairs)");
  for (const row of byLanguage)
    print(
      `  ${String(row.lang).padEnd(4)} ${LABELS.map((l) => `${l} ${row[l]}`).join("  ")}  all ${row.accuracy}`,
    );
  print("\nTargets");
  print(`  changes superseded           ${targets.changesSuperseded} (target ≥ 95%)`);
  print(`  separate facts superseded    ${targets.separateSuperseded} (target 0)`);
  print(`  restatements left twice      ${targets.restatementsLeftTwice} (target 0)`);
  print(`  possible changes (for a person) ${targets.possibleChanges}`);
  print();
  print(`Misses (${misses.length})`);
  for (const m of misses)
    print(
      `  [${m.lang}] ${m.label} → ${m.outcome}: "${m.a}" → "${m.b}"${m.note ? `  (${m.note})` : ""}`,
    );
}
