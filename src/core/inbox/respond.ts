/**
 * One door for every inbox verb (the CLI's `inbox`, the MCP server's `answer_inbox_item`, the
 * plugin's inbox tab): finds the item in the sender's tracker, asks the inbox's rule
 * ({@link refusal}) whether the actor may, runs the promotion an accepted promotion proposal asks
 * for, then writes the answer and the new state in one `VaultPort.process` of the tracker.
 */
import { UsageError } from "../errors";
import type { MemoryLayout } from "../layout";
import type { VaultPort } from "../vault";
import { fieldValue } from "../trackers/fields";
import { findItem } from "../trackers/store";
import { applyPromotion, planPromotion } from "../library/promote";
import { AREA_KEY, PROMOTED_TO_KEY, PROMOTE_KEY } from "../library/promote";
import {
  inboxKindOf,
  inboxState,
  refusal,
  respondToItem,
  type Actor,
  type InboxVerb,
} from "./inbox";
import { formatWikilink } from "../markdown/wikilinks";

/** A response to an inbox item. */
export interface InboxAnswerRequest {
  /** The sender: the agent whose tracker holds the item. */
  from: string;
  /** `q-…` (a question) or `p-…` (a proposal), with or without `^`. */
  id: string;
  verb: InboxVerb;
  actor: Actor;
  note?: string;
  /** `YYYY-MM-DD`. */
  date: string;
  /** ISO 8601, for a library note a promotion creates. */
  timestamp: string;
  /** Real vault path of a path (links followed), for the promotion's zone rule. */
  realPath?: (path: string) => string;
}

/** What {@link answerInboxItem} did. */
export interface InboxAnswer {
  path: string;
  id: string;
  link: string;
  /** The item's state afterwards (`answered`, `accepted`, `declined`, or as it was). */
  state: string;
  /** The item's checkbox status afterwards. */
  status: string;
  /** True when the tracker note was written. */
  changed: boolean;
  /** Notes the promotion wrote (an accepted promotion proposal), else empty. */
  promoted: string[];
  /** The library copy, for an accepted promotion proposal. */
  promotedTo?: string;
}

/**
 * Answers, comments on, accepts or declines item `id` of agent `from` (see the verbs of
 * src/core/inbox/inbox.ts). Accepting a proposal with `[promote:: …]` promotes first (a person
 * only; refused for an isolated zone as every promotion is), and writes `[promoted_to:: …]`.
 * Running the same request again changes nothing.
 * @throws UsageError naming the tracker for an unknown id, a missing item, or a verb the actor may
 *   not use (an agent accepting a proposal, or anything of its own); PathError / UsageError of the
 *   promotion; errors of `vault.process` (the guard of the MCP server included)
 */
export async function answerInboxItem(
  vault: VaultPort,
  layout: MemoryLayout,
  req: InboxAnswerRequest,
): Promise<InboxAnswer> {
  const id = req.id.trim().replace(/^\^/, "");
  const kind = inboxKindOf(id);
  if (!kind)
    throw new UsageError(`${req.id} is not a question or proposal id (q-001, p-001)`, req.id);
  const path = layout.trackerPath(req.from, kind);
  if (!(await vault.exists(path)))
    throw new UsageError(`no item ^${id} in ${path} (the tracker does not exist)`, path);
  const item = findItem(await vault.read(path), id);
  if (!item) throw new UsageError(`no item ^${id} in ${path}`, path);
  const why = refusal(item, kind, req.from, req.verb, req.actor, req.note);
  if (why) throw new UsageError(why, path);
  const fields: [string, string][] = [];
  let promoted: string[] = [];
  let promotedTo: string | undefined;
  const target = fieldValue(item.fields, PROMOTE_KEY);
  if (req.verb === "accept" && kind === "proposals" && target) {
    const plan = await planPromotion(vault, layout, {
      target,
      area: fieldValue(item.fields, AREA_KEY) ?? "",
      date: req.date,
      timestamp: req.timestamp,
      ...(req.realPath ? { realPath: req.realPath } : {}),
    });
    promoted = await applyPromotion(vault, plan, req.timestamp);
    promotedTo = plan.destinationLink;
    fields.push([PROMOTED_TO_KEY, plan.destinationLink]);
  }
  const { written: changed, result: after } = await vault.process(path, (current) => {
    if (current === null) throw new UsageError(`${path} is gone`, path);
    const r = respondToItem(
      current,
      id,
      {
        kind,
        sender: req.from,
        verb: req.verb,
        actor: req.actor,
        ...(req.note ? { note: req.note } : {}),
        date: req.date,
        fields,
      },
      path,
    );
    if (!r.ok) throw new UsageError(r.error.message, path);
    return { content: r.value.text, result: findItem(r.value.text, id) ?? item };
  });
  return {
    path,
    id,
    link: formatWikilink({ path, blockId: id }),
    state: inboxState(after, kind),
    status: after.status,
    changed,
    promoted,
    ...(promotedTo ? { promotedTo } : {}),
  };
}
