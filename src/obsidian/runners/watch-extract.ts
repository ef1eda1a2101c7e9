/**
 * Watch and extract in the plugin (docs/compaction.md): with the setting
 * `watch.extractAfterMinutes` above 0, a journal left unchanged that long is extracted; the plan
 * waits in the agent's review queue (the tracker panel's "To review" tab) unless
 * `watch.autoApply` is on. The settings are read at each change, so turning it on or off, or
 * changing the minutes, takes effect at the next edit.
 */
import { Component, Notice, type TAbstractFile } from "obsidian";
import { errorMessage } from "../../core/errors";
import {
  QuietTimers,
  extractQuietJournal,
  isWatchedJournal,
  type Scheduler,
} from "../../core/watch";
import { layoutOf, type PluginContext } from "../context";
import { extractorFor } from "./extractor-factory";
import { noteName } from "../../core/markdown/wikilinks";

/** The window's timers (popout-safe, as the Obsidian guidelines ask). */
export const WINDOW_SCHEDULER: Scheduler = {
  set: (fn, ms) => window.setTimeout(fn, ms),
  clear: (handle) => window.clearTimeout(handle as number),
};

export class WatchExtract extends Component {
  private timers: QuietTimers | null = null;
  private minutes = 0;

  constructor(
    private readonly ctx: PluginContext,
    private readonly scheduler: Scheduler = WINDOW_SCHEDULER,
  ) {
    super();
  }

  override onload(): void {
    this.ctx.app.workspace.onLayoutReady(() => {
      // Edits only: a journal made from a template is timed from its first edit.
      this.registerEvent(
        this.ctx.app.vault.on("modify", (file: TAbstractFile) => this.changed(file.path)),
      );
    });
  }

  override onunload(): void {
    void this.timers?.close();
    this.timers = null;
  }

  /** Notes waiting to fall quiet (for tests and the status of the panel). */
  waiting(): string[] {
    return this.timers?.waiting() ?? [];
  }

  /** Resolves when every extraction started so far has finished. */
  idle(): Promise<void> {
    return this.timers?.idle() ?? Promise.resolve();
  }

  /** A note changed: a journal's quiet timer starts again (when watching is on). */
  changed(path: string): void {
    const minutes = this.ctx.settings().watch.extractAfterMinutes;
    if (minutes !== this.minutes) {
      void this.timers?.close();
      this.timers =
        minutes > 0
          ? new QuietTimers(
              minutes * 60_000,
              (p) => this.run(p),
              this.scheduler,
              (p, err) =>
                new Notice(`Agent Memory could not extract ${noteName(p)}: ${errorMessage(err)}`),
            )
          : null;
      this.minutes = minutes;
    }
    if (!this.timers) return;
    let watched = false;
    try {
      watched = isWatchedJournal(layoutOf(this.ctx), path);
    } catch {
      // The layout refuses the path or the settings (an unsafe agent name): nothing to watch.
      watched = false;
    }
    if (watched) this.timers.touch(path);
  }

  private async run(path: string): Promise<void> {
    const settings = this.ctx.settings();
    const outcome = await extractQuietJournal({
      vault: this.ctx.vault,
      layout: layoutOf(this.ctx),
      settings,
      journalPath: path,
      extractor: extractorFor(this.ctx, settings),
      autoApply: settings.watch.autoApply,
    });
    if (outcome.kind === "queued" && outcome.written)
      new Notice(
        `${noteName(path)}: ${outcome.items} item(s) wait for review in the tracker panel's To review tab.`,
      );
    else if (outcome.kind === "applied" && outcome.writes.length > 0)
      new Notice(`${noteName(path)} extracted: wrote ${outcome.writes.length} note(s).`);
  }
}
