/**
 * Dedupe by normalised text similarity (docs/architecture.md, "Dedupe"): against the items already
 * in the destination and within the batch. Works for English (word overlap) and CJK (character
 * bigrams), so `Renew passport` matches `renew the passport` and `整理客户流失原因` matches `整理一下客户流失原因`.
 */
import { wordsForSimilarity } from "../markdown/text";

/**
 * Default similarity at or above which two texts are the same item (multiset Jaccard index, 0–1).
 * 0.75 lets a stop word or particle differ ("Renew passport" / "renew the passport") but not a
 * content word ("Pay the invoice" / "Pay invoice for March" is 2/3).
 */
export const DUPLICATE_THRESHOLD = 0.75;

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** Chinese particles and fillers that reword without changing meaning (dropped before bigrams). */
const CJK_FILLERS = /一下|一些|的|了|把|着/g;
const STOP = new Set(["the", "a", "an", "to", "of", "for", "and", "on", "in", "with", "our", "my", "we", "i"]);

/** Tokens for similarity: English words (minus a few stop words) and CJK character bigrams. */
export function similarityTokens(text: string): string[] {
  const tokens: string[] = [];
  for (const word of wordsForSimilarity(text).split(" ")) {
    if (!word) continue;
    if (CJK.test(word)) {
      const chars = Array.from(word.replace(CJK_FILLERS, "") || word);
      if (chars.length === 1) tokens.push(word);
      for (let i = 0; i + 1 < chars.length; i++) tokens.push(`${chars[i]}${chars[i + 1]}`);
    } else if (!STOP.has(word)) {
      tokens.push(word.length > 4 && word.endsWith("s") ? word.slice(0, -1) : word);
    }
  }
  return tokens;
}

/** Numbers written in a text (`50`, `2.1`, `3.2.5`, `10:30`), sorted: items that differ in one differ. */
function numbersOf(text: string): string {
  return (text.normalize("NFKC").match(/\d+(?:[.,:]\d+)*/g) ?? []).sort().join(" ");
}

/**
 * Similarity of two item texts, 0–1: the multiset Jaccard index of their {@link similarityTokens}.
 * Equal normalised texts give 1; texts whose numbers differ ("Task 50" / "Task 100", "version 2.1" /
 * "version 2.2") give 0, since a number is what tells such items apart.
 */
export function similarity(a: string, b: string): number {
  const x = profileOf(a);
  const y = profileOf(b);
  if (x.key === y.key) return 1;
  if (x.numbers !== y.numbers) return 0;
  if (x.size === 0 || y.size === 0) return 0;
  const [small, large] = x.counts.size <= y.counts.size ? [x, y] : [y, x];
  let shared = 0;
  for (const [t, n] of small.counts) shared += Math.min(n, large.counts.get(t) ?? 0);
  return shared / (x.size + y.size - shared);
}

/** True when two item texts are the same item ({@link similarity} ≥ {@link DUPLICATE_THRESHOLD}). */
export function sameItemText(a: string, b: string): boolean {
  return similarity(a, b) >= DUPLICATE_THRESHOLD;
}

/** What comparisons need of a text, computed once per distinct text (a run compares many pairs). */
interface Profile {
  key: string;
  counts: Map<string, number>;
  /** Number of tokens, with repeats. */
  size: number;
  numbers: string;
}

const profiles = new Map<string, Profile>();
const MAX_PROFILES = 20_000;

function profileOf(text: string): Profile {
  const cached = profiles.get(text);
  if (cached) return cached;
  const tokens = similarityTokens(text);
  const counts = new Map<string, number>();
  for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
  const profile: Profile = { key: wordsForSimilarity(text), counts, size: tokens.length, numbers: numbersOf(text) };
  if (profiles.size >= MAX_PROFILES) profiles.clear();
  profiles.set(text, profile);
  return profile;
}

/**
 * The best match of `text` among `candidates` at or above `threshold`.
 * @returns the index of the most similar candidate, or -1.
 */
export function findDuplicate<T>(text: string, candidates: readonly T[], textOf: (c: T) => string, threshold = DUPLICATE_THRESHOLD): number {
  let best = -1;
  let bestScore = threshold;
  candidates.forEach((c, i) => {
    const score = similarity(text, textOf(c));
    if (score >= bestScore && (best === -1 || score > bestScore)) {
      best = i;
      bestScore = score;
    }
  });
  return best;
}
