/**
 * Which goal a progress note is about when it names none (`Progress: beta sent to 40 testers`
 * without `[goal:: g-…]`; docs/decisions.md, "Progress finds its goal by the words they share"):
 * the open goal whose text shares the most meaning with the note. Meaning is read with the search
 * tokenizer (src/core/search/engine/tokenizer.ts: stemmed English words, CJK words and character
 * bigrams), less its stop words and the words every progress note uses ("progress", "done", "进展",
 * "完成"…); numbers name amounts in a progress note, not its goal, so they are left out too.
 *
 * Each shared term counts 1 / (the number of candidate goals that hold it), so a word only one goal
 * has weighs most. The goal with the highest score wins; no shared term, or two goals with the same
 * highest score, is no goal: the plan then says so rather than guessing.
 */
import { tokenize } from "../search/engine/tokenizer";
import { STOP_WORDS } from "../search/engine/stop-words";
import { stem } from "../search/engine/stemmer";
import { stripWikilinkBrackets } from "../markdown/wikilinks";
import { withoutLineFields } from "../trackers/format";

/** Words of any progress note, in the tokenizer's form: they say how far, not which goal. */
const PROGRESS_WORDS: ReadonlySet<string> = new Set(
  [
    ..."progress update status done finish finished complete completed start started now today week still more"
      .split(" ")
      .map(stem),
    ..."进展 进度 更新 完成 已经 开始 目前 现在 今天 本周 这周 继续".split(" "),
  ].filter((w) => w !== ""),
);

const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * The terms of a goal's or a progress note's text that can tie the two: the search tokenizer's
 * terms of the text without its inline fields and wikilink brackets, less stop words, progress
 * words, numbers and single CJK characters. A set: how often a term occurs does not count.
 */
export function goalTerms(text: string): Set<string> {
  const out = new Set<string>();
  for (const term of tokenize(stripWikilinkBrackets(withoutLineFields(text)))) {
    if (STOP_WORDS.has(term) || PROGRESS_WORDS.has(term)) continue;
    if (/^[\d.,:%/-]+$/.test(term)) continue;
    if (CJK_CHAR.test(term) && Array.from(term).length === 1) continue;
    out.add(term);
  }
  return out;
}

/** A goal a progress note may join: its id (or the id this run expects to give it) and its text. */
export interface GoalCandidate {
  id: string;
  text: string;
}

/** What {@link matchGoal} found: the goal and the terms it shares with the note, or why none. */
export type GoalMatch =
  | { goal: GoalCandidate; shared: string[] }
  | { goal: null; why: "no-goals" | "no-shared-words" | "tie"; tied?: GoalCandidate[] };

/**
 * The goal among `goals` (open ones; in tracker order) that a progress note's `text` is about
 * (see the module comment). Never throws.
 */
export function matchGoal(text: string, goals: readonly GoalCandidate[]): GoalMatch {
  if (goals.length === 0) return { goal: null, why: "no-goals" };
  const note = goalTerms(text);
  const termsOf = goals.map((g) => goalTerms(g.text));
  const holders = new Map<string, number>();
  for (const terms of termsOf)
    for (const t of terms) if (note.has(t)) holders.set(t, (holders.get(t) ?? 0) + 1);
  let best = 0;
  let winners: number[] = [];
  termsOf.forEach((terms, i) => {
    let score = 0;
    for (const t of terms) if (note.has(t)) score += 1 / (holders.get(t) ?? 1);
    if (score <= 0) return;
    if (score > best + 1e-9) {
      best = score;
      winners = [i];
    } else if (Math.abs(score - best) <= 1e-9) winners.push(i);
  });
  if (winners.length === 0) return { goal: null, why: "no-shared-words" };
  if (winners.length > 1)
    return { goal: null, why: "tie", tied: winners.map((i) => goals[i] as GoalCandidate) };
  const i = winners[0] as number;
  const terms = termsOf[i] ?? new Set<string>();
  return { goal: goals[i] as GoalCandidate, shared: [...terms].filter((t) => note.has(t)) };
}
