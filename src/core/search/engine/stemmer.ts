/**
 * English stemming for the search tokenizer: Martin Porter's 1980 algorithm
 * (https://tartarus.org/martin/PorterStemmer/) from the `stemmer` package, applied only to plain
 * ASCII words so ids, numbers and other scripts are never touched. Stemming lets `painting` find
 * `paints` (docs/architecture.md, "Tokenizer": measured on LoCoMo, see bench/results/locomo.md).
 * The package gives the same stem as the hand-written Porter stemmer it replaced on every word of
 * examples/vault, LoCoMo and the Obsidian help vault (14,599 words) and on 500,000 generated ones.
 */
import { stemmer } from "stemmer";

const ASCII_WORD = /^[a-z]+$/;

/** Memo of recent stems: natural text repeats a small vocabulary, so this saves most of the work. */
const memo = new Map<string, string>();
const MEMO_MAX = 100_000;

/**
 * Porter stem of a lower-case word. Words that are not plain ASCII letters, or shorter than 3
 * letters, are returned unchanged.
 */
export function stem(word: string): string {
  const first = word.charCodeAt(0);
  // Numbers, ids and other scripts are never stemmed; keep them out of the memo too.
  if (word.length < 3 || first < 97 || first > 122) return word;
  const known = memo.get(word);
  if (known !== undefined) return known;
  const result = ASCII_WORD.test(word) ? stemmer(word) : word;
  if (memo.size >= MEMO_MAX) memo.clear();
  memo.set(word, result);
  return result;
}

/**
 * {@link stem} without the memo, for callers that remember results themselves (the index's term
 * scanner remembers each spelling's term id): the memo would only keep strings alive.
 */
export function stemOnce(word: string): string {
  const first = word.charCodeAt(0);
  if (word.length < 3 || first < 97 || first > 122) return word;
  return ASCII_WORD.test(word) ? stemmer(word) : word;
}
