/**
 * The term dictionary of a saved index as it is saved (format 11): the terms' UTF-8 bytes end to
 * end, where each term starts, and the open-addressing hash table over them, keyed by the FNV-1a
 * of {@link hashSpan} (the hash {@link SpanTable} uses). A saved index opens without a rebuild of
 * its dictionary: a query's term is found by probing the saved table and comparing its UTF-8
 * bytes in place; no term's string is made until one is asked for ({@link SavedTerms.keyAt}).
 *
 * Why: format 10 saved the terms joined by `\n`; opening it split them and hashed every one into a
 * fresh {@link SpanTable}, 127 ms of a 459 ms no-server hook at 10k notes (257k terms), before the
 * first query (docs/decisions.md, "Saved index format 11: the term dictionary as saved").
 */
import { CorruptPostingsError } from "./postings-bytes";
import { hashSpan } from "./span-table";

/** Slots per term at least (load factor at most one half, so a miss ends soon). */
const SLOTS_PER_TERM = 2;

/** A saved term dictionary's three parts (see {@link SavedTerms}). */
export interface SavedTermsParts {
  /** Every term's UTF-8 bytes, end to end, in term order. */
  bytes: Uint8Array;
  /** Term `k` is `bytes[starts[k], starts[k + 1])`: one entry per term, then `bytes.length`. */
  starts: Uint32Array;
  /** A power of two of slots, each a term's index + 1 (0: empty), placed by {@link hashSpan} with linear probing. */
  slots: Uint32Array;
}

/** The number of UTF-8 bytes `TextEncoder` writes for `text` (a lone surrogate: 3, as U+FFFD). */
function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c < 0xdc00 && isLow(text.charCodeAt(i + 1))) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

function isLow(c: number): boolean {
  return c >= 0xdc00 && c < 0xe000;
}

/** A saved term dictionary, read in place (see the file's comment). */
export class SavedTerms {
  private readonly bytes: Uint8Array;
  private readonly starts: Uint32Array;
  private readonly slots: Uint32Array;
  private readonly mask: number;
  private decoder: TextDecoder | null = null;

  /**
   * Takes the parts as saved, checking their shape (not their content: the file's checksums do):
   * throws `Error` naming what is wrong when `starts` does not run from 0 to `bytes.length` in
   * order or `slots` is not a power of two with room for every term.
   */
  constructor(parts: SavedTermsParts) {
    const { bytes, starts, slots } = parts;
    const count = starts.length - 1;
    if (count < 0 || starts[0] !== 0 || starts[count] !== bytes.length)
      throw new Error(
        `bad term dictionary: term starts do not span the terms' ${bytes.length} bytes`,
      );
    for (let k = 0; k < count; k++)
      if ((starts[k + 1] ?? 0) < (starts[k] ?? 0))
        throw new Error(`bad term dictionary: term ${k} ends before it starts`);
    if (slots.length === 0 || (slots.length & (slots.length - 1)) !== 0 || slots.length < count + 1)
      throw new Error(`bad term dictionary: ${slots.length} slots for ${count} terms`);
    this.bytes = bytes;
    this.starts = starts;
    this.slots = slots;
    this.mask = slots.length - 1;
  }

  /**
   * The saved form of `terms` (distinct, in term order), `batch` terms at a time with
   * `yieldToHost` awaited between batches (a save must not hold the thread).
   */
  static async encode(
    terms: readonly string[],
    yieldToHost?: () => Promise<void>,
    batch = 4096,
  ): Promise<SavedTermsParts> {
    const count = terms.length;
    const starts = new Uint32Array(count + 1);
    let size = 1;
    while (size < Math.max(1, count * SLOTS_PER_TERM)) size *= 2;
    const slots = new Uint32Array(size);
    const mask = size - 1;
    let at = 0;
    for (let k = 0; k < count; k++) {
      if (k % batch === batch - 1 && yieldToHost) await yieldToHost();
      const term = terms[k] ?? "";
      starts[k] = at;
      at += utf8Length(term);
      let slot = hashSpan(term, 0, term.length) & mask;
      while ((slots[slot] ?? 0) !== 0) slot = (slot + 1) & mask;
      slots[slot] = k + 1;
    }
    starts[count] = at;
    if (yieldToHost) await yieldToHost();
    const bytes = new TextEncoder().encode(terms.join(""));
    if (bytes.length !== at) throw new Error("term dictionary: UTF-8 lengths disagree");
    return { bytes, starts, slots };
  }

  /** Number of terms. */
  get count(): number {
    return this.starts.length - 1;
  }

  /**
   * The index of the term `text[start, end)`, or -1. Throws {@link CorruptPostingsError} when the
   * table is damaged (a slot naming no term, or no empty slot to end a probe).
   */
  find(text: string, start: number, end: number): number {
    const { slots, mask, starts } = this;
    const count = starts.length - 1;
    let slot = hashSpan(text, start, end) & mask;
    for (let probes = 0; probes <= mask; probes++, slot = (slot + 1) & mask) {
      const ref = slots[slot] ?? 0;
      if (ref === 0) return -1;
      if (ref > count)
        throw new CorruptPostingsError(
          `term dictionary slot ${slot} names term ${ref - 1} of ${count}`,
        );
      const k = ref - 1;
      if (this.holds(starts[k] ?? 0, starts[k + 1] ?? 0, text, start, end)) return k;
    }
    throw new CorruptPostingsError("term dictionary has no empty slot");
  }

  /** Term `k` (0 ≤ k < {@link SavedTerms.count}). */
  keyAt(k: number): string {
    const a = this.starts[k] ?? 0;
    const b = this.starts[k + 1] ?? 0;
    const bytes = this.bytes;
    let ascii = b - a <= 4096;
    for (let i = a; ascii && i < b; i++) ascii = (bytes[i] ?? 0) < 0x80;
    if (ascii) return String.fromCharCode(...bytes.subarray(a, b));
    this.decoder ??= new TextDecoder();
    return this.decoder.decode(bytes.subarray(a, b));
  }

  /** True when `bytes[a, b)` is the UTF-8 of `text[start, end)` (as `TextEncoder` writes it). */
  private holds(a: number, b: number, text: string, start: number, end: number): boolean {
    const bytes = this.bytes;
    let p = a;
    for (let i = start; i < end; i++) {
      let c = text.charCodeAt(i);
      if (c < 0x80) {
        if (p >= b || bytes[p++] !== c) return false;
        continue;
      }
      if (c >= 0xd800 && c < 0xdc00 && i + 1 < end && isLow(text.charCodeAt(i + 1))) {
        c = 0x10000 + ((c - 0xd800) << 10) + (text.charCodeAt(++i) - 0xdc00);
        if (
          p + 4 > b ||
          bytes[p] !== (0xf0 | (c >> 18)) ||
          bytes[p + 1] !== (0x80 | ((c >> 12) & 0x3f)) ||
          bytes[p + 2] !== (0x80 | ((c >> 6) & 0x3f)) ||
          bytes[p + 3] !== (0x80 | (c & 0x3f))
        )
          return false;
        p += 4;
        continue;
      }
      if (c >= 0xd800 && c < 0xe000) c = 0xfffd;
      if (c < 0x800) {
        if (p + 2 > b || bytes[p] !== (0xc0 | (c >> 6)) || bytes[p + 1] !== (0x80 | (c & 0x3f)))
          return false;
        p += 2;
        continue;
      }
      if (
        p + 3 > b ||
        bytes[p] !== (0xe0 | (c >> 12)) ||
        bytes[p + 1] !== (0x80 | ((c >> 6) & 0x3f)) ||
        bytes[p + 2] !== (0x80 | (c & 0x3f))
      )
        return false;
      p += 3;
    }
    return p === b;
  }
}
