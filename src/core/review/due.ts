/**
 * Due reviews across agents (docs/architecture.md, "Review loops"), for the tracker panel, the
 * `trackers` CLI and the plugin.
 */
import type { MemoryLayout } from "../layout";
import { readOrLeaveOut, type VaultPort } from "../vault";
import type { UnreadableNote } from "../errors";
import type { IsoDate } from "../util/dates";
import { dueReviews, type DueReview } from "../trackers/reviews";

/** A due review and where it lives. */
export interface AgentDueReview {
  agent: string;
  /** Vault path of the agent's Reviews tracker. */
  path: string;
  review: DueReview;
}

/**
 * Reviews whose `next` date is `today` or earlier, for every agent (or only `agent`), most overdue
 * first. With `unreadable`, a tracker that is not UTF-8 or is a link out of the vault is left out
 * and added to it ({@link readOrLeaveOut}). Throws {@link VaultError} when a tracker cannot be read.
 */
export async function listDueReviews(
  vault: VaultPort,
  layout: MemoryLayout,
  today: IsoDate,
  agent?: string,
  unreadable?: UnreadableNote[],
): Promise<AgentDueReview[]> {
  const agents = agent
    ? [agent]
    : layout.agentsIn((await vault.list(layout.agentsRoot)).map((f) => f.path));
  const out: AgentDueReview[] = [];
  for (const a of agents) {
    let path: string;
    try {
      path = layout.trackerPath(a, "reviews");
    } catch {
      // A folder whose name is not a safe agent name has no trackers of ours (docs/write-safety.md, "Inside the vault").
      continue;
    }
    if (!(await vault.exists(path))) continue;
    const text = unreadable
      ? await readOrLeaveOut(vault, path, unreadable)
      : await vault.read(path);
    if (text === null) continue;
    for (const review of dueReviews(text, today)) out.push({ agent: a, path, review });
  }
  return out.sort(
    (x, y) => y.review.daysOverdue - x.review.daysOverdue || (x.path < y.path ? -1 : 1),
  );
}
