/**
 * How reports say what applying a planned item does (the CLI's `extract`, MCP `extract`, the
 * review queue of watch-and-extract): `added`, `new note`, `duplicate, source added t-004`.
 * "new" is said of a note only, when applying creates it.
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
