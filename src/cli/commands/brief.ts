/**
 * `agent-memory brief <vault> --agent A [--budget-tokens N] [--query Q] [--date YYYY-MM-DD] [--json]`
 * (docs/agents.md, "The loop"): the session brief of an agent on stdout. Exit 0 done; 2 bad usage
 * (unknown agent, a budget that is not a positive whole number or too small, a query the search
 * refuses).
 */
import type { CliCommand } from "../command";
import type { CliContext } from "../context";
import { requireMemoryRoot } from "../context";
import { UsageError } from "../../core/errors";
import { buildBrief, type Brief } from "../../core/brief";
import { openSearch } from "./search";
import { todayOption } from "./health";

/** A positive whole number option, or `undefined` when not given. Throws {@link UsageError}. */
export function positiveOption(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || !/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`--${name} must be a positive whole number`);
  return Number(value);
}

/** The `--agent` option, checked against the agents of the vault. Throws {@link UsageError}. */
export async function agentOption(ctx: CliContext, value: unknown): Promise<string> {
  if (typeof value !== "string" || value.trim() === "") throw new UsageError("--agent NAME is required");
  const known = ctx.layout.agentsIn((await ctx.vault.list(ctx.layout.agentsRoot)).map((f) => f.path));
  if (!known.includes(value)) throw new UsageError(`unknown agent "${value}" (known: ${known.join(", ") || "none"})`, value);
  return value;
}

/**
 * The brief of the CLI's options: trackers and reviews of the vault, knowledge through the CLI's
 * search index (`openSearch`: the saved index, re-indexed where notes changed).
 */
export async function cliBrief(
  ctx: CliContext,
  options: Record<string, string | boolean | string[] | undefined>,
  budget: { budgetTokens?: number; budgetBytes?: number; header?: string[] },
): Promise<Brief> {
  await requireMemoryRoot(ctx);
  const agent = await agentOption(ctx, options.agent);
  const today = todayOption(options.date);
  const { service } = await openSearch(ctx);
  return buildBrief({
    vault: ctx.vault,
    layout: ctx.layout,
    settings: ctx.settings,
    agent,
    today,
    ...(typeof options.query === "string" ? { query: options.query } : {}),
    search: service,
    vaultLabel: ctx.vaultArg,
    ...budget,
  });
}

export const briefCommand: CliCommand = {
  name: "brief",
  usage: "brief <vault> --agent NAME [--budget-tokens N] [--query Q] [--date YYYY-MM-DD] [--json]",
  options: { agent: { type: "string" }, "budget-tokens": { type: "string" }, query: { type: "string" }, date: { type: "string" } },
  positionals: { min: 0, max: 0 },
  async run(ctx, _args, options) {
    const budgetTokens = positiveOption(options["budget-tokens"], "budget-tokens");
    const brief = await cliBrief(ctx, options, budgetTokens !== undefined ? { budgetTokens } : {});
    if (options.json) ctx.out(JSON.stringify(brief, null, 2));
    else ctx.out(brief.markdown.replace(/\n$/, ""));
    return 0;
  },
};
