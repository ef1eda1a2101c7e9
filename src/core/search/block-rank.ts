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
import { TermCounts, TermDictionary, TermScanner } from "./term-scanner";
import { normalizeText } from "./tokenizer";

/** A block as kept in the note cache. */
export interface RankedBlock {
  block: SearchBlock;
  /** The block's text as the tokenizer sees it: NFKC, lower case, apostrophes removed. */
  probeText: string;
}

/** BM25 parameters for blocks: blocks are short, so length matters less than for whole notes. */
const K1 = 1.2;
const B = 0.5;
const APOSTROPHES = /['’]/g;
const STEMMED = /^[a-z]+$/;
/** Terms the scorer's dictionary holds before it starts afresh (memory bound). */
const DICTIONARY_MAX = 1 << 20;

/** Wraps blocks for {@link BlockScorer.score}. */
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

/**
 * Scores blocks with BM25. Blocks are counted with a {@link TermScanner} over the index
 * tokenizer's rules with CJK as n-grams (bigrams and characters, no segmenter: the same terms for
 * every CJK query term but bigrams, at a fraction of the cost), so scoring makes no string per
 * token and keeps nothing per block: what a query allocates is garbage right away, which keeps
 * the garbage collector's pauses short (issue 4 query p95).
 */
export class BlockScorer {
  private dictionary = new TermDictionary();
  private scanner: TermScanner;
  private readonly counts = new TermCounts();
  /** Blocks scanned by the last {@link BlockScorer.score} (for tests). */
  lastScanned = 0;

  /** @param options `stemming` as the index's tokenizer (default true) */
  constructor(private readonly options: { stemming?: boolean } = {}) {
    this.scanner = new TermScanner(this.dictionary, { stemming: options.stemming ?? true, cjk: "ngrams" });
  }

  /**
   * BM25 score of every block of every note against the query terms (each counted once). The
   * average block length is taken over the blocks that contain a probe.
   * @param notes the blocks of each chosen note
   * @param terms query terms as produced by the query tokenizer
   * @returns scores in the same shape as `notes`; 0 for a block with no query term
   */
  score(notes: readonly RankedBlock[][], terms: readonly string[]): number[][] {
    if (this.dictionary.size > DICTIONARY_MAX) {
      this.dictionary = new TermDictionary();
      this.scanner = new TermScanner(this.dictionary, { stemming: this.options.stemming ?? true, cjk: "ngrams" });
    }
    const unique = [...new Set(terms)];
    const probes = [...new Set(unique.map(probeOf))];
    const ids = unique.map((t) => this.dictionary.idOfSpan(t, 0, t.length));
    const q = unique.length;
    let n = 0;
    let candidates = 0;
    let totalLength = 0;
    const df = new Array<number>(q).fill(0);
    // Per scanned block: its length, then the frequency of each query term.
    const found: (number[] | null)[][] = notes.map((blocks) =>
      blocks.map((b) => {
        n++;
        if (!probes.some((p) => b.probeText.includes(p))) return null;
        this.scanner.count(b.block.text, this.counts);
        const row = [this.counts.total];
        ids.forEach((id, k) => {
          const tf = this.counts.get(id);
          row.push(tf);
          if (tf > 0) df[k] = (df[k] ?? 0) + 1;
        });
        this.counts.drain(() => undefined);
        candidates++;
        totalLength += row[0] ?? 0;
        return row;
      }),
    );
    this.lastScanned = candidates;
    const avg = candidates > 0 ? totalLength / candidates || 1 : 1;
    const idf = df.map((d) => Math.log(1 + (n - d + 0.5) / (d + 0.5)));
    return found.map((blocks) =>
      blocks.map((row) => {
        if (row === null) return 0;
        const length = row[0] ?? 0;
        let score = 0;
        for (let k = 0; k < q; k++) {
          const tf = row[k + 1] ?? 0;
          if (tf > 0) score += ((idf[k] ?? 0) * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * length) / avg));
        }
        return score;
      }),
    );
  }
}
