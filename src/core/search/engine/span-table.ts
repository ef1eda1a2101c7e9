/**
 * An open-addressing hash table from strings to non-negative integers that can look up a span of
 * a larger string (`text`, `start`, `end`) without creating the substring.
 *
 * Why: building the index looks up every token of every note (5.8 million at 10k notes). With a
 * `Map<string, number>` each lookup first creates the token's string and hashes it, and most of
 * the build went there; here a lookup hashes the span's characters in place (FNV-1a) and compares
 * them with the keys' characters kept in one `Uint16Array`. Keys are UTF-16 code units, compared
 * exactly.
 */

const EMPTY = 0;
const MIN_SLOTS = 1 << 10;

/**
 * FNV-1a over the UTF-16 code units of `text[start, end)`, as a 32-bit integer; `seed` continues
 * a hash of preceding text.
 */
export function hashSpan(text: string, start: number, end: number, seed = 0x811c9dc5): number {
  let h = seed;
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h | 0;
}

/** String (or string span) → integer table. Values are non-negative; -1 means "absent". */
export class SpanTable {
  /**
   * Two integers a slot: the key's hash and its entry index + 1 (0: empty slot). The hash sits
   * beside the reference so a probe that misses touches one cache line.
   */
  private slots: Int32Array;
  private mask: number;
  /** Three integers an entry: where its characters start in the pool, how many, its value. */
  private entries: Int32Array;
  /** Key characters, end to end. */
  private pool: Uint16Array;
  private poolUsed = 0;
  private count = 0;

  /**
   * @param keys how many keys to make room for (the table grows past it as needed)
   * @param chars how many key characters in all, likewise
   */
  constructor(keys = 256, chars = 4096) {
    let slots = MIN_SLOTS;
    while (slots < keys * 2) slots *= 2;
    this.slots = new Int32Array(slots * 2);
    this.mask = slots - 1;
    this.entries = new Int32Array(Math.max(1, keys) * 3);
    this.pool = new Uint16Array(Math.max(1, chars));
  }

  /** Number of keys. */
  get size(): number {
    return this.count;
  }

  /** The value of `text[start, end)`, or -1. */
  getSpan(text: string, start: number, end: number): number {
    const e = this.find(text, start, end, hashSpan(text, start, end));
    return e < 0 ? -1 : (this.entries[e * 3 + 2] ?? -1);
  }

  /** The value of `key`, or -1. */
  get(key: string): number {
    return this.getSpan(key, 0, key.length);
  }

  /** Sets the value of `text[start, end)` (a non-negative integer). */
  setSpan(text: string, start: number, end: number, value: number): void {
    const h = hashSpan(text, start, end);
    const e = this.find(text, start, end, h);
    if (e >= 0) this.entries[e * 3 + 2] = value;
    else this.insert(text, start, end, h, value);
  }

  /** Sets the value of `key` (a non-negative integer). */
  set(key: string, value: number): void {
    this.setSpan(key, 0, key.length, value);
  }

  /** The key of the `index`-th entry (entries are numbered in insertion order from 0). */
  keyAt(index: number): string {
    const at = this.entries[index * 3] ?? 0;
    const len = this.entries[index * 3 + 1] ?? 0;
    let out = "";
    // In slices: String.fromCharCode takes its characters as arguments.
    for (let k = 0; k < len; k += 4096)
      out += String.fromCharCode(...this.pool.subarray(at + k, at + Math.min(len, k + 4096)));
    return out;
  }

  /** Removes every key. */
  clear(): void {
    this.slots = new Int32Array(MIN_SLOTS * 2);
    this.mask = MIN_SLOTS - 1;
    this.poolUsed = 0;
    this.count = 0;
  }

  private find(text: string, start: number, end: number, h: number): number {
    const len = end - start;
    const { slots, mask, entries, pool } = this;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const ref = slots[slot * 2 + 1] ?? EMPTY;
      if (ref === EMPTY) return -1;
      if (slots[slot * 2] !== h) continue;
      const e = ref - 1;
      if (entries[e * 3 + 1] !== len) continue;
      const at = entries[e * 3] ?? 0;
      let k = 0;
      while (k < len && pool[at + k] === text.charCodeAt(start + k)) k++;
      if (k === len) return e;
    }
  }

  private insert(text: string, start: number, end: number, h: number, value: number): void {
    const len = end - start;
    if (this.poolUsed + len > this.pool.length) this.pool = grow(this.pool, this.poolUsed + len);
    for (let k = 0; k < len; k++) this.pool[this.poolUsed + k] = text.charCodeAt(start + k);
    const e = this.count;
    if ((e + 1) * 3 > this.entries.length) this.entries = grow(this.entries, (e + 1) * 3);
    this.entries[e * 3] = this.poolUsed;
    this.entries[e * 3 + 1] = len;
    this.entries[e * 3 + 2] = value;
    this.poolUsed += len;
    this.count++;
    // Placed first: the rehash re-places what the slots hold. Load factor at most one half.
    this.place(e, h);
    if (this.count * 2 > this.mask + 1) this.rehash((this.mask + 1) * 2);
  }

  private place(e: number, h: number): void {
    let slot = h & this.mask;
    while ((this.slots[slot * 2 + 1] ?? EMPTY) !== EMPTY) slot = (slot + 1) & this.mask;
    this.slots[slot * 2] = h;
    this.slots[slot * 2 + 1] = e + 1;
  }

  private rehash(size: number): void {
    const old = this.slots;
    this.slots = new Int32Array(size * 2);
    this.mask = size - 1;
    for (let slot = 0; slot * 2 < old.length; slot++) {
      const ref = old[slot * 2 + 1] ?? EMPTY;
      if (ref !== EMPTY) this.place(ref - 1, old[slot * 2] ?? 0);
    }
  }
}

/** A copy of `array` at least `need` long (doubling), for growable typed-array buffers. */
export function grow<T extends Int32Array | Uint16Array>(array: T, need: number): T {
  let size = Math.max(1, array.length) * 2;
  while (size < need) size *= 2;
  const grown = new (array.constructor as new (n: number) => T)(size);
  grown.set(array);
  return grown;
}

/** Spreads the bits of a 32-bit key (a murmur3-style finaliser). */
function mix(key: number): number {
  let h = Math.imul(key ^ (key >>> 16), 0x45d9f3b);
  h = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
  return h ^ (h >>> 16);
}

/**
 * An open-addressing hash table from 32-bit integer keys to non-negative integers (for CJK
 * bigrams, keyed by their two UTF-16 code units: no string is made to look one up).
 */
export class IntTable {
  private keys: Int32Array;
  /** Value + 1; 0 is an empty slot. */
  private values: Int32Array;
  private mask: number;
  private count = 0;

  /** @param keys how many keys to make room for (the table grows past it as needed) */
  constructor(keys = 256) {
    let slots = MIN_SLOTS;
    while (slots < keys * 2) slots *= 2;
    this.keys = new Int32Array(slots);
    this.values = new Int32Array(slots);
    this.mask = slots - 1;
  }

  /** The value of `key`, or -1. */
  get(key: number): number {
    const { keys, values, mask } = this;
    for (let slot = mix(key) & mask; ; slot = (slot + 1) & mask) {
      const v = values[slot] ?? 0;
      if (v === 0) return -1;
      if (keys[slot] === key) return v - 1;
    }
  }

  /** Sets the value of `key` (a non-negative integer). */
  set(key: number, value: number): void {
    let slot = mix(key) & this.mask;
    while ((this.values[slot] ?? 0) !== 0 && this.keys[slot] !== key) slot = (slot + 1) & this.mask;
    if ((this.values[slot] ?? 0) === 0) this.count++;
    this.keys[slot] = key;
    this.values[slot] = value + 1;
    if (this.count * 2 > this.keys.length) this.rehash();
  }

  private rehash(): void {
    const { keys, values } = this;
    this.keys = new Int32Array(keys.length * 2);
    this.values = new Int32Array(keys.length * 2);
    this.mask = this.keys.length - 1;
    this.count = 0;
    for (let i = 0; i < keys.length; i++) {
      const v = values[i] ?? 0;
      if (v !== 0) this.set(keys[i] ?? 0, v - 1);
    }
  }
}
