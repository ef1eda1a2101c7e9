/**
 * "Promote to library" (docs/inbox.md): a person promotes the active note, or
 * one of its callouts (`note#^block` in the source field), to `<library>/<area>/`. The modal
 * first shows the plan — source, destination, what the source gets and every line that will be
 * written (`promotionPlanLines`, as the CLI prints it) — and writes only after "Promote".
 * An isolated zone, a bad area or a missing callout is refused in the modal; nothing is written.
 */
import { Modal, Notice, type App } from "obsidian";
import { localTimestamp } from "../../core/util/dates";
import { errorMessage } from "../../core/errors";
import {
  applyPromotion,
  planPromotion,
  promotionPlanLines,
  type PromotionPlan,
} from "../../core/library/promote";
import { layoutOf, type PluginContext } from "../context";

export class PromoteModal extends Modal {
  /** The plan shown, once "Review" found one (tests read it). */
  plan: PromotionPlan | null = null;
  /** Settles when the last action (review or promote) has finished. */
  pending: Promise<void> = Promise.resolve();

  constructor(
    app: App,
    private readonly ctx: PluginContext,
    private readonly source: string,
    private readonly now: () => Date = () => new Date(),
  ) {
    super(app);
  }

  override onOpen(): void {
    this.setTitle("Promote to library");
    this.modalEl.addClass("am-promote-modal");
    const el = this.contentEl;
    el.empty();
    const sourceInput = el.createEl("input", {
      cls: "am-promote-source",
      type: "text",
      attr: { "aria-label": "Note or note#^block" },
    });
    sourceInput.value = this.source;
    const areaInput = el.createEl("input", {
      cls: "am-promote-area",
      type: "text",
      attr: { "aria-label": "Library area", placeholder: "Area (a folder of the library)" },
    });
    const planEl = el.createDiv({ cls: "am-promote-plan" });
    const footer = el.createDiv({ cls: "am-review-footer" });
    footer.createEl("button", { text: "Cancel" }).addEventListener("click", () => this.close());
    const review = footer.createEl("button", { cls: "am-promote-review", text: "Review" });
    const promote = footer.createEl("button", {
      cls: "mod-cta am-promote-confirm",
      text: "Promote",
    });
    promote.disabled = true;
    review.addEventListener("click", () => {
      this.pending = this.review(sourceInput.value, areaInput.value, planEl, promote);
    });
    promote.addEventListener("click", () => {
      this.pending = this.promote(planEl);
    });
  }

  private async review(
    source: string,
    area: string,
    planEl: HTMLElement,
    promote: HTMLButtonElement,
  ): Promise<void> {
    planEl.empty();
    this.plan = null;
    promote.disabled = true;
    try {
      const now = this.now();
      this.plan = await planPromotion(this.ctx.vault, layoutOf(this.ctx), {
        target: source,
        area,
        date: this.ctx.today(),
        timestamp: localTimestamp(now),
      });
      planEl.createEl("pre", {
        cls: "am-promote-lines",
        text: promotionPlanLines(this.plan).join("\n"),
      });
      promote.disabled = false;
    } catch (err) {
      planEl.createDiv({ cls: "am-error", text: `Cannot promote: ${errorMessage(err)}` });
    }
  }

  private async promote(planEl: HTMLElement): Promise<void> {
    const plan = this.plan;
    if (!plan) return;
    try {
      const writes = await applyPromotion(this.ctx.vault, plan, localTimestamp(this.now()));
      new Notice(
        writes.length > 0
          ? `Promoted to ${plan.destination}.`
          : `Already in the library: ${plan.destination}.`,
      );
      this.close();
    } catch (err) {
      planEl.createDiv({ cls: "am-error", text: `Promotion failed: ${errorMessage(err)}` });
    }
  }

  override onClose(): void {
    this.contentEl.empty();
  }
}
