/**
 * The plan review modal (docs/plugin.md, "An extraction run"): the items of one extraction run by
 * category, each with its destination, evidence (expand), confidence and what applying does; the
 * self-check gate's report and the run's cost on top. Each item can be accepted, edited or dropped,
 * or sent elsewhere; "Apply" hands the edited plan to the caller, which writes it through the
 * core's `applyPlan`.
 */
import { Modal, type App } from "obsidian";
import type { ExtractionPlan } from "../../core/extraction/pipeline";
import { CATEGORIES, CATEGORY_LABELS, type PlannedItem } from "../../core/extraction/types";
import { supersessionLabel } from "../../core/extraction/contradiction";
import type { MemoryLayout } from "../../core/layout";
import {
  currentDestinationKey,
  destinationOptions,
  editPlan,
  type ItemDecision,
} from "../../core/extraction/plan-edits";
import { noteName } from "../../core/markdown/wikilinks";

/** Human names of the gate's checks; unknown names are shown as written. */
const GATE_CHECKS: Readonly<Record<string, string>> = {
  "rich-without-knowledge": "a rich note gave no knowledge",
  "review-without-decision": "a review gave no decision",
  "single-category": "all items fell in one category",
  "below-band": "fewer items than expected for its length",
  "above-band": "far more items than expected",
};

export interface PlanReviewModalOptions {
  plan: ExtractionPlan;
  layout: MemoryLayout;
  /** Writes the edited plan; the modal closes when it resolves. Errors are shown in the modal. */
  onApply: (plan: ExtractionPlan) => Promise<void>;
}

/** Describes what applying a planned item does, e.g. "new" or "adds a source to t-012". */
export function actionLabel(planned: PlannedItem): string {
  switch (planned.action) {
    case "add":
      return "new";
    case "add-source":
      return planned.existingId ? `adds a source to ${planned.existingId}` : "adds a source";
    case "progress":
      return planned.existingId ? `progress on ${planned.existingId}` : "progress note";
    case "skip":
      return "already recorded";
    case "supersede":
      return planned.supersedes ? `new, ${supersessionLabel(planned.supersedes)}` : "new";
  }
}

/** One line about the gate: which checks fired and what the rescan changed. */
export function gateSummary(plan: ExtractionPlan): string {
  const gate = plan.gate;
  if (!gate)
    return plan.extractor === "offline"
      ? "Self-check gate: not used by the offline extractor."
      : "Self-check gate: no report.";
  if (gate.fired.length === 0)
    return `Self-check gate: passed on the first pass (${gate.after} items).`;
  const reasons = gate.fired.map((f) => GATE_CHECKS[f] ?? f).join("; ");
  return `Self-check gate: ${reasons}. Rescan: ${gate.before} → ${gate.after} items, ${gate.categoriesBefore} → ${gate.categoriesAfter} categories.`;
}

/** One line about the run's model calls and cost (docs/architecture.md, "Plan and apply"). */
export function usageSummary(plan: ExtractionPlan): string {
  const u = plan.usage;
  if (u.calls === 0) return `Extractor: ${plan.extractor}, no model calls.`;
  const cost = u.costUsd !== undefined ? `, about $${u.costUsd.toFixed(4)}` : "";
  const secs = (u.wallMs / 1000).toFixed(1);
  return `Extractor: ${plan.extractor}, ${u.calls} call${u.calls === 1 ? "" : "s"}, ${u.promptTokens} + ${u.completionTokens} tokens, ${secs} s${cost}.`;
}

export class PlanReviewModal extends Modal {
  /** The person's decision per item, by index in `plan.items`. */
  readonly decisions: ItemDecision[];
  private applyButton: HTMLButtonElement | null = null;
  private errorEl: HTMLElement | null = null;

  constructor(
    app: App,
    private readonly options: PlanReviewModalOptions,
  ) {
    super(app);
    this.decisions = options.plan.items.map((p) => ({ accept: p.action !== "skip" }));
  }

  override onOpen(): void {
    const { plan } = this.options;
    this.modalEl.addClass("am-review-modal");
    this.setTitle(`Review items from ${noteName(plan.journal)}`);
    const el = this.contentEl;
    el.empty();
    el.addClass("am-review");

    const summary = el.createDiv({ cls: "am-review-summary" });
    summary.createDiv({
      text: `Agent ${plan.agent} · ${plan.items.length} items · ${plan.passes} pass${plan.passes === 1 ? "" : "es"}`,
    });
    summary.createDiv({ cls: "am-review-gate", text: gateSummary(plan) });
    summary.createDiv({ cls: "am-review-usage", text: usageSummary(plan) });
    for (const note of plan.notes) summary.createDiv({ cls: "am-review-note", text: note });

    const list = el.createDiv({ cls: "am-review-list" });
    for (const category of CATEGORIES) {
      const indexes = plan.items
        .map((p, i) => (p.item.category === category ? i : -1))
        .filter((i) => i >= 0);
      if (indexes.length === 0) continue;
      const section = list.createDiv({ cls: `am-review-category am-cat-${category}` });
      section.createEl("h3", { text: `${CATEGORY_LABELS[category]} (${indexes.length})` });
      for (const i of indexes) this.renderItem(section, i);
    }
    if (plan.items.length === 0)
      list.createDiv({ cls: "am-empty", text: "No items were found in this journal." });

    if (plan.rejected.length > 0) {
      const details = el.createEl("details", { cls: "am-review-rejected" });
      details.createEl("summary", { text: `Rejected (${plan.rejected.length})` });
      const ul = details.createEl("ul");
      for (const r of plan.rejected) {
        const li = ul.createEl("li");
        li.createSpan({ cls: "am-rejected-reason", text: r.reason });
        if (r.text) li.createSpan({ cls: "am-rejected-text", text: ` — ${r.text}` });
      }
    }

    this.errorEl = el.createDiv({ cls: "am-review-error" });
    const footer = el.createDiv({ cls: "am-review-footer" });
    const cancel = footer.createEl("button", { text: "Cancel" });
    cancel.addEventListener("click", () => this.close());
    this.applyButton = footer.createEl("button", { cls: "mod-cta am-review-apply" });
    this.applyButton.addEventListener("click", () => void this.apply());
    this.refreshApplyButton();
  }

  override onClose(): void {
    this.contentEl.empty();
  }

  private renderItem(parent: HTMLElement, index: number): void {
    const { plan, layout } = this.options;
    const planned = plan.items[index];
    const decision = this.decisions[index];
    if (!planned || !decision) return;
    const skip = planned.action === "skip";
    const row = parent.createDiv({ cls: "am-review-item" });
    row.dataset.index = String(index);
    row.toggleClass("is-skipped", skip);

    const check = row.createEl("input", { cls: "am-review-accept", type: "checkbox" });
    check.checked = decision.accept;
    check.disabled = skip;
    check.setAttr("aria-label", skip ? "Already recorded" : "Accept this item");
    const body = row.createDiv({ cls: "am-review-body" });
    const text = body.createEl("textarea", { cls: "am-review-text" });
    text.value = planned.item.text;
    text.rows = Math.min(4, Math.max(1, Math.ceil(planned.item.text.length / 70)));
    text.disabled = skip;
    text.addEventListener("input", () => (decision.text = text.value));

    const meta = body.createDiv({ cls: "am-review-meta" });
    meta.createSpan({ cls: `am-badge am-action-${planned.action}`, text: actionLabel(planned) });
    const conf = meta.createSpan({
      cls: "am-badge am-confidence",
      text: `confidence ${planned.item.confidence.toFixed(2)}`,
    });
    conf.toggleClass("is-low", planned.item.confidence < 0.5);
    const select = meta.createEl("select", { cls: "dropdown am-review-destination" });
    select.setAttr("aria-label", "Destination");
    for (const option of destinationOptions(planned, plan, layout)) {
      select.createEl("option", { text: option.label, value: option.key });
    }
    select.value = currentDestinationKey(planned);
    if (select.value !== currentDestinationKey(planned)) {
      // A destination the picker does not offer (e.g. a library topic): show it as is.
      select.createEl("option", {
        text: planned.destination,
        value: currentDestinationKey(planned),
      });
      select.value = currentDestinationKey(planned);
    }
    select.disabled = skip;
    select.addEventListener("change", () => (decision.destination = select.value));
    meta.createSpan({
      cls: "am-review-path",
      text: planned.destination,
      title: planned.destination,
    });

    const evidence = body.createEl("details", { cls: "am-review-evidence" });
    evidence.createEl("summary", { text: "Evidence" });
    evidence.createEl("blockquote", { text: planned.item.evidence });
    if (planned.item.blockId)
      evidence.createDiv({ cls: "am-review-block", text: `Block ^${planned.item.blockId}` });

    check.addEventListener("change", () => {
      decision.accept = check.checked;
      row.toggleClass("is-dropped", !check.checked);
      this.refreshApplyButton();
    });
  }

  private acceptedCount(): number {
    return this.options.plan.items.filter(
      (p, i) => p.action !== "skip" && this.decisions[i]?.accept,
    ).length;
  }

  private refreshApplyButton(): void {
    if (!this.applyButton) return;
    const n = this.acceptedCount();
    this.applyButton.setText(n === 1 ? "Apply 1 item" : `Apply ${n} items`);
  }

  /** Applies the accepted items (the same as pressing "Apply"). */
  async apply(): Promise<void> {
    const { plan, layout, onApply } = this.options;
    const edited = editPlan(plan, this.decisions, layout);
    if (this.applyButton) this.applyButton.disabled = true;
    this.errorEl?.setText("");
    try {
      await onApply(edited);
      this.close();
    } catch (err) {
      this.errorEl?.setText(err instanceof Error ? err.message : String(err));
      if (this.applyButton) this.applyButton.disabled = false;
    }
  }
}
