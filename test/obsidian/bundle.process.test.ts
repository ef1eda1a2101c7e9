// @vitest-environment happy-dom
/**
 * Loads the built plugin bundle (`main.js`, from `npm run build`) with the stubbed `obsidian`
 * module, runs `onload` and `onunload`, and checks what it registered and that nothing is left
 * behind. Prints the `onload` time (a figure for the closing note, not a
 * pass/fail criterion: docs/testing.md, "How the suite is organised", keeps timings out of tests).
 */
import "../setup-dom";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import * as vm from "node:vm";
import { beforeAll, describe, expect, it } from "vitest";
import * as obsidian from "../stubs/obsidian";
import { resetUi, waitFor } from "../stubs/obsidian-fixtures";

const manifest = JSON.parse(readFileSync("manifest.json", "utf8")) as obsidian.PluginManifest;
let code = "";

type PluginClass = new (app: obsidian.App, manifest: obsidian.PluginManifest) => obsidian.Plugin;

/** Evaluates main.js as CommonJS with `require("obsidian")` answered by the stub. */
function loadBundle(): PluginClass {
  const module: { exports: Record<string, unknown> } = { exports: {} };
  const required: string[] = [];
  const requireStub = (id: string): unknown => {
    required.push(id);
    if (id === "obsidian") return obsidian;
    throw new Error(`main.js required "${id}", which Obsidian does not provide`);
  };
  const wrapper = vm.runInThisContext(`(function (require, module, exports) {${code}\n})`, {
    filename: "main.js",
  }) as (r: (id: string) => unknown, m: typeof module, e: Record<string, unknown>) => void;
  wrapper(requireStub, module, module.exports);
  expect([...new Set(required)]).toEqual(["obsidian"]);
  const cls = module.exports.default;
  if (typeof cls !== "function") throw new Error("main.js has no default export");
  return cls as PluginClass;
}

/** Tracks timers created through `window`, so the test can tell which ones are still pending. */
function trackTimers() {
  const intervals = new Set<number>();
  const timeouts = new Set<number>();
  const w = window as unknown as Record<string, unknown>;
  const orig = {
    setInterval: window.setInterval.bind(window),
    clearInterval: window.clearInterval.bind(window),
    setTimeout: window.setTimeout.bind(window),
    clearTimeout: window.clearTimeout.bind(window),
  };
  w.setInterval = (fn: () => void, ms?: number) => {
    const id = orig.setInterval(fn, ms);
    intervals.add(id);
    return id;
  };
  w.clearInterval = (id: number) => {
    intervals.delete(id);
    orig.clearInterval(id);
  };
  w.setTimeout = (fn: () => void, ms?: number) => {
    const id: number = orig.setTimeout(() => {
      timeouts.delete(id);
      fn();
    }, ms);
    timeouts.add(id);
    return id;
  };
  w.clearTimeout = (id: number) => {
    timeouts.delete(id);
    orig.clearTimeout(id);
  };
  const restore = () => Object.assign(w, orig);
  return { intervals, timeouts, restore };
}

function listenerTotal(app: obsidian.App): number {
  return (
    app.vault.listenerCount() +
    app.workspace.listenerCount() +
    app.metadataCache.listenerCount() +
    app.secretStorage.listenerCount()
  );
}

describe("bundle", () => {
  beforeAll(() => {
    // Only the plugin bundle: rebuilding dist/cli.js here would race with the CLI tests using it.
    execFileSync(process.execPath, ["esbuild.config.mjs", "plugin"], { stdio: "pipe" });
    code = readFileSync("main.js", "utf8");
  }, 120_000);

  it("registers every command, both views, the ribbon icon and the settings tab in onload, and leaves nothing after unload", async () => {
    resetUi();
    const timers = trackTimers();
    try {
      const Plugin = loadBundle();
      const app = new obsidian.App();
      await app.vault.seed("Memory/Agents/me/Journal/2026-03-27.md", "- [ ] Renew passport\n");
      const plugin = new Plugin(app, manifest);

      const t0 = performance.now();
      plugin.load();
      await plugin.loading;
      const onloadMs = performance.now() - t0;
      process.stdout.write(
        `\n[bundle] onload took ${onloadMs.toFixed(2)} ms (main.js ${(code.length / 1024).toFixed(0)} KiB)\n`,
      );

      expect([...plugin.commandIds].sort()).toEqual(
        [
          "cancel-embedding",
          "embed-memory",
          "extract-current-note",
          "extract-todays-journal",
          "import-agent-sessions",
          "migrate-tracker-lines",
          "open-search",
          "open-trackers",
          "promote-to-library",
          "rebuild-search-index",
          "run-health-check",
        ].sort(),
      );
      for (const cmd of app.commands.values()) expect(cmd.hotkeys ?? []).toEqual([]);
      expect([...plugin.registeredViews].sort()).toEqual([
        "agent-memory-search",
        "agent-memory-trackers",
      ]);
      expect(plugin.ribbonIcons.map((r) => [r.icon, r.title])).toEqual([
        ["brain", "Extract from today's journal"],
      ]);
      expect(plugin.settingTabs).toHaveLength(1);
      // onload only registers: no vault subscription and no index work before the layout is ready.
      expect(app.vault.listenerCount("create")).toBe(0);
      expect(
        app.vault.adapter.binaries.has(".obsidian/plugins/agent-memory/search-index.bin"),
      ).toBe(false);

      app.workspace.triggerLayoutReady();
      // After it: the index, sync reconcile and the watched session folders, one listener each.
      expect(app.vault.listenerCount("create")).toBe(3);
      await waitFor(
        () => app.vault.adapter.binaries.has(".obsidian/plugins/agent-memory/search-index.bin"),
        10_000,
      );

      // Use the plugin: open both views, then an edit so the index schedules a save.
      app.commands.get("agent-memory:open-trackers")?.callback?.();
      app.commands.get("agent-memory:open-search")?.callback?.();
      await waitFor(() => app.workspace.leaves.filter((l) => l.view !== null).length === 2);
      const file = app.vault.getFileByPath("Memory/Agents/me/Journal/2026-03-27.md")!;
      app.vault.setContent(file, "- [ ] Renew passport\n- [ ] Book the dentist\n");
      await new Promise((r) => window.setTimeout(r, 20));
      expect(listenerTotal(app)).toBeGreaterThan(0);

      // Obsidian closes the views of a disabled plugin; the plugin itself must not detach leaves.
      for (const leaf of [...app.workspace.leaves]) leaf.detach();
      await new Promise((r) => window.setTimeout(r, 0));
      plugin.unload();

      expect(listenerTotal(app)).toBe(0);
      expect(timers.intervals.size).toBe(0);
      expect(timers.timeouts.size).toBe(0);
      expect(plugin.commandIds).toEqual([]);
      expect(plugin.registeredViews).toEqual([]);
      expect(plugin.ribbonIcons).toEqual([]);
      expect(plugin.settingTabs).toEqual([]);
      expect(plugin.statusBarItems).toEqual([]);

      // Figure for the closing note: onload of later instances, once the runtime is warm.
      const warm: number[] = [];
      for (let i = 0; i < 5; i++) {
        const again = new Plugin(new obsidian.App(), manifest);
        const t1 = performance.now();
        again.load();
        await again.loading;
        warm.push(performance.now() - t1);
        again.unload();
      }
      process.stdout.write(
        `[bundle] onload of later instances: ${warm.map((t) => t.toFixed(2)).join(", ")} ms\n`,
      );
    } finally {
      timers.restore();
    }
  });

  it("keeps Node built-ins out of the plugin bundle (mobile)", () => {
    const requires = [...code.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]);
    expect([...new Set(requires)]).toEqual(["obsidian"]);
  });
});
