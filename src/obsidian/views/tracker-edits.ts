/**
 * What a tick in the tracker panel writes (docs/plugin.md, "Tracker panel"), through the core's
 * tracker operations and one atomic `VaultPort.process` on the note's current content, touching
 * only the item's line.
 */
import { errorMessage } from "../../core/errors";
import type { TrackerStatus } from "../../core/trackers/format";
import { advanceReview } from "../../core/trackers/reviews";
import { setItemStatus } from "../../core/trackers/store";
import type { VaultPort } from "../../core/vault";

/**
 * Ticks or unticks item `id` of the tracker note at `path`. A review loop (`review: true`, ticked)
 * is advanced: its `next` date moves on by its period and it stays open. Any other item becomes
 * done (ticked, with `[completion:: today]`) or open (unticked, the date removed).
 * @param today `YYYY-MM-DD`, the day a review or an item is recorded as done.
 * @returns a message for the person (what happened, or why nothing was written), or `null`.
 *   Never throws: a write failure is returned as a message naming the note.
 */
export async function tickTrackerItem(
  vault: VaultPort,
  path: string,
  id: string,
  options: { checked: boolean; review: boolean; today: string },
): Promise<string | null> {
  try {
    if (options.review && options.checked) {
      const { result } = await vault.process(path, (current) => {
        if (current === null) return { content: null, result: null };
        const r = advanceReview(current, id, options.today);
        if (!r.ok) return { content: current, result: r.error };
        return { content: r.value.text, result: `Review ${id} done; next on ${r.value.next}.` };
      });
      return result;
    }
    const status: TrackerStatus = options.checked ? "done" : "open";
    const { result } = await vault.process(path, (current) => {
      if (current === null) return { content: null, result: null };
      const r = setItemStatus(current, id, status, path, options.today);
      if (r.ok) return { content: r.value.text, result: null };
      return {
        content: current,
        result: r.error.found ? r.error.message : `No item ^${id} in ${path} any more.`,
      };
    });
    return result;
  } catch (err) {
    return `Could not update ${path}: ${errorMessage(err)}`;
  }
}
