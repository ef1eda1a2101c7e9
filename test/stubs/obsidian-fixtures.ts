/**
 * Test helpers for the plugin's tests: a stubbed app seeded from a sample vault on disk
 * (`examples/vault`, real-looking notes: fixtures are sample vaults), and a
 * `PluginContext` over it.
 *
 * Tests import the stub's classes from `./obsidian` (the same module the `obsidian` alias resolves
 * to) so its test helpers are typed; `real*` hand a stub object to plugin code typed against the
 * real `obsidian` declarations.
 */
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import type {
  App as ObsidianApp,
  Plugin as ObsidianPlugin,
  WorkspaceLeaf as ObsidianLeaf,
} from "obsidian";
import { App, Modal, Notice, type Plugin, type WorkspaceLeaf } from "./obsidian";
import { defaultSettings, type Settings } from "../../src/core/settings";
import type { PluginContext } from "../../src/obsidian/context";
import { ObsidianVault } from "../../src/obsidian/adapters/obsidian-vault";
import AgentMemoryPlugin from "../../src/main";

/** Absolute path of the repository's sample vault (tests run from the repository root). */
export const SAMPLE_VAULT = nodePath.resolve(process.cwd(), "examples/vault");

/** The stub app as the plugin code sees it. */
export function realApp(app: App): ObsidianApp {
  return app as unknown as ObsidianApp;
}

/** A stub leaf as the plugin code sees it. */
export function realLeaf(leaf: WorkspaceLeaf): ObsidianLeaf {
  return leaf as unknown as ObsidianLeaf;
}

/** The stub's view of a plugin instance (registered commands, views, tabs…). */
export function stubPlugin(plugin: ObsidianPlugin): Plugin {
  return plugin as unknown as Plugin;
}

/** Copies every Markdown file under `dir` into the stub vault (folders created as needed). */
export async function seedFromFolder(app: App, dir: string): Promise<number> {
  let n = 0;
  const walk = async (rel: string): Promise<void> => {
    for (const entry of await fs.readdir(nodePath.join(dir, rel), { withFileTypes: true })) {
      if (entry.name.startsWith(".")) continue;
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await walk(child);
      else if (entry.name.endsWith(".md")) {
        await app.vault.seed(child, await fs.readFile(nodePath.join(dir, child), "utf8"));
        n++;
      }
    }
  };
  await walk("");
  return n;
}

/** A context over `app` with mutable settings and a fixed "today". */
export function testContext(
  app: App,
  settings: Settings = defaultSettings(),
  today = "2026-12-01",
): PluginContext & { current: Settings } {
  const ctx = {
    current: settings,
    app: realApp(app),
    vault: new ObsidianVault(realApp(app)),
    settings: () => ctx.current,
    saveSettings: () => Promise.resolve(),
    today: () => today,
  };
  return ctx;
}

/** Clears the notices and modals recorded by the stub. */
export function resetUi(): void {
  Notice.shown = [];
  for (const m of [...Modal.openModals]) m.close();
}

/** Waits until `check` returns true (polling the event loop), or fails after `ms`. */
export async function waitFor(check: () => boolean, ms = 2000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > ms) throw new Error("condition not met in time");
    await new Promise((r) => window.setTimeout(r, 5));
  }
}

/** The manifest the plugin tests load the plugin with. */
export const TEST_MANIFEST = {
  id: "agent-memory",
  name: "Agent Memory",
  version: "0.1.0",
  minAppVersion: "1.11.4",
  description: "test",
  author: "test",
};

/**
 * Loads the plugin on `app`, shows its settings tab and returns the plugin with a finder for a
 * setting row by its name (throws naming the setting when there is none).
 */
export async function openSettingsTab(
  app: App,
): Promise<{ plugin: AgentMemoryPlugin; row: (name: string) => HTMLElement }> {
  const plugin = new AgentMemoryPlugin(realApp(app), TEST_MANIFEST);
  await plugin.onload();
  const tab = stubPlugin(plugin).settingTabs[0];
  if (!tab) throw new Error("no settings tab");
  tab.display();
  await waitFor(() => tab.containerEl.querySelector(".setting-item") !== null);
  const row = (name: string) => {
    const found = [...tab.containerEl.querySelectorAll<HTMLElement>(".setting-item")].find(
      (r) => r.querySelector(".setting-item-name")?.textContent === name,
    );
    if (!found) throw new Error(`no setting named ${name}`);
    return found;
  };
  return { plugin, row };
}
