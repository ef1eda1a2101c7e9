// The one home of each tracker line rule (src/core/trackers/fields.ts) and the edits,
// reviews and migration that follow it.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MemoryLayout } from "../../../src/core/layout";
import { defaultSettings } from "../../../src/core/settings";
import {
  duplicateKeys,
  fieldRecord,
  fieldValue,
  orderFields,
  priorityWord,
  splitBlockIds,
} from "../../../src/core/trackers/fields";
import { listItems, scanItemLine } from "../../../src/core/trackers/format";
import { latestProgress } from "../../../src/core/trackers/status";
import {
  migrateItemLine,
  migrateTracker,
  migrateTrackers,
} from "../../../src/core/trackers/migrate";
import {
  advanceReview,
  dueReviews,
  listReviews,
  reopenTickedReviews,
} from "../../../src/core/trackers/reviews";
import {
  addItemSource,
  addTrackerItem,
  setItemField,
  setItemStatus,
} from "../../../src/core/trackers/store";
import { checkDuplicateFields } from "../../../src/core/health/tracker-rules";
import { readNoteInfo } from "../../../src/core/health/note-info";
import { checkReviews } from "../../../src/core/health/check";
import { readTasksLine } from "../../helpers/tasks-dataview";
import { tempVault } from "../../helpers/temp-vault";
import { textOf } from "../../helpers/edit-result";

const META = { agent: "link", title: "Tasks", createdAt: "2026-11-27T10:00:00+08:00" };

describe("one rule per question", () => {
  it("the last field with a key wins, case ignored, for values, records and the source", () => {
    const fields = [
      { key: "due", value: "2026-12-01" },
      { key: "Due", value: "2026-12-09" },
      { key: "to", value: "[[ming]]" },
    ];
    expect(fieldValue(fields, "due")).toBe("2026-12-09");
    expect(fieldValue(fields, "DUE")).toBe("2026-12-09");
    expect(fieldValue(fields, "source")).toBeNull();
    expect(fieldRecord(fields)).toEqual({ Due: "2026-12-09", to: "[[ming]]" });
    expect(duplicateKeys(fields)).toEqual(["due"]);
    const item = listItems("- [ ] A [due:: 2026-12-01] [due:: 2026-12-09] ^t-001\n")[0];
    expect(fieldValue(item?.fields ?? [], "due")).toBe("2026-12-09");
  });

  it("priorities: Tasks' words as they are, old numbers 1-3 mapped, anything else not a priority", () => {
    expect(["1", "2", "3", " 2 "].map(priorityWord)).toEqual(["high", "medium", "low", "medium"]);
    expect(["highest", "High", "medium", "low", "LOWEST"].map(priorityWord)).toEqual([
      "highest",
      "high",
      "medium",
      "low",
      "lowest",
    ]);
    expect(["0", "4", "urgent", ""].map(priorityWord)).toEqual([null, null, null, null]);
  });

  it("field order: ours as given, then Tasks' in Tasks' order", () => {
    const order = orderFields([
      { key: "due" },
      { key: "source" },
      { key: "completion" },
      { key: "to" },
      { key: "priority" },
      { key: "created" },
      { key: "cancelled" },
      { key: "scheduled" },
    ]).map((f) => f.key);
    expect(order).toEqual([
      "source",
      "to",
      "priority",
      "created",
      "scheduled",
      "due",
      "cancelled",
      "completion",
    ]);
  });

  it("the block id is the last ^id at the end of the line that is not a journal block id", () => {
    const line = "- [ ] T [source:: [[J#^am-k3f9]]] ^t-006";
    expect(splitBlockIds(line, 6)).toMatchObject({ id: "t-006", displaced: [] });
    expect(splitBlockIds("- [x] T [source:: [[J#]]] ^t-006 ^am-k3f9", 6)).toMatchObject({
      id: "t-006",
      displaced: ["am-k3f9"],
    });
    expect(splitBlockIds("- [x] T [source:: [[J#]]] ^am-k3f9", 6)).toMatchObject({
      id: null,
      displaced: ["am-k3f9"],
    });
    expect(
      scanItemLine("- [x] T [source:: [[J#]]] [completion:: 2026-12-01] ^am-k3f9")?.id,
    ).toBeNull();
    // An ^am-… inside the link is never the item's id, and the checkbox is not content.
    expect(scanItemLine("- [ ] T [source:: [[J#^am-k3f9]]]")?.id).toBeNull();
    expect(scanItemLine("- [ ] ^t-001")?.id).toBe("t-001");
  });

  it("latest progress: the latest date (a later line on the same date), full-width colons too", () => {
    const item = {
      children: [
        "    - 2026-11-05: first",
        "    - 2026-10-01: older",
        "    - 2026-11-05：同日第二条",
        "    note",
      ],
    };
    expect(latestProgress(item)).toEqual({
      date: "2026-11-05",
      text: "同日第二条",
      raw: "2026-11-05：同日第二条",
    });
    expect(latestProgress({ children: ["    - no date"] })).toBeNull();
  });
});

describe("writes in the tracker line format", () => {
  it("a new item's fields are ordered, its priority a word and status:: written as state::", () => {
    const r = addTrackerItem(
      null,
      "tasks",
      {
        text: "Ship",
        fields: [
          ["due", "2026-12-04"],
          ["priority", "2"],
          ["created", "2026-11-27"],
          ["source", "[[J#^am-1]]"],
          ["status", "proposed"],
        ],
      },
      META,
    );
    expect(r.text.trimEnd().split("\n").at(-1)).toBe(
      `- [ ] Ship [source:: [[J#^am-1]]] [state:: proposed] [priority:: medium] [created:: 2026-11-27] [due:: 2026-12-04] ^${r.id}`,
    );
  });

  it("done writes completion, abandoned cancelled (each replacing the other), reopen removes both", () => {
    const open = "- [ ] Ship [source:: [[J#^am-1]]] [created:: 2026-11-27] ^t-001\n";
    const done = textOf(setItemStatus(open, "t-001", "done", "t", "2026-12-01"));
    expect(done).toBe(
      "- [x] Ship [source:: [[J#^am-1]]] [created:: 2026-11-27] [completion:: 2026-12-01] ^t-001\n",
    );
    const abandoned = textOf(setItemStatus(done, "t-001", "abandoned", "t", "2026-12-02"));
    expect(abandoned).toBe(
      "- [-] Ship [source:: [[J#^am-1]]] [created:: 2026-11-27] [cancelled:: 2026-12-02] ^t-001\n",
    );
    expect(textOf(setItemStatus(abandoned, "t-001", "open", "t", "2026-12-03"))).toBe(open);
    expect(
      textOf(
        setItemStatus(
          textOf(setItemStatus(open, "t-001", "done", "t", "2026-12-01")),
          "t-001",
          "in-progress",
        ),
      ),
    ).toBe(open.replace("[ ]", "[/]"));
  });

  it("a new field goes to its place: ours before Tasks' fields, a Tasks key among them in order", () => {
    const line =
      "- [ ] Ship [source:: [[J#^am-1]]] [priority:: high] [created:: 2026-11-27] [completion:: 2026-12-01] ^t-001";
    expect(textOf(setItemField(line, "t-001", "to", "[[ming]]"))).toBe(
      "- [ ] Ship [source:: [[J#^am-1]]] [to:: [[ming]]] [priority:: high] [created:: 2026-11-27] [completion:: 2026-12-01] ^t-001",
    );
    expect(textOf(setItemField(line, "t-001", "due", "2026-12-04"))).toBe(
      "- [ ] Ship [source:: [[J#^am-1]]] [priority:: high] [created:: 2026-11-27] [due:: 2026-12-04] [completion:: 2026-12-01] ^t-001",
    );
    expect(
      textOf(addItemSource("- [ ] Ship [created:: 2026-11-27] ^t-001", "t-001", "J#^am-2")),
    ).toBe("- [ ] Ship [source:: [[J#^am-2]]] [created:: 2026-11-27] ^t-001");
    // An edit sets the value that is read: the last of two.
    expect(
      textOf(
        setItemField(
          "- [ ] S [due:: 2026-12-01]  [due:: 2026-12-09] ^t-001",
          "t-001",
          "due",
          "2026-12-20",
        ),
      ),
    ).toBe("- [ ] S [due:: 2026-12-01]  [due:: 2026-12-20] ^t-001");
    for (const edited of [
      textOf(setItemField(line, "t-001", "to", "[[ming]]")),
      textOf(setItemField(line, "t-001", "due", "2026-12-04")),
    ]) {
      expect(readTasksLine(edited)).toMatchObject({
        priority: "high",
        created: "2026-11-27",
        done: "2026-12-01",
        blockLink: " ^t-001",
      });
    }
  });
});

describe("review loops ticked outside our panel", () => {
  const note = [
    "# Reviews",
    "- [x] Weekly retro [every:: weekly] [next:: 2026-11-27]  [completion:: 2026-11-28] ^r-001",
    "    - 2026-11-20: done",
    "- [x] Monthly review [every:: monthly] [next:: 2026-11-15] ^r-002",
    "- [-] Old loop [every:: weekly] [next:: 2025-01-01] ^r-003",
    "",
  ].join("\n");

  it("a ticked round is read as done on its completion date (else on its next date): open, next moved on, health still sees due ones", () => {
    const [r1, r2, r3] = listReviews(note);
    expect(r1).toMatchObject({
      status: "open",
      ticked: "2026-11-28",
      next: "2026-12-04",
      last: "2026-11-28",
    });
    expect(r2).toMatchObject({ status: "open", ticked: "2026-11-15", next: "2026-12-15" });
    expect(r3).toMatchObject({ status: "abandoned", ticked: null });
    expect(dueReviews(note, "2026-12-01").map((r) => r.id)).toEqual([]);
    expect(dueReviews(note, "2026-12-05").map((r) => [r.id, r.daysOverdue])).toEqual([
      ["r-001", 1],
    ]);
  });

  it("reopenTickedReviews writes each round done: open, no completion, next moved on, a done line; then nothing more", () => {
    const { text, reopened } = reopenTickedReviews(note);
    expect(reopened).toEqual([
      { id: "r-001", next: "2026-12-04" },
      { id: "r-002", next: "2026-12-15" },
    ]);
    expect(text).toBe(
      [
        "# Reviews",
        "- [ ] Weekly retro [every:: weekly] [next:: 2026-12-04] ^r-001",
        "    - 2026-11-20: done",
        "    - 2026-11-28: done",
        "- [ ] Monthly review [every:: monthly] [next:: 2026-12-15] ^r-002",
        "    - 2026-11-15: done",
        "- [-] Old loop [every:: weekly] [next:: 2025-01-01] ^r-003",
        "",
      ].join("\n"),
    );
    expect(reopenTickedReviews(text)).toEqual({ text, reopened: [] });
    expect(listReviews(text).map((r) => r.next)).toEqual(listReviews(note).map((r) => r.next));
  });

  it("the health check reports a ticked loop due by its next round, and an abandoned one never", () => {
    const info = readNoteInfo(
      "Memory/Agents/link/Trackers/Reviews.md",
      note,
      { size: note.length, mtime: 0 },
      { collection: "tracker", agent: "link" },
    );
    expect(checkReviews(info, "2026-12-01")).toEqual([]);
    expect(checkReviews(info, "2026-12-15").map((p) => [p.rule, p.blockId, p.message])).toEqual([
      ["review-due", "r-001", 'Review ^r-001 "Weekly retro" is due since 2026-12-04 (11 days).'],
      ["review-due", "r-002", 'Review ^r-002 "Monthly review" is due today.'],
    ]);
  });

  it("review done on a ticked loop records the ticked round, not a second one", () => {
    const r = advanceReview(note, "r-001", "2026-12-02");
    expect(r).toMatchObject({ ok: true, value: { next: "2026-12-04" } });
    expect(r.ok && r.value.text.split("\n")[1]).toBe(
      "- [ ] Weekly retro [every:: weekly] [next:: 2026-12-04] ^r-001",
    );
  });
});

describe("migrate", () => {
  it("rewrites older lines into the current order, maps priorities and status::, and is idempotent", () => {
    expect(
      migrateItemLine(
        "- [/] Get pages [priority:: 2] [kind:: act] [created:: 2026-11-02] [source:: [[2026-11-02#^am-k3f9]]] ^t-001",
      ),
    ).toBe(
      "- [/] Get pages [kind:: act] [source:: [[2026-11-02#^am-k3f9]]] [priority:: medium] [created:: 2026-11-02] ^t-001",
    );
    expect(
      migrateItemLine("- [ ] Add a checklist [to:: [[editor]]] [status:: proposed] ^p-001"),
    ).toBe("- [ ] Add a checklist [to:: [[editor]]] [state:: proposed] ^p-001");
    const current =
      "- [ ] Ship [source:: [[J#^am-1]]] [priority:: high] [created:: 2026-11-27]  [due:: 2026-12-04] ^t-001";
    expect(migrateItemLine(current)).toBe(current);
    expect(migrateItemLine("- [ ] Plain line without fields ^t-002")).toBe(
      "- [ ] Plain line without fields ^t-002",
    );
    expect(migrateItemLine("Not an item [priority:: 1]")).toBe("Not an item [priority:: 1]");
  });

  it("changes only the lines it lists: frontmatter, fences, children, CRLF and other lines byte for byte", () => {
    const text = [
      "\uFEFF---",
      "type: tracker",
      "---",
      "# Tasks",
      "- [ ] A [priority:: 1] [created:: 2026-11-02] [source:: [[J#^am-1]]] ^t-001",
      "    - [ ] child [priority:: 1] [created:: 2026-11-02] [to:: x]",
      "```",
      "- [ ] in a fence [priority:: 1] [created:: 2026-11-02] [to:: x] ^t-009",
      "```",
      "- [ ] B [source:: [[J#^am-2]]] [created:: 2026-11-03] ^t-002",
      "",
    ].join("\r\n");
    const m = migrateTracker(text);
    expect(m.changes.map((c) => c.line)).toEqual([5]);
    expect(m.text).toBe(
      text.replace(
        "- [ ] A [priority:: 1] [created:: 2026-11-02] [source:: [[J#^am-1]]] ^t-001",
        "- [ ] A [source:: [[J#^am-1]]] [priority:: high] [created:: 2026-11-02] ^t-001",
      ),
    );
    expect(migrateTracker(m.text)).toEqual({ text: m.text, changes: [], lostIds: [] });
  });

  let cleanup: (() => void) | null = null;
  afterEach(() => {
    cleanup?.();
    cleanup = null;
  });

  it("a dry run writes nothing; apply writes through process; notes that do not parse are listed and left", async () => {
    const layout = new MemoryLayout(defaultSettings());
    const old = "# Tasks\n- [ ] A [priority:: 3] [due:: 2026-12-04] [to:: [[ming]]] ^t-001\n";
    const t = tempVault({
      "Memory/Agents/link/Trackers/Tasks.md": old,
      "Memory/Agents/link/Trackers/Goals.md":
        "---\nbad: [\n---\n- [ ] G [target:: 2026-12-31] [created:: 2026-11-02] [source:: [[J]]] ^g-001\n",
      "Memory/Agents/link/Journal/2026-11-02.md": "# J\n",
    });
    cleanup = t.cleanup;
    const dry = await migrateTrackers(t.vault, layout, { apply: false });
    expect(dry.map((n) => [n.path, n.changes.length, n.skipped !== null])).toEqual([
      ["Memory/Agents/link/Trackers/Tasks.md", 1, false],
      ["Memory/Agents/link/Trackers/Goals.md", 0, true],
    ]);
    expect(readFileSync(join(t.root, "Memory/Agents/link/Trackers/Tasks.md"), "utf8")).toBe(old);
    await migrateTrackers(t.vault, layout, { apply: true });
    expect(readFileSync(join(t.root, "Memory/Agents/link/Trackers/Tasks.md"), "utf8")).toBe(
      "# Tasks\n- [ ] A [to:: [[ming]]] [priority:: low] [due:: 2026-12-04] ^t-001\n",
    );
    expect(readFileSync(join(t.root, "Memory/Agents/link/Trackers/Goals.md"), "utf8")).toContain(
      "bad: [",
    );
  });
});

describe("duplicate-field health warning", () => {
  it("one warning per item with a key twice, naming the key and the value read", () => {
    const text =
      "---\ntype: tracker\n---\n- [ ] A [due:: 2026-12-01]  [due:: 2026-12-09] ^t-001\n- [ ] B [due:: 2026-12-01] ^t-002\n";
    const info = readNoteInfo(
      "Memory/Agents/link/Trackers/Tasks.md",
      text,
      { size: text.length, mtime: 0 },
      { collection: "tracker", agent: "link" },
    );
    expect(checkDuplicateFields(info)).toEqual([
      {
        path: "Memory/Agents/link/Trackers/Tasks.md",
        rule: "duplicate-field",
        severity: "warning",
        message:
          'Item ^t-001 has the field due (read as "2026-12-09") more than once; the last one is read.',
        line: 4,
        blockId: "t-001",
      },
    ]);
  });
});
