/**
 * Vectors per block for semantic recall (docs/architecture.md, "Semantic recall"): a rebuildable
 * cache beside the search index, never a source of truth. Each block that passages use (not a
 * heading) is embedded once per content: vectors are keyed by the cyrb53 hash of the text sent,
 * so an unchanged block is never sent again and two notes holding the same text share one vector.
 * Vectors are unit-normalised and stored int8-quantised with one float32 scale each
 * (docs/decisions.md, "Block vectors are int8 with a scale per vector"): 384 dimensions take 396
 * bytes with the hash, so 100k blocks take about 38 MB on disk, and 43 MB in memory with the sign
 * bits of the prefilter ({@link VectorIndex.prefilter}), which the {@link BlockTable} holds.
 *
 * Two files, through a {@link VectorFiles} port:
 * - `vectors`: a header (magic, model, dimensions) then records appended one batch at a time,
 *   each with a checksum; a record cut short by a kill fails its checksum and is dropped at load,
 *   so a killed `index` resumes with every batch written before it.
 * - `notes`: JSON, per note its mtime, size and its blocks' (hash, body line, ranking factor), written whole
 *   (atomically) at the end of each run.
 * One model per file: vectors of two models are never mixed (another model starts a new file).
 */
import { cyrb53, fnv1aBytes } from "../util/hash";
import { splitSearchBlocks } from "./blocks";
import { readNote } from "./note-document";
import { blockRankFactor } from "./ranking";
import { dotProducts, int16Query, type Int16Query } from "./int8-dot";
import { signCodes, type SignCodes } from "./sign-distance";

/** Longest text sent for one block, characters (longer blocks are cut; models have a context limit). */
export const EMBED_CHARS = 2000;

/** The stored files of the vector cache; the host keeps them beside its search index. */
export interface VectorFiles {
  /** The file's bytes, or `null` when it does not exist. */
  read(name: "vectors" | "notes"): Promise<Uint8Array | null>;
  /** Appends bytes to the file (creating it). */
  append(name: "vectors", bytes: Uint8Array): Promise<void>;
  /** Replaces the file atomically (a temporary file renamed over it). */
  write(name: "vectors" | "notes", bytes: Uint8Array): Promise<void>;
}

/** A block of an indexed note: the hash of its text, its 0-based body line, its vector's slot. */
export interface BlockRef {
  hash: number;
  line: number;
  /** Its ranking factor when embedded ({@link blockRankFactor}: lower for a superseded entry). */
  factor: number;
  /** Slot of its vector in the {@link VectorIndex}, or -1 when it has none (yet). */
  slot: number;
}

/** What the notes file says of one note. */
export interface NoteVectors {
  mtime: number;
  size: number;
  blocks: BlockRef[];
}

/**
 * Every block with a vector, flat and in note order, for one pass per query
 * ({@link VectorIndex.blockTable}): note `n` (path `paths[n]`) owns the blocks
 * `start[n]` … `start[n + 1] - 1`; block `b` belongs to note `noteOf[b]`, has the vector in
 * `slots[b]`, the body line `lines[b]`, the text hash `hashes[b]`, the ranking factor `factors[b]`
 * and its vector's sign bits in `bits[b * words]` … `bits[b * words + words - 1]` (bit i set when
 * component i is positive), in block order so that the prefilter reads them in one sweep.
 */
export interface BlockTable {
  paths: string[];
  /** `paths.length + 1` offsets into the block arrays. */
  start: Int32Array;
  noteOf: Int32Array;
  slots: Int32Array;
  lines: Int32Array;
  hashes: Float64Array;
  factors: Float64Array;
  /** 32-bit words of sign bits per block ({@link VectorIndex.words}). */
  words: number;
  /** The sign bits, `signs.bits`, and their distances to a query (./sign-distance.ts). */
  bits: Uint32Array;
  signs: SignCodes;
}

/** Blocks per prefilter keep from which the cut is estimated from a sample of the distances. */
const PREFILTER_SAMPLE = 16;
/** One distance in this many is sampled ({@link PREFILTER_SAMPLE}). */
const PREFILTER_STEP = 8;

/**
 * The `keep` of `blocks[0..count)` whose `distance` is least (distances `0..max`; block `b`'s at
 * `distance[b]`, or, `byPosition`, `blocks[i]`'s at `distance[i]`), ties at the cut taken in the
 * order of `blocks`, sorted by block.
 */
function nearestOf(
  blocks: Int32Array,
  count: number,
  distance: Uint16Array,
  keep: number,
  max: number,
  byPosition = false,
): Int32Array {
  if (count <= keep) return blocks.slice(0, count).sort();
  const at = (i: number) => (byPosition ? i : blocks[i]!);
  const histogram = new Uint32Array(max + 1);
  for (let i = 0; i < count; i++) histogram[distance[at(i)]!]!++;
  let cut = 0;
  let below = 0;
  for (; cut < max; cut++) {
    if (below + histogram[cut]! >= keep) break;
    below += histogram[cut]!;
  }
  let room = keep - below;
  const out = new Int32Array(keep);
  let n = 0;
  for (let i = 0; i < count; i++) {
    const b = blocks[i]!;
    const d = distance[at(i)]!;
    if (d > cut) continue;
    if (d === cut) {
      if (room <= 0) continue;
      room--;
    }
    out[n++] = b;
  }
  return out.sort();
}

/** A block to embed: its body line, the text sent and that text's hash. */
export interface EmbeddableBlock {
  line: number;
  text: string;
  hash: number;
  /** {@link blockRankFactor} of the block's text. */
  factor: number;
}

/** Hash of the text sent for a block ({@link EMBED_CHARS} at most). */
export function embedHash(text: string): number {
  return cyrb53(text);
}

/** The text sent for a block: its text, cut to {@link EMBED_CHARS}. */
export function embedText(blockText: string): string {
  return blockText.length > EMBED_CHARS ? blockText.slice(0, EMBED_CHARS) : blockText;
}

/**
 * The blocks of a note that get vectors: the blocks passages use (docs/architecture.md,
 * "Passages"), headings and blank blocks left out. A note over the size cap (`capped`) has none:
 * its body is not indexed either.
 */
export function embeddableBlocks(text: string, path: string, capped: boolean): EmbeddableBlock[] {
  if (capped) return [];
  const { body } = readNote(text, path);
  const out: EmbeddableBlock[] = [];
  for (const b of splitSearchBlocks(body)) {
    if (b.heading || b.text.trim() === "") continue;
    const sent = embedText(b.text);
    out.push({ line: b.line, text: sent, hash: embedHash(sent), factor: blockRankFactor(b.text) });
  }
  return out;
}

const MAGIC = [0x41, 0x4d, 0x56, 0x45, 0x43, 0x01, 0x0a, 0x00]; // "AMVEC\x01\n\0"
const RECORD_MAGIC = 0x52564d41; // "AMVR"
const RECORD_HEAD = 12;
/** Format of the notes file; another is rebuilt. */
const NOTES_FORMAT = 2;

/** Why a vector file could not be used as it is (it is then started afresh). */
export interface VectorLoad {
  index: VectorIndex;
  /** Why the stored vectors were not used, when they were not. */
  reset?: string;
  /** True when the file ended in a record cut short (a killed run), which was dropped. */
  torn: boolean;
}

/** Unit-normalised copy of `v` (a zero vector stays zero). */
export function normalize(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += (v[i] ?? 0) * (v[i] ?? 0);
  const out = new Float32Array(v.length);
  const norm = Math.sqrt(sum);
  if (norm === 0) return out;
  for (let i = 0; i < v.length; i++) out[i] = (v[i] ?? 0) / norm;
  return out;
}

/**
 * The vectors of one model, in memory: int8 codes with a scale each, by content hash, and the
 * blocks of each note. Similarity is the dot product of a unit query with a unit block vector
 * (cosine), read from the int8 codes.
 */
export class VectorIndex {
  private codes: Int8Array;
  /** 32-bit words of sign bits per vector (the prefilter's codes, held by the {@link BlockTable}). */
  readonly words: number;
  private scales: Float32Array;
  private hashes: Float64Array;
  private count = 0;
  private readonly slots = new Map<number, number>();
  /**
   * Blocks of each note, by path. Code that changes this map directly calls {@link relink}
   * afterwards, which also drops the cached {@link blockTable}.
   */
  readonly notes = new Map<string, NoteVectors>();
  private table: BlockTable | null = null;

  constructor(
    readonly model: string,
    readonly dims: number,
    capacity = 1024,
  ) {
    this.codes = new Int8Array(capacity * dims);
    this.scales = new Float32Array(capacity);
    this.hashes = new Float64Array(capacity);
    this.words = Math.ceil(dims / 32);
  }

  /** Vectors held. */
  get size(): number {
    return this.count;
  }

  /** Slot of the vector of `hash`, or -1. */
  slotOf(hash: number): number {
    return this.slots.get(hash) ?? -1;
  }

  /**
   * Adds the vector of `hash` (normalised and quantised here), unless it is there already.
   * @returns its slot
   * @throws Error when `vector` has another length than {@link dims}
   */
  add(hash: number, vector: Float32Array): number {
    const have = this.slots.get(hash);
    if (have !== undefined) return have;
    if (vector.length !== this.dims)
      throw new Error(`a vector of ${vector.length} dimensions in an index of ${this.dims}`);
    const unit = normalize(vector);
    let max = 0;
    for (let i = 0; i < unit.length; i++) max = Math.max(max, Math.abs(unit[i] ?? 0));
    const scale = max > 0 ? max / 127 : 0;
    const slot = this.reserve();
    const base = slot * this.dims;
    for (let i = 0; i < this.dims; i++)
      this.codes[base + i] = scale > 0 ? Math.round((unit[i] ?? 0) / scale) : 0;
    this.scales[slot] = scale;
    this.hashes[slot] = hash;
    this.slots.set(hash, slot);
    return slot;
  }

  /**
   * Cosine of the unit vector `query` with the vector in `slot`, as {@link scores} gives it (the
   * query quantised to int16, `./int8-dot.ts`; a caller asking of many slots quantises it once).
   */
  similarity(query: Float32Array | Int16Query, slot: number): number {
    const q = query instanceof Float32Array ? int16Query(query) : query;
    const out = new Float64Array(1);
    dotProducts(q, this.codes, this.dims, () => slot, 1, out, "js");
    return out[0]! * q.scale * this.scales[slot]!;
  }

  /** The sign bits of `vector` (bit i set when component i is positive), as the prefilter reads them. */
  signBits(vector: Float32Array): Uint32Array {
    const out = new Uint32Array(this.words);
    for (let i = 0; i < this.dims; i++) if ((vector[i] ?? 0) > 0) out[i >>> 5]! |= 1 << (i & 31);
    return out;
  }

  /**
   * Int8 scores of the blocks at `positions[0..count)` of `table`: `out[i]` is the cosine of the
   * unit vector `query` with the vector of block `positions[i]` (as {@link similarity}): the
   * integer dot product of the int16 query with the int8 codes (WebAssembly SIMD where it is
   * there, `./int8-dot.ts`), times the two scales.
   */
  scores(
    query: Float32Array,
    table: BlockTable,
    positions: Int32Array,
    count: number,
    out: Float64Array,
  ): void {
    const q = int16Query(query);
    const slots = table.slots;
    dotProducts(q, this.codes, this.dims, (i) => slots[positions[i]!]!, count, out);
    for (let i = 0; i < count; i++)
      out[i] = out[i]! * q.scale * this.scales[slots[positions[i]!]!]!;
  }

  /**
   * The blocks of every note that have a vector, flat (built on first use and kept until the notes
   * change through {@link setNote}, {@link relink} or a load), so a query reads them without
   * walking the notes map. A new table is a new object: caches keyed by it follow the notes.
   */
  blockTable(): BlockTable {
    if (this.table) return this.table;
    let total = 0;
    for (const n of this.notes.values()) for (const b of n.blocks) if (b.slot >= 0) total++;
    const words = this.words;
    const signs = signCodes(total, words);
    const t: BlockTable = {
      paths: [],
      start: new Int32Array(this.notes.size + 1),
      noteOf: new Int32Array(total),
      slots: new Int32Array(total),
      lines: new Int32Array(total),
      hashes: new Float64Array(total),
      factors: new Float64Array(total),
      words,
      bits: signs.bits,
      signs,
    };
    const codes = this.codes;
    const dims = this.dims;
    let at = 0;
    for (const [path, n] of this.notes) {
      const note = t.paths.length;
      t.start[note] = at;
      t.paths.push(path);
      for (const b of n.blocks) {
        if (b.slot < 0) continue;
        t.noteOf[at] = note;
        t.slots[at] = b.slot;
        t.lines[at] = b.line;
        t.hashes[at] = b.hash;
        t.factors[at] = b.factor;
        const base = b.slot * dims;
        for (let i = 0; i < dims; i++)
          if (codes[base + i]! > 0) t.bits[at * words + (i >>> 5)]! |= 1 << (i & 31);
        at++;
      }
    }
    t.start[t.paths.length] = at;
    this.table = t;
    return t;
  }

  /**
   * The prefilter (docs/decisions.md, "Block vectors are int8 with a scale per vector"): of the
   * blocks of `table` whose note `visible` lets through (every block when `visible` is `null`), the
   * `keep` whose sign bits differ least from `queryBits` (Hamming distance), so that only they are
   * scored with the int8 codes. Ties at the cut are taken in block order. The distances of every
   * block are counted, then the blocks are walked nearest first until `keep` are visible:
   * `visible(n)` (`n` a note of the table) is asked at most once per note and only of the notes so
   * walked, so a filter costs the notes near the query, not every note (docs/decisions.md, "The
   * prefilter asks visibility of the nearest notes only"). With `visibleBlocks`, the number of
   * blocks `visible` lets through when the caller knows it, the first band walked is sized by their
   * share, so a selective filter is not walked band after band; the result is the same.
   * @returns block positions (into the table), in block order
   */
  prefilter(
    table: BlockTable,
    queryBits: Uint32Array,
    visible: ((note: number) => boolean) | null,
    keep: number,
    visibleBlocks?: number,
  ): Int32Array {
    const count = table.noteOf.length;
    const distance = table.signs.distances(queryBits, null, count);
    const max = table.words * 32;
    // Where the cut falls is estimated from every `step`-th block's distance; the bands read below
    // hold every block of their distances, so the estimate decides only how many bands are read.
    const step = count >= PREFILTER_SAMPLE * keep ? PREFILTER_STEP : 1;
    const sample = new Uint32Array(max + 1);
    for (let i = 0; i < count; i += step) sample[distance[i]!]! += step;
    // 0: not asked yet, 1: visible, 2: not.
    const seen = visible ? new Uint8Array(table.paths.length) : null;
    // The visible blocks at the distances of each band, band after band, each in block order: all
    // blocks at the cut are in one band, in block order, so ties at the cut go by block order.
    let found = new Int32Array(Math.min(count, keep));
    let n = 0;
    let from = 0;
    let reach = 0; // blocks at the distances of the bands read
    // Blocks (visible or not) the bands should reach.
    let want =
      visibleBlocks !== undefined && visibleBlocks > 0
        ? Math.min(count, Math.ceil((keep * count) / visibleBlocks))
        : keep;
    let expected = 0; // blocks the sample puts below `from`
    for (;;) {
      let to = from;
      expected += sample[to]!;
      const goal = want + want / 4 + 8 * step;
      while (to < max && expected < goal) expected += sample[++to]!;
      // The blocks of the band, found by the kernel (in block order; scratch until the next call).
      const band = table.signs.within(from, to, count);
      reach += band.length;
      if (n + band.length > found.length) {
        const grown = new Int32Array(Math.min(count, Math.max(found.length * 2, n + band.length)));
        grown.set(found.subarray(0, n));
        found = grown;
      }
      for (let k = 0; k < band.length; k++) {
        const i = band[k]!;
        if (seen) {
          const note = table.noteOf[i]!;
          let state = seen[note]!;
          if (state === 0) seen[note] = state = visible!(note) ? 1 : 2;
          if (state !== 1) continue;
        }
        found[n++] = i;
      }
      if (n >= keep || to === max) break;
      // Too few: the next band reaches as far as the share found visible so far suggests.
      want = Math.max(reach * 2, Math.ceil((keep * reach) / Math.max(n, 1)));
      from = to + 1;
    }
    return nearestOf(found, n, distance, keep, max);
  }

  /**
   * What {@link prefilter} keeps when the visible blocks are known: of `blocks` (positions into
   * `table`, in block order), the `keep` whose sign bits differ least from `queryBits`, ties at
   * the cut in block order. Only their distances are counted, so it costs the blocks given, not
   * the table.
   * @returns block positions, in block order
   * @throws RangeError when a position is outside the table
   */
  nearestAmong(
    table: BlockTable,
    queryBits: Uint32Array,
    blocks: Int32Array,
    keep: number,
  ): Int32Array {
    if (blocks.length <= keep) return blocks.slice();
    const distance = table.signs.distances(queryBits, blocks, blocks.length);
    return nearestOf(blocks, blocks.length, distance, keep, table.words * 32, true);
  }

  /** The stored (dequantised) vector in `slot`, for tests and measurements. */
  vectorAt(slot: number): Float32Array {
    const out = new Float32Array(this.dims);
    const scale = this.scales[slot] ?? 0;
    for (let i = 0; i < this.dims; i++) out[i] = (this.codes[slot * this.dims + i] ?? 0) * scale;
    return out;
  }

  /** Bytes the vectors take in memory (codes, scales, hashes), at the current count. */
  get memoryBytes(): number {
    return this.count * (this.dims + 4 + 8 + this.words * 4);
  }

  /** Hashes used by some note's blocks. */
  liveHashes(): Set<number> {
    const live = new Set<number>();
    for (const n of this.notes.values()) for (const b of n.blocks) live.add(b.hash);
    return live;
  }

  /** The header of the vectors file of this model. */
  header(): Uint8Array {
    const json = new TextEncoder().encode(JSON.stringify({ model: this.model, dims: this.dims }));
    const out = new Uint8Array(MAGIC.length + 4 + json.length);
    out.set(MAGIC, 0);
    new DataView(out.buffer).setUint32(MAGIC.length, json.length, true);
    out.set(json, MAGIC.length + 4);
    return out;
  }

  /**
   * One record of the vectors file holding the vectors of `slots`: magic, count, checksum, then per
   * vector its hash (float64), scale (float32) and int8 codes.
   */
  record(slots: readonly number[]): Uint8Array {
    const per = 12 + this.dims;
    const out = new Uint8Array(RECORD_HEAD + slots.length * per);
    const view = new DataView(out.buffer);
    view.setUint32(0, RECORD_MAGIC, true);
    view.setUint32(4, slots.length, true);
    slots.forEach((slot, k) => {
      const at = RECORD_HEAD + k * per;
      view.setFloat64(at, this.hashes[slot] ?? 0, true);
      view.setFloat32(at + 8, this.scales[slot] ?? 0, true);
      out.set(new Uint8Array(this.codes.buffer, slot * this.dims, this.dims), at + 12);
    });
    view.setUint32(8, fnv1aBytes(out.subarray(RECORD_HEAD)), true);
    return out;
  }

  /** The whole vectors file: header and one record of the vectors in `keep` (all when omitted). */
  serialize(keep?: ReadonlySet<number>): Uint8Array {
    const slots: number[] = [];
    for (let s = 0; s < this.count; s++) if (!keep || keep.has(this.hashes[s] ?? -1)) slots.push(s);
    const head = this.header();
    const rec = this.record(slots);
    const out = new Uint8Array(head.length + rec.length);
    out.set(head, 0);
    out.set(rec, head.length);
    return out;
  }

  /** The notes file. */
  serializeNotes(): Uint8Array {
    const notes: Record<string, [number, number, number[]]> = {};
    for (const [path, n] of this.notes) {
      const flat: number[] = [];
      for (const b of n.blocks) flat.push(b.hash, b.line, b.factor);
      notes[path] = [n.mtime, n.size, flat];
    }
    return new TextEncoder().encode(
      JSON.stringify({ format: NOTES_FORMAT, model: this.model, dims: this.dims, notes }),
    );
  }

  /**
   * Reads stored vectors and notes for `model`. Vectors of another model (or dimension, when
   * `dims` is given), a damaged header or a foreign file give an empty index and the reason; a
   * record cut short at the end is dropped (`torn`). Notes whose blocks lack a vector keep them with
   * slot -1 (the next run embeds them).
   */
  static load(
    model: string,
    vectors: Uint8Array | null,
    notes: Uint8Array | null,
    dims?: number,
  ): VectorLoad {
    const empty = (reset?: string): VectorLoad => ({
      index: new VectorIndex(model, dims ?? 0, 16),
      ...(reset ? { reset } : {}),
      torn: false,
    });
    if (!vectors) return empty();
    const view = new DataView(vectors.buffer, vectors.byteOffset, vectors.byteLength);
    if (vectors.length < MAGIC.length + 4 || MAGIC.some((b, i) => vectors[i] !== b))
      return empty("the vector file is not one of ours");
    const jsonLength = view.getUint32(MAGIC.length, true);
    let header: { model?: unknown; dims?: unknown };
    try {
      header = JSON.parse(
        new TextDecoder().decode(vectors.subarray(MAGIC.length + 4, MAGIC.length + 4 + jsonLength)),
      ) as typeof header;
    } catch {
      return empty("the vector file's header is damaged");
    }
    if (typeof header.dims !== "number" || !Number.isInteger(header.dims) || header.dims < 1)
      return empty("the vector file's header is damaged");
    if (header.model !== model)
      return empty(
        `the stored vectors are of model "${String(header.model)}", not "${model}": every block is embedded again`,
      );
    if (dims !== undefined && dims > 0 && header.dims !== dims)
      return empty(
        `the stored vectors have ${header.dims} dimensions, not ${dims}: every block is embedded again`,
      );
    const d = header.dims;
    const per = 12 + d;
    let at = MAGIC.length + 4 + jsonLength;
    let total = 0;
    const records: { at: number; count: number }[] = [];
    let torn = false;
    while (at < vectors.length) {
      if (at + RECORD_HEAD > vectors.length || view.getUint32(at, true) !== RECORD_MAGIC) {
        torn = true;
        break;
      }
      const count = view.getUint32(at + 4, true);
      const end = at + RECORD_HEAD + count * per;
      if (
        end > vectors.length ||
        fnv1aBytes(vectors.subarray(at + RECORD_HEAD, end)) !== view.getUint32(at + 8, true)
      ) {
        torn = true;
        break;
      }
      records.push({ at: at + RECORD_HEAD, count });
      total += count;
      at = end;
    }
    const index = new VectorIndex(model, d, Math.max(16, total));
    for (const r of records) {
      for (let k = 0; k < r.count; k++) {
        const base = r.at + k * per;
        const hash = view.getFloat64(base, true);
        if (index.slots.has(hash)) continue;
        const slot = index.reserve();
        index.hashes[slot] = hash;
        index.scales[slot] = view.getFloat32(base + 8, true);
        index.codes.set(new Int8Array(vectors.buffer, vectors.byteOffset + base + 12, d), slot * d);
        index.slots.set(hash, slot);
      }
    }
    index.loadNotes(notes);
    return { index, torn };
  }

  private loadNotes(bytes: Uint8Array | null): void {
    this.table = null;
    if (!bytes) return;
    let parsed: { format?: unknown; model?: unknown; dims?: unknown; notes?: unknown };
    try {
      parsed = JSON.parse(new TextDecoder().decode(bytes)) as typeof parsed;
    } catch {
      return; // a damaged notes file costs a re-read of the notes, never a re-embedding
    }
    if (parsed.format !== NOTES_FORMAT || parsed.model !== this.model || parsed.dims !== this.dims)
      return;
    if (typeof parsed.notes !== "object" || parsed.notes === null) return;
    for (const [path, value] of Object.entries(parsed.notes as Record<string, unknown>)) {
      if (!Array.isArray(value) || value.length !== 3) continue;
      const [mtime, size, flat] = value as [unknown, unknown, unknown];
      if (typeof mtime !== "number" || typeof size !== "number" || !Array.isArray(flat)) continue;
      const blocks: BlockRef[] = [];
      for (let i = 0; i + 2 < flat.length; i += 3) {
        const hash = flat[i] as number;
        const line = flat[i + 1] as number;
        blocks.push({ hash, line, factor: flat[i + 2] as number, slot: this.slotOf(hash) });
      }
      this.notes.set(path, { mtime, size, blocks });
    }
  }

  /** Sets a note's blocks (their slots looked up now). */
  setNote(path: string, mtime: number, size: number, blocks: readonly EmbeddableBlock[]): void {
    this.table = null;
    this.notes.set(path, {
      mtime,
      size,
      blocks: blocks.map((b) => ({
        hash: b.hash,
        line: b.line,
        factor: b.factor,
        slot: this.slotOf(b.hash),
      })),
    });
  }

  /** Looks up the slots of blocks that had no vector when their note was set. */
  relink(): void {
    this.table = null;
    for (const n of this.notes.values())
      for (const b of n.blocks) if (b.slot < 0) b.slot = this.slotOf(b.hash);
  }

  private reserve(): number {
    if (this.count === this.scales.length) {
      const capacity = Math.max(16, this.scales.length * 2);
      const codes = new Int8Array(capacity * this.dims);
      codes.set(this.codes);
      const scales = new Float32Array(capacity);
      scales.set(this.scales);
      const hashes = new Float64Array(capacity);
      hashes.set(this.hashes);
      this.codes = codes;
      this.scales = scales;
      this.hashes = hashes;
    }
    return this.count++;
  }
}
