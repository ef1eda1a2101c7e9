/** `list_trackers` (docs/mcp.md, "Tools"): tracker items by kind and status, of this agent or another. */
import { z } from "zod";
import { TRACKER_KINDS } from "../../core/settings";
import { checkboxOf } from "../../core/trackers/format";
import { LIST_STATUSES, listTrackerItems } from "../../core/trackers/list";
import { today as todayOf } from "../../core/util/dates";
import { READ, defineTool } from "./common";

export const listTrackers = defineTool({
  name: "list_trackers",
  title: "List tracker items",
  description:
    "List tracker items (tasks, goals, reviews, proposals, questions, decisions) of this agent or another.",
  input: {
    kind: z.enum(TRACKER_KINDS).optional().describe("one tracker; default all"),
    status: z.enum(LIST_STATUSES).optional().describe("default open (decisions: all)"),
    agent: z.string().optional().describe("another agent's name; default this agent"),
  },
  hints: READ,
  async run(args, deps) {
    const agent = args.agent?.trim() || deps.access.agent;
    deps.ctx.layout.agentRoot(agent);
    const k = args.kind;
    const status = args.status ?? (k === "decisions" ? "all" : "open");
    const items = await listTrackerItems(deps.ctx.vault, deps.ctx.layout, {
      agents: [agent],
      kinds: k ? [k] : [...TRACKER_KINDS],
      status,
      today: todayOf(deps.now()),
    });
    const lines = items.length
      ? items.map(
          (it) =>
            `${checkboxOf(it.status)} ${it.kind} ^${it.id ?? "-"} ${it.text}${it.due ? ` (due ${it.due}${it.overdue ? ", overdue" : ""})` : ""}${it.reviewDue ? " (review due)" : ""}${it.superseded ? " (superseded)" : ""}`,
        )
      : [`no ${status === "all" ? "" : `${status} `}items`];
    return { text: lines.join("\n"), data: { agent, status, items } };
  },
});
