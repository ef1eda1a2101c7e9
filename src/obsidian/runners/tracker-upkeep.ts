/**
 * Tracker upkeep in the plugin (docs/plugin.md, "Tracker panel"): a review loop ticked done outside
 * our panel (in the Tasks plugin, Obsidian's own checkbox or a Dataview view) is written back as
 * its round done as soon as the note changes; an item whose block id a Dataview completion rewrite
 * removed gets it back from the note as last seen (`restoreLostIds`); and the "Migrate tracker
 * lines" command rewrites older tracker lines into the current line format after a confirmation
 * that says what it will change.
 */
import { Component, Notice, type TAbstractFile } from "obsidian";
import { errorMessage } from "../../core/errors";
import { TRACKER_KINDS } from "../../core/settings";
import { migrateTrackers, restoreLostIds } from "../../core/trackers/migrate";
import { reopenTickedReviews } from "../../core/trackers/reviews";
import { ConfirmModal } from "../modals/confirm-modal";
import { layoutOf, type PluginContext } from "../context";

/** Watches the agents' tracker notes (see the module comment). */
export class TrackerUpkeep extends Component {
  /** Each tracker note's text as last seen, to give back ids a rewrite removed. */
  private readonly seen = new Map<string, string>();
  private unloaded = false;

  constructor(private readonly ctx: PluginContext) {
    super();
  }

  override onload(): void {
    // After layout-ready, as the plugin's other vault subscriptions (onload only registers).
    this.ctx.app.workspace.onLayoutReady(() => {
      if (this.unloaded) return;
      this.registerEvent(
        this.ctx.app.vault.on(
          "modify",
          (file: TAbstractFile) => void this.trackerChanged(file.path),
        ),
      );
      void this.remember();
    });
  }

  override onunload(): void {
    this.unloaded = true;
    this.seen.clear();
  }

  /** Reads every agent's tracker notes once, so the first rewrite already has a text to compare with. */
  private async remember(): Promise<void> {
    try {
      const layout = layoutOf(this.ctx);
      const agents = layout.agentsIn(
        (await this.ctx.vault.list(layout.agentsRoot)).map((f) => f.path),
      );
      for (const agent of agents) {
        for (const kind of TRACKER_KINDS) {
          const path = layout.trackerPath(agent, kind);
          if (await this.ctx.vault.exists(path))
            this.seen.set(path, await this.ctx.vault.read(path));
        }
      }
    } catch {
      // Without a remembered text an id cannot be given back; ticked reviews still are.
    }
  }

  /** The kind of the agent's tracker note at `path`, or `null` for any other note. */
  private trackerKind(path: string): string | null {
    try {
      const layout = layoutOf(this.ctx);
      const agent = layout.agentOf(path);
      if (agent === null) return null;
      return TRACKER_KINDS.find((k) => layout.trackerPath(agent, k) === path) ?? null;
    } catch {
      // A path the layout refuses (an unsafe agent name) is no tracker of ours.
      return null;
    }
  }

  /**
   * After a change to a tracker note: gives back lost ids and, in a Reviews tracker, reopens the
   * ticked loops (one atomic `process`), with a notice for each. Never throws: a failure is a notice
   * naming the note.
   */
  async trackerChanged(path: string): Promise<void> {
    const kind = this.trackerKind(path);
    if (kind === null) return;
    let reopened: { id: string; next: string }[];
    let restored: string[];
    let kept: string | null;
    try {
      ({
        result: { reopened, restored, kept },
      } = await this.ctx.vault.process(path, (current) => {
        const decided = {
          reopened: [] as { id: string; next: string }[],
          restored: [] as string[],
          kept: null as string | null,
        };
        if (current === null) return { content: null, result: decided };
        const previous = this.seen.get(path);
        let text = current;
        if (previous !== undefined && previous !== current) {
          const r = restoreLostIds(previous, text);
          decided.restored = r.restored;
          text = r.text;
        }
        if (kind === "reviews") {
          const r = reopenTickedReviews(text, path);
          decided.reopened = r.reopened;
          text = r.text;
        }
        // The edit stays pure (it may run again on newer text): what it kept is remembered below,
        // once the write is done.
        decided.kept = text;
        return { content: text, result: decided };
      }));
    } catch (err) {
      new Notice(`Could not update ${path}: ${errorMessage(err)}`);
      return;
    }
    if (kept !== null) this.seen.set(path, kept);
    for (const id of restored)
      new Notice(
        `${path}: gave ^${id} its block id back (a Dataview task view had moved a source link's ^am-… id in its place).`,
      );
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
      new Notice(
        `Tracker lines are in the current format (${planned.length} tracker notes).${lost.length > 0 ? ` Items without a block id: ${lost.join(", ")}.` : ""}`,
        10_000,
      );
      return;
    }
    const message = [
      `${lines} tracker line${lines === 1 ? "" : "s"} in ${changing.length} note${changing.length === 1 ? "" : "s"} will be rewritten into the current format: our fields first, then the Tasks plugin's (priority, created, due, completion…) in its order, then the block id; numeric priorities become words and status:: becomes state::.`,
      `Notes: ${changing.map((n) => n.path).join(", ")}.`,
      "Only those lines change; every other line stays as it is.",
      ...(skipped.length > 0 ? [`Left as they are: ${skipped.join("; ")}`] : []),
      ...(lost.length > 0
        ? [`Items that lost their block id (add it back by hand): ${lost.join(", ")}.`]
        : []),
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
