/**
 * How reports say what applying a planned item does (the CLI's `extract`, MCP `extract`, the
 * review queue of watch-and-extract): `added`, `new note`, `duplicate, source added t-004`.
 * "new" is said of a note only, when applying creates it, and once per note
 * ({@link reportActionWords}).
 */
import { supersessionLabel } from "./contradiction";
import type { PlannedItem } from "./types";

/** The parts of a planned item (or of its report line) {@link actionWords} reads. */
export type ActionWordsOf = Pick<PlannedItem, "action" | "existingId" | "newNote" | "supersedes">;

const WORDS: Readonly<Record<Exclude<PlannedItem["action"], "add" | "supersede">, string>> = {
  "add-source": "duplicate, source added",
  progress: "progress note",
  skip: "already recorded",
};

/**
 * What applying `planned` does, in the words of the reports: `added` (a new line or callout in a
 * note that is there), `new note` when applying creates the note, either followed by the
 * supersession (`added, supersedes d-004 (says the opposite)`); else the duplicate, the progress
 * note or "already recorded", with the existing id. A new item's id is not said: a dry run or a
 * queued plan is planned again when applied, and draws another.
 */
export function actionWords(planned: ActionWordsOf): string {
  if (planned.action === "add" || planned.action === "supersede") {
    const added = planned.newNote ? "new note" : "added";
    return planned.supersedes ? `${added}, ${supersessionLabel(planned.supersedes)}` : added;
  }
  return `${WORDS[planned.action]}${planned.existingId ? ` ${planned.existingId}` : ""}`;
}

/**
 * {@link actionWords} of each item of a report, in order, with "new note" said once per note: at
 * the first item into a note applying creates; the items after it into that note are `added`
 * (docs/architecture.md, "Plan and apply"). An item routed to two new notes is new in each.
 */
export function reportActionWords(
  items: readonly (ActionWordsOf & { destination: string })[],
): string[] {
  const created = new Set<string>();
  return items.map((it) => {
    const first = it.newNote === true && !created.has(it.destination);
    if (first) created.add(it.destination);
    return actionWords(it.newNote && !first ? { ...it, newNote: false } : it);
  });
}
