/**
 * Dedupe by normalised text similarity (DESIGN §3 "Dedupe"): against the items already in the
 * destination and within the batch. Works for English (word overlap) and CJK (character bigrams),
 * so `Renew passport` matches `renew the passport` and `整理客户流失原因` matches `整理一下客户流失原因`.
 */

/** Default similarity at or above which two texts are the same item (Dice coefficient, 0–1). */
export const DUPLICATE_THRESHOLD = 0.8;

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** Chinese particles and fillers that reword without changing meaning (dropped before bigrams). */
const CJK_FILLERS = /一下|一些|的|了|把|着/g;
const STOP = new Set(["the", "a", "an", "to", "of", "for", "and", "on", "in", "with", "our", "my", "we", "i"]);

/** NFKC, lower case, inline fields and wikilink brackets removed, punctuation to spaces. */
export function normalizeText(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/\[[\p{L}\p{N}_-]+::[^\]]*\]/gu, " ")
    .replace(/\[\[|\]\]/g, " ")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** Tokens for similarity: English words (minus a few stop words) and CJK character bigrams. */
export function similarityTokens(text: string): string[] {
  const tokens: string[] = [];
  for (const word of normalizeText(text).split(" ")) {
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

/** Dice coefficient of two token multisets, 0–1. Equal normalised texts give 1. */
export function similarity(a: string, b: string): number {
  if (normalizeText(a) === normalizeText(b)) return 1;
  const ta = similarityTokens(a);
  const tb = similarityTokens(b);
  if (ta.length === 0 || tb.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const t of ta) counts.set(t, (counts.get(t) ?? 0) + 1);
  let shared = 0;
  for (const t of tb) {
    const n = counts.get(t) ?? 0;
    if (n > 0) {
      shared++;
      counts.set(t, n - 1);
    }
  }
  return (2 * shared) / (ta.length + tb.length);
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
