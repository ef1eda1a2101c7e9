/**
 * The tracker panel's "To review" tab (docs/compaction.md): plans that watch and extract queued for
 * the agent (src/core/watch/review-queue.ts), one per journal, oldest first. Clicking one opens the
 * extraction review of that journal (the review modal, made from the journal as it is now).
 */
import { errorMessage } from "../../core/errors";
import { pendingQueueEntries, reviewQueuePath, type PendingQueueEntry } from "../../core/watch";
import { layoutOf, type PluginContext } from "../context";
import { noteName } from "../../core/markdown/wikilinks";

/** Tab label. */
export const TO_REVIEW_LABEL = "To review";

/** The pending plans of `agent`, or why they cannot be read. */
export interface QueueData {
  path: string;
  entries: PendingQueueEntry[];
  error?: string;
}

/** Reads the agent's review queue; never throws. */
export async function loadQueue(ctx: PluginContext, agent: string): Promise<QueueData> {
  let path = "";
  try {
    const layout = layoutOf(ctx);
    path = reviewQueuePath(layout, agent);
    return { path, entries: await pendingQueueEntries(ctx.vault, layout, agent) };
  } catch (err) {
    return { path, entries: [], error: errorMessage(err) };
  }
}

/** True when `path` is the agent's queue note (the panel re-renders when it changes). */
export function isQueueNote(ctx: PluginContext, agent: string, path: string): boolean {
  try {
    return reviewQueuePath(layoutOf(ctx), agent) === path;
  } catch {
    // The layout refuses the agent name or the settings: no queue note to match.
    return false;
  }
}

/** Lists the pending plans under `root`; `review(journal)` opens one. */
export function renderQueue(
  root: HTMLElement,
  agent: string,
  data: QueueData,
  review: ((journal: string) => void) | null,
): void {
  const list = root.createDiv({ cls: "am-tracker-list am-review-queue" });
  if (data.error) {
    list.createDiv({ cls: "am-error", text: `${data.path}: ${data.error}` });
    return;
  }
  if (data.entries.length === 0) {
    list.createDiv({
      cls: "am-empty",
      text: `Nothing to review for ${agent}: no journal extracted automatically is waiting.`,
    });
    return;
  }
  for (const entry of data.entries) {
    const row = list.createDiv({ cls: "am-tracker-item am-queue-entry" });
    row.dataset.journal = entry.journal;
    const body = row.createDiv({ cls: "am-tracker-body" });
    const name = noteName(entry.journal);
    const link = body.createEl("a", { cls: "am-tracker-text", text: name, href: "#" });
    link.setAttr("aria-label", `Review the extraction of ${entry.journal}`);
    link.addEventListener("click", (evt) => {
      evt.preventDefault();
      review?.(entry.journal);
    });
    const meta = body.createDiv({ cls: "am-tracker-meta" });
    meta.createSpan({
      cls: "am-badge",
      text: `queued ${entry.queued.slice(0, 16).replace("T", " ")}`,
    });
    meta.createSpan({ cls: "am-badge", text: `${entry.items.length} planned` });
    for (const item of entry.items.slice(0, 5))
      body.createDiv({ cls: "am-item-child", text: item });
    if (entry.items.length > 5)
      body.createDiv({ cls: "am-item-child", text: `… and ${entry.items.length - 5} more` });
  }
}
