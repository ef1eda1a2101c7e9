/**
 * Agent Memory plugin entry (it wires, it does not work;
 * docs/architecture.md, "Core, ports and hosts"): builds the adapters and the core services, and
 * registers views, commands, the ribbon
 * button and the settings tab. `onload` only registers; the search index is loaded or built in
 * `workspace.onLayoutReady` (official guideline: heavy work after layout ready).
 */
import { Notice, normalizePath, Plugin } from "obsidian";
import { today } from "./core/util/dates";
import { errorMessage } from "./core/errors";
import { defaultSettings, parseSettings, usableSettings, type Settings } from "./core/settings";
import { registerCommands } from "./obsidian/commands";
import { ImportSessionsModal } from "./obsidian/modals/import-sessions-modal";
import { PromoteModal } from "./obsidian/modals/promote-modal";
import type { PluginContext } from "./obsidian/context";
import { ExtractionRunner } from "./obsidian/runners/extraction-runner";
import { createExtractorFactory } from "./obsidian/runners/extractor-factory";
import { runHealthCommand } from "./obsidian/runners/health-command";
import { EmbeddingsRunner } from "./obsidian/runners/embeddings-runner";
import { IndexLifecycle } from "./obsidian/runners/index-lifecycle";
import { ObsidianVault } from "./obsidian/adapters/obsidian-vault";
import { activateView } from "./obsidian/views/open-view";
import { SEARCH_VIEW_TYPE, SearchView } from "./obsidian/views/search-view";
import { AgentMemorySettingTab } from "./obsidian/settings/settings-tab";
import { StatusBarProgress } from "./obsidian/views/status-bar-progress";
import { TRACKER_VIEW_TYPE, TrackerView } from "./obsidian/views/tracker-view";
import { TrackerUpkeep, runMigrateCommand } from "./obsidian/runners/tracker-upkeep";
import { WatchExtract } from "./obsidian/runners/watch-extract";
import { SyncReconcile } from "./obsidian/runners/sync-reconcile";
import { SessionFolderWatch } from "./obsidian/runners/session-import";

export default class AgentMemoryPlugin extends Plugin {
  /** Validated settings (src/core/settings.ts); the API key is never part of them. */
  memorySettings: Settings = defaultSettings();

  override async onload(): Promise<void> {
    await this.loadSettings();
    const ctx: PluginContext = {
      app: this.app,
      vault: new ObsidianVault(this.app),
      settings: () => this.memorySettings,
      saveSettings: () => this.saveSettings(),
      today: () => today(Date.now()),
    };
    const runner = new ExtractionRunner(ctx, createExtractorFactory(ctx));
    const pluginDir =
      this.manifest.dir ?? `${this.app.vault.configDir}/plugins/${this.manifest.id}`;
    const status = new StatusBarProgress(this.addStatusBarItem());
    const embeddings = new EmbeddingsRunner(
      this.app,
      ctx.vault,
      () => ctx.settings(),
      status,
      normalizePath(pluginDir),
    );
    const index = this.addChild(
      new IndexLifecycle(ctx, status, normalizePath(`${pluginDir}/search-index.bin`), embeddings),
    );

    this.registerView(
      TRACKER_VIEW_TYPE,
      (leaf) => new TrackerView(leaf, ctx, (journal) => runner.extract(journal)),
    );
    this.registerView(SEARCH_VIEW_TYPE, (leaf) => new SearchView(leaf, ctx, index));
    this.addRibbonIcon("brain", "Extract from today's journal", () => void runner.extractToday());
    registerCommands(this, {
      extractActiveNote: () => runner.extractActiveNote(),
      extractToday: () => runner.extractToday(),
      openTrackers: async () => void (await activateView(this.app, TRACKER_VIEW_TYPE)),
      openSearch: async () => void (await activateView(this.app, SEARCH_VIEW_TYPE)),
      rebuildIndex: async () => {
        const report = await index.rebuild();
        if (report)
          new Notice(
            `Search index rebuilt: ${report.notes} notes in ${(report.syncMs / 1000).toFixed(1)} s.`,
          );
        else if (index.state.kind === "failed")
          new Notice(`Search index rebuild failed: ${index.state.error}`);
      },
      runHealthCheck: () => runHealthCommand(ctx),
      migrateTrackers: () => runMigrateCommand(ctx),
      promoteNote: (path) => new PromoteModal(this.app, ctx, path).open(),
      embedNow: async () => {
        if (!embeddings.configured)
          new Notice("Set the embeddings base URL and model in the settings first.");
        else await index.embedNow();
      },
      importSessions: () =>
        new ImportSessionsModal(this.app, ctx, (journal, agent) =>
          runner.extract(journal, agent),
        ).open(),
      cancelEmbedding: () => {
        if (!embeddings.cancel()) new Notice("No embedding is running.");
      },
    });
    this.addChild(new TrackerUpkeep(ctx));
    this.addChild(new WatchExtract(ctx));
    this.addChild(new SyncReconcile(ctx));
    this.addChild(new SessionFolderWatch(ctx));
    this.addSettingTab(
      new AgentMemorySettingTab(this.app, this, {
        ctx,
        replaceSettings: async (next) => {
          this.memorySettings = next;
          await this.saveSettings();
          index.settingsChanged();
        },
      }),
    );
    this.app.workspace.onLayoutReady(() => index.start());
  }

  /** Reads `data.json`; invalid content falls back to the defaults with a notice, never a crash. */
  private async loadSettings(): Promise<void> {
    let raw: unknown;
    try {
      raw = await this.loadData();
    } catch (err) {
      raw = undefined;
      new Notice(
        `Agent Memory could not read its settings (${errorMessage(err)}); using the defaults.`,
      );
    }
    const parsed = parseSettings(raw);
    this.memorySettings = usableSettings(parsed);
    if (!parsed.ok)
      new Notice(
        `Agent Memory settings: ${parsed.error.message}. Using the defaults until you change a setting.`,
      );
  }

  /** Writes the settings to `data.json` (they hold the API key's secret name, never the key). */
  async saveSettings(): Promise<void> {
    await this.saveData(this.memorySettings);
  }
}
