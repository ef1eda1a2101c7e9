/**
 * Postings of one term in their three data forms, and the conversions between them (see
 * {@link TermMap} for when each is used):
 * - a map `fieldId → docId → tf` (MiniSearch's own form);
 * - compact: an `Int32Array` of `fieldId, docId, tf` triples sorted by field, then document;
 * - packed text, as saved (see {@link packPostings}).
 * Built postings (triples in the order a build added them: by document, then field) become compact
 * with {@link compactOfBuilt}.
 */

/** Postings of one term: field id → (short document id → term frequency). */
export type Postings = Map<number, Map<number, number>>;

/** Postings as `fieldId, docId, tf` triples, sorted by field id, then document id. */
export type CompactPostings = Int32Array;

/** Postings as added while building: triples in document, then field order (see the module comment). */
export type BuiltPostings = Uint32Array;

/**
 * Packs postings as text: fields in ascending order joined by `|`, each `fieldId:` then
 * comma-separated document ids as base-36 deltas from the previous id, with `.tf` (base 36) when
 * the frequency is not 1.
 */
export function packPostings(postings: Postings): string {
  return packCompact(compactOf(postings));
}

/** {@link packPostings} of compact postings. */
export function packCompact(c: CompactPostings): string {
  const fields: string[] = [];
  let parts: string[] = [];
  let field = -1;
  let prev = 0;
  for (let i = 0; i < c.length; i += 3) {
    const f = c[i] ?? 0;
    const id = c[i + 1] ?? 0;
    const tf = c[i + 2] ?? 1;
    if (f !== field) {
      if (field >= 0) fields.push(`${field}:${parts.join(",")}`);
      parts = [];
      field = f;
      prev = 0;
    }
    parts.push(
      tf === 1 ? (id - prev).toString(36) : `${(id - prev).toString(36)}.${tf.toString(36)}`,
    );
    prev = id;
  }
  if (field >= 0) fields.push(`${field}:${parts.join(",")}`);
  return fields.join("|");
}

/** Compact form of map postings (fields and documents sorted). */
export function compactOf(postings: Postings): CompactPostings {
  let n = 0;
  for (const docs of postings.values()) n += docs.size;
  const out = new Int32Array(n * 3);
  let k = 0;
  for (const fieldId of [...postings.keys()].sort((a, b) => a - b)) {
    const docs = postings.get(fieldId) ?? new Map<number, number>();
    for (const id of [...docs.keys()].sort((a, b) => a - b)) {
      out[k++] = fieldId;
      out[k++] = id;
      out[k++] = docs.get(id) ?? 0;
    }
  }
  return out;
}

/**
 * Compact form of built postings: a stable partition by field (documents stay in order). Rows
 * already in field order (a note in one field) are copied as they are.
 */
export function fieldMajor(b: BuiltPostings): CompactPostings {
  const rows = b.length / 3;
  let fields = 0;
  let ordered = true;
  for (let i = 0; i < b.length; i += 3) {
    const f = b[i] ?? 0;
    if (f + 1 > fields) fields = f + 1;
    if (i > 0 && f < (b[i - 3] ?? 0)) ordered = false;
  }
  if (ordered) return new Int32Array(b);
  const start = new Int32Array(fields + 1);
  for (let i = 0; i < b.length; i += 3) {
    const k = (b[i] ?? 0) + 1;
    start[k] = (start[k] ?? 0) + 1;
  }
  for (let f = 0; f < fields; f++) start[f + 1] = (start[f + 1] ?? 0) + (start[f] ?? 0);
  const out = new Int32Array(rows * 3);
  for (let i = 0; i < b.length; i += 3) {
    const f = b[i] ?? 0;
    const at = (start[f] ?? 0) * 3;
    start[f] = (start[f] ?? 0) + 1;
    out[at] = f;
    out[at + 1] = b[i + 1] ?? 0;
    out[at + 2] = b[i + 2] ?? 0;
  }
  return out;
}

/** Map form of compact postings. */
export function mapOf(c: CompactPostings): Postings {
  const postings: Postings = new Map();
  let docs: Map<number, number> | undefined;
  let field = -1;
  for (let i = 0; i < c.length; i += 3) {
    const f = c[i] ?? 0;
    if (f !== field || docs === undefined) {
      field = f;
      docs = postings.get(f);
      if (docs === undefined) {
        docs = new Map();
        postings.set(f, docs);
      }
    }
    const id = c[i + 1] ?? 0;
    docs.set(id, (docs.get(id) ?? 0) + (c[i + 2] ?? 0));
  }
  return postings;
}

/** Value of a base-36 digit's character code, or -1. */
function digit36(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 122) return c - 87;
  return -1;
}

/** Inverse of {@link packCompact}. Throws `Error` on text that is not packed postings. */
export function unpackCompact(packed: string): CompactPostings {
  if (packed === "") return new Int32Array(0);
  let entries = 1;
  for (let i = 0; i < packed.length; i++) {
    const c = packed.charCodeAt(i);
    if (c === 44 || c === 124) entries++;
  }
  const out = new Int32Array(entries * 3);
  const bad = (): Error => new Error(`bad postings "${packed.slice(0, 40)}"`);
  let k = 0;
  let i = 0;
  let sorted = true;
  let lastField = -1;
  const n = packed.length;
  while (i < n) {
    // Field id (decimal), then ':'.
    let field = 0;
    const fieldStart = i;
    for (let c = packed.charCodeAt(i); c >= 48 && c <= 57; c = packed.charCodeAt(++i))
      field = field * 10 + (c - 48);
    if (i === fieldStart || packed.charCodeAt(i) !== 58) throw bad();
    i++;
    if (field <= lastField) sorted = false;
    lastField = field;
    let prev = 0;
    // Documents: delta[.tf] separated by ','; the field ends at '|' or the end.
    while (i < n && packed.charCodeAt(i) !== 124) {
      let delta = 0;
      const start = i;
      for (let d = digit36(packed.charCodeAt(i)); d >= 0; d = digit36(packed.charCodeAt(++i)))
        delta = delta * 36 + d;
      if (i === start) throw bad();
      let tf = 1;
      if (packed.charCodeAt(i) === 46) {
        i++;
        tf = 0;
        const tfStart = i;
        for (let d = digit36(packed.charCodeAt(i)); d >= 0; d = digit36(packed.charCodeAt(++i)))
          tf = tf * 36 + d;
        if (i === tfStart) throw bad();
      }
      prev += delta;
      out[k++] = field;
      out[k++] = prev;
      out[k++] = tf;
      const c = packed.charCodeAt(i);
      if (c === 44) {
        i++;
        if (i >= n || packed.charCodeAt(i) === 124) throw bad();
      } else if (i < n && c !== 124) throw bad();
    }
    if (i < n) {
      i++;
      if (i >= n) throw bad();
    }
  }
  const result = out.subarray(0, k);
  return sorted ? result : compactOf(mapOf(result));
}

/** Inverse of {@link packPostings}. Throws `Error` on text that is not packed postings. */
export function unpackPostings(packed: string): Postings {
  return mapOf(unpackCompact(packed));
}

/**
 * Compact form of built triples. Documents are added in id order, so built rows are sorted by
 * document; anything else (direct appends in any order, repeated documents) is merged.
 */
export function compactOfBuilt(rows: BuiltPostings): CompactPostings {
  return isSorted(rows) ? fieldMajor(rows) : compactOf(mapOf(fieldMajor(rows)));
}

/** True when built rows are strictly ascending by (document, field). */
function isSorted(rows: BuiltPostings): boolean {
  for (let i = 3; i < rows.length; i += 3) {
    const d = rows[i + 1] ?? 0;
    const e = rows[i - 2] ?? 0;
    if (d < e || (d === e && (rows[i] ?? 0) <= (rows[i - 3] ?? 0))) return false;
  }
  return true;
}

/** Postings entries (one per field and document) of a term's postings in either form. */
export function postingCount(data: Postings | CompactPostings): number {
  if (!(data instanceof Map)) return data.length / 3;
  let n = 0;
  for (const docs of data.values()) n += docs.size;
  return n;
}

/**
 * The documents (short ids) a term's postings hold, in any field, or in the fields `inField`
 * lets through.
 */
export function postingDocuments(
  data: Postings | CompactPostings,
  inField: (fieldId: number) => boolean = () => true,
): Set<number> {
  const docs = new Set<number>();
  if (data instanceof Map) {
    for (const [fieldId, freqs] of data)
      if (inField(fieldId)) for (const docId of freqs.keys()) docs.add(docId);
  } else for (let i = 0; i < data.length; i += 3) if (inField(data[i]!)) docs.add(data[i + 1]!);
  return docs;
}
