// Every tracker line the demo leaves (scripts/demo.mjs: the offline extraction of every
// sample journal) read by the Tasks plugin's rules (test/helpers/tasks-dataview.ts) and Dataview's
// (test/helpers/dataview-rules.ts), field by field, and lines those plugins rewrite read back by ours.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyPlan, planExtraction } from "../../../src/core/extraction/pipeline";
import { OfflineExtractor } from "../../../src/core/extraction/offline";
import { MemoryLayout } from "../../../src/core/layout";
import { TRACKER_KINDS, defaultSettings } from "../../../src/core/settings";
import {
  fieldValue,
  isTasksField,
  itemState,
  priorityWord,
} from "../../../src/core/trackers/fields";
import { parseTracker, scanItemLine, type TrackerItem } from "../../../src/core/trackers/format";
import { migrateItemLine, restoreLostIds } from "../../../src/core/trackers/migrate";
import { setItemStatus } from "../../../src/core/trackers/store";
import {
  completeWithDataview,
  dataviewListTypes,
  dataviewType,
  readDataviewTask,
  type DataviewType,
} from "../../helpers/dataview-rules";
import {
  cancelWithTasks,
  editWithTasks,
  readTasksLine,
  toggleWithTasks,
  type TasksTask,
} from "../../helpers/tasks-dataview";
import { sampleVaultCopy } from "../../helpers/temp-vault";
import { textOf } from "../../helpers/edit-result";

const settings = defaultSettings();
const layout = new MemoryLayout(settings);
const TODAY = "2026-12-01";

interface Line {
  path: string;
  text: string;
  item: TrackerItem;
  /** True for a line the demo's extraction wrote or changed. */
  written: boolean;
}

let lines: Line[] = [];
let cleanup = (): void => {};

beforeAll(async () => {
  const copy = sampleVaultCopy();
  cleanup = copy.cleanup;
  const trackerPaths = async (): Promise<string[]> => {
    const agents = layout.agentsIn((await copy.vault.list(layout.agentsRoot)).map((f) => f.path));
    const out: string[] = [];
    for (const a of agents)
      for (const k of TRACKER_KINDS)
        if (await copy.vault.exists(layout.trackerPath(a, k))) out.push(layout.trackerPath(a, k));
    return out;
  };
  const before = new Set<string>();
  for (const p of await trackerPaths())
    for (const l of (await copy.vault.read(p)).split("\n")) before.add(l);
  // As the demo does: every agent's journals, oldest first.
  const agentsDir = join(copy.root, "Memory", "Agents");
  for (const agent of readdirSync(agentsDir).sort()) {
    let journals: string[] = [];
    try {
      journals = readdirSync(join(agentsDir, agent, "Journal"))
        .filter((f) => f.endsWith(".md"))
        .sort();
    } catch {
      continue;
    }
    for (const j of journals) {
      const journalPath = `Memory/Agents/${agent}/Journal/${j}`;
      const plan = await planExtraction({
        vault: copy.vault,
        settings,
        layout,
        journalPath,
        extractor: new OfflineExtractor(),
        force: false,
      });
      await applyPlan(copy.vault, layout, plan);
    }
  }
  for (const path of await trackerPaths()) {
    const note = parseTracker(await copy.vault.read(path));
    for (const item of note.items) {
      const text = note.lines[item.line]?.text ?? "";
      lines.push({ path, text, item, written: !before.has(text) });
    }
  }
}, 60_000);
afterAll(() => cleanup());

const TASKS_STATUS: Readonly<Record<TrackerItem["status"], TasksTask["statusType"]>> = {
  open: "TODO",
  "in-progress": "IN_PROGRESS",
  done: "DONE",
  abandoned: "CANCELLED",
};

/** Dataview types we mean for each key we write (test/helpers/dataview-rules.ts). */
const EXPECTED_TYPE: Readonly<Record<string, DataviewType[]>> = {
  created: ["date"],
  due: ["date"],
  scheduled: ["date"],
  start: ["date"],
  cancelled: ["date"],
  completion: ["date"],
  decided: ["date"],
  target: ["date"],
  next: ["date"],
  last: ["date"],
  source: ["link", "list"],
  to: ["link"],
  topic: ["link"],
  priority: ["text"],
  state: ["text"],
  kind: ["text"],
  every: ["text", "duration"],
};

/** Our parser's text with the description Tasks gives: Tasks keeps our fields in its description. */
function withoutFields(s: string): string {
  return s
    .replace(/\[[^\]:[]+::(?:[^[\]]|\[\[[^\]]*\]\])*\]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

describe("tracker lines the demo leaves, read by the Tasks plugin's rules", () => {
  it("the demo wrote lines, and every tracker line is one item with an id", () => {
    expect(lines.filter((l) => l.written).length).toBeGreaterThanOrEqual(15);
    for (const l of lines)
      expect(l.item.id, l.text).toMatch(/^[tgrpqd]-(?:\d{3}|[a-z][0-9a-z]{9})$/);
  });

  it("case 18: Tasks reads status, description, priority, created, due, done and cancelled dates and the block id as we mean them", () => {
    let fieldsRead = 0;
    for (const l of lines) {
      const t = readTasksLine(l.text);
      expect(t, l.text).not.toBeNull();
      if (!t) continue;
      const f = l.item.fields;
      expect(t.statusType, l.text).toBe(TASKS_STATUS[l.item.status]);
      expect(t.blockLink, l.text).toBe(` ^${l.item.id ?? ""}`);
      // Tasks' description is our text plus our own fields, and no field of Tasks' is left in it.
      expect(withoutFields(t.description), l.text).toBe(l.item.text);
      for (const key of [
        "priority",
        "created",
        "start",
        "scheduled",
        "due",
        "cancelled",
        "completion",
      ]) {
        expect(
          t.description.includes(`[${key}::`),
          `${key} left in the description: ${l.text}`,
        ).toBe(false);
      }
      const priority = fieldValue(f, "priority");
      expect(t.priority, l.text).toBe(priority === null ? "none" : priorityWord(priority));
      expect(t.created, l.text).toBe(fieldValue(f, "created"));
      expect(t.due, l.text).toBe(fieldValue(f, "due"));
      expect(t.scheduled, l.text).toBe(fieldValue(f, "scheduled"));
      expect(t.done, l.text).toBe(fieldValue(f, "completion"));
      expect(t.cancelled, l.text).toBe(fieldValue(f, "cancelled"));
      // Everything of Tasks' on the line was read; nothing of ours was taken for Tasks'.
      expect(t.read.length, l.text).toBe(f.filter((x) => isTasksField(x.key)).length);
      fieldsRead += t.read.length;
    }
    // The counts of the sample vault and the offline extractor as they are now; the phrasing rules
    // (src/core/extraction/phrasings.ts) add two lines from link's 2026-11-24 ("we agreed …", "I
    // need to ask Ming …").
    expect({
      lines: lines.length,
      written: lines.filter((l) => l.written).length,
      fieldsRead,
    }).toEqual({ lines: 80, written: 58, fieldsRead: 83 });
  });

  it("lines written by the demo carry created (or decided and completion for decisions), and done lines a completion date", () => {
    for (const l of lines.filter((x) => x.written)) {
      const t = readTasksLine(l.text);
      if (l.path.endsWith("Decisions.md")) {
        expect(fieldValue(l.item.fields, "decided"), l.text).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(t?.done, l.text).toBe(fieldValue(l.item.fields, "decided"));
      } else {
        expect(t?.created, l.text).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      }
    }
  });
});

describe("the same lines read by Dataview's rules", () => {
  it("Dataview finds the same fields as our parser, each with the type we mean, and no field named status", () => {
    let fieldsRead = 0;
    for (const l of lines) {
      const d = readDataviewTask(l.text);
      expect(d, l.text).not.toBeNull();
      if (!d) continue;
      expect(
        d.fields.map((f) => [f.key, f.value]),
        l.text,
      ).toEqual(l.item.fields.map((f) => [f.key, f.value]));
      for (const f of d.fields) {
        const expected = EXPECTED_TYPE[f.key] ?? ["text"];
        const type = dataviewType(f.value);
        // The sample's hand-written decisions name their topic in plain text.
        const allowed = f.key === "topic" && !l.written ? [...expected, "text"] : expected;
        expect(allowed, `${f.key}:: ${f.value} is ${type} in ${l.text}`).toContain(type);
        if (type === "list")
          expect(new Set(dataviewListTypes(f.value)), l.text).toEqual(new Set(["link"]));
        fieldsRead++;
      }
      // Dataview's task status is the checkbox character; a field of ours by that name would be hidden.
      expect(
        d.fields.some((f) => f.key.toLowerCase() === "status"),
        l.text,
      ).toBe(false);
      expect(d.status, l.text).toBe(l.item.statusChar);
      expect(d.completed, l.text).toBe(l.item.status === "done");
      expect(d.completion, l.text).toBe(fieldValue(l.item.fields, "completion"));
      expect(d.due, l.text).toBe(fieldValue(l.item.fields, "due"));
      expect(d.created, l.text).toBe(fieldValue(l.item.fields, "created"));
    }
    // 221: the three goals the sample's journals give a `[target:: …]` keep it.
    expect(fieldsRead).toBe(221);
  });

  it("proposals carry our state field, read by the one rule", () => {
    const proposals = lines.filter((l) => l.path.endsWith("Proposals.md"));
    expect(proposals.length).toBeGreaterThan(0);
    for (const l of proposals) {
      expect(fieldValue(l.item.fields, "state"), l.text).toBe("proposed");
      expect(itemState(l.item.fields), l.text).toBe("proposed");
    }
    // Lines written before the Tasks order are still read.
    expect(itemState([{ key: "status", value: "proposed" }])).toBe("proposed");
  });
});

describe("lines rewritten by Tasks and Dataview, read back by our parser", () => {
  /** What our parser must still read after a rewrite: id, text, and every field but the changed ones. */
  function expectSameItem(
    before: Line,
    after: string,
    changed: readonly string[],
  ): ReturnType<typeof scanItemLine> {
    const scan = scanItemLine(after);
    expect(scan, after).not.toBeNull();
    expect(scan?.id, after).toBe(before.item.id);
    expect(scan?.text, after).toBe(before.item.text);
    for (const f of before.item.fields) {
      if (changed.includes(f.key)) continue;
      expect(fieldValue(scan?.fields ?? [], f.key), `${f.key} in ${after}`).toBe(
        fieldValue(before.item.fields, f.key),
      );
    }
    return scan;
  }

  it("toggled done and back in Tasks (Dataview format): status, completion date, id, text and fields round-trip", () => {
    const open = lines.filter((l) => l.item.status === "open" || l.item.status === "in-progress");
    expect(open.length).toBeGreaterThan(5);
    for (const l of open) {
      const done = toggleWithTasks(l.text, TODAY);
      const scan = expectSameItem(l, done, ["completion"]);
      expect(scan?.status).toBe("done");
      expect(fieldValue(scan?.fields ?? [], "completion")).toBe(TODAY);
      const back = scanItemLine(toggleWithTasks(done, TODAY));
      expect(back?.status).toBe("open");
      expect(fieldValue(back?.fields ?? [], "completion")).toBeNull();
      // Our own edit on the toggled line: reopening removes Tasks' date, and Tasks reads the result.
      const reopened = textOf(setItemStatus(done, l.item.id ?? "", "open", "t", TODAY));
      expect(readTasksLine(reopened)?.done).toBeNull();
      expect(readTasksLine(reopened)?.statusType).toBe("TODO");
    }
  });

  it("cancelled in Tasks, and our abandon read by Tasks, give the cancelled date", () => {
    for (const l of lines.filter((x) => x.item.status === "open")) {
      const cancelled = cancelWithTasks(l.text, TODAY);
      const scan = expectSameItem(l, cancelled, ["cancelled"]);
      expect(scan?.status).toBe("abandoned");
      expect(fieldValue(scan?.fields ?? [], "cancelled")).toBe(TODAY);
      const ours = textOf(setItemStatus(l.text, l.item.id ?? "", "abandoned", "t", TODAY));
      expect(readTasksLine(ours)).toMatchObject({
        statusType: "CANCELLED",
        cancelled: TODAY,
        blockLink: ` ^${l.item.id ?? ""}`,
      });
    }
  });

  it("given a due date and a priority in Tasks: one field each, and our parser reads the new values", () => {
    for (const l of lines) {
      const edited = editWithTasks(l.text, { due: "2027-01-15", priority: "low" });
      const scan = expectSameItem(l, edited, ["due", "priority"]);
      expect(fieldValue(scan?.fields ?? [], "due")).toBe("2027-01-15");
      expect(fieldValue(scan?.fields ?? [], "priority")).toBe("low");
      expect(scan?.fields.filter((f) => f.key === "due").length, edited).toBe(1);
    }
  });

  it("toggled in Tasks' emoji format: the ✅ date is read as completion and the id kept", () => {
    for (const l of lines.filter((x) => x.item.status === "open")) {
      const done = toggleWithTasks(l.text, TODAY, "emoji");
      expect(done).toContain(`✅ ${TODAY} ^${l.item.id ?? ""}`);
      const scan = expectSameItem(l, done, ["completion"]);
      expect(fieldValue(scan?.fields ?? [], "completion")).toBe(TODAY);
      // Reopened by us: the emoji date goes too.
      expect(textOf(setItemStatus(done, l.item.id ?? "", "open", "t"))).not.toContain("✅");
    }
  });

  it("Dataview's completion tracking: the moved ^am-… is never taken for the item's id; the link gets it back, and the id comes back from the note as last seen", () => {
    const cited = lines.filter((l) => l.item.status === "open" && /#\^am-/.test(l.text));
    expect(cited.length).toBeGreaterThan(0);
    for (const l of cited) {
      const rewritten = completeWithDataview(l.text, TODAY);
      const scan = scanItemLine(rewritten);
      expect(scan?.status).toBe("done");
      expect(scan?.id ?? "none", rewritten).not.toMatch(/^am-/);
      expect(scan?.displaced.length, rewritten).toBe(1);
      // Without the note as last seen, migrate puts back the one fragment the line still has (the first link's).
      const repaired =
        fieldValue(scanItemLine(migrateItemLine(rewritten))?.fields ?? [], "source") ?? "";
      expect(
        repaired.startsWith((fieldValue(l.item.fields, "source") ?? "").split("]]")[0] ?? "-"),
        repaired,
      ).toBe(true);
      const previous = `# T\n\n${l.text}\n`;
      const { text, restored } = restoreLostIds(previous, `# T\n\n${rewritten}\n`);
      expect(restored).toEqual([l.item.id]);
      const back = expectSameItem(l, text.split("\n")[2] ?? "", ["completion"]);
      expect(back?.status).toBe("done");
      expect(fieldValue(back?.fields ?? [], "completion")).toBe(TODAY);
    }
  });
});
