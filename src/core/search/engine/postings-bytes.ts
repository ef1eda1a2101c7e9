/**
 * Postings as bytes, the saved index's form since format 10 (docs/decisions.md, "Saved index
 * format 10: binary, read on demand"): a term's compact postings as variable-length integers
 * (LEB128: seven bits a byte, low bits first, the high bit set on every byte but the last).
 *
 * A term's bytes are, for each field in ascending order: the field id, the number of its
 * documents, then per document `(delta << 1) | (tf > 1)` where `delta` is the document id less the
 * previous one in the field (the first: less 0), followed by `tf` when that bit is set. Every
 * value is a non-negative integer below 2³¹.
 */
import type { CompactPostings } from "./postings";

/**
 * Thrown when saved postings, read on demand, turn out damaged (their bytes fail a checksum or do
 * not decode); the search service rebuilds the index and answers from the new one.
 */
export class CorruptPostingsError extends Error {}

/** A growable byte buffer that writes variable-length integers and byte ranges. */
export class ByteWriter {
  bytes: Uint8Array;
  length = 0;

  constructor(capacity = 1 << 16) {
    this.bytes = new Uint8Array(Math.max(16, capacity));
  }

  /** Makes room for `n` more bytes. */
  reserve(n: number): void {
    if (this.length + n <= this.bytes.length) return;
    let size = this.bytes.length * 2;
    while (size < this.length + n) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  /** Appends a non-negative integer below 2³¹ as a variable-length integer (1–5 bytes). */
  varint(value: number): void {
    this.reserve(5);
    let v = value >>> 0;
    const b = this.bytes;
    while (v >= 0x80) {
      b[this.length++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    b[this.length++] = v;
  }

  /** Appends bytes as they are. */
  append(data: Uint8Array): void {
    this.reserve(data.length);
    this.bytes.set(data, this.length);
    this.length += data.length;
  }

  /** The bytes written so far (a view, not a copy). */
  view(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }
}

/** Appends compact postings (fields, then documents, ascending) to `out` in the form above. */
export function writeCompact(c: CompactPostings, out: ByteWriter): void {
  let i = 0;
  while (i < c.length) {
    const field = c[i] ?? 0;
    let end = i;
    while (end < c.length && c[end] === field) end += 3;
    out.varint(field);
    out.varint((end - i) / 3);
    let prev = 0;
    for (; i < end; i += 3) {
      const id = c[i + 1] ?? 0;
      const tf = c[i + 2] ?? 1;
      out.varint(((id - prev) << 1) | (tf > 1 ? 1 : 0));
      if (tf > 1) out.varint(tf);
      prev = id;
    }
  }
}

/**
 * Reads the postings {@link writeCompact} wrote at `bytes[start, end)`.
 * Throws `Error` when the bytes are not such postings (cut short, trailing bytes, fields out of
 * order, a document id decreasing or at least `maxDoc`, a frequency below 2 where one is written).
 */
export function readCompact(
  bytes: Uint8Array,
  start: number,
  end: number,
  maxDoc: number,
): CompactPostings {
  let at = start;
  const bad = (why: string): Error => new Error(`bad postings at byte ${start} (${why})`);
  const next = (): number => {
    let v = 0;
    let shift = 0;
    for (;;) {
      if (at >= end) throw bad("cut short");
      const b = bytes[at++] ?? 0;
      if (shift === 28 && b > 0x07) throw bad("integer too large");
      v |= (b & 0x7f) << shift;
      if (b < 0x80) return v >>> 0;
      shift += 7;
    }
  };
  // First pass counts rows, so the output is allocated once.
  const rows: number[] = [];
  let lastField = -1;
  while (at < end) {
    const field = next();
    if (field <= lastField) throw bad("fields out of order");
    lastField = field;
    const n = next();
    if (n === 0) throw bad("empty field");
    let id = 0;
    for (let k = 0; k < n; k++) {
      const code = next();
      const delta = code >>> 1;
      if (k > 0 && delta === 0) throw bad("document repeated");
      id += delta;
      if (id >= maxDoc) throw bad("document id out of range");
      let tf = 1;
      if (code & 1) {
        tf = next();
        if (tf < 2) throw bad("frequency");
      }
      rows.push(field, id, tf);
    }
  }
  return Int32Array.from(rows);
}

/**
 * FNV-1a over `bytes[start, end)`, as a 32-bit integer. `seed` continues a hash: the hash of the
 * bytes before `start` (so a long run can be hashed in pieces), FNV's offset basis by default.
 */
export function hashBytes(
  bytes: Uint8Array,
  start = 0,
  end = bytes.length,
  seed = 0x811c9dc5,
): number {
  let h = seed;
  for (let i = start; i < end; i++) h = Math.imul(h ^ (bytes[i] ?? 0), 0x01000193);
  return h | 0;
}
