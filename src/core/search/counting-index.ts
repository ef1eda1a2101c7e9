/**
 * MiniSearch with a faster way in and out (issue 4 targets: build 10k notes in seconds, reload in
 * under one). MiniSearch does the ranking (BM25+, field boosts, query combination), `discard`,
 * vacuuming and search; this subclass changes three things that are not visible in results:
 *
 * - The term dictionary is a {@link TermMap} (a hash map) instead of MiniSearch's radix tree.
 * - {@link CountingIndex.addCounted} takes each field's terms already counted and touches each
 *   distinct term once, where `add()` walks the dictionary once per token occurrence. It writes
 *   exactly the structures `add()` writes (short ids, field lengths — MiniSearch counts distinct
 *   terms —, average lengths, term frequencies); test/search-index.test.ts checks that both give
 *   the same serialised index.
 * - {@link CountingIndex.toSaved} / {@link CountingIndex.fromSaved} save postings as packed text
 *   that is unpacked term by term when first used.
 *
 * MiniSearch internals used (protected members of MiniSearch 7.2, pinned in package.json):
 * `_index`, `_idToShortId`, `_documentIds`, `_fieldIds`, `_fieldLength`, `_avgFieldLength`,
 * `_documentCount`, `_nextId`, `_dirtCount`.
 */
import MiniSearch from "minisearch";
import { TermMap } from "./term-map";

/** Counts terms: term → occurrences. */
export function countTerms(terms: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of terms) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}

/** A {@link CountingIndex} as saved: MiniSearch's state with postings packed as text. */
export interface SavedMiniIndex {
  documentCount: number;
  nextId: number;
  /** `[short id, document id]`. */
  documentIds: [number, string][];
  fieldIds: Record<string, number>;
  /** `[short id, field lengths by field id]`. */
  fieldLength: [number, number[]][];
  averageFieldLength: number[];
  dirtCount: number;
  /** `[index term, packed postings]` (see `packPostings` in term-map.ts). */
  terms: [string, string][];
}

type Options<T> = ConstructorParameters<typeof MiniSearch<T>>[0];
type MiniIndexField = CountingIndex<unknown>["_index"];

/** A MiniSearch index with a hash-map term dictionary, pre-counted adds and a compact saved form. */
export class CountingIndex<T> extends MiniSearch<T> {
  constructor(options: Options<T>) {
    super(options);
    // TermMap implements the members of SearchableMap that MiniSearch calls (see term-map.ts).
    this._index = new TermMap() as unknown as MiniIndexField;
  }

  /**
   * Restores an index saved with {@link CountingIndex.toSaved}. Postings stay packed until used.
   * Throws `Error` when `saved` is malformed or its fields differ from `options.fields`.
   */
  static fromSaved<D>(saved: SavedMiniIndex, options: Options<D>): CountingIndex<D> {
    const index = new CountingIndex<D>(options);
    index.restoreFrom(saved);
    return index;
  }

  /** The index in its saved form (see {@link SavedMiniIndex}). */
  toSaved(): SavedMiniIndex {
    return {
      documentCount: this._documentCount,
      nextId: this._nextId,
      documentIds: [...this._documentIds].map(([k, v]) => [k, String(v)]),
      fieldIds: { ...this._fieldIds },
      fieldLength: [...this._fieldLength],
      averageFieldLength: [...this._avgFieldLength],
      dirtCount: this._dirtCount,
      terms: [...this.termMap().packedEntries()],
    };
  }

  /**
   * Adds a document from its counted terms, one map per field in the order of `fields` (see
   * {@link countTerms}). Throws, like `add()`, when the id is already indexed.
   */
  addCounted(id: string, fieldTerms: readonly Map<string, number>[], fields: readonly string[]): void {
    if (this._idToShortId.has(id)) throw new Error(`MiniSearch: duplicate ID ${id}`);
    const shortId = this._nextId;
    this._idToShortId.set(id, shortId);
    this._documentIds.set(shortId, id);
    this._documentCount += 1;
    this._nextId += 1;
    const lengths: number[] = [];
    this._fieldLength.set(shortId, lengths);
    const terms = this.termMap();
    fields.forEach((field, f) => {
      const fieldId = this._fieldIds[field];
      if (fieldId === undefined) throw new Error(`MiniSearch: unknown field ${field}`);
      const counted = fieldTerms[f] ?? new Map<string, number>();
      // MiniSearch's field length is the number of distinct terms.
      lengths[fieldId] = counted.size;
      const count = this._documentCount - 1;
      const average = this._avgFieldLength[fieldId] ?? 0;
      this._avgFieldLength[fieldId] = (average * count + counted.size) / (count + 1);
      for (const [term, tf] of counted) {
        const data = terms.fetch(term, () => new Map());
        let docs = data.get(fieldId);
        if (docs === undefined) {
          docs = new Map();
          data.set(fieldId, docs);
        }
        docs.set(shortId, (docs.get(shortId) ?? 0) + tf);
      }
    });
  }

  /** True when some indexed note has the term (in any field). */
  hasTerm(term: string): boolean {
    return this.termMap().has(term);
  }

  private termMap(): TermMap {
    return this._index as unknown as TermMap;
  }

  private restoreFrom(saved: SavedMiniIndex): void {
    const fields = Object.keys(this._fieldIds).sort().join(",");
    if (typeof saved !== "object" || saved === null || Object.keys(saved.fieldIds ?? {}).sort().join(",") !== fields) {
      throw new Error("saved index has other fields");
    }
    if (![saved.documentCount, saved.nextId, saved.dirtCount].every((n) => Number.isInteger(n) && n >= 0)) {
      throw new Error("saved index counts are not whole numbers");
    }
    const pairs = (v: unknown, second: (x: unknown) => boolean): boolean =>
      Array.isArray(v) && v.every((p) => Array.isArray(p) && p.length === 2 && typeof p[0] === "number" && second(p[1]));
    if (!pairs(saved.documentIds, (x) => typeof x === "string")) throw new Error("bad document ids");
    if (!pairs(saved.fieldLength, (x) => Array.isArray(x))) throw new Error("bad field lengths");
    if (!Array.isArray(saved.terms) || !saved.terms.every((p) => Array.isArray(p) && typeof p[0] === "string" && typeof p[1] === "string")) {
      throw new Error("bad terms");
    }
    if (!Array.isArray(saved.averageFieldLength)) throw new Error("bad average field lengths");
    this._documentCount = saved.documentCount;
    this._nextId = saved.nextId;
    this._dirtCount = saved.dirtCount;
    this._fieldIds = { ...saved.fieldIds };
    this._avgFieldLength = [...saved.averageFieldLength];
    this._documentIds = new Map(saved.documentIds);
    this._idToShortId = new Map(saved.documentIds.map(([k, v]) => [v, k]));
    this._fieldLength = new Map(saved.fieldLength);
    this._index = TermMap.fromPacked(saved.terms) as unknown as MiniIndexField;
  }
}
