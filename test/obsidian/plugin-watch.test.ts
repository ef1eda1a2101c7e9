// @vitest-environment happy-dom
// Watch and extract in the plugin (docs/compaction.md): the setting (persisted, shown in the settings
// tab), the watcher on vault changes driven with a manual clock, and the tracker panel's
// "To review" tab listing queued plans and opening their review.
import "../setup-dom";
import { beforeEach, describe, expect, it } from "vitest";
import { App, WorkspaceLeaf } from "../stubs/obsidian";
import AgentMemoryPlugin from "../../src/main";
import { defaultSettings } from "../../src/core/settings";
import { MemoryLayout } from "../../src/core/layout";
import { listItems } from "../../src/core/trackers/format";
import { reviewQueuePath } from "../../src/core/watch";
import { WatchExtract } from "../../src/obsidian/runners/watch-extract";
import { TrackerView } from "../../src/obsidian/views/tracker-view";
import { ManualClock } from "../helpers/manual-clock";
import {
  openSettingsTab,
  realApp,
  realLeaf,
  resetUi,
  TEST_MANIFEST,
  testContext,
  waitFor,
} from "../stubs/obsidian-fixtures";

const J = "Memory/Agents/link/Journal/2026-11-24.md";
const TASKS = "Memory/Agents/link/Trackers/Tasks.md";
const MIN = 60_000;
const layout = new MemoryLayout(defaultSettings());
const QUEUE = reviewQueuePath(layout, "link");

async function setup(minutes: number, autoApply = false) {
  const app = new App();
  await app.vault.seed(J, "# 2026-11-24\n\n- [ ] Compress the hero images\n");
  await app.vault.seed(TASKS, "# Tasks\n");
  const settings = defaultSettings();
  settings.defaultAgent = "link";
  settings.watch = { extractAfterMinutes: minutes, autoApply };
  const ctx = testContext(app, settings);
  const clock = new ManualClock();
  const watch = new WatchExtract(ctx, clock);
  watch.load();
  app.workspace.triggerLayoutReady();
  return { app, ctx, clock, watch };
}

/** A note's text as the vault holds it, or `null`. */
async function text(app: App, path: string): Promise<string | null> {
  const file = app.vault.getFileByPath(path);
  return file ? app.vault.read(file) : null;
}

const edit = async (app: App, path: string, text: string) => {
  const file = app.vault.getFileByPath(path);
  if (!file) throw new Error(`no ${path}`);
  await app.vault.modify(file, text);
};

describe("watch and extract in the plugin", () => {
  beforeEach(resetUi);

  it("is off by default: an edited journal is never extracted", async () => {
    const { app, clock, watch } = await setup(0);
    await edit(app, J, "# 2026-11-24\n\n- [ ] Compress the hero images\n- [ ] And the logos\n");
    expect(watch.waiting()).toEqual([]);
    clock.advance(24 * 60 * MIN);
    await watch.idle();
    expect(app.vault.getFileByPath(QUEUE)).toBeNull();
  });

  it("queues a journal left unchanged for the minutes set, not before, and lists it in the To review tab", async () => {
    const { app, ctx, clock, watch } = await setup(5);
    await edit(app, J, "# 2026-11-24\n\n- [ ] Compress the hero images\n- [ ] And the logos\n");
    expect(watch.waiting()).toEqual([J]);
    clock.advance(5 * MIN - 1);
    await watch.idle();
    expect(app.vault.getFileByPath(QUEUE)).toBeNull();
    clock.advance(1);
    await watch.idle();
    expect(await text(app, QUEUE)).toContain(
      "- task: And the logos → Memory/Agents/link/Trackers/Tasks.md (added)",
    );
    // Nothing written to the tracker until a person reviews.
    expect(listItems((await text(app, TASKS)) ?? "")).toEqual([]);

    const reviewed: string[] = [];
    const view = new TrackerView(
      realLeaf(new WorkspaceLeaf(app.workspace)),
      ctx,
      (journal) => (reviewed.push(journal), Promise.resolve()),
    );
    view.load();
    await (view as unknown as { open(): Promise<void> }).open();
    const tab = view.contentEl.querySelector<HTMLElement>('.am-tracker-tab[data-kind="to-review"]');
    expect(tab?.textContent).toBe("To review1");
    tab?.click();
    await view.rendering;
    const entry = view.contentEl.querySelector<HTMLElement>(".am-queue-entry");
    expect(entry?.dataset.journal).toBe(J);
    expect(entry?.textContent).toContain("task: Compress the hero images");
    entry?.querySelector<HTMLElement>(".am-tracker-text")?.click();
    await waitFor(() => reviewed.length === 1);
    expect(reviewed).toEqual([J]);
  });

  it("with auto-apply writes the items when the journal falls quiet", async () => {
    const { app, clock, watch } = await setup(5, true);
    await edit(app, J, "# 2026-11-24\n\n- [ ] Compress the hero images\n");
    clock.advance(5 * MIN);
    await watch.idle();
    expect(listItems((await text(app, TASKS)) ?? "").map((i) => i.text)).toEqual([
      "Compress the hero images",
    ]);
    expect(app.vault.getFileByPath(QUEUE)).toBeNull();
  });
});

describe("watch and extract settings", () => {
  beforeEach(resetUi);

  it("are shown in the settings tab and saved in data.json", async () => {
    const app = new App();
    const { row } = await openSettingsTab(app);
    const minutes = row("Extract after minutes unchanged")?.querySelector("input");
    expect(minutes?.value).toBe("0");
    if (!minutes) throw new Error("no minutes input");
    minutes.value = "15";
    minutes.dispatchEvent(new Event("input"));
    await waitFor(() =>
      (app.vault.adapter.files.get(".obsidian/plugins/agent-memory/data.json") ?? "")
        .replace(/\s/g, "")
        .includes('"extractAfterMinutes":15'),
    );
    expect(row("Apply without review")).toBeDefined();
    const again = new AgentMemoryPlugin(realApp(app), TEST_MANIFEST);
    await again.onload();
    expect(again.memorySettings.watch).toEqual({ extractAfterMinutes: 15, autoApply: false });
  });
});
