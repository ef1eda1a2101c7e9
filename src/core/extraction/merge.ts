/**
 * Merging item lists inside one extraction run: items from several windows and passes
 * (docs/architecture.md, "Extractors" and "The self-check gate"), and the offline extractor's
 * items, which are always honoured whatever the model returns (docs/architecture.md, "Extractors").
 * Dedupe against the destination notes is the plan's job (dedupe.ts), not this one's.
 */
import { foldForMatch } from "../markdown/text";
import { sameItemText, similarity } from "./dedupe";
import type { ExtractedItem } from "./types";

/** With the same category and evidence, texts this similar are the same item. */
const SAME_EVIDENCE_TEXT = 0.5;

/**
 * Two texts say the same thing: the plan's dedupe rule ({@link sameItemText}, dedupe.ts), so that
 * items merged within a run and items deduped against the notes follow one rule.
 */
export function sameText(a: string, b: string): boolean {
  return sameItemText(a, b);
}

/** Similarity 0–1 of two texts (see {@link similarity} in dedupe.ts). */
export function textSimilarity(a: string, b: string): number {
  return similarity(a, b);
}

/** Two model items are the same: the same text, or same category and evidence with related text. */
export function sameModelItem(a: ExtractedItem, b: ExtractedItem): boolean {
  if (sameText(a.text, b.text)) return true;
  return (
    a.category === b.category &&
    foldForMatch(a.evidence) === foldForMatch(b.evidence) &&
    textSimilarity(a.text, b.text) >= SAME_EVIDENCE_TEXT
  );
}

/**
 * A model item restates an offline (explicit convention) item: similar text, or the same block and
 * category with one evidence containing the other.
 */
export function restatesConvention(offline: ExtractedItem, model: ExtractedItem): boolean {
  if (sameText(offline.text, model.text)) return true;
  if (offline.blockIndex !== model.blockIndex || offline.category !== model.category) return false;
  const a = foldForMatch(offline.evidence);
  const b = foldForMatch(model.evidence);
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
 * Merges the offline extractor's items with the model's (docs/architecture.md, "Extractors"). Every
 * explicit convention is kept as written; a model item restating one is dropped, and fills in the
 * offline item's topic, target, due date or ref when the convention gave none. An item the offline
 * extractor only inferred from a heading or a phrasing (`cue`;
 * docs/decisions.md, "Inferred items yield to the model") is replaced, in its place, by the model
 * item that restates it, which keeps the offline owner and due date when it gives none.
 * @returns offline items first, then the remaining model items, each list in its own order.
 */
export function mergeWithConventions(
  offline: readonly ExtractedItem[],
  model: readonly ExtractedItem[],
): ExtractedItem[] {
  const kept = offline.map((i) => ({ ...i }));
  const rest: ExtractedItem[] = [];
  for (const item of model) {
    const at = kept.findIndex((o) => restatesConvention(o, item));
    const twin = kept[at];
    if (!twin) {
      rest.push(item);
      continue;
    }
    if (twin.cue) {
      const replaced: ExtractedItem = { ...item };
      if (replaced.owner === undefined && twin.owner !== undefined && replaced.category === "task")
        replaced.owner = twin.owner;
      if (replaced.due === undefined && twin.due !== undefined) replaced.due = twin.due;
      kept[at] = replaced;
      continue;
    }
    if (twin.topic === undefined && item.topic !== undefined) twin.topic = item.topic;
    if (twin.target === undefined && item.target !== undefined) twin.target = item.target;
    if (twin.due === undefined && item.due !== undefined) twin.due = item.due;
    if (twin.ref === undefined && item.ref !== undefined) twin.ref = item.ref;
  }
  return [...kept, ...rest];
}
