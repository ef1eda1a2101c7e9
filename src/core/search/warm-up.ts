/**
 * Queries that warm up the search code once an index is open (query p95, bench/results/search.md).
 *
 * A long-lived host (the plugin) answers its first searches with code the JavaScript engine has
 * not optimised yet: on the 10k-note benchmark the first search of a kind (a common word, a
 * Chinese word, two words, a filter) took 15–35 ms, and the same search later 1–4 ms. Running a
 * dozen searches of each kind right after opening moves that cost out of the person's way. The
 * queries are made of words from a few of the vault's own notes, so they reach the code a real
 * search reaches (postings, phrase filters, reading notes, blocks, snippets) in any language.
 */
import type { NoteMeta } from "./note-document";

/** Latin-script words of three letters or more. */
const LATIN_WORD = /\b[A-Za-z]{3,}\b/g;
/** Runs of two or more Han characters, kana or Hangul. */
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]{2,}/gu;

/**
 * Warm-up queries from the bodies of a few notes and their metadata: single words (the first,
 * usually common, and later ones), word pairs, a quoted phrase of two neighbouring words, CJK
 * words, and the same with filters (`type:`, `after:`) and a filter-only listing.
 * @param samples `{ text, meta }` of up to a few notes (text: the note's body)
 * @returns at most 24 distinct queries; none when the samples hold no word
 */
export function warmUpQueries(samples: readonly { text: string; meta: NoteMeta }[]): string[] {
  const queries: string[] = [];
  for (const { text, meta } of samples) {
    const words = text.match(LATIN_WORD) ?? [];
    const cjk = (text.match(CJK_RUN) ?? []).map((run) => run.slice(0, 4));
    const picks = [words[0], words[5], words[words.length - 1], cjk[0], cjk[cjk.length - 1]].filter(
      (w): w is string => w !== undefined,
    );
    queries.push(...picks);
    if (words.length >= 2) {
      queries.push(`${words[1] ?? ""} ${words[words.length - 2] ?? ""}`);
      // Two neighbouring words of the text are very likely a phrase it holds.
      const at = text.indexOf(`${words[2] ?? ""} ${words[3] ?? ""}`);
      if (at >= 0) queries.push(`"${words[2] ?? ""} ${words[3] ?? ""}"`);
    }
    const first = picks[0];
    if (meta.type && /^[\w-]+$/u.test(meta.type) && first)
      queries.push(`type:${meta.type} ${first}`, `type:${meta.type}`);
    if (first) queries.push(`after:2000-01-01 ${first}`);
  }
  return [...new Set(queries.map((q) => q.trim()).filter((q) => q !== ""))].slice(0, 24);
}
