/**
 * The vector side of a search and its fusion with BM25 (docs/architecture.md, "Semantic recall").
 * Blocks of the visible notes of the scope's shard (scope, filters and expiry as BM25 applies them)
 * are ranked by the cosine of their vector with the query's, times the note's ranking factor and
 * the block's (a superseded entry ranks lower, as in BM25); the best are read and checked against
 * the note as it is now (a block whose text changed since `index` is left out) and against the
 * quoted phrases. Hybrid search fuses the BM25 list and the vector list by reciprocal rank
 * (docs/decisions.md, "Hybrid search fuses by reciprocal rank").
 */
import type { Settings } from "../settings";
import type { RankedBlock } from "./block-rank";
import type { CachedNote } from "./note-cache";
import type { NoteMeta } from "./note-document";
import type { ParsedQuery } from "./query";
import { filterMayHoldPhrases, type RunContext, type Shard } from "./query-runner";
import { phrasePairs } from "./engine/phrase-filter";
import { MAX_RANK_FACTOR, rankFactor } from "./ranking";
import type { SemanticQuery } from "./search-types";
import { textContainsPhrase } from "./engine/tokenizer";
import { embedHash, embedText, type BlockTable } from "./vectors";

/** Entries of each list that fusion sees (never fewer than the results asked for). */
export const FUSE_DEPTH = 20;
/**
 * The constant of reciprocal rank fusion: an entry at rank r of a list adds 1/(k + r). 60 is the
 * value of the method's paper (Cormack, Clarke and Büttcher, SIGIR 2009), used by most hybrids.
 */
export const RRF_K = 60;
/**
 * Candidates the sign-bit prefilter passes to int8 scoring: on the 10k-note benchmark 1000 kept
 * recall@10 against exact float32 cosine over every block as 2000 did (bench/results/hybrid.md).
 */
export const PREFILTER_KEEP = 1000;
/** Shard versions whose notes are kept per block table ({@link tableNotes}). */
const NOTES_CACHE = 8;

/**
 * The metadata of each note of a block table as one shard version has it (`undefined`: not in
 * the shard), by the table's note number, so a query asks no map of a path.
 */
interface TableNotes {
  shard: Shard;
  version: number;
  metas: (NoteMeta | undefined)[];
  /** Their phrase filters (`shard.pairs`), made on the first query with a quoted phrase. */
  pairs?: (Uint32Array | undefined)[];
  /**
   * Per visibility key ({@link RunContext.visibility}), 1 for each note whose scope and filters let
   * it through (expiry aside), made on the key's first query; at most {@link MASKS} kept.
   */
  masks: Map<string, Uint8Array>;
  /** The notes with an expiry (`expiresAt`), which each query checks against its clock. */
  expiring?: number[];
}

/** Visibility keys whose masks a {@link TableNotes} keeps (the most recent). */
const MASKS = 16;

/**
 * 1 for each note of `notes` visible to the query of `ctx` (scope, filters and expiry, as
 * `ctx.visible`), by note number. Scope and filters are asked once per shard version and key;
 * expiry is asked at every query, of the notes that have one (docs/decisions.md, "The vector side
 * keeps a visibility mask per scope and filters").
 */
function visibleMask(notes: TableNotes, ctx: RunContext): Uint8Array {
  const { key, lasting, expired } = ctx.visibility;
  let base = notes.masks.get(key);
  if (!base) {
    base = new Uint8Array(notes.metas.length);
    for (let n = 0; n < base.length; n++) {
      const meta = notes.metas[n];
      if (meta !== undefined && lasting(meta)) base[n] = 1;
    }
    if (notes.masks.size >= MASKS) notes.masks.delete(notes.masks.keys().next().value!);
    notes.masks.set(key, base);
  }
  notes.expiring ??= notes.metas.flatMap((m, n) => (m?.expiresAt !== undefined ? [n] : []));
  let mask = base;
  for (const n of notes.expiring)
    if (mask[n] === 1 && expired(notes.metas[n]!)) {
      if (mask === base) mask = base.slice();
      mask[n] = 0;
    }
  return mask;
}

const notesCache = new WeakMap<BlockTable, TableNotes[]>();

/** The notes of `table` as `shard` (at `version`) has them, kept per shard ({@link TableNotes}). */
function tableNotes(table: BlockTable, shard: Shard, version: number): TableNotes {
  const entries = notesCache.get(table) ?? [];
  const hit = entries.find((e) => e.shard === shard && e.version === version);
  if (hit) return hit;
  const metas = table.paths.map((path) => shard.metas.get(path));
  const entry: TableNotes = { shard, version, metas, masks: new Map() };
  notesCache.set(table, [...entries.filter((e) => e.shard !== shard), entry].slice(-NOTES_CACHE));
  return entry;
}

/** The phrase filter of each note of `table` in `shard` (`undefined`: none), by note number. */
function pairsOf(table: BlockTable, shard: Shard): (Uint32Array | undefined)[] {
  return table.paths.map((path) => shard.pairs.get(path));
}

const noteNumbers = new WeakMap<BlockTable, Map<string, number>>();

/** The note number of each path of `table` (built once per table). */
function noteNumberOf(table: BlockTable): Map<string, number> {
  let numbers = noteNumbers.get(table);
  if (!numbers) {
    numbers = new Map(table.paths.map((path, note) => [path, note]));
    noteNumbers.set(table, numbers);
  }
  return numbers;
}

/**
 * A block the vectors found: its note's metadata, its body line and hash, its score; `note` and
 * `block` when it was read (see {@link semanticBlocks}; {@link readSemanticBlock} reads it).
 */
export interface SemanticBlock {
  meta: NoteMeta;
  line: number;
  hash: number;
  /** Cosine times the note's and the block's ranking noteFactors. */
  score: number;
  note?: CachedNote;
  /** Index of the block in `note.blocks()`, and the block. */
  k?: number;
  block?: RankedBlock;
}

/** Keeps the `size` best (score, id) pairs seen, best first. */
class TopK {
  readonly scores: number[] = [];
  readonly ids: number[] = [];
  /**
   * The score a candidate must beat to enter; a field, not a getter, since it is asked of every
   * candidate and a getter's result was a new heap number each time.
   */
  floor = -Infinity;
  constructor(private readonly size: number) {}
  push(score: number, id: number): void {
    if (score <= this.floor) return;
    let lo = 0;
    let hi = this.scores.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.scores[mid] ?? 0) >= score) lo = mid + 1;
      else hi = mid;
    }
    this.scores.splice(lo, 0, score);
    this.ids.splice(lo, 0, id);
    if (this.scores.length > this.size) {
      this.scores.pop();
      this.ids.pop();
    }
    if (this.scores.length === this.size) this.floor = this.scores[this.size - 1]!;
  }
}

/**
 * The best `depth` blocks of the visible notes by vector, best first. Blocks of isolated zones are
 * only in their zone's shard, so they never reach another scope. Candidates are read (through the
 * note cache) and a block is kept only when its text still hashes to its vector's key and it holds
 * every quoted phrase.
 */
export async function semanticBlocks(
  ctx: RunContext,
  parsed: ParsedQuery,
  query: SemanticQuery,
  opts: {
    depth: number;
    search: Settings["search"];
    nowMs: number;
    /** Terms every note holding the quoted phrases has (`phraseRequiredTerms`); may be empty. */
    required: readonly string[];
  },
): Promise<SemanticBlock[]> {
  const { index, vector } = query;
  const table = index.blockTable();
  const notes = tableNotes(table, ctx.shard, ctx.shard.version ?? 0);
  const { metas } = notes;
  // Sign bits choose the candidates among the blocks of the visible notes that may hold the quoted
  // phrases, the int8 codes rank them; a note's visibility and ranking factor are worked out only
  // for the notes of candidates.
  const pairs = phrasePairs(parsed.phrases);
  const keep = Math.max(PREFILTER_KEEP, opts.depth * 20);
  // The phrase filter first: of a phrase query's notes it rules out most, and costs less.
  const filters = pairs.length === 0 ? [] : (notes.pairs ??= pairsOf(table, ctx.shard));
  const shown = visibleMask(notes, ctx);
  const visible = (note: number): boolean =>
    shown[note] === 1 && filterMayHoldPhrases(filters[note], pairs);
  let candidates: Int32Array;
  // The postings find a phrase's notes faster than asking every note only when its rarest word is
  // in few of them.
  const fromPostings =
    opts.required.length > 0 &&
    Math.min(...opts.required.map((t) => ctx.shard.mini.postingSize(t))) * 8 <= metas.length;
  if (fromPostings) {
    // Under a phrase, only the notes holding its words can show a block: they are found from the
    // postings, not by walking every note nearest first.
    const numbers = noteNumberOf(table);
    const eligible = new Uint8Array(table.paths.length);
    for (const path of ctx.shard.mini.documentsWithEvery(opts.required)) {
      const note = numbers.get(path);
      if (note !== undefined && visible(note)) eligible[note] = 1;
    }
    candidates = eligibleCandidates(index, table, vector, eligible, keep);
  } else if (parsed.filters.length > 0 || pairs.length > 0) {
    // A filter, or a phrase, may leave few notes, which walking the nearest first finds only
    // after most of the table: they are found first, a cheap test each (the mask, the phrase's
    // word-pair filter).
    const eligible = new Uint8Array(table.paths.length);
    for (let note = 0; note < eligible.length; note++) if (visible(note)) eligible[note] = 1;
    candidates = eligibleCandidates(index, table, vector, eligible, keep);
  } else candidates = index.prefilter(table, index.signBits(vector), visible, keep);
  const cosines = new Float64Array(candidates.length);
  index.scores(vector, table, candidates, candidates.length, cosines);
  const noteFactors = new Map<number, number>();
  const top = new TopK(opts.depth + 10);
  for (let i = 0; i < candidates.length; i++) {
    // A vector pointing away from the query (cosine ≤ 0) is unrelated, not a weak match.
    if (cosines[i]! <= 0) continue;
    const b = candidates[i]!;
    // The note's factor is at most MAX_RANK_FACTOR: a block that could not enter the top even
    // with it is passed over before its note's factor is worked out (most candidates are).
    if (cosines[i]! * MAX_RANK_FACTOR * table.factors[b]! <= top.floor) continue;
    const note = table.noteOf[b]!;
    let factor = noteFactors.get(note);
    if (factor === undefined) {
      factor = rankFactor(metas[note]!, opts.search, opts.nowMs);
      noteFactors.set(note, factor);
    }
    const score = cosines[i]! * factor * table.factors[b]!;
    if (score > 0) top.push(score, b);
  }
  // A note unchanged since `index` is trusted without reading it (its text is read only for the
  // blocks shown); a changed one, or any under a quoted phrase, is read and checked now. The best
  // are taken first, as many as are still wanted at a time (read together): once `depth` pass,
  // the rest would never be returned, so they are not read (a phrase query read all of its top).
  const out: SemanticBlock[] = [];
  let next = 0;
  while (out.length < opts.depth && next < top.ids.length) {
    const batch: Promise<SemanticBlock | null>[] = [];
    for (let want = opts.depth - out.length; want > 0 && next < top.ids.length; want--, next++) {
      const b = top.ids[next]!;
      const meta = metas[table.noteOf[b]!]!;
      const found: SemanticBlock = {
        meta,
        line: table.lines[b]!,
        hash: table.hashes[b]!,
        score: top.scores[next] ?? 0,
      };
      const nv = index.notes.get(meta.path);
      const fresh =
        nv !== undefined && meta.mtime >= 0 && nv.mtime === meta.mtime && nv.size === meta.size;
      batch.push(
        fresh && parsed.phrases.length === 0
          ? Promise.resolve(found)
          : readSemanticBlock(ctx, found, parsed),
      );
    }
    for (const checked of await Promise.all(batch)) if (checked) out.push(checked);
  }
  // Best first (they were taken so); a stable sort keeps equal scores in the top's order.
  out.sort((a, b) => b.score - a.score);
  return out;
}

/**
 * The candidates among the blocks of the notes `eligible` marks (1: eligible): what the prefilter
 * would keep of them ({@link VectorIndex.prefilter}). All of them when they are no more than it
 * keeps; when they are at most half the table, the nearest among them alone
 * ({@link VectorIndex.nearestAmong}); else the prefilter over the table, its bands sized by their
 * share.
 * @returns block positions (into the table), in block order
 */
function eligibleCandidates(
  index: SemanticQuery["index"],
  table: BlockTable,
  vector: Float32Array,
  eligible: Uint8Array,
  keep: number,
): Int32Array {
  let blocks = 0;
  for (let note = 0; note < eligible.length; note++)
    if (eligible[note] === 1) blocks += table.start[note + 1]! - table.start[note]!;
  if (blocks * 2 > table.noteOf.length)
    return index.prefilter(
      table,
      index.signBits(vector),
      (note) => eligible[note] === 1,
      keep,
      blocks,
    );
  const out = new Int32Array(blocks);
  let n = 0;
  for (let note = 0; note < eligible.length; note++)
    if (eligible[note] === 1)
      for (let b = table.start[note]!; b < table.start[note + 1]!; b++) out[n++] = b;
  return blocks <= keep ? out : index.nearestAmong(table, index.signBits(vector), out, keep);
}

/**
 * Reads the note of a block the vectors found and finds the block in it: `null` when the note
 * cannot be read, the block's text no longer hashes to its vector's key, or it (or its note) lacks
 * a quoted phrase.
 */
export async function readSemanticBlock(
  ctx: RunContext,
  found: SemanticBlock,
  parsed: ParsedQuery,
): Promise<SemanticBlock | null> {
  if (found.note && found.block) return found;
  const note = await ctx.read(found.meta);
  if (!note) return null;
  if (parsed.phrases.length > 0 && !parsed.phrases.every((p) => note.hasPhrase(p))) return null;
  const blocks = note.blocks();
  const k = blocks.findIndex((b) => b.block.line === found.line && !b.block.heading);
  const block = blocks[k];
  if (!block || embedHash(embedText(block.block.text)) !== found.hash) return null;
  if (!parsed.phrases.every((p) => textContainsPhrase(block.block.text, p))) return null;
  return { ...found, note, k, block };
}

/**
 * Reciprocal rank fusion of ranked lists of keys: each key scores Σ (k + 1) / (k + rank) over the
 * lists holding it (rank 1-based), so the first of one list scores 1 and the first of two lists 2.
 * @returns keys best first (ties: the earlier list's order), with their fused scores
 */
export function fuseRanks(
  lists: readonly (readonly string[])[],
  k: number = RRF_K,
): { key: string; score: number }[] {
  const scores = new Map<string, number>();
  const firstSeen = new Map<string, number>();
  let order = 0;
  for (const list of lists) {
    list.forEach((key, i) => {
      scores.set(key, (scores.get(key) ?? 0) + (k + 1) / (k + i + 1));
      if (!firstSeen.has(key)) firstSeen.set(key, order++);
    });
  }
  return [...scores.entries()]
    .map(([key, score]) => ({ key, score }))
    .sort((a, b) => b.score - a.score || (firstSeen.get(a.key) ?? 0) - (firstSeen.get(b.key) ?? 0));
}
