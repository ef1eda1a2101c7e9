/**
 * The scoring loop of {@link SearchEngine.searchTop}: MiniSearch 7.2's `termResults` (BM25+ per
 * field, field boosts, document boost), OR combination and stable sort by score, replayed over the
 * compact postings of {@link TermMap} with typed arrays by short document id, building result
 * objects only for the best `limit` documents. test/core/search/search-index.test.ts checks it against
 * MiniSearch's own `search()` (scores, order, ties, totals, discarded documents).
 *
 * Why a class: one scorer per index keeps its arrays from query to query (allocating five arrays
 * the size of the index per query was most of a query's garbage), and the per-posting work is a
 * method on one object, which V8 inlines into the loop.
 * MiniSearch source: https://github.com/lucaong/minisearch/blob/v7.2.0/src/MiniSearch.ts
 */
import type { CompactPostings, Postings, TermMap } from "./term-map";
import { postingCount, postingDocuments } from "./postings";

/** One result of {@link SearchEngine.searchTop}. */
export interface TopHit {
  /** The document id. */
  id: string;
  /** MiniSearch's score for the document (BM25+ × boosts × matched query terms). */
  score: number;
  /** The query terms the document matched, in MiniSearch's order. */
  queryTerms: string[];
}

/** What {@link SearchEngine.searchTop} returns. */
export interface TopResults {
  /** Documents that matched (and held every required term). */
  total: number;
  /** The best `limit` of them, in the order `search()` would return them. */
  top: TopHit[];
  /**
   * True when `total` is an estimate: pruning passed over documents without asking their boost
   * (see max-score.ts). Absent or false: exact.
   */
  estimated?: boolean;
}

/** MiniSearch's BM25+ parameters. */
export interface Bm25Params {
  k: number;
  b: number;
  d: number;
}

/**
 * What the scorer reads of an index, by short document id. `alive` answers whether a document is
 * indexed (0 unknown — ask `learn` —, 1 indexed, 2 gone); `lengths` holds its field lengths, one
 * per field id (`stride` of them).
 */
export interface ScoringIndex {
  documentCount: number;
  /**
   * False when no posting belongs to a discarded document (MiniSearch's dirt count is 0: none
   * discarded since the last vacuum, and `remove()` drops postings at once); a query that cannot
   * match then skips the clean-up walk.
   */
  dirty: boolean;
  avgFieldLength: readonly number[];
  alive: Uint8Array;
  lengths: Int32Array;
  stride: number;
  /** Fills `alive` (and `lengths`) for a document whose state is unknown; true when it is indexed. */
  learn(docId: number): boolean;
  /** The document id of a short id (asked once per document and query). */
  idOf(docId: number): string;
  /** MiniSearch's `removeTerm`, for map postings. */
  removeTerm(fieldId: number, docId: number, term: string): void;
  dictionary: TermMap;
}

/** One query for {@link TopScorer.run}. */
export interface TopQuery {
  /** Query terms in order (repeats count, as in MiniSearch). */
  query: readonly string[];
  /** Distinct query terms (at most 30: they are tracked as bits). */
  unique: readonly string[];
  /** Boost by field id (only fields with a boost are scored). */
  fieldBoosts: readonly number[];
  bm25: Bm25Params;
  /** MiniSearch's document boost, given the document id and its short id (asked once per document). */
  boostDocument: (id: string, shortId: number) => number;
  /** Most results kept (a whole number, 0 or more). */
  limit: number;
  /** Terms a document must have matched to count. */
  required: readonly string[];
  /** The most `boostDocument` returns; `Infinity` scores every matching document. */
  maxBoost: number;
}

/** Number of bits set in a 32-bit integer. */
export function bitCount(n: number): number {
  let v = n - ((n >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * The `size` best of a stream of `(score, rank, docId)`: higher scores first, equal scores by
 * lower rank (ranks are distinct whole numbers below 2^53). A binary min-heap on (score, then
 * −rank).
 */
export class TopHeap {
  private readonly scores: Float64Array;
  private readonly ranks: Float64Array;
  private readonly docs: Int32Array;
  private n = 0;

  constructor(private readonly size: number) {
    this.scores = new Float64Array(size);
    this.ranks = new Float64Array(size);
    this.docs = new Int32Array(size);
  }

  /** True when `size` documents are kept: a new one must beat {@link TopHeap.worstScore}. */
  get full(): boolean {
    return this.n === this.size;
  }

  /** The score of the worst document kept (0 when none is). */
  get worstScore(): number {
    return this.scores[0] ?? 0;
  }

  /** Offers a document (in any rank order). */
  offer(score: number, rank: number, docId: number): void {
    if (this.n < this.size) {
      let i = this.n++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!this.worse(score, rank, parent)) break;
        this.move(parent, i);
        i = parent;
      }
      this.put(i, score, rank, docId);
      return;
    }
    // Only a better document than the worst kept gets in: a higher score, or the same score and
    // a lower rank (offered in rank order, that never happens: later ranks lose ties).
    const worst = this.scores[0] ?? 0;
    if (!(score > worst || (score === worst && rank < (this.ranks[0] ?? 0)))) return;
    let i = 0;
    for (;;) {
      const left = i * 2 + 1;
      if (left >= this.n) break;
      const right = left + 1;
      const child = right < this.n && this.worseAt(right, left) ? right : left;
      if (!this.worseAt(child, -1, score, rank)) break;
      this.move(child, i);
      i = child;
    }
    this.put(i, score, rank, docId);
  }

  /** The kept documents, best first. */
  sorted(): { docId: number; score: number; rank: number }[] {
    const out: { docId: number; score: number; rank: number }[] = [];
    for (let i = 0; i < this.n; i++)
      out.push({ docId: this.docs[i] ?? 0, score: this.scores[i] ?? 0, rank: this.ranks[i] ?? 0 });
    return out.sort((a, b) => b.score - a.score || a.rank - b.rank);
  }

  /** True when (score, rank) ranks below the entry at `i`. */
  private worse(score: number, rank: number, i: number): boolean {
    const s = this.scores[i] ?? 0;
    return score < s || (score === s && rank > (this.ranks[i] ?? 0));
  }

  /** True when the entry at `a` ranks below the entry at `b` (or below `(score, rank)` when `b` is -1). */
  private worseAt(a: number, b: number, score = 0, rank = 0): boolean {
    const sb = b < 0 ? score : (this.scores[b] ?? 0);
    const rb = b < 0 ? rank : (this.ranks[b] ?? 0);
    const sa = this.scores[a] ?? 0;
    return sa < sb || (sa === sb && (this.ranks[a] ?? 0) > rb);
  }

  private move(from: number, to: number): void {
    this.scores[to] = this.scores[from] ?? 0;
    this.ranks[to] = this.ranks[from] ?? 0;
    this.docs[to] = this.docs[from] ?? 0;
  }

  private put(i: number, score: number, rank: number, docId: number): void {
    this.scores[i] = score;
    this.ranks[i] = rank;
    this.docs[i] = docId;
  }
}

/** Scores queries over one index; see the module comment. Not re-entrant. */
export class TopScorer {
  private total = new Float64Array(0);
  private termScore = new Float64Array(0);
  private mask = new Int32Array(0);
  private inTerm = new Uint8Array(0);
  /** Document boosts, NaN until asked. */
  private boosts = new Float64Array(0);
  /** Documents that matched, in the order first met. */
  private readonly order: number[] = [];
  /** Documents whose boost was asked. */
  private readonly asked: number[] = [];
  /** Documents the current term matched. */
  private readonly touched: number[] = [];
  /**
   * 1 for documents holding the rarest required term: with required terms, only they can be
   * results, and the others' postings are passed over (see {@link TopScorer.restrict}).
   */
  private allowed = new Uint8Array(0);
  private readonly allowedList: number[] = [];
  private restricted = false;
  private busy = false;
  // The query being scored.
  private index: ScoringIndex | null = null;
  private q: TopQuery | null = null;
  private idfOf = -1;
  private idf = 0;

  /**
   * Runs one query. Throws when called while another run is in progress, or when a term's packed
   * postings are malformed (see `TermMap.lookup`).
   */
  run(index: ScoringIndex, q: TopQuery, size: number): TopResults {
    if (this.busy) throw new Error("searchTop is already running");
    this.busy = true;
    try {
      this.prepare(size);
      this.index = index;
      this.q = q;
      return this.score(index, q);
    } finally {
      this.release();
    }
  }

  private score(index: ScoringIndex, q: TopQuery): TopResults {
    const { total, termScore, mask, inTerm, order, touched } = this;
    if (!this.restrict(index, q)) {
      // A required term is in no document, so nothing matches. MiniSearch's search() would still
      // have walked the query's postings and dropped the discarded documents' (its termResults),
      // which changes the idf of later queries: walk them, scoring none (nothing is allowed).
      if (!index.dirty) return { total: 0, top: [] };
      this.restricted = true;
    }
    q.query.forEach((term) => {
      const bit = 1 << q.unique.indexOf(term);
      const data = index.dictionary.lookup(term);
      if (data === undefined) return;
      touched.length = 0;
      this.idfOf = -1;
      if (data instanceof Map) this.scanMap(term, data);
      else if (this.scanCompact(data)) {
        // As MiniSearch does: postings of discarded documents are dropped when a search meets them.
        index.dictionary.removeOccurrences(term, (docId) => index.alive[docId] === 2);
      }
      for (const docId of touched) {
        inTerm[docId] = 0;
        const m = mask[docId] ?? 0;
        if (m === 0) {
          total[docId] = termScore[docId] ?? 0;
          order.push(docId);
        } else total[docId] = (total[docId] ?? 0) + (termScore[docId] ?? 0);
        mask[docId] = m | bit;
      }
    });
    return this.best(index, q);
  }

  /**
   * With required terms (a phrase's words), marks the documents holding the rarest of them in a
   * scored field: no other document can hold them all, so {@link TopScorer.posting} passes over
   * the others without asking their boost or scoring them. A phrase like `"that monulkaqui"` then
   * costs what its rare word costs, not a scan of the thousands of notes holding "that". Results,
   * totals and tie order are unchanged (the documents left out could never be counted). False
   * (and nothing allowed) when a required term is in no document.
   */
  private restrict(index: ScoringIndex, q: TopQuery): boolean {
    if (q.required.length === 0) return true;
    let rarest: Postings | CompactPostings | undefined;
    let fewest = Infinity;
    for (const term of q.required) {
      const data = index.dictionary.lookup(term);
      if (data === undefined) return false;
      const n = postingCount(data);
      if (n < fewest) {
        fewest = n;
        rarest = data;
      }
    }
    const scored = (fieldId: number): boolean => q.fieldBoosts[fieldId] !== undefined;
    if (rarest)
      for (const docId of postingDocuments(rarest, scored)) {
        this.allowed[docId] = 1;
        this.allowedList.push(docId);
      }
    this.restricted = true;
    return true;
  }

  /** The best `limit` documents among those holding every required term, as a stable sort would order them. */
  private best(index: ScoringIndex, q: TopQuery): TopResults {
    const { total, mask, order } = this;
    let need = 0;
    for (const t of q.required) {
      const i = q.unique.indexOf(t);
      if (i < 0) return { total: 0, top: [] };
      need |= 1 << i;
    }
    // The best `limit` of the documents holding every required term, ranked by score, ties in the
    // order first met (what a stable sort by score gives): a heap of the `limit` best so far, whose
    // root is the worst of them; a later document replaces it only with a strictly higher score.
    // No heap when no result is wanted (limit 0): the matches are only counted.
    const size = Math.min(q.limit, order.length);
    const heap = size > 0 ? new TopHeap(size) : null;
    let kept = 0;
    for (let rank = 0; rank < order.length; rank++) {
      const docId = order[rank] ?? 0;
      const m = mask[docId] ?? 0;
      if ((m & need) !== need) continue;
      kept++;
      heap?.offer((total[docId] ?? 0) * bitCount(m), rank, docId);
    }
    const top = (heap?.sorted() ?? []).map(({ docId, score }) => ({
      id: index.idOf(docId),
      score,
      queryTerms: q.unique.filter((_, i) => ((mask[docId] ?? 0) & (1 << i)) !== 0),
    }));
    return { total: kept, top };
  }

  /**
   * Scores compact postings field by field (fields without a boost are skipped); true when it met
   * a discarded document.
   */
  private scanCompact(c: CompactPostings): boolean {
    const boosts = this.q?.fieldBoosts ?? [];
    let discarded = false;
    for (let i = 0; i < c.length;) {
      const fieldId = c[i] ?? 0;
      let end = i;
      while (end < c.length && c[end] === fieldId) end += 3;
      if (boosts[fieldId] === undefined) {
        i = end;
        continue;
      }
      let matching = (end - i) / 3;
      for (; i < end; i += 3) {
        if (!this.posting(fieldId, c[i + 1] ?? 0, c[i + 2] ?? 0, matching)) {
          matching -= 1;
          discarded = true;
        }
      }
    }
    return discarded;
  }

  /** Scores map postings field by field, removing discarded documents' postings as MiniSearch does. */
  private scanMap(term: string, data: Postings): void {
    const index = this.index;
    (this.q?.fieldBoosts ?? []).forEach((_, fieldId) => {
      const freqs = data.get(fieldId);
      if (freqs === undefined) return;
      let matching = freqs.size;
      for (const [docId, tf] of freqs) {
        if (!this.posting(fieldId, docId, tf, matching)) {
          index?.removeTerm(fieldId, docId, term);
          matching -= 1;
        }
      }
    });
  }

  /** Scores one posting (MiniSearch's termResults); false when the document was discarded. */
  private posting(fieldId: number, docId: number, tf: number, matching: number): boolean {
    const index = this.index;
    const q = this.q;
    if (index === null || q === null) return true;
    const state = index.alive[docId];
    if (state !== 1 && (state === 2 || !index.learn(docId))) return false;
    if (this.restricted && this.allowed[docId] !== 1) return true;
    let docBoost = this.boosts[docId] ?? 0;
    if (Number.isNaN(docBoost)) {
      docBoost = q.boostDocument(index.idOf(docId), docId);
      this.boosts[docId] = docBoost;
      this.asked.push(docId);
    }
    if (!docBoost) return true;
    const length = index.lengths[docId * index.stride + fieldId] ?? 0;
    if (this.idfOf !== matching) {
      this.idf = Math.log(1 + (index.documentCount - matching + 0.5) / (matching + 0.5));
      this.idfOf = matching;
    }
    const { k, b, d } = q.bm25;
    const avg = index.avgFieldLength[fieldId] ?? 0;
    const raw = this.idf * (d + (tf * (k + 1)) / (tf + k * (1 - b + (b * length) / avg)));
    const weighted = (q.fieldBoosts[fieldId] ?? 1) * docBoost * raw;
    if (this.inTerm[docId] === 1) this.termScore[docId] = (this.termScore[docId] ?? 0) + weighted;
    else {
      this.inTerm[docId] = 1;
      this.termScore[docId] = weighted;
      this.touched.push(docId);
    }
    return true;
  }

  /** Makes the arrays at least `size` long. */
  private prepare(size: number): void {
    if (this.total.length >= size) return;
    const n = Math.max(size, Math.ceil(this.total.length * 1.5));
    this.total = new Float64Array(n);
    this.termScore = new Float64Array(n);
    this.mask = new Int32Array(n);
    this.inTerm = new Uint8Array(n);
    this.allowed = new Uint8Array(n);
    this.boosts = new Float64Array(n).fill(Number.NaN);
  }

  /** Clears what the query used. */
  private release(): void {
    for (const d of this.order) {
      this.total[d] = 0;
      this.termScore[d] = 0;
      this.mask[d] = 0;
      this.inTerm[d] = 0;
    }
    for (const d of this.touched) {
      this.inTerm[d] = 0;
      this.termScore[d] = 0;
    }
    for (const d of this.asked) this.boosts[d] = Number.NaN;
    for (const d of this.allowedList) this.allowed[d] = 0;
    this.allowedList.length = 0;
    this.restricted = false;
    this.order.length = 0;
    this.asked.length = 0;
    this.touched.length = 0;
    this.index = null;
    this.q = null;
    this.busy = false;
  }
}
