/**
 * Word-pair filters for quoted phrases (docs/architecture.md, "Query language" its query p95
 * target).
 *
 * MiniSearch keeps no word positions, so a phrase query finds the notes holding all of the
 * phrase's words and then reads them to check the phrase. Read blindly, that was up to 200 notes
 * for a phrase like `"pricing same"` whose words are common but rarely adjacent. Each note
 * therefore keeps a small Bloom filter of the adjacent word pairs in its text (a next-word index
 * per note, in the spirit of Williams, Zobel and Bahle, "Fast phrase querying with combined
 * indexes", 2004): a note whose filter lacks one of the phrase's pairs cannot hold the phrase and
 * is never read; the rest are still read and checked exactly with {@link textContainsPhrase}.
 *
 * The rule that makes the filter safe (no note holding a phrase is ever rejected) follows
 * {@link textContainsPhrase}: in the normalised text without apostrophes, a phrase of words in
 * scripts written with spaces, `w1 … wn` (n ≥ 2), matches where `w1` is the trailing part of a run
 * of letters (after a CJK character or at the run's start), `w2 … wn-1` are whole runs, and `wn` is
 * the leading part of a run (up to a CJK character or the run's end). So each adjacent pair of the
 * phrase is a pair (trailing spaced-script part of run r, leading spaced-script part of run r+1)
 * of the text, which is what a note's filter holds.
 *
 * A phrase with CJK (or Thai…) characters is matched anywhere in the note's phrase form with the
 * spaces next to those characters dropped (see `containsPhrase`), so for it the filter holds the
 * other kind of pair: every two neighbouring characters of that form of which one is CJK. A
 * property test checks both rules against {@link textContainsPhrase} on random text. Phrases of
 * one word, or of one CJK character, get no filter: their notes are read as before.
 */
import { fromByteArray, toByteArray } from "base64-js";
import { APOSTROPHE_RE, normalizeText, phraseCharKind, phraseForm } from "./tokenizer";

/** Standard base64 with padding (base64-js decodes other characters without complaint). */
const BASE64_RE = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Filter bits per word pair: with {@link PROBES} probes, about 1.2% false positives in theory
 * (0.9% measured for a pair absent from a note, 1% for one absent from 2,000 near-identical notes).
 */
const BITS_PER_PAIR = 10;
/** Bits set and tested per pair (the optimum for 10 bits a pair is 7; 4 costs 0.4 points more and half the probes). */
const PROBES = 4;
const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

/** Murmur3's 32-bit finaliser: spreads the bits of a hash. */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Hash of the neighbouring characters (code points) `a`, `b` of a CJK phrase pair. */
function charPairHash(a: number, b: number): number {
  return mix((Math.imul(a, 0x27d4eb2f) ^ b ^ 0x165667b1) | 0);
}

/** Hash of the word pair (a, b), given each word's FNV-1a hash over its UTF-16 code units. */
function pairHash(a: number, b: number): number {
  return mix((Math.imul(a, 0x9e3779b1) + b) | 0);
}

function wordHash(word: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), FNV_PRIME);
  return h;
}

/**
 * The character pairs of a CJK phrase's matching form, fed one phrase character at a time (code
 * points, gaps left out): two neighbouring characters make a pair when one of them is CJK, since a
 * gap next to CJK is dropped in that form. The same steps serve a note's text and a phrase.
 */
class CharPairs {
  private prev = -1;
  private prevCjk = false;

  add(char: number, cjk: boolean, out: { push(h: number): unknown }): void {
    if (this.prev >= 0 && (cjk || this.prevCjk)) out.push(charPairHash(this.prev, char));
    this.prev = char;
    this.prevCjk = cjk;
  }
}

/** Collects pair hashes in a buffer reused from note to note. */
class PairBuffer {
  data = new Int32Array(1024);
  length = 0;

  push(h: number): void {
    if (this.length === this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = h;
  }
}

/** ASCII code unit → its lower case when it is a letter or digit, {@link SKIP} for `'`, else 0 (a gap). */
const ASCII_WORD = new Uint8Array(128);
const SKIP = 1;
for (let c = 0x30; c <= 0x39; c++) ASCII_WORD[c] = c;
for (let c = 0x61; c <= 0x7a; c++) ASCII_WORD[c] = c;
for (let c = 0x41; c <= 0x5a; c++) ASCII_WORD[c] = c + 0x20;
ASCII_WORD[0x27] = SKIP;

/**
 * Pushes the hash of every adjacent word pair, and of every two neighbouring characters with a CJK
 * side, of the text `lines.join("\n")` (a note's searchable text, as a phrase check reads it) to
 * `out`, in text order, repeats included.
 */
function pushTextPairs(lines: readonly string[], out: PairBuffer): void {
  // ASCII text (most notes) is walked as it is, lower-cased on the fly: NFKC leaves ASCII alone, so
  // that is all normalizeText does to it. Any other character restarts the walk on the normalised
  // text, apostrophes removed first as in the phrase check ("don't" is "dont"; removing one may
  // even join the two halves of a surrogate pair).
  if (!walkAscii(lines, out))
    walkPairs(normalizeText(lines.join("\n")).replace(APOSTROPHE_RE, ""), out);
}

/**
 * {@link walkPairs} for ASCII text, where every run of letters and digits is a word, each pair is
 * two neighbouring words, and there is no CJK character. The parts are walked as if joined by line breaks, without
 * joining them (a joined string is copied again on its first read). Gives up at the first
 * character outside ASCII, returning false with nothing pushed.
 */
function walkAscii(parts: readonly string[], out: PairBuffer): boolean {
  const pushedBefore = out.length;
  let prev = 0;
  let hasPrev = false;
  let cur = FNV_OFFSET;
  let inWord = false;
  for (const t of parts) {
    for (let i = 0; i <= t.length; i++) {
      // Past the end: the line break between parts.
      const c = i < t.length ? t.charCodeAt(i) : 0x0a;
      if (c >= 0x80) {
        out.length = pushedBefore;
        return false;
      }
      const w = ASCII_WORD[c] ?? 0;
      if (w > SKIP) {
        cur = Math.imul((inWord ? cur : FNV_OFFSET) ^ w, FNV_PRIME);
        inWord = true;
      } else if (w === 0 && inWord) {
        if (hasPrev) out.push(pairHash(prev, cur));
        prev = cur;
        hasPrev = true;
        inWord = false;
      }
    }
  }
  return true;
}

/** The walk of {@link pushTextPairs} over normalised text (see the rule in this module's comment). */
function walkPairs(t: string, out: PairBuffer): void {
  const n = t.length;
  let prevTail = 0;
  let hasPrevTail = false;
  let inRun = false;
  // The run's leading spaced-script part: still being read (`headOpen`), done (`hasHead`), or absent.
  let headOpen = false;
  let head = 0;
  let hasHead = false;
  let cur = FNV_OFFSET;
  let last = 0;
  const chars = new CharPairs();
  for (let i = 0; i <= n; i++) {
    let c = 0;
    let kind = 0;
    if (i < n) {
      c = t.charCodeAt(i);
      if (c < 0x80) {
        c = ASCII_WORD[c] ?? 0;
        if (c === SKIP) continue;
        kind = c === 0 ? 0 : 1;
      } else if (c === 0x2019) {
        continue;
      } else {
        kind = phraseCharKind(t, i);
      }
    }
    // A low surrogate goes with the high one before it.
    if (kind !== 0 && !(c >= 0xdc00 && c <= 0xdfff))
      chars.add(c >= 0xd800 && c <= 0xdbff ? (t.codePointAt(i) ?? c) : c, kind === 2, out);
    if (kind === 0) {
      if (!inRun) continue;
      if (last === 1 && headOpen) {
        head = cur;
        hasHead = true;
      }
      if (hasPrevTail && hasHead) out.push(pairHash(prevTail, head));
      hasPrevTail = last === 1;
      prevTail = cur;
      inRun = false;
      continue;
    }
    if (!inRun) {
      inRun = true;
      headOpen = kind === 1;
      hasHead = false;
      last = 0;
    }
    if (kind === 1) {
      if (last !== 1) cur = FNV_OFFSET;
      cur = Math.imul(cur ^ c, FNV_PRIME);
    } else if (last === 1 && headOpen) {
      head = cur;
      hasHead = true;
      headOpen = false;
    } else {
      headOpen = false;
    }
    last = kind;
  }
}

/**
 * The pair hashes {@link pushTextPairs} gives for the text `lines.join("\n")` (what a note's
 * filter holds; exported for tests).
 */
export function textPairs(...lines: string[]): number[] {
  const out = new PairBuffer();
  pushTextPairs(lines, out);
  return Array.from(out.data.subarray(0, out.length), (h) => h >>> 0);
}

/**
 * The pair hashes a note must hold to contain every phrase in `phrases` (each as typed in the
 * query). A phrase the filter cannot judge (one word, or a CJK word: see {@link judgesPhrase})
 * adds none; it is checked by reading the note alone.
 */
export function phrasePairs(phrases: readonly string[]): number[] {
  const out: number[] = [];
  for (const phrase of phrases) pushPhrasePairs(phrase, out);
  return out;
}

/**
 * True when a note's filter can rule `phrase` out: two or more words, or two or more characters
 * when it has CJK ones.
 */
export function judgesPhrase(phrase: string): boolean {
  return pushPhrasePairs(phrase, []);
}

/** Pushes the pairs a note must hold to contain `phrase`; false when there are none to judge by. */
function pushPhrasePairs(phrase: string, out: number[]): boolean {
  const form = phraseForm(phrase).trim();
  let cjk = false;
  for (let i = 0; i < form.length && !cjk; i++) cjk = phraseCharKind(form, i) === 2;
  const before = out.length;
  if (cjk) {
    const chars = new CharPairs();
    for (let i = 0; i < form.length; i++) {
      const c = form.charCodeAt(i);
      // Spaces are gaps; a low surrogate goes with its high one.
      if (c === 0x20 || (c >= 0xdc00 && c <= 0xdfff)) continue;
      chars.add(
        c >= 0xd800 && c <= 0xdbff ? (form.codePointAt(i) ?? c) : c,
        phraseCharKind(form, i) === 2,
        out,
      );
    }
  } else {
    const words = form.split(" ");
    for (let k = 0; k + 1 < words.length; k++)
      out.push(pairHash(wordHash(words[k] ?? ""), wordHash(words[k + 1] ?? "")));
  }
  return out.length > before;
}

/**
 * A Bloom filter of pair hashes: word 0 is the note's seed, then {@link BITS_PER_PAIR} bits per
 * pair (repeats count: sorting them out cost more build time than the bits they take). The seed,
 * taken from the pairs themselves, moves each note's probes: without it, notes made from one
 * template share their common pairs' bits, and a phrase whose probes fall on those bits passed the
 * filters of about 8% of such notes instead of 1% (measured on 2,000 near-identical notes). A text
 * without any pair gets no bits, which hold no pair.
 */
export function buildPairFilter(pairs: ArrayLike<number>, count = pairs.length): Uint32Array {
  let sum = count;
  for (let i = 0; i < count; i++) sum = (sum + (pairs[i] ?? 0)) | 0;
  const seed = mix(sum);
  const filter = new Uint32Array(1 + Math.ceil((count * BITS_PER_PAIR) / 32));
  filter[0] = seed;
  const bits = (filter.length - 1) * 32;
  for (let i = 0; i < count; i++) {
    const h = mix((pairs[i] ?? 0) ^ seed);
    const step = mix(h ^ 0x5bd1e995) | 1;
    for (let p = 0; p < PROBES; p++) {
      const bit = probe(h, step, p, bits);
      const w = 1 + (bit >>> 5);
      filter[w] = (filter[w] ?? 0) | (1 << (bit & 31));
    }
  }
  return filter;
}

/** The `p`-th bit of `bits` probed for hash `h` (double hashing, Lemire's multiply-shift range reduction). */
function probe(h: number, step: number, p: number, bits: number): number {
  return Math.floor((((h + Math.imul(p, step)) >>> 0) * bits) / 4294967296);
}

const buffer = new PairBuffer();

/**
 * The filter of a note's searchable text `lines.join("\n")` — for a note, its title and body, the
 * text a phrase check reads (see {@link pushTextPairs}).
 */
export function pairFilterOf(...lines: string[]): Uint32Array {
  buffer.length = 0;
  pushTextPairs(lines, buffer);
  return buildPairFilter(buffer.data, buffer.length);
}

/** False when `filter` surely lacks one of `pairs` (so the note cannot hold the phrase). */
export function filterMayHold(filter: Uint32Array, pairs: readonly number[]): boolean {
  const bits = (filter.length - 1) * 32;
  if (bits <= 0) return pairs.length === 0;
  const seed = filter[0] ?? 0;
  for (const pair of pairs) {
    const h = mix(pair ^ seed);
    const step = mix(h ^ 0x5bd1e995) | 1;
    for (let p = 0; p < PROBES; p++) {
      const bit = probe(h, step, p, bits);
      if (((filter[1 + (bit >>> 5)] ?? 0) & (1 << (bit & 31))) === 0) return false;
    }
  }
  return true;
}

/**
 * Filters end to end as text for the saved index: `sizes[i]` is the length in 32-bit words of
 * `filters[i]` (-1: none), `data` their bytes in base64 (the host's byte order — little-endian on
 * every platform Obsidian runs on).
 */
export function encodeFilters(filters: readonly (Uint32Array | undefined)[]): {
  sizes: number[];
  data: string;
} {
  const sizes = filters.map((f) => (f ? f.length : -1));
  const all = new Uint32Array(sizes.reduce((a, s) => a + Math.max(0, s), 0));
  let at = 0;
  for (const f of filters) {
    if (!f) continue;
    all.set(f, at);
    at += f.length;
  }
  // base64-js, not btoa: Node's btoa took 1.5 s for the 6 MB of filters of 10k notes, base64-js 0.2 s.
  return { sizes, data: fromByteArray(new Uint8Array(all.buffer)) };
}

/**
 * The filters {@link encodeFilters} wrote, as views of one buffer. Throws `Error` when `data` is
 * not base64 or its length disagrees with `sizes`.
 */
export function decodeFilters(sizes: readonly number[], data: string): (Uint32Array | undefined)[] {
  if (!BASE64_RE.test(data)) throw new Error("phrase filters are not base64");
  const bytes = toByteArray(data);
  const words = sizes.reduce((a, s) => a + Math.max(0, s), 0);
  if (bytes.length !== words * 4)
    throw new Error(`phrase filters hold ${bytes.length} bytes, expected ${words * 4}`);
  const all = new Uint32Array(bytes.buffer, bytes.byteOffset, words);
  let at = 0;
  return sizes.map((s) => {
    if (s < 0) return undefined;
    const f = all.subarray(at, at + s);
    at += s;
    return f;
  });
}
