/**
 * The inbox (docs/inbox.md): questions and proposals addressed to someone, as
 * they stand in the sender's tracker (`Trackers/Questions.md`, `Trackers/Proposals.md`), and the
 * verbs that answer them. An answer is written under the sender's item (`addAnswer`) and the
 * item's state changes in its `[state:: …]` field ({@link STATE_KEY}) and its checkbox:
 *
 * | verb      | line written            | state      | checkbox |
 * |-----------|-------------------------|------------|----------|
 * | `answer`  | `Answer (by, date): …`  | `answered` | done     |
 * | `comment` | `Comment (by, date): …` | unchanged  | unchanged|
 * | `accept`  | `Accepted (by, date): …` when a note is given | `accepted` | done |
 * | `decline` | `Declined (by, date): …` when a note is given | `declined` | abandoned |
 *
 * Who may: an agent only on items addressed to it in another agent's tracker, and never `accept`
 * a proposal (nor anything of its own); a person (the CLI without `--agent`, the plugin) on any
 * item. The person's address is the settings' default agent (`me`), so `[to:: [[me]]]` is the
 * person's inbox, which also holds every open proposal still waiting for approval.
 */
import type { MemoryLayout } from "../layout";
import type { VaultPort } from "../vault";
import { addAnswer } from "../trackers/answers";
import { FIELD_KEYS, OLD_STATE_KEY, STATE_KEY, fieldValue, itemState } from "../trackers/fields";
import { listItems, type TrackerItem } from "../trackers/format";
import { findItem, setItemField, setItemStatus, type EditResult } from "../trackers/store";
import { err, ok } from "../util/result";
import { AREA_KEY, PROMOTED_TO_KEY, PROMOTE_KEY } from "../library/promote";
import { addressedTo, recipients } from "./address";
import { isOpenStatus } from "../trackers/status";
import { formatWikilink } from "../markdown/wikilinks";
import { isItemIdOf } from "../util/ids";

/** Tracker kinds an inbox holds. */
export const INBOX_KINDS = ["questions", "proposals"] as const;
export type InboxKind = (typeof INBOX_KINDS)[number];

/** What the addressee or a person may do with an inbox item. */
export const INBOX_VERBS = ["answer", "comment", "accept", "decline"] as const;
export type InboxVerb = (typeof INBOX_VERBS)[number];

/** States after which an item leaves the inbox. */
export const FINAL_STATES = ["answered", "accepted", "declined"] as const;

/**
 * Who acts: a person (`person: true`; `name` is how answers are signed, the person's address) or
 * an agent (`name` is the agent; the MCP server's `--agent`, the CLI's `--agent`).
 */
export interface Actor {
  person: boolean;
  name: string;
}

/** One item of an inbox. */
export interface InboxItem {
  /** The agent whose tracker holds the item (the sender). */
  from: string;
  kind: InboxKind;
  id: string;
  text: string;
  /** Names in `[to:: …]`. */
  to: string[];
  /** `[state:: …]`, else `proposed` for a proposal and `open` for a question. */
  state: string;
  /** Vault path of the sender's tracker note. */
  path: string;
  /** 1-based line of the item. */
  line: number;
  /** `[[path#^id]]`. */
  link: string;
  /** For a promotion proposal: the wikilink to promote and the library area. */
  promotion: { source: string; area: string } | null;
  /** Lines already under the item (answers, comments), without indentation and bullet. */
  replies: string[];
}

/** The state an item is in, by {@link itemState}, else the default of its kind. */
export function inboxState(item: Pick<TrackerItem, "fields">, kind: InboxKind): string {
  return (itemState(item.fields) ?? (kind === "proposals" ? "proposed" : "open"))
    .trim()
    .toLowerCase();
}

function isFinal(state: string): boolean {
  return (FINAL_STATES as readonly string[]).includes(state);
}

function isOpen(item: TrackerItem): boolean {
  return isOpenStatus(item.status);
}

/**
 * The inbox of `who`: for an agent, the open questions and proposals of other agents whose
 * `[to:: …]` names it; for the person (`who.person`), those naming the person's address
 * (`who.name`) in any agent's tracker, and every open proposal not yet accepted or declined.
 * Items already answered, accepted or declined, closed, or without a block id are left out.
 * Ordered by sender, kind (questions first) and line.
 * @param agents the agents whose trackers are read (e.g. `knownAgents`)
 * @throws whatever `vault.read` throws for a tracker that exists but cannot be read
 */
export async function listInbox(
  vault: Pick<VaultPort, "exists" | "read">,
  layout: MemoryLayout,
  agents: readonly string[],
  who: Actor,
): Promise<InboxItem[]> {
  const out: InboxItem[] = [];
  for (const from of agents) {
    if (!who.person && from.toLowerCase() === who.name.toLowerCase()) continue;
    for (const kind of INBOX_KINDS) {
      const path = layout.trackerPath(from, kind);
      if (!(await vault.exists(path))) continue;
      for (const item of listItems(await vault.read(path))) {
        if (!item.id || !isOpen(item)) continue;
        const state = inboxState(item, kind);
        if (isFinal(state)) continue;
        const to = fieldValue(item.fields, FIELD_KEYS.to);
        const mine = addressedTo(to, who.name) || (who.person && kind === "proposals");
        if (!mine) continue;
        out.push(toInboxItem(from, kind, path, item, item.id, state));
      }
    }
  }
  return out;
}

function toInboxItem(
  from: string,
  kind: InboxKind,
  path: string,
  item: TrackerItem,
  id: string,
  state: string,
): InboxItem {
  const source = fieldValue(item.fields, PROMOTE_KEY);
  const area = fieldValue(item.fields, AREA_KEY);
  return {
    from,
    kind,
    id,
    text: item.text,
    to: recipients(fieldValue(item.fields, FIELD_KEYS.to)),
    state,
    path,
    line: item.line + 1,
    link: formatWikilink({ path, blockId: id }),
    promotion: source ? { source, area: area ?? "" } : null,
    replies: item.children.map((c) => c.trim().replace(/^[-*+][ \t]+/, "")).filter((c) => c !== ""),
  };
}

/** The inbox kind of an item id by its prefix (`q-…` questions, `p-…` proposals), or `null`. */
export function inboxKindOf(id: string): InboxKind | null {
  if (isItemIdOf(id, "q")) return "questions";
  if (isItemIdOf(id, "p")) return "proposals";
  return null;
}

/**
 * Why `actor` may not do `verb` on `item` (in `sender`'s tracker of `kind`), or `null` when it may.
 * The one rule of who may answer what (docs/inbox.md, "Who may do what"); every door asks it.
 */
export function refusal(
  item: Pick<TrackerItem, "id" | "fields" | "status">,
  kind: InboxKind,
  sender: string,
  verb: InboxVerb,
  actor: Actor,
  note?: string,
): string | null {
  const ref = `^${item.id ?? "?"} of ${sender}`;
  const own = sender.toLowerCase() === actor.name.toLowerCase();
  if (!actor.person) {
    if (own && verb === "accept")
      return `agent ${actor.name} cannot approve its own ${kind === "proposals" ? "proposal" : "question"} ${ref}; a person approves it (agent-memory inbox <vault> accept without --agent, or the plugin)`;
    if (own) return `${ref} is agent ${actor.name}'s own item, not in its inbox`;
    if (!addressedTo(fieldValue(item.fields, FIELD_KEYS.to), actor.name))
      return `${ref} is not addressed to ${actor.name} (its [to:: …] names ${recipients(fieldValue(item.fields, FIELD_KEYS.to)).join(", ") || "nobody"})`;
    if (verb === "accept" && kind === "proposals")
      return `only a person can accept a proposal (${ref}); agent ${actor.name} may comment on it or decline it`;
  }
  if (verb === "answer" && kind === "proposals")
    return `${ref} is a proposal: comment on it, accept it or decline it`;
  if ((verb === "answer" || verb === "comment") && !note?.trim()) return `${verb} needs a text`;
  const state = inboxState(item, kind);
  const target = targetState(verb);
  if (target !== null && isFinal(state) && state !== target) return `${ref} is already ${state}`;
  if (target !== null && item.status === "abandoned" && target !== "declined")
    return `${ref} is abandoned`;
  return null;
}

function targetState(verb: InboxVerb): string | null {
  return verb === "answer"
    ? "answered"
    : verb === "accept"
      ? "accepted"
      : verb === "decline"
        ? "declined"
        : null;
}

const LABEL: Readonly<Record<InboxVerb, string>> = {
  answer: "Answer",
  comment: "Comment",
  accept: "Accepted",
  decline: "Declined",
};

/** What {@link respondToItem} does. */
export interface Response {
  kind: InboxKind;
  sender: string;
  verb: InboxVerb;
  actor: Actor;
  /** The answer, comment or reason; required for `answer` and `comment`. */
  note?: string;
  /** Day of the response, `YYYY-MM-DD`. */
  date: string;
  /** More fields to set on the item (e.g. `promoted_to` on an accepted promotion). */
  fields?: [string, string][];
}

/**
 * Answers item `id` of a sender's tracker note `text` (a pure text operation for
 * `VaultPort.process`): the line under the item, then its state and checkbox (see the table
 * above). Running the same response again changes nothing. `ok: false` with the reason of
 * {@link refusal}, or `found: false` when there is no such item; the text is then unchanged.
 * Throws `FrontmatterError` naming `path` when the note's frontmatter does not parse.
 */
export function respondToItem(
  text: string,
  id: string,
  r: Response,
  path = "tracker note",
): EditResult {
  const item = findItem(text, id);
  if (!item) return err({ found: false, message: `no item ^${id} in ${path}` });
  const why = refusal(item, r.kind, r.sender, r.verb, r.actor, r.note);
  if (why) return err({ found: true, message: why });
  let out = text;
  const note = r.note?.trim();
  if (note) {
    const res = addAnswer(out, id, note, r.actor.name, r.date, path, LABEL[r.verb]);
    if (!res.ok) return err({ found: true, message: `cannot write under ^${id} in ${path}` });
    out = res.value.text;
  }
  const state = targetState(r.verb);
  for (const [key, value] of [
    ...(state ? [[STATE_KEY, state] as [string, string]] : []),
    ...(r.fields ?? []),
  ]) {
    const res = setItemField(out, id, key, value, path);
    if (!res.ok) return err({ found: true, message: res.error.message });
    out = res.value.text;
  }
  if (state) {
    const res = setItemStatus(out, id, state === "declined" ? "abandoned" : "done", path, r.date);
    if (!res.ok) return err({ found: true, message: res.error.message });
    out = res.value.text;
  }
  return ok({ text: out, changed: out !== text });
}

/**
 * Why an agent may not write these on its own tracker item (the MCP server's `add_tracker_item`
 * and `update_tracker_item`), or `null`: a proposal becomes accepted only by a person, so an agent
 * never sets `[state:: accepted]` (nor the old `[status:: accepted]`), `[promoted_to:: …]`, or ticks
 * a proposal done.
 */
export function agentEditRefusal(
  kind: string,
  status: string | undefined,
  fields: readonly [string, string][],
): string | null {
  const person = "only a person accepts a proposal (docs/inbox.md)";
  for (const [key, value] of fields) {
    const k = key.trim().toLowerCase();
    if ((k === STATE_KEY || k === OLD_STATE_KEY) && /^(accepted|approved)$/i.test(value.trim()))
      return `an agent cannot set ${key} to ${value}: ${person}`;
    if (k === PROMOTED_TO_KEY)
      return `an agent cannot write ${key}: ${person}, and a promotion is written by accepting it`;
  }
  if (kind === "proposals" && status === "done")
    return `an agent cannot mark a proposal done: ${person}`;
  return null;
}
