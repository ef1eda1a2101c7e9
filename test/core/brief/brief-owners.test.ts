// Owners in the brief and in listings (src/core/brief/collect.ts, collectTasks;
// src/core/trackers/list.ts): a task someone else owns is theirs, not its author's overdue work.
import { afterEach, describe, expect, it } from "vitest";
import { applyPlan, planExtraction } from "../../../src/core/extraction/pipeline";
import { OfflineExtractor } from "../../../src/core/extraction/offline";
import { buildBrief } from "../../../src/core/brief";
import { listTrackerItems } from "../../../src/core/trackers/list";
import { MemoryLayout } from "../../../src/core/layout";
import { defaultSettings } from "../../../src/core/settings";
import { tempVault } from "../../helpers/temp-vault";

const settings = defaultSettings();
const layout = new MemoryLayout(settings);
const ATLAS_J = "Memory/Agents/atlas/Journal/2026-11-18.md";
const DANA_J = "Memory/Agents/dana/Journal/2026-11-18.md";
const now = () => new Date("2026-11-18T10:00:00Z");
const TODAY = "2026-11-24";

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

async function vaultWithDelegatedTask() {
  const t = tempVault({
    [ATLAS_J]:
      "# 2026-11-18\n\n- [ ] @dana update the runbook 📅 2026-11-20\n- [ ] rotate the API keys 📅 2026-11-21\n",
    [DANA_J]: "# 2026-11-18\n\n- [ ] fix the flaky login test\n",
  });
  cleanup = t.cleanup;
  for (const journalPath of [ATLAS_J, DANA_J]) {
    const plan = await planExtraction({
      vault: t.vault,
      settings,
      layout,
      journalPath,
      extractor: new OfflineExtractor(),
      now,
    });
    await applyPlan(t.vault, layout, plan, now);
  }
  return t;
}

const brief = (t: Awaited<ReturnType<typeof vaultWithDelegatedTask>>, agent: string) =>
  buildBrief({ vault: t.vault, layout, settings, agent, today: TODAY });

describe("a task someone else owns", () => {
  it("is in the owner's brief as from its author, due and overdue for the owner", async () => {
    const t = await vaultWithDelegatedTask();
    const dana = await brief(t, "dana");
    const tasks = dana.sections.find((s) => s.kind === "tasks")?.items ?? [];
    expect(tasks.map((i) => i.line.replace(/ \[\[.*$/, ""))).toEqual([
      "- from atlas: Update the runbook — OVERDUE, due 2026-11-20",
      "- fix the flaky login test",
    ]);
    expect(tasks[0]).toMatchObject({
      owner: "dana",
      direction: "to",
      counterpart: "atlas",
      overdue: true,
      path: "Memory/Agents/atlas/Trackers/Tasks.md",
    });
    expect(dana.markdown).toContain("from atlas: Update the runbook");
  });

  it("is in its author's brief after the author's own tasks, for its owner, never as overdue", async () => {
    const t = await vaultWithDelegatedTask();
    const atlas = await brief(t, "atlas");
    const tasks = atlas.sections.find((s) => s.kind === "tasks")?.items ?? [];
    expect(tasks.map((i) => i.line.replace(/ \[\[.*$/, ""))).toEqual([
      "- rotate the API keys — OVERDUE, due 2026-11-21",
      "- for dana: Update the runbook — due 2026-11-20",
    ]);
    expect(tasks[1]).toMatchObject({ owner: "dana", direction: "from", counterpart: "dana" });
    expect(atlas.markdown).not.toMatch(/OVERDUE, due 2026-11-20/);
  });

  it("a task whose owner is its own agent is an ordinary task", async () => {
    const t = tempVault({
      "Memory/Agents/atlas/Trackers/Tasks.md":
        "# Tasks\n\n- [ ] write the notes [owner:: [[atlas]]] [due:: 2026-11-20] ^t-001\n",
    });
    cleanup = t.cleanup;
    const atlas = await buildBrief({
      vault: t.vault,
      layout,
      settings,
      agent: "atlas",
      today: TODAY,
    });
    const tasks = atlas.sections.find((s) => s.kind === "tasks")?.items ?? [];
    expect(tasks.map((i) => i.line.replace(/ \[\[.*$/, ""))).toEqual([
      "- write the notes — OVERDUE, due 2026-11-20",
    ]);
    expect(tasks[0]?.owner).toBeUndefined();
  });

  it("listings name the owner", async () => {
    const t = await vaultWithDelegatedTask();
    const items = await listTrackerItems(t.vault, layout, {
      agents: ["atlas"],
      kinds: ["tasks"],
      status: "open",
      today: TODAY,
    });
    expect(items.map((i) => [i.text, i.owner ?? null])).toEqual([
      ["Update the runbook", "dana"],
      ["rotate the API keys", null],
    ]);
  });
});

describe("the agents a brief is given", () => {
  it("are used instead of listing the agents' folders, with the same brief", async () => {
    const t = await vaultWithDelegatedTask();
    const listed: string[] = [];
    const vault = Object.create(t.vault) as typeof t.vault;
    vault.list = (folder?: string) => {
      listed.push(folder ?? "");
      return t.vault.list(folder);
    };
    const own = await buildBrief({ vault, layout, settings, agent: "dana", today: TODAY });
    expect(listed).toContain(layout.agentsRoot);
    listed.length = 0;
    const given = await buildBrief({
      vault,
      layout,
      settings,
      agent: "dana",
      today: TODAY,
      agents: ["atlas", "dana"],
    });
    expect(listed).not.toContain(layout.agentsRoot);
    expect(given).toEqual(own);
    // The agents given are the ones whose trackers are read: without atlas, its task is not there.
    const alone = await buildBrief({
      vault,
      layout,
      settings,
      agent: "dana",
      today: TODAY,
      agents: ["dana"],
    });
    expect(JSON.stringify(alone)).not.toContain("from atlas");
  });
});
