// @vitest-environment happy-dom
// Reconcile in the plugin (docs/sync.md, "Reconcile"): a conflict copy a sync tool leaves in the
// vault is merged into its note and moved to .agent-memory/conflict-copies/ through
// ObsidianVault.move; tracker lines that came to share an id are folded; other notes are left alone.
import "../setup-dom";
import { beforeEach, describe, expect, it } from "vitest";
import { App } from "../stubs/obsidian";
import { realApp, resetUi, testContext } from "../stubs/obsidian-fixtures";
import { defaultSettings } from "../../src/core/settings";
import { listItems } from "../../src/core/trackers/format";
import { ObsidianVault } from "../../src/obsidian/adapters/obsidian-vault";
import { SyncReconcile } from "../../src/obsidian/runners/sync-reconcile";

const TASKS = "Memory/Agents/link/Trackers/Tasks.md";
const NOTE = "# Tasks\n\n- [ ] Send the draft ^t-k3f9x2m7qa\n- [ ] Book the room ^t-m2n4p6q8rs\n";

async function setup() {
  const app = new App();
  await app.vault.seed(TASKS, NOTE);
  const ctx = testContext(app, defaultSettings());
  const runner = new SyncReconcile(ctx);
  runner.load();
  app.workspace.triggerLayoutReady();
  return { app, runner };
}

const text = async (app: App, path: string): Promise<string | null> => {
  const file = app.vault.getFileByPath(path);
  return file ? app.vault.read(file) : null;
};

describe("reconcile in the plugin", () => {
  beforeEach(resetUi);

  it("ObsidianVault.move moves a file into a new folder and refuses an existing destination", async () => {
    const app = new App();
    await app.vault.seed("Memory/a.md", "one\n");
    await app.vault.seed("Memory/b.md", "two\n");
    const vault = new ObsidianVault(realApp(app));
    await vault.move("Memory/a.md", ".agent-memory/conflict-copies/Memory/a.md");
    expect(await text(app, ".agent-memory/conflict-copies/Memory/a.md")).toBe("one\n");
    expect(app.vault.getFileByPath("Memory/a.md")).toBeNull();
    await expect(
      vault.move("Memory/b.md", ".agent-memory/conflict-copies/Memory/a.md"),
    ).rejects.toThrow(/exists/);
    expect(await text(app, "Memory/b.md")).toBe("two\n");
  });

  it("a conflict copy that appears is merged into its note and kept out of the notes", async () => {
    const { app, runner } = await setup();
    const copy = "Memory/Agents/link/Trackers/Tasks (conflicted copy 2026-12-01).md";
    await app.vault.create(
      copy,
      `${NOTE.replace("- [ ] Send", "- [x] Send")}- [ ] New on the phone ^t-v7w8x9y0za\n`,
    );
    await runner.idle();
    expect(app.vault.getFileByPath(copy)).toBeNull();
    expect(await text(app, `.agent-memory/conflict-copies/${copy}`)).toContain("New on the phone");
    expect(listItems((await text(app, TASKS)) ?? "").map((i) => [i.id, i.status])).toEqual([
      ["t-k3f9x2m7qa", "done"],
      ["t-m2n4p6q8rs", "open"],
      ["t-v7w8x9y0za", "open"],
    ]);
  });

  it("folds two tracker lines that share an id; a note without duplicates is not written", async () => {
    const { app, runner } = await setup();
    const file = app.vault.getFileByPath(TASKS);
    if (!file) throw new Error("no tracker");
    await app.vault.modify(file, `${NOTE}- [x] Send the draft ^t-k3f9x2m7qa\n`);
    await runner.idle();
    expect(listItems((await text(app, TASKS)) ?? "").map((i) => [i.id, i.status])).toEqual([
      ["t-k3f9x2m7qa", "done"],
      ["t-m2n4p6q8rs", "open"],
    ]);
    const writes = app.vault.writes;
    await app.vault.modify(file, `${NOTE}- [ ] Third ^t-a2b3c4d5e6\n`);
    await runner.idle();
    expect(app.vault.writes).toBe(writes + 1);
  });
});
