/**
 * One rule for "the same statement" (docs/contradictions.md, "The rule"): a later statement is a
 * restatement of an earlier one, a change of it, or a separate fact, decided from the statement's
 * parts rather than from word overlap alone:
 * - the **subject** with its identifiers and qualifiers (ticket keys `PROJ-101`, quarters `Q3`,
 *   numbers that name things `invoice 1042`, versions, years, environments `staging`/`prod`,
 *   platforms, periods `this week`; `第三季度`, `测试环境`, `发票 1042`, `下周`);
 * - the **value** (numbers with their units, times, dates, weekdays, months, on/off; `9 点半`,
 *   `12 月 20 日`, `两周`, `开启`/`关闭`);
 * - the **polarity** (not, no longer, not … any more, stopped, never, cannot; 不, 不再, 不用,
 *   停止, 取消, 别, 没);
 * - **change markers** (changed from X to Y, moved to, now, switched … to, instead of, raised to;
 *   改为, 调整为, 从…到…, 换成, 改成, 推迟到, 现在).
 * English and Chinese are read this way; a text in another language (or script) is compared as
 * before this rule: {@link legacyOutcome}.
 */
import { stemmer } from "stemmer";
import { stripWikilinkBrackets } from "../markdown/wikilinks";
import {
  contentSize,
  negationsOf,
  sameItemText,
  similarityTokens,
  subjectSimilarity,
  valuesOf,
} from "./dedupe";

/** What a later statement is to an earlier one. */
export type StatementOutcome = "restatement" | "change" | "separate" | "possible-change";

/** The outcome of {@link compareStatements}, and for a change whether it flips or revalues. */
export interface StatementComparison {
  outcome: StatementOutcome;
  /** For `change` and `possible-change`: `polarity` (one says the opposite) or `value`. */
  reason?: "polarity" | "value";
}

/**
 * Frame similarity (multiset Jaccard index of the words left once identifiers, values,
 * negations, change markers and fillers are taken out) at or above which two statements are
 * about the same subject whatever else differs, unless their subjects share words and then part
 * (`subjectsDiverge`: "the build server timeout" / "the build server region").
 */
export const SAME_FRAME = 0.75;
/**
 * Frame similarity below which two statements are about different things. Between it and
 * {@link SAME_FRAME} the statements share part of their frame: where the words differ decides.
 */
export const RELATED_FRAME = 0.3;

/**
 * Fewest subject words (frame words and identifiers) a statement needs before the rule compares
 * it: "standup moved to 10:00" has one, "Not Friday" none.
 */
export const MIN_SUBJECT_WORDS = 1;

/** A frame word, and whether it stands before the predicate (the subject part). */
interface FrameWord {
  word: string;
  subject: boolean;
  /** The manner preposition of the phrase the word is in (`with` in "deploy with blue-green"). */
  manner?: string;
}

/** The parts of a statement (see the module comment). */
export interface StatementParts {
  lang: "en" | "zh" | "other";
  /** Identifiers and qualifiers, normalised (`proj-101`, `q3`, `invoice 1042`, `env:prod`). */
  ids: string[];
  /** Values in the order written, normalised (`100`, `9:30`, `fri`, `on`), the `from` part left out. */
  values: string[];
  /** Values of a `from X` / `instead of X` / `从 X` part: the old value a change names. */
  fromValues: string[];
  /** Number of negations. */
  negations: number;
  /** Whether a change marker is present. */
  marker: boolean;
  /** Words of the frame: what the statement says, values and identifiers aside. */
  frame: FrameWord[];
}

const HAN = /\p{Script=Han}/u;
const OTHER_SCRIPT =
  /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Thai}\p{Script=Devanagari}]/u;
/** Latin letters outside ASCII: a French, German, Spanish… text. */
const NON_ENGLISH_LATIN = /[\u00c0-\u024f]/u;

/** The language the rule reads a text in. */
export function statementLanguage(text: string): "en" | "zh" | "other" {
  if (OTHER_SCRIPT.test(text)) return "other";
  if (HAN.test(text)) return "zh";
  if (NON_ENGLISH_LATIN.test(text)) return "other";
  return /[a-z]/i.test(text) ? "en" : "other";
}

// ---------------------------------------------------------------------------------------------
// English

const EN_WEEKDAY: Record<string, string> = {
  mon: "mon",
  monday: "mon",
  tue: "tue",
  tues: "tue",
  tuesday: "tue",
  wed: "wed",
  wednesday: "wed",
  thu: "thu",
  thur: "thu",
  thurs: "thu",
  thursday: "thu",
  fri: "fri",
  friday: "fri",
  sat: "sat",
  saturday: "sat",
  sun: "sun",
  sunday: "sun",
};
const EN_MONTH: Record<string, string> = {
  january: "m1",
  jan: "m1",
  february: "m2",
  feb: "m2",
  march: "m3",
  mar: "m3",
  april: "m4",
  apr: "m4",
  may: "m5",
  june: "m6",
  jun: "m6",
  july: "m7",
  jul: "m7",
  august: "m8",
  aug: "m8",
  september: "m9",
  sep: "m9",
  sept: "m9",
  october: "m10",
  oct: "m10",
  november: "m11",
  nov: "m11",
  december: "m12",
  dec: "m12",
};
const EN_NUMBER_WORD: Record<string, string> = {
  one: "1",
  two: "2",
  three: "3",
  four: "4",
  five: "5",
  six: "6",
  seven: "7",
  eight: "8",
  nine: "9",
  ten: "10",
  eleven: "11",
  twelve: "12",
  weekly: "w1",
  daily: "d1",
  monthly: "mo1",
  hourly: "h1",
  nightly: "n1",
};
const ON_OFF: Record<string, string> = {
  off: "off",
  enabled: "on",
  enable: "on",
  disabled: "off",
  disable: "off",
  true: "on",
  false: "off",
};
/** Relative days: values ("the demo moved to tomorrow"). */
const EN_DAY_WORD = new Set(["today", "tomorrow", "yesterday", "tonight"]);
/** Words whose number names a thing (`invoice 1042`), not a value. */
const ID_NOUN = new Set(
  "invoice order ticket issue bug pr customer account sprint room build release incident case item task job batch iteration milestone phase stage tier floor step run week ward gate flight lot po server service node host shard replica worker cluster instance machine vm zone site store warehouse building team plan option".split(
    " ",
  ),
);
const ENVIRONMENT: Record<string, string> = {
  staging: "staging",
  stage: "staging",
  prod: "prod",
  production: "prod",
  dev: "dev",
  development: "dev",
  qa: "qa",
  uat: "uat",
  sandbox: "sandbox",
  preprod: "preprod",
};
const PLATFORM = new Set("ios android web desktop mobile windows macos mac linux".split(" "));
const REGION = new Set("eu us uk apac emea latam".split(" "));
/** `this week`, `next month`: a period that qualifies the subject. */
const PERIOD_WORD = new Set(["this", "next", "last"]);
const PERIOD_UNIT = new Set(["week", "month", "quarter", "year", "sprint", "weekend"]);
/** Words that only tie the sentence together. */
const EN_STOP = new Set(
  "the a an of and with our my your their we i us they you he she it its there that which so then also just still only about every each other both either this those these me them his her as or if when whether very really".split(
    " ",
  ),
);
const EN_AUX = new Set(
  "is are was were be been being am will would shall should must can could may might do does did has have had get gets getting going gonna".split(
    " ",
  ),
);
/** Words that say a value is held or permitted, not what the subject is. */
const EN_VALUE_VERB = new Set(
  "allowed allow allows permitted ok okay fine able need needs needed required length duration last lasts lasted take takes took came come comes set".split(
    " ",
  ),
);
const EN_PREP = new Set(
  "at on in by for from to after before until till since within per into onto via over under around than".split(
    " ",
  ),
);
/**
 * Prepositions that say how or by what means (`deploy with blue-green`, `via rsync`, `using
 * Helm`): a word after one names a manner, not a time, a place or an amount.
 */
const EN_MANNER_PREP = new Set(["with", "via", "using", "through"]);
const EN_NEGATION = new Set(["not", "never", "no", "none", "nor", "neither", "cannot", "without"]);
const EN_STOP_VERB = new Set(["stop", "stopped", "stops", "stopping", "quit", "ceased"]);
/** Change markers: removed from the frame, and a change is read where the rest allows. */
const EN_MARKER = new Set(
  "now changed change changes changing moved move moves moving switched switch switches switching raised raise lowered lower increased increase decreased decrease reduced reduce bumped bump pushed push postponed postpone delayed delay became become becomes instead again replaced replace renamed rename upgraded upgrade downgraded downgrade extended extend shortened shorten cut dropped".split(
    " ",
  ),
);
/** Articles and possessives: a word right after one is a noun ("the deploy window"). */
const EN_DETERMINER = new Set(
  "the a an our their its his her my your this that these those".split(" "),
);
/** Verbs common in statements of fact: where the predicate starts. */
const EN_VERB = new Set(
  "own owns use uses run runs need needs hold holds take takes last lasts start starts end ends close closes open opens load loads crash crashes drop drops support supports allow allows seat seats renew renews reply replies ship ships deploy deploys lead leads pay pays review reviews store stores keep keeps log logs page pages approve approves times costs cost sits host hosts cover covers handle handles meet meets happen happens live lives go goes require requires".split(
    " ",
  ),
);
/** Words that name the unit of the number before them. */
const EN_UNIT = new Set(
  "gb mb kb tb ms s sec secs second seconds minute minutes min mins hour hours h hr hrs day days week weeks month months year years percent people person requests request req rps users times x k m".split(
    " ",
  ),
);
/** Words that mean the same for the rule: restatements say them either way. */
const EN_SYNONYM: Record<string, string> = {
  kept: "store",
  keep: "store",
  retain: "store",
  retaind: "store",
  db: "databas",
  deploy: "deploi",
  deployment: "deploi",
  lengthi: "",
};

/**
 * A one-letter name after a word ("Service A", "Plan B", "Team C"): the letter, a capital other
 * than `I` that no letter or digit follows, after a word written in lower case past its first
 * letter. Marked with {@link LABEL_MARK} before the text is lowercased, since "service a" could be
 * an article; read as an identifier of the word before it.
 */
const LETTER_LABEL = /(\b[A-Za-z][a-z-]+)[ \t]+([A-HJ-Z])(?![\p{L}\p{N}'’-])/gu;
/** Invisible, so a marked text reads as before anywhere else (U+2062, INVISIBLE TIMES). */
const LABEL_MARK = "\u2062";

const EN_TOKEN =
  /(?<label>\u2062[a-z])|(?<ticket>\b[a-z][a-z0-9]*-\d+\b)|(?<hash>#\d+)|(?<date>\b\d{4}-\d{2}-\d{2}\b)|(?<time>\b\d{1,2}:\d{2}(?:\s?(?:am|pm))?|\b\d{1,2}\s?(?:am|pm)\b)|(?<version>\bv\d+(?:\.\d+)*\b)|(?<quarter>\b(?:q[1-4]|h[12]|fy\d{2,4})\b)|(?<number>\$?\d+(?:[.,]\d+)*(?:%|st|nd|rd|th|k|m|b|x|gb|mb|kb|tb|ms|s|h|min)?(?![a-z0-9]))|(?<code>\b[a-z0-9]*\d[a-z0-9]*\b)|(?<word>[a-z]+(?:['’-][a-z]+)*)|(?<punct>[^\s\p{L}\p{N}])/gu;

interface EnToken {
  kind:
    | "label"
    | "ticket"
    | "hash"
    | "date"
    | "time"
    | "version"
    | "quarter"
    | "number"
    | "code"
    | "word"
    | "punct";
  text: string;
}

function enTokens(text: string): EnToken[] {
  const out: EnToken[] = [];
  for (const m of text.matchAll(EN_TOKEN)) {
    const g = m.groups ?? {};
    const kind = (Object.keys(g) as EnToken["kind"][]).find((k) => g[k] !== undefined);
    if (kind) out.push({ kind, text: m[0] });
  }
  return out;
}

function normaliseTime(s: string): string {
  const m = /^(\d{1,2})(?::(\d{2}))?\s?(am|pm)?$/.exec(s.trim());
  if (!m) return s;
  let h = Number(m[1]);
  if (m[3] === "pm" && h < 12) h += 12;
  if (m[3] === "am" && h === 12) h = 0;
  return `${h}:${m[2] ?? "00"}`;
}

function normaliseNumber(s: string): string {
  const n = s.replace(/^\$/, "").replace(/(\d),(?=\d{3}\b)/g, "$1");
  const m = /^(\d+(?:\.\d+)?)(.*)$/.exec(n);
  if (!m) return n;
  const suffix = m[2] ?? "";
  // Ordinals and units name the same number: `14th` is 14, `50gb` is 50.
  if (/^(?:st|nd|rd|th|gb|mb|kb|tb|ms|s|h|min|x)$/.test(suffix)) return String(Number(m[1]));
  return `${Number(m[1])}${suffix}`;
}

/** The parts of an English statement. */
function englishParts(source: string): StatementParts {
  const tokens = enTokens(source);
  const ids: string[] = [];
  const values: string[] = [];
  const fromValues: string[] = [];
  const frame: FrameWord[] = [];
  let negations = 0;
  let marker = false;
  let predicate = false;
  /** Inside `from X` (until `to`) or `instead of X` (until punctuation): values are the old ones. */
  let from: "from" | "instead" | null = null;
  /** The manner preposition (`with`, `via`…) whose phrase the words are in, until the phrase ends. */
  let manner: string | undefined;
  const word = (i: number) => (tokens[i]?.kind === "word" ? (tokens[i]?.text ?? "") : "");
  const put = (v: string) => (from ? fromValues : values).push(v);
  const isValueToken = (t: EnToken | undefined) =>
    !!t &&
    (t.kind === "number" || t.kind === "time" || t.kind === "date" || !!EN_NUMBER_WORD[t.text]);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as EnToken;
    const w = t.kind === "word" ? t.text.replace(/’/g, "'") : "";
    const prev = word(i - 1);
    // A manner phrase runs until punctuation, a value, a preposition or a word that ties a verb.
    if (
      manner &&
      (t.kind !== "word" ||
        EN_PREP.has(w) ||
        EN_AUX.has(w) ||
        EN_MARKER.has(w) ||
        EN_NEGATION.has(w) ||
        EN_VALUE_VERB.has(w))
    )
      manner = undefined;
    if (EN_MANNER_PREP.has(w)) {
      predicate = true;
      manner = w;
      if (w === "using") frame.push({ word: stemWord(w), subject: false, manner: w });
      continue;
    }
    if (t.kind === "punct") {
      if (from === "instead") from = null;
      continue;
    }
    if (w === "from" && word(i + 1) === "now") {
      marker = true;
      i += word(i + 2) === "on" ? 2 : 1;
      continue;
    }
    if (w === "from") {
      from = "from";
      predicate = true;
      continue;
    }
    if (w === "to" && from === "from") {
      from = null;
      continue;
    }
    if (w === "instead" && word(i + 1) === "of") {
      marker = true;
      from = "instead";
      i++;
      continue;
    }
    if (t.kind === "label") {
      // "Service A": the name is the word and its letter, the word no longer a frame word.
      if (prev !== "" && frame.at(-1)?.word === stemWord(prev)) frame.pop();
      ids.push(`${prev} ${t.text.slice(1)}`);
      continue;
    }
    if (t.kind === "ticket" || t.kind === "hash" || t.kind === "quarter") {
      ids.push(t.text.replace(/^#/, "#"));
      continue;
    }
    if (t.kind === "version" || t.kind === "code") {
      if (predicate) put(t.text);
      else ids.push(t.text);
      continue;
    }
    if (t.kind === "date") {
      put(t.text);
      predicate = true;
      continue;
    }
    if (t.kind === "time") {
      put(normaliseTime(t.text));
      predicate = true;
      continue;
    }
    if (t.kind === "number") {
      const n = normaliseNumber(t.text);
      if (ID_NOUN.has(prev) || (prev === "" && tokens[i - 1]?.text === "#"))
        ids.push(`${prev} ${n}`);
      else if (/^(?:19|20)\d{2}$/.test(n) && !EN_UNIT.has(word(i + 1))) ids.push(n);
      else {
        put(n);
        predicate = true;
      }
      continue;
    }
    // Words.
    if (i === 0 && /^(?:we|i|they|you|he|she|everyone|everybody|nobody)$/.test(w)) {
      predicate = true;
      continue;
    }
    if (/n't$|n’t$/.test(t.text)) {
      negations++;
      predicate = true;
      continue;
    }
    if (w === "no" && word(i + 1) === "longer") {
      negations++;
      marker = true;
      predicate = true;
      i++;
      continue;
    }
    if ((w === "any" && word(i + 1) === "more") || w === "anymore") {
      if (w === "any") i++;
      continue;
    }
    if (EN_NEGATION.has(w) || EN_STOP_VERB.has(w)) {
      negations++;
      predicate = true;
      continue;
    }
    if (EN_WEEKDAY[w.replace(/s$/, "")] !== undefined || EN_WEEKDAY[w] !== undefined) {
      const v = EN_WEEKDAY[w] ?? EN_WEEKDAY[w.replace(/s$/, "")] ?? w;
      const next = tokens[i + 1];
      const qualifier =
        !EN_PREP.has(prev) &&
        prev !== "every" &&
        prev !== "other" &&
        next?.kind === "word" &&
        !EN_PREP.has(next.text) &&
        !EN_AUX.has(next.text) &&
        !EN_STOP.has(next.text) &&
        !EN_NEGATION.has(next.text);
      if (qualifier) ids.push(v);
      else {
        put(v);
        predicate = true;
      }
      continue;
    }
    if (EN_MONTH[w] !== undefined && !(w === "may" && !isValueToken(tokens[i + 1]))) {
      const v = EN_MONTH[w] ?? w;
      const next = tokens[i + 1];
      const qualifier =
        !EN_PREP.has(prev) &&
        next?.kind === "word" &&
        !EN_PREP.has(next.text) &&
        !EN_AUX.has(next.text);
      if (qualifier) ids.push(v);
      else {
        put(v);
        predicate = true;
      }
      continue;
    }
    if (PERIOD_WORD.has(w) && PERIOD_UNIT.has(word(i + 1))) {
      ids.push(`${w} ${word(i + 1)}`);
      i++;
      continue;
    }
    if (EN_DAY_WORD.has(w)) {
      put(w);
      predicate = true;
      continue;
    }
    if (EN_NUMBER_WORD[w] !== undefined) {
      put(EN_NUMBER_WORD[w] ?? w);
      predicate = true;
      continue;
    }
    if (ON_OFF[w] !== undefined) {
      put(ON_OFF[w] ?? w);
      predicate = true;
      continue;
    }
    if (
      w === "on" &&
      (EN_AUX.has(prev) || prev === "turned" || prev === "switched") &&
      (i + 1 >= tokens.length || tokens[i + 1]?.kind === "punct" || EN_PREP.has(word(i + 1)))
    ) {
      put("on");
      predicate = true;
      continue;
    }
    if (ENVIRONMENT[w] !== undefined) {
      ids.push(`env:${ENVIRONMENT[w]}`);
      continue;
    }
    if (w === "test" && /^(?:env|environment|cluster|server|db|database)$/.test(word(i + 1))) {
      ids.push("env:test");
      continue;
    }
    if (PLATFORM.has(w)) {
      ids.push(`platform:${w}`);
      continue;
    }
    if (REGION.has(w) && /^(?:region|zone|cluster|office|team|customers?)$/.test(word(i + 1))) {
      ids.push(`region:${w}`);
      continue;
    }
    // A unit after a value (`200 GB`, `100 requests per second`) belongs to the value.
    const before = tokens[i - 1]?.text === "/" ? tokens[i - 2] : tokens[i - 1];
    if (EN_UNIT.has(w) && (isValueToken(before) || prev === "per" || EN_UNIT.has(prev))) continue;
    // `invoice` in `invoice 1042`, `ticket` in `ticket PROJ-101`: part of the identifier.
    const next = tokens[i + 1];
    if (ID_NOUN.has(w) && next && /^(?:ticket|hash|number|code)$/.test(next.kind)) continue;
    if (EN_MARKER.has(w)) {
      marker = true;
      predicate = true;
      continue;
    }
    if (EN_AUX.has(w) || EN_VALUE_VERB.has(w)) {
      predicate = true;
      continue;
    }
    if (EN_STOP.has(w) || EN_PREP.has(w)) {
      if (EN_PREP.has(w)) predicate = true;
      continue;
    }
    if (from) {
      fromValues.push(stemWord(w));
      continue;
    }
    // A verb of the list right after an article or a possessive, or right before `is` (or before
    // one more word and `is`), names a thing of the subject: "the deploy window", "the gateway
    // log level is now debug", "the start time is 9:00".
    const namesThing =
      !predicate &&
      (EN_DETERMINER.has(prev) ||
        EN_AUX.has(word(i + 1)) ||
        (word(i + 1) !== "" && !EN_MARKER.has(word(i + 1)) && EN_AUX.has(word(i + 2))));
    const isVerb = !namesThing && (EN_VERB.has(w) || (/ed$/.test(w) && w.length > 4));
    if (isVerb) predicate = true;
    // A verb ends a manner phrase ("with blue-green and run smoke tests").
    if (isVerb) manner = undefined;
    const s = stemWord(w);
    if (s)
      frame.push(
        manner ? { word: s, subject: !predicate, manner } : { word: s, subject: !predicate },
      );
  }
  return { lang: "en", ids, values, fromValues, negations, marker, frame };
}

/**
 * A frame word's stem: Martin Porter's algorithm from the `stemmer` package, as the search
 * tokenizer stems (src/core/search/engine/stemmer.ts; the extraction folder does not import the
 * search folder), then {@link EN_SYNONYM}.
 */
function stemWord(w: string): string {
  const base = w.replace(/['’]s$/, "").replace(/-/g, "");
  const s = /^[a-z]{3,}$/.test(base) ? stemmer(base) : base;
  return EN_SYNONYM[s] ?? EN_SYNONYM[base] ?? s;
}

// ---------------------------------------------------------------------------------------------
// Chinese

const ZH_DIGIT: Record<string, number> = {
  零: 0,
  〇: 0,
  一: 1,
  二: 2,
  两: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  七: 7,
  八: 8,
  九: 9,
  十: 10,
};

/** `十二` → 12, `三` → 3, `二十` → 20. */
function zhNumber(s: string): number {
  if (/^\d/.test(s)) return Number(s);
  let total = 0;
  let digit = 0;
  for (const c of s) {
    const d = ZH_DIGIT[c] ?? 0;
    if (c === "十") {
      total += (digit || 1) * 10;
      digit = 0;
    } else digit = d;
  }
  return total + digit;
}

const ZH_NUM = "(?:\\d+(?:\\.\\d+)?|[零〇一二两三四五六七八九十]+)";
const ZH_WEEKDAY: Record<string, string> = {
  一: "mon",
  二: "tue",
  三: "wed",
  四: "thu",
  五: "fri",
  六: "sat",
  日: "sun",
  天: "sun",
};

/**
 * Patterns of a Chinese statement, in the order they are taken out of the text (each match is
 * replaced by a separator so later ones never see it).
 */
type ZhPattern = {
  re: RegExp;
  take: (m: RegExpExecArray, p: StatementParts, from: boolean) => void;
};
const ZH_ID_PATTERNS: ZhPattern[] = [
  {
    re: /(发票|订单|工单|客户|构建|故障|会议室|房间|版本|迭代|需求|任务)\s*(?:号\s*)?([a-z0-9][a-z0-9-]*)/giu,
    take: (m, p) => p.ids.push(m[2]?.toLowerCase() ?? ""),
  },
  {
    re: /第\s*([一二三四1-4])\s*季度|([一二三四1-4])\s*季度|\bq([1-4])\b/giu,
    take: (m, p) => p.ids.push(`q${zhNumber(m[1] ?? m[2] ?? m[3] ?? "")}`),
  },
  { re: /\b[a-z][a-z0-9]*-\d+\b/giu, take: (m, p) => p.ids.push(m[0].toLowerCase()) },
  { re: /#\d+/gu, take: (m, p) => p.ids.push(m[0]) },
  { re: /\bv\d+(?:\.\d+)*\b/giu, take: (m, p) => p.ids.push(m[0].toLowerCase()) },
  {
    re: /第\s*(\d+|[一二三四五六七八九十]+)\s*(?:个)?/gu,
    take: (m, p) => p.ids.push(`第${zhNumber(m[1] ?? "")}`),
  },
  { re: /(\d{4})\s*年/gu, take: (m, p) => p.ids.push(m[1] ?? "") },
  {
    re: /(测试|生产|开发|预发|预生产)(?:环境|集群|服务器|数据库|库)|线上/gu,
    take: (m, p) =>
      p.ids.push(
        `env:${m[1] === "生产" || m[0] === "线上" ? "prod" : m[1] === "测试" ? "test" : m[1] === "开发" ? "dev" : "staging"}`,
      ),
  },
  {
    re: /(ios|安卓|android|网页|web|桌面|移动|pc|小程序)\s*(?:端|版)/giu,
    take: (m, p) => p.ids.push(`platform:${(m[1] ?? "").toLowerCase()}`),
  },
  {
    re: /(这|本|下|上)(?:个)?(周|星期|月|季度|年)/gu,
    take: (m, p) => p.ids.push(`${m[1] === "本" ? "这" : m[1]}${m[2]}`),
  },
  { re: /华[东南北中]|西南|西北|东北/gu, take: (m, p) => p.ids.push(m[0]) },
  // A month that opens the statement names its period (`一月流失率`).
  {
    re: /^\s*([一二三四五六七八九十]{1,2}|\d{1,2})\s*月(?=[\p{Script=Han}])(?![底初中])/u,
    take: (m, p) => p.ids.push(`m${zhNumber(m[1] ?? "")}`),
  },
];
const ZH_VALUE_PATTERNS: ZhPattern[] = [
  {
    re: new RegExp(`(\\d{1,2})\\s*月\\s*(\\d{1,2})\\s*[日号]`, "gu"),
    take: (m, p, from) => (from ? p.fromValues : p.values).push(`${m[1]}-${m[2]}`),
  },
  {
    re: new RegExp(
      `(上午|下午|早上|晚上|凌晨|中午|傍晚)?\\s*(${ZH_NUM})\\s*点\\s*(半|\\d+\\s*分)?`,
      "gu",
    ),
    take: (m, p, from) => {
      let h = zhNumber(m[2] ?? "");
      if ((m[1] === "下午" || m[1] === "晚上" || m[1] === "傍晚") && h < 12) h += 12;
      const min =
        m[3] === "半" ? "30" : m[3] ? String(Number.parseInt(m[3], 10)).padStart(2, "0") : "00";
      (from ? p.fromValues : p.values).push(`${h}:${min}`);
    },
  },
  {
    re: new RegExp(
      `(${ZH_NUM})\\s*(%|秒|分钟|小时|天|周|个月|月|年|次|个|人|万|千|百|mb|gb|kb|tb|轮|位|名|倍|号)`,
      "giu",
    ),
    take: (m, p, from) => {
      const n = zhNumber(m[1] ?? "");
      (from ? p.fromValues : p.values).push(`${n}${m[2] === "%" ? "%" : ""}`);
    },
  },
  {
    re: /(?:每)?(?:周|星期|礼拜|禮拜)([一二三四五六日天])(的)?/gu,
    take: (m, p, from) => {
      const v = ZH_WEEKDAY[m[1] ?? ""] ?? "";
      if (m[2]) p.ids.push(v);
      else (from ? p.fromValues : p.values).push(v);
    },
  },
  {
    re: /([一二三四五六七八九十]{1,2})月(?![底初中])/gu,
    take: (m, p, from) => (from ? p.fromValues : p.values).push(`m${zhNumber(m[1] ?? "")}`),
  },
  {
    re: /上午|下午|早上|晚上|凌晨|中午|傍晚/gu,
    take: (m, p, from) => (from ? p.fromValues : p.values).push(m[0]),
  },
  {
    re: /月底|月初|月中|年底|年初|周末/gu,
    take: (m, p, from) => (from ? p.fromValues : p.values).push(m[0]),
  },
  { re: /开启|打开|开着/gu, take: (_m, p, from) => (from ? p.fromValues : p.values).push("on") },
  {
    re: /关闭|关掉|关着|关上/gu,
    take: (_m, p, from) => (from ? p.fromValues : p.values).push("off"),
  },
  {
    re: /\d+(?:\.\d+)?%?/gu,
    take: (m, p, from) => (from ? p.fromValues : p.values).push(normaliseNumber(m[0])),
  },
];

/** Change markers (the value slot follows them). */
const ZH_MARKER =
  /改名为|改由|转由|交由|改为|改成|改到|改在|改用|换成|换到|调整为|调整到|调到|挪到|迁到|迁移到|推迟到|提前到|延长到|缩短到|提高到|降到|降低到|增加到|减少到|变成|变为|升级到|现在|从此|以后|取代/gu;
/** Negations: one each (`不再` is one), and the words that stop or cancel. */
const ZH_NEGATION =
  /不再|不用|不需要|不能|不可以|不允许|不必|停止|取消|没有|(?<![特区區分类類级級识識告差个個性辨鉴鑑送])[别別](?![人的墅名针針致])|不|没|沒|无|無|勿|未(?![来來])/gu;
/**
 * One-character verbs where the predicate may start (在, 有, 用, 要, 会, 能), not where they are part
 * of a noun of the subject: 用户 (user), 使用率, 费用, 调用; 在线, 存在; 有效, 所有; 会话, 会员, 周会;
 * 要求; 能力, 性能.
 */
const ZH_IN = /(?<![存现所实])在(?![线途职])/u.source;
const ZH_HAVE = /(?<![所没拥具含])有(?![效限])/u.source;
const ZH_USE = /(?<![使费应作信通公可专调常采占引日])用(?![户量])/u.source;
const ZH_WANT = /(?<![需重主只])要(?![求素点])/u.source;
const ZH_WILL = /(?<![周开例晨早站年大盘议聚晚月机社年])会(?![话员计议])/u.source;
const ZH_CAN = /(?<![性功技智可])能(?![力源])/u.source;
const ZH_VERB_CHARS = [ZH_IN, ZH_HAVE, ZH_USE, ZH_WANT, ZH_WILL, ZH_CAN].join("|");
/** Where a Chinese predicate starts: the first value, marker, negation, copula or verb. */
const ZH_PREDICATE = new RegExp(
  String.raw`\d|[零〇一二两三四五六七八九十]\s*[点个次天周月年人]|周[一二三四五六日天]|是|为|(?<![理自原缘經经])由(?!于)|${ZH_VERB_CHARS}|可以|需要|不|没|别|停止|取消|改|换|调|挪|迁|推迟|延长|缩短|提高|降|每|开启|打开|关闭|关掉|\|`,
  "u",
);
/** Fillers: particles, copulas, modals, pronouns, adverbs that say nothing of the subject. */
/** The verbs of {@link ZH_VERB_CHARS} that say nothing of a subject: location, modals. */
const ZH_FILLER_VERBS = [ZH_IN, ZH_WANT, ZH_WILL, ZH_CAN].join("|");
const ZH_FILLER = new RegExp(
  String.raw`已经|大概|大约|只要|只需|需要|就行|可以|应该|必须|我们的|我们|我|你们|大家|他们|用的是|还是|的是|一下|定在|是|为|的|了|着|吧|呢|啊|吗|${ZH_FILLER_VERBS}|就|都|也|还|已|只|每|叫|把|被|给|让|每天|每次|：|:`,
  "gu",
);
/** Words that mean the same for the rule. */
const ZH_SYNONYM: [RegExp, string][] = [
  [/保存|保持/gu, "保留"],
  [/安卓/gu, "android"],
];

/** The parts of a Chinese statement. */
function chineseParts(source: string): StatementParts {
  const p: StatementParts = {
    lang: "zh",
    ids: [],
    values: [],
    fromValues: [],
    negations: 0,
    marker: false,
    frame: [],
  };
  // "张三负责支付模块" is said as "支付模块由张三负责": the thing owned is the subject, the owner its
  // value, so a new owner is a change of it ("支付模块改由李四负责").
  const owner = /^([\p{Script=Han}A-Za-z]{2,4})负责(\p{Script=Han}.+)$/u.exec(source);
  let t = owner && !source.includes("由") ? `${owner[2]}由${owner[1]}负责` : source;
  for (const [re, to] of ZH_SYNONYM) t = t.replace(re, to);
  // `从 X 改为 Y`, `从 X 到 Y`, `由 X 调整为 Y`: X is the old value.
  const fromPart =
    /(?:从|由)(.+?)(?=改为|改成|改到|换成|调整为|调整到|调到|迁到|迁移到|缩短到|延长到|提高到|降到|降低到|增加到|减少到|变成|变为|到)/u.exec(
      t,
    );
  let fromText = "";
  if (fromPart) {
    fromText = fromPart[1] ?? "";
    p.marker = true;
    t = `${t.slice(0, fromPart.index)} | ${t.slice(fromPart.index + fromPart[0].length)}`;
  }
  // The predicate starts at the first value, marker, negation or copula: words before it are the subject.
  const predicateAt = (s: string) => {
    const m = ZH_PREDICATE.exec(s);
    return m ? m.index : s.length;
  };
  const mark = (
    s: string,
    patterns: readonly ZhPattern[],
    from: boolean,
    target: StatementParts,
  ) => {
    let out = s;
    for (const { re, take } of patterns) {
      re.lastIndex = 0;
      out = out.replace(re, (...args: unknown[]) => {
        const m = args.slice(0, -2) as string[] as unknown as RegExpExecArray;
        take(m, target, from);
        return " ¦ ";
      });
    }
    return out;
  };
  if (fromText) {
    const scratch: StatementParts = { ...p, ids: [], values: [], fromValues: [] };
    mark(mark(fromText, ZH_ID_PATTERNS, true, scratch), ZH_VALUE_PATTERNS, true, scratch);
    p.fromValues.push(...scratch.fromValues, ...scratch.values);
  }
  t = mark(t, ZH_ID_PATTERNS, false, p)
    .replace(ZH_MARKER, () => {
      p.marker = true;
      return " | ";
    })
    .replace(ZH_NEGATION, () => {
      p.negations++;
      return " | ";
    });
  const cut = predicateAt(t);
  // Subject and predicate are read apart so that each frame word knows its side.
  const sides: [string, boolean][] = [
    [t.slice(0, cut), true],
    [t.slice(cut), false],
  ];
  for (const [side, subject] of sides) {
    const s = mark(side, ZH_VALUE_PATTERNS, false, p).replace(ZH_FILLER, " ");
    for (const run of s.split(/[^\p{Script=Han}a-z0-9]+/iu)) {
      if (run === "") continue;
      if (!run) continue;
      if (!HAN.test(run)) {
        // Latin words in a Chinese text are names (`API`, `A 客户`).
        p.frame.push({ word: run.toLowerCase(), subject });
        continue;
      }
      for (const part of run.match(/\p{Script=Han}+|[a-z0-9]+/giu) ?? []) {
        if (!HAN.test(part)) {
          p.frame.push({ word: part.toLowerCase(), subject });
          continue;
        }
        const chars = Array.from(part);
        if (chars.length === 1) p.frame.push({ word: part, subject });
        for (let i = 0; i + 1 < chars.length; i++)
          p.frame.push({ word: `${chars[i]}${chars[i + 1]}`, subject });
      }
    }
  }
  return p;
}

// ---------------------------------------------------------------------------------------------
// The rule

const partsMemo = new Map<string, StatementParts>();
const PARTS_MAX = 20_000;

/**
 * The parts of a statement (see the module comment); inline fields (`[topic:: …]`) and wikilink
 * brackets are left out. `lang: "other"` for a text the rule does not read.
 */
export function statementParts(text: string): StatementParts {
  const known = partsMemo.get(text);
  if (known) return known;
  const original = text.normalize("NFKC").replaceAll(LABEL_MARK, "");
  const clean = cleaned(original);
  // One-letter names marked before lowercasing ("Service A"), for the English reading only.
  const marked = original.replace(LETTER_LABEL, `$1 ${LABEL_MARK}$2`);
  const lang = statementLanguage(clean);
  const parts =
    lang === "en"
      ? englishParts(marked === original ? clean : cleaned(marked))
      : lang === "zh"
        ? chineseParts(clean)
        : { lang, ids: [], values: [], fromValues: [], negations: 0, marker: false, frame: [] };
  if (partsMemo.size >= PARTS_MAX) partsMemo.clear();
  partsMemo.set(text, parts);
  return parts;
}

/** A statement as the rule reads it: lowercased, without inline fields, wikilink brackets and mentions. */
function cleaned(text: string): string {
  return stripWikilinkBrackets(
    text.toLowerCase().replace(/\[[\p{L}\p{N}_-]+::[^\]]*\]/gu, " "),
    " ",
  ).replace(/(^|[^\p{L}\p{N}_])@[\p{L}\p{N}_-]+/gu, "$1 ");
}

function counts(words: readonly FrameWord[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const w of words) m.set(w.word, (m.get(w.word) ?? 0) + 1);
  return m;
}

/** Multiset Jaccard index of two frames, 0–1 (1 for two empty frames). */
export function frameSimilarity(a: readonly FrameWord[], b: readonly FrameWord[]): number {
  if (a.length === 0 && b.length === 0) return 1;
  const x = counts(a);
  const y = counts(b);
  let shared = 0;
  for (const [w, n] of x) shared += Math.min(n, y.get(w) ?? 0);
  return shared / (a.length + b.length - shared);
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const x = new Set(a);
  const y = new Set(b);
  return x.size === y.size && [...x].every((v) => y.has(v));
}

/** Kana: a text holding some is Japanese (Chinese has none). */
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
/**
 * A Japanese statement's topic: what comes before its first topic, subject or object particle
 * (`APIのタイムアウトは30秒です`, `…を60秒に変更しました`, `接続数上限が300になった`), at least two
 * characters.
 */
const JA_TOPIC = /^(.{2,}?)[はをが]/u;
/** Japanese weekdays (`水曜日`, `水曜`), compared as values. */
const JA_WEEKDAY = /[月火水木金土日]曜/gu;

/** A Japanese statement's topic without spaces, NFKC and lower case; `null` when it has none. */
function japaneseTopic(text: string): string | null {
  const t = text.normalize("NFKC").toLowerCase().replace(/\s+/g, "");
  return KANA.test(t) ? (JA_TOPIC.exec(t)?.[1] ?? null) : null;
}

/**
 * Two Japanese statements of one topic with other values: a change (`APIのタイムアウトは30秒です` →
 * `APIのタイムアウトを60秒に変更しました`; `定例会議は水曜日` → `定例会議を木曜日に変更`). Their
 * endings (`です` / `に変更しました`) are most of their characters, so by similarity alone they
 * were separate facts. `null` when either has no topic, the topics differ, or the values do not
 * (the rest of {@link legacyOutcome} decides).
 */
function japaneseTopicChange(newer: string, older: string): StatementComparison | null {
  const topic = japaneseTopic(newer);
  if (topic === null || topic !== japaneseTopic(older)) return null;
  const values = (text: string) => {
    const t = text.normalize("NFKC").toLowerCase().replace(/\s+/g, "").slice(topic.length);
    const { numbers } = valuesOf(t);
    return `${numbers}|${[...t.matchAll(JA_WEEKDAY)].map((m) => m[0]).join(" ")}`;
  };
  const a = values(newer);
  const b = values(older);
  return a !== b && a !== "|" && b !== "|" ? { outcome: "change", reason: "value" } : null;
}

/**
 * The rule as it was before statements were read by their parts: the same item by `dedupe.ts`'s
 * similarity is a restatement; the same subject with another value or the opposite polarity a
 * change; anything else a separate fact. Texts in languages other than English and Chinese keep
 * it; Japanese statements of one topic (the words before `は`, `を` or `が`) with other values are
 * first read as a change ({@link japaneseTopicChange}).
 */
export function legacyOutcome(newer: string, older: string): StatementComparison {
  if (sameItemText(newer, older)) return { outcome: "restatement" };
  const topicChange = japaneseTopicChange(newer, older);
  if (topicChange) return topicChange;
  if (contentSize(newer) < 2 || contentSize(older) < 2) return { outcome: "separate" };
  if (subjectSimilarity(newer, older) < SAME_FRAME) return { outcome: "separate" };
  if (negationsOf(newer) % 2 !== negationsOf(older) % 2)
    return { outcome: "change", reason: "polarity" };
  const a = valuesOf(newer);
  const b = valuesOf(older);
  if (a.names !== b.names) return { outcome: "change", reason: "value" };
  if (a.numbers === b.numbers) return { outcome: "separate" };
  const sorted = (s: string) => s.split(" ").sort().join(" ");
  return sorted(a.numbers) === sorted(b.numbers)
    ? { outcome: "separate" }
    : { outcome: "change", reason: "value" };
}

/**
 * What the statement `newer` (written later) is to `older`:
 * - `restatement`: the same fact again; no new entry is needed;
 * - `change`: the same subject with another value (`reason: "value"`) or the opposite
 *   (`reason: "polarity"`); the newer supersedes the older, both kept;
 * - `separate`: another subject (another identifier or qualifier, another name before the
 *   predicate, subjects that share their first words and then part, or little in common); both
 *   are current;
 * - `possible-change`: the rule cannot tell a change from a separate fact (a qualifier on one side
 *   only, or a frame shared only in part with no change marker); nothing is superseded, and the
 *   health check lists the pair for a person.
 * Texts in a language other than English or Chinese get {@link legacyOutcome}.
 */
export function compareStatements(newer: string, older: string): StatementComparison {
  const b = statementParts(newer);
  const a = statementParts(older);
  if (a.lang === "other" || b.lang === "other") return legacyOutcome(newer, older);
  // Too little to say anything about a subject ("Not Friday").
  if (
    a.frame.length + a.ids.length < MIN_SUBJECT_WORDS ||
    b.frame.length + b.ids.length < MIN_SUBJECT_WORDS
  ) {
    return sameItemText(newer, older) ? { outcome: "restatement" } : { outcome: "separate" };
  }
  // Another identifier or qualifier: another subject.
  const idsA = [...new Set(a.ids)];
  const idsB = [...new Set(b.ids)];
  if (idsA.length > 0 && idsB.length > 0 && !sameSet(idsA, idsB)) return { outcome: "separate" };
  const oneSidedIds = (idsA.length === 0) !== (idsB.length === 0);
  const polarity = a.negations % 2 !== b.negations % 2;
  const valuesA = a.values;
  const valuesB = b.values;
  const j = frameSimilarity(a.frame, b.frame);
  const onlyA = frameDiff(a.frame, b.frame);
  const onlyB = frameDiff(b.frame, a.frame);
  const valueDiff =
    valuesA.length > 0 && valuesB.length > 0
      ? !sameList([...valuesA].sort(), [...valuesB].sort()) &&
        !addsOneWord(valuesA, valuesB, onlyA, onlyB)
      : false;
  const subjectDiffers = onlyA.some((w) => w.subject) || onlyB.some((w) => w.subject);
  // Each names a subject the other does not: two subjects that share a prefix ("the build
  // server timeout" / "the build server region"; 数据库连接池上限 / 数据库连接池超时).
  const otherSubject = subjectsDiverge(a, b, onlyA, onlyB);
  const reason = polarity ? "polarity" : "value";
  const changed = polarity || valueDiff;
  // The older statement's value named as the old one (`from 100 to 200`) ties the two.
  const namesOld =
    b.fromValues.length > 0 &&
    b.fromValues.some((v) => valuesA.includes(v) || a.frame.some((w) => w.word === v));
  // One gives a value the other does not name, the other a manner the first does not say ("we
  // deploy on Tuesdays" / "we deploy with blue-green"): two facts of one subject, neither
  // replacing the other.
  if (!polarity && !namesOld && givesOtherFact(a, b, onlyA, onlyB)) return { outcome: "separate" };
  // Another subject is another fact, whatever the frame shares, a change marker included; only
  // the older value named as the old one (`from 20 to 50`) ties the two.
  if (otherSubject && !namesOld) return { outcome: "separate" };
  if (j >= SAME_FRAME) {
    if (changed)
      return oneSidedIds ? { outcome: "possible-change", reason } : { outcome: "change", reason };
    // Nothing but a value on one side only or other fillers: the same fact.
    return { outcome: "restatement" };
  }
  if (j >= RELATED_FRAME || namesOld) {
    // The later one adds nothing to the earlier and changes nothing: said again, more briefly.
    if (!changed && onlyB.length === 0) return { outcome: "restatement" };
    if (subjectDiffers && !b.marker) return { outcome: "separate" };
    const subset = onlyA.length === 0 || onlyB.length === 0;
    // The same values on both sides, the later one saying all the earlier one says after its
    // subject and adding to it, with no subject word of its own: a change marker tells of the
    // change the earlier one already holds, and what follows is another fact ("连接池上限改为50" /
    // "连接池上限改为50后超时消失了"). A subject word of its own is what changed ("Sam is the
    // release manager for 4.2" / "Alex is now …"), and so is a word in place of one of the
    // earlier's ("with blue-green" / "with canaries … from now on").
    const sameValues = valuesA.length > 0 && sameList([...valuesA].sort(), [...valuesB].sort());
    if (
      !changed &&
      sameValues &&
      b.marker &&
      onlyB.length > 0 &&
      onlyB.every((w) => !w.subject) &&
      onlyA.every((w) => w.subject)
    )
      return { outcome: "separate" };
    if (changed || (b.marker && (onlyB.length > 0 || onlyA.length > 0))) {
      if (oneSidedIds) return { outcome: "possible-change", reason };
      if (b.marker || subset || !subjectDiffers || namesOld) return { outcome: "change", reason };
      return { outcome: "possible-change", reason };
    }
    // The same values and polarity, words that differ only after the predicate: said again.
    if (!subjectDiffers && j >= 0.5 && (valuesA.length > 0 || valuesB.length > 0))
      return { outcome: "restatement" };
    // The same subject, and what is said of it differs on both sides ("the default branch is
    // master" / "… is main"): another value, named by a word.
    if (!subjectDiffers && onlyA.length > 0 && !oneSidedIds)
      return j >= 0.5
        ? { outcome: "change", reason: "value" }
        : { outcome: "possible-change", reason: "value" };
    return { outcome: "separate" };
  }
  return { outcome: "separate" };
}

/**
 * True when the two subjects share a word and then part: both subjects hold a word of the same
 * subject ("the build server …", 数据库连接池…), and each holds a word the other statement does
 * not say anywhere ("… timeout" / "… region", …上限 / …超时). Those are two subjects with a
 * common prefix, not one subject said in more or fewer words ("the API rate limit" / "the rate
 * limit"), and a change marker in the later one does not make them one ({@link compareStatements};
 * docs/decisions.md, "A change marker does not join two subjects"). Subjects with no word in
 * common ("Dana owns the billing service" / "Priya owns the billing service now") are left to
 * the rest of the rule: there the word before the verb is the value that changed.
 * Chinese frame words are character bigrams, and a bigram across a filler that one side drops
 * (`数据库的连接池` / `数据库连接池`) is no word of its own: what each subject holds of its own
 * is read by its characters.
 * @param onlyA frame words of `a` not in `b`'s frame; `onlyB` the other way round
 */
function subjectsDiverge(
  a: StatementParts,
  b: StatementParts,
  onlyA: readonly FrameWord[],
  onlyB: readonly FrameWord[],
): boolean {
  const subjectOfB = new Set(b.frame.filter((w) => w.subject).map((w) => w.word));
  // The same qualifier of a noun is a word in common too ("the staging DB" / "the staging cache":
  // both `env:staging`); an identifier such as a version is not ("Sam is the release manager for
  // 4.2" / "Alex is now …": the name before the verb is the value).
  const qualifiers = (p: StatementParts) => p.ids.filter((id) => QUALIFIER_ID.test(id));
  const sameIds = qualifiers(a).length > 0 && sameSet(qualifiers(a), qualifiers(b));
  if (!sameIds && !a.frame.some((w) => w.subject && subjectOfB.has(w.word))) return false;
  const units = (words: readonly FrameWord[]) =>
    words.flatMap((w) => (HAN.test(w.word) ? Array.from(w.word) : [w.word]));
  const ownSubject = (only: readonly FrameWord[], other: StatementParts) => {
    const said = new Set(units(other.frame));
    return units(only.filter((w) => w.subject)).some((u) => !said.has(u));
  };
  return ownSubject(onlyA, b) && ownSubject(onlyB, a);
}

/** Ids that qualify a noun of the subject: an environment, a platform, a region. */
const QUALIFIER_ID = /^(?:env|platform|region):/;

/** Values a word can replace (a state: "enabled" / "paused"), so never a fact of their own. */
const STATE_VALUES = new Set(["on", "off"]);

/**
 * True when one statement has values and the other none, and each adds something the other
 * lacks of another kind: the one with values no frame word of its own (its values, not named by
 * the other, are what it adds), the one without values only words of a manner phrase (`with
 * blue-green`, `via rsync`, {@link EN_MANNER_PREP}). Neither replaces a part of the other: the
 * deploy day and the deploy method ({@link compareStatements}). A word outside such a phrase may
 * be what replaces the value ("standup is at 9:30" / "standup is async now", "the demo is
 * postponed indefinitely"), and so may a state ({@link STATE_VALUES}: "enabled" / "paused"): the
 * rule reads those as before.
 */
function givesOtherFact(
  a: StatementParts,
  b: StatementParts,
  onlyA: readonly FrameWord[],
  onlyB: readonly FrameWord[],
): boolean {
  const valued = (p: StatementParts) =>
    p.values.length > 0 && p.values.every((v) => !STATE_VALUES.has(v));
  const manner = (words: readonly FrameWord[]) =>
    words.length > 0 && words.every((w) => w.manner !== undefined);
  if (valued(a) && b.values.length === 0) return onlyA.length === 0 && manner(onlyB);
  if (valued(b) && a.values.length === 0) return onlyB.length === 0 && manner(onlyA);
  return false;
}

/**
 * Words that say when or how often a fact is said, not what it is: one of them added to a
 * statement restates it ({@link addsOneWord}).
 */
const SAYING_WORDS = new Set(["now", "today", "still", "again", "also", "indeed", "anyway"]);

/**
 * True when the later statement keeps every word and value of the earlier and adds one value, no
 * more, and that value is one of {@link SAYING_WORDS} ("we ship on Friday" → "we ship on Friday
 * today"): the same fact said again, not another value ({@link compareStatements};
 * docs/decisions.md, "A statement that only adds a word restates"). A value replaced or dropped,
 * two added, or one added that is a fact of its own ("100 requests per second" → "… per 60
 * seconds") stays a change.
 */
function addsOneWord(
  older: readonly string[],
  newer: readonly string[],
  onlyOlder: readonly FrameWord[],
  onlyNewer: readonly FrameWord[],
): boolean {
  if (onlyOlder.length > 0 || onlyNewer.length > 0 || newer.length !== older.length + 1)
    return false;
  const left = [...newer];
  for (const v of older) {
    const at = left.indexOf(v);
    if (at < 0) return false;
    left.splice(at, 1);
  }
  return left.length === 1 && SAYING_WORDS.has((left[0] ?? "").toLowerCase());
}

/**
 * How alike two statements' frames are, 0–1 ({@link frameSimilarity} of their
 * {@link statementParts}): to pick the closest of several candidates.
 */
export function statementSimilarity(a: string, b: string): number {
  return frameSimilarity(statementParts(a).frame, statementParts(b).frame);
}

/** Frame words of `x` not matched in `y` (multiset difference). */
function frameDiff(x: readonly FrameWord[], y: readonly FrameWord[]): FrameWord[] {
  const left = counts(y);
  const out: FrameWord[] = [];
  for (const w of x) {
    const n = left.get(w.word) ?? 0;
    if (n > 0) left.set(w.word, n - 1);
    else out.push(w);
  }
  return out;
}

/**
 * Statements indexed by what {@link compareStatements} needs two statements to share before it
 * calls them anything but separate facts: a frame word, an identifier, a value (or the old value a
 * `from X` names), a token of `dedupe.ts`'s similarity (the rule from before, and statements too
 * short to read) or the whole normalised text. {@link candidates} is therefore a superset of the
 * statements a text restates, changes or may change, so a scan of only them finds what a scan of
 * all finds (test/core/extraction/dedupe-index.test.ts, "case 01: …").
 */
export class StatementIndex {
  private readonly postings = new Map<string, number[]>();
  private size = 0;

  /** Adds a statement; its number is the count of statements added before it. */
  add(text: string): number {
    const id = this.size++;
    for (const key of keysOf(text, false)) {
      const list = this.postings.get(key);
      if (list) list.push(id);
      else this.postings.set(key, [id]);
    }
    return id;
  }

  /** The numbers of the statements that may be other than separate facts to `text`, ascending. */
  candidates(text: string): number[] {
    const found = new Set<number>();
    for (const key of keysOf(text, true))
      for (const id of this.postings.get(key) ?? []) found.add(id);
    return [...found].sort((a, b) => a - b);
  }
}

function keysOf(text: string, query: boolean): Set<string> {
  const p = statementParts(text);
  const keys = new Set<string>([`k:${text.normalize("NFKC").toLowerCase().trim()}`]);
  for (const t of similarityTokens(text)) keys.add(`t:${t}`);
  for (const id of p.ids) keys.add(`i:${id}`);
  for (const w of p.frame) keys.add(`s:${w.word}`);
  for (const v of p.values) keys.add(`s:${v}`);
  if (query) for (const v of p.fromValues) keys.add(`s:${v}`);
  return keys;
}
