/**
 * The index side of the tokenizer, made fast (bench/results/search.md: build 10k notes in about 5
 * s).
 *
 * {@link TermScanner.count} gives exactly the terms {@link tokenize} gives for the same text (same
 * rules, same multiplicities; test/core/search/search-scanner.test.ts checks it on random text), but reads the
 * text character by character with a class table instead of one regular-expression match per
 * token, and counts terms as integer ids instead of building arrays of strings:
 *
 * - a plain word is looked up once per distinct spelling (`painting` → the id of `paint`), so it
 *   is stemmed once per index, not once per occurrence;
 * - counts go to a reusable {@link TermCounts} (an `Int32Array` by term id) instead of a `Map` per
 *   note.
 *
 * Words with apostrophes, compounds (`inc-2024-0887`) and CJK runs go through the tokenizer's own
 * helpers ({@link pushCompound}, {@link pushBigrams}, {@link CjkWords}), so those rules live in
 * one place.
 */
import { grow, IntTable, SpanTable } from "./span-table";
import { stemOnce } from "./stemmer";
import {
  CJK,
  CjkWords,
  MAX_TOKEN_LENGTH,
  normalizeText,
  pushBigrams,
  pushCompound,
  pushSegments,
  pushWord,
  type SegmentMemo,
  type TokenizerOptions,
  UNSPACED,
  WORD_CHAR,
  wordFn,
} from "./tokenizer";

/** Character classes (see {@link classOf}). 0 is "not classified yet". */
const SEP = 1;
const WORD = 2;
const CJK_CHAR = 3;
const UNSPACED_CHAR = 4;

const CJK_RE = new RegExp(`^[${CJK}]$`, "u");
const UNSPACED_RE = new RegExp(`^[${UNSPACED}]$`, "u");
const WORD_CHAR_RE = new RegExp(`^${WORD_CHAR}$`, "u");

/** Classes of BMP code units, filled on first sight. */
const BMP_CLASS = new Uint8Array(0x10000);
/** Classes of astral code points (emoji, CJK extension B…), filled on first sight. */
const ASTRAL_CLASS = new Map<number, number>();

function classify(text: string): number {
  if (CJK_RE.test(text)) return CJK_CHAR;
  if (UNSPACED_RE.test(text)) return UNSPACED_CHAR;
  if (WORD_CHAR_RE.test(text)) return WORD;
  return SEP;
}

/** Width in UTF-16 code units of the code point at `i` (2 for a surrogate pair). */
function widthAt(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c < 0xd800 || c > 0xdbff) return 1;
  const d = s.charCodeAt(i + 1);
  return d >= 0xdc00 && d <= 0xdfff ? 2 : 1;
}

/** The class of the code point at `i`; {@link SEP} past the end. */
function classOf(s: string, i: number): number {
  if (i >= s.length) return SEP;
  const c = s.charCodeAt(i);
  if (widthAt(s, i) === 1) {
    let cls = BMP_CLASS[c] ?? 0;
    if (cls === 0) {
      cls = classify(String.fromCharCode(c));
      BMP_CLASS[c] = cls;
    }
    return cls;
  }
  const cp = s.codePointAt(i) ?? c;
  let cls = ASTRAL_CLASS.get(cp);
  if (cls === undefined) {
    cls = classify(String.fromCodePoint(cp));
    ASTRAL_CLASS.set(cp, cls);
  }
  return cls;
}

function isApostrophe(c: number): boolean {
  return c === 0x27 || c === 0x2019;
}

/** The compound joiners `- . _ : /`. */
function isJoiner(c: number): boolean {
  return c === 0x2d || c === 0x2e || c === 0x5f || c === 0x3a || c === 0x2f;
}

/** End of a run of word characters starting at `i`. */
function skipWordChars(s: string, i: number): number {
  let j = i;
  while (classOf(s, j) === WORD) j += widthAt(s, j);
  return j;
}

/** End of a tokenizer WORD at `i`: word characters, then `'`/`’` + word characters, repeated. */
function skipWord(s: string, i: number, flags: { apostrophe: boolean }): number {
  let j = skipWordChars(s, i);
  while (isApostrophe(s.charCodeAt(j)) && classOf(s, j + 1) === WORD) {
    flags.apostrophe = true;
    j = skipWordChars(s, j + 1);
  }
  return j;
}

/** A term dictionary for text whose terms are only counted, never indexed (block scoring). */
export class TermDictionary implements TermIds {
  private readonly table: SpanTable;

  /** @param capacity terms to make room for (see {@link SpanTable}) */
  constructor(capacity = 256) {
    this.table = new SpanTable(capacity, capacity * 8);
  }

  /** Number of terms. */
  get size(): number {
    return this.table.size;
  }

  idOfSpan(text: string, start: number, end: number): number {
    const known = this.table.getSpan(text, start, end);
    if (known >= 0) return known;
    const id = this.table.size;
    this.table.setSpan(text, start, end, id);
    return id;
  }

  /** The id of `term`, or -1 when the dictionary has not seen it. */
  get(term: string): number {
    return this.table.get(term);
  }
}

/** Term occurrences counted by id; reused from note to note (typed arrays: no garbage per note). */
export class TermCounts {
  private counts: Int32Array = new Int32Array(1024);
  private ids: Int32Array = new Int32Array(256);
  private distinct = 0;
  /** Occurrences counted since the last {@link TermCounts.drain} (all terms). */
  total = 0;

  /** Number of distinct terms counted since the last {@link TermCounts.drain}. */
  get size(): number {
    return this.distinct;
  }

  /** Ids counted since the last {@link TermCounts.drain}, in first-seen order. */
  get touched(): number[] {
    return Array.from(this.ids.subarray(0, this.distinct));
  }

  /** Occurrences of term `id` counted since the last {@link TermCounts.drain}. */
  get(id: number): number {
    return id >= 0 && id < this.counts.length ? (this.counts[id] ?? 0) : 0;
  }

  /** Counts one occurrence of term `id` (a non-negative integer). */
  add(id: number): void {
    if (id >= this.counts.length) this.counts = grow(this.counts, id + 1);
    const seen = this.counts[id] ?? 0;
    this.counts[id] = seen + 1;
    this.total++;
    if (seen === 0) {
      if (this.distinct === this.ids.length) this.ids = grow(this.ids, this.distinct + 1);
      this.ids[this.distinct++] = id;
    }
  }

  /** The counted terms as `id, occurrences` pairs sorted by id, then clears. */
  sortedPairs(): Int32Array {
    const ids = this.ids.slice(0, this.distinct).sort();
    const pairs = new Int32Array(ids.length * 2);
    ids.forEach((id, k) => {
      pairs[k * 2] = id;
      pairs[k * 2 + 1] = this.counts[id] ?? 0;
    });
    this.drain(() => undefined);
    return pairs;
  }

  /** Calls `fn(id, occurrences)` for each counted term in first-seen order, then clears. */
  drain(fn: (id: number, tf: number) => void): void {
    for (let k = 0; k < this.distinct; k++) {
      const id = this.ids[k] ?? 0;
      fn(id, this.counts[id] ?? 0);
      this.counts[id] = 0;
    }
    this.distinct = 0;
    this.total = 0;
  }
}

/** Spellings remembered per scanner before the memo is cleared (memory bound). */
const WORD_MEMO_MAX = 1 << 20;

/** The term dictionary a scanner counts into. */
export interface TermIds {
  /** The id (≥ 0) of the term `text[start, end)`, created when the term is new. */
  idOfSpan(text: string, start: number, end: number): number;
}

/** Counts a text's index terms as ids (see the module comment). One scanner per term dictionary. */
export class TermScanner {
  private readonly word: (w: string) => string;
  private readonly stemming: boolean;
  private readonly ngrams: boolean;
  /** Plain word spelling → term id + 1, or 0 when the word gives no term. */
  private readonly words: SpanTable;
  /** BMP CJK bigram (code units `a << 16 | b`) → term id. */
  private readonly bigrams: IntTable;
  private readonly intern: (term: string) => number;

  /**
   * @param ids the caller's term dictionary
   * @param options `stemming` and `cjk` as in {@link createTokenizer} (defaults: true, `words`);
   *   `capacity`: distinct spellings to make room for up front, so that growing the memo (a
   *   rehash of every entry) does not land on one query (default 256)
   */
  constructor(
    private readonly ids: TermIds,
    options: Pick<TokenizerOptions, "stemming" | "cjk"> & { capacity?: number } = {},
  ) {
    const capacity = options.capacity ?? 256;
    this.words = new SpanTable(capacity, capacity * 8);
    this.bigrams = new IntTable(capacity);
    this.stemming = options.stemming ?? true;
    this.ngrams = options.cjk === "ngrams";
    this.word = wordFn(this.stemming);
    this.intern = (term: string): number => ids.idOfSpan(term, 0, term.length);
  }

  /** Counts the terms {@link createTokenizer} with the same options would give for `text` into `counts`. */
  count(text: string, counts: TermCounts, memo?: SegmentMemo): void {
    const s = normalizeText(text);
    const push = (term: string): void => counts.add(this.intern(term));
    const sink = { push };
    const cjk = new CjkWords(push, memo);
    const flags = { apostrophe: false };
    const n = s.length;
    let i = 0;
    while (i < n) {
      const cls = classOf(s, i);
      if (cls === WORD) {
        const start = i;
        flags.apostrophe = false;
        i = skipWord(s, i, flags);
        let compound = false;
        while (isJoiner(s.charCodeAt(i)) && classOf(s, i + 1) === WORD) {
          compound = true;
          i = skipWord(s, i + 1, flags);
        }
        if (compound) pushCompound(s.slice(start, i), sink, this.word, true);
        else if (flags.apostrophe) pushWord(this.word(s.slice(start, i)), sink);
        else {
          const id = this.plainWord(s, start, i);
          if (id >= 0) counts.add(id);
        }
      } else if (cls === CJK_CHAR) {
        const start = i;
        let astral = false;
        while (classOf(s, i) === CJK_CHAR) {
          const w = widthAt(s, i);
          if (w === 2) astral = true;
          i += w;
        }
        const run = s.slice(start, i);
        if (astral) pushBigrams(run, push);
        else for (let k = start; k + 1 < i; k++) counts.add(this.bigram(s, k));
        if (!this.ngrams) cjk.add(run);
        else if (astral) for (const ch of run) push(ch);
        else for (let k = start; k < i; k++) counts.add(this.ids.idOfSpan(s, k, k + 1));
      } else if (cls === UNSPACED_CHAR) {
        const start = i;
        while (classOf(s, i) === UNSPACED_CHAR) i += widthAt(s, i);
        pushSegments(s.slice(start, i), push, "all");
      } else i += widthAt(s, i);
    }
    cjk.flush();
  }

  /** Term id of the BMP bigram `s[k, k + 2)`. */
  private bigram(s: string, k: number): number {
    const key = (s.charCodeAt(k) << 16) | s.charCodeAt(k + 1);
    let id = this.bigrams.get(key);
    if (id < 0) {
      id = this.ids.idOfSpan(s, k, k + 2);
      this.bigrams.set(key, id);
    }
    return id;
  }

  /**
   * Term id of the word `s[start, end)` (no apostrophes or joiners), or -1 when it gives no term;
   * stemmed once per spelling.
   */
  private plainWord(s: string, start: number, end: number): number {
    const known = this.words.getSpan(s, start, end);
    if (known >= 0) return known - 1;
    const raw = s.slice(start, end);
    const term = this.stemming ? stemOnce(raw) : raw;
    const id = term !== "" && term.length <= MAX_TOKEN_LENGTH ? this.intern(term) : -1;
    if (this.words.size >= WORD_MEMO_MAX) this.words.clear();
    this.words.set(raw, id + 1);
    return id;
  }
}
