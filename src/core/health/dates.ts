/**
 * Calendar dates and ISO 8601 values as the health check and the review schedule use them
 * (DESIGN §2: timestamps are ISO 8601 strings that must round-trip, so they are never turned into
 * Date objects and back; only compared). Calendar arithmetic runs on UTC day numbers, so it does not
 * depend on the host's time zone or daylight saving.
 */

/** A calendar date `YYYY-MM-DD`. */
export type IsoDate = string;

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
/**
 * ISO 8601 / RFC 3339 date-time: `T` or a space between date and time (RFC 3339 §5.6 allows the
 * space, and YAML timestamps use it), seconds and fraction optional, `Z` or `±HH:MM` optional.
 */
const DATE_TIME_RE = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

const MS_PER_DAY = 86_400_000;

/** The day number (days since 1970-01-01) of a valid `YYYY-MM-DD`, or `null` when it is not a real calendar date. */
export function dayNumber(date: string): number | null {
  const m = DATE_RE.exec(date);
  if (!m) return null;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return null;
  return Date.UTC(y, mo - 1, d) / MS_PER_DAY;
}

/** `YYYY-MM-DD` of a day number (see {@link dayNumber}). */
export function fromDayNumber(day: number): IsoDate {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

/** True for a real calendar date written `YYYY-MM-DD` (2026-02-30 is not one). */
export function isIsoDate(value: string): boolean {
  return dayNumber(value) !== null;
}

/**
 * True for an ISO 8601 date or date-time (RFC 3339 profile, space separator allowed), with a real
 * calendar date and a time within range. Case 02's `2024-05-23T22:17:03+08:00`, `2024-03-05` and
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
  const v = value.trim();
  if (isIsoDate(v) || !isIso8601(v)) return null;
  const ms = Date.parse(v.replace(" ", "T").replace(/([+-]\d{2})(\d{2})$/, "$1:$2"));
  return Number.isNaN(ms) ? null : ms;
}

/** Days in a month (1–12) of a year, leap years by the Gregorian rule. */
export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
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
  const nd = Math.min(d, daysInMonth(ny, nm));
  return `${String(ny).padStart(4, "0")}-${String(nm).padStart(2, "0")}-${String(nd).padStart(2, "0")}`;
}

/** Whole days from `from` to `to` (negative when `to` is earlier), or `null` when either is invalid. */
export function daysBetween(from: IsoDate, to: IsoDate): number | null {
  const a = dayNumber(from);
  const b = dayNumber(to);
  return a === null || b === null ? null : b - a;
}

/** The host's local calendar date of an instant (what "today" means to the person at the keyboard). */
export function localDate(now: Date): IsoDate {
  const y = String(now.getFullYear()).padStart(4, "0");
  const m = String(now.getMonth() + 1).padStart(2, "0");
  const d = String(now.getDate()).padStart(2, "0");
  return `${y}-${m}-${d}`;
}
