/**
 * Block-level hits (issue 4 §2): once the index has chosen the notes, their blocks are scored with
 * BM25 against the same query terms, with document frequencies counted over all blocks of the
 * chosen notes, so block scores compare across notes (the LoCoMo evaluation ranks turns that way).
 */
import type { SearchBlock } from "./blocks";
import type { Tokenizer } from "./tokenizer";

/** A block with its term counts, as kept in the note cache. */
export interface TokenizedBlock {
  block: SearchBlock;
  /** Term → occurrences in the block. */
  counts: Map<string, number>;
  /** Number of terms in the block. */
  length: number;
}

/** BM25 parameters for blocks: blocks are short, so length matters less than for whole notes. */
const K1 = 1.2;
const B = 0.5;

/** Tokenizes blocks once, for {@link scoreBlocks}. */
export function tokenizeBlocks(blocks: SearchBlock[], tokenizer: Tokenizer): TokenizedBlock[] {
  return blocks.map((block) => {
    const counts = new Map<string, number>();
    const terms = tokenizer(block.text);
    for (const t of terms) counts.set(t, (counts.get(t) ?? 0) + 1);
    return { block, counts, length: terms.length };
  });
}

/**
 * BM25 score of every block of every note against the query terms (each counted once).
 * @param notes the blocks of each chosen note
 * @param terms query terms as produced by the tokenizer
 * @returns scores in the same shape as `notes`; 0 for a block with no query term
 */
export function scoreBlocks(notes: readonly TokenizedBlock[][], terms: readonly string[]): number[][] {
  const unique = [...new Set(terms)];
  let n = 0;
  let totalLength = 0;
  const df = new Map<string, number>();
  for (const blocks of notes) {
    for (const b of blocks) {
      n++;
      totalLength += b.length;
      for (const t of unique) if (b.counts.has(t)) df.set(t, (df.get(t) ?? 0) + 1);
    }
  }
  const avg = n > 0 ? totalLength / n : 1;
  const idf = new Map<string, number>();
  for (const t of unique) {
    const d = df.get(t) ?? 0;
    idf.set(t, Math.log(1 + (n - d + 0.5) / (d + 0.5)));
  }
  return notes.map((blocks) =>
    blocks.map((b) => {
      let score = 0;
      for (const t of unique) {
        const tf = b.counts.get(t);
        if (!tf) continue;
        score += ((idf.get(t) ?? 0) * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * b.length) / (avg || 1)));
      }
      return score;
    }),
  );
}
