/**
 * Dynamic pruning for {@link SearchEngine.searchTop}: MaxScore (Turtle and Flood, 1995) over the
 * compact postings, document at a time, with a score bound per block of {@link BLOCK} postings
 * (block-max, Ding and Suel, 2011), exact for the best `limit` documents: the same documents, the
 * same scores bit for bit and the same tie order as {@link TopScorer}, the exhaustive scorer kept
 * as its oracle (test/core/search/search-max-score.test.ts).
 *
 * MiniSearch's score of a document is `boost × Σ_terms Σ_fields fieldBoost × BM25+ × (number of
 * distinct query terms it matched)`. Given `maxBoost`, the most the document boost can be, a
 * field's BM25+ is at most its value at the highest term frequency and the shortest field of the
 * postings (BM25+ rises with the frequency and falls with the length when 0 ≤ b ≤ 1, k, d ≥ 0),
 * which bounds every term ("its bound") and every block. Terms are taken in increasing bound; the
 * longest run of the weakest whose bounds together (times their number) cannot beat the worst of
 * the best `limit` so far is "non-essential": a document only they hold cannot enter, so only the
 * documents of the other terms are visited, and the non-essential postings are looked up (by
 * binary search) for those visited. A visited document is passed over, unscored and without
 * asking its boost, when its blocks' bounds cannot beat the worst kept either.
 *
 * It declines (returns `null`, and the caller scores every document) when the result would not be
 * the exhaustive scorer's: required terms, map postings, postings of a discarded document (their
 * idf is MiniSearch's running count, and the exhaustive scan drops them), BM25 parameters outside
 * the ranges above, or no bound on the boost.
 *
 * `total` is then an estimate (`estimated: true`) when documents were passed over: the documents
 * holding a query term in a scored field, times the share of the visited ones whose boost was
 * not 0 (docs/decisions.md, "Top-k search prunes with MaxScore and block maxima").
 */
import type { CompactPostings } from "./postings";
import {
  TopHeap,
  bitCount,
  type ScoringIndex,
  type TopHit,
  type TopQuery,
  type TopResults,
} from "./top-scorer";

/** Postings per block whose highest frequency and shortest field are kept. */
export const BLOCK = 64;
/** Bounds are widened by this relative margin, so rounding never prunes a document that enters. */
const MARGIN = 1e-9;

/**
 * Field segments of one term's compact postings, and their blocks' bounds. A block's bound is the
 * highest `tf / (tf + k·(1 − b + b·length / avg))` of its postings (BM25+'s saturation, times
 * k + 1 plus d it is BM25+) at the field's average length `avg` when computed; for a later
 * average it is divided by min(1, avg then / avg now), which keeps it a bound (see
 * {@link saturationBound}).
 */
interface Segments {
  /** Per segment: field id, first row, end row (rows are triples of the compact array). */
  field: Int32Array;
  start: Int32Array;
  end: Int32Array;
  /** Index of the segment's first block in `block`. */
  firstBlock: Int32Array;
  /** Per block, and per segment: the highest saturation. */
  block: Float64Array;
  segment: Float64Array;
  /** The k, b and average field length (per segment) the saturations were computed with. */
  k: number;
  b: number;
  avg: Float64Array;
}

/** Segments by postings array (a compact array is never changed, only replaced). */
const segmentCache = new WeakMap<CompactPostings, Segments>();

/** True when every posting's document is indexed (learning the unknown ones). */
function allAlive(c: CompactPostings, index: ScoringIndex): boolean {
  for (let i = 1; i < c.length; i += 3) {
    const d = c[i] ?? 0;
    const state = index.alive[d];
    if (state !== 1 && (state === 2 || !index.learn(d))) return false;
  }
  return true;
}

/**
 * The segments of `c` for BM25 parameters `k`, `b`; `null` when a posting's document is not
 * indexed. Recomputed when k or b differ, or an average field length moved by more than 5%.
 */
function segmentsOf(
  c: CompactPostings,
  index: ScoringIndex,
  k: number,
  b: number,
): Segments | null {
  const cached = segmentCache.get(c);
  if (cached && cached.k === k && cached.b === b) {
    let fresh = true;
    for (let g = 0; g < cached.field.length && fresh; g++) {
      const now = index.avgFieldLength[cached.field[g] ?? 0] ?? 0;
      const then = cached.avg[g] ?? 0;
      fresh = now <= then * 1.05 && now >= then / 1.05;
    }
    if (fresh) return !index.dirty || allAlive(c, index) ? cached : null;
  }
  if (!allAlive(c, index)) return null;
  const rows = c.length / 3;
  const starts: number[] = [];
  for (let r = 0; r < rows; r++) if (r === 0 || c[r * 3] !== c[r * 3 - 3]) starts.push(r);
  const n = starts.length;
  const s: Segments = {
    field: new Int32Array(n),
    start: new Int32Array(n),
    end: new Int32Array(n),
    firstBlock: new Int32Array(n),
    block: new Float64Array(0),
    segment: new Float64Array(n),
    k,
    b,
    avg: new Float64Array(n),
  };
  let blocks = 0;
  for (let g = 0; g < n; g++) {
    const start = starts[g] ?? 0;
    const end = g + 1 < n ? (starts[g + 1] ?? rows) : rows;
    s.field[g] = c[start * 3] ?? 0;
    s.start[g] = start;
    s.end[g] = end;
    s.firstBlock[g] = blocks;
    blocks += Math.ceil((end - start) / BLOCK);
  }
  s.block = new Float64Array(blocks);
  for (let g = 0; g < n; g++) {
    const f = s.field[g] ?? 0;
    const avg = index.avgFieldLength[f] ?? 0;
    s.avg[g] = avg;
    let best = 0;
    for (let r = s.start[g] ?? 0, blk = s.firstBlock[g] ?? 0; r < (s.end[g] ?? 0); blk++) {
      const stop = Math.min(r + BLOCK, s.end[g] ?? 0);
      let most = 0;
      for (; r < stop; r++) {
        const tf = c[r * 3 + 2] ?? 0;
        const length = index.lengths[(c[r * 3 + 1] ?? 0) * index.stride + f] ?? 0;
        const sat = tf / (tf + k * (1 - b + (b * length) / avg));
        if (sat > most) most = sat;
      }
      s.block[blk] = most;
      if (most > best) best = most;
    }
    s.segment[g] = best;
  }
  segmentCache.set(c, s);
  return s;
}

/**
 * A bound of BM25+ (without idf and weights) for a saturation bound `sat` computed at average
 * length `then`, now that the average is `now`: `1 − b + b·l/now ≥ (1 − b + b·l/then)·r` with
 * r = min(1, then/now), and tf/(tf + rK) ≤ (tf/(tf + K))/r.
 */
function saturationBound(sat: number, then: number, now: number, k: number, d: number): number {
  const r = Math.min(1, then / now);
  return d + ((k + 1) * sat) / r;
}

/** One scored field segment of one query term, with its cursor. */
interface Cursor {
  c: CompactPostings;
  /** Index of the term in `unique`. */
  term: number;
  field: number;
  /** Row of the cursor, end row, first block. */
  row: number;
  end: number;
  start: number;
  firstBlock: number;
  blocks: Segments;
  /** The segment's average field length when its bounds were computed, and now. */
  then: number;
  now: number;
  idf: number;
  /** fieldBoost × idf, and the segment's bound (fieldBoost × idf × BM25+ at its extremes). */
  weight: number;
  bound: number;
}

/**
 * The best `q.limit` documents by pruning (see the module comment), or `null` when pruning does
 * not apply and the caller must score every document. Throws when a term's packed postings are
 * malformed (see `TermMap.lookup`).
 */
export function maxScoreTop(index: ScoringIndex, q: TopQuery): TopResults | null {
  const { k, b, d } = q.bm25;
  const maxBoost = q.maxBoost;
  if (!(maxBoost >= 0 && maxBoost < Infinity) || q.limit <= 0 || q.required.length > 0) return null;
  if (!(k >= 0 && b >= 0 && b <= 1 && d >= 0)) return null;
  if (q.fieldBoosts.some((x) => !(x >= 0))) return null;
  const nTerms = q.unique.length;
  const mult = new Array<number>(nTerms).fill(0);
  for (const t of q.query) {
    const u = q.unique.indexOf(t);
    mult[u] = (mult[u] ?? 0) + 1;
  }
  const cursors: Cursor[] = [];
  const byTerm: Cursor[][] = [];
  const termBound = new Array<number>(nTerms).fill(0);
  for (let u = 0; u < nTerms; u++) {
    const mine: Cursor[] = [];
    byTerm.push(mine);
    const data = index.dictionary.lookup(q.unique[u] ?? "");
    if (data === undefined) continue;
    if (data instanceof Map) return null;
    const s = segmentsOf(data, index, k, b);
    if (s === null) return null;
    for (let g = 0; g < s.field.length; g++) {
      const field = s.field[g] ?? 0;
      const boost = q.fieldBoosts[field];
      if (boost === undefined) continue;
      const avg = index.avgFieldLength[field] ?? 0;
      if (!(avg > 0)) return null;
      const start = s.start[g] ?? 0;
      const end = s.end[g] ?? 0;
      const matching = end - start;
      const idf = Math.log(1 + (index.documentCount - matching + 0.5) / (matching + 0.5));
      const weight = boost * idf;
      const cur: Cursor = {
        c: data,
        term: u,
        field,
        row: start,
        end,
        start,
        firstBlock: s.firstBlock[g] ?? 0,
        blocks: s,
        then: s.avg[g] ?? avg,
        now: avg,
        idf,
        weight,
        bound: weight * saturationBound(s.segment[g] ?? 0, s.avg[g] ?? avg, avg, k, d),
      };
      mine.push(cur);
      cursors.push(cur);
      termBound[u] = (termBound[u] ?? 0) + cur.bound;
    }
    termBound[u] = (termBound[u] ?? 0) * (mult[u] ?? 0);
  }
  // Terms by increasing bound; `prefix[p]` is the sum of the weakest p bounds.
  const ranked = [...Array(nTerms).keys()]
    .filter((u) => (byTerm[u]?.length ?? 0) > 0)
    .sort((x, y) => (termBound[x] ?? 0) - (termBound[y] ?? 0));
  const prefix = [0];
  for (const u of ranked) prefix.push((prefix[prefix.length - 1] ?? 0) + (termBound[u] ?? 0));
  const essential = new Uint8Array(nTerms);
  for (const u of ranked) essential[u] = 1;
  let nonEssential = 0;

  const size = Math.max(0, Math.floor(q.limit));
  const heap = new TopHeap(size);
  const stride = index.stride;
  const span = index.alive.length;
  const docAt = (cur: Cursor): number => (cur.row < cur.end ? (cur.c[cur.row * 3 + 1] ?? 0) : -1);
  const blockBound = (cur: Cursor): number => {
    const blk = cur.firstBlock + Math.floor((cur.row - cur.start) / BLOCK);
    return cur.weight * saturationBound(cur.blocks.block[blk] ?? 0, cur.then, cur.now, k, d);
  };
  /** Moves a cursor to its first posting of a document ≥ `doc` (galloping, then binary search). */
  const seek = (cur: Cursor, doc: number): void => {
    if (cur.row >= cur.end || (cur.c[cur.row * 3 + 1] ?? 0) >= doc) return;
    let lo = cur.row;
    let step = 1;
    let hi = lo + step;
    while (hi < cur.end && (cur.c[hi * 3 + 1] ?? 0) < doc) {
      lo = hi;
      step *= 2;
      hi = lo + step;
    }
    if (hi > cur.end) hi = cur.end;
    // Invariant: doc at lo < doc; doc at hi ≥ doc (or hi = end).
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if ((cur.c[mid * 3 + 1] ?? 0) < doc) lo = mid;
      else hi = mid;
    }
    cur.row = hi;
  };

  const maskOf = new Map<number, number>();
  let asked = 0;
  let positive = 0;
  let passed = false;
  for (;;) {
    // With one essential term left, whole blocks of it whose bound cannot beat the worst kept
    // are skipped.
    if (heap.full && nonEssential === ranked.length - 1) {
      const u = ranked[nonEssential] ?? 0;
      const mine = byTerm[u] ?? [];
      let all = 0;
      for (const cur of mine) all += cur.bound;
      const rest = prefix[nonEssential] ?? 0;
      const worst = heap.worstScore;
      for (const cur of mine) {
        while (cur.row < cur.end) {
          const bound = (mult[u] ?? 0) * (all - cur.bound + blockBound(cur)) + rest;
          if (maxBoost * bound * (nonEssential + 1) * (1 + MARGIN) >= worst) break;
          passed = true;
          cur.row = Math.min(
            cur.end,
            cur.start + (Math.floor((cur.row - cur.start) / BLOCK) + 1) * BLOCK,
          );
        }
      }
    }
    // The pivot: the lowest document of the essential terms' cursors.
    let doc = -1;
    for (const cur of cursors) {
      if (essential[cur.term] !== 1) continue;
      const at = docAt(cur);
      if (at >= 0 && (doc < 0 || at < doc)) doc = at;
    }
    if (doc < 0) break;
    if (heap.full) {
      // The document's own BM25+ sum (the non-essential cursors moved to it) times the most its
      // boost can be: a document that cannot beat the worst kept is passed over, its boost unasked.
      let sum = 0;
      let held = 0;
      let termsHeld = 0;
      for (const cur of cursors) {
        if (essential[cur.term] !== 1) seek(cur, doc);
        if (docAt(cur) !== doc) continue;
        const tf = cur.c[cur.row * 3 + 2] ?? 0;
        const length = index.lengths[doc * stride + cur.field] ?? 0;
        const avg = cur.now;
        sum +=
          (mult[cur.term] ?? 0) *
          cur.weight *
          (d + (tf * (k + 1)) / (tf + k * (1 - b + (b * length) / avg)));
        const bit = 1 << cur.term;
        if ((termsHeld & bit) === 0) {
          termsHeld |= bit;
          held++;
        }
      }
      if (maxBoost * sum * held * (1 + MARGIN) < heap.worstScore) {
        passed = true;
        for (const cur of cursors) if (essential[cur.term] === 1 && docAt(cur) === doc) cur.row++;
        continue;
      }
    }
    asked++;
    const boost = q.boostDocument(index.idOf(doc), doc);
    if (boost) {
      positive++;
      // The exact score, in the exhaustive scorer's order of operations: query terms in order,
      // each term's fields in id order.
      let total = 0;
      let first = true;
      let mask = 0;
      let rank = -1;
      for (let j = 0; j < q.query.length; j++) {
        const u = q.unique.indexOf(q.query[j] ?? "");
        let termScore = 0;
        let hit = false;
        for (const cur of byTerm[u] ?? []) {
          seek(cur, doc);
          if (docAt(cur) !== doc) continue;
          const tf = cur.c[cur.row * 3 + 2] ?? 0;
          const length = index.lengths[doc * stride + cur.field] ?? 0;
          const avg = index.avgFieldLength[cur.field] ?? 0;
          const raw = cur.idf * (d + (tf * (k + 1)) / (tf + k * (1 - b + (b * length) / avg)));
          const weighted = (q.fieldBoosts[cur.field] ?? 1) * boost * raw;
          termScore = hit ? termScore + weighted : weighted;
          if (rank < 0) rank = (j * stride + cur.field) * span + doc;
          hit = true;
        }
        if (!hit) continue;
        total = first ? termScore : total + termScore;
        first = false;
        mask |= 1 << u;
      }
      if (rank >= 0) {
        heap.offer(total * bitCount(mask), rank, doc);
        maskOf.set(doc, mask);
      }
      // More terms become non-essential as the worst kept score rises.
      if (heap.full) {
        const worst = heap.worstScore;
        while (
          nonEssential < ranked.length &&
          maxBoost * (prefix[nonEssential + 1] ?? 0) * (nonEssential + 1) * (1 + MARGIN) < worst
        ) {
          essential[ranked[nonEssential] ?? 0] = 0;
          nonEssential++;
        }
      }
    }
    for (const cur of cursors) if (essential[cur.term] === 1 && docAt(cur) === doc) cur.row++;
  }

  let total = positive;
  if (passed || nonEssential > 0) {
    // Documents holding some query term in a scored field, counted once.
    const seen = new Uint8Array(span);
    let union = 0;
    for (const cur of cursors)
      for (let r = cur.start; r < cur.end; r++) {
        const doc = cur.c[r * 3 + 1] ?? 0;
        if (seen[doc] === 0) {
          seen[doc] = 1;
          union++;
        }
      }
    total = asked === 0 ? union : positive + Math.round(((union - asked) * positive) / asked);
  }
  const top: TopHit[] = heap.sorted().map(({ docId, score }) => {
    const mask = maskOf.get(docId) ?? 0;
    return {
      id: index.idOf(docId),
      score,
      queryTerms: q.unique.filter((_, i) => (mask & (1 << i)) !== 0),
    };
  });
  return { total, top, estimated: total !== positive || passed || nonEssential > 0 };
}
