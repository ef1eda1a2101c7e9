// @vitest-environment happy-dom
/**
 * Tracker lines in the plugin: the "Migrate tracker lines" command (dry run, confirmation, rewrite), a
 * review loop ticked in another plugin written back as its round done, and an id a Dataview task
 * view removed given back, against the stubbed app.
 */
import "../setup-dom";
import { beforeEach, describe, expect, it } from "vitest";
import { App, Modal, Notice, type PluginManifest } from "../stubs/obsidian";
import AgentMemoryPlugin from "../../src/main";
import { realApp, resetUi, stubPlugin, waitFor } from "../stubs/obsidian-fixtures";
import { completeWithDataview } from "../helpers/dataview-rules";
import { toggleWithTasks } from "../helpers/tasks-dataview";

const manifest: PluginManifest = {
  id: "agent-memory",
  name: "Agent Memory",
  version: "0.1.0",
  minAppVersion: "1.11.4",
  description: "test",
  author: "test",
};
const TASKS = "Memory/Agents/link/Trackers/Tasks.md";
const REVIEWS = "Memory/Agents/link/Trackers/Reviews.md";
const OLD =
  "- [ ] Compress hero images [priority:: 1] [due:: 2026-12-04] [created:: 2026-11-06] ^t-005";
const NEW =
  "- [ ] Compress hero images [priority:: high] [created:: 2026-11-06] [due:: 2026-12-04] ^t-005";

async function start(app: App): Promise<void> {
  const plugin = new AgentMemoryPlugin(realApp(app), manifest);
  const stub = stubPlugin(plugin);
  stub.load();
  await stub.loading;
}

function command(app: App, id: string) {
  const cmd = app.commands.get(`agent-memory:${id}`);
  if (!cmd) throw new Error(`no command ${id}`);
  return cmd;
}

describe("Tasks and Dataview lines in the plugin", () => {
  beforeEach(resetUi);

  it("Migrate tracker lines: says what will change, writes nothing until confirmed, then rewrites only those lines", async () => {
    const app = new App();
    await app.vault.seed(
      TASKS,
      `# Tasks\n\n${OLD}\n- [x] Done one [created:: 2026-11-02] ^t-006\n`,
    );
    await start(app);
    command(app, "migrate-tracker-lines").callback?.();
    await waitFor(() => Modal.openModals.length === 1);
    const modal = Modal.openModals[0];
    expect(modal?.contentEl.textContent).toContain("1 tracker line in 1 note will be rewritten");
    expect(modal?.contentEl.textContent).toContain(TASKS);
    expect(app.vault.text(TASKS)).toContain(OLD);
    modal?.contentEl.querySelector<HTMLButtonElement>("button.mod-cta")?.click();
    await waitFor(() => (app.vault.text(TASKS) ?? "").includes(NEW));
    expect(app.vault.text(TASKS)).toBe(
      `# Tasks\n\n${NEW}\n- [x] Done one [created:: 2026-11-02] ^t-006\n`,
    );
    await waitFor(() => Notice.shown.some((n) => n.text === "Rewrote 1 tracker line."));
  });

  it("a review loop ticked in Tasks is written back open, its next date moved on and the round recorded", async () => {
    const app = new App();
    const line = "- [ ] Weekly retro [every:: weekly] [next:: 2026-11-27] ^r-001";
    const file = await app.vault.seed(REVIEWS, `# Reviews\n${line}\n`);
    await start(app);
    app.workspace.triggerLayoutReady();
    app.vault.setContent(file, `# Reviews\n${toggleWithTasks(line, "2026-11-28")}\n`);
    await waitFor(() => (app.vault.text(REVIEWS) ?? "").includes("[next:: 2026-12-04]"));
    expect(app.vault.text(REVIEWS)).toBe(
      "# Reviews\n- [ ] Weekly retro [every:: weekly] [next:: 2026-12-04] ^r-001\n    - 2026-11-28: done\n",
    );
    await waitFor(() =>
      Notice.shown.some((n) => n.text === "Review r-001: this round is done; next on 2026-12-04."),
    );
  });

  it("an item checked in a Dataview task view gets its block id and its source fragment back", async () => {
    const app = new App();
    const line =
      "- [ ] Check the canonical tags [source:: [[Memory/Agents/link/Journal/2026-11-27#^am-10r9]]] [created:: 2026-11-27] ^t-006";
    const file = await app.vault.seed(TASKS, `# Tasks\n${line}\n`);
    await start(app);
    app.workspace.triggerLayoutReady();
    // The plugin reads the tracker notes once after layout-ready: the text a rewrite is compared with.
    await new Promise((r) => setTimeout(r, 20));
    const rewritten = completeWithDataview(line, "2026-12-01");
    expect(rewritten).not.toContain("^t-006");
    app.vault.setContent(file, `# Tasks\n${rewritten}\n`);
    await waitFor(() => (app.vault.text(TASKS) ?? "").includes("^t-006"));
    expect(app.vault.text(TASKS)).toBe(
      "# Tasks\n- [x] Check the canonical tags [source:: [[Memory/Agents/link/Journal/2026-11-27#^am-10r9]]] [created:: 2026-11-27] [completion:: 2026-12-01] ^t-006\n",
    );
  });
});
