// The one date rule (src/core/util/dates.ts;
// docs/decisions.md, "One date rule, on the user's local calendar"): today, the date of an instant
// and expiry on the user's local calendar. These run in
// the suite's zone (TZ, UTC when unset; .ci/run runs them again under Asia/Shanghai);
// test/core/health/expiry-time-zone.process.test.ts pins zones in child processes.
import { describe, expect, it } from "vitest";
import {
  addDays,
  dateFromParts,
  dateInName,
  datePart,
  dateTitle,
  isExpired,
  localDate,
  localTimestamp,
  startOfLocalDay,
  today,
  weekdayOf,
} from "../../../src/core/util/dates";
import { readNoteInfo } from "../../../src/core/health/note-info";
import { journalDate } from "../../../src/core/health/time-rules";
import { lastUpdated } from "../../../src/core/knowledge/last-updated";
import { buildNoteDocument } from "../../../src/core/search/note-document";
import { MemoryLayout } from "../../../src/core/layout";
import { defaultSettings } from "../../../src/core/settings";

// 20:00 UTC on 2026-12-01: 2026-12-02 in Asia/Shanghai, 2026-12-01 in UTC and Los Angeles.
const NOW = Date.parse("2026-12-01T20:00:00Z");

describe("today and the date of an instant", () => {
  it("are the host's local calendar date, from a Date or from milliseconds", () => {
    const d = new Date(NOW);
    const local = `${String(d.getFullYear())}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
    expect(today(NOW)).toBe(local);
    expect(today(d)).toBe(local);
    expect(localDate(NOW)).toBe(local);
  });

  it("startOfLocalDay is local midnight, the inverse of localDate", () => {
    for (const date of ["2026-12-01", "2026-03-29", "2026-10-25", "2028-02-29", "0099-06-15"]) {
      const start = startOfLocalDay(date);
      expect(start).not.toBeNull();
      expect(localDate(start ?? 0)).toBe(date);
      expect(localDate((start ?? 0) - 1)).toBe(addDays(date, -1));
    }
    expect(startOfLocalDay("2026-02-30")).toBeNull();
  });

  it("localTimestamp writes the instant in local time with its offset, so its date part is the local date", () => {
    const written = localTimestamp(new Date(NOW));
    expect(written).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
    expect(Date.parse(written)).toBe(NOW);
    expect(datePart(written)).toBe(today(NOW));
  });

  it("a note without a written date is dated by its mtime's local date, in search and in the health check alike", () => {
    const text = "# Plain\n\nno dates here\n";
    const { meta } = buildNoteDocument(
      "Memory/Library/a/Plain.md",
      text,
      { mtime: NOW, size: text.length },
      new MemoryLayout(defaultSettings()),
    );
    const info = readNoteInfo(
      "Memory/Library/a/Plain.md",
      text,
      { mtime: NOW, size: text.length },
      { collection: "library", agent: null },
    );
    const journal = readNoteInfo(
      "Memory/Agents/ada/Journal/notes.md",
      text,
      { mtime: NOW, size: text.length },
      { collection: "journal", agent: "ada" },
    );
    expect(meta.date).toBe(today(NOW));
    expect(lastUpdated(info)).toBe(today(NOW));
    expect(journalDate(journal)).toBe(today(NOW));
  });
});

describe("isExpired", () => {
  const todayIso = "2026-12-02";
  const nowMs = Date.parse("2026-12-01T20:00:00Z");

  it("a date is live through its day and expired from the next", () => {
    expect(isExpired("2026-12-02", todayIso, nowMs)).toBe(false);
    expect(isExpired("2026-12-03", todayIso, nowMs)).toBe(false);
    expect(isExpired("2026-12-01", todayIso, nowMs)).toBe(true);
    expect(isExpired("  2026-12-01 ", todayIso, nowMs)).toBe(true);
  });

  it("a date-time expires at its instant, whatever its offset", () => {
    expect(isExpired("2026-12-01T19:59:59Z", todayIso, nowMs)).toBe(true);
    expect(isExpired("2026-12-01T20:00:00Z", todayIso, nowMs)).toBe(false);
    expect(isExpired("2026-12-02T03:59:00+08:00", todayIso, nowMs)).toBe(true);
    expect(isExpired("2026-12-02T04:01:00+08:00", todayIso, nowMs)).toBe(false);
    expect(isExpired("2026-12-01 12:00:00-08:00", todayIso, nowMs)).toBe(false);
  });

  it("a date-time without an offset is local time, judged in the zone of each call", () => {
    // isExpired keeps what it made of each value; the instant of a local date-time is not kept.
    const saved = process.env.TZ;
    try {
      process.env.TZ = "UTC";
      expect(isExpired("2026-12-01T19:00:00", todayIso, nowMs)).toBe(true);
      expect(isExpired("2026-12-01T19:00:00", todayIso, nowMs)).toBe(true);
      process.env.TZ = "America/Los_Angeles"; // 19:00 there is 03:00Z the next day
      expect(isExpired("2026-12-01T19:00:00", todayIso, nowMs)).toBe(false);
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });

  it("what is not ISO 8601 never expires", () => {
    for (const v of [
      "01/12/2026",
      "2026-13-01",
      "soon",
      "",
      20261201,
      null,
      undefined,
      ["2026-01-01"],
    ]) {
      expect(isExpired(v, todayIso, nowMs)).toBe(false);
    }
  });
});

describe("search's expiresAt", () => {
  const layout = new MemoryLayout(defaultSettings());
  const metaOf = (expires: string) =>
    buildNoteDocument(
      "Memory/Library/a/N.md",
      `---\nexpires_at: ${expires}\n---\n# N\n`,
      { mtime: NOW, size: 40 },
      layout,
    ).meta;

  it("keeps expires_at as written, so a date-time is judged at its instant as the health check does", () => {
    expect(metaOf("2026-12-01").expiresAt).toBe("2026-12-01");
    expect(metaOf("2026-12-01T10:00:00+08:00").expiresAt).toBe("2026-12-01T10:00:00+08:00");
    expect(metaOf('"2026-12-01 10:00:00"').expiresAt).toBe("2026-12-01 10:00:00");
    expect(metaOf("next month").expiresAt).toBeUndefined();
  });
});

describe("calendar helpers every date rule shares", () => {
  it("names the weekday of a date, across years and before 1970", () => {
    expect(weekdayOf("1970-01-01")).toBe(4); // a Thursday
    expect(weekdayOf("2026-11-24")).toBe(2); // a Tuesday
    expect(weekdayOf("1969-12-28")).toBe(0); // a Sunday, before day 0
    expect(weekdayOf("2026-02-30")).toBeNull();
  });

  it("builds a date from its parts only when it is a real calendar date", () => {
    expect(dateFromParts(2028, 2, 29)).toBe("2028-02-29");
    expect(dateFromParts(2026, 2, 29)).toBeNull();
    expect(dateFromParts(987, 1, 5)).toBe("0987-01-05");
  });

  it("reads a journal's date from its title or its file name", () => {
    expect(dateTitle("2026-11-24")).toBe("2026-11-24");
    expect(dateTitle("2026-11-24 standup")).toBeUndefined();
    expect(dateInName("2026-11-24 standup.md")).toBe("2026-11-24");
    expect(dateInName("2026-02-30 standup.md")).toBeNull();
    expect(dateInName("standup.md")).toBeNull();
  });
});
