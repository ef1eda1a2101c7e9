/**
 * Merging item lists inside one extraction run: items from several windows and passes (issue 3 §5,
 * §6), and the offline extractor's items, which are always honoured whatever the model returns
 * (issue 3 §7). Dedupe against the destination notes is the plan's job (dedupe.ts), not this one's.
 */
import { normaliseForMatch } from "./evidence";
import type { ExtractedItem } from "./types";

/** Texts at least this similar (Sørensen–Dice over character bigrams) are the same item. */
export const SAME_TEXT = 0.8;
/** With the same category and evidence, texts this similar are the same item. */
const SAME_EVIDENCE_TEXT = 0.5;

/** The numbers written in a text, in order ("38 of 50" → "38,50"), after NFKC. */
function numbersOf(text: string): string {
  return (text.normalize("NFKC").match(/\d+(?:[.,]\d+)*/g) ?? []).join(",");
}

/** What comparisons need of a text, computed once per distinct text. */
interface Profile {
  key: string;
  grams: Map<string, number>;
  /** Number of bigrams (with repeats). */
  size: number;
  numbers: string;
}

/** Memo of profiles: a run compares every item with every other, so each text is profiled once. */
const profiles = new Map<string, Profile>();
const MAX_PROFILES = 20_000;

function profileOf(text: string): Profile {
  const cached = profiles.get(text);
  if (cached) return cached;
  const key = normaliseForMatch(text);
  const chars = [...key];
  const grams = new Map<string, number>();
  for (let i = 0; i + 1 < chars.length; i++) {
    const g = `${chars[i] ?? ""}${chars[i + 1] ?? ""}`;
    grams.set(g, (grams.get(g) ?? 0) + 1);
  }
  const profile: Profile = { key, grams, size: Math.max(0, chars.length - 1), numbers: numbersOf(text) };
  if (profiles.size >= MAX_PROFILES) profiles.clear();
  profiles.set(text, profile);
  return profile;
}

function dice(x: Profile, y: Profile): number {
  if (x.key === y.key) return 1;
  if (x.size === 0 || y.size === 0) return 0;
  const [small, large] = x.grams.size <= y.grams.size ? [x, y] : [y, x];
  let overlap = 0;
  for (const [g, n] of small.grams) overlap += Math.min(n, large.grams.get(g) ?? 0);
  return (2 * overlap) / (x.size + y.size);
}

/**
 * Similarity 0–1 of two texts after {@link normaliseForMatch}: 1 when equal, else the Dice
 * coefficient of their character bigrams (works for CJK text, which has no spaces).
 */
export function textSimilarity(a: string, b: string): number {
  return dice(profileOf(a), profileOf(b));
}

/**
 * Two texts say the same thing: similar (see {@link SAME_TEXT}) and with the same numbers, since
 * "fix broken link 3" and "fix broken link 4", or "38 pass" and "12 pass", are different items.
 */
export function sameText(a: string, b: string): boolean {
  const x = profileOf(a);
  const y = profileOf(b);
  if (x.key === y.key) return true;
  if (x.numbers !== y.numbers) return false;
  // Dice ≤ 2·min/(min+max), so lengths further apart than this can never reach SAME_TEXT.
  const [lo, hi] = x.size <= y.size ? [x.size, y.size] : [y.size, x.size];
  if (2 * lo < SAME_TEXT * (lo + hi)) return false;
  return dice(x, y) >= SAME_TEXT;
}

/** Two model items are the same: the same text, or same category and evidence with related text. */
export function sameModelItem(a: ExtractedItem, b: ExtractedItem): boolean {
  if (sameText(a.text, b.text)) return true;
  return a.category === b.category && profileOf(a.evidence).key === profileOf(b.evidence).key && textSimilarity(a.text, b.text) >= SAME_EVIDENCE_TEXT;
}

/**
 * A model item restates an offline (explicit convention) item: similar text, or the same block and
 * category with one evidence containing the other.
 */
export function restatesConvention(offline: ExtractedItem, model: ExtractedItem): boolean {
  if (sameText(offline.text, model.text)) return true;
  if (offline.blockIndex !== model.blockIndex || offline.category !== model.category) return false;
  const a = profileOf(offline.evidence).key;
  const b = profileOf(model.evidence).key;
  return a.length > 0 && b.length > 0 && (a.includes(b) || b.includes(a));
}

/**
 * Adds the `incoming` items that are not duplicates of `base` (nor of each other).
 * @returns the merged list (base first, order kept) and the items that were new.
 */
export function mergeModelItems(
  base: readonly ExtractedItem[],
  incoming: readonly ExtractedItem[],
): { merged: ExtractedItem[]; added: ExtractedItem[] } {
  const merged = [...base];
  const added: ExtractedItem[] = [];
  for (const item of incoming) {
    if (merged.some((m) => sameModelItem(m, item))) continue;
    merged.push(item);
    added.push(item);
  }
  return { merged, added };
}

/**
 * Merges the offline extractor's items with the model's (issue 3 §7). Every offline item is kept
 * as written; a model item restating one is dropped, and fills in the offline item's topic, target,
 * due date or ref when the convention gave none.
 * @returns offline items first, then the remaining model items, each list in its own order.
 */
export function mergeWithConventions(offline: readonly ExtractedItem[], model: readonly ExtractedItem[]): ExtractedItem[] {
  const kept = offline.map((i) => ({ ...i }));
  const rest: ExtractedItem[] = [];
  for (const item of model) {
    const twin = kept.find((o) => restatesConvention(o, item));
    if (!twin) {
      rest.push(item);
      continue;
    }
    if (twin.topic === undefined && item.topic !== undefined) twin.topic = item.topic;
    if (twin.target === undefined && item.target !== undefined) twin.target = item.target;
    if (twin.due === undefined && item.due !== undefined) twin.due = item.due;
    if (twin.ref === undefined && item.ref !== undefined) twin.ref = item.ref;
  }
  return [...kept, ...rest];
}
