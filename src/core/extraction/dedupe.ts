/**
 * Dedupe by normalised text similarity (docs/architecture.md, "Dedupe"): against the items already
 * in the destination and within the batch. Works for English (word overlap) and CJK (character
 * bigrams), so `Renew passport` matches `renew the passport` and `整理客户流失原因` matches `整理一下客户流失原因`.
 */
import { wordsForSimilarity } from "../markdown/text";
import { withoutLineFields } from "../trackers/format";

/**
 * Default similarity at or above which two texts are the same item (multiset Jaccard index, 0–1).
 * 0.75 lets a stop word or particle differ ("Renew passport" / "renew the passport") but not a
 * content word ("Pay the invoice" / "Pay invoice for March" is 2/3).
 */
export const DUPLICATE_THRESHOLD = 0.75;

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** Chinese particles and fillers that reword without changing meaning (dropped before bigrams). */
const CJK_FILLERS = /一下|一些|的|了|把|着/g;
const STOP = new Set([
  "the",
  "a",
  "an",
  "to",
  "of",
  "for",
  "and",
  "on",
  "in",
  "with",
  "our",
  "my",
  "we",
  "i",
]);

/** Tokens for similarity: English words (minus a few stop words) and CJK character bigrams. */
export function similarityTokens(text: string): string[] {
  const tokens: string[] = [];
  for (const word of wordsForSimilarity(text).split(" ")) {
    if (!word) continue;
    if (CJK.test(word)) {
      const chars = Array.from(word.replace(CJK_FILLERS, "") || word);
      if (chars.length === 1) tokens.push(word);
      for (let i = 0; i + 1 < chars.length; i++) tokens.push(`${chars[i]}${chars[i + 1]}`);
    } else if (!STOP.has(word)) {
      tokens.push(word.length > 4 && word.endsWith("s") ? word.slice(0, -1) : word);
    }
  }
  return tokens;
}

/**
 * Words that name a value the way a number does: weekdays and months (English, and Chinese
 * `周一`/`星期一`/`礼拜一`). "Move the sync from Monday to Friday" and "from Friday to Monday" share
 * every word; only these, in order, tell them apart (test/core/extraction/contradictions.test.ts, "case 17: …").
 */
const VALUE_WORD =
  /^(?:(?:mon|tues|wednes|thurs|fri|satur|sun)days?|mon|tue|tues|thu|thur|thurs|fri|january|february|march|april|june|july|august|september|october|november|december|jan|feb|apr|jun|jul|aug|sep|sept|oct|nov|dec)$/;
const CJK_VALUE = /(?:周|星期|礼拜|禮拜)[一二三四五六日天]|[一二三四五六七八九十]{1,2}月/gu;
const NUMBER = /\d+(?:[.,:]\d+)*/g;

/**
 * The values of a text in the order written (docs/contradictions.md "What dedupe keeps"):
 * `numbers` (`50`, `2.1`, `10:30`, each part of a date `2026-03-05`) and `names`, weekdays and
 * months, each normalised (`Fridays` → `fri`, `星期五` → `周五`), each list space-separated.
 */
export function valuesOf(text: string): { numbers: string; names: string } {
  const t = text.normalize("NFKC").toLowerCase();
  const numbers = [...t.matchAll(NUMBER)].map((m) => m[0]);
  const names: { at: number; value: string }[] = [];
  for (const m of t.matchAll(/\p{L}+/gu)) {
    const w = m[0];
    if (VALUE_WORD.test(w)) names.push({ at: m.index, value: w.slice(0, 3) });
  }
  for (const m of t.matchAll(CJK_VALUE))
    names.push({
      at: m.index,
      value: m[0].replace(/^(?:星期|礼拜|禮拜)/, "周").replace("周天", "周日"),
    });
  names.sort((a, b) => a.at - b.at);
  return { numbers: numbers.join(" "), names: names.map((n) => n.value).join(" ") };
}

/**
 * True when two texts' values tell them apart: their numbers differ or come in another order
 * (a text with numbers and one without differ too), or both name weekdays or months and these
 * differ or come in another order ("Pay invoice for March" and "Pay the invoice" are compared by
 * their words).
 */
function valuesDiffer(
  x: { numbers: string; names: string },
  y: { numbers: string; names: string },
): boolean {
  if (x.numbers !== y.numbers) return true;
  return x.names !== "" && y.names !== "" && x.names !== y.names;
}

/** English negations, whole words; `n't` is counted on its own (`don't`, `won't`, `isn't`). */
const NEGATION_WORD =
  /\b(?:not|never|no|none|nor|neither|nobody|nothing|nowhere|cannot|without|stop|avoid)\b|n['’]t\b/g;
/**
 * Chinese negations, one character each, but not inside the common words where the character
 * means something else (`特别` "special", `区别` "difference", `别人` "others", `未来` "future").
 */
const CJK_NEGATION =
  /[不没沒无無勿莫]|(?<![特区區分类類级級识識告差个個性辨鉴鑑送])[别別](?![人的墅名针針致])|未(?![来來])/gu;

/**
 * How many negations a text holds (`not`, `never`, `no`, `don't`, `without`…; `不` `没` `別` `无`
 * `未` `勿` `莫`): "we will deploy on Fridays" has none, "we will not deploy on Fridays" one,
 * so the two are never the same item.
 */
export function negationsOf(text: string): number {
  const t = text.normalize("NFKC").toLowerCase();
  return (t.match(NEGATION_WORD)?.length ?? 0) + (t.match(CJK_NEGATION)?.length ?? 0);
}

/**
 * Similarity of two item texts, 0–1: the multiset Jaccard index of their {@link similarityTokens}.
 * Equal normalised texts give 1. Texts that differ in a value or the order of their values
 * ({@link valuesOf}: "Task 50" / "Task 100", "customer 1200 for order 3400" / "customer 3400 for
 * order 1200", "from Monday to Friday" / "from Friday to Monday") or in the number of negations
 * ({@link negationsOf}: "deploy on Fridays" / "do not deploy on Fridays") give 0: that is what
 * tells such items apart. So do two texts with CJK whose other words differ ("我们周五部署 alpha
 * 服务" / "我们周五部署 bravo 服务"): a name among CJK bigrams would otherwise count for one
 * token in ten.
 */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  const x = profileOf(a);
  const y = profileOf(b);
  if (valuesDiffer(x.values, y.values) || x.negations !== y.negations) return 0;
  if (x.key === y.key) return 1;
  if (x.names !== null && y.names !== null && x.names !== y.names) return 0;
  return jaccard(x.counts, x.size, y.counts, y.size);
}

/**
 * Resemblance of two texts' words, 0–1: the multiset Jaccard index of their
 * {@link similarityTokens}, without {@link similarity}'s checks of values, negations and names.
 * For "does this passage look like that one" (a model echoing the prompt's example evidence,
 * item-check.ts), never to decide that two items are the same.
 */
export function wordSimilarity(a: string, b: string): number {
  const x = profileOf(a);
  const y = profileOf(b);
  return x.key === y.key ? 1 : jaccard(x.counts, x.size, y.counts, y.size);
}

/** Multiset Jaccard index of two token counts (0 when either is empty). */
function jaccard(
  a: ReadonlyMap<string, number>,
  aSize: number,
  b: ReadonlyMap<string, number>,
  bSize: number,
): number {
  if (aSize === 0 || bSize === 0) return 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const [t, n] of small) shared += Math.min(n, large.get(t) ?? 0);
  return shared / (aSize + bSize - shared);
}

/**
 * Similarity 0–1 of what two texts are about, their values and negations left out: the
 * multiset Jaccard index of their {@link similarityTokens} without numbers, weekdays, months and
 * negations. "API rate limit is 100 per second" and "… 200 per second" give 1, as do
 * "我们周五部署" and "我们周五不部署". Used by the statement rule for texts it does not read
 * (`legacyOutcome` in statements.ts), never to dedupe.
 */
export function subjectSimilarity(a: string, b: string): number {
  const x = subjectOf(a);
  const y = subjectOf(b);
  return jaccard(x.counts, x.size, y.counts, y.size);
}

/**
 * Number of content tokens of a text: its subject tokens (see {@link subjectSimilarity}) and its
 * weekdays and months. "ship on Fridays" has two, "Not Friday" one.
 */
export function contentSize(text: string): number {
  const names = valuesOf(text).names;
  return subjectOf(text).size + (names ? names.split(" ").length : 0);
}

/** Auxiliary verbs and fillers that say nothing of a subject ("we will …", "do not …", "decided to …"). */
const SUBJECT_STOP = new Set([
  "do",
  "does",
  "did",
  "will",
  "would",
  "shall",
  "should",
  "must",
  "can",
  "could",
  "is",
  "are",
  "was",
  "were",
  "be",
  "been",
  "us",
  "they",
  "you",
  "it",
  "decided",
  "decide",
  "going",
  "us",
  "all",
  "any",
  "ever",
  "anymore",
]);

function subjectOf(text: string): { counts: Map<string, number>; size: number } {
  const p = profileOf(text);
  if (p.subject) return p.subject;
  const stripped = text
    .normalize("NFKC")
    .toLowerCase()
    .replace(NUMBER, " ")
    .replace(NEGATION_WORD, " ")
    .replace(CJK_VALUE, " ")
    .replace(CJK_NEGATION, "")
    .replace(/n['’]t\b/g, " ");
  const counts = new Map<string, number>();
  let size = 0;
  for (const t of similarityTokens(stripped)) {
    if (VALUE_WORD.test(t) || /^\d/.test(t) || SUBJECT_STOP.has(t)) continue;
    counts.set(t, (counts.get(t) ?? 0) + 1);
    size++;
  }
  p.subject = { counts, size };
  return p.subject;
}

/** True when two item texts are the same item ({@link similarity} ≥ {@link DUPLICATE_THRESHOLD}). */
export function sameItemText(a: string, b: string): boolean {
  return similarity(a, b) >= DUPLICATE_THRESHOLD;
}

/**
 * True when `b` restates `a` word for word: the same {@link similarityTokens} as a multiset, so
 * case, punctuation, spacing, stop words, a plural `s`, `@mentions` and inline fields differ at most ("Book the Berlin
 * flights!" / "book Berlin flights"), while any content word added, dropped or changed counts
 * ("book the Berlin flights and the hotel" is a rewording; docs/decisions.md, "A reworded journal
 * line supersedes even when it reads as a duplicate").
 */
export function restates(a: string, b: string): boolean {
  // Mentions and fields are the line's addressing, not its words: an entry written before they were
  // read off the text ("@me can we …?") is restated by the item without them.
  const key = (t: string) =>
    similarityTokens(withoutLineFields(t).replace(MENTION, "$1 ")).sort().join("\u0000");
  return key(a) === key(b);
}

/** What comparisons need of a text, computed once per distinct text (a run compares many pairs). */
interface Profile {
  key: string;
  counts: Map<string, number>;
  /** Number of tokens, with repeats. */
  size: number;
  /** {@link valuesOf}. */
  values: { numbers: string; names: string };
  /** {@link negationsOf}. */
  negations: number;
  /** For a text with CJK: its other words, sorted (the names in it: `API`, `alpha`); else `null`. */
  names: string | null;
  /** Tokens without values and negations, computed on first use ({@link subjectSimilarity}). */
  subject?: { counts: Map<string, number>; size: number };
}

const profiles = new Map<string, Profile>();
const MAX_PROFILES = 20_000;

function profileOf(text: string): Profile {
  const cached = profiles.get(text);
  if (cached) return cached;
  const tokens = similarityTokens(text);
  const counts = new Map<string, number>();
  for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
  const names = CJK.test(text) ? namesOf(text) : null;
  const profile: Profile = {
    key: wordsForSimilarity(text),
    counts,
    size: tokens.length,
    values: valuesOf(text),
    negations: negationsOf(text),
    names,
  };
  if (profiles.size >= MAX_PROFILES) profiles.clear();
  profiles.set(text, profile);
  return profile;
}

/** A mention of an agent or person (`@me`, `@ming`): whom an item is for, not what it says. */
const MENTION = /(^|[^\p{L}\p{N}_])@[\p{L}\p{N}_-]+/gu;

/** The words of a text that are not CJK, numbers or mentions, sorted and space-separated. */
function namesOf(text: string): string {
  return [
    ...new Set(
      similarityTokens(text.replace(MENTION, "$1 ")).filter((t) => !CJK.test(t) && !/^\d/.test(t)),
    ),
  ]
    .sort()
    .join(" ");
}

/**
 * The best match of `text` among `candidates` at or above `threshold`.
 * @returns the index of the most similar candidate, or -1.
 */
export function findDuplicate<T>(
  text: string,
  candidates: readonly T[],
  textOf: (c: T) => string,
  threshold = DUPLICATE_THRESHOLD,
): number {
  let best = -1;
  let bestScore = threshold;
  candidates.forEach((c, i) => {
    const score = similarity(text, textOf(c));
    if (score >= bestScore && (best === -1 || score > bestScore)) {
      best = i;
      bestScore = score;
    }
  });
  return best;
}

/**
 * Postings a probe of single tokens would collect before {@link SimilarityIndex} probes token pairs
 * instead: below it, a scan of the few candidates is cheaper than pairing every text.
 */
export const PAIRS_FROM = 64;
/**
 * Distinct tokens above which a text is not indexed by its token pairs (`n·(n−1)/2` of them: 496
 * at 32); such a text is a candidate of every pair probe instead.
 */
export const MAX_PAIRED_TOKENS = 32;

/** Tokens of a query at most paired in one probe (66 pairs at 12); a query needing more probes single tokens. */
export const MAX_PROBED_PAIR_TOKENS = 12;

/**
 * Texts indexed by their {@link similarityTokens}, so that a run finds the texts at least
 * `threshold` similar to a new one without comparing it with every text (docs/decisions.md,
 * "Dedupe compares only texts that share a token", "Dedupe probes token pairs when every token is
 * common"). {@link candidates} gives a superset of the texts whose {@link similarity} (or, with
 * `subject`, {@link subjectSimilarity}) with the query reaches the threshold, in the order they
 * were added, so that a caller scanning only them (with {@link findDuplicate} or
 * {@link findContradiction}) picks what a scan of all of them picks.
 *
 * Why it is a superset: a multiset Jaccard index `s / (a + b − s) ≥ t` needs `s ≥ t·a` shared
 * tokens (as `b ≥ s`), so a text that reaches `t` misses at most `a − ⌈t·a⌉` of the query's `a`
 * tokens; it must hold one of any `a − ⌈t·a⌉ + 1` of them. Those are taken from the tokens fewest
 * texts hold. Texts with the same normalised words (similarity 1 whatever their tokens) are found
 * by that key.
 *
 * Only texts with the query's numbers and count of negations are kept (any other is 0 similar; not
 * with `subject`), and when fewer texts have them than the probe would collect, those texts are
 * the candidates.
 *
 * When even the rarest tokens are held by many texts (many similar items: every word of "Check
 * the pricing page for the mobile site" recurs), the texts sharing a PAIR of the query's tokens are
 * probed instead: a text that shares at most one distinct token `x` of a prefix `P` of the query's
 * tokens shares at most `n(x) + (tokens outside P)`, so once that is below `⌈t·a⌉` for every `x`
 * in `P`, a text reaching `t` holds two of `P`'s tokens. Pairs are indexed once the index first
 * needs them (a probe of {@link PAIRS_FROM} texts or more); a text with more than
 * {@link MAX_PAIRED_TOKENS} distinct tokens is not paired and is always a candidate of a pair probe,
 * and such a query, or one needing more than {@link MAX_PROBED_PAIR_TOKENS} tokens in the set,
 * probes single tokens.
 */
export class SimilarityIndex {
  private readonly postings = new Map<string, number[]>();
  private readonly byKey = new Map<string, number[]>();
  /** Texts by each pair of their distinct tokens (`x\u0000y`, `x < y`), once {@link paired}. */
  private readonly pairs = new Map<string, number[]>();
  /** Texts with too many distinct tokens to pair: a candidate of every pair probe. */
  private readonly unpaired: number[] = [];
  /** Distinct tokens of each text, kept to pair the texts added before pairs were needed. */
  private readonly distinct: string[][] = [];
  private paired = false;
  /** Each text's {@link valueSignature} (`""` for every text with `subject`). */
  private readonly signatures: string[] = [];
  private readonly bySignature = new Map<string, number[]>();
  private size = 0;
  private readonly pairsFrom: number;

  /**
   * `subject`: index the tokens {@link subjectSimilarity} compares, with no key. `pairsFrom`: probe
   * pairs once a probe of single tokens would collect this many texts ({@link PAIRS_FROM}; tests
   * pass 0).
   */
  constructor(
    private readonly subject = false,
    options: { pairsFrom?: number } = {},
  ) {
    this.pairsFrom = options.pairsFrom ?? PAIRS_FROM;
  }

  /** Adds a text; its number is the count of texts added before it. */
  add(text: string): number {
    const id = this.size++;
    const { counts, key } = this.tokensOf(text);
    for (const t of counts.keys()) {
      const list = this.postings.get(t);
      if (list) list.push(id);
      else this.postings.set(t, [id]);
    }
    if (key !== null) {
      const list = this.byKey.get(key);
      if (list) list.push(id);
      else this.byKey.set(key, [id]);
    }
    const signature = this.signatureOf(text);
    this.signatures.push(signature);
    const same = this.bySignature.get(signature);
    if (same) same.push(id);
    else this.bySignature.set(signature, [id]);
    const tokens = [...counts.keys()].sort();
    if (this.paired) this.pair(id, tokens);
    else this.distinct.push(tokens);
    return id;
  }

  /**
   * The numbers of the texts that may be at least `threshold` (> 0) similar to `text`, ascending.
   */
  candidates(text: string, threshold: number): number[] {
    const { counts, size, key } = this.tokensOf(text);
    const found = new Set<number>(key === null ? [] : (this.byKey.get(key) ?? []));
    if (size > 0) {
      // Shared tokens needed, rounded down a little so that a float threshold never probes too few.
      const need = Math.max(1, Math.ceil(threshold * size - 1e-9));
      const held = (t: string) => this.postings.get(t)?.length ?? 0;
      const tokens = [...counts].sort((x, y) => held(x[0]) - held(y[0]));
      // Single tokens: the rarest `size - need + 1` of them (with repeats).
      const probe: string[] = [];
      let cost = 0;
      for (let i = 0, left = size - need + 1; i < tokens.length && left > 0; i++) {
        const [t, n] = tokens[i] ?? ["", 0];
        probe.push(t);
        cost += held(t);
        left -= n;
      }
      // Only texts with the same numbers and negations can be similar at all (similarity gives 0).
      const signature = this.signatureOf(text);
      const bucket = this.bySignature.get(signature) ?? [];
      const pairs =
        cost >= this.pairsFrom && bucket.length > this.pairsFrom
          ? this.pairProbe(tokens, size, need, Math.min(cost, bucket.length))
          : null;
      const add = (id: number) => {
        if (this.signatures[id] === signature) found.add(id);
      };
      if (pairs) {
        for (const id of this.unpaired) add(id);
        for (const p of pairs) for (const id of this.pairs.get(p) ?? []) add(id);
      } else if (bucket.length <= cost) for (const id of bucket) found.add(id);
      else for (const t of probe) for (const id of this.postings.get(t) ?? []) add(id);
    }
    return [...found].sort((a, b) => a - b);
  }

  /**
   * Texts {@link similarity} can find alike share this: their numbers, in order, and their count
   * of negations (any difference gives 0). The same for every text with `subject`, as
   * {@link subjectSimilarity} leaves both out.
   */
  private signatureOf(text: string): string {
    if (this.subject) return "";
    const p = profileOf(text);
    return `${p.values.numbers}\u0001${p.negations}`;
  }

  /**
   * The pairs of the query's tokens to probe instead of single tokens costing `single` postings,
   * or `null` when no set of `tokens` (rarest first) makes two shared tokens necessary or its pairs
   * would cost as much. The set is grown from the rarest token by the token whose pairs with it
   * hold the fewest texts: tokens that always come together ("hero images") make a poor pair.
   */
  private pairProbe(
    tokens: readonly (readonly [string, number])[],
    size: number,
    need: number,
    single: number,
  ): string[] | null {
    // A long text needs many of its tokens in the set: their pairs would cost more than they save.
    if (tokens.length > MAX_PAIRED_TOKENS) return null;
    this.pairAll();
    const key = (x: string, y: string) => (x < y ? `${x}\u0000${y}` : `${y}\u0000${x}`);
    const held = (k: string) => this.pairs.get(k)?.length ?? 0;
    const first = tokens[0];
    if (!first) return null;
    const chosen = [first];
    const rest = tokens.slice(1);
    let mass = first[1];
    let most = first[1];
    let cost = this.unpaired.length;
    const keys: string[] = [];
    while (chosen.length < 2 || most + (size - mass) >= need) {
      let best = -1;
      let bestCost = Infinity;
      rest.forEach(([t], i) => {
        let c = 0;
        for (const [p] of chosen) c += held(key(p, t));
        if (c < bestCost) {
          best = i;
          bestCost = c;
        }
      });
      const next = rest[best];
      if (!next || chosen.length >= MAX_PROBED_PAIR_TOKENS) return null;
      rest.splice(best, 1);
      for (const [p] of chosen) keys.push(key(p, next[0]));
      chosen.push(next);
      cost += bestCost;
      if (cost >= single) return null;
      mass += next[1];
      most = Math.max(most, next[1]);
    }
    return keys;
  }

  /** Indexes the pairs of every text added so far; from then on {@link add} pairs each text. */
  private pairAll(): void {
    if (this.paired) return;
    this.paired = true;
    this.distinct.forEach((tokens, id) => this.pair(id, tokens));
    this.distinct.length = 0;
  }

  /** Indexes text `id` by each pair of its distinct `tokens` (sorted). */
  private pair(id: number, tokens: readonly string[]): void {
    if (tokens.length > MAX_PAIRED_TOKENS) {
      this.unpaired.push(id);
      return;
    }
    for (let i = 0; i < tokens.length; i++)
      for (let j = i + 1; j < tokens.length; j++) {
        const k = `${tokens[i] ?? ""}\u0000${tokens[j] ?? ""}`;
        const list = this.pairs.get(k);
        if (list) list.push(id);
        else this.pairs.set(k, [id]);
      }
  }

  private tokensOf(text: string): {
    counts: ReadonlyMap<string, number>;
    size: number;
    key: string | null;
  } {
    if (this.subject) {
      const s = subjectOf(text);
      return { counts: s.counts, size: s.size, key: null };
    }
    const p = profileOf(text);
    return { counts: p.counts, size: p.size, key: p.key };
  }
}
