/**
 * Query-time stop words in English and Chinese (docs/architecture.md, "Tokenizer"). They are
 * dropped from a query only when the query keeps at least one other term, and never at index time,
 * so a query made only of stop words (`the who`) still works. Measured on LoCoMo
 * (bench/results/locomo.md).
 */
import { stem } from "./stemmer";

const ENGLISH = `a about above after again against all am an and any are as at be because been before being
below between both but by can could did do does doing down during each few for from further had has
have having he her here hers herself him himself his how i if in into is it its itself just me more
most my myself no nor not of off on once only or other our ours ourselves out over own same she
should so some such than that the their theirs them themselves then there these they this those
through to too under until up very was we were what when where which while who whom why will with
would you your yours yourself yourselves`;

/**
 * Chinese function words and pronouns that carry no topic. Single characters only where they are
 * almost never a word of their own in a query (的 了 吗…).
 */
const CHINESE = `的 了 吗 呢 吧 啊 呀 么 着 过 和 与 及 或 而 也 都 就 又 在 是 有 被 把 对 从 向 给 让
我 你 他 她 它 我们 你们 他们 她们 这 那 这个 那个 这些 那些 什么 怎么 怎样 为什么 哪 哪里 哪个 谁
一个 个 之 其 此 于 以 及其 还 很 更 最 已 已经 没有 不是 就是 如何 是否`;

/** The stop words, in the same form the tokenizer produces (lower case; English stemmed). */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  [...ENGLISH.split(/\s+/).map(stem), ...ENGLISH.split(/\s+/), ...CHINESE.split(/\s+/)].filter(
    (w) => w !== "",
  ),
);

/**
 * Removes stop words from query tokens, unless that would leave nothing.
 * @param tokens output of {@link tokenize} for a query
 */
export function dropStopWords(tokens: string[]): string[] {
  const kept = tokens.filter((t) => !STOP_WORDS.has(t));
  return kept.length > 0 ? kept : tokens;
}
