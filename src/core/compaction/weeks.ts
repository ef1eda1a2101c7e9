/**
 * ISO 8601 weeks (ISO 8601-1:2019 §5.2.4.3): weeks start on Monday, and week 1 of a year is the
 * week holding its first Thursday, so 2026-12-31 is in 2026-W53 and 2027-01-01 too. Digests are
 * named by them (`2026-W48.md`). Calendar arithmetic on UTC day numbers ({@link dayNumber}), so
 * the host's time zone does not matter.
 */
import { dayNumber, fromDayNumber, type IsoDate } from "../util/dates";

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
  // 1970-01-01 was a Thursday: (day + 3) mod 7 is 0 on Monday.
  const weekday = (((day + 3) % 7) + 7) % 7;
  const monday = day - weekday;
  const thursday = monday + 3;
  const year = Number(fromDayNumber(thursday).slice(0, 4));
  const jan4 = dayNumber(`${String(year).padStart(4, "0")}-01-04`) ?? thursday;
  const firstMonday = jan4 - ((((jan4 + 3) % 7) + 7) % 7);
  const week = Math.floor((monday - firstMonday) / 7) + 1;
  return {
    year,
    week,
    label: `${String(year).padStart(4, "0")}-W${String(week).padStart(2, "0")}`,
    start: fromDayNumber(monday),
    end: fromDayNumber(monday + 6),
  };
}
