/**
 * Tracker upkeep in the plugin (issue 15): a review loop ticked done outside our panel (in the
 * Tasks plugin, Obsidian's own checkbox or a Dataview view) is written back as its round done as
 * soon as the note changes, and the "Migrate tracker lines" command rewrites older tracker lines
 * into the current line format after a confirmation that says what it will change.
 */
import { Component, Notice, type TAbstractFile } from "obsidian";
import { errorMessage } from "../core/errors";
import { migrateTrackers } from "../core/trackers/migrate";
import { reopenTickedReviews } from "../core/trackers/reviews";
import { ConfirmModal } from "./confirm-modal";
import { layoutOf, type PluginContext } from "./context";

/** Watches the agents' Reviews trackers and reopens ticked loops (see the module comment). */
export class TrackerUpkeep extends Component {
  constructor(private readonly ctx: PluginContext) {
    super();
  }

  override onload(): void {
    this.registerEvent(this.ctx.app.vault.on("modify", (file: TAbstractFile) => void this.reviewsChanged(file.path)));
  }

  /** True for a Reviews tracker of an agent. */
  private isReviews(path: string): boolean {
    try {
      const layout = layoutOf(this.ctx);
      const agent = layout.agentOf(path);
      return agent !== null && layout.trackerPath(agent, "reviews") === path;
    } catch {
      return false;
    }
  }

  /**
   * Reopens the ticked loops of the Reviews tracker at `path` (one atomic `process`), with a notice
   * naming each and its next date. Never throws: a failure is a notice naming the note.
   */
  async reviewsChanged(path: string): Promise<void> {
    if (!this.isReviews(path)) return;
    let reopened: { id: string; next: string }[] = [];
    try {
      await this.ctx.vault.process(path, (current) => {
        if (current === null) return null;
        const r = reopenTickedReviews(current, path);
        reopened = r.reopened;
        return r.text;
      });
    } catch (err) {
      new Notice(`Could not update ${path}: ${errorMessage(err)}`);
      return;
    }
    for (const r of reopened) new Notice(`Review ${r.id}: this round is done; next on ${r.next}.`);
  }
}

/**
 * "Migrate tracker lines": a dry run first; when lines would change, a confirmation naming how many
 * and in which notes, then the rewrite (each note through one atomic `process`). Never throws.
 */
export async function runMigrateCommand(ctx: PluginContext): Promise<void> {
  const layout = layoutOf(ctx);
  try {
    const planned = await migrateTrackers(ctx.vault, layout, { apply: false });
    const changing = planned.filter((n) => n.changes.length > 0);
    const lines = changing.reduce((n, note) => n + note.changes.length, 0);
    const lost = planned.flatMap((n) => n.lostIds.map((line) => `${n.path} line ${line}`));
    const skipped = planned.filter((n) => n.skipped !== null).map((n) => n.skipped ?? "");
    if (lines === 0) {
      new Notice(`Tracker lines are in the current format (${planned.length} tracker notes).${lost.length > 0 ? ` Items without a block id: ${lost.join(", ")}.` : ""}`, 10_000);
      return;
    }
    const message = [
      `${lines} tracker line${lines === 1 ? "" : "s"} in ${changing.length} note${changing.length === 1 ? "" : "s"} will be rewritten into the current format: our fields first, then the Tasks plugin's (priority, created, due, completion…) in its order, then the block id; numeric priorities become words and status:: becomes state::.`,
      `Notes: ${changing.map((n) => n.path).join(", ")}.`,
      "Only those lines change; every other line stays as it is.",
      ...(skipped.length > 0 ? [`Left as they are: ${skipped.join("; ")}`] : []),
      ...(lost.length > 0 ? [`Items that lost their block id (add it back by hand): ${lost.join(", ")}.`] : []),
    ];
    new ConfirmModal(ctx.app, {
      title: "Migrate tracker lines",
      message,
      confirmText: "Rewrite",
      onConfirm: async () => {
        try {
          const done = await migrateTrackers(ctx.vault, layout, { apply: true });
          const n = done.reduce((sum, note) => sum + note.changes.length, 0);
          new Notice(`Rewrote ${n} tracker line${n === 1 ? "" : "s"}.`);
        } catch (err) {
          new Notice(`Migrating tracker lines failed: ${errorMessage(err)}`, 10_000);
        }
      },
    }).open();
  } catch (err) {
    new Notice(`Migrating tracker lines failed: ${errorMessage(err)}`, 10_000);
  }
}
