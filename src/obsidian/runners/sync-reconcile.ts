/**
 * Reconcile in the plugin (docs/sync.md, "Reconcile"): when a note changes under Obsidian — a sync
 * tool leaves a conflict copy, or a line-union merge leaves two tracker lines sharing an id —
 * `ReconcileOnChange` (`src/core/sync/reconcile-vault.ts`) merges and folds it, and a notice says
 * what it did. Vault events only fire once the layout is ready, so the vault's first scan at
 * start-up is not taken for changes.
 */
import { Component, Notice, type TAbstractFile } from "obsidian";
import { errorMessage } from "../../core/errors";
import { ReconcileOnChange } from "../../core/sync/reconcile-vault";
import { layoutOf, type PluginContext } from "../context";

export class SyncReconcile extends Component {
  private readonly reconciler: ReconcileOnChange;

  constructor(private readonly ctx: PluginContext) {
    super();
    // The layout is asked at each change, so it follows the settings.
    this.reconciler = new ReconcileOnChange(
      ctx.vault,
      () => layoutOf(ctx),
      (summary) => new Notice(`Agent Memory ${summary}`),
      (err, path) => new Notice(`Agent Memory could not reconcile ${path}: ${errorMessage(err)}`),
    );
  }

  override onload(): void {
    this.ctx.app.workspace.onLayoutReady(() => {
      const on = (file: TAbstractFile) => void this.changed(file.path);
      this.registerEvent(this.ctx.app.vault.on("create", on));
      this.registerEvent(this.ctx.app.vault.on("modify", on));
      this.registerEvent(this.ctx.app.vault.on("rename", on));
    });
  }

  /** A note at `path` was created, changed or renamed there. Resolves once it is handled. */
  changed(path: string): Promise<void> {
    return this.reconciler.changed(path);
  }

  /** Resolves when every change seen so far has been handled (for tests). */
  idle(): Promise<void> {
    return this.reconciler.idle();
  }
}
