/**
 * The term dictionary behind each MiniSearch index (see {@link CountingIndex}): a hash map in place
 * of MiniSearch's radix tree (`SearchableMap`).
 *
 * Why: the radix tree finds a child by scanning a node's children, once per term per note added,
 * and rebuilding it is most of the cost of building and of reloading a saved index. Search here
 * looks terms up exactly (no prefix or fuzzy matching), which a hash map does in constant time.
 * A radix tree is still built, on first use, if a caller asks MiniSearch for prefix or fuzzy
 * matching (`atPrefix`, `fuzzyGet`), and dropped whenever the set of terms changes.
 *
 * Postings restored from a saved index stay in their packed text form (see {@link packPostings})
 * until a search or an update first touches the term, so reloading does not rebuild millions of
 * posting maps.
 *
 * It implements the part of `SearchableMap` that MiniSearch 7.2 calls: `get`, `has`, `set`,
 * `fetch`, `delete`, `size`, iteration, `atPrefix`, `fuzzyGet`.
 */
import SearchableMap from "minisearch/SearchableMap";

/** The syntax {@link packPostings} writes. */
const PACKED_FIELD = "\\d+:(?:[0-9a-z]+(?:\\.[0-9a-z]+)?(?:,[0-9a-z]+(?:\\.[0-9a-z]+)?)*)?";
const PACKED_RE = new RegExp(`^(?:${PACKED_FIELD}(?:\\|${PACKED_FIELD})*)?$`);

/** Postings of one term: field id → (short document id → term frequency). */
export type Postings = Map<number, Map<number, number>>;

/**
 * Packs postings as text: fields joined by `|`, each `fieldId:` then comma-separated document
 * ids as base-36 deltas from the previous id, with `.tf` (base 36) when the frequency is not 1.
 */
export function packPostings(postings: Postings): string {
  const fields: string[] = [];
  for (const [fieldId, docs] of postings) {
    const ids = [...docs.keys()].sort((a, b) => a - b);
    let prev = 0;
    const parts: string[] = [];
    for (const id of ids) {
      const tf = docs.get(id) ?? 1;
      parts.push(tf === 1 ? (id - prev).toString(36) : `${(id - prev).toString(36)}.${tf.toString(36)}`);
      prev = id;
    }
    fields.push(`${fieldId}:${parts.join(",")}`);
  }
  return fields.join("|");
}

/**
 * Postings appended while building and not yet used: `fieldId, docId, tf` triples in the order
 * added. Appending numbers to one array per term is much cheaper than growing a map per term and
 * field; the maps are built when a search or an update first touches the term.
 */
type Appended = number[];

/** The postings {@link packPostings} and MiniSearch see for appended triples. */
function postingsOf(appended: Appended): Postings {
  const postings: Postings = new Map();
  for (let i = 0; i + 2 < appended.length; i += 3) {
    const fieldId = appended[i] ?? 0;
    const docId = appended[i + 1] ?? 0;
    const tf = appended[i + 2] ?? 0;
    let docs = postings.get(fieldId);
    if (docs === undefined) {
      docs = new Map();
      postings.set(fieldId, docs);
    }
    docs.set(docId, (docs.get(docId) ?? 0) + tf);
  }
  return postings;
}

/** Inverse of {@link packPostings}. Throws `Error` on text that is not packed postings. */
export function unpackPostings(packed: string): Postings {
  const postings: Postings = new Map();
  if (packed === "") return postings;
  for (const field of packed.split("|")) {
    const colon = field.indexOf(":");
    const fieldId = Number.parseInt(field.slice(0, colon), 10);
    if (colon < 1 || !Number.isFinite(fieldId)) throw new Error(`bad postings field "${field.slice(0, 20)}"`);
    const docs = new Map<number, number>();
    let prev = 0;
    const body = field.slice(colon + 1);
    if (body !== "") {
      for (const part of body.split(",")) {
        const dot = part.indexOf(".");
        const id = prev + Number.parseInt(dot < 0 ? part : part.slice(0, dot), 36);
        const tf = dot < 0 ? 1 : Number.parseInt(part.slice(dot + 1), 36);
        if (!Number.isFinite(id) || !Number.isFinite(tf)) throw new Error(`bad posting "${part}"`);
        docs.set(id, tf);
        prev = id;
      }
    }
    postings.set(fieldId, docs);
  }
  return postings;
}

/** A hash-map term dictionary with the `SearchableMap` interface MiniSearch uses. */
export class TermMap {
  private readonly terms = new Map<string, Postings | string | Appended>();
  private tree: SearchableMap<Postings> | null = null;

  /**
   * Restores terms from `[term, packed postings]` pairs without unpacking them. Each packed text is
   * checked against the packed syntax, so a damaged saved index fails here, not at search time.
   * Throws `Error` naming the first malformed term.
   */
  static fromPacked(entries: Iterable<[string, string]>): TermMap {
    const map = new TermMap();
    for (const [term, packed] of entries) {
      if (!PACKED_RE.test(packed)) throw new Error(`bad postings for term "${term.slice(0, 40)}"`);
      map.terms.set(term, packed);
    }
    return map;
  }

  /** `[term, packed postings]` pairs; terms never touched since loading are not repacked. */
  *packedEntries(): IterableIterator<[string, string]> {
    for (const [term, value] of this.terms) {
      yield [term, typeof value === "string" ? value : packPostings(Array.isArray(value) ? postingsOf(value) : value)];
    }
  }

  get size(): number {
    return this.terms.size;
  }

  get(term: string): Postings | undefined {
    const value = this.terms.get(term);
    if (value === undefined || value instanceof Map) return value;
    const postings = typeof value === "string" ? unpackPostings(value) : postingsOf(value);
    this.terms.set(term, postings);
    return postings;
  }

  /**
   * Adds `tf` occurrences of `term` in field `fieldId` of document `docId`, as
   * `fetch(term).get(fieldId).set(docId, …)` would, without building maps for a term not used yet.
   */
  append(term: string, fieldId: number, docId: number, tf: number): void {
    const value = this.terms.get(term);
    if (value === undefined) {
      this.terms.set(term, [fieldId, docId, tf]);
      this.tree = null;
    } else if (Array.isArray(value)) {
      value.push(fieldId, docId, tf);
    } else {
      const postings = this.get(term) ?? new Map<number, Map<number, number>>();
      let docs = postings.get(fieldId);
      if (docs === undefined) {
        docs = new Map();
        postings.set(fieldId, docs);
      }
      docs.set(docId, (docs.get(docId) ?? 0) + tf);
    }
  }

  has(term: string): boolean {
    return this.terms.has(term);
  }

  set(term: string, postings: Postings): this {
    if (!this.terms.has(term)) this.tree = null;
    this.terms.set(term, postings);
    return this;
  }

  fetch(term: string, initial: () => Postings): Postings {
    const existing = this.get(term);
    if (existing !== undefined) return existing;
    const created = initial();
    this.terms.set(term, created);
    this.tree = null;
    return created;
  }

  delete(term: string): void {
    if (this.terms.delete(term)) this.tree = null;
  }

  clear(): void {
    this.terms.clear();
    this.tree = null;
  }

  *entries(): IterableIterator<[string, Postings]> {
    for (const term of this.terms.keys()) {
      const postings = this.get(term);
      if (postings !== undefined) yield [term, postings];
    }
  }

  keys(): IterableIterator<string> {
    return this.terms.keys();
  }

  *values(): IterableIterator<Postings> {
    for (const [, postings] of this.entries()) yield postings;
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

  private radixTree(): SearchableMap<Postings> {
    this.tree ??= SearchableMap.from(this.entries());
    return this.tree;
  }
}
