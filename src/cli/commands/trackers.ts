import type { CliCommand } from "../command";
import { UsageError } from "../../core/errors";
import { today as todayOf } from "../../core/util/dates";
import { TRACKER_KINDS, type TrackerKind } from "../../core/settings";
import { LIST_STATUSES, listTrackerItems, type ListStatus } from "../../core/trackers/list";
import { checkboxOf } from "../../core/trackers/format";
import { asWikilink, wikilinkDisplayText } from "../../core/markdown/wikilinks";
import { FIELD_KEYS } from "../../core/trackers/fields";
import { listInbox } from "../../core/inbox/inbox";
import { cliActor, printInbox } from "../shared";

const STATUSES = LIST_STATUSES;

/**
 * `agent-memory trackers <vault> [--agent NAME] [--kind …] [--status open|done|abandoned|all] [--json]`
 * (docs/architecture.md, "The CLI contract"). `open` includes items in progress. Reviews whose
 * `next` date has passed are marked due; a superseded entry is marked so, with the id of the one
 * that replaced it. Wikilinks are printed as their alias or note name;
 * `--json` gives the text as written.
 * `--inbox` lists instead what is addressed to `--agent` (or, without it, to the person) and still
 * waits for an answer (docs/inbox.md).
 */
export const trackersCommand: CliCommand = {
  name: "trackers",
  usage:
    "trackers <vault> [--agent NAME] [--kind tasks|goals|reviews|proposals|questions|decisions] [--status open|done|abandoned|all] [--inbox] [--json]",
  options: {
    agent: { type: "string" },
    kind: { type: "string" },
    status: { type: "string" },
    inbox: { type: "boolean" },
  },
  positionals: { min: 0, max: 0 },
  async run(ctx, _args, options) {
    if (options.inbox) {
      if (options.kind !== undefined || options.status !== undefined)
        throw new UsageError(
          "--inbox lists questions and proposals waiting for an answer: leave out --kind and --status",
        );
      const { actor, agents } = await cliActor(ctx, options.agent);
      const items = await listInbox(ctx.vault, ctx.layout, agents, actor);
      if (options.json)
        ctx.out(
          JSON.stringify(
            { person: actor.person, agent: actor.person ? null : actor.name, items },
            null,
            2,
          ),
        );
      else printInbox(ctx, actor, items);
      return 0;
    }
    const kind = options.kind;
    if (kind !== undefined && !(TRACKER_KINDS as readonly unknown[]).includes(kind)) {
      throw new UsageError(`--kind must be one of ${TRACKER_KINDS.join(", ")}`);
    }
    // The decision log's entries are closed when written, so "open" would always list none.
    const status = (options.status ?? (kind === "decisions" ? "all" : "open")) as string;
    if (!(STATUSES as readonly string[]).includes(status))
      throw new UsageError(`--status must be one of ${STATUSES.join(", ")}`);
    const files = await ctx.vault.list(ctx.layout.agentsRoot);
    const known = ctx.layout.agentsIn(files.map((f) => f.path));
    if (typeof options.agent === "string" && !known.includes(options.agent)) {
      throw new UsageError(
        `unknown agent "${options.agent}" (known: ${known.join(", ") || "none"})`,
        options.agent,
      );
    }
    const agents = typeof options.agent === "string" ? [options.agent] : known;
    const kinds = kind ? [kind as TrackerKind] : [...TRACKER_KINDS];
    const items = await listTrackerItems(ctx.vault, ctx.layout, {
      agents,
      kinds,
      status: status as ListStatus,
      today: todayOf(Date.now()),
    });
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
      const mark = checkboxOf(it.status);
      const successor = asWikilink(it.fields[FIELD_KEYS.supersededBy])?.blockId;
      const extra = [
        it.superseded ? `SUPERSEDED${successor ? ` by ${successor}` : ""}` : "",
        it.owner ? `owner ${it.owner}` : "",
        it.due ? `${it.overdue ? "OVERDUE, " : ""}due ${it.due}` : "",
        it.reviewDue ? "REVIEW DUE" : "",
        it.latestProgress ? `latest: ${it.latestProgress}` : "",
      ]
        .filter(Boolean)
        .join("; ");
      // Links as Obsidian shows them, not their markup
      // (test/cli/cli.process.test.ts, "trackers shows links as Obsidian does …"); --json keeps the text as
      // written.
      ctx.out(
        `  ${mark} ${(it.id ?? "").padEnd(6)} ${wikilinkDisplayText(it.text)}${extra ? `  (${wikilinkDisplayText(extra)})` : ""}`,
      );
    }
    return 0;
  },
};
