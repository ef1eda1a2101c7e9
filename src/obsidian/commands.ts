/**
 * The command registrar (one place for commands, as obsidian-tasks and obsidian-git do).
 * Ids and names do not repeat the plugin's name or the word "command", and no command has a
 * default hotkey (the official plugin guidelines).
 */
import { TFile, type Plugin } from "obsidian";

/** What the commands do; `main.ts` wires these to the runner, the views and the index. */
export interface CommandActions {
  extractActiveNote(): Promise<void>;
  extractToday(): Promise<void>;
  openTrackers(): Promise<void>;
  openSearch(): Promise<void>;
  rebuildIndex(): Promise<void>;
  /** Present once the health check is wired (docs/architecture.md, "The health check"). */
  runHealthCheck?: () => Promise<void>;
  /**
   * Rewrites older tracker lines into the current format, after a confirmation (docs/decisions.md,
   * "Tracker line order follows Tasks' reader").
   */
  migrateTrackers?: () => Promise<void>;
  /** Embeds the blocks without a vector now (docs/plugin.md, "Semantic search"). */
  embedNow?: () => Promise<void>;
  /** Stops a background embedding run. */
  cancelEmbedding?: () => void;
  /** Imports Claude Code or Codex transcripts into an agent's journal (docs/agents.md). */
  importSessions?: () => void;
  /** Opens the promotion review for a note (docs/inbox.md). */
  promoteNote?: (path: string) => void;
}

/** Registers every command of the plugin on `plugin`. */
export function registerCommands(plugin: Plugin, actions: CommandActions): void {
  plugin.addCommand({
    id: "extract-current-note",
    name: "Extract from current note",
    checkCallback: (checking) => {
      const file = plugin.app.workspace.getActiveFile();
      if (!(file instanceof TFile) || file.extension !== "md") return false;
      if (!checking) void actions.extractActiveNote();
      return true;
    },
  });
  plugin.addCommand({
    id: "extract-todays-journal",
    name: "Extract from today's journal",
    callback: () => void actions.extractToday(),
  });
  plugin.addCommand({
    id: "open-trackers",
    name: "Open trackers",
    callback: () => void actions.openTrackers(),
  });
  plugin.addCommand({
    id: "open-search",
    name: "Open memory search",
    callback: () => void actions.openSearch(),
  });
  plugin.addCommand({
    id: "rebuild-search-index",
    name: "Rebuild search index",
    callback: () => void actions.rebuildIndex(),
  });
  const health = actions.runHealthCheck;
  if (health) {
    plugin.addCommand({
      id: "run-health-check",
      name: "Run health check",
      callback: () => void health(),
    });
  }
  const promote = actions.promoteNote;
  if (promote) {
    plugin.addCommand({
      id: "promote-to-library",
      name: "Promote current note to the library",
      checkCallback: (checking) => {
        const file = plugin.app.workspace.getActiveFile();
        if (!(file instanceof TFile) || file.extension !== "md") return false;
        if (!checking) promote(file.path);
        return true;
      },
    });
  }
  const embed = actions.embedNow;
  if (embed)
    plugin.addCommand({
      id: "embed-memory",
      name: "Embed memory now",
      callback: () => void embed(),
    });
  const cancel = actions.cancelEmbedding;
  if (cancel)
    plugin.addCommand({
      id: "cancel-embedding",
      name: "Cancel embedding",
      callback: () => cancel(),
    });
  const importSessions = actions.importSessions;
  if (importSessions)
    plugin.addCommand({
      id: "import-agent-sessions",
      name: "Import agent sessions",
      callback: () => importSessions(),
    });
  const migrate = actions.migrateTrackers;
  if (migrate) {
    plugin.addCommand({
      id: "migrate-tracker-lines",
      name: "Migrate tracker lines",
      callback: () => void migrate(),
    });
  }
}
