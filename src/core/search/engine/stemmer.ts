/**
 * English stemming for the search tokenizer: Martin Porter's 1980 algorithm
 * (https://tartarus.org/martin/PorterStemmer/), applied only to plain ASCII words so ids, numbers
 * and other scripts are never touched. Stemming lets `painting` find `paints`
 * (docs/architecture.md, "Tokenizer": measured on LoCoMo, see bench/results/locomo.md).
 */

const STEP2: Record<string, string> = {
  ational: "ate",
  tional: "tion",
  enci: "ence",
  anci: "ance",
  izer: "ize",
  bli: "ble",
  alli: "al",
  entli: "ent",
  eli: "e",
  ousli: "ous",
  ization: "ize",
  ation: "ate",
  ator: "ate",
  alism: "al",
  iveness: "ive",
  fulness: "ful",
  ousness: "ous",
  aliti: "al",
  iviti: "ive",
  biliti: "ble",
  logi: "log",
};

const STEP3: Record<string, string> = {
  icate: "ic",
  ative: "",
  alize: "al",
  iciti: "ic",
  ical: "ic",
  ful: "",
  ness: "",
};

const cons = "[^aeiou]";
const vowel = "[aeiouy]";
const consSeq = `${cons}[^aeiouy]*`;
const vowelSeq = `${vowel}[aeiou]*`;
/** [C]VC… : measure m > 0. */
const MGR0 = new RegExp(`^(${consSeq})?${vowelSeq}${consSeq}`);
/** [C]VC[V] : measure m = 1. */
const MEQ1 = new RegExp(`^(${consSeq})?${vowelSeq}${consSeq}(${vowelSeq})?$`);
/** [C]VCVC… : measure m > 1. */
const MGR1 = new RegExp(`^(${consSeq})?${vowelSeq}${consSeq}${vowelSeq}${consSeq}`);
/** A vowel in the stem. */
const HAS_VOWEL = new RegExp(`^(${consSeq})?${vowel}`);
const CVC = new RegExp(`^${consSeq}${vowel}[^aeiouwxy]$`);
const DOUBLE_CONS = /([^aeiouylsz])\1$/;
const STEP2_RE =
  /^(.+?)(ational|tional|enci|anci|izer|bli|alli|entli|eli|ousli|ization|ation|ator|alism|iveness|fulness|ousness|aliti|iviti|biliti|logi)$/;
const STEP3_RE = /^(.+?)(icate|ative|alize|iciti|ical|ful|ness)$/;
const STEP4_RE = /^(.+?)(al|ance|ence|er|ic|able|ible|ant|ement|ment|ent|ou|ism|ate|iti|ous|ive|ize)$/;
const STEP4_ION = /^(.+?)(s|t)(ion)$/;
const ASCII_WORD = /^[a-z]+$/;

/** Memo of recent stems: natural text repeats a small vocabulary, so this saves most of the work. */
const memo = new Map<string, string>();
const MEMO_MAX = 100_000;

/**
 * Porter stem of a lower-case word. Words that are not plain ASCII letters, or shorter than 3
 * letters, are returned unchanged.
 */
export function stem(word: string): string {
  const first = word.charCodeAt(0);
  // Numbers, ids and other scripts are never stemmed; keep them out of the memo too.
  if (word.length < 3 || first < 97 || first > 122) return word;
  const known = memo.get(word);
  if (known !== undefined) return known;
  const result = ASCII_WORD.test(word) ? porter(word) : word;
  if (memo.size >= MEMO_MAX) memo.clear();
  memo.set(word, result);
  return result;
}

/**
 * {@link stem} without the memo, for callers that remember results themselves (the index's term
 * scanner remembers each spelling's term id): the memo would only keep strings alive.
 */
export function stemOnce(word: string): string {
  const first = word.charCodeAt(0);
  if (word.length < 3 || first < 97 || first > 122) return word;
  return ASCII_WORD.test(word) ? porter(word) : word;
}

function porter(input: string): string {
  let w = input;
  const yFirst = w.startsWith("y");
  // A leading y acts as a consonant; mark it so the vowel patterns skip it.
  if (yFirst) w = `Y${w.slice(1)}`;

  // Step 1a: plurals.
  let m: RegExpExecArray | null;
  if ((m = /^(.+?)(ss|i)es$/.exec(w))) w = `${m[1]}${m[2]}`;
  else if ((m = /^(.+?)([^s])s$/.exec(w))) w = `${m[1]}${m[2]}`;

  // Step 1b: -eed, -ed, -ing.
  if ((m = /^(.+?)eed$/.exec(w))) {
    if (MGR0.test(m[1] ?? "")) w = w.slice(0, -1);
  } else if ((m = /^(.+?)(ed|ing)$/.exec(w))) {
    const st = m[1] ?? "";
    if (HAS_VOWEL.test(st)) {
      w = st;
      if (/(at|bl|iz)$/.test(w)) w += "e";
      else if (DOUBLE_CONS.test(w)) w = w.slice(0, -1);
      else if (CVC.test(w)) w += "e";
    }
  }

  // Step 1c: y → i after a vowel-bearing stem.
  if ((m = /^(.+?)y$/.exec(w)) && HAS_VOWEL.test(m[1] ?? "")) w = `${m[1]}i`;

  // Step 2.
  if ((m = STEP2_RE.exec(w)) && MGR0.test(m[1] ?? "")) w = `${m[1]}${STEP2[m[2] ?? ""] ?? ""}`;

  // Step 3.
  if ((m = STEP3_RE.exec(w)) && MGR0.test(m[1] ?? "")) w = `${m[1]}${STEP3[m[2] ?? ""] ?? ""}`;

  // Step 4.
  if ((m = STEP4_RE.exec(w))) {
    if (MGR1.test(m[1] ?? "")) w = m[1] ?? w;
  } else if ((m = STEP4_ION.exec(w))) {
    const st = `${m[1]}${m[2]}`;
    if (MGR1.test(st)) w = st;
  }

  // Step 5.
  if ((m = /^(.+?)e$/.exec(w))) {
    const st = m[1] ?? "";
    if (MGR1.test(st) || (MEQ1.test(st) && !CVC.test(st))) w = st;
  }
  if (/ll$/.test(w) && MGR1.test(w)) w = w.slice(0, -1);

  if (yFirst) w = `y${w.slice(1)}`;
  return w;
}
