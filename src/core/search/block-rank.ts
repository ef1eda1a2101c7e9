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
  /** The block's terms once scanned: see {@link BlockScorer}. */
  scan?: BlockScan;
}

/**
 * A scanned block: term ids (of one {@link BlockScorer} dictionary, `generation`) and their
 * frequencies as sorted pairs, and the number of terms. Typed arrays hold no pointers, so a cached
 * scan costs the garbage collector next to nothing.
 */
interface BlockScan {
  generation: number;
  /** `id, tf` pairs, ids ascending. */
  pairs: Int32Array;
  length: number;
}

/** BM25 parameters for blocks: blocks are short, so length matters less than for whole notes. */
const K1 = 1.2;
const B = 0.5;
const APOSTROPHES = /['’]/g;
const STEMMED = /^[a-z]+$/;
/** Terms the scorer's dictionary holds before it starts afresh (memory bound). */
const DICTIONARY_MAX = 1 << 20;
/**
 * Terms and spellings the scorer's tables make room for up front (about 3 MB): growing a table
 * rehashes every entry, and a rehash of tens of thousands landed on single queries (issue 4 p95).
 */
const TABLE_CAPACITY = 1 << 16;

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
  private dictionary = new TermDictionary(TABLE_CAPACITY);
  /** Changes when the dictionary starts afresh (cached scans of older ones are stale). */
  private generation = 0;
  private scanner: TermScanner;
  private readonly counts = new TermCounts();
  /** Blocks the last {@link BlockScorer.score} scanned (others had no probe or a cached scan). */
  lastScanned = 0;

  /** @param options `stemming` as the index's tokenizer (default true) */
  constructor(private readonly options: { stemming?: boolean } = {}) {
    this.scanner = this.newScanner();
  }

  private newScanner(): TermScanner {
    return new TermScanner(this.dictionary, { stemming: this.options.stemming ?? true, cjk: "ngrams", capacity: TABLE_CAPACITY });
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
      this.dictionary = new TermDictionary(TABLE_CAPACITY);
      this.generation++;
      this.scanner = this.newScanner();
    }
    const unique = [...new Set(terms)];
    const probes = [...new Set(unique.map(probeOf))];
    const ids = unique.map((t) => this.dictionary.idOfSpan(t, 0, t.length));
    const q = unique.length;
    let n = 0;
    let candidates = 0;
    let totalLength = 0;
    const df = new Array<number>(q).fill(0);
    // Per block with a probe: its length, then the frequency of each query term.
    let scanned = 0;
    const found: (number[] | null)[][] = notes.map((blocks) =>
      blocks.map((b) => {
        n++;
        if (!probes.some((p) => b.probeText.includes(p))) return null;
        let scan = b.scan;
        if (scan?.generation !== this.generation) {
          scan = this.scan(b.block.text);
          b.scan = scan;
          scanned++;
        }
        const row = [scan.length];
        ids.forEach((id, k) => {
          const tf = frequency(scan.pairs, id);
          row.push(tf);
          if (tf > 0) df[k] = (df[k] ?? 0) + 1;
        });
        candidates++;
        totalLength += scan.length;
        return row;
      }),
    );
    this.lastScanned = scanned;
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

  /** Scans a block's text into sorted `id, tf` pairs. */
  private scan(text: string): BlockScan {
    this.scanner.count(text, this.counts);
    const length = this.counts.total;
    const pairs = this.counts.sortedPairs();
    return { generation: this.generation, pairs, length };
  }
}

/** Frequency of term `id` in sorted `id, tf` pairs (binary search); 0 when absent. */
function frequency(pairs: Int32Array, id: number): number {
  let lo = 0;
  let hi = pairs.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = pairs[mid * 2] ?? 0;
    if (at === id) return pairs[mid * 2 + 1] ?? 0;
    if (at < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return 0;
}
