/**
 * The search tokenizer (DESIGN §4, issue 4 §1, case 05). One function, {@link tokenize}, runs at
 * index time and at query time, so a query term always meets the same form in the index.
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
 * See https://developer.mozilla.org/docs/Web/JavaScript/Reference/Global_Objects/Intl/Segmenter
 */
import { stem } from "./stemmer";

/**
 * Changes whenever the tokens produced for the same text change; a saved index made by another
 * version is rebuilt (issue 4 §6).
 */
export const TOKENIZER_VERSION = 3;

/** Scripts segmented by `Intl.Segmenter` and also indexed by character bigrams. */
const CJK = "\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}\\u3005\\u3006\\u30fc";
/** Scripts written without spaces that the segmenter splits into words (no bigrams). */
const UNSPACED = "\\p{Script=Thai}\\p{Script=Lao}\\p{Script=Khmer}\\p{Script=Myanmar}";
/** A letter, digit or mark of any other script. Needs the `v` flag for class subtraction. */
const WORD_CHAR = `[[\\p{L}\\p{N}\\p{M}]--[${CJK}${UNSPACED}]]`;
const WORD = `${WORD_CHAR}+(?:['’]${WORD_CHAR}+)*`;
/**
 * Groups: 1 CJK run, 2 unspaced-script run, 3 word, 4 the rest of a compound (`-2024-0887`).
 * Built with `new RegExp` because the `v` flag is newer than the TypeScript target; Node 20 and
 * Obsidian's Electron both support it.
 */
const TOKEN_RE = new RegExp(`([${CJK}]+)|([${UNSPACED}]+)|(${WORD})((?:[\\-._:\\/]${WORD})*)`, "gv");
const JOINER_RE = /[-._:/]/;
const APOSTROPHE_RE = /['’]/g;
const POSSESSIVE_RE = /['’]s$/;
/** Tokens longer than this (hashes, base64) are kept only by their parts. */
const MAX_TOKEN_LENGTH = 64;
/**
 * CJK runs are segmented in batches of about this many characters: each `segment()` call has a
 * fixed cost, and V8's segmenter slows down more than linearly on very long strings.
 */
const SEGMENT_BATCH = 600;

let segmenter: Intl.Segmenter | null = null;
function getSegmenter(): Intl.Segmenter {
  // "zh" only pins the locale; ICU picks its CJK dictionary by script, so Japanese works too.
  segmenter ??= new Intl.Segmenter("zh", { granularity: "word" });
  return segmenter;
}

/** Options of {@link createTokenizer}. */
export interface TokenizerOptions {
  /** Porter-stem plain ASCII words (default true). */
  stemming?: boolean;
}

/** A tokenizer: text in, search terms out (duplicates kept for term frequency). */
export type Tokenizer = (text: string) => string[];

/** Builds a tokenizer; {@link tokenize} is the one the index uses. */
export function createTokenizer(options: TokenizerOptions = {}): Tokenizer {
  const stemming = options.stemming ?? true;
  const word = (w: string): string => {
    const plain = w.includes("'") || w.includes("’") ? w.replace(POSSESSIVE_RE, "").replace(APOSTROPHE_RE, "") : w;
    return stemming ? stem(plain) : plain;
  };
  return (text: string): string[] => {
    const out: string[] = [];
    const normalized = normalizeText(text);
    let batch = "";
    TOKEN_RE.lastIndex = 0;
    for (let m = TOKEN_RE.exec(normalized); m !== null; m = TOKEN_RE.exec(normalized)) {
      if (m[3] !== undefined) {
        if (m[4]) pushCompound(m[3] + m[4], out, word);
        else {
          const w = word(m[3]);
          if (w !== "" && w.length <= MAX_TOKEN_LENGTH) out.push(w);
        }
      } else if (m[1] !== undefined) {
        const run = m[1];
        pushBigrams(run, out);
        // A one-character run is its own token; longer runs also get the segmenter's words.
        if (run.length === 1) out.push(run);
        else {
          batch = batch === "" ? run : `${batch}\n${run}`;
          if (batch.length >= SEGMENT_BATCH) {
            pushSegments(batch, out, true);
            batch = "";
          }
        }
      } else if (m[2] !== undefined) pushSegments(m[2], out, false);
    }
    if (batch !== "") pushSegments(batch, out, true);
    return out;
  };
}

/** The tokenizer of the index and of queries (case 05: the same function at both ends). */
export const tokenize: Tokenizer = createTokenizer();

/** NFKC and lower case: the form every comparison in search uses. */
export function normalizeText(text: string): string {
  return text.normalize("NFKC").toLowerCase();
}

function pushCompound(raw: string, out: string[], word: (w: string) => string): void {
  const whole = raw.includes("'") || raw.includes("’") ? raw.replace(APOSTROPHE_RE, "") : raw;
  if (whole.length <= MAX_TOKEN_LENGTH) out.push(whole);
  for (const part of raw.split(JOINER_RE)) {
    const w = word(part);
    if (w !== "" && w.length <= MAX_TOKEN_LENGTH) out.push(w);
  }
}

function pushBigrams(run: string, out: string[]): void {
  const chars = run.length === Array.from(run).length ? null : Array.from(run);
  const n = chars ? chars.length : run.length;
  for (let i = 0; i + 1 < n; i++) out.push(chars ? `${chars[i] ?? ""}${chars[i + 1] ?? ""}` : run.slice(i, i + 2));
}

/**
 * Words from `Intl.Segmenter`. For CJK (`cjk`), two-character words are left out: they are
 * already among the bigrams.
 */
function pushSegments(text: string, out: string[], cjk: boolean): void {
  for (const seg of getSegmenter().segment(text)) {
    if (!seg.isWordLike) continue;
    const w = seg.segment;
    if (cjk && (w.length === 2 ? true : w.length === 4 && Array.from(w).length === 2)) continue;
    out.push(w);
  }
}

/** Non-letter, non-digit runs, collapsed to one space for phrase matching. */
const SEPARATORS_RE = /[^\p{L}\p{N}\p{M}]+/gu;
const CJK_CHAR_RE = new RegExp(`[${CJK}${UNSPACED}]`, "v");

/**
 * Text in the form used to check quoted phrases: NFKC, lower case, apostrophes dropped, every run
 * of other non-letters one space, padded with a space at each end.
 */
export function phraseForm(text: string): string {
  return ` ${normalizeText(text).replace(APOSTROPHE_RE, "").replace(SEPARATORS_RE, " ").trim()} `;
}

/**
 * True when `text` contains `phrase` (both as given to {@link phraseForm}). Phrases in Latin
 * scripts match whole words; a phrase with CJK characters matches anywhere, since those scripts
 * have no spaces between words.
 */
export function containsPhrase(textForm: string, phrase: string): boolean {
  const p = phraseForm(phrase);
  if (p.trim() === "") return true;
  if (CJK_CHAR_RE.test(p)) return textForm.includes(p.trim());
  return textForm.includes(p);
}
