// What an item's state means (src/core/trackers/status.ts): open, latest progress, due and overdue.
// The panel, the trackers CLI and MCP tool, the brief, reviews and the health check all use these.
import { describe, expect, it } from "vitest";
import {
  daysOverdue,
  isOpenStatus,
  isOverdue,
  latestProgressText,
  progressLines,
} from "../../../src/core/trackers/status";
import { dueReviews } from "../../../src/core/trackers/reviews";

describe("tracker item status", () => {
  it("counts open and in progress as open, done and abandoned as closed", () => {
    expect(isOpenStatus("open")).toBe(true);
    expect(isOpenStatus("in-progress")).toBe(true);
    expect(isOpenStatus("done")).toBe(false);
    expect(isOpenStatus("abandoned")).toBe(false);
  });

  it("reads every dated progress line, and the latest (the last of a tie)", () => {
    const item = {
      children: [
        "    - 2026-11-05: first",
        "    - not dated",
        "\t* 2026-11-07 second",
        "    - 2026-11-07: third",
      ],
    };
    expect(progressLines(item).map((p) => p.text)).toEqual(["first", "second", "third"]);
    expect(latestProgressText(item)).toBe("2026-11-07: third");
    expect(latestProgressText({ children: [] })).toBeNull();
  });

  it("is due on its day and after, not the day before", () => {
    expect(daysOverdue("2026-12-01", "2026-11-30")).toBeNull();
    expect(daysOverdue("2026-12-01", "2026-12-01")).toBe(0);
    expect(daysOverdue("2026-12-01", "2026-12-03")).toBe(2);
    expect(daysOverdue("2026-02-30", "2026-12-03")).toBeNull();
  });

  it("makes a task overdue the day after its due date, not on it", () => {
    expect(isOverdue("2026-12-01", "2026-12-01")).toBe(false);
    expect(isOverdue("2026-12-01", "2026-12-02")).toBe(true);
  });

  it("lists due reviews by the same rule, open ones only, most overdue first", () => {
    const text = [
      "- [ ] Weekly [every:: week] [next:: 2026-12-01] ^r-1",
      "- [/] Monthly [every:: month] [next:: 2026-11-20] ^r-2",
      "- [x] Done one [every:: week] [next:: 2026-11-01] ^r-3",
      "- [ ] Later [every:: week] [next:: 2026-12-02] ^r-4",
      "",
    ].join("\n");
    expect(dueReviews(text, "2026-12-01").map((r) => [r.id, r.daysOverdue])).toEqual([
      ["r-2", 11],
      ["r-1", 0],
    ]);
  });
});
