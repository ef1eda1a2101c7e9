/**
 * Contradictions (docs/contradictions.md): a new knowledge item or decision that says
 * something else about the same subject as one already recorded — a different number, date,
 * weekday, limit, or the opposite polarity — is never its duplicate (dedupe.ts keeps such texts
 * apart) and never overwrites it: the new entry supersedes the old, and both stay.
 */
import type { Supersession } from "./types";
import {
  contentSize,
  hasCjk,
  negationsOf,
  sameItemText,
  subjectNames,
  subjectSimilarity,
  valuesOf,
} from "./dedupe";

/**
 * Subject similarity (see {@link subjectSimilarity}) at or above which two texts are about the
 * same subject. The same as the duplicate threshold: what is left once values and negations are
 * taken out must be the same item.
 */
export const SAME_SUBJECT_THRESHOLD = 0.75;

/**
 * Fewest content tokens (subject words, weekdays and months: `contentSize`) a text needs before
 * it can contradict another: "ship on Fridays" has two, "Not Friday" too few.
 */
export const MIN_CONTENT_TOKENS = 2;

/** Why two texts contradict, for reports and the health check. */
export type ContradictionKind = "polarity" | "value";

/**
 * Whether `newer` contradicts `older`, and how:
 * - `polarity`: the same subject, one negated and the other not ("we will deploy on Fridays" /
 *   "we will not deploy on Fridays", 「我们周五部署」/「我们周五不部署」);
 * - `value`: the same subject and polarity with other values or values in another order ("API
 *   rate limit is 100 per second" / "… 200 per second"; "move the sync from Monday to Friday" /
 *   "from Friday to Monday"). The same numbers in another order with the same weekdays and months
 *   ("refund customer 1200 for order 3400" / "customer 3400 for order 1200") name other things:
 *   a different fact, not a contradiction.
 * @returns the kind, or `null` when the texts are the same item, about other subjects, or too short
 *   to tell ({@link MIN_CONTENT_TOKENS})
 */
export function contradiction(newer: string, older: string): ContradictionKind | null {
  if (sameItemText(newer, older)) return null;
  if (contentSize(newer) < MIN_CONTENT_TOKENS || contentSize(older) < MIN_CONTENT_TOKENS)
    return null;
  if (subjectSimilarity(newer, older) < SAME_SUBJECT_THRESHOLD) return null;
  // Two Chinese texts about `alpha 接口` and `bravo 接口` share most bigrams: their names decide.
  if (hasCjk(newer) && hasCjk(older) && subjectNames(newer) !== subjectNames(older)) return null;
  if (negationsOf(newer) % 2 !== negationsOf(older) % 2) return "polarity";
  const a = valuesOf(newer);
  const b = valuesOf(older);
  if (a.names !== b.names) return "value";
  if (a.numbers === b.numbers) return null;
  return sortedWords(a.numbers) === sortedWords(b.numbers) ? null : "value";
}

function sortedWords(s: string): string {
  return s.split(" ").sort().join(" ");
}

/**
 * The candidate `text` contradicts, most similar subject first.
 * @returns its index in `candidates`, or -1
 */
export function findContradiction<T>(
  text: string,
  candidates: readonly T[],
  textOf: (c: T) => string,
): number {
  let best = -1;
  let bestScore = 0;
  candidates.forEach((c, i) => {
    const other = textOf(c);
    if (contradiction(text, other) === null) return;
    const score = subjectSimilarity(text, other);
    if (best === -1 || score > bestScore) {
      best = i;
      bestScore = score;
    }
  });
  return best;
}

/** Words for why an entry is superseded, as reports say them. */
const REASON_WORDS: Readonly<Record<Supersession["reason"], string>> = {
  polarity: "says the opposite",
  value: "another value",
  reworded: "its journal block was reworded",
};

/**
 * How reports name a supersession (the CLI's `extract`, its `--json`, MCP `extract`, the review
 * modal): `supersedes d-004 (says the opposite)`.
 */
export function supersessionLabel(s: Supersession): string {
  return `supersedes ${s.id} (${REASON_WORDS[s.reason]})`;
}
