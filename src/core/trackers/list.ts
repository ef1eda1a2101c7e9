/**
 * Tracker items as `agent-memory trackers --json` and the MCP server's `list_trackers` give them
 * (docs/architecture.md, "The CLI contract"; docs/mcp.md, "Tools"): one home for what "open",
 * "overdue", "review due", "superseded" and "latest progress" mean in a listing.
 */
import type { MemoryLayout } from "../layout";
import type { TrackerKind } from "../settings";
import type { VaultPort } from "../vault";
import { listItems } from "./format";
import { isOpenStatus, isOverdue, latestProgressText } from "./status";
import { FIELD_KEYS, fieldRecord, fieldValue, isSuperseded, namesIn } from "./fields";
import { dueReviews, isReviewItem, readSchedule } from "./reviews";

/** Statuses a listing can filter on: `open` includes items in progress. */
export const LIST_STATUSES = ["open", "done", "abandoned", "all"] as const;
export type ListStatus = (typeof LIST_STATUSES)[number];

/** One tracker item in a listing. */
export interface ListedItem {
  agent: string;
  kind: TrackerKind;
  /** Block id without `^` (`t-006`), or `null` for an item written without one. */
  id: string | null;
  /** `open`, `in-progress`, `done` or `abandoned` (a review loop ticked done is open: its round is done). */
  status: string;
  text: string;
  /**
   * Inline fields by key (`due`, `created`, `source`…); a key written twice gives its last value
   * (docs/decisions.md, "Tracker line order follows Tasks' reader").
   */
  fields: Record<string, string>;
  due?: string;
  /** Who does the item, from its `owner` field (names as `namesIn` reads them, joined by `, `), when it has one. */
  owner?: string;
  /** Reviews whose `next` date has passed (docs/architecture.md, "Review loops"). */
  reviewDue?: boolean;
  /** Open items whose `due` date has passed. */
  overdue?: boolean;
  /**
   * Present, `true`, when the item is superseded ({@link isSuperseded}: a `superseded_by` or
   * `valid_to` field; docs/contradictions.md): kept as history, no longer in force.
   */
  superseded?: true;
  /** The latest dated child line (`YYYY-MM-DD: …`) under the item, without its bullet (`latestProgress`). */
  latestProgress?: string;
  /** Vault path of the tracker note. */
  path: string;
  /** 1-based line of the item in the note. */
  line: number;
}

/**
 * Lists the items of the agents' tracker notes of the given kinds, in agent, kind and line order.
 * A missing tracker note lists nothing. `today` (`YYYY-MM-DD`, the user's local date) judges
 * `overdue` and `reviewDue`.
 * @throws whatever `vault.read` throws for a note that exists but cannot be read
 */
export async function listTrackerItems(
  vault: Pick<VaultPort, "exists" | "read">,
  layout: MemoryLayout,
  query: {
    agents: readonly string[];
    kinds: readonly TrackerKind[];
    status: ListStatus;
    today: string;
  },
): Promise<ListedItem[]> {
  const { status, today } = query;
  const items: ListedItem[] = [];
  for (const agent of query.agents) {
    for (const k of query.kinds) {
      const path = layout.trackerPath(agent, k);
      if (!(await vault.exists(path))) continue;
      const text = await vault.read(path);
      const dueLines = new Set(k === "reviews" ? dueReviews(text, today).map((r) => r.line) : []);
      for (const it of listItems(text)) {
        const itemStatus =
          k === "reviews" && isReviewItem(it) ? readSchedule(it).status : it.status;
        const state = isOpenStatus(itemStatus) ? "open" : itemStatus;
        if (status !== "all" && state !== status) continue;
        const fields = fieldRecord(it.fields);
        const progress = latestProgressText(it);
        const owner = namesIn(fieldValue(it.fields, FIELD_KEYS.owner)).join(", ");
        items.push({
          agent,
          kind: k,
          id: it.id,
          status: itemStatus,
          text: it.text,
          fields,
          ...(fields.due
            ? { due: fields.due, overdue: state === "open" && isOverdue(fields.due, today) }
            : {}),
          ...(owner ? { owner } : {}),
          ...(isSuperseded(it.fields) ? { superseded: true as const } : {}),
          ...(k === "reviews" ? { reviewDue: dueLines.has(it.line) } : {}),
          ...(progress ? { latestProgress: progress } : {}),
          path,
          line: it.line + 1,
        });
      }
    }
  }
  return items;
}
