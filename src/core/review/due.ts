/**
 * Due reviews across agents (docs/architecture.md, "Review loops"), for the tracker panel, the
 * `trackers` CLI and the plugin.
 */
import type { MemoryLayout } from "../layout";
import type { VaultPort } from "../vault";
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
 * first. Throws {@link VaultError} when a tracker cannot be read.
 */
export async function listDueReviews(
  vault: VaultPort,
  layout: MemoryLayout,
  today: IsoDate,
  agent?: string,
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
    for (const review of dueReviews(await vault.read(path), today))
      out.push({ agent: a, path, review });
  }
  return out.sort(
    (x, y) => y.review.daysOverdue - x.review.daysOverdue || (x.path < y.path ? -1 : 1),
  );
}
