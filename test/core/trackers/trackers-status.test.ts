// What an item's state means (src/core/trackers/status.ts): open, latest progress, due and overdue.
// The panel, the trackers CLI and MCP tool, the brief, reviews and the health check all use these.
import { describe, expect, it } from "vitest";
import { listItems } from "../../../src/core/trackers/format";
import {
  daysOverdue,
  isOpenStatus,
  isOverdue,
  latestProgressText,
  progressLines,
} from "../../../src/core/trackers/status";
import { dueReviews } from "../../../src/core/trackers/reviews";
import { tracker, type ItemBuilder } from "../../helpers/tracker-builder";

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
    const loop = (id: string, every: string, next: string) => (i: ItemBuilder) =>
      i.field("every", every).field("next", next).id(id);
    const text = tracker("reviews")
      .item("Weekly", loop("r-1", "week", "2026-12-01"))
      .item("Monthly", (i) => loop("r-2", "month", "2026-11-20")(i).status("in-progress"))
      .item("Done one", (i) => loop("r-3", "week", "2026-11-01")(i).status("done"))
      .item("Later", loop("r-4", "week", "2026-12-02"))
      .text();
    expect(dueReviews(text, "2026-12-01").map((r) => [r.id, r.daysOverdue])).toEqual([
      ["r-2", 11],
      ["r-1", 0],
    ]);
  });
});

describe("the tracker builder (test/helpers/tracker-builder.ts)", () => {
  it("writes the lines the tracker reader reads: status, fields in order, id, children", () => {
    const b = tracker("tasks")
      .agent("link")
      .item("Send the draft", (i) =>
        i
          .id("t-006")
          .status("in-progress")
          .field("to", "[[ming]]")
          .field("due", "2026-11-30")
          .child("2026-11-28: first half sent"),
      )
      .item("Drop it", (i) => i.id("t-007").status("abandoned"));
    expect(b.path()).toBe("Memory/Agents/link/Trackers/Tasks.md");
    expect(b.text()).toBe(
      [
        "---",
        "type: tracker",
        "kind: tasks",
        "agent: link",
        "---",
        "# Tasks",
        "",
        "- [/] Send the draft [to:: [[ming]]] [due:: 2026-11-30] ^t-006",
        "    - 2026-11-28: first half sent",
        "- [-] Drop it ^t-007",
        "",
      ].join("\n"),
    );
    const [item] = listItems(b.text());
    expect(item).toMatchObject({ id: "t-006", status: "in-progress" });
    expect(latestProgressText(item!)).toBe("2026-11-28: first half sent");
  });
});
