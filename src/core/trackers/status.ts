/**
 * What a tracker item's state means, in one place: "open" (open or in progress), the item's
 * latest progress, and when a date is due or overdue. The tracker panel, the `trackers` CLI and
 * MCP tool, the brief, review material, reviews, routing and the health check all ask here.
 */
import { dayNumber, type IsoDate } from "../util/dates";
import type { TrackerItem, TrackerStatus } from "./format";

/**
 * True for an item still being worked on: `open` (`[ ]`) or `in-progress` (`[/]`). The `trackers`
 * command's and panel's "open" (README, "Tracker items"); done and abandoned items are closed.
 */
export function isOpenStatus(status: TrackerStatus): boolean {
  return status === "open" || status === "in-progress";
}

/** A dated progress line under an item (`    - 2026-11-05: rubric drafted`, `：` too). */
export interface ProgressLine {
  date: string;
  /** The text after the date and its colon, trimmed. */
  text: string;
  /** The line without its indentation and bullet, trimmed (`2026-11-05: rubric drafted`). */
  raw: string;
}

const PROGRESS_LINE = /^[ \t]+[-*+][ \t]+((\d{4}-\d{2}-\d{2})\b[ \t]*[:：]?[ \t]*(.*))$/u;

/** The dated progress lines under an item, in note order (the date is as written, not checked). */
export function progressLines(item: Pick<TrackerItem, "children">): ProgressLine[] {
  const out: ProgressLine[] = [];
  for (const child of item.children) {
    const m = PROGRESS_LINE.exec(child);
    const date = m?.[2];
    if (m && date !== undefined)
      out.push({ date, text: (m[3] ?? "").trim(), raw: (m[1] ?? "").trim() });
  }
  return out;
}

/**
 * The latest dated progress line under an item: the latest date, and of lines with the same date
 * the last one; `null` when there is none. The one reading of "latest progress" for the panel, the
 * CLI, the brief, review material and reviews.
 */
export function latestProgress(item: Pick<TrackerItem, "children">): ProgressLine | null {
  let best: ProgressLine | null = null;
  for (const line of progressLines(item)) if (best === null || line.date >= best.date) best = line;
  return best;
}

/** {@link latestProgress} as the line reads (`2026-11-05: rubric drafted`), or `null`. */
export function latestProgressText(item: Pick<TrackerItem, "children">): string | null {
  return latestProgress(item)?.raw ?? null;
}

/**
 * Days a date is past `today`: 0 when it is today, positive when earlier; `null` when it is later
 * (not due yet) or either is not a real `YYYY-MM-DD` date. A review is due when this is not `null`.
 */
export function daysOverdue(date: IsoDate, today: IsoDate): number | null {
  const d = dayNumber(date);
  const now = dayNumber(today);
  if (d === null || now === null || d > now) return null;
  return now - d;
}

/**
 * True when a task's `due` date is before `today` (due today is not overdue). Dates compare as
 * written `YYYY-MM-DD` strings, as the Tasks plugin does.
 */
export function isOverdue(due: string, today: IsoDate): boolean {
  return due < today;
}
