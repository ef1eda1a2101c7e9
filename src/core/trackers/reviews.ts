/**
 * Due reviews: the periodic self-review loops in `Reviews.md`
 * (docs/architecture.md, "Review loops"), items like
 * `- [ ] Self-review loop [every:: biweekly] [next:: 2026-12-13] ^r-002`.
 *
 * `every` is `daily`, `weekly`, `biweekly` (or `fortnightly`), `monthly`, `quarterly`, `yearly`, a
 * count with a unit (`10 days`, `3 weeks`, `2 months`), or the Chinese 每天 / 每周 / 每两周 / 每月 /
 * 每季度 / 每年 / 每N天. Months are calendar months clamped to the month's end (see {@link addMonths}).
 * Finishing a review moves `next` forward by whole periods from the old `next` (the schedule keeps
 * its weekday or day of month) and records the day as a progress line under the item,
 * `    - YYYY-MM-DD: done`, as the sample vault's `Reviews.md` does. The last review is the latest
 * dated line under the item (or a `[last:: YYYY-MM-DD]` field, whichever is later).
 *
 * A loop never ends by being ticked
 * (docs/decisions.md, "A ticked review loop is a finished round, not a finished loop"): a review
 * ticked done (`[x]`, in the Tasks plugin, Obsidian or a Dataview
 * view, which add `[completion:: D]`) is read as the current round done on that day (on its `next`
 * date when no completion date was written), so it stays open with `next` moved on, and {@link
 * reopenTickedReviews} writes it so. A loop ends when it is abandoned (`[-]`).
 */
import { addDays, addMonths, dayNumber, type IsoDate } from "../util/dates";
import { listItems, type TrackerItem } from "./format";
import { daysOverdue, isOpenStatus, progressLines } from "./status";
import { FIELD_KEYS, fieldValue } from "./fields";
import { addProgressNote, findItem, setItemField, setItemStatus } from "./store";
import { err, ok, type Result } from "../util/result";

/** A review period: a number of days or of calendar months. */
export interface ReviewInterval {
  unit: "day" | "month";
  count: number;
}

/** A review item with its schedule read. */
export interface ReviewSchedule {
  /** Block id (`r-002`), or `null` when the item has none. */
  id: string | null;
  text: string;
  status: TrackerItem["status"];
  /** 0-based line of the item in the note. */
  line: number;
  /** `every` as written, or `null`. */
  everyRaw: string | null;
  /** `every` read, or `null` when missing or not understood. */
  every: ReviewInterval | null;
  /** `next` as written, or `null`. */
  nextRaw: string | null;
  /** `next` when it is a valid `YYYY-MM-DD`, else `null`. */
  next: IsoDate | null;
  /** The day the review was last done: the latest dated line under the item or a `last` field; else `null`. */
  last: IsoDate | null;
  /** Why the schedule cannot be used (bad `every` or `next`), or `null`. */
  problem: string | null;
  /**
   * The day of a round ticked done on the line itself (`[x]`: its `completion` date, else its
   * written `next`), or `null`. Such a review is read open, with `next` and `last` past that round.
   */
  ticked: IsoDate | null;
}

/** A review whose `next` date has come. */
export interface DueReview extends ReviewSchedule {
  next: IsoDate;
  /** Days since `next` (0 when due today). */
  daysOverdue: number;
}

const WORDS: Readonly<Record<string, ReviewInterval>> = {
  daily: { unit: "day", count: 1 },
  weekly: { unit: "day", count: 7 },
  biweekly: { unit: "day", count: 14 },
  "bi-weekly": { unit: "day", count: 14 },
  fortnightly: { unit: "day", count: 14 },
  monthly: { unit: "month", count: 1 },
  quarterly: { unit: "month", count: 3 },
  yearly: { unit: "month", count: 12 },
  annually: { unit: "month", count: 12 },
  每天: { unit: "day", count: 1 },
  每日: { unit: "day", count: 1 },
  每周: { unit: "day", count: 7 },
  每两周: { unit: "day", count: 14 },
  每双周: { unit: "day", count: 14 },
  每月: { unit: "month", count: 1 },
  每季度: { unit: "month", count: 3 },
  每年: { unit: "month", count: 12 },
};

const UNITS: Readonly<Record<string, ReviewInterval>> = {
  d: { unit: "day", count: 1 },
  day: { unit: "day", count: 1 },
  days: { unit: "day", count: 1 },
  天: { unit: "day", count: 1 },
  日: { unit: "day", count: 1 },
  w: { unit: "day", count: 7 },
  week: { unit: "day", count: 7 },
  weeks: { unit: "day", count: 7 },
  周: { unit: "day", count: 7 },
  month: { unit: "month", count: 1 },
  months: { unit: "month", count: 1 },
  个月: { unit: "month", count: 1 },
  月: { unit: "month", count: 1 },
};

/**
 * Reads an `every` value (see the module comment). Case and surrounding whitespace are ignored;
 * `every 10 days` is read like `10 days`. Returns `null` for anything else or a count of 0.
 */
export function parseEvery(value: string): ReviewInterval | null {
  const v = value
    .trim()
    .toLowerCase()
    .replace(/^every\s+/, "");
  const word = WORDS[v];
  if (word) return { ...word };
  const m = /^(?:每\s*)?(\d{1,4})\s*([a-z]+|[天日周月]|个月)$/u.exec(v);
  if (!m) return null;
  const n = Number(m[1]);
  const unit = UNITS[m[2] ?? ""];
  if (!unit || n < 1) return null;
  return { unit: unit.unit, count: unit.count * n };
}

/** Adds `times` periods to a date. Returns `null` for an invalid date. */
export function addInterval(date: IsoDate, every: ReviewInterval, times = 1): IsoDate | null {
  return every.unit === "day"
    ? addDays(date, every.count * times)
    : addMonths(date, every.count * times);
}

/** Subtracts one period from a date (the start of the period that ends at `date`). */
export function subtractInterval(date: IsoDate, every: ReviewInterval): IsoDate | null {
  return addInterval(date, every, -1);
}

/**
 * The next review date after finishing on `doneDate`: `next` moved forward by whole periods until it
 * is after `doneDate` (at least one period). Each candidate is computed from the old `next` in one
 * step (`next + k·every`), so month-end clamping does not compound: monthly from 2026-01-31 finished
 * on 2026-03-05 gives 2026-03-31, not 2026-03-28. Returns `null` when a date is invalid.
 */
export function nextReviewDate(
  next: IsoDate,
  every: ReviewInterval,
  doneDate: IsoDate,
): IsoDate | null {
  const done = dayNumber(doneDate);
  if (done === null || dayNumber(next) === null) return null;
  for (let k = 1; k < 100_000; k++) {
    const candidate = addInterval(next, every, k);
    if (candidate === null) return null;
    if ((dayNumber(candidate) ?? 0) > done) return candidate;
  }
  return null;
}

function field(item: TrackerItem, key: string): string | null {
  return fieldValue(item.fields, key);
}

/** True for a tracker item that carries a review schedule (an `every` or a `next` field). */
export function isReviewItem(item: TrackerItem): boolean {
  return field(item, FIELD_KEYS.every) !== null || field(item, FIELD_KEYS.next) !== null;
}

/** Reads the schedule of one tracker item (see {@link ReviewSchedule}; a ticked round is read as done). */
export function readSchedule(item: TrackerItem): ReviewSchedule {
  const everyRaw = field(item, FIELD_KEYS.every);
  const nextRaw = field(item, FIELD_KEYS.next);
  const lastRaw = field(item, FIELD_KEYS.last);
  const every = everyRaw === null ? null : parseEvery(everyRaw);
  let next = nextRaw !== null && dayNumber(nextRaw) !== null ? nextRaw : null;
  const problems: string[] = [];
  if (everyRaw === null) problems.push("no [every:: …] field");
  else if (every === null)
    problems.push(`every "${everyRaw}" is not weekly, biweekly, monthly or a number of days`);
  if (nextRaw === null) problems.push("no [next:: YYYY-MM-DD] field");
  else if (next === null) problems.push(`next "${nextRaw}" is not a date YYYY-MM-DD`);
  let status = item.status;
  let last = lastDone(item, lastRaw);
  let ticked: IsoDate | null = null;
  if (item.status === "done" && every !== null && next !== null) {
    const completion = field(item, FIELD_KEYS.completion)?.trim() ?? null;
    ticked = completion !== null && dayNumber(completion) !== null ? completion : next;
    next = nextReviewDate(next, every, ticked) ?? next;
    status = "open";
    if (last === null || ticked > last) last = ticked;
  }
  return {
    id: item.id,
    text: item.text,
    status,
    line: item.line,
    everyRaw,
    every,
    nextRaw,
    next,
    last,
    problem: problems.length > 0 ? problems.join("; ") : null,
    ticked,
  };
}

function lastDone(item: TrackerItem, lastRaw: string | null): IsoDate | null {
  let best: IsoDate | null = lastRaw !== null && dayNumber(lastRaw) !== null ? lastRaw : null;
  for (const { date } of progressLines(item)) {
    if (dayNumber(date) !== null && (best === null || date > best)) best = date;
  }
  return best;
}

/** Every review item of a tracker note (items with `every` or `next`), whatever their status. */
export function listReviews(text: string): ReviewSchedule[] {
  return listItems(text).filter(isReviewItem).map(readSchedule);
}

/**
 * Reviews of a tracker note whose `next` date is `today` or earlier, most overdue first. Only open
 * and in-progress items count: a done or abandoned loop is over. Items whose `next` is not a date
 * are not due (the health check reports them as `wrong-type`).
 */
export function dueReviews(text: string, today: IsoDate): DueReview[] {
  const due: DueReview[] = [];
  for (const r of listReviews(text)) {
    if (!isOpenStatus(r.status) || r.next === null) continue;
    const overdue = daysOverdue(r.next, today);
    if (overdue !== null) due.push({ ...r, next: r.next, daysOverdue: overdue });
  }
  return due.sort((a, b) => b.daysOverdue - a.daysOverdue || a.line - b.line);
}

/** Outcome of {@link advanceReview}: the new text, or why nothing changed. */
export type AdvanceResult = Result<{
  text: string;
  /** False when the review was already recorded as done that day (running twice changes nothing). */
  changed: boolean;
  previous: IsoDate;
  next: IsoDate;
}>;

/**
 * Marks review `id` done on `doneDate`: sets `next` to {@link nextReviewDate} and adds the progress
 * line `    - <doneDate>: done` (with `; <note>` when given, e.g. a link to the review note),
 * touching only that item (it stays open: the loop goes on). A review already recorded as done on
 * `doneDate` is left unchanged, so running it twice does not skip a period. Returns a reason instead
 * when the item is missing or has no usable schedule. Pure, for use inside `VaultPort.process`.
 * Throws {@link FrontmatterError} naming `path` when the note's frontmatter does not parse (such a
 * note is never rewritten, docs/architecture.md, "The health check").
 */
export function advanceReview(
  text: string,
  id: string,
  doneDate: IsoDate,
  path = "Reviews",
  note = "",
): AdvanceResult {
  if (dayNumber(doneDate) === null) return err(`"${doneDate}" is not a date YYYY-MM-DD`);
  const item = findItem(text, id);
  if (!item) return err(`no item ^${id} in ${path}`);
  const schedule = readSchedule(item);
  if (!schedule.every || !schedule.next) return err(`^${id}: ${schedule.problem ?? "no schedule"}`);
  if (schedule.ticked !== null) return reopenTicked(text, id, schedule, path, note);
  const doneLine = new RegExp(`^[ \\t]+[-*+][ \\t]+${doneDate}: done\\b`);
  if (item.children.some((c) => doneLine.test(c))) {
    return ok({ text, changed: false, previous: schedule.next, next: schedule.next });
  }
  const next = nextReviewDate(schedule.next, schedule.every, doneDate);
  if (next === null) return err(`^${id}: cannot compute the next date`);
  const withNext = setItemField(text, id, FIELD_KEYS.next, next, path);
  if (!withNext.ok) return err(withNext.error.message);
  const withLine = addProgressNote(
    withNext.value.text,
    id,
    note ? `done; ${note}` : "done",
    doneDate,
    path,
  );
  if (!withLine.ok) return err(withLine.error.message);
  return ok({
    text: withLine.value.text,
    changed: withLine.value.text !== text,
    previous: schedule.next,
    next,
  });
}

/** Writes a ticked round as done (see {@link reopenTickedReviews}) for one review. */
function reopenTicked(
  text: string,
  id: string,
  schedule: ReviewSchedule,
  path: string,
  note: string,
): AdvanceResult {
  const ticked = schedule.ticked;
  const next = schedule.next;
  if (ticked === null || next === null) return err(`^${id}: not ticked`);
  const reopened = setItemStatus(text, id, "open", path);
  if (!reopened.ok) return err(reopened.error.message);
  const withNext = setItemField(reopened.value.text, id, FIELD_KEYS.next, next, path);
  if (!withNext.ok) return err(withNext.error.message);
  const withLine = addProgressNote(
    withNext.value.text,
    id,
    note ? `done; ${note}` : "done",
    ticked,
    path,
  );
  if (!withLine.ok) return err(withLine.error.message);
  return ok({
    text: withLine.value.text,
    changed: withLine.value.text !== text,
    previous: schedule.nextRaw ?? next,
    next,
  });
}

/**
 * Writes every review loop of the note that was ticked done on its line (in Tasks, Obsidian or a
 * Dataview view) as its round done: the line is open again without `completion`, `next` is moved on
 * from the written `next` past the tick's day, and `    - <day>: done` is added under it. Other
 * lines stay byte for byte. Pure, for `VaultPort.process`; throws {@link FrontmatterError} like the
 * other edits. Returns the text and the ids reopened, each with its new `next`.
 */
export function reopenTickedReviews(
  text: string,
  path = "Reviews",
): { text: string; reopened: { id: string; next: IsoDate }[] } {
  let out = text;
  const reopened: { id: string; next: IsoDate }[] = [];
  for (const r of listReviews(text)) {
    if (r.ticked === null || r.id === null) continue;
    const done = advanceReview(out, r.id, r.ticked, path);
    if (done.ok && done.value.changed) {
      out = done.value.text;
      reopened.push({ id: r.id, next: done.value.next });
    }
  }
  return { text: out, reopened };
}
