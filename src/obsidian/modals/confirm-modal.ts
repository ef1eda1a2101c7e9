/**
 * A small yes/no modal, e.g. "Today's journal does not exist. Create it?"
 * (docs/plugin.md, "Ribbon and commands").
 */
import { Modal, type App } from "obsidian";

export interface ConfirmOptions {
  title: string;
  /** Lines of explanation, each its own paragraph. */
  message: string[];
  confirmText: string;
  onConfirm: () => Promise<void> | void;
}

export class ConfirmModal extends Modal {
  constructor(
    app: App,
    private readonly options: ConfirmOptions,
  ) {
    super(app);
  }

  override onOpen(): void {
    this.setTitle(this.options.title);
    this.modalEl.addClass("am-confirm-modal");
    const el = this.contentEl;
    el.empty();
    for (const line of this.options.message) el.createEl("p", { text: line });
    const footer = el.createDiv({ cls: "am-review-footer" });
    footer.createEl("button", { text: "Cancel" }).addEventListener("click", () => this.close());
    const ok = footer.createEl("button", { cls: "mod-cta", text: this.options.confirmText });
    ok.addEventListener("click", () => {
      this.close();
      void this.options.onConfirm();
    });
  }

  override onClose(): void {
    this.contentEl.empty();
  }
}
