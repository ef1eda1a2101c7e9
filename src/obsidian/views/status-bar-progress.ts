/**
 * The status bar item showing index progress (docs/plugin.md, "Search panel"): "Indexing memory
 * 200/734" while the index is built, then the note count for a few seconds. The status bar does not
 * exist on mobile, where the element is simply never shown.
 */

/** How long the final message stays, milliseconds. */
const DONE_MS = 6000;

export class StatusBarProgress {
  private hideTimer: number | null = null;

  constructor(private readonly el: HTMLElement) {
    el.addClass("am-status-bar");
    el.hide();
  }

  /** Shows work in progress; `total` 0 shows the label alone. */
  working(label: string, done: number, total: number): void {
    this.clearTimer();
    this.el.addClass("is-working");
    this.el.setText(total > 0 ? `${label} ${done}/${total}` : label);
    this.el.setAttr("aria-label", total > 0 ? `${label}: ${done} of ${total} notes` : label);
    this.el.show();
  }

  /** Shows a final message, then hides the item. */
  finished(message: string): void {
    this.clearTimer();
    this.el.removeClass("is-working");
    this.el.setText(message);
    this.el.show();
    this.hideTimer = window.setTimeout(() => {
      this.hideTimer = null;
      this.el.hide();
    }, DONE_MS);
  }

  /** Stops any pending timer (called on unload). */
  dispose(): void {
    this.clearTimer();
  }

  private clearTimer(): void {
    if (this.hideTimer !== null) window.clearTimeout(this.hideTimer);
    this.hideTimer = null;
  }
}
