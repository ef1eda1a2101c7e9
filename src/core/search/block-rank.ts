/**
 * Block-level hits (issue 4 §2): once the index has chosen the notes, their blocks are scored with
 * BM25 against the same query terms, with document frequencies counted over all blocks of the
 * chosen notes, so block scores compare across notes (the LoCoMo evaluation ranks turns that way).
 *
 * Tokenizing every block of ten long notes would be most of a query's time, so a block is
 * tokenized only when its normalised text contains a probe of some query term (see
 * {@link probeOf}); a block without any probe cannot contain the term and scores 0.
 */
import type { SearchBlock } from "./blocks";
import { normalizeText, type Tokenizer } from "./tokenizer";

/** A block as kept in the note cache; its terms are counted on first need. */
export interface RankedBlock {
  block: SearchBlock;
  /** The block's text as the tokenizer sees it: NFKC, lower case, apostrophes removed. */
  probeText: string;
  /** Term → occurrences in the block, once tokenized. */
  counts?: Map<string, number>;
  /** Number of terms in the block, once tokenized. */
  length?: number;
}

/** BM25 parameters for blocks: blocks are short, so length matters less than for whole notes. */
const K1 = 1.2;
const B = 0.5;
const APOSTROPHES = /['’]/g;
const STEMMED = /^[a-z]+$/;

/** Wraps blocks for {@link scoreBlocks}. */
export function rankedBlocks(blocks: SearchBlock[]): RankedBlock[] {
  return blocks.map((block) => ({ block, probeText: normalizeText(block.text).replace(APOSTROPHES, "") }));
}

/**
 * A substring that every text producing `term` contains. Porter stemming only rewrites the last
 * characters of a word (`happy` → `happi`, `stability` → `stabl`), so for a stemmed word the
 * probe drops its last two characters (one for a stem of two or three letters: `ays` → `ai` →
 * probe `a`); every other term (CJK
 * bigrams, ids, numbers, words of other scripts) is its own probe.
 */
export function probeOf(term: string): string {
  if (!STEMMED.test(term) || term.length < 2) return term;
  return term.slice(0, term.length <= 3 ? term.length - 1 : term.length - 2);
}

function tokenized(b: RankedBlock, tokenizer: Tokenizer): { counts: Map<string, number>; length: number } {
  if (b.counts === undefined || b.length === undefined) {
    const counts = new Map<string, number>();
    const terms = tokenizer(b.block.text);
    for (const t of terms) counts.set(t, (counts.get(t) ?? 0) + 1);
    b.counts = counts;
    b.length = terms.length;
  }
  return { counts: b.counts, length: b.length };
}

/**
 * BM25 score of every block of every note against the query terms (each counted once). The
 * average block length is taken over the blocks that contain a probe.
 * @param notes the blocks of each chosen note
 * @param terms query terms as produced by the query tokenizer
 * @param tokenizer the tokenizer blocks are counted with (the index's, CJK as n-grams)
 * @returns scores in the same shape as `notes`; 0 for a block with no query term
 */
export function scoreBlocks(notes: readonly RankedBlock[][], terms: readonly string[], tokenizer: Tokenizer): number[][] {
  const unique = [...new Set(terms)];
  const probes = [...new Set(unique.map(probeOf))];
  let n = 0;
  let candidates = 0;
  let totalLength = 0;
  const df = new Map<string, number>();
  const hits: ({ counts: Map<string, number>; length: number } | null)[][] = notes.map((blocks) =>
    blocks.map((b) => {
      n++;
      if (!probes.some((p) => b.probeText.includes(p))) return null;
      const t = tokenized(b, tokenizer);
      candidates++;
      totalLength += t.length;
      for (const term of unique) if (t.counts.has(term)) df.set(term, (df.get(term) ?? 0) + 1);
      return t;
    }),
  );
  const avg = candidates > 0 ? totalLength / candidates || 1 : 1;
  const idf = new Map<string, number>();
  for (const t of unique) {
    const d = df.get(t) ?? 0;
    idf.set(t, Math.log(1 + (n - d + 0.5) / (d + 0.5)));
  }
  return hits.map((blocks) =>
    blocks.map((b) => {
      if (b === null) return 0;
      let score = 0;
      for (const t of unique) {
        const tf = b.counts.get(t);
        if (!tf) continue;
        score += ((idf.get(t) ?? 0) * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * b.length) / avg));
      }
      return score;
    }),
  );
}
