/**
 * Calendar dates and ISO 8601 values, and the one rule for "today" and for expiry that search,
 * the health check, reviews, trackers, the CLI and the plugin share
 * (docs/decisions.md, "One date rule, on the user's local calendar").
 *
 * **Time zone rule.** A day is the user's local calendar day: the host's time zone (`TZ` for the
 * CLI, the system's zone in Obsidian), the zone journals are named in. {@link today} and
 * {@link localDate} are the only places that turn an instant into a date, and
 * {@link startOfLocalDay} the only one that turns a date into an instant; nothing takes the date
 * of an instant from `toISOString()`, which is the UTC date (in UTC+8 it is still yesterday until
 * 08:00).
 * A date written in a note is kept as written, in the writer's own offset ({@link datePart}).
 *
 * Timestamps are ISO 8601 strings that must round-trip, so they are never turned into Date
 * objects and back; only compared. Calendar arithmetic runs on UTC day numbers, so it does not
 * depend on the host's time zone or daylight saving. test/core/health/expiry-time-zone.process.test.ts runs the CLI's
 * health check and search under Asia/Shanghai and America/Los_Angeles.
 */

/** A calendar date `YYYY-MM-DD`. */
export type IsoDate = string;

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_SHAPE_RE = /^\d{4}-\d{2}-\d{2}$/;
/**
 * ISO 8601 / RFC 3339 date-time: `T` or a space between date and time (RFC 3339 §5.6 allows the
 * space, and YAML timestamps use it), seconds and fraction optional, `Z` or `±HH:MM` optional.
 */
const DATE_TIME_RE =
  /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

const MS_PER_DAY = 86_400_000;

/** The day number (days since 1970-01-01) of a valid `YYYY-MM-DD`, or `null` when it is not a real calendar date. */
export function dayNumber(date: string): number | null {
  const m = DATE_RE.exec(date);
  if (!m) return null;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return null;
  const at = new Date(Date.UTC(2000, mo - 1, d));
  at.setUTCFullYear(y); // Date.UTC reads years 0–99 as 1900–1999
  return at.getTime() / MS_PER_DAY;
}

/** `YYYY-MM-DD` of a day number (see {@link dayNumber}). */
export function fromDayNumber(day: number): IsoDate {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

/**
 * The day of the week of a `YYYY-MM-DD` date, 0 Sunday … 6 Saturday, or `null` for an invalid
 * date. Day 0 (1970-01-01) was a Thursday.
 */
export function weekdayOf(date: IsoDate): number | null {
  const n = dayNumber(date);
  return n === null ? null : (((n + 4) % 7) + 7) % 7;
}

/**
 * The date a journal's title names when the whole title is `YYYY-MM-DD` shaped (`2026-11-24`,
 * the daily-note name), else `undefined`. Only the shape is checked, as the extraction has always
 * done; callers that need a real calendar date check {@link isIsoDate}.
 */
export function dateTitle(title: string): IsoDate | undefined {
  return DATE_SHAPE_RE.test(title) ? title : undefined;
}

/**
 * The date a file name carries: its first `YYYY-MM-DD` when that is a real calendar date
 * (`2026-11-24 standup.md` → `2026-11-24`), else `null`. How journals are dated by name in the
 * health check and in review material.
 */
export function dateInName(name: string): IsoDate | null {
  const m = /\d{4}-\d{2}-\d{2}/.exec(name);
  return m && isIsoDate(m[0]) ? m[0] : null;
}

/** True for a real calendar date written `YYYY-MM-DD` (2026-02-30 is not one). */
export function isIsoDate(value: string): boolean {
  return dayNumber(value) !== null;
}

/**
 * True for an ISO 8601 date or date-time (RFC 3339 profile, space separator allowed), with a real
 * calendar date and a time within range. The values of test/core/frontmatter.test.ts, "case 02: …",
 * `2024-05-23T22:17:03+08:00`, `2024-03-05` and
 * `2024-03-05 09:30:00` all pass; `05/03/2024`, `2024-3-5` and `2026-02-30` do not.
 */
export function isIso8601(value: string): boolean {
  if (isIsoDate(value)) return true;
  const m = DATE_TIME_RE.exec(value);
  if (!m || dayNumber(m[1] ?? "") === null) return false;
  const h = Number(m[2]);
  const min = Number(m[3]);
  const s = m[4] === undefined ? 0 : Number(m[4]);
  // 24:00 and leap second 60 are legal ISO spellings we have no reason to reject.
  return h <= 24 && min <= 59 && s <= 60;
}

/**
 * The calendar date of an ISO 8601 value as written (its first ten characters), or `null` when the
 * value is not ISO 8601. The writer's own offset is kept: `2024-05-23T22:17:03+08:00` is on 2024-05-23,
 * because day-level rules (drafts, staleness) are about the day the writer saw.
 */
export function datePart(value: unknown): IsoDate | null {
  if (typeof value !== "string") return null;
  const v = value.trim();
  return isIso8601(v) ? v.slice(0, 10) : null;
}

/**
 * The instant of an ISO 8601 date-time in milliseconds since the epoch, or `null` for a plain date
 * or a non-ISO value. A date-time without an offset is read in the host's local time, as a person
 * who wrote it meant.
 */
export function instantOf(value: string): number | null {
  const form = dateTimeForm(value.trim());
  if (form === null) return null;
  const ms = Date.parse(form);
  return Number.isNaN(ms) ? null : ms;
}

/**
 * The form of a trimmed ISO 8601 date-time that `Date.parse` reads ({@link instantOf}: `T`
 * between date and time, a colon in the offset), or `null` for a plain date or a non-ISO value.
 */
function dateTimeForm(v: string): string | null {
  if (isIsoDate(v) || !isIso8601(v)) return null;
  return v.replace(" ", "T").replace(/([+-]\d{2})(\d{2})$/, "$1:$2");
}

/** Days in a month (1–12) of a year, leap years by the Gregorian rule. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** `YYYY-MM-DD` of a year, a month (1–12) and a day, or `null` when that is not a real calendar date (2026-02-30). */
export function dateFromParts(year: number, month: number, day: number): IsoDate | null {
  const d = `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
  return isIsoDate(d) ? d : null;
}

/** Adds days to a date. Returns `null` for an invalid date. */
export function addDays(date: IsoDate, days: number): IsoDate | null {
  const n = dayNumber(date);
  return n === null ? null : fromDayNumber(n + days);
}

/**
 * Adds calendar months, clamping the day to the end of a shorter month: 2026-01-31 + 1 month is
 * 2026-02-28, 2028-01-31 + 1 month is 2028-02-29, 2028-02-29 + 12 months is 2029-02-28 (the rule
 * of java.time `plusMonths` and date-fns `addMonths`). Returns `null` for an invalid date.
 */
export function addMonths(date: IsoDate, months: number): IsoDate | null {
  if (dayNumber(date) === null) return null;
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const index = y * 12 + (m - 1) + months;
  const ny = Math.floor(index / 12);
  const nm = (index % 12) + 1;
  return dateFromParts(ny, nm, Math.min(d, daysInMonth(ny, nm)));
}

/** Whole days from `from` to `to` (negative when `to` is earlier), or `null` when either is invalid. */
export function daysBetween(from: IsoDate, to: IsoDate): number | null {
  const a = dayNumber(from);
  const b = dayNumber(to);
  return a === null || b === null ? null : b - a;
}

/**
 * The user's local calendar date of an instant: the "date of a timestamp" rule (a file's
 * modification time, the moment a journal is named or a health check runs). Local means the
 * host's time zone (see the module comment), never UTC.
 * @param instant a Date, or milliseconds since the epoch
 */
export function localDate(instant: Date | number): IsoDate {
  const at = typeof instant === "number" ? new Date(instant) : instant;
  const y = String(at.getFullYear()).padStart(4, "0");
  const m = String(at.getMonth() + 1).padStart(2, "0");
  const d = String(at.getDate()).padStart(2, "0");
  return `${y}-${m}-${d}`;
}

const pad2 = (n: number): string => String(Math.trunc(Math.abs(n))).padStart(2, "0");

/**
 * An instant as ISO 8601 local time with the host's offset, e.g. `2026-11-29T14:05:09+08:00`:
 * how the tool writes timestamps (`updated_at`, a health report's `generated_at`). Offsets are
 * kept, and the date part is the user's local date ({@link localDate}), so {@link datePart} of
 * what is written is the day the user saw.
 */
export function localTimestamp(d: Date): string {
  const off = -d.getTimezoneOffset();
  const sign = off >= 0 ? "+" : "-";
  return `${localDate(d)}T${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}${sign}${pad2(off / 60)}:${pad2(off % 60)}`;
}

/**
 * The instant a calendar day begins for the user: local midnight (see the module comment), in
 * milliseconds since the epoch; `null` for an invalid date. The inverse of {@link localDate}.
 */
export function startOfLocalDay(date: IsoDate): number | null {
  if (dayNumber(date) === null) return null;
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const at = new Date(2000, m - 1, d);
  at.setFullYear(y); // years 0–99 are not read as 1900–1999
  return at.getTime();
}

/**
 * Today's date, `YYYY-MM-DD`, in the user's local time zone (see the module comment): what
 * "today" means for expiry, drafts, staleness, due reviews and the day's journal.
 * @param now the current instant, a Date or milliseconds since the epoch (callers inject a clock)
 */
export function today(now: Date | number): IsoDate {
  return localDate(now);
}

/**
 * True when an `expires_at` value is past. A date expires after its day: expired when it is
 * before `todayIso`, the local date (a note with `expires_at: 2026-12-01` is live all of that
 * local day). A date-time expires at its instant, before `nowMs`; one without an offset is local
 * time ({@link instantOf}). Anything that is not ISO 8601 never expires (the health check flags it
 * as a bad date instead). Search leaves expired notes out; the health check warns about them.
 * @param value the frontmatter value as read (only strings can expire)
 * @param todayIso {@link today} of `nowMs`, or a day the caller was asked to judge for (`--date`)
 * @param nowMs the current instant, milliseconds since the epoch
 */
export function isExpired(value: unknown, todayIso: IsoDate, nowMs: number): boolean {
  if (typeof value !== "string") return false;
  const v = value.trim();
  let form = expiryForms.get(v);
  if (form === undefined) {
    form = isIsoDate(v) ? "" : dateTimeForm(v);
    if (expiryForms.size >= 100_000) expiryForms.clear();
    expiryForms.set(v, form);
  }
  if (form === "") return v < todayIso;
  if (form === null) return false;
  // Parsed at every call: a date-time without an offset is local time, and the zone may change.
  const instant = Date.parse(form);
  return !Number.isNaN(instant) && instant < nowMs;
}

/**
 * What {@link isExpired} made of each value it was asked (trimmed): `""` for a plain date, the
 * form `Date.parse` reads for a date-time ({@link dateTimeForm}), `null` for anything else. Search
 * asks it of every note with an expiry at every query, and a vault has few distinct values;
 * checking the shape each time was a visible part of a hybrid query (docs/decisions.md, "The
 * vector side skips what cannot change its top").
 */
const expiryForms = new Map<string, string | null>();

/** The day number of the Monday of the week holding day number `day` (1970-01-01 was a Thursday). */
function mondayOf(day: number): number {
  return day - ((((day + 3) % 7) + 7) % 7);
}

/*
 * ISO 8601 weeks (ISO 8601-1:2019 §5.2.4.3): weeks start on Monday, and week 1 of a year is the
 * week holding its first Thursday, so 2026-12-31 is in 2026-W53 and 2027-01-01 too. Weekly digests
 * are named by them (`2026-W48.md`, docs/compaction.md).
 */

/** An ISO week. */
export interface IsoWeek {
  /** ISO week-numbering year (may differ from the calendar year near 1 January). */
  year: number;
  /** 1–53. */
  week: number;
  /** `YYYY-Www`, e.g. `2026-W48`. */
  label: string;
  /** Monday of the week, `YYYY-MM-DD`. */
  start: IsoDate;
  /** Sunday of the week, `YYYY-MM-DD`. */
  end: IsoDate;
}

/**
 * The ISO week holding `date` (`YYYY-MM-DD`).
 * @throws RangeError when `date` is not a real calendar date.
 */
export function isoWeekOf(date: IsoDate): IsoWeek {
  const day = dayNumber(date);
  if (day === null) throw new RangeError(`not a date YYYY-MM-DD: ${JSON.stringify(date)}`);
  const monday = mondayOf(day);
  const thursday = monday + 3;
  const year = Number(fromDayNumber(thursday).slice(0, 4));
  const jan4 = dayNumber(`${String(year).padStart(4, "0")}-01-04`) ?? thursday;
  const firstMonday = mondayOf(jan4);
  const week = Math.floor((monday - firstMonday) / 7) + 1;
  return {
    year,
    week,
    label: `${String(year).padStart(4, "0")}-W${String(week).padStart(2, "0")}`,
    start: fromDayNumber(monday),
    end: fromDayNumber(monday + 6),
  };
}
