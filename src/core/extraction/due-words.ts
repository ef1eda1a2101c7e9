/**
 * Due dates named in words
 * (docs/decisions.md, "Offline extraction reads headings and phrasings, not meaning":
 * "I'll … by Friday" → a task with the date): `by Friday`,
 * `before Dec 15`, `by tomorrow` (or `… tomorrow` at the end), `明天要…`, `周三前`, `月底前`, read against the journal's date.
 * Tests: test/core/extraction/offline-phrasings.test.ts. Calendar arithmetic is src/core/util/dates.ts's.
 */
import {
  addDays,
  dateFromParts,
  daysInMonth,
  isIsoDate,
  weekdayOf,
  type IsoDate,
} from "../util/dates";

const WEEKDAYS_EN = ["sun", "mon", "tues", "wednes", "thurs", "fri", "satur"];
const WEEKDAYS_ZH = "日一二三四五六";
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/** The first day after `date` that falls on `weekday` (0 Sunday … 6 Saturday): a day named on its own day means next week's. */
function nextWeekday(date: IsoDate, weekday: number): IsoDate | undefined {
  const diff = (weekday - (weekdayOf(date) ?? 0) + 7) % 7;
  return addDays(date, diff === 0 ? 7 : diff) ?? undefined;
}

const EN_WEEKDAY =
  /\b(?:by|before|until|no later than)\s+(?:this\s+|next\s+)?(mon|tues|wednes|thurs|fri|satur|sun)day\b/i;
/** `by tomorrow`, or `tomorrow` closing the text ("revoke the key tomorrow", "… tomorrow morning."). */
const EN_TOMORROW =
  /\b(?:by|before)\s+(?:tomorrow|tmrw)\b|\b(?:tomorrow|tmrw)(?:\s+(?:morning|afternoon|evening|night))?[.!]?\s*$/i;
const EN_TODAY = /\b(?:by|before)\s+(?:tonight|eod|end of (?:the )?day|today)\b/i;
const EN_MONTH_DAY =
  /\b(?:by|before|until)\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2})\b/i;
const EN_END_OF_MONTH = /\b(?:by|before)\s+(?:the\s+)?end of (?:the\s+)?month\b/i;
const ZH_WEEKDAY = /(?:周|星期|礼拜)([一二三四五六日天])(?:之前|以前|前)/u;
const ZH_TOMORROW = /明天(?:之前|以前|前|要|得)/u;
const ZH_END_OF_MONTH = /月底(?:之前|以前|前)/u;

/**
 * The due date a text names in words, relative to `journalDate` (`YYYY-MM-DD`), or `undefined`
 * when it names none or the journal has no date. A weekday is the next one after the journal's
 * day; a month and day without a year is the next such date on or after it.
 */
export function dueFromWords(text: string, journalDate: string | undefined): string | undefined {
  if (journalDate === undefined || !isIsoDate(journalDate)) return undefined;
  const base = journalDate;
  const [year, month] = base.split("-").map(Number) as [number, number];
  let m = EN_WEEKDAY.exec(text);
  if (m) return nextWeekday(base, WEEKDAYS_EN.indexOf((m[1] ?? "").toLowerCase()));
  if (EN_TOMORROW.test(text) || ZH_TOMORROW.test(text)) return addDays(base, 1) ?? undefined;
  if (EN_TODAY.test(text)) return base;
  m = EN_MONTH_DAY.exec(text);
  if (m) {
    const named = MONTHS.indexOf((m[1] ?? "").toLowerCase()) + 1;
    const day = Number(m[2]);
    const d = dateFromParts(year, named, day);
    if (d === null) return undefined;
    if (d >= base) return d;
    // The next such date: a year on; 29 February in a year without one is 1 March, as before.
    return (
      dateFromParts(year + 1, named, day) ??
      addDays(dateFromParts(year + 1, named, day - 1) ?? d, 1) ??
      undefined
    );
  }
  if (EN_END_OF_MONTH.test(text) || ZH_END_OF_MONTH.test(text))
    return dateFromParts(year, month, daysInMonth(year, month)) ?? undefined;
  const z = ZH_WEEKDAY.exec(text);
  if (z) {
    const ch = z[1] === "天" ? "日" : (z[1] ?? "");
    return nextWeekday(base, WEEKDAYS_ZH.indexOf(ch));
  }
  return undefined;
}
