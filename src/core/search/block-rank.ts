/**
 * Block-level hits (docs/architecture.md, "The index"): once the index has chosen the notes, their
 * blocks are scored with BM25 against the same query terms, with document frequencies counted over
 * all blocks of the chosen notes, so block scores compare across notes (the LoCoMo evaluation ranks
 * turns that way).
 *
 * Tokenizing every block of ten long notes would be most of a query's time, so a block is
 * tokenized only when its normalised text contains a probe of some query term (see
 * {@link probeOf}); a block without any probe cannot contain the term and scores 0.
 */
import type { SearchBlock } from "./blocks";
import { TermCounts, TermDictionary, TermScanner } from "./engine/term-scanner";
import { normalizeText } from "./engine/tokenizer";

/** A block as kept in the note cache. */
export interface RankedBlock {
  block: SearchBlock;
  /**
   * The block's text as the tokenizer sees it: NFKC, lower case, apostrophes removed; worked out
   * on first use (a note read only to show a block the vectors found never needs it).
   */
  readonly probeText: string;
  /** The block's terms once scanned: see {@link BlockScorer}. */
  scan?: BlockScan;
}

/** A {@link RankedBlock} whose probe text is worked out when first asked. */
class LazyRankedBlock implements RankedBlock {
  private probe: string | undefined = undefined;
  scan?: BlockScan = undefined;
  constructor(readonly block: SearchBlock) {}
  get probeText(): string {
    return (this.probe ??= normalizeText(this.block.text).replace(APOSTROPHES, ""));
  }
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
 * rehashes every entry, and a rehash of tens of thousands landed on single queries (query p95,
 * bench/results/search.md).
 */
const TABLE_CAPACITY = 1 << 16;

/** Wraps blocks for {@link BlockScorer.score}. */
export function rankedBlocks(blocks: SearchBlock[]): RankedBlock[] {
  return blocks.map((block) => new LazyRankedBlock(block));
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
 * the garbage collector's pauses short (query p95, bench/results/search.md).
 */
export class BlockScorer {
  private dictionary = new TermDictionary(TABLE_CAPACITY);
  /** Changes when the dictionary starts afresh (cached scans of older ones are stale). */
  private generation = 0;
  private scanner: TermScanner;
  private readonly counts = new TermCounts();
  /** Block lengths and term frequencies of the current {@link BlockScorer.score}, reused. */
  private rows = new Int32Array(1024);
  /** Blocks the last {@link BlockScorer.score} scanned (others had no probe or a cached scan). */
  lastScanned = 0;

  /** @param options `stemming` as the index's tokenizer (default true) */
  constructor(private readonly options: { stemming?: boolean } = {}) {
    this.scanner = this.newScanner();
  }

  private newScanner(): TermScanner {
    return new TermScanner(this.dictionary, {
      stemming: this.options.stemming ?? true,
      cjk: "ngrams",
      capacity: TABLE_CAPACITY,
    });
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
    for (const blocks of notes) n += blocks.length;
    // Per block: its length (-1 for a block without a probe), then the frequency of each query
    // term, in one reused buffer: no array per block (a query's garbage raised its p95;
    // bench/results/search.md).
    const stride = q + 1;
    if (this.rows.length < n * stride)
      this.rows = new Int32Array(Math.max(n * stride, this.rows.length * 2));
    const rows = this.rows;
    let candidates = 0;
    let totalLength = 0;
    const df = new Array<number>(q).fill(0);
    let scanned = 0;
    let at = 0;
    for (const blocks of notes) {
      for (const b of blocks) {
        const row = at;
        at += stride;
        rows[row] = -1;
        if (!hasProbe(b.probeText, probes)) continue;
        let scan = b.scan;
        if (scan?.generation !== this.generation) {
          scan = this.scan(b.block.text);
          b.scan = scan;
          scanned++;
        }
        rows[row] = scan.length;
        for (let k = 0; k < q; k++) {
          const tf = frequency(scan.pairs, ids[k] ?? -1);
          rows[row + 1 + k] = tf;
          if (tf > 0) df[k] = (df[k] ?? 0) + 1;
        }
        candidates++;
        totalLength += scan.length;
      }
    }
    this.lastScanned = scanned;
    const avg = candidates > 0 ? totalLength / candidates || 1 : 1;
    const idf = df.map((d) => Math.log(1 + (n - d + 0.5) / (d + 0.5)));
    at = 0;
    const out: number[][] = [];
    for (const blocks of notes) {
      const scores = new Array<number>(blocks.length);
      for (let j = 0; j < blocks.length; j++) {
        const row = at;
        at += stride;
        const length = rows[row] ?? -1;
        if (length < 0) {
          scores[j] = 0;
          continue;
        }
        let score = 0;
        for (let k = 0; k < q; k++) {
          const tf = rows[row + 1 + k] ?? 0;
          if (tf > 0)
            score += ((idf[k] ?? 0) * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * length) / avg));
        }
        scores[j] = score;
      }
      out.push(scores);
    }
    return out;
  }

  /** Scans a block's text into sorted `id, tf` pairs. */
  private scan(text: string): BlockScan {
    this.scanner.count(text, this.counts);
    const length = this.counts.total;
    const pairs = this.counts.sortedPairs();
    return { generation: this.generation, pairs, length };
  }
}

/** True when `text` contains one of `probes`. */
function hasProbe(text: string, probes: readonly string[]): boolean {
  for (const p of probes) if (text.includes(p)) return true;
  return false;
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
