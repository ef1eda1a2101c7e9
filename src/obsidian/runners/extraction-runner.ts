/**
 * One extraction run in Obsidian (docs/plugin.md, "Ribbon and commands";
 * docs/plugin.md, "An extraction run"): pick the extractor, show a progress notice with Cancel
 * while it works, then the review modal (or apply at once), and a final notice linking the changed
 * notes. All reading, routing and writing is the core's (`planExtraction`, `applyPlan`).
 */
import { Notice, TFile } from "obsidian";
import { errorMessage } from "../../core/errors";
import {
  applyPlan,
  planExtraction,
  type ApplyResult,
  type ExtractionPlan,
} from "../../core/extraction/pipeline";
import type { Extractor } from "../../core/extraction/types";
import { OfflineExtractor } from "../../core/extraction/offline";
import { newJournalNote } from "../../core/journal/append";
import type { Settings } from "../../core/settings";
import { ConfirmModal } from "../modals/confirm-modal";
import { layoutOf, type PluginContext } from "../context";
import { llmConfigured } from "../adapters/llm-host";
import { planCounts } from "../../core/extraction/plan-edits";
import { ProgressNotice, untilAborted, yieldToUi } from "../views/progress-notice";
import { PlanReviewModal } from "../modals/plan-review-modal";
import { todayJournal } from "../adapters/today-journal";
import { noteName } from "../../core/markdown/wikilinks";

/** Builds the extractor for a run; `signal` is aborted when the person cancels. */
export type ExtractorFactory = (settings: Settings, signal: AbortSignal) => Extractor;

/** Name of an extractor as shown to people. */
export function extractorLabel(name: Extractor["name"]): string {
  return name === "offline" ? "the offline extractor" : "the language model";
}

export class ExtractionRunner {
  /** Paths of journals with a run in progress: a second run on the same note waits for the first. */
  private readonly running = new Set<string>();

  constructor(
    private readonly ctx: PluginContext,
    private readonly createExtractor: ExtractorFactory = () => new OfflineExtractor(),
  ) {}

  /** "Extract from current note": the active Markdown note. */
  async extractActiveNote(): Promise<void> {
    const file = this.ctx.app.workspace.getActiveFile();
    if (!(file instanceof TFile) || file.extension !== "md") {
      new Notice("Open a Markdown note to extract from it.");
      return;
    }
    await this.extract(file.path);
  }

  /**
   * "Extract from today's journal" (ribbon and command) for the default agent. When the note does
   * not exist, says where it was expected and offers to create it.
   */
  async extractToday(): Promise<void> {
    const settings = this.ctx.settings();
    const layout = layoutOf(this.ctx);
    let today;
    try {
      today = todayJournal(this.ctx.app, settings, layout, this.ctx.today());
    } catch (err) {
      new Notice(`Cannot find today's journal: ${errorMessage(err)}`);
      return;
    }
    if (today.fallbackReason) {
      new Notice(`Daily notes not used (${today.fallbackReason}); using ${today.path}.`);
    }
    if (!(await this.ctx.vault.exists(today.path))) {
      new ConfirmModal(this.ctx.app, {
        title: "Today's journal does not exist",
        message: [
          `It was expected at ${today.path}.`,
          "Create it now? Write in it, then run the extraction again.",
        ],
        confirmText: "Create journal",
        onConfirm: () => this.createJournal(today.path),
      }).open();
      return;
    }
    await this.extract(today.path, today.source === "layout" ? settings.defaultAgent : undefined);
  }

  /**
   * Creates an empty journal note with frontmatter (docs/architecture.md, "Note formats") and opens
   * it.
   */
  async createJournal(path: string): Promise<void> {
    const settings = this.ctx.settings();
    const date = this.ctx.today();
    const agent = layoutOf(this.ctx).agentOf(path) ?? settings.defaultAgent;
    const text = newJournalNote(agent, date, noteName(path), path);
    try {
      await this.ctx.vault.process(path, (current) => current ?? text);
      await this.ctx.app.workspace.openLinkText(path, "", false);
    } catch (err) {
      new Notice(`Could not create ${path}: ${errorMessage(err)}`);
    }
  }

  /**
   * Extracts from one journal: plan (with a progress notice and Cancel), then review or apply.
   * Never throws; failures end in a notice naming the note and the reason.
   */
  async extract(journalPath: string, agent?: string): Promise<void> {
    if (this.running.has(journalPath)) {
      new Notice(`An extraction from ${noteName(journalPath)} is already running.`);
      return;
    }
    this.running.add(journalPath);
    try {
      const plan = await this.plan(journalPath, agent);
      if (!plan) return;
      if (plan.skipped === "unchanged") {
        new Notice(
          `${noteName(journalPath)} has not changed since its last extraction: nothing new.`,
        );
        return;
      }
      if (this.ctx.settings().reviewMode === "apply" || plan.items.length === 0) {
        await this.apply(plan);
        return;
      }
      new PlanReviewModal(this.ctx.app, {
        plan,
        layout: layoutOf(this.ctx),
        onApply: async (edited) => void (await this.apply(edited, true)),
      }).open();
    } finally {
      this.running.delete(journalPath);
    }
  }

  /** Runs `planExtraction` under a progress notice. Returns `null` when cancelled or failed. */
  private async plan(journalPath: string, agent?: string): Promise<ExtractionPlan | null> {
    const settings = this.ctx.settings();
    const kind = llmConfigured(settings) ? "openai" : "offline";
    const progress = new ProgressNotice(
      `Extracting from ${noteName(journalPath)} with ${extractorLabel(kind)}…`,
    );
    try {
      const extractor = this.createExtractor(settings, progress.signal);
      const work = planExtraction({
        vault: this.ctx.vault,
        settings,
        layout: layoutOf(this.ctx),
        journalPath,
        ...(agent ? { agent } : {}),
        extractor,
        // A long journal is read and planned in slices: the notice's Cancel stops the work itself.
        signal: progress.signal,
        checkpoint: yieldToUi,
      });
      return await untilAborted(work, progress.signal);
    } catch (err) {
      if (progress.cancelled)
        new Notice(`Extraction from ${noteName(journalPath)} cancelled: nothing was written.`);
      else
        new Notice(`Extraction from ${noteName(journalPath)} failed: ${errorMessage(err)}`, 10_000);
      return null;
    } finally {
      progress.hide();
    }
  }

  /**
   * Writes a plan through `applyPlan` and reports the changed notes as links.
   * @param rethrow when true (from the review modal) a failure is thrown so the modal can show it.
   */
  async apply(plan: ExtractionPlan, rethrow = false): Promise<ApplyResult | null> {
    let result: ApplyResult;
    try {
      result = await applyPlan(this.ctx.vault, layoutOf(this.ctx), plan);
    } catch (err) {
      if (rethrow) throw err;
      new Notice(
        `Could not write the items from ${noteName(plan.journal)}: ${errorMessage(err)}`,
        10_000,
      );
      return null;
    }
    new Notice(this.resultMessage(plan, result), 10_000);
    return result;
  }

  /** The final notice: counts, the extractor that ran, and a link per changed note. */
  private resultMessage(plan: ExtractionPlan, result: ApplyResult): DocumentFragment {
    const counts = planCounts(plan);
    const frag = createFragment();
    const box = frag.createDiv({ cls: "am-result-notice" });
    const changed = result.writes.filter((p) => p !== plan.journal);
    const head =
      counts.add + counts.update === 0
        ? `Nothing new in ${noteName(plan.journal)}`
        : `${noteName(plan.journal)}: ${counts.add} new, ${counts.update} updated`;
    box.createDiv({ text: `${head} (${extractorLabel(plan.extractor)}).` });
    if (result.failed.length > 0) {
      box.createDiv({
        cls: "am-result-failed",
        text: `${result.failed.length} not written: ${result.failed[0]?.reason ?? ""}`,
      });
    }
    if (plan.rejected.length > 0)
      box.createDiv({ text: `${plan.rejected.length} rejected as unsupported or invalid.` });
    if (changed.length > 0) {
      const list = box.createEl("ul", { cls: "am-result-links" });
      for (const path of changed) {
        const a = list
          .createEl("li")
          .createEl("a", { text: noteName(path), href: "#", cls: "internal-link" });
        a.addEventListener("click", (evt) => {
          evt.preventDefault();
          void this.ctx.app.workspace.openLinkText(path, "", false);
        });
      }
    }
    return frag;
  }
}
