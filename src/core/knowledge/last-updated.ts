/**
 * The day a note was last updated, read from the note rather than from the file's modification
 * time, which copying, syncing or a git checkout resets: the latest of `updated_at`, `created_at`
 * and, for knowledge and library notes, the dates of the callouts extraction appends
 * (`> [!insight] 2026-03-27 · …`); the file's mtime (its local date) only when the note has none of
 * them. The health check's staleness rules and review material both date notes by it.
 */
import type { Collection } from "../layout";
import { datePart, isIsoDate, localDate, type IsoDate } from "../util/dates";

/** What {@link lastUpdated} reads of a note. */
export interface DatedNote {
  /** The frontmatter mapping, or `null` when the note has none (or it does not parse). */
  data: Record<string, unknown> | null;
  /** The body after the frontmatter. */
  body: string;
  /** Where the note lives; callouts count in `knowledge` and `library` only. */
  collection: Collection | null;
  /** The file's modification time, milliseconds since the epoch. */
  mtime: number;
}

const CALLOUT_DATE_RE = /^>\s*\[![\w-]+\][+-]?\s+(\d{4}-\d{2}-\d{2})/gm;

function later(a: IsoDate | null, b: IsoDate | null): IsoDate | null {
  if (a === null) return b;
  if (b === null) return a;
  return a > b ? a : b;
}

function field(note: DatedNote, key: string): unknown {
  return note.data && Object.hasOwn(note.data, key) ? note.data[key] : undefined;
}

/** The day a note was last updated (see the module comment), `YYYY-MM-DD`. */
export function lastUpdated(note: DatedNote): IsoDate {
  let best = later(datePart(field(note, "updated_at")), datePart(field(note, "created_at")));
  if (note.collection === "knowledge" || note.collection === "library") {
    for (const m of note.body.matchAll(CALLOUT_DATE_RE)) {
      const d = m[1] ?? "";
      if (isIsoDate(d)) best = later(best, d);
    }
  }
  return best ?? localDate(note.mtime);
}
