// Dedupe's candidate lookup on real text (docs/decisions.md, "Dedupe probes token pairs when every
// token is common"): every LoCoMo turn and every paragraph of the Obsidian help (English and
// Chinese) in `../shared/data/` is looked up among the texts before it, as a run looks an item up
// among the items already planned, by a SimilarityIndex that probes single tokens only and by one
// that probes token pairs when cheaper. Both must pick the same duplicate (findDuplicate) and the
// same subject match for every text; the script counts the candidates each collected, and exits 1
// on the first difference.
//
// Usage: npm run bench:dedupe-pairs
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import {
  DUPLICATE_THRESHOLD,
  SimilarityIndex,
  findDuplicate,
  subjectSimilarity,
} from "../src/core/extraction/dedupe";
import { loadCorpus } from "./lib/real-vault";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DATA = resolve(ROOT, "..", "shared", "data");
if (!existsSync(DATA)) {
  process.stdout.write(`bench:dedupe-pairs: skipped, data not found at ${DATA}\n`);
  process.exit(0);
}
const corpus = loadCorpus(DATA);
const texts = [
  ...corpus.sessions.flatMap((s) => s.lines),
  ...corpus.pages.flatMap((p) => p.paragraphs),
];

/** The subject match a scan of `ids` picks: the first text at least `t` similar in subject. */
function subjectMatch(query: string, ids: readonly number[], t: number): number {
  return ids.find((i) => subjectSimilarity(query, texts[i] ?? "") >= t) ?? -1;
}

function run(pairsFrom: number): { picks: number[]; candidates: number; s: number } {
  const index = new SimilarityIndex(false, { pairsFrom });
  const subjects = new SimilarityIndex(true, { pairsFrom });
  const picks: number[] = [];
  let candidates = 0;
  const t0 = performance.now();
  for (const text of texts) {
    const got = index.candidates(text, DUPLICATE_THRESHOLD);
    const near = subjects.candidates(text, 0.5);
    candidates += got.length + near.length;
    picks.push(got[findDuplicate(text, got, (i) => texts[i] ?? "")] ?? -1);
    picks.push(subjectMatch(text, near, 0.5));
    index.add(text);
    subjects.add(text);
  }
  return { picks, candidates, s: (performance.now() - t0) / 1000 };
}

const singles = run(Infinity);
const pairs = run(256);
const differ = singles.picks.findIndex((p, i) => p !== pairs.picks[i]);
process.stdout.write(
  `${texts.length} texts (LoCoMo turns and help paragraphs), each looked up among those before it\n` +
    `| probe | candidates | s |\n|---|---:|---:|\n` +
    `| single tokens | ${singles.candidates} | ${singles.s.toFixed(2)} |\n` +
    `| pairs when cheaper | ${pairs.candidates} | ${pairs.s.toFixed(2)} |\n` +
    `duplicates found: ${singles.picks.filter((p, i) => i % 2 === 0 && p >= 0).length}, subject matches: ${singles.picks.filter((p, i) => i % 2 === 1 && p >= 0).length}\n` +
    (differ < 0
      ? "same picks for every text\n"
      : `DIFFERENT pick for text ${Math.floor(differ / 2)}: ${texts[Math.floor(differ / 2)]}\n`),
);
process.exit(differ < 0 ? 0 : 1);
