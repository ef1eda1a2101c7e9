/**
 * The term dictionary behind each MiniSearch index (see {@link SearchEngine}): a hash table in
 * place of MiniSearch's radix tree (`SearchableMap`).
 *
 * Why: the radix tree finds a child by scanning a node's children, once per term per note added,
 * and rebuilding it is most of the cost of building and of reloading a saved index. Search here
 * looks terms up exactly (no prefix or fuzzy matching), which a hash table does in constant time.
 * A radix tree is still built, on first use, if a caller asks MiniSearch for prefix or fuzzy
 * matching (`atPrefix`, `fuzzyGet`), and dropped whenever the set of terms changes.
 *
 * Terms have integer ids (a {@link SpanTable}), so the {@link TermScanner} counts a note's terms
 * without creating their strings. Restored from a saved index of format 11
 * ({@link TermMap.fromSavedTerms}), the saved dictionary ({@link SavedTerms}) is probed as it is
 * and its terms keep their saved ids; only terms added since are in the {@link SpanTable}. A term's postings take one of four forms (conversions in
 * postings.ts):
 * - **packed** text, as restored from a saved index (see {@link packPostings}), until first used;
 * - **built**: `fieldId, docId, tf` triples in the order they were added (by document, then
 *   field), in one buffer per {@link TermMap.flush} shared by all its terms: grouping rows by term
 *   alone, without an object per term, is the cheapest way to end a build;
 * - **compact**: an `Int32Array` of the same triples sorted by field, then document — what search
 *   scans ({@link TermMap.lookup}); made from the other forms on first use;
 * - a **map** (`fieldId → docId → tf`), made on first {@link TermMap.get}: the mutable form
 *   MiniSearch's own code (`discard` clean-up, `vacuum`) works on.
 * Postings added while building are buffered as columns and grouped by term on the next read
 * ({@link TermMap.flush}), which is much cheaper than growing a map or an array per term.
 *
 * It implements the part of `SearchableMap` that MiniSearch 7.2 calls: `get`, `has`, `set`,
 * `fetch`, `delete`, `size`, iteration, `atPrefix`, `fuzzyGet`.
 */
import SearchableMap from "minisearch/SearchableMap";
import {
  compactOf,
  compactOfBuilt,
  mapOf,
  packCompact,
  packPostings,
  unpackCompact,
  type BuiltPostings,
  type CompactPostings,
  type Postings,
} from "./postings";
import { CorruptPostingsError, readCompact, writeCompact, type ByteWriter } from "./postings-bytes";
import { SavedTerms } from "./saved-terms";
import { SpanTable } from "./span-table";
import type { TermCounts, TermIds } from "./term-scanner";

export { compactOf, packCompact, packPostings, unpackCompact, unpackPostings } from "./postings";
export type { CompactPostings, Postings } from "./postings";

/** One flush's postings: every term's triples end to end, term `id`'s from `start[id]` to `end[id]` (rows). */
interface BuiltBatch {
  flat: BuiltPostings;
  start: Int32Array;
  end: Int32Array;
}

/**
 * A term's postings: map, compact, packed text, the index of the {@link BuiltBatch} holding them,
 * {@link RESTORED}: packed text still inside the restored index's postings string, or
 * {@link SAVED}: bytes still inside a saved index's postings section.
 */
type Value = Postings | CompactPostings | string | number;

/** See {@link Value}. */
const RESTORED = -1;
/** See {@link Value}. */
const SAVED = -2;

/**
 * The postings section of a saved index (see postings-bytes.ts): term `id`'s bytes are
 * `bytes[start[id], end[id])`; `verify(from, to)` throws when those bytes fail their checksum.
 */
export interface SavedPostings {
  bytes: Uint8Array;
  start: Uint32Array;
  end: Uint32Array;
  verify: (from: number, to: number) => void;
  /** Document ids are below it (the index's next short id). */
  maxDoc: number;
}

/** The packed postings of a restored index: term `id`'s are `text[start[id], end[id])`. */
interface RestoredPostings {
  text: string;
  start: Int32Array;
  end: Int32Array;
}

/** Rows of four integers (term id, field id, document id, frequency) in a growable `Int32Array`. */
class Rows {
  data = new Int32Array(4096);
  count = 0;

  push(term: number, field: number, doc: number, tf: number): void {
    let at = this.count * 4;
    if (at + 4 > this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    const d = this.data;
    d[at++] = term;
    d[at++] = field;
    d[at++] = doc;
    d[at] = tf;
    this.count++;
  }
}

/** A hash-table term dictionary with the `SearchableMap` interface MiniSearch uses. */
export class TermMap implements TermIds {
  /**
   * Term → id of the terms not in {@link TermMap.base}; its entry numbers are the ids less
   * {@link TermMap.baseCount}, so it also gives each such id's term.
   */
  private readonly ids: SpanTable;
  /**
   * The dictionary of a saved index as saved (format 11): its terms are ids 0 to
   * {@link TermMap.baseCount} - 1, looked up by probing it; terms added since are in `ids` (an
   * overlay the next save merges).
   */
  private base: SavedTerms | null = null;
  private baseCount = 0;
  private terms = 0;
  private restored: RestoredPostings | null = null;
  private saved: SavedPostings | null = null;
  /** Postings by term id; `undefined` for an id whose term has no postings (deleted or not yet flushed). */
  private values: (Value | undefined)[] = [];
  private live = 0;
  /** Postings appended and not yet grouped by term: one row per (term, field, document). */
  private pending = new Rows();
  private tree: SearchableMap<Postings> | null = null;
  /** Buffers of built postings, by the batch index a term's value holds. */
  private batches: (BuiltBatch | null)[] = [];

  /** @param capacity terms and term characters to make room for (see {@link SpanTable}) */
  constructor(capacity: { terms: number; chars: number } = { terms: 1024, chars: 8192 }) {
    this.ids = new SpanTable(capacity.terms, capacity.chars);
  }

  /**
   * Restores terms saved as `terms` (joined by `\n`) and their packed postings (`postings`, in the
   * same order, joined by `\n`) without making a string for either: a term's packed text is cut
   * from `postings` when the term is first used, and checked then (the saved index carries a
   * checksum for that reason, see search-engine.ts). Throws `Error` when the counts differ.
   */
  static fromSaved(terms: string, postings: string): TermMap {
    if (terms === "" && postings === "") return new TermMap();
    let count = 1;
    for (let i = terms.indexOf("\n"); i >= 0; i = terms.indexOf("\n", i + 1)) count++;
    const map = new TermMap({ terms: count, chars: terms.length });
    const start = new Int32Array(count);
    const end = new Int32Array(count);
    let a = 0;
    let p = 0;
    for (let k = 0; k < count; k++) {
      let b = terms.indexOf("\n", a);
      if (b < 0) b = terms.length;
      let q = postings.indexOf("\n", p);
      if (q < 0) {
        if (k !== count - 1) throw new Error("bad terms: fewer postings than terms");
        q = postings.length;
      }
      const id = map.idOfSpan(terms, a, b);
      if (map.values[id] === undefined) map.live++;
      map.values[id] = RESTORED;
      start[id] = p;
      end[id] = q;
      a = b + 1;
      p = q + 1;
    }
    if (p <= postings.length) throw new Error("bad terms: more postings than terms");
    map.restored = { text: postings, start, end };
    return map;
  }

  /**
   * Restores the terms of a saved index (`terms` joined by `\n`, in id order) whose postings are
   * bytes in `postings.bytes` (`start`/`end` by position in `terms`): a term's bytes are checked
   * and decoded when the term is first used. Throws `Error` when the counts differ.
   */
  static fromBytes(terms: string, postings: SavedPostings): TermMap {
    const count = terms === "" ? 0 : terms.split("\n").length;
    if (count !== postings.start.length || count !== postings.end.length)
      throw new Error(`bad terms: ${count} terms, ${postings.start.length} postings`);
    const map = new TermMap({ terms: Math.max(1, count), chars: Math.max(1, terms.length) });
    const start = new Uint32Array(count);
    const end = new Uint32Array(count);
    let a = 0;
    for (let k = 0; k < count; k++) {
      let b = terms.indexOf("\n", a);
      if (b < 0) b = terms.length;
      const id = map.idOfSpan(terms, a, b);
      if (map.values[id] === undefined) map.live++;
      map.values[id] = SAVED;
      start[id] = postings.start[k] ?? 0;
      end[id] = postings.end[k] ?? 0;
      a = b + 1;
    }
    map.saved = { ...postings, start, end };
    return map;
  }

  /**
   * Restores the dictionary of a saved index as saved (format 11, see {@link SavedTerms}) with
   * term `k`'s postings in `postings.bytes[start[k], end[k])`: nothing is rebuilt; a term is found
   * by probing `terms`, and its bytes are checked and decoded when it is first used. Terms added
   * later go to an overlay. Throws `Error` when the counts differ.
   */
  static fromSavedTerms(terms: SavedTerms, postings: SavedPostings): TermMap {
    const count = terms.count;
    if (count !== postings.start.length || count !== postings.end.length)
      throw new Error(`bad terms: ${count} terms, ${postings.start.length} postings`);
    const map = new TermMap();
    map.base = terms;
    map.baseCount = count;
    map.terms = count;
    map.live = count;
    map.values = new Array<Value | undefined>(count).fill(SAVED);
    map.saved = postings;
    return map;
  }

  /**
   * Appends the postings of term ids `from` to `to - 1` to `out` (postings-bytes.ts), each live
   * term's text to `terms` and the end of its bytes in `out` to `ends`. A term never used since
   * it was restored from bytes is copied as it is, after its checksum is checked. Throws `Error`
   * for a term holding white space (it cannot be saved) or bytes that fail their checksum.
   */
  writeRange(out: ByteWriter, terms: string[], ends: number[], from: number, to: number): void {
    this.flush();
    const saved = this.saved;
    for (let id = from; id < Math.min(to, this.terms); id++) {
      const value = this.values[id];
      if (value === undefined) continue;
      const term = this.keyOf(id);
      if (/\s/.test(term))
        throw new Error(`MiniSearch: term "${term}" holds white space and cannot be saved`);
      if (value === SAVED && saved) {
        const a = saved.start[id] ?? 0;
        const b = saved.end[id] ?? 0;
        saved.verify(a, b);
        out.append(saved.bytes.subarray(a, b));
      } else {
        const v = this.valueAt(id);
        if (v === undefined) continue;
        writeCompact(
          v instanceof Map
            ? compactOf(v)
            : typeof v === "string"
              ? unpackCompact(v)
              : typeof v === "number"
                ? this.builtAt(id, v)
                : v,
          out,
        );
      }
      terms.push(term);
      ends.push(out.length);
    }
  }

  /** The id of a term, created when new (see {@link TermIds}). */
  idOfSpan(text: string, start: number, end: number): number {
    const known = this.findSpan(text, start, end);
    if (known >= 0) return known;
    const id = this.terms++;
    this.values.push(undefined);
    this.ids.setSpan(text, start, end, id);
    return id;
  }

  /** The id of `text[start, end)`, or -1 when it is not a term. */
  private findSpan(text: string, start: number, end: number): number {
    if (this.base) {
      const k = this.base.find(text, start, end);
      if (k >= 0) return k;
    }
    return this.ids.getSpan(text, start, end);
  }

  /** The id of `term`, or -1. */
  private find(term: string): number {
    return this.findSpan(term, 0, term.length);
  }

  /** The term of id `id`. */
  private keyOf(id: number): string {
    return this.base && id < this.baseCount
      ? this.base.keyAt(id)
      : this.ids.keyAt(id - this.baseCount);
  }

  /** The id of a term, created when new. */
  idOf(term: string): number {
    return this.idOfSpan(term, 0, term.length);
  }

  /** `[term, packed postings]` pairs; terms never touched since loading are not repacked. */
  *packedEntries(): IterableIterator<[string, string]> {
    this.flush();
    for (let id = 0; id < this.terms; id++) {
      const value = this.valueAt(id);
      if (value === undefined) continue;
      const packed =
        typeof value === "string"
          ? value
          : value instanceof Map
            ? packPostings(value)
            : packCompact(typeof value === "number" ? this.builtAt(id, value) : value);
      yield [this.keyOf(id), packed];
    }
  }

  get size(): number {
    this.flush();
    return this.live;
  }

  /** The postings of a term as a mutable map (what MiniSearch's own code expects). */
  get(term: string): Postings | undefined {
    this.flush();
    const id = this.find(term);
    return id < 0 ? undefined : this.mapAt(id);
  }

  /**
   * The postings of a term as they are held: compact (unpacked on first use) or, once MiniSearch
   * or an update has used the term, a map. For scanning; the compact form must not be changed.
   * Throws `Error` when the term's packed text is malformed.
   */
  lookup(term: string): Postings | CompactPostings | undefined {
    this.flush();
    const id = this.find(term);
    if (id < 0) return undefined;
    const value = this.valueAt(id);
    if (typeof value === "number") {
      const compact = this.builtAt(id, value);
      this.values[id] = compact;
      return compact;
    }
    if (typeof value !== "string") return value;
    let compact: CompactPostings;
    try {
      compact = unpackCompact(value);
    } catch (err) {
      throw new Error(
        `${err instanceof Error ? err.message : String(err)} for term "${term.slice(0, 40)}"`,
      );
    }
    this.values[id] = compact;
    return compact;
  }

  /**
   * For each posting of a document for which `gone(docId)` is true, in a term held compact, does
   * what MiniSearch's `removeTerm` does when a search meets it: one occurrence is removed (the
   * posting goes when its frequency was 1); a term left with no postings is deleted.
   */
  removeOccurrences(term: string, gone: (docId: number) => boolean): void {
    const compact = this.lookup(term);
    if (compact === undefined || compact instanceof Map) return;
    const kept: number[] = [];
    for (let i = 0; i < compact.length; i += 3) {
      const docId = compact[i + 1] ?? 0;
      const tf = compact[i + 2] ?? 0;
      if (!gone(docId)) kept.push(compact[i] ?? 0, docId, tf);
      else if (tf > 1) kept.push(compact[i] ?? 0, docId, tf - 1);
    }
    if (kept.length === 0) this.delete(term);
    else this.values[this.find(term)] = Int32Array.from(kept);
  }

  /**
   * Adds `tf` occurrences of term `id` in field `fieldId` of document `docId`, as
   * `fetch(term).get(fieldId).set(docId, …)` would. Buffered until the next read.
   */
  appendId(id: number, fieldId: number, docId: number, tf: number): void {
    this.pending.push(id, fieldId, docId, tf);
  }

  /**
   * {@link TermMap.appendId} for every term counted in `counts` (which is cleared), as field
   * `fieldId` of document `docId`.
   * @returns the number of distinct terms
   */
  appendCounts(counts: TermCounts, fieldId: number, docId: number): number {
    const distinct = counts.size;
    counts.drain((id, tf) => this.pending.push(id, fieldId, docId, tf));
    return distinct;
  }

  /** {@link TermMap.appendId} by term. */
  append(term: string, fieldId: number, docId: number, tf: number): void {
    this.appendId(this.idOf(term), fieldId, docId, tf);
  }

  has(term: string): boolean {
    this.flush();
    const id = this.find(term);
    return id >= 0 && this.values[id] !== undefined;
  }

  set(term: string, postings: Postings): this {
    this.flush();
    const id = this.idOf(term);
    if (this.values[id] === undefined) {
      this.live++;
      this.tree = null;
    }
    this.values[id] = postings;
    return this;
  }

  fetch(term: string, initial: () => Postings): Postings {
    const existing = this.get(term);
    if (existing !== undefined) return existing;
    const created = initial();
    this.set(term, created);
    return created;
  }

  delete(term: string): void {
    this.flush();
    const id = this.find(term);
    if (id >= 0 && this.values[id] !== undefined) {
      this.values[id] = undefined;
      this.live--;
      this.tree = null;
    }
  }

  clear(): void {
    this.flush();
    this.values.fill(undefined);
    this.batches = [];
    this.live = 0;
    this.tree = null;
  }

  *entries(): IterableIterator<[string, Postings]> {
    this.flush();
    for (let id = 0; id < this.terms; id++) {
      const postings = this.mapAt(id);
      if (postings !== undefined) yield [this.keyOf(id), postings];
    }
  }

  *keys(): IterableIterator<string> {
    this.flush();
    for (let id = 0; id < this.terms; id++) if (this.values[id] !== undefined) yield this.keyOf(id);
  }

  [Symbol.iterator](): IterableIterator<[string, Postings]> {
    return this.entries();
  }

  /** Prefix view, from a radix tree built on first use. */
  atPrefix(prefix: string): SearchableMap<Postings> {
    return this.radixTree().atPrefix(prefix);
  }

  /** Fuzzy lookup, from a radix tree built on first use. */
  fuzzyGet(term: string, maxEditDistance: number): ReturnType<SearchableMap<Postings>["fuzzyGet"]> {
    return this.radixTree().fuzzyGet(term, maxEditDistance);
  }

  /**
   * Groups the buffered postings by term. A term without postings gets them compact; a term that
   * has some is turned into a map and extended (a map takes single additions cheaply).
   */
  flush(): void {
    const n = this.pending.count;
    if (n === 0) return;
    const rows = this.pending.data;
    this.pending = new Rows();
    if (n * 16 < this.terms) {
      this.flushFew(rows, n);
      return;
    }
    // Rows grouped by term, keeping their order within (document, then field): a stable
    // counting sort by term id straight into one buffer.
    const terms = this.terms;
    const start = new Int32Array(terms + 1);
    for (let r = 0; r < n; r++) {
      const t = (rows[r * 4] ?? 0) + 1;
      start[t] = (start[t] ?? 0) + 1;
    }
    for (let t = 0; t < terms; t++) start[t + 1] = (start[t + 1] ?? 0) + (start[t] ?? 0);
    const end = start.slice(0, terms);
    const flat = new Uint32Array(n * 3);
    for (let r = 0; r < n; r++) {
      const t = rows[r * 4] ?? 0;
      const at = end[t] ?? 0;
      end[t] = at + 1;
      flat[at * 3] = rows[r * 4 + 1] ?? 0;
      flat[at * 3 + 1] = rows[r * 4 + 2] ?? 0;
      flat[at * 3 + 2] = rows[r * 4 + 3] ?? 0;
    }
    const batch = this.batches.length;
    this.batches.push({ flat, start, end });
    let added = false;
    let shared = false;
    for (let id = 0; id < terms; id++) {
      const from = start[id] ?? 0;
      const to = end[id] ?? 0;
      if (from === to) continue;
      if (this.values[id] === undefined) {
        this.values[id] = batch;
        this.live++;
        added = true;
        shared = true;
        continue;
      }
      this.addToMap(id, flat.subarray(from * 3, to * 3));
    }
    if (!shared) this.batches[batch] = null;
    if (added) this.tree = null;
  }

  /**
   * {@link TermMap.flush} of a few rows (one note's update): no term-sized buffers; each new term
   * gets its own compact postings.
   */
  private flushFew(rows: Int32Array, n: number): void {
    const termOf = (r: number): number => rows[r * 4] ?? 0;
    const order = Int32Array.from({ length: n }, (_, r) => r).sort(
      (a, b) => termOf(a) - termOf(b) || a - b,
    );
    let added = false;
    for (let k = 0; k < n;) {
      const id = termOf(order[k] ?? 0);
      let end = k + 1;
      while (end < n && termOf(order[end] ?? 0) === id) end++;
      const triples = new Uint32Array((end - k) * 3);
      for (let j = k; j < end; j++) {
        const r = (order[j] ?? 0) * 4;
        triples.set([rows[r + 1] ?? 0, rows[r + 2] ?? 0, rows[r + 3] ?? 0], (j - k) * 3);
      }
      if (this.values[id] === undefined) {
        this.values[id] = compactOfBuilt(triples);
        this.live++;
        added = true;
      } else this.addToMap(id, triples);
      k = end;
    }
    if (added) this.tree = null;
  }

  /** Adds built triples to term `id`'s postings, which become a map if they are not one yet. */
  private addToMap(id: number, triples: BuiltPostings): void {
    const map = this.mapAt(id) ?? new Map<number, Map<number, number>>();
    for (let i = 0; i < triples.length; i += 3) {
      const f = triples[i] ?? 0;
      let docs = map.get(f);
      if (docs === undefined) {
        docs = new Map();
        map.set(f, docs);
      }
      const d = triples[i + 1] ?? 0;
      docs.set(d, (docs.get(d) ?? 0) + (triples[i + 2] ?? 0));
    }
  }

  /**
   * Term `id`'s postings, with {@link RESTORED} ones as their packed text and {@link SAVED} ones
   * checked, decoded and kept compact. Throws `Error` when saved bytes fail their checksum or do
   * not decode.
   */
  private valueAt(id: number): Value | undefined {
    const value = this.values[id];
    if (value === SAVED) {
      const s = this.saved;
      if (!s) throw new Error(`term "${this.keyOf(id)}" points to no saved postings`);
      const a = s.start[id] ?? 0;
      const b = s.end[id] ?? 0;
      let compact: CompactPostings;
      try {
        s.verify(a, b);
        compact = readCompact(s.bytes, a, b, s.maxDoc);
      } catch (err) {
        throw new CorruptPostingsError(
          `${err instanceof Error ? err.message : String(err)} for term "${this.keyOf(id).slice(0, 40)}"`,
        );
      }
      this.values[id] = compact;
      return compact;
    }
    if (value !== RESTORED) return value;
    const r = this.restored;
    if (!r) throw new Error(`term "${this.keyOf(id)}" points to no restored postings`);
    return r.text.slice(r.start[id] ?? 0, r.end[id] ?? 0);
  }

  /** Compact postings of term `id` from built batch `batch`. */
  private builtAt(id: number, batch: number): CompactPostings {
    const b = this.batches[batch];
    if (!b) throw new Error(`term "${this.keyOf(id)}" points to a released batch`);
    return compactOfBuilt(b.flat.subarray((b.start[id] ?? 0) * 3, (b.end[id] ?? 0) * 3));
  }

  /** Number of term ids (live or not): {@link TermMap.sweep} ranges run below it. */
  get idCount(): number {
    this.flush();
    return this.terms;
  }

  /**
   * MiniSearch's vacuum for terms `from` to `to - 1` (ids), without turning postings into maps:
   * postings of documents for which `gone(docId)` is true are removed, and a term left with none
   * is deleted. Packed terms without such documents stay packed.
   */
  sweep(gone: (docId: number) => boolean, from: number, to: number): void {
    this.flush();
    for (let id = from; id < Math.min(to, this.terms); id++) {
      const value = this.valueAt(id);
      if (value === undefined) continue;
      if (value instanceof Map) {
        for (const [fieldId, docs] of value) {
          for (const docId of docs.keys()) if (gone(docId)) docs.delete(docId);
          if (docs.size === 0) value.delete(fieldId);
        }
        if (value.size === 0) this.deleteId(id);
        continue;
      }
      const compact =
        typeof value === "string"
          ? unpackCompact(value)
          : typeof value === "number"
            ? this.builtAt(id, value)
            : value;
      let kept = 0;
      for (let i = 0; i < compact.length; i += 3) if (!gone(compact[i + 1] ?? 0)) kept++;
      if (kept * 3 === compact.length) {
        if (typeof value === "number") this.values[id] = compact;
        continue;
      }
      if (kept === 0) {
        this.deleteId(id);
        continue;
      }
      const out = new Int32Array(kept * 3);
      let k = 0;
      for (let i = 0; i < compact.length; i += 3) {
        if (gone(compact[i + 1] ?? 0)) continue;
        out[k++] = compact[i] ?? 0;
        out[k++] = compact[i + 1] ?? 0;
        out[k++] = compact[i + 2] ?? 0;
      }
      this.values[id] = out;
    }
  }

  private deleteId(id: number): void {
    if (this.values[id] === undefined) return;
    this.values[id] = undefined;
    this.live--;
    this.tree = null;
  }

  /** The postings of term `id` as a map, turning them into one (and keeping it) if needed. */
  private mapAt(id: number): Postings | undefined {
    const value = this.valueAt(id);
    if (value === undefined || value instanceof Map) return value;
    const postings = mapOf(
      typeof value === "string"
        ? unpackCompact(value)
        : typeof value === "number"
          ? this.builtAt(id, value)
          : value,
    );
    this.values[id] = postings;
    return postings;
  }

  private radixTree(): SearchableMap<Postings> {
    this.tree ??= SearchableMap.from(this.entries());
    return this.tree;
  }
}
