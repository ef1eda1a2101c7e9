/**
 * The search engine: MiniSearch with a faster way in and out (the targets: a 10k-note build in
 * seconds, a reload in under one, query p95 ≤ 10 ms; figures in bench/results/search.md).
 * MiniSearch does `discard`, vacuuming and search, and defines the ranking (BM25+, field boosts,
 * query combination); this subclass changes four things that are not visible in results:
 *
 * - The term dictionary is a {@link TermMap} (a hash table with integer term ids, postings held
 *   compact) instead of MiniSearch's radix tree.
 * - {@link SearchEngine.addText} counts each field's terms with a {@link TermScanner} (the index
 *   tokenizer's terms, as ids) and touches each distinct term once, where `add()` walks the
 *   dictionary once per token occurrence; {@link SearchEngine.addCounted} does the same from
 *   terms counted by the caller. Both write the structures `add()` writes (short ids, field
 *   lengths, average lengths, term frequencies). A field's length is its number of distinct
 *   terms. MiniSearch's `add()` counts the distinct tokens `tokenize` gives, before `processTerm`
 *   (which may merge, split or drop them); the two agree when `processTerm` is the identity and
 *   `tokenize` is the index tokenizer, as in the service's options (`miniSearchOptions`).
 *   test/core/search/search-index.test.ts checks that they give the same serialised index, and
 *   test/core/search/search-minisearch-parity.test.ts that the field lengths are MiniSearch's with those
 *   options, also where stemming merges words.
 * - {@link SearchEngine.toSaved} / {@link SearchEngine.fromSaved} save postings as packed text
 *   with a checksum; it is unpacked term by term when first used.
 * - {@link SearchEngine.searchTop} replays `search()`'s scoring for exact terms over the compact
 *   postings and builds only the best results; test/core/search/search-index.test.ts checks it against
 *   `search()`.
 *
 * MiniSearch internals used (protected members of MiniSearch 7.2, pinned in package.json):
 * `_index`, `_idToShortId`, `_documentIds`, `_fieldIds`, `_fieldLength`, `_avgFieldLength`,
 * `_documentCount`, `_nextId`, `_dirtCount`, `_options`, `removeTerm`.
 */
import MiniSearch from "minisearch";
import { hashSpan } from "./span-table";
import { ByteWriter } from "./postings-bytes";
import { TermMap, type CompactPostings, type Postings, type SavedPostings } from "./term-map";
import { postingCount, postingDocuments } from "./postings";
import { SavedTerms, type SavedTermsParts } from "./saved-terms";
import { TermCounts, TermScanner } from "./term-scanner";
import type { SegmentMemo } from "./tokenizer";
import { maxScoreTop } from "./max-score";
import {
  TopScorer,
  type Bm25Params,
  type TopQuery,
  type ScoringIndex,
  type TopHit,
  type TopResults,
} from "./top-scorer";

export type { TopHit, TopResults } from "./top-scorer";

/** Options of {@link SearchEngine.searchTop}. */
export interface TopOptions {
  /**
   * The most `boostDocument` ever returns (a bound, not a guess). Given, documents that cannot
   * reach the best `limit` are passed over without being scored (see top-scorer.ts); not given
   * (or `Infinity`), every matching document is scored.
   */
  maxBoost?: number;
  /** Score every matching document whatever `maxBoost` says (the exhaustive scorer, a test oracle). */
  exhaustive?: boolean;
}

/** Counts terms: term → occurrences. */
export function countTerms(terms: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of terms) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}

const DEFAULT_BM25 = { k: 1.2, b: 0.7, d: 0.5 };
/** Query terms a bit mask can track. */
const MAX_MASK_TERMS = 30;

/**
 * A {@link SearchEngine} as saved: MiniSearch's state in flat arrays and two long strings, which
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

/**
 * A {@link SearchEngine}'s state beside its terms (saved index format 10, see
 * {@link SearchEngine.toBinary}): counts, fields and each document's short id, id and field
 * lengths, as in {@link SavedMiniIndex}.
 */
export type SavedEngineState = Omit<SavedMiniIndex, "terms" | "postings" | "checksum">;

/** A {@link SearchEngine}'s terms and postings as bytes (see {@link SearchEngine.toBinary}). */
export interface BinaryTerms {
  /** Live terms in saved order, as saved (format 11, see {@link SavedTerms}). */
  terms: SavedTermsParts;
  /** Every term's postings end to end (engine/postings-bytes.ts). */
  postings: Uint8Array;
  /** Where each term's postings end in `postings`, bytes, in the order of `terms`. */
  ends: Uint32Array;
}

/** A 32-bit checksum of the saved terms and postings (FNV-1a of each, combined). */
export function checksumOf(terms: string, postings: string): number {
  const h = Math.imul(hashSpan(terms, 0, terms.length) ^ terms.length, 0x01000193);
  return (Math.imul(h ^ hashSpan(postings, 0, postings.length), 0x01000193) ^ postings.length) | 0;
}

/** Options of a {@link SearchEngine} beyond MiniSearch's. */
export interface AnalysisOptions {
  /** Porter-stem English words in {@link SearchEngine.addText} (default true). */
  stemming?: boolean;
}

type Options<T> = ConstructorParameters<typeof MiniSearch<T>>[0];
type MiniIndexField = SearchEngine<unknown>["_index"];

/**
 * Whether each document is indexed and its field lengths, by short id, in typed arrays: the
 * scorer reads them for every posting, where MiniSearch's own maps cost a hash lookup each.
 * Filled as documents are added, marked when they are discarded, learned from MiniSearch's maps
 * for documents added another way (MiniSearch's own `add`).
 */
class DocFacts {
  /** 0 unknown, 1 indexed, 2 gone. */
  alive = new Uint8Array(0);
  lengths = new Int32Array(0);

  constructor(readonly stride: number) {}

  /** Makes room for short ids below `size`. */
  ensure(size: number): void {
    if (this.alive.length >= size) return;
    const n = Math.max(size, Math.ceil(this.alive.length * 1.5), 64);
    const alive = new Uint8Array(n);
    alive.set(this.alive);
    const lengths = new Int32Array(n * this.stride);
    lengths.set(this.lengths);
    this.alive = alive;
    this.lengths = lengths;
  }

  setLength(docId: number, fieldId: number, length: number): void {
    this.ensure(docId + 1);
    this.alive[docId] = 1;
    this.lengths[docId * this.stride + fieldId] = length;
  }

  /** Records what MiniSearch knows of a document (`null`: not indexed); true when indexed. */
  learn(docId: number, lengths: readonly (number | undefined)[] | null): boolean {
    this.ensure(docId + 1);
    if (lengths === null) {
      this.alive[docId] = 2;
      return false;
    }
    for (let f = 0; f < this.stride; f++) this.lengths[docId * this.stride + f] = lengths[f] ?? 0;
    this.alive[docId] = 1;
    return true;
  }

  kill(docId: number): void {
    this.ensure(docId + 1);
    this.alive[docId] = 2;
  }

  /** Forgets everything (states become unknown). */
  reset(): void {
    this.alive = new Uint8Array(0);
    this.lengths = new Int32Array(0);
  }
}

/**
 * The search engine of one index shard: a MiniSearch index whose term dictionary, adds, saved form
 * and top-k scoring are ours (a hash-map term dictionary with compact postings, pre-counted adds, a
 * packed saved form, {@link SearchEngine.searchTop}); results, counts and BM25 statistics are
 * MiniSearch's. See README.md beside this file for its invariants and the tests that hold them.
 */
export class SearchEngine<T> extends MiniSearch<T> {
  private readonly stemming: boolean;
  private scanner: TermScanner | null = null;
  private readonly counts = new TermCounts();
  private readonly scorer = new TopScorer();
  /** Per-document facts the scorer reads, by short id. */
  private readonly facts: DocFacts;

  constructor(options: Options<T>, analysis: AnalysisOptions = {}) {
    // MiniSearch's own vacuum turns every term's postings into maps; {@link SearchEngine.vacuum}
    // sweeps the compact postings instead, and the owner decides when (see SearchService).
    super({ ...options, autoVacuum: false });
    this.stemming = analysis.stemming ?? true;
    this.facts = new DocFacts(Object.keys(this._fieldIds).length);
    // TermMap implements the members of SearchableMap that MiniSearch calls (see term-map.ts).
    this._index = new TermMap() as unknown as MiniIndexField;
  }

  /**
   * Restores an index saved with {@link SearchEngine.toSaved}. Postings stay packed until used.
   * Throws `Error` when `saved` is malformed, fails its checksum or its fields differ from
   * `options.fields`.
   */
  static fromSaved<D>(
    saved: SavedMiniIndex,
    options: Options<D>,
    analysis: AnalysisOptions = {},
  ): SearchEngine<D> {
    const index = new SearchEngine<D>(options, analysis);
    index.restoreFrom(saved);
    return index;
  }

  /**
   * Restores an index saved with {@link SearchEngine.savedState} and {@link SearchEngine.toBinary}.
   * `terms` is the term dictionary of format 11, used as saved (see {@link SavedTerms}), or the
   * terms of format 10 joined by `\n` (hashed again here). Term `k`'s postings are
   * `postings.bytes[start[k], end[k])`, checked with `postings.verify` and decoded when the term is
   * first used. Throws `Error` when `state` is malformed, its fields differ from `options.fields`
   * or the counts of terms and postings differ.
   */
  static fromBinary<D>(
    state: SavedEngineState,
    terms: SavedTerms | string,
    postings: Omit<SavedPostings, "maxDoc">,
    options: Options<D>,
    analysis: AnalysisOptions = {},
  ): SearchEngine<D> {
    const index = new SearchEngine<D>(options, analysis);
    index.restoreState(state);
    const saved = { ...postings, maxDoc: index._nextId };
    index._index = (typeof terms === "string"
      ? TermMap.fromBytes(terms, saved)
      : TermMap.fromSavedTerms(terms, saved)) as unknown as MiniIndexField;
    return index;
  }

  /** Counts, fields and documents as saved (see {@link SavedEngineState}); a snapshot. */
  savedState(): SavedEngineState {
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
    return {
      documentCount: this._documentCount,
      nextId: this._nextId,
      shortIds,
      documentIds,
      fieldIds: { ...this._fieldIds },
      fieldLength,
      averageFieldLength: [...this._avgFieldLength],
      dirtCount: this._dirtCount,
    };
  }

  /**
   * The terms and postings as bytes (see {@link BinaryTerms}), `batchSize` term ids at a time,
   * awaiting `yieldToHost` between batches so a save does not hold the thread: postings restored
   * from bytes and not used since are copied, the rest encoded. Must not run alongside adds,
   * discards or a vacuum (the service queues them). Throws `Error` for a term holding white space
   * or saved bytes that fail their checksum.
   */
  async toBinary(
    options: { batchSize?: number; yieldToHost?: () => Promise<void> } = {},
  ): Promise<BinaryTerms> {
    const map = this.termMap();
    const out = new ByteWriter(1 << 20);
    const terms: string[] = [];
    const ends: number[] = [];
    const batch = Math.max(1, options.batchSize ?? 16384);
    for (let from = 0; from < map.idCount; from += batch) {
      map.writeRange(out, terms, ends, from, from + batch);
      if (options.yieldToHost) await options.yieldToHost();
    }
    return {
      terms: await SavedTerms.encode(terms, options.yieldToHost),
      postings: out.view(),
      ends: Uint32Array.from(ends),
    };
  }

  /** The index in its saved form (see {@link SavedMiniIndex}). */
  toSaved(): SavedMiniIndex {
    const terms: string[] = [];
    const postings: string[] = [];
    for (const [term, packed] of this.termMap().packedEntries()) {
      if (/\s/.test(term))
        throw new Error(`MiniSearch: term "${term}" holds white space and cannot be saved`);
      terms.push(term);
      postings.push(packed);
    }
    const joinedTerms = terms.join("\n");
    const joinedPostings = postings.join("\n");
    return {
      ...this.savedState(),
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
  addText(
    id: string,
    texts: readonly string[],
    fields: readonly string[],
    memo?: SegmentMemo,
  ): void {
    const terms = this.termMap();
    this.scanner ??= new TermScanner(terms, { stemming: this.stemming });
    const scanner = this.scanner;
    const counts = this.counts;
    this.addDocument(id, fields, (f, fieldId, shortId) => {
      scanner.count(texts[f] ?? "", counts, memo);
      return terms.appendCounts(counts, fieldId, shortId);
    });
  }

  /**
   * Adds a document from its counted terms, one map per field in the order of `fields` (see
   * {@link countTerms}). Throws, like `add()`, when the id is already indexed.
   */
  addCounted(
    id: string,
    fieldTerms: readonly Map<string, number>[],
    fields: readonly string[],
  ): void {
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
   * terms, the field's length: MiniSearch's when `processTerm` is the identity, see the module
   * comment) and the field's average length.
   */
  private addDocument(
    id: string,
    fields: readonly string[],
    addField: (f: number, fieldId: number, shortId: number) => number,
  ): void {
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
      this.facts.setLength(shortId, fieldId, distinct);
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
   * sorting them all was most of its time (query p95, bench/results/search.md).
   * @param boostDocument MiniSearch's document boost, also given the document's short id (stable
   *   until the document is discarded); it must depend on the document alone (it is asked
   *   once per document and query)
   * @param limit most results in `top`: its whole part; 0 or less (or NaN) gives none, `total`
   *   still counts the matches (as `search()` sliced to `limit` would)
   * @param required terms a document must have matched to count (the terms of quoted phrases)
   * @param options see {@link TopOptions}
   * As `search()` does, it drops postings of discarded documents that it meets, also when a
   * required term is in no document (test/core/search/search-minisearch-parity.test.ts).
   * Falls back to `search()` when the index's search options use prefix, fuzzy, term boosts, field
   * lists, AND combination or a default `filter` (MiniSearch's filter is given whole results),
   * or when there are more than {@link MAX_MASK_TERMS} distinct terms.
   */
  searchTop(
    terms: readonly string[],
    boostDocument: (id: string, shortId: number) => number,
    limit: number,
    required: readonly string[] = [],
    options: TopOptions = {},
  ): TopResults {
    const query = terms
      .join(" ")
      .split(" ")
      .filter((t) => t !== "");
    const unique = [...new Set(query)];
    const size = limit > 0 ? Math.floor(limit) : 0;
    const opts = (this._options.searchOptions ?? {}) as Record<string, unknown>;
    const simple =
      !opts.prefix &&
      !opts.fuzzy &&
      opts.boostTerm === undefined &&
      opts.fields === undefined &&
      opts.filter == null &&
      (opts.combineWith === undefined ||
        (typeof opts.combineWith === "string" && opts.combineWith.toLowerCase() === "or"));
    if (!simple || unique.length > MAX_MASK_TERMS)
      return this.searchTopSlow(query, boostDocument, size, required);

    const boost = (opts.boost ?? {}) as Record<string, number | undefined>;
    // MiniSearch scores fields in the order of its `fields` option, which is field id order.
    const fieldBoosts: number[] = [];
    for (const field of this._options.fields) {
      const fieldId = this._fieldIds[field];
      if (fieldId !== undefined)
        fieldBoosts[fieldId] =
          (Object.prototype.hasOwnProperty.call(boost, field) ? boost[field] : undefined) || 1;
    }
    const bm25 = (opts.bm25 as Bm25Params | undefined) ?? DEFAULT_BM25;
    const view = this.scoringView();
    const topQuery: TopQuery = {
      query,
      unique,
      fieldBoosts,
      bm25,
      boostDocument,
      limit: size,
      required,
      maxBoost: options.exhaustive ? Infinity : (options.maxBoost ?? Infinity),
    };
    return maxScoreTop(view, topQuery) ?? this.scorer.run(view, topQuery, this._nextId);
  }

  /** What the {@link TopScorer} reads (see {@link ScoringIndex}). */
  private scoringView(): ScoringIndex {
    const facts = this.facts;
    facts.ensure(this._nextId);
    const self = this as unknown as {
      removeTerm(fieldId: number, docId: number, term: string): void;
    };
    return {
      documentCount: this._documentCount,
      dirty: this._dirtCount > 0,
      avgFieldLength: this._avgFieldLength,
      alive: facts.alive,
      lengths: facts.lengths,
      stride: facts.stride,
      learn: (docId) =>
        facts.learn(
          docId,
          this._documentIds.has(docId) ? (this._fieldLength.get(docId) ?? []) : null,
        ),
      idOf: (docId) => String(this._documentIds.get(docId)),
      removeTerm: (fieldId, docId, term) => self.removeTerm(fieldId, docId, term),
      dictionary: this.termMap(),
    };
  }

  /** Removes a document (MiniSearch's `discard`), and marks it gone for {@link TopScorer}. */
  override discard(id: unknown): void {
    const shortId = this._idToShortId.get(id);
    super.discard(id);
    if (shortId !== undefined) this.facts.kill(shortId);
  }

  /**
   * MiniSearch's `vacuum` (postings of discarded documents removed, dirt count reset), done on the
   * compact postings; between batches of `batchSize` terms it awaits `yieldToHost` (when given)
   * so a host's UI stays responsive. Must not run alongside adds or discards.
   */
  override async vacuum(
    options: { batchSize?: number; yieldToHost?: () => Promise<void> } = {},
  ): Promise<void> {
    const dirt = this._dirtCount;
    const terms = this.termMap();
    const gone = (docId: number): boolean => !this._documentIds.has(docId);
    const batch = Math.max(1, options.batchSize ?? 4096);
    for (let from = 0; from < terms.idCount; from += batch) {
      terms.sweep(gone, from, from + batch);
      if (options.yieldToHost) await options.yieldToHost();
    }
    this._dirtCount -= dirt;
  }

  /** MiniSearch's `remove`, marking the document gone for {@link TopScorer}. */
  override remove(document: T): void {
    const id: unknown = this._options.extractField(document, this._options.idField);
    const shortId = this._idToShortId.get(id);
    super.remove(document);
    if (shortId !== undefined) this.facts.kill(shortId);
  }

  /**
   * MiniSearch's `removeAll`. Given documents, removes each (see {@link SearchEngine.remove});
   * given none, empties the index as MiniSearch does (documents, field lengths and averages gone,
   * short ids from 0 again, the dirt count kept) together with what this class keeps beside it: a
   * new {@link TermMap} (built, compact and packed postings go with the old one), a new
   * {@link TermScanner} (its word memo holds the old map's term ids) and forgotten document
   * facts. Short ids are reused after it: a caller keeping data by short id (what `searchTop`'s
   * document boost is given) must drop it. Throws, like MiniSearch's, when given a falsy argument.
   * Must not run alongside {@link SearchEngine.vacuum}.
   */
  override removeAll(...args: [documents?: readonly T[]]): void {
    // MiniSearch tells `removeAll()` from `removeAll(undefined)` (an error) by the argument count.
    if (args.length > 0) {
      super.removeAll(...args);
      return;
    }
    super.removeAll();
    this._index = new TermMap() as unknown as MiniIndexField;
    this.scanner = null;
    this.facts.reset();
  }

  /** {@link SearchEngine.searchTop} through MiniSearch's own search. */
  private searchTopSlow(
    query: string[],
    boostDocument: (id: string, shortId: number) => number,
    limit: number,
    required: readonly string[],
  ): TopResults {
    const hits: TopHit[] = [];
    const boost = (id: unknown): number =>
      boostDocument(id as string, this._idToShortId.get(id) ?? -1);
    for (const r of this.search(query.join(" "), { boostDocument: boost })) {
      const matched = new Set(r.queryTerms);
      if (required.every((t) => matched.has(t)))
        hits.push({ id: r.id as string, score: r.score, queryTerms: r.queryTerms });
    }
    return { total: hits.length, top: hits.slice(0, limit) };
  }

  /** Groups the postings added since the last read by term (see `TermMap.flush`); call at the end of a build. */
  flush(): void {
    this.termMap().flush();
  }

  /** The short id of an indexed document (what `searchTop`'s document boost is given), or -1. */
  shortIdOf(id: string): number {
    return this._idToShortId.get(id) ?? -1;
  }

  /**
   * The ids of the indexed documents holding every one of `terms` in some field (a phrase's
   * required words, see `phraseRequiredTerms`): the rarest term's documents, kept where each other
   * term's postings hold them too. Discarded documents are left out. Empty when a term is in no
   * document. Throws `Error` when a term's packed postings are malformed (see `TermMap.lookup`).
   * @param terms index terms (as the query tokenizer gives them); at least one
   */
  documentsWithEvery(terms: readonly string[]): Set<string> {
    const dictionary = this.termMap();
    const lists: (Postings | CompactPostings)[] = [];
    for (const term of new Set(terms)) {
      const data = dictionary.lookup(term);
      if (data === undefined) return new Set();
      lists.push(data);
    }
    lists.sort((a, b) => postingCount(a) - postingCount(b));
    let kept = lists.length > 0 ? postingDocuments(lists[0]!) : new Set<number>();
    for (let k = 1; k < lists.length && kept.size > 0; k++) {
      const docs = postingDocuments(lists[k]!);
      kept = new Set([...kept].filter((d) => docs.has(d)));
    }
    const ids = new Set<string>();
    for (const docId of kept) {
      // Document ids are the notes' paths (strings).
      const id = this._documentIds.get(docId) as string | undefined;
      if (id !== undefined) ids.add(id);
    }
    return ids;
  }

  /**
   * The entries of `term`'s postings, one per field and document holding it (so at least its
   * document frequency and at most the fields times it; discarded documents may be counted), 0
   * when no document has it. Throws `Error` like `documentsWithEvery`.
   */
  postingSize(term: string): number {
    const data = this.termMap().lookup(term);
    return data === undefined ? 0 : postingCount(data);
  }

  /** True when some indexed note has the term (in any field). */
  hasTerm(term: string): boolean {
    return this.termMap().has(term);
  }

  private termMap(): TermMap {
    return this._index as unknown as TermMap;
  }

  private restoreFrom(saved: SavedMiniIndex): void {
    this.restoreState(saved);
    if (typeof saved.terms !== "string" || typeof saved.postings !== "string")
      throw new Error("bad terms");
    if (checksumOf(saved.terms, saved.postings) !== saved.checksum)
      throw new Error("checksum mismatch");
    this._index = TermMap.fromSaved(saved.terms, saved.postings) as unknown as MiniIndexField;
  }

  /** Checks and takes the counts, fields and documents of a saved index. Throws `Error` when malformed. */
  private restoreState(saved: SavedEngineState): void {
    this.scanner = null;
    this.facts.reset();
    const fields = Object.keys(this._fieldIds).sort().join(",");
    if (
      typeof saved !== "object" ||
      saved === null ||
      Object.keys(saved.fieldIds ?? {})
        .sort()
        .join(",") !== fields
    ) {
      throw new Error("saved index has other fields");
    }
    if (
      ![saved.documentCount, saved.nextId, saved.dirtCount].every(
        (n) => Number.isInteger(n) && n >= 0,
      )
    ) {
      throw new Error("saved index counts are not whole numbers");
    }
    const numbers = (v: unknown): v is number[] =>
      Array.isArray(v) && v.every((n) => typeof n === "number");
    const fieldCount = Object.keys(saved.fieldIds).length;
    if (
      !numbers(saved.shortIds) ||
      !Array.isArray(saved.documentIds) ||
      !saved.documentIds.every((d) => typeof d === "string") ||
      saved.documentIds.length !== saved.shortIds.length
    ) {
      throw new Error("bad document ids");
    }
    if (
      !numbers(saved.fieldLength) ||
      saved.fieldLength.length !== saved.shortIds.length * fieldCount
    )
      throw new Error("bad field lengths");
    if (!numbers(saved.averageFieldLength)) throw new Error("bad average field lengths");
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
        if (n >= 0) {
          lengths[f] = n;
          this.facts.setLength(shortId, f, n);
        }
      }
      this._fieldLength.set(shortId, lengths);
    });
  }
}
