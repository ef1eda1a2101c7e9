// Due reviews and review scheduling (docs/architecture.md, "Review loops"): every/next parsing,
// month ends, leap years.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  addMonths,
  dayNumber,
  fromDayNumber,
  isIso8601,
  isIsoDate,
} from "../../../src/core/util/dates";
import {
  addInterval,
  advanceReview,
  dueReviews,
  listReviews,
  nextReviewDate,
  parseEvery,
} from "../../../src/core/trackers/reviews";
import { FrontmatterError } from "../../../src/core/errors";
import { tracker, type ItemBuilder } from "../../helpers/tracker-builder";

/** Six loops of agent ada: due, overdue, in progress, abandoned, not yet due, unreadable. */
const loop = (id: string, every: string, next: string) => (i: ItemBuilder) =>
  i.field("every", every).field("next", next).id(id);
const REVIEWS = tracker("reviews")
  .meta("id", "tracker-ada-reviews")
  .meta("status", "active")
  .meta("created_at", "2026-01-01")
  .item("Weekly review", (i) => loop("r-001", "weekly", "2026-05-25")(i).child("2026-05-18: done"))
  .item("Monthly review", loop("r-002", "monthly", "2026-01-31"))
  .item("Fortnightly retro", (i) =>
    loop("r-003", "biweekly", "2026-06-01")(i).status("in-progress"),
  )
  .item("Old loop, abandoned", (i) => loop("r-004", "weekly", "2025-01-01")(i).status("abandoned"))
  .item("Quarterly plan", loop("r-005", "10 days", "2026-07-01"))
  .item("Broken schedule", loop("r-006", "sometimes", "soon"))
  .text();

describe("parseEvery", () => {
  it("reads the words, counts with units, and Chinese", () => {
    expect(parseEvery("weekly")).toEqual({ unit: "day", count: 7 });
    expect(parseEvery(" Biweekly ")).toEqual({ unit: "day", count: 14 });
    expect(parseEvery("fortnightly")).toEqual({ unit: "day", count: 14 });
    expect(parseEvery("monthly")).toEqual({ unit: "month", count: 1 });
    expect(parseEvery("quarterly")).toEqual({ unit: "month", count: 3 });
    expect(parseEvery("yearly")).toEqual({ unit: "month", count: 12 });
    expect(parseEvery("10 days")).toEqual({ unit: "day", count: 10 });
    expect(parseEvery("1 day")).toEqual({ unit: "day", count: 1 });
    expect(parseEvery("every 3 weeks")).toEqual({ unit: "day", count: 21 });
    expect(parseEvery("2 months")).toEqual({ unit: "month", count: 2 });
    expect(parseEvery("每周")).toEqual({ unit: "day", count: 7 });
    expect(parseEvery("每月")).toEqual({ unit: "month", count: 1 });
    expect(parseEvery("每10天")).toEqual({ unit: "day", count: 10 });
  });

  it("rejects anything else", () => {
    for (const bad of ["", "sometimes", "0 days", "-3 days", "weekly-ish", "3 fortnights"])
      expect(parseEvery(bad), bad).toBeNull();
  });
});

describe("calendar arithmetic", () => {
  it("monthly from a month's last day clamps to the shorter month", () => {
    expect(addMonths("2026-01-31", 1)).toBe("2026-02-28");
    expect(addMonths("2028-01-31", 1)).toBe("2028-02-29");
    expect(addMonths("2026-03-31", 1)).toBe("2026-04-30");
    expect(addMonths("2026-12-31", 2)).toBe("2027-02-28");
    expect(addMonths("2026-03-31", -1)).toBe("2026-02-28");
  });

  it("leap days: 2028-02-29 yearly goes to 2029-02-28, monthly to 2028-03-29; 2100 is not a leap year", () => {
    expect(addMonths("2028-02-29", 12)).toBe("2029-02-28");
    expect(addMonths("2028-02-29", 48)).toBe("2032-02-29");
    expect(addMonths("2028-02-29", 1)).toBe("2028-03-29");
    expect(isIsoDate("2100-02-29")).toBe(false);
    expect(isIsoDate("2000-02-29")).toBe(true);
    expect(addInterval("2028-02-28", { unit: "day", count: 7 })).toBe("2028-03-06");
    expect(addInterval("2027-02-28", { unit: "day", count: 7 })).toBe("2027-03-07");
  });

  it("weekly across a year end", () => {
    expect(addInterval("2026-12-28", { unit: "day", count: 7 })).toBe("2027-01-04");
  });

  it("day numbers round-trip for every date 1900–2200", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: dayNumber("1900-01-01") ?? 0, max: dayNumber("2200-12-31") ?? 0 }),
        (n) => {
          expect(dayNumber(fromDayNumber(n))).toBe(n);
        },
      ),
    );
  });

  it("adding months never gives an invalid date and keeps the day when the month has it", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: dayNumber("1990-01-01") ?? 0, max: dayNumber("2090-12-31") ?? 0 }),
        fc.integer({ min: -60, max: 60 }),
        (n, k) => {
          const from = fromDayNumber(n);
          const to = addMonths(from, k);
          expect(to !== null && isIsoDate(to)).toBe(true);
          const day = Number(from.slice(8));
          const toDay = Number((to ?? "").slice(8));
          expect(toDay <= day).toBe(true);
          if (toDay < day)
            expect(
              isIsoDate(`${(to ?? "").slice(0, 8)}${String(toDay + 1).padStart(2, "0")}`),
            ).toBe(false);
        },
      ),
    );
  });

  it("ISO 8601 values (case 02) and non-values", () => {
    for (const ok of [
      "2024-05-23T22:17:03+08:00",
      "2024-03-05",
      "2024-03-05 09:30:00",
      "2026-03-27T09:30Z",
      "2026-03-27T09:30:00.123+0530",
    ])
      expect(isIso8601(ok), ok).toBe(true);
    for (const bad of [
      "05/03/2024",
      "2024-3-5",
      "2026-02-30",
      "2026-03-27T25:00",
      "yesterday",
      "20240305",
    ])
      expect(isIso8601(bad), bad).toBe(false);
  });
});

describe("nextReviewDate", () => {
  const monthly = { unit: "month" as const, count: 1 };
  const weekly = { unit: "day" as const, count: 7 };

  it("monthly from 2026-01-31 done on time goes to 2026-02-28", () => {
    expect(nextReviewDate("2026-01-31", monthly, "2026-01-31")).toBe("2026-02-28");
  });

  it("monthly from 2028-01-31 goes to the leap day 2028-02-29", () => {
    expect(nextReviewDate("2028-01-31", monthly, "2028-01-31")).toBe("2028-02-29");
  });

  it("periods are counted from the original next, so clamping does not drift", () => {
    // Done late, in March: one step from 01-31 is 02-28 (past), two steps is 03-31, not 03-28.
    expect(nextReviewDate("2026-01-31", monthly, "2026-03-05")).toBe("2026-03-31");
  });

  it("done early still moves one period; done late skips the missed periods, keeping the weekday", () => {
    expect(nextReviewDate("2026-05-25", weekly, "2026-05-20")).toBe("2026-06-01");
    expect(nextReviewDate("2026-05-25", weekly, "2026-06-10")).toBe("2026-06-15");
    expect(
      new Date(`${nextReviewDate("2026-05-25", weekly, "2026-06-10") ?? ""}T00:00:00Z`).getUTCDay(),
    ).toBe(1);
  });

  it("yearly from a leap day", () => {
    expect(nextReviewDate("2028-02-29", { unit: "month", count: 12 }, "2028-02-29")).toBe(
      "2029-02-28",
    );
  });

  it("is always after the done date and at most one period after it", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: dayNumber("2000-01-01") ?? 0, max: dayNumber("2060-01-01") ?? 0 }),
        fc.integer({ min: -400, max: 400 }),
        fc.constantFrom(
          weekly,
          monthly,
          { unit: "day" as const, count: 10 },
          { unit: "month" as const, count: 3 },
        ),
        (n, lag, every) => {
          const next = fromDayNumber(n);
          const done = fromDayNumber(n + lag);
          const result = nextReviewDate(next, every, done) ?? "";
          expect(result > done).toBe(true);
          const back = addInterval(result, every, -1) ?? "";
          // One period earlier is on or before the done date, or is the original next itself.
          expect(back <= done || result === addInterval(next, every)).toBe(true);
        },
      ),
    );
  });
});

describe("dueReviews", () => {
  it("lists open and in-progress reviews whose next date has come, most overdue first", () => {
    const due = dueReviews(REVIEWS, "2026-06-01");
    expect(due.map((r) => [r.id, r.next, r.daysOverdue])).toEqual([
      ["r-002", "2026-01-31", 121],
      ["r-001", "2026-05-25", 7],
      ["r-003", "2026-06-01", 0],
    ]);
    expect(due[1]?.last).toBe("2026-05-18");
    expect(due[1]?.line).toBe(10); // 0-based: eight frontmatter lines, the heading, a blank line;
  });

  it("is empty before the dates and for a bad today", () => {
    expect(dueReviews(REVIEWS, "2026-01-01")).toEqual([]);
    expect(dueReviews(REVIEWS, "not a date")).toEqual([]);
  });

  it("reports unreadable schedules instead of guessing", () => {
    const broken = listReviews(REVIEWS).find((r) => r.id === "r-006");
    expect(broken?.problem).toMatch(/every "sometimes"/);
    expect(broken?.problem).toMatch(/next "soon"/);
  });
});

describe("advanceReview", () => {
  it("moves next by every, records the day under the item, and touches nothing else", () => {
    const result = advanceReview(REVIEWS, "r-002", "2026-01-31");
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.next).toBe("2026-02-28");
    expect(result.value.previous).toBe("2026-01-31");
    const expected = REVIEWS.replace(
      "- [ ] Monthly review [every:: monthly] [next:: 2026-01-31] ^r-002\n",
      "- [ ] Monthly review [every:: monthly] [next:: 2026-02-28] ^r-002\n    - 2026-01-31: done\n",
    );
    expect(result.value.text).toBe(expected);
  });

  it("running it twice on the same day changes nothing the second time", () => {
    const first = advanceReview(
      REVIEWS,
      "r-001",
      "2026-06-01",
      "Reviews.md",
      "[[2026-06-01 review r-001]]",
    );
    if (!first.ok) throw new Error(first.error);
    expect(first.value.text).toContain(
      "    - 2026-05-18: done\n    - 2026-06-01: done; [[2026-06-01 review r-001]]\n",
    );
    expect(first.value.next).toBe("2026-06-08");
    const second = advanceReview(first.value.text, "r-001", "2026-06-01");
    expect(second).toMatchObject({ ok: true, value: { changed: false, next: "2026-06-08" } });
    if (second.ok) expect(second.value.text).toBe(first.value.text);
  });

  it("keeps CRLF line endings", () => {
    const crlf = REVIEWS.replace(/\n/g, "\r\n");
    const result = advanceReview(crlf, "r-003", "2026-06-01");
    if (!result.ok) throw new Error(result.error);
    expect(result.value.text.replace(/\r\n/g, "")).not.toContain("\n");
    expect(result.value.text).toContain("[next:: 2026-06-15] ^r-003\r\n    - 2026-06-01: done\r\n");
  });

  it("says why when the item is missing or its schedule unreadable", () => {
    expect(advanceReview(REVIEWS, "r-999", "2026-06-01")).toEqual({
      ok: false,
      error: "no item ^r-999 in Reviews",
    });
    const broken = advanceReview(REVIEWS, "r-006", "2026-06-01");
    expect(broken.ok).toBe(false);
    expect(advanceReview(REVIEWS, "r-001", "2026-13-01").ok).toBe(false);
  });

  it("never rewrites a note whose frontmatter does not parse", () => {
    const bad = REVIEWS.replace("status: active", 'status: "unclosed');
    expect(() => advanceReview(bad, "r-001", "2026-06-01", "Reviews.md")).toThrow(FrontmatterError);
  });
});
