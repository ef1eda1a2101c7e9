// Watch and extract (docs/compaction.md) in the core, on real temporary folders with a clock driven
// by hand: a journal left unchanged for N minutes is planned; the plan waits in the agent's review
// queue (or is applied with auto-apply); re-runs change nothing; nothing is deleted.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  QuietTimers,
  extractQuietJournal,
  listQueue,
  pendingQueueEntries,
  reviewQueuePath,
} from "../../../src/core/watch";
import { applyPlan, planExtraction } from "../../../src/core/extraction/pipeline";
import { OfflineExtractor } from "../../../src/core/extraction/offline";
import { MemoryLayout } from "../../../src/core/layout";
import { defaultSettings, parseSettings, usableSettings } from "../../../src/core/settings";
import { listItems } from "../../../src/core/trackers/format";
import { tempVault } from "../../helpers/temp-vault";
import { ManualClock } from "../../helpers/manual-clock";

const settings = defaultSettings();
const layout = new MemoryLayout(settings);
const J = "Memory/Agents/link/Journal/2026-11-24.md";
const JOURNAL =
  "# 2026-11-24\n\n- [ ] Compress the hero images\n\nDecision: we publish on Tuesdays.\n";
const NOW = () => new Date("2026-11-24T18:00:00+08:00");
const MIN = 60_000;

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

function setup(files: Record<string, string> = {}) {
  const t = tempVault({ [J]: JOURNAL, "Memory/Agents/link/Trackers/.keep.md": "", ...files });
  cleanup = t.cleanup;
  return t;
}

function snapshot(root: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const abs = join(e.parentPath, e.name);
    if (!abs.includes(".agent-memory"))
      out.set(abs.slice(root.length + 1), readFileSync(abs, "latin1"));
  }
  return out;
}

const quiet = (t: ReturnType<typeof setup>, autoApply: boolean, path = J) =>
  extractQuietJournal({
    vault: t.vault,
    layout,
    settings,
    journalPath: path,
    extractor: new OfflineExtractor(),
    autoApply,
    now: NOW,
  });

describe("quiet timers", () => {
  it("run a note once it has been unchanged for the quiet time, counted from its last change", async () => {
    const clock = new ClockRuns();
    clock.timers.touch("a.md");
    clock.clock.advance(4 * MIN);
    clock.timers.touch("a.md"); // changed again: the ten minutes start over
    clock.clock.advance(10 * MIN - 1);
    await clock.timers.idle();
    expect(clock.runs).toEqual([]);
    expect(clock.timers.waiting()).toEqual(["a.md"]);
    clock.clock.advance(1);
    await clock.timers.idle();
    expect(clock.runs).toEqual(["a.md"]);
    expect(clock.timers.waiting()).toEqual([]);
    // Nothing more without another change.
    clock.clock.advance(60 * MIN);
    await clock.timers.idle();
    expect(clock.runs).toEqual(["a.md"]);
  });

  it("runs notes one at a time in the order they fell quiet, and a failure stops nothing", async () => {
    const clock = new ClockRuns(["b.md"]);
    clock.timers.touch("b.md");
    clock.clock.advance(MIN);
    clock.timers.touch("a.md");
    clock.clock.advance(10 * MIN);
    await clock.timers.idle();
    expect(clock.runs).toEqual(["b.md", "a.md"]);
    expect(clock.errors).toEqual(["b.md"]);
    await clock.timers.close();
    clock.timers.touch("c.md");
    expect(clock.clock.pending).toBe(0);
  });

  it("refuses a quiet time that is not positive", () => {
    expect(
      () =>
        new QuietTimers(
          0,
          () => Promise.resolve(),
          new ManualClock(),
          () => undefined,
        ),
    ).toThrow(RangeError);
  });
});

class ClockRuns {
  readonly clock = new ManualClock();
  readonly runs: string[] = [];
  readonly errors: string[] = [];
  readonly timers: QuietTimers;
  constructor(failing: string[] = []) {
    this.timers = new QuietTimers(
      10 * MIN,
      (p) => {
        this.runs.push(p);
        return failing.includes(p) ? Promise.reject(new Error("boom")) : Promise.resolve();
      },
      this.clock,
      (p) => this.errors.push(p),
    );
  }
}

describe("extract a quiet journal", () => {
  it("queues the plan for review, writes nothing else, and a re-run queues nothing twice", async () => {
    const t = setup();
    const before = snapshot(t.root);
    const outcome = await quiet(t, false);
    const queuePath = reviewQueuePath(layout, "link");
    expect(outcome).toEqual({ kind: "queued", queuePath, written: true, items: 2 });
    const after = snapshot(t.root);
    // Only the queue note is new; every other file has its bytes (journal and trackers untouched).
    expect([...after.keys()].filter((p) => !before.has(p))).toEqual([queuePath]);
    for (const [p, text] of before) expect(after.get(p), p).toBe(text);
    const queue = readFileSync(join(t.root, queuePath), "utf8");
    expect(queue).toMatch(
      /^---\nid: link\/review-queue\ntype: review-queue\nagent: link\nstatus: active\ncreated_at: /,
    );
    expect(listQueue(queue)).toEqual([
      expect.objectContaining({
        journal: J,
        extractor: "offline",
        items: [
          "task: Compress the hero images → Memory/Agents/link/Trackers/Tasks.md (new note)",
          "decision: we publish on Tuesdays. → Memory/Agents/link/Trackers/Decisions.md (new note)",
        ],
      }),
    ]);
    expect((await pendingQueueEntries(t.vault, layout, "link")).map((p) => p.journal)).toEqual([J]);

    const again = await quiet(t, false);
    expect(again).toMatchObject({ kind: "queued", written: false });
    const third = snapshot(t.root);
    for (const [p, text] of after) expect(third.get(p), p).toBe(text);
    expect(third.size).toBe(after.size);
  });

  it("a reviewed journal leaves the queue; a changed one is queued again with its new plan", async () => {
    const t = setup();
    await quiet(t, false);
    const plan = await planExtraction({
      vault: t.vault,
      settings,
      layout,
      journalPath: J,
      extractor: new OfflineExtractor(),
      now: NOW,
    });
    await applyPlan(t.vault, layout, plan, NOW);
    expect(await pendingQueueEntries(t.vault, layout, "link")).toEqual([]);
    expect(await quiet(t, false)).toEqual({ kind: "unchanged" });
    t.write(J, `${readFileSync(join(t.root, J), "utf8")}\n- [ ] Book the retro room\n`);
    expect(await quiet(t, false)).toMatchObject({ kind: "queued", written: true, items: 1 });
    const pending = await pendingQueueEntries(t.vault, layout, "link");
    expect(pending).toHaveLength(1);
    expect(pending[0]?.items).toEqual([
      "task: Book the retro room → Memory/Agents/link/Trackers/Tasks.md (added)",
    ]);
    // The first entry stays in the note as a record.
    expect(
      listQueue(readFileSync(join(t.root, reviewQueuePath(layout, "link")), "utf8")),
    ).toHaveLength(2);
  });

  it('the queued plan says "new note" once per note it creates', async () => {
    const t = setup({
      [J]: "# 2026-11-24\n\n- [ ] Compress the hero images\n\n- [ ] Lazy-load the gallery\n\nDecision: we publish on Tuesdays.\n",
    });
    expect(await quiet(t, false)).toMatchObject({ kind: "queued", written: true, items: 3 });
    const pending = await pendingQueueEntries(t.vault, layout, "link");
    expect(pending[0]?.items).toEqual([
      "task: Compress the hero images → Memory/Agents/link/Trackers/Tasks.md (new note)",
      "task: Lazy-load the gallery → Memory/Agents/link/Trackers/Tasks.md (added)",
      "decision: we publish on Tuesdays. → Memory/Agents/link/Trackers/Decisions.md (new note)",
    ]);
  });

  it("with auto-apply writes the plan at once; a re-run changes nothing", async () => {
    const t = setup();
    const outcome = await quiet(t, true);
    expect(outcome).toMatchObject({ kind: "applied", failed: 0 });
    const tasks = listItems(
      readFileSync(join(t.root, layout.trackerPath("link", "tasks")), "utf8"),
    );
    expect(tasks.map((i) => i.text)).toEqual(["Compress the hero images"]);
    const before = snapshot(t.root);
    expect(await quiet(t, true)).toEqual({ kind: "unchanged" });
    expect(snapshot(t.root)).toEqual(before);
    expect(await t.vault.exists(reviewQueuePath(layout, "link"))).toBe(false);
  });

  it("leaves digests, review notes and notes outside journal folders alone", async () => {
    const t = setup({
      "Memory/Agents/link/Journal/Digests/2026-W48.md":
        "---\ntype: digest\n---\n- [ ] Not a task\n",
      "Memory/Agents/link/Journal/2026-11-25 review r-001.md":
        "---\ntype: review\n---\n- [ ] Not a task\n",
      "Memory/Agents/link/Knowledge/learning/X.md": "- [ ] Not a task\n",
    });
    const before = snapshot(t.root);
    for (const path of [
      "Memory/Agents/link/Journal/Digests/2026-W48.md",
      "Memory/Agents/link/Journal/2026-11-25 review r-001.md",
      "Memory/Agents/link/Knowledge/learning/X.md",
      "Memory/Agents/link/Journal/gone.md",
    ]) {
      expect((await quiet(t, true, path)).kind, path).toBe("ignored");
    }
    expect(snapshot(t.root)).toEqual(before);
  });

  it("is off by default and a setting of minutes and auto-apply otherwise", () => {
    expect(defaultSettings().watch).toEqual({ extractAfterMinutes: 0, autoApply: false });
    expect(
      usableSettings(parseSettings({ watch: { extractAfterMinutes: 10, autoApply: true } })).watch,
    ).toEqual({ extractAfterMinutes: 10, autoApply: true });
    const bad = parseSettings({ watch: { extractAfterMinutes: -1 } });
    expect(usableSettings(bad).watch.extractAfterMinutes).toBe(0);
    expect(bad.ok ? "" : bad.error.message).toContain("watch.extractAfterMinutes");
  });
});
