/**
 * A notice that stays while the model works, with a Cancel button
 * (docs/plugin.md, "An extraction run"). Cancelling aborts the run's `AbortSignal`; the run then
 * writes nothing (a plan is only data until it is applied).
 */
import { Notice } from "obsidian";

export class ProgressNotice {
  private readonly notice: Notice;
  private readonly messageEl: HTMLElement;
  private readonly controller = new AbortController();

  /** @param message first line shown, e.g. "Extracting from 2026-03-27 with the offline extractor…". */
  constructor(message: string) {
    const fragment = createFragment();
    const box = fragment.createDiv({ cls: "am-progress-notice" });
    this.messageEl = box.createDiv({ cls: "am-progress-message", text: message });
    const cancel = box.createEl("button", { cls: "am-progress-cancel", text: "Cancel" });
    cancel.addEventListener("click", (evt) => {
      // The click would otherwise also dismiss the notice before it can say "Cancelling…".
      evt.stopPropagation();
      this.cancel();
    });
    this.notice = new Notice(fragment, 0);
  }

  /** Aborted when the person presses Cancel. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get cancelled(): boolean {
    return this.controller.signal.aborted;
  }

  /** Replaces the message line. */
  update(message: string): void {
    this.messageEl.setText(message);
  }

  /** Same as pressing Cancel. */
  cancel(): void {
    if (this.cancelled) return;
    this.controller.abort(new DOMException("Extraction cancelled", "AbortError"));
    this.update("Cancelling…");
  }

  hide(): void {
    this.notice.hide();
  }
}

/**
 * Resolves with `work`'s value, or rejects with the signal's reason as soon as it is aborted (the
 * work itself may go on in the background; its result is then ignored).
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted)
    return Promise.reject(signal.reason instanceof Error ? signal.reason : new Error("aborted"));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void =>
      reject(signal.reason instanceof Error ? signal.reason : new Error("aborted"));
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

/** A macrotask yield, so Obsidian can paint and see a Cancel between the chunks of long work. */
export function yieldToUi(): Promise<void> {
  return new Promise((resolve) => window.setTimeout(resolve, 0));
}
