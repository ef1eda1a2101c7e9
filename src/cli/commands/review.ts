/**
 * `agent-memory review <vault> start|done <agent> <review-id> [--date YYYY-MM-DD] [--json]`
 * (docs/architecture.md, "Review loops"; `<vault>` first as in
 * docs/architecture.md, "The CLI contract"). `start` writes the review note for the period since
 * the last review; `done` advances
 * the review's `next` by its `every` and records the day. Exit 0 done; 1 the review's schedule or
 * tracker could not be used; 2 bad usage, including an agent, tracker or review id that does not
 * exist (the one-line reason names it and what exists).
 */
import type { CliCommand } from "../command";
import type { CliContext } from "../../node/context";
import { UsageError } from "../../core/errors";
import { finishReview, startReview } from "../../core/review";
import { listReviews } from "../../core/trackers/reviews";
import { findItem } from "../../core/trackers/store";
import { todayOption } from "../shared";

/** `a, b, c`, or `none`. */
function listOrNone(names: string[]): string {
  return names.length > 0 ? names.join(", ") : "none";
}

/**
 * Checks that `agent` and its review `id` exist before anything is written. A name or id that does
 * not exist is bad input (docs/architecture.md, "The CLI contract", exit 2), so the reason says
 * what was not found and what there is. Throws {@link UsageError}; {@link PathError} for an unsafe
 * agent name.
 */
async function assertReviewExists(ctx: CliContext, agent: string, id: string): Promise<void> {
  const reviewsPath = ctx.layout.trackerPath(agent, "reviews");
  if (!(await ctx.vault.exists(reviewsPath))) {
    const agents = ctx.layout.agentsIn(
      (await ctx.vault.list(ctx.layout.agentsRoot)).map((f) => f.path),
    );
    if (!agents.includes(agent))
      throw new UsageError(`unknown agent "${agent}" (known agents: ${listOrNone(agents)})`, agent);
    throw new UsageError(
      `agent ${agent} has no reviews tracker: ${reviewsPath} not found`,
      reviewsPath,
    );
  }
  const text = await ctx.vault.read(reviewsPath);
  const ids = listReviews(text).flatMap((r) => (r.id ? [`^${r.id}`] : []));
  if (ids.includes(`^${id}`)) return;
  const what = findItem(text, id)
    ? `^${id} in ${reviewsPath} is not a review (no [every:: …] or [next:: …])`
    : `no review ^${id} in ${reviewsPath}`;
  throw new UsageError(`${what} (reviews there: ${listOrNone(ids)})`, reviewsPath);
}

/** `review start`: writes the review note and prints what went into it. */
async function runStart(
  ctx: CliContext,
  agent: string,
  rid: string,
  today: string,
  json: boolean,
): Promise<number> {
  const started = await startReview(ctx.vault, ctx.layout, agent, rid, today);
  if (!started.ok) {
    ctx.err(`agent-memory review: ${started.error}`);
    return 1;
  }
  const result = started.value;
  const m = result.material;
  if (json) {
    ctx.out(
      JSON.stringify(
        {
          action: "start",
          agent,
          review: rid,
          path: result.path,
          created: result.created,
          period: m.period,
          counts: {
            journals: m.journals.length,
            knowledge: m.knowledge.length,
            tasks: m.tasks.length,
            goals: m.goals.length,
            decisions: m.decisions.length,
          },
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

/** `review done`: advances the schedule and prints the next date. */
async function runDone(
  ctx: CliContext,
  agent: string,
  rid: string,
  today: string,
  json: boolean,
): Promise<number> {
  const finished = await finishReview(ctx.vault, ctx.layout, agent, rid, today);
  if (!finished.ok) {
    ctx.err(`agent-memory review: ${finished.error}`);
    return 1;
  }
  const result = finished.value;
  if (result.notice) ctx.err(`warning: ${result.notice}`);
  if (json) {
    ctx.out(
      JSON.stringify(
        {
          action: "done",
          agent,
          review: rid,
          path: result.reviewsPath,
          changed: result.changed,
          previous: result.previous,
          next: result.next,
          note: result.note,
        },
        null,
        2,
      ),
    );
  } else if (!result.changed) {
    ctx.out(
      `^${rid} was already done on ${today}; next review ${result.next} (${result.reviewsPath} unchanged)`,
    );
  } else {
    ctx.out(
      `^${rid} done on ${today}; next review ${result.next} (was ${result.previous}) in ${result.reviewsPath}`,
    );
    if (result.note) ctx.out(`review note marked done: ${result.note}`);
  }
  return 0;
}

export const reviewCommand: CliCommand = {
  name: "review",
  usage: "review <vault> start|done <agent> <review-id> [--date YYYY-MM-DD] [--json]",
  options: { date: { type: "string" } },
  positionals: { min: 3, max: 3 },
  async run(ctx, args, options) {
    const [action = "", agent = "", id = ""] = args;
    if (action !== "start" && action !== "done")
      throw new UsageError(`the action must be "start" or "done", got ${JSON.stringify(action)}`);
    const today = todayOption(options.date);
    const rid = id.replace(/^\^/, "");
    await assertReviewExists(ctx, agent, rid);
    const json = options.json === true;
    return action === "start"
      ? runStart(ctx, agent, rid, today, json)
      : runDone(ctx, agent, rid, today, json);
  },
};
