/**
 * Contradictions (docs/contradictions.md): a new knowledge item or decision that changes one
 * already recorded — the same subject with another value, or the opposite — by the statement rule
 * (src/core/extraction/statements.ts) never overwrites it: the new entry supersedes the old, and
 * both stay.
 */
import type { Supersession } from "./types";
import {
  MIN_SUBJECT_WORDS,
  SAME_FRAME,
  compareStatements,
  statementSimilarity,
} from "./statements";

/**
 * Frame similarity at or above which two statements are about the same subject whatever else
 * differs: {@link SAME_FRAME} of the statement rule (src/core/extraction/statements.ts).
 */
export const SAME_SUBJECT_THRESHOLD = SAME_FRAME;

/**
 * Fewest words of a subject (frame words and identifiers: `statementParts`) a statement needs
 * before it can contradict another: "standup moved to 10:00" has one (`standup`) and changes
 * "standup is at 9:30"; "Not Friday" and "200" have none.
 */
export const MIN_CONTENT_TOKENS = MIN_SUBJECT_WORDS;

/** Why two texts contradict, for reports and the health check. */
export type ContradictionKind = "polarity" | "value";

/**
 * Whether `newer` contradicts `older` — a change by the statement rule
 * ({@link compareStatements}, docs/contradictions.md "The rule") — and how:
 * - `polarity`: the same subject, one negated and the other not ("we deploy on Fridays" / "we
 *   will not deploy on Fridays any more", 「我们周五部署」/「我们周五不再部署了」);
 * - `value`: the same subject with another value ("API rate limit is 100 per second" / "the rate
 *   limit changed from 100 to 200/s"; "standup is at 9:30" / "standup moved to 10:00").
 * Statements about another invoice, quarter, ticket, environment or place ("invoice 1042 was
 * paid" / "invoice 1043 was paid") are separate facts, not contradictions.
 * @returns the kind, or `null` when `newer` restates `older`, is a separate fact, or may be a
 *   change the rule cannot decide (`possible-change`: never superseded)
 */
export function contradiction(newer: string, older: string): ContradictionKind | null {
  const c = compareStatements(newer, older);
  return c.outcome === "change" ? (c.reason ?? "value") : null;
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
    const score = statementSimilarity(text, other);
    if (best === -1 || score > bestScore) {
      best = i;
      bestScore = score;
    }
  });
  return best;
}

/**
 * The candidate `text` restates (the statement rule's `restatement`: the same fact in other
 * words, "no deploys on Fridays" / "we do not deploy on Fridays"), most similar first. A
 * restatement adds its source to that entry rather than a new entry.
 * @returns its index in `candidates`, or -1
 */
export function findRestatement<T>(
  text: string,
  candidates: readonly T[],
  textOf: (c: T) => string,
): number {
  let best = -1;
  let bestScore = 0;
  candidates.forEach((c, i) => {
    const other = textOf(c);
    if (compareStatements(text, other).outcome !== "restatement") return;
    const score = statementSimilarity(text, other);
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
 * How reports name a supersession (the CLI's `extract`, MCP `extract`, the review queue, the
 * review modal, `ingest`'s summary): `supersedes d-004 (says the opposite)`. Every entry it
 * supersedes is named: the others of a topic note ({@link Supersession.also}) follow,
 * `supersedes c-1 (another value), also c-2 and c-3`.
 */
export function supersessionLabel(s: Supersession): string {
  const label = `supersedes ${s.id} (${REASON_WORDS[s.reason]})`;
  const also = (s.also ?? []).map((o) => o.id);
  const last = also.pop();
  if (last === undefined) return label;
  return `${label}, also ${also.length ? `${also.join(", ")} and ${last}` : last}`;
}
