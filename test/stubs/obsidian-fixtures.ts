/**
 * Test helpers for the plugin's tests: a stubbed app seeded from a sample vault on disk
 * (`examples/vault`, real-looking notes; STYLE: fixtures are sample vaults), and a
 * `PluginContext` over it.
 */
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { fileURLToPath } from "node:url";
import { App, Modal, Notice } from "obsidian";
import { defaultSettings, type Settings } from "../../src/core/settings";
import type { PluginContext } from "../../src/obsidian/context";
import { ObsidianVault } from "../../src/obsidian/obsidian-vault";

/** Absolute path of the repository's sample vault. */
export const SAMPLE_VAULT = fileURLToPath(new URL("../../examples/vault", import.meta.url));

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
export function testContext(app: App, settings: Settings = defaultSettings(), today = "2026-12-01"): PluginContext & { current: Settings } {
  const ctx = {
    current: settings,
    app,
    vault: new ObsidianVault(app),
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
    await new Promise((r) => setTimeout(r, 5));
  }
}
