/**
 * The search tokenizer (docs/architecture.md, "Tokenizer";
 * test/core/search/search-tokenizer.test.ts, "case 05: …"). One function, {@link tokenize}, runs at index time
 * and at query time, so a query term always meets the same form in the index.
 *
 * - Text is Unicode NFKC-normalised (full-width `ＪＷＴ` → `JWT`, `①` → `1`) and lower-cased.
 * - Words of space-delimited scripts are read with one regular expression (fast path).
 *   Apostrophes are dropped and a possessive `'s` is removed (`Caroline's` → `caroline`).
 * - Ids and numbers joined by `- . _ : /` stay whole and are also split into their parts:
 *   `INC-2024-0887` → `inc-2024-0887`, `inc`, `2024`, `0887`; `3.2.5` → `3.2.5`, `3`, `2`, `5`.
 * - Runs of Chinese, Japanese or Korean characters go through `Intl.Segmenter` (word granularity,
 *   ICU dictionaries). ICU splits many real words into single characters (`重构` → `重`, `构`), so
 *   the run's character bigrams are emitted as well (as Lucene's CJK bigram filter does): a query
 *   then matches whatever the segmenter did with the same characters in another context.
 *   Korean words carry particles (`서울에서`); their bigrams let `서울` find them.
 * - Thai, Lao, Khmer and Myanmar runs (no spaces between words) go through `Intl.Segmenter` only.
 * - Plain ASCII words are Porter-stemmed (see {@link stem}).
 *
 * Queries go through {@link createQueryTokenizer}: the same rules, keeping the precise terms.
 *
 * See https://developer.mozilla.org/docs/Web/JavaScript/Reference/Global_Objects/Intl/Segmenter
 */
import { stem } from "./stemmer";

/**
 * Changes whenever the tokens produced for the same text change; a saved index made by another
 * version is rebuilt (docs/architecture.md, "The saved index").
 */
export const TOKENIZER_VERSION = 5;

/** Scripts segmented by `Intl.Segmenter` and also indexed by character bigrams. */
export const CJK =
  "\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}\\u3005\\u3006\\u30fc";
/** Scripts written without spaces that the segmenter splits into words (no bigrams). */
export const UNSPACED = "\\p{Script=Thai}\\p{Script=Lao}\\p{Script=Khmer}\\p{Script=Myanmar}";
/**
 * A letter, digit or mark of any other script, written as "not punctuation, symbol, separator,
 * control, CJK or unspaced" so that it needs only the `u` flag (the `v` flag's class subtraction
 * is missing on iOS before 17, where the plugin must load too).
 */
export const WORD_CHAR = `[^\\p{P}\\p{S}\\p{Z}\\p{C}${CJK}${UNSPACED}]`;
const WORD = `${WORD_CHAR}+(?:['’]${WORD_CHAR}+)*`;
/**
 * Groups: 1 CJK run, 2 unspaced-script run, 3 word, 4 the rest of a compound (`-2024-0887`).
 * Built with `new RegExp` from the shared character classes.
 */
const TOKEN_RE = new RegExp(`([${CJK}]+)|([${UNSPACED}]+)|(${WORD})((?:[\\-._:/]${WORD})*)`, "gu");
const JOINER_RE = /[-._:/]/;
export const APOSTROPHE_RE = /['’]/g;
const POSSESSIVE_RE = /['’]s$/;
/** Tokens longer than this (hashes, base64) are kept only by their parts. */
export const MAX_TOKEN_LENGTH = 64;
/**
 * CJK runs are segmented in batches of about this many characters: each `segment()` call has a
 * fixed cost, and V8's segmenter slows down more than linearly on long strings (measured on the
 * 10k-note benchmark vault: 200 is fastest, 1.0 s against 2.4 s run by run and 1.25 s at 600).
 */
export const SEGMENT_BATCH = 200;
/** A text longer than this is segmented in slices of this length (see {@link pushSegments}). */
export const SEGMENT_SLICE = 1200;

let segmenter: Intl.Segmenter | null = null;
function getSegmenter(): Intl.Segmenter {
  // "zh" only pins the locale; ICU picks its CJK dictionary by script, so Japanese works too.
  segmenter ??= new Intl.Segmenter("zh", { granularity: "word" });
  return segmenter;
}

/**
 * Creates the word segmenter now rather than at the first CJK text: creating it and loading ICU's
 * dictionary take about 17 ms, which the index pays while opening instead of the first Chinese or
 * Japanese query.
 */
export function warmUpSegmenter(): void {
  for (const seg of getSegmenter().segment("中文")) if (seg.isWordLike) break;
}

/** Options of {@link createTokenizer}. */
export interface TokenizerOptions {
  /** Porter-stem plain ASCII words (default true). */
  stemming?: boolean;
  /**
   * CJK runs: `words` (default, the index) gives character bigrams plus the segmenter's words
   * other than two-character ones (those are bigrams already) and one-character runs; `ngrams`
   * gives bigrams and every character, without the segmenter — same terms for every CJK word of
   * one or two characters, much faster, used to score a note's blocks at query time.
   */
  cjk?: "words" | "ngrams";
}

/** A tokenizer: text in, search terms out (duplicates kept for term frequency). */
export type Tokenizer = (text: string) => string[];

/** Turns a raw word into its term: apostrophes and possessive dropped, then stemmed. */
export function wordFn(stemming: boolean): (w: string) => string {
  return (w: string): string => {
    const plain =
      w.includes("'") || w.includes("’")
        ? w.replace(POSSESSIVE_RE, "").replace(APOSTROPHE_RE, "")
        : w;
    return stemming ? stem(plain) : plain;
  };
}

/** Builds a tokenizer; {@link tokenize} is the one the index uses. */
export function createTokenizer(options: TokenizerOptions = {}): Tokenizer {
  const word = wordFn(options.stemming ?? true);
  const ngrams = options.cjk === "ngrams";
  return (text: string): string[] => {
    const out: string[] = [];
    const push = (t: string): void => {
      out.push(t);
    };
    const normalized = normalizeText(text);
    const batch = new CjkWords(push);
    TOKEN_RE.lastIndex = 0;
    for (let m = TOKEN_RE.exec(normalized); m !== null; m = TOKEN_RE.exec(normalized)) {
      if (m[3] !== undefined) {
        if (m[4]) pushCompound(m[3] + m[4], out, word, true);
        else pushWord(word(m[3]), out);
      } else if (m[1] !== undefined) {
        const run = m[1];
        pushBigrams(run, push);
        if (ngrams) {
          for (const ch of run) out.push(ch);
        } else batch.add(run);
      } else if (m[2] !== undefined) pushSegments(m[2], push, "all");
    }
    batch.flush();
    return out;
  };
}

/**
 * The index's terms of CJK runs other than bigrams: a one-character run itself, and for longer
 * runs the segmenter's words other than two-character ones (those are bigrams already). Runs are
 * segmented in batches of about {@link SEGMENT_BATCH} characters joined by line breaks (a line
 * break ends a word, so batching does not change the words). Call {@link CjkWords.flush} at the
 * end of the text.
 */
export class CjkWords {
  /** Runs batched since the last flush. */
  private runs: string[] = [];
  /** The memo's words of each batched run, while every run so far was known. */
  private known: (readonly string[])[] | null = [];
  /** Length of the batch joined by line breaks. */
  private length = 0;

  /**
   * @param push receives each term
   * @param memo the segmenter's word-like segments of a run, when already known (see
   *   {@link SegmentMemo}); the terms and their order are the same with or without it
   */
  constructor(
    private readonly push: (term: string) => void,
    private readonly memo?: SegmentMemo,
  ) {}

  /** Adds one CJK run (a match of the tokenizer's CJK group). */
  add(run: string): void {
    if (run.length === 1) {
      this.push(run);
      return;
    }
    this.runs.push(run);
    this.length += (this.length === 0 ? 0 : 1) + run.length;
    if (this.known) {
      const words = this.memo?.(run);
      if (words) this.known.push(words);
      else this.known = null;
    }
    if (this.length >= SEGMENT_BATCH) this.flush();
  }

  /** Segments what is batched. */
  flush(): void {
    if (this.runs.length === 0) return;
    // A line break ends a word, so the batch's words are its runs' words, one run after the other,
    // as long as the batch is not cut in slices (see pushSegments).
    if (this.known && this.length < SEGMENT_SLICE) {
      for (const words of this.known) for (const w of words) if (codePoints(w) !== 2) this.push(w);
    } else pushSegments(this.runs.join("\n"), this.push, "not-two");
    this.runs = [];
    this.known = [];
    this.length = 0;
  }
}

/**
 * The segmenter's word-like segments of a CJK run (in order, unfiltered), when known ahead — for
 * example segmented on another thread by {@link prepareSegments} — or `undefined`.
 */
export type SegmentMemo = (run: string) => readonly string[] | undefined;

/**
 * The tokenizer of the index and of queries (the same function at both ends:
 * test/core/search/search-tokenizer.test.ts, "case 05: …").
 */
export const tokenize: Tokenizer = createTokenizer();

/**
 * Query terms: the index tokenizer's terms (same normalisation, same rules), keeping the ones
 * that make a query precise, as search engines do with CJK unigrams:
 * - an id or number typed whole (`INC-2024-0887`, `3.2.5`) is looked up whole when the index
 *   knows it (`known`); its parts (`3`, `2`, `5`, which half the notes contain) only when not;
 * - a compound of words without digits (`follow-up`, `state-of-the-art`) by its whole and its
 *   parts, so it also finds "follow up" and "Follow–up" (the whole ranks its own spelling first);
 * - a CJK run of two or more characters by its bigrams and the segmenter's longer words; single
 *   characters only for a one-character run.
 * @param known whether the index holds a term
 */
export function createQueryTokenizer(
  options: TokenizerOptions = {},
): (text: string, known: (term: string) => boolean) => string[] {
  const word = wordFn(options.stemming ?? true);
  return (text: string, known: (term: string) => boolean): string[] => {
    const out: string[] = [];
    const push = (t: string): void => {
      out.push(t);
    };
    const normalized = normalizeText(text);
    const re = new RegExp(TOKEN_RE.source, TOKEN_RE.flags);
    for (let m = re.exec(normalized); m !== null; m = re.exec(normalized)) {
      if (m[3] !== undefined) {
        if (m[4]) {
          const whole = (m[3] + m[4]).replace(APOSTROPHE_RE, "");
          pushCompound(
            m[3] + m[4],
            out,
            word,
            !known(whole) ? false : /\p{N}/u.test(whole) ? "only" : true,
          );
        } else pushWord(word(m[3]), out);
      } else if (m[1] !== undefined) {
        const run = m[1];
        if (run.length === 1) out.push(run);
        else {
          pushBigrams(run, push);
          pushSegments(run, push, "long");
        }
      } else if (m[2] !== undefined) pushSegments(m[2], push, "all");
    }
    return out;
  };
}

/**
 * The index terms every note holding `phrase` has (a quoted phrase's required terms): the term of
 * each word of a spaced script, by the index's rules. Left out, because a note may hold the
 * phrase without them: a compound's whole (`"follow-up"` is in a note that says "follow up"),
 * words ending in "s" (the index drops a possessive "'s" before stemming, the phrase check only the
 * apostrophe), and every word of a phrase with CJK or other unspaced characters (a line break or
 * markup may split them, and such a phrase is matched anywhere, so its Latin words may be parts of
 * longer ones). A property test checks the rule against {@link textContainsPhrase} on random text.
 */
export function phraseRequiredTerms(phrase: string, options: TokenizerOptions = {}): string[] {
  const word = wordFn(options.stemming ?? true);
  const out: string[] = [];
  const re = new RegExp(TOKEN_RE.source, TOKEN_RE.flags);
  const normalized = normalizeText(phrase);
  if (CJK_CHAR_RE.test(normalized)) return out;
  for (let m = re.exec(normalized); m !== null; m = re.exec(normalized)) {
    if (m[3] === undefined) continue;
    for (const raw of (m[3] + (m[4] ?? "")).split(JOINER_RE)) {
      if (!raw.replace(APOSTROPHE_RE, "").endsWith("s")) pushWord(word(raw), out);
    }
  }
  return [...new Set(out)];
}

/**
 * The CJK characters of a phrase (at most `max` distinct ones, none when it has more), as query
 * terms. The index holds a CJK character as a term only where it stands alone (`操，作`,
 * `数 据 库`); with them a phrase whose characters are all split apart in a note still reaches it,
 * since the phrase's bigrams are not in that note (fresh-user finding).
 */
export function phraseCharTerms(phrase: string, max = 12): string[] {
  const chars = new Set<string>();
  for (const ch of normalizeText(phrase)) if (CJK_CHAR_RE.test(ch)) chars.add(ch);
  return chars.size <= max ? [...chars] : [];
}

/** NFKC and lower case: the form every comparison in search uses. */
export function normalizeText(text: string): string {
  // Printable ASCII is already NFKC: ICU's normalisation is skipped for it.
  return (ASCII_ONLY.test(text) ? text : text.normalize("NFKC")).toLowerCase();
}

const ASCII_ONLY = /^[\t\n\r -~]*$/;

/** Adds the term `w` to `out` unless it is empty or longer than {@link MAX_TOKEN_LENGTH}. */
export function pushWord(w: string, out: { push(t: string): unknown }): void {
  if (w !== "" && w.length <= MAX_TOKEN_LENGTH) out.push(w);
}

/**
 * A compound (`inc-2024-0887`): `true` pushes the whole and its parts, `"only"` the whole, `false`
 * the parts.
 */
export function pushCompound(
  raw: string,
  out: { push(t: string): unknown },
  word: (w: string) => string,
  whole: boolean | "only",
): void {
  if (whole !== false) {
    const w = raw.includes("'") || raw.includes("’") ? raw.replace(APOSTROPHE_RE, "") : raw;
    if (w.length <= MAX_TOKEN_LENGTH) out.push(w);
    if (whole === "only") return;
  }
  for (const part of raw.split(JOINER_RE)) pushWord(word(part), out);
}

/** Character bigrams of a CJK run (by code point). */
export function pushBigrams(run: string, push: (term: string) => void): void {
  const chars = run.length === Array.from(run).length ? null : Array.from(run);
  const n = chars ? chars.length : run.length;
  for (let i = 0; i + 1 < n; i++)
    push(chars ? `${chars[i] ?? ""}${chars[i + 1] ?? ""}` : run.slice(i, i + 2));
}

/**
 * Words from `Intl.Segmenter`: `all` of them; for CJK runs `not-two` (two-character words are
 * bigrams already) or `long` (three characters or more: the query keeps bigrams instead of single
 * characters).
 */
export function pushSegments(
  text: string,
  push: (term: string) => void,
  keep: "all" | "not-two" | "long",
): void {
  segmentWords(text, (w) => {
    if (keep !== "all") {
      const len = codePoints(w);
      if (keep === "not-two" ? len === 2 : len < 3) return;
    }
    push(w);
  });
}

/**
 * Calls `fn(word, start)` for each word-like segment of the word segmenter, in order, with its
 * offset in `text`. Long texts go in slices: V8's segmenter slows down more than linearly with
 * length. A word cut at a slice edge is still found through its bigrams.
 */
export function segmentWords(text: string, fn: (word: string, start: number) => void): void {
  for (let start = 0; start < text.length;) {
    let end = Math.min(text.length, start + SEGMENT_SLICE);
    const code = text.charCodeAt(end);
    if (end < text.length && code >= 0xdc00 && code <= 0xdfff) end++;
    for (const seg of getSegmenter().segment(
      end - start === text.length ? text : text.slice(start, end),
    )) {
      if (seg.isWordLike) fn(seg.segment, start + seg.index);
    }
    start = end;
  }
}

/** Number of code points of `w` (a surrogate pair counts once). */
function codePoints(w: string): number {
  let n = w.length;
  for (let i = 0; i < w.length; i++) {
    const c = w.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = w.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) n--;
    }
  }
  return n;
}

const CJK_CHAR_RE = new RegExp(`[${CJK}${UNSPACED}]`, "u");

/**
 * Text in the form used to check quoted phrases: NFKC, lower case, apostrophes dropped, every run
 * of other non-letters one space, padded with a space at each end.
 */
export function phraseForm(text: string): string {
  // One pass with a character table instead of two Unicode-property regular expressions: phrase
  // checks run this over up to 200 whole notes per query (query p95, bench/results/search.md).
  const s = normalizeText(text).replace(APOSTROPHE_RE, "");
  const words: string[] = [];
  let start = -1;
  for (let i = 0; i <= s.length; i++) {
    if (i < s.length && isPhraseChar(s, i, s.charCodeAt(i))) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      words.push(s.slice(start, i));
      start = -1;
    }
  }
  return ` ${words.join(" ")} `;
}

/** Letter, number or mark (what {@link phraseForm} keeps), by code unit, filled on first sight. */
const PHRASE_CHAR = new Uint8Array(0x10000);
const PHRASE_CHAR_RE = /^[\p{L}\p{N}\p{M}]$/u;

function isPhraseChar(s: string, i: number, c: number): boolean {
  if (i >= s.length) return false;
  if (c >= 0xd800 && c <= 0xdfff) {
    // Astral: test the whole code point (a low surrogate goes with the high one before it); a
    // lone surrogate is not a character.
    const high = c < 0xdc00 ? i : i - 1;
    const h = s.charCodeAt(high);
    const l = s.charCodeAt(high + 1);
    if (!(h >= 0xd800 && h <= 0xdbff && l >= 0xdc00 && l <= 0xdfff)) return false;
    return PHRASE_CHAR_RE.test(String.fromCodePoint(s.codePointAt(high) ?? c));
  }
  let v = PHRASE_CHAR[c] ?? 0;
  if (v === 0) {
    v = PHRASE_CHAR_RE.test(String.fromCharCode(c)) ? 1 : 2;
    PHRASE_CHAR[c] = v;
  }
  return v === 1;
}

/** CJK-class flag of BMP code units (see {@link phraseCharKind}): 0 unknown, 1 no, 2 yes. */
const CJK_KIND = new Uint8Array(0x10000);

/**
 * What the code unit at `i` of normalised text is to a phrase check: 0 not a phrase character
 * (a word gap), 1 a letter, number or mark of a script written with spaces, 2 one of a script
 * written without them (CJK, Thai, Lao, Khmer, Myanmar), which also ends a neighbouring Latin word
 * (see {@link containsPhrase}). A surrogate gets the kind of its whole code point; a lone one is 0.
 */
export function phraseCharKind(s: string, i: number): 0 | 1 | 2 {
  const c = s.charCodeAt(i);
  if (!isPhraseChar(s, i, c)) return 0;
  if (c >= 0xd800 && c <= 0xdfff) {
    const cp = s.codePointAt(c < 0xdc00 ? i : i - 1) ?? c;
    return CJK_CHAR_RE.test(String.fromCodePoint(cp)) ? 2 : 1;
  }
  let v = CJK_KIND[c] ?? 0;
  if (v === 0) {
    v = CJK_CHAR_RE.test(String.fromCharCode(c)) ? 2 : 1;
    CJK_KIND[c] = v;
  }
  return v === 2 ? 2 : 1;
}

/**
 * True when the character of `form` at `i` ends a word on that side: a space, or a CJK (or Thai,
 * Lao, Khmer, Myanmar) character — those scripts put no spaces between words.
 */
function isWordEdge(form: string, i: number): boolean {
  const c = form.charCodeAt(i);
  if (Number.isNaN(c) || c === 0x20) return true;
  const cp =
    c >= 0xdc00 && c <= 0xdfff ? (form.codePointAt(i - 1) ?? c) : (form.codePointAt(i) ?? c);
  return CJK_CHAR_RE.test(String.fromCodePoint(cp));
}

/**
 * True when `text` contains `phrase` (both as given to {@link phraseForm}). Phrases in Latin
 * scripts match whole words, a CJK character next to them counting as a word's end (`"3.2.5"` is
 * found in `第3.2.5条`); a phrase with CJK characters matches anywhere, since those scripts have no
 * spaces between words (nor do spaces, line breaks or punctuation next to them count).
 */
export function containsPhrase(textForm: string, phrase: string): boolean {
  const p = phraseForm(phrase).trim();
  if (p === "") return true;
  if (CJK_CHAR_RE.test(p)) return joinCjk(textForm).includes(joinCjk(p));
  for (let i = textForm.indexOf(p); i >= 0; i = textForm.indexOf(p, i + 1)) {
    if (isWordEdge(textForm, i - 1) && isWordEdge(textForm, i + p.length)) return true;
  }
  return false;
}

const SPACE_BY_CJK = new RegExp(`(?<=[${CJK}${UNSPACED}]) | (?=[${CJK}${UNSPACED}])`, "gu");

/**
 * A phrase form without the spaces next to CJK (or Thai…) characters: those scripts put no spaces
 * between words, so a line break, a comma or markup (`反洗钱**操作**细则`) inside a CJK phrase
 * separates nothing, and `"JWT 令牌"` is found in "使用JWT令牌".
 */
function joinCjk(form: string): string {
  return form.replace(SPACE_BY_CJK, "");
}

/**
 * {@link containsPhrase} of `phraseForm(text)` without building that form for the whole text:
 * the phrase's first word is looked for in the normalised text and the rest checked from there.
 * Phrase checks read up to 200 notes per query, and building each note's phrase form was most of
 * a phrase query's time (query p95, bench/results/search.md). A property test checks it against
 * containsPhrase.
 */
export function textContainsPhrase(text: string, phrase: string): boolean {
  const words = phraseForm(phrase).trim().split(" ");
  const first = words[0] ?? "";
  if (first === "") return true;
  if (CJK_CHAR_RE.test(first) || words.some((w) => CJK_CHAR_RE.test(w)))
    return containsPhrase(phraseForm(text), phrase);
  const t = normalizeText(text).replace(APOSTROPHE_RE, "");
  for (let i = t.indexOf(first); i >= 0; i = t.indexOf(first, i + 1)) {
    if (!phraseEdge(t, i - 1)) continue;
    let j = i + first.length;
    let ok = true;
    for (let k = 1; k < words.length && ok; k++) {
      const w = words[k] ?? "";
      const gap = j;
      while (j < t.length && !isPhraseChar(t, j, t.charCodeAt(j))) j++;
      ok = j > gap && t.startsWith(w, j);
      j += w.length;
    }
    if (ok && phraseEdge(t, j)) return true;
  }
  return false;
}

/** True when position `i` of normalised text is outside a phrase word, or a CJK character (see {@link containsPhrase}). */
function phraseEdge(t: string, i: number): boolean {
  if (i < 0 || i >= t.length) return true;
  if (!isPhraseChar(t, i, t.charCodeAt(i))) return true;
  return isWordEdge(t, i);
}
