/**
 * MiniSearch with a faster way in and out (issue 4 targets: build 10k notes in seconds, reload in
 * under one, query p95 ≤ 10 ms). MiniSearch does `discard`, vacuuming and search, and defines the
 * ranking (BM25+, field boosts, query combination); this subclass changes four things that are not
 * visible in results:
 *
 * - The term dictionary is a {@link TermMap} (a hash table with integer term ids, postings held
 *   compact) instead of MiniSearch's radix tree.
 * - {@link CountingIndex.addText} counts each field's terms with a {@link TermScanner} (the index
 *   tokenizer's terms, as ids) and touches each distinct term once, where `add()` walks the
 *   dictionary once per token occurrence; {@link CountingIndex.addCounted} does the same from
 *   terms counted by the caller. Both write exactly the structures `add()` writes (short ids,
 *   field lengths — MiniSearch counts distinct terms —, average lengths, term frequencies);
 *   test/search-index.test.ts checks that they give the same serialised index.
 * - {@link CountingIndex.toSaved} / {@link CountingIndex.fromSaved} save postings as packed text
 *   with a checksum; it is unpacked term by term when first used.
 * - {@link CountingIndex.searchTop} replays `search()`'s scoring for exact terms over the compact
 *   postings and builds only the best results; test/search-index.test.ts checks it against
 *   `search()`.
 *
 * MiniSearch internals used (protected members of MiniSearch 7.2, pinned in package.json):
 * `_index`, `_idToShortId`, `_documentIds`, `_fieldIds`, `_fieldLength`, `_avgFieldLength`,
 * `_documentCount`, `_nextId`, `_dirtCount`, `_options`, `removeTerm`.
 */
import MiniSearch from "minisearch";
import { hashSpan } from "./span-table";
import { TermMap, type CompactPostings, type Postings } from "./term-map";
import { TermCounts, TermScanner } from "./term-scanner";

function bitCount(n: number): number {
  let v = n - ((n >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Counts terms: term → occurrences. */
export function countTerms(terms: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of terms) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}

/** One result of {@link CountingIndex.searchTop}. */
export interface TopHit {
  /** The document id. */
  id: string;
  /** MiniSearch's score for the document (BM25+ × boosts × matched query terms). */
  score: number;
  /** The query terms the document matched, in MiniSearch's order. */
  queryTerms: string[];
}

/** What {@link CountingIndex.searchTop} returns. */
export interface TopResults {
  /** Documents that matched (and held every required term). */
  total: number;
  /** The best `limit` of them, in the order `search()` would return them. */
  top: TopHit[];
}

const DEFAULT_BM25 = { k: 1.2, b: 0.7, d: 0.5 };
/** Query terms a bit mask can track. */
const MAX_MASK_TERMS = 30;

/**
 * A {@link CountingIndex} as saved: MiniSearch's state in flat arrays and two long strings, which
 * `JSON.parse` reads several times faster than an array or object per term or document.
 */
export interface SavedMiniIndex {
  documentCount: number;
  nextId: number;
  /** Short ids of the indexed documents. */
  shortIds: number[];
  /** Document ids (note paths), in the order of `shortIds`. */
  documentIds: string[];
  fieldIds: Record<string, number>;
  /**
   * Field lengths, in the order of `shortIds`: one per field id for each document, -1 where
   * MiniSearch has none.
   */
  fieldLength: number[];
  averageFieldLength: number[];
  dirtCount: number;
  /** Index terms joined by `\n` (terms never hold white space). */
  terms: string;
  /** Packed postings of each term, in the order of `terms`, joined by `\n` (see `packPostings` in term-map.ts). */
  postings: string;
  /** {@link checksumOf} `terms` and `postings`: a damaged file is rebuilt, not read. */
  checksum: number;
}

/** A 32-bit checksum of the saved terms and postings (FNV-1a of each, combined). */
export function checksumOf(terms: string, postings: string): number {
  const h = Math.imul(hashSpan(terms, 0, terms.length) ^ terms.length, 0x01000193);
  return (Math.imul(h ^ hashSpan(postings, 0, postings.length), 0x01000193) ^ postings.length) | 0;
}

/** Options of a {@link CountingIndex} beyond MiniSearch's. */
export interface AnalysisOptions {
  /** Porter-stem English words in {@link CountingIndex.addText} (default true). */
  stemming?: boolean;
}

type Options<T> = ConstructorParameters<typeof MiniSearch<T>>[0];

/** Scores one posting: `(field id, short document id, term frequency, documents in the field)`; false when discarded. */
type Visit = (fieldId: number, docId: number, tf: number, matching: number) => boolean;

/**
 * Scores compact postings field by field (fields without a boost entry are skipped); true when it
 * met a discarded document (whose postings the caller then drops).
 */
function scanCompact(c: CompactPostings, fieldBoosts: readonly number[], visit: Visit): boolean {
  let discarded = false;
  for (let i = 0; i < c.length; ) {
    const fieldId = c[i] ?? 0;
    let end = i;
    while (end < c.length && c[end] === fieldId) end += 3;
    if (fieldBoosts[fieldId] === undefined) {
      i = end;
      continue;
    }
    let matching = (end - i) / 3;
    for (; i < end; i += 3) {
      if (!visit(fieldId, c[i + 1] ?? 0, c[i + 2] ?? 0, matching)) {
        matching -= 1;
        discarded = true;
      }
    }
  }
  return discarded;
}
type MiniIndexField = CountingIndex<unknown>["_index"];

/** A MiniSearch index with a hash-map term dictionary, pre-counted adds and a compact saved form. */
export class CountingIndex<T> extends MiniSearch<T> {
  private readonly stemming: boolean;
  private scanner: TermScanner | null = null;
  private readonly counts = new TermCounts();

  constructor(options: Options<T>, analysis: AnalysisOptions = {}) {
    super(options);
    this.stemming = analysis.stemming ?? true;
    // TermMap implements the members of SearchableMap that MiniSearch calls (see term-map.ts).
    this._index = new TermMap() as unknown as MiniIndexField;
  }

  /**
   * Restores an index saved with {@link CountingIndex.toSaved}. Postings stay packed until used.
   * Throws `Error` when `saved` is malformed, fails its checksum or its fields differ from
   * `options.fields`.
   */
  static fromSaved<D>(saved: SavedMiniIndex, options: Options<D>, analysis: AnalysisOptions = {}): CountingIndex<D> {
    const index = new CountingIndex<D>(options, analysis);
    index.restoreFrom(saved);
    return index;
  }

  /** The index in its saved form (see {@link SavedMiniIndex}). */
  toSaved(): SavedMiniIndex {
    const terms: string[] = [];
    const postings: string[] = [];
    for (const [term, packed] of this.termMap().packedEntries()) {
      if (/\s/.test(term)) throw new Error(`MiniSearch: term "${term}" holds white space and cannot be saved`);
      terms.push(term);
      postings.push(packed);
    }
    const fields = Object.keys(this._fieldIds).length;
    const shortIds: number[] = [];
    const documentIds: string[] = [];
    const fieldLength: number[] = [];
    for (const [shortId, id] of this._documentIds) {
      shortIds.push(shortId);
      documentIds.push(String(id));
      const lengths = this._fieldLength.get(shortId) ?? [];
      for (let f = 0; f < fields; f++) fieldLength.push(lengths[f] ?? -1);
    }
    const joinedTerms = terms.join("\n");
    const joinedPostings = postings.join("\n");
    return {
      documentCount: this._documentCount,
      nextId: this._nextId,
      shortIds,
      documentIds,
      fieldIds: { ...this._fieldIds },
      fieldLength,
      averageFieldLength: [...this._avgFieldLength],
      dirtCount: this._dirtCount,
      terms: joinedTerms,
      postings: joinedPostings,
      checksum: checksumOf(joinedTerms, joinedPostings),
    };
  }

  /**
   * Adds a document from the text of each field, in the order of `fields`, with the terms the
   * index tokenizer gives (see {@link TermScanner}). Throws, like `add()`, when the id is already
   * indexed or a field is unknown.
   */
  addText(id: string, texts: readonly string[], fields: readonly string[]): void {
    const terms = this.termMap();
    this.scanner ??= new TermScanner(terms, { stemming: this.stemming });
    const scanner = this.scanner;
    const counts = this.counts;
    this.addDocument(id, fields, (f, fieldId, shortId) => {
      scanner.count(texts[f] ?? "", counts);
      return terms.appendCounts(counts, fieldId, shortId);
    });
  }

  /**
   * Adds a document from its counted terms, one map per field in the order of `fields` (see
   * {@link countTerms}). Throws, like `add()`, when the id is already indexed.
   */
  addCounted(id: string, fieldTerms: readonly Map<string, number>[], fields: readonly string[]): void {
    const terms = this.termMap();
    this.addDocument(id, fields, (f, fieldId, shortId) => {
      const counted = fieldTerms[f] ?? new Map<string, number>();
      for (const [term, tf] of counted) terms.append(term, fieldId, shortId, tf);
      return counted.size;
    });
  }

  /**
   * What `add()` does around the terms: a short id, then for each field the postings
   * (`addField(index in fields, field id, short id)` adds them and returns the number of distinct
   * terms — MiniSearch's field length) and the field's average length.
   */
  private addDocument(id: string, fields: readonly string[], addField: (f: number, fieldId: number, shortId: number) => number): void {
    if (this._idToShortId.has(id)) throw new Error(`MiniSearch: duplicate ID ${id}`);
    const fieldIds = fields.map((field) => {
      const fieldId = this._fieldIds[field];
      if (fieldId === undefined) throw new Error(`MiniSearch: unknown field ${field}`);
      return fieldId;
    });
    const shortId = this._nextId;
    this._idToShortId.set(id, shortId);
    this._documentIds.set(shortId, id);
    this._documentCount += 1;
    this._nextId += 1;
    const lengths: number[] = [];
    this._fieldLength.set(shortId, lengths);
    fieldIds.forEach((fieldId, f) => {
      const distinct = addField(f, fieldId, shortId);
      lengths[fieldId] = distinct;
      const count = this._documentCount - 1;
      const average = this._avgFieldLength[fieldId] ?? 0;
      this._avgFieldLength[fieldId] = (average * count + distinct) / (count + 1);
    });
  }

  /**
   * The best `limit` results of an OR query of exact `terms`, with the scores, order and matched
   * terms `search(terms.join(" "), { boostDocument })` gives (MiniSearch 7.2's termResults, OR
   * combination and stable sort by score, replayed here), without building a result object for
   * every matching document: a query of common words matches thousands of notes and building and
   * sorting them all was most of its time (issue 4 query p95 target).
   * @param boostDocument MiniSearch's document boost; it must depend on the id alone (it is asked
   *   once per document and query)
   * @param required terms a document must have matched to count (the terms of quoted phrases)
   * Falls back to `search()` when the index's search options use prefix, fuzzy, term boosts, field
   * lists or AND combination, or when there are more than {@link MAX_MASK_TERMS} distinct terms.
   */
  searchTop(
    terms: readonly string[],
    boostDocument: (id: string) => number,
    limit: number,
    required: readonly string[] = [],
  ): TopResults {
    const query = terms.join(" ").split(" ").filter((t) => t !== "");
    const unique = [...new Set(query)];
    const opts = (this._options.searchOptions ?? {}) as Record<string, unknown>;
    const simple =
      !opts.prefix && !opts.fuzzy && opts.boostTerm === undefined && opts.fields === undefined &&
      (opts.combineWith === undefined || (typeof opts.combineWith === "string" && opts.combineWith.toLowerCase() === "or"));
    if (!simple || unique.length > MAX_MASK_TERMS) return this.searchTopSlow(query, boostDocument, limit, required);

    const boost = (opts.boost ?? {}) as Record<string, number | undefined>;
    const bm25 = (opts.bm25 as typeof DEFAULT_BM25 | undefined) ?? DEFAULT_BM25;
    const size = this._nextId;
    const total = new Float64Array(size);
    const termScore = new Float64Array(size);
    const mask = new Int32Array(size);
    const inTerm = new Uint8Array(size);
    // Document boosts by short id, NaN until asked: `boostDocument` depends on the id alone.
    const boosts = new Float64Array(size).fill(Number.NaN);
    const order: number[] = [];
    const touched: number[] = [];

    // MiniSearch scores fields in the order of its `fields` option, which is field id order.
    const fieldBoosts: number[] = [];
    for (const field of this._options.fields) {
      const fieldId = this._fieldIds[field];
      if (fieldId !== undefined) fieldBoosts[fieldId] = (Object.prototype.hasOwnProperty.call(boost, field) ? boost[field] : undefined) || 1;
    }
    const dictionary = this.termMap();
    let idfOf = -1;
    let idf = 0;
    /** Scores one posting (MiniSearch's termResults); false when the document was discarded. */
    const visit = (fieldId: number, docId: number, tf: number, matching: number): boolean => {
      const id = this._documentIds.get(docId) as unknown;
      if (id === undefined) return false;
      let docBoost = boosts[docId] ?? 0;
      if (Number.isNaN(docBoost)) {
        docBoost = boostDocument(id as string);
        boosts[docId] = docBoost;
      }
      if (!docBoost) return true;
      const length = this._fieldLength.get(docId)?.[fieldId] ?? 0;
      if (idfOf !== matching) {
        idf = Math.log(1 + (this._documentCount - matching + 0.5) / (matching + 0.5));
        idfOf = matching;
      }
      const avg = this._avgFieldLength[fieldId] ?? 0;
      const raw = idf * (bm25.d + (tf * (bm25.k + 1)) / (tf + bm25.k * (1 - bm25.b + (bm25.b * length) / avg)));
      const weighted = (fieldBoosts[fieldId] ?? 1) * docBoost * raw;
      if (inTerm[docId] === 1) termScore[docId] = (termScore[docId] ?? 0) + weighted;
      else {
        inTerm[docId] = 1;
        termScore[docId] = weighted;
        touched.push(docId);
      }
      return true;
    };

    query.forEach((term) => {
      const bit = 1 << unique.indexOf(term);
      const data = dictionary.lookup(term);
      if (data === undefined) return;
      touched.length = 0;
      idfOf = -1;
      if (data instanceof Map) this.scanMap(term, data, fieldBoosts, visit);
      else if (scanCompact(data, fieldBoosts, visit)) {
        // As MiniSearch does: postings of discarded documents are dropped when a search meets them.
        dictionary.removeOccurrences(term, (docId) => !this._documentIds.has(docId));
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

    let need = 0;
    for (const t of required) {
      const i = unique.indexOf(t);
      if (i < 0) return { total: 0, top: [] };
      need |= 1 << i;
    }
    const kept: number[] = [];
    for (const docId of order) {
      const m = mask[docId] ?? 0;
      if ((m & need) !== need) continue;
      total[docId] = (total[docId] ?? 0) * bitCount(m);
      kept.push(docId);
    }
    const score = (docId: number): number => total[docId] ?? 0;
    let chosen = kept;
    if (kept.length > limit) {
      // The limit-th best score; ties at it go to the earliest matches, as a stable sort would.
      const sorted = Float64Array.from(kept, score).sort();
      const threshold = sorted[kept.length - limit] ?? 0;
      let above = 0;
      for (const docId of kept) if (score(docId) > threshold) above++;
      let ties = limit - above;
      chosen = [];
      for (const docId of kept) {
        const s = score(docId);
        if (s > threshold) chosen.push(docId);
        else if (s === threshold && ties > 0) {
          chosen.push(docId);
          ties--;
        }
      }
    }
    chosen.sort((a, b) => score(b) - score(a));
    const top = chosen.slice(0, limit).map((docId) => ({
      id: this._documentIds.get(docId) as string,
      score: score(docId),
      queryTerms: unique.filter((_, i) => ((mask[docId] ?? 0) & (1 << i)) !== 0),
    }));
    return { total: kept.length, top };
  }

  /** Scores map postings field by field, removing discarded documents' postings as MiniSearch does. */
  private scanMap(term: string, data: Postings, fieldBoosts: readonly number[], visit: Visit): void {
    const self = this as unknown as { removeTerm(fieldId: number, docId: number, term: string): void };
    fieldBoosts.forEach((_, fieldId) => {
      const freqs = data.get(fieldId);
      if (freqs === undefined) return;
      let matching = freqs.size;
      for (const [docId, tf] of freqs) {
        if (!visit(fieldId, docId, tf, matching)) {
          self.removeTerm(fieldId, docId, term);
          matching -= 1;
        }
      }
    });
  }

  /** {@link CountingIndex.searchTop} through MiniSearch's own search. */
  private searchTopSlow(query: string[], boostDocument: (id: string) => number, limit: number, required: readonly string[]): TopResults {
    const hits: TopHit[] = [];
    for (const r of this.search(query.join(" "), { boostDocument: (id) => boostDocument(id as string) })) {
      const matched = new Set(r.queryTerms);
      if (required.every((t) => matched.has(t))) hits.push({ id: r.id as string, score: r.score, queryTerms: r.queryTerms });
    }
    return { total: hits.length, top: hits.slice(0, limit) };
  }

  /** Groups the postings added since the last read by term (see `TermMap.flush`); call at the end of a build. */
  flush(): void {
    this.termMap().flush();
  }

  /** True when some indexed note has the term (in any field). */
  hasTerm(term: string): boolean {
    return this.termMap().has(term);
  }

  private termMap(): TermMap {
    return this._index as unknown as TermMap;
  }

  private restoreFrom(saved: SavedMiniIndex): void {
    this.scanner = null;
    const fields = Object.keys(this._fieldIds).sort().join(",");
    if (typeof saved !== "object" || saved === null || Object.keys(saved.fieldIds ?? {}).sort().join(",") !== fields) {
      throw new Error("saved index has other fields");
    }
    if (![saved.documentCount, saved.nextId, saved.dirtCount].every((n) => Number.isInteger(n) && n >= 0)) {
      throw new Error("saved index counts are not whole numbers");
    }
    const numbers = (v: unknown): v is number[] => Array.isArray(v) && v.every((n) => typeof n === "number");
    const fieldCount = Object.keys(saved.fieldIds).length;
    if (!numbers(saved.shortIds) || !Array.isArray(saved.documentIds) || !saved.documentIds.every((d) => typeof d === "string") || saved.documentIds.length !== saved.shortIds.length) {
      throw new Error("bad document ids");
    }
    if (!numbers(saved.fieldLength) || saved.fieldLength.length !== saved.shortIds.length * fieldCount) throw new Error("bad field lengths");
    if (!numbers(saved.averageFieldLength)) throw new Error("bad average field lengths");
    if (typeof saved.terms !== "string" || typeof saved.postings !== "string") throw new Error("bad terms");
    if (checksumOf(saved.terms, saved.postings) !== saved.checksum) throw new Error("checksum mismatch");
    this._documentCount = saved.documentCount;
    this._nextId = saved.nextId;
    this._dirtCount = saved.dirtCount;
    this._fieldIds = { ...saved.fieldIds };
    this._avgFieldLength = [...saved.averageFieldLength];
    this._documentIds = new Map();
    this._idToShortId = new Map();
    this._fieldLength = new Map();
    saved.shortIds.forEach((shortId, i) => {
      const id = saved.documentIds[i] ?? "";
      this._documentIds.set(shortId, id);
      this._idToShortId.set(id, shortId);
      const lengths: number[] = [];
      for (let f = 0; f < fieldCount; f++) {
        const n = saved.fieldLength[i * fieldCount + f] ?? -1;
        if (n >= 0) lengths[f] = n;
      }
      this._fieldLength.set(shortId, lengths);
    });
    this._index = TermMap.fromSaved(saved.terms, saved.postings) as unknown as MiniIndexField;
  }
}
