/**
 * What the plugin's Obsidian-side pieces share: the app, the vault adapter and live settings.
 * Built once in `main.ts` and handed to commands, views and modals as one named object
 * (docs/architecture.md, "Core, ports and hosts": `main.ts` wires; obsidian-tasks passes its
 * collaborators the same way).
 */
import { TFolder, type App } from "obsidian";
import { MemoryLayout } from "../core/layout";
import type { Settings } from "../core/settings";
import type { ObsidianVault } from "./adapters/obsidian-vault";

export interface PluginContext {
  app: App;
  vault: ObsidianVault;
  /** The current settings (they change while the plugin runs). */
  settings(): Settings;
  /** Persists the current settings to `data.json` (never the API key). */
  saveSettings(): Promise<void>;
  /** Today's date, `YYYY-MM-DD`, the user's local date (`today` of src/core/util/dates.ts); injectable for tests. */
  today(): string;
}

/** The layout for the current settings. */
export function layoutOf(ctx: PluginContext): MemoryLayout {
  return new MemoryLayout(ctx.settings());
}

/**
 * Agents found under the agents folder (each folder is an agent,
 * docs/architecture.md, "The five layers"), plus the default agent.
 */
export async function discoverAgents(ctx: PluginContext): Promise<string[]> {
  const layout = layoutOf(ctx);
  const files = await ctx.vault.list(layout.agentsRoot);
  const agents = new Set(layout.agentsIn(files.map((f) => f.path)));
  const folder = ctx.app.vault.getFolderByPath(layout.agentsRoot);
  for (const child of folder?.children ?? []) {
    if (child instanceof TFolder && !child.name.startsWith(".")) agents.add(child.name);
  }
  agents.add(ctx.settings().defaultAgent);
  return [...agents].sort((a, b) => a.localeCompare(b));
}
