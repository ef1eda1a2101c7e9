/**
 * Due dates named in words
 * (docs/decisions.md, "Offline extraction reads headings and phrasings, not meaning":
 * "I'll … by Friday" → a task with the date): `by Friday`,
 * `before Dec 15`, `by tomorrow`, `明天要…`, `周三前`, `月底前`, read against the journal's date.
 * Tests: test/offline-phrasings.test.ts.
 */

const WEEKDAYS_EN = ["sun", "mon", "tues", "wednes", "thurs", "fri", "satur"];
const WEEKDAYS_ZH = "日一二三四五六";
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/** A UTC date for `YYYY-MM-DD` (calendar arithmetic only; no time zone is involved). */
function parseIso(date: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return null;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return Number.isNaN(d.getTime()) ? null : d;
}

function iso(d: Date): string {
  return d.toISOString().slice(0, 10);
}

function addDays(d: Date, n: number): Date {
  return new Date(d.getTime() + n * 86_400_000);
}

/** The first day after `d` that falls on `weekday` (0 Sunday … 6 Saturday): a day named on its own day means next week's. */
function nextWeekday(d: Date, weekday: number): Date {
  const diff = (weekday - d.getUTCDay() + 7) % 7;
  return addDays(d, diff === 0 ? 7 : diff);
}

const EN_WEEKDAY = /\b(?:by|before|until|no later than)\s+(?:this\s+|next\s+)?(mon|tues|wednes|thurs|fri|satur|sun)day\b/i;
const EN_TOMORROW = /\b(?:by|before)\s+(?:tomorrow|tmrw)\b/i;
const EN_TODAY = /\b(?:by|before)\s+(?:tonight|eod|end of (?:the )?day|today)\b/i;
const EN_MONTH_DAY = /\b(?:by|before|until)\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2})\b/i;
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
  const base = journalDate ? parseIso(journalDate) : null;
  if (!base) return undefined;
  let m = EN_WEEKDAY.exec(text);
  if (m) return iso(nextWeekday(base, WEEKDAYS_EN.indexOf((m[1] ?? "").toLowerCase())));
  if (EN_TOMORROW.test(text) || ZH_TOMORROW.test(text)) return iso(addDays(base, 1));
  if (EN_TODAY.test(text)) return iso(base);
  m = EN_MONTH_DAY.exec(text);
  if (m) {
    const month = MONTHS.indexOf((m[1] ?? "").toLowerCase());
    const day = Number(m[2]);
    let d = new Date(Date.UTC(base.getUTCFullYear(), month, day));
    if (d.getUTCMonth() !== month) return undefined;
    if (d < base) d = new Date(Date.UTC(base.getUTCFullYear() + 1, month, day));
    return iso(d);
  }
  if (EN_END_OF_MONTH.test(text) || ZH_END_OF_MONTH.test(text)) {
    return iso(new Date(Date.UTC(base.getUTCFullYear(), base.getUTCMonth() + 1, 0)));
  }
  const z = ZH_WEEKDAY.exec(text);
  if (z) {
    const ch = z[1] === "天" ? "日" : (z[1] ?? "");
    return iso(nextWeekday(base, WEEKDAYS_ZH.indexOf(ch)));
  }
  return undefined;
}
