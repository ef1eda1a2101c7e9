import type { CliCommand } from "../command";
import { UsageError } from "../../core/errors";
import { today as todayOf } from "../../core/dates";
import { TRACKER_KINDS, type TrackerKind } from "../../core/settings";
import { listItems } from "../../core/trackers/format";
import { dueReviews } from "../../core/trackers/reviews";

const STATUSES = ["open", "done", "abandoned", "all"] as const;

/** One tracker item as `trackers --json` prints it. */
interface ListedItem {
  agent: string;
  kind: TrackerKind;
  id: string | null;
  status: string;
  text: string;
  fields: Record<string, string>;
  due?: string;
  /** Reviews whose `next` date has passed (issue 6 §4). */
  reviewDue?: boolean;
  /** Open items whose `due` date has passed. */
  overdue?: boolean;
  latestProgress?: string;
  path: string;
  line: number;
}

/**
 * `agent-memory trackers <vault> [--agent NAME] [--kind …] [--status open|done|abandoned|all] [--json]`
 * (DESIGN §7). `open` includes items in progress. Reviews whose `next` date has passed are marked due.
 */
export const trackersCommand: CliCommand = {
  name: "trackers",
  usage: "trackers <vault> [--agent NAME] [--kind tasks|goals|reviews|proposals|questions|decisions] [--status open|done|abandoned|all] [--json]",
  options: { agent: { type: "string" }, kind: { type: "string" }, status: { type: "string" } },
  positionals: { min: 0, max: 0 },
  async run(ctx, _args, options) {
    const kind = options.kind;
    if (kind !== undefined && !(TRACKER_KINDS as readonly unknown[]).includes(kind)) {
      throw new UsageError(`--kind must be one of ${TRACKER_KINDS.join(", ")}`);
    }
    // The decision log's entries are closed when written, so "open" would always list none.
    const status = (options.status ?? (kind === "decisions" ? "all" : "open")) as string;
    if (!(STATUSES as readonly string[]).includes(status)) throw new UsageError(`--status must be one of ${STATUSES.join(", ")}`);
    const files = await ctx.vault.list(ctx.layout.agentsRoot);
    const known = ctx.layout.agentsIn(files.map((f) => f.path));
    if (typeof options.agent === "string" && !known.includes(options.agent)) {
      throw new UsageError(`unknown agent "${options.agent}" (known: ${known.join(", ") || "none"})`, options.agent);
    }
    const agents = typeof options.agent === "string" ? [options.agent] : known;
    const kinds = kind ? [kind as TrackerKind] : [...TRACKER_KINDS];
    const today = todayOf(Date.now());
    const items: ListedItem[] = [];
    for (const agent of agents) {
      for (const k of kinds) {
        const path = ctx.layout.trackerPath(agent, k);
        if (!(await ctx.vault.exists(path))) continue;
        const text = await ctx.vault.read(path);
        const dueLines = new Set(k === "reviews" ? dueReviews(text, today).map((r) => r.line) : []);
        for (const it of listItems(text)) {
          const state = it.status === "in-progress" ? "open" : it.status;
          if (status !== "all" && state !== status) continue;
          const fields = Object.fromEntries(it.fields.map((f) => [f.key, f.value]));
          const progress = it.children.map((c) => c.trim()).filter((c) => /^[-*]\s*\d{4}-\d{2}-\d{2}/.test(c)).pop();
          items.push({
            agent,
            kind: k,
            id: it.id,
            status: it.status,
            text: it.text,
            fields,
            ...(fields.due ? { due: fields.due, overdue: state === "open" && fields.due < today } : {}),
            ...(k === "reviews" ? { reviewDue: dueLines.has(it.line) } : {}),
            ...(progress ? { latestProgress: progress.replace(/^[-*]\s*/, "") } : {}),
            path,
            line: it.line + 1,
          });
        }
      }
    }
    if (options.json) {
      ctx.out(JSON.stringify({ agents, status, items }, null, 2));
      return 0;
    }
    if (items.length === 0) ctx.out(`no ${status === "all" ? "" : `${status} `}tracker items`);
    let heading = "";
    for (const it of items) {
      const h = `${it.agent} · ${it.kind}`;
      if (h !== heading) {
        ctx.out(`${heading ? "\n" : ""}${h}`);
        heading = h;
      }
      const mark = { open: "[ ]", "in-progress": "[/]", done: "[x]", abandoned: "[-]" }[it.status] ?? "[?]";
      const extra = [it.due ? `${it.overdue ? "OVERDUE, " : ""}due ${it.due}` : "", it.reviewDue ? "REVIEW DUE" : "", it.latestProgress ? `latest: ${it.latestProgress}` : ""].filter(Boolean).join("; ");
      ctx.out(`  ${mark} ${(it.id ?? "").padEnd(6)} ${it.text}${extra ? `  (${extra})` : ""}`);
    }
    return 0;
  },
};
