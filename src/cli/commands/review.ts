/**
 * `agent-memory review <vault> start|done <agent> <review-id> [--date YYYY-MM-DD] [--json]`
 * (issue 6 §4; `<vault>` first as in DESIGN §7). `start` writes the review note for the period since
 * the last review; `done` advances the review's `next` by its `every` and records the day.
 * Exit 0 done; 1 the review was not found or has no usable schedule; 2 bad usage.
 */
import type { CliCommand } from "../command";
import { UsageError } from "../../core/errors";
import { finishReview, startReview } from "../../core/review";
import { todayOption } from "./health";

export const reviewCommand: CliCommand = {
  name: "review",
  usage: "review <vault> start|done <agent> <review-id> [--date YYYY-MM-DD] [--json]",
  options: { date: { type: "string" } },
  positionals: { min: 3, max: 3 },
  async run(ctx, args, options) {
    const [action = "", agent = "", id = ""] = args;
    const today = todayOption(options.date);
    const rid = id.replace(/^\^/, "");
    if (action === "start") {
      const result = await startReview(ctx.vault, ctx.layout, agent, rid, today);
      if (!result.ok) {
        ctx.err(`agent-memory review: ${result.reason}`);
        return 1;
      }
      const m = result.material;
      if (options.json) {
        ctx.out(
          JSON.stringify(
            {
              action: "start",
              agent,
              review: rid,
              path: result.path,
              created: result.created,
              period: m.period,
              counts: { journals: m.journals.length, knowledge: m.knowledge.length, tasks: m.tasks.length, goals: m.goals.length, decisions: m.decisions.length },
            },
            null,
            2,
          ),
        );
      } else {
        ctx.out(`${result.created ? "created" : "already there, left as it is"}: ${result.path}`);
        ctx.out(
          `period ${m.period.start} to ${m.period.end}: ${m.journals.length} journals, ${m.knowledge.length} knowledge notes updated, ` +
            `${m.tasks.length} open tasks, ${m.goals.length} goals, ${m.decisions.length} decisions`,
        );
      }
      return 0;
    }
    if (action === "done") {
      const result = await finishReview(ctx.vault, ctx.layout, agent, rid, today);
      if (!result.ok) {
        ctx.err(`agent-memory review: ${result.reason}`);
        return 1;
      }
      if (result.notice) ctx.err(`warning: ${result.notice}`);
      if (options.json) {
        ctx.out(JSON.stringify({ action: "done", agent, review: rid, path: result.reviewsPath, changed: result.changed, previous: result.previous, next: result.next, note: result.note }, null, 2));
      } else if (!result.changed) {
        ctx.out(`^${rid} was already done on ${today}; next review ${result.next} (${result.reviewsPath} unchanged)`);
      } else {
        ctx.out(`^${rid} done on ${today}; next review ${result.next} (was ${result.previous}) in ${result.reviewsPath}`);
        if (result.note) ctx.out(`review note marked done: ${result.note}`);
      }
      return 0;
    }
    throw new UsageError(`review: the action must be "start" or "done", got ${JSON.stringify(action)}`);
  },
};
