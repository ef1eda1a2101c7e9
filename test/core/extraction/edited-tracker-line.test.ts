// A person's edit of an extracted item in its tracker, then a re-extraction of its journal
// (docs/sync.md, "Stress"): the item cites its journal block, so it is the same item whatever its
// text now is (docs/decisions.md, "An item citing its journal block is that item, edited or not").
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { applyPlan, planExtraction } from "../../../src/core/extraction/pipeline";
import { OfflineExtractor } from "../../../src/core/extraction/offline";
import { MemoryLayout } from "../../../src/core/layout";
import { listItems } from "../../../src/core/trackers/format";
import { defaultSettings } from "../../../src/core/settings";
import { tempVault } from "../../helpers/temp-vault";

const settings = defaultSettings();
const layout = new MemoryLayout(settings);
const J = "Memory/Agents/link/Journal/2026-11-24.md";
const TASKS = "Memory/Agents/link/Trackers/Tasks.md";
const now = () => new Date("2026-11-24T10:00:00Z");

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

async function run(t: ReturnType<typeof tempVault>) {
  const plan = await planExtraction({
    vault: t.vault,
    settings,
    layout,
    journalPath: J,
    extractor: new OfflineExtractor(),
    now,
  });
  await applyPlan(t.vault, layout, plan, now);
  return plan;
}

const read = (t: ReturnType<typeof tempVault>, p: string) => readFileSync(join(t.root, p), "utf8");
const append = (t: ReturnType<typeof tempVault>, p: string, text: string) =>
  writeFileSync(join(t.root, p), `${read(t, p)}\n${text}\n`);
const edit = (t: ReturnType<typeof tempVault>, p: string, from: string, to: string) =>
  writeFileSync(join(t.root, p), read(t, p).replace(from, to));

describe("an extracted task edited in the tracker, its journal extracted again", () => {
  for (const [name, from, to] of [
    ["a word added", "xk-c1r1", "xk-c1r1 e-c1r2"],
    ["reworded past the duplicate threshold", "Prepare xk-c1r1 the brief", "Draft the launch memo"],
  ] as const)
    it(`${name}: the task is kept once, as edited, and nothing is added`, async () => {
      const t = tempVault({ [J]: "# 2026-11-24\n\n- [ ] Prepare xk-c1r1 the brief\n" });
      cleanup = t.cleanup;
      await run(t);
      edit(t, TASKS, from, to);
      const before = read(t, TASKS);
      append(t, J, "- [ ] Book the room for the review");
      const plan = await run(t);
      expect(plan.items.map((p) => `${p.item.text}: ${p.action}`)).toEqual([
        "Prepare xk-c1r1 the brief: skip",
        "Book the room for the review: add",
      ]);
      const items = listItems(read(t, TASKS));
      expect(items.map((i) => `${i.status} ${i.text}`)).toEqual([
        `open ${listItems(before)[0]?.text ?? "?"}`,
        "open Book the room for the review",
      ]);
      expect(items[0]?.text).toContain(to);
    });

  it("ticked done and edited: it is neither reopened nor added again", async () => {
    const t = tempVault({ [J]: "# 2026-11-24\n\n- [ ] Prepare xk-c1r1 the brief\n" });
    cleanup = t.cleanup;
    await run(t);
    edit(t, TASKS, "- [ ] Prepare xk-c1r1", "- [x] Prepare xk-c1r1 e-c1r2");
    append(t, J, "The room is booked.");
    const plan = await run(t);
    expect(plan.items.filter((p) => p.item.category === "task").map((p) => p.action)).toEqual([
      "skip",
    ]);
    const tasks = listItems(read(t, TASKS));
    expect(tasks.map((i) => `${i.status} ${i.text}`)).toEqual([
      "done Prepare xk-c1r1 e-c1r2 the brief",
    ]);
  });
});
