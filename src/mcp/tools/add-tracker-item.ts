/**
 * `add_tracker_item` (docs/mcp.md, "Tools"): a new item on a tracker of the agent. Every argument is
 * checked as the journal's fields are read (docs/mcp.md, "What a write tool refuses") before
 * anything is written; a decision goes through the statement rule (docs/contradictions.md, "The
 * rule"), as extraction's do.
 */
import { z } from "zod";
import { UsageError } from "../../core/errors";
import {
  contradiction,
  findContradiction,
  findRestatement,
  supersessionLabel,
} from "../../core/extraction/contradiction";
import { agentEditRefusal } from "../../core/inbox/inbox";
import { SUPERSEDES_KEY, isSuperseded, supersedeTrackerItem } from "../../core/knowledge/supersede";
import { formatWikilink } from "../../core/markdown/wikilinks";
import { TRACKER_KINDS } from "../../core/settings";
import { PRIORITY_WORDS } from "../../core/trackers/fields";
import { newItemFields } from "../../core/trackers/new-item";
import { listItems } from "../../core/trackers/format";
import { addTrackerItem, findItem } from "../../core/trackers/store";
import {
  checkAddressees,
  checkDate,
  checkFieldValue,
  checkLink,
  checkText,
} from "../../core/trackers/validate";
import { localTimestamp, today as todayOf } from "../../core/util/dates";
import { REPLACE, defineTool, edited, noteLink, valid, write } from "./common";
import { fieldsArg } from "./fields-arg";

export const addTrackerItemTool = defineTool({
  name: "add_tracker_item",
  title: "Add a tracker item",
  description:
    "Add an item to a tracker of this agent; returns its id (t-007…). Never added twice; a changed decision supersedes.",
  input: {
    kind: z.enum(TRACKER_KINDS).describe("the tracker"),
    text: z.string().min(1).describe("one line; no trailing ^id"),
    due: z.string().optional().describe("YYYY-MM-DD (a goal's target)"),
    priority: z.enum(PRIORITY_WORDS).optional(),
    to: z.string().optional().describe("addressee: an agent's name, or several comma-separated"),
    source: z.string().optional().describe("link to where it came from: note or note#^block"),
    fields: fieldsArg,
  },
  output: {
    path: z.string(),
    id: z.string(),
    link: z.string(),
    added: z.boolean(),
    supersedes: z.string().optional(),
  },
  hints: REPLACE,
  async run(args, deps) {
    const { access, ctx } = deps;
    const k = args.kind;
    const text = valid(checkText("text", args.text)).replace(/\s+/g, " ");
    const path = ctx.layout.trackerPath(access.agent, k);
    const day = todayOf(deps.now());
    const fields = newItemFields(k, {
      date: day,
      to: args.to === undefined ? undefined : valid(checkAddressees("to", args.to)),
      due: args.due === undefined ? undefined : valid(checkDate("due", args.due)),
      priority: args.priority,
      source: args.source === undefined ? undefined : valid(checkLink("source", args.source)),
    });
    for (const [key, value] of Object.entries(args.fields ?? {})) {
      const checked = valid(checkFieldValue(key, value));
      if (!fields.some(([k0]) => k0.toLowerCase() === key.toLowerCase()))
        fields.push([key, checked]);
    }
    const refused = agentEditRefusal(k, undefined, fields);
    if (refused) throw new UsageError(refused);
    const {
      result: { id, added, supersedes, reason },
    } = await write<{
      id: string;
      added: boolean;
      supersedes?: string;
      reason?: "polarity" | "value";
    }>(deps, path, (current) => {
      const same = current === null ? null : sameItem(current, text);
      if (same) return { content: current, result: { id: same, added: false } };
      // A restatement of a current decision is not added; a change supersedes the one it changes.
      const against = k === "decisions" && current !== null ? decisionAgainst(current, text) : null;
      if (against?.outcome === "restatement")
        return { content: current, result: { id: against.id, added: false } };
      const old = against?.outcome === "change" ? against.id : undefined;
      const lineFields: [string, string][] = old
        ? [[SUPERSEDES_KEY, formatWikilink({ path, blockId: old })], ...fields]
        : fields;
      const r = addTrackerItem(
        current,
        k,
        { text, status: k === "decisions" ? "done" : "open", fields: lineFields },
        {
          agent: access.agent,
          title: ctx.settings.trackerFiles[k],
          createdAt: localTimestamp(new Date(deps.now())),
        },
        path,
      );
      // A value with unbalanced brackets would end its field early and spill into the text.
      const item = findItem(r.text, r.id);
      if (!item || item.text !== text || item.fields.length !== lineFields.length) {
        throw new UsageError("a value would break the tracker line (unbalanced [ ] or ( ))");
      }
      if (!old) return { content: r.text, result: { id: r.id, added: true } };
      const marked = edited(
        supersedeTrackerItem(r.text, old, formatWikilink({ path, blockId: r.id }), day, path),
        path,
        old,
      );
      return {
        content: marked,
        result: {
          id: r.id,
          added: true,
          supersedes: old,
          ...(against?.reason ? { reason: against.reason } : {}),
        },
      };
    });
    const link = noteLink(path, id);
    const label = supersedes
      ? `, ${supersessionLabel({ id: supersedes, text: "", reason: reason ?? "value" })}`
      : "";
    return {
      text: `${added ? "added" : "already there"}: ^${id} in ${path}${label} ${link}`,
      data: { path, id, link, added, ...(supersedes ? { supersedes } : {}) },
    };
  },
});

/**
 * The current decision of a Decisions tracker that `text` restates or changes by the statement
 * rule (`compareStatements`), or `null`.
 */
function decisionAgainst(
  note: string,
  text: string,
): { outcome: "restatement" | "change"; id: string; reason?: "polarity" | "value" } | null {
  const live = listItems(note).filter(
    (it) => it.id !== null && it.status !== "abandoned" && !isSuperseded(it.fields),
  );
  const same = live[findRestatement(text, live, (it) => it.text)];
  if (same?.id) return { outcome: "restatement", id: same.id };
  const changed = live[findContradiction(text, live, (it) => it.text)];
  if (!changed?.id) return null;
  return {
    outcome: "change",
    id: changed.id,
    reason: contradiction(text, changed.text) ?? "value",
  };
}

/** The id of an item not abandoned whose text is the same (case aside), or `null`. */
function sameItem(text: string, wanted: string): string | null {
  const key = wanted.toLowerCase();
  const found = listItems(text).find(
    (it) => it.id && it.text.toLowerCase() === key && it.status !== "abandoned",
  );
  return found?.id ?? null;
}
