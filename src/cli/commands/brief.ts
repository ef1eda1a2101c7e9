/**
 * `agent-memory brief <vault> --agent A [--budget-tokens N] [--query Q] [--date YYYY-MM-DD] [--json]`
 * (docs/agents.md, "The loop"): the session brief of an agent on stdout. Exit 0 done; 2 bad usage
 * (unknown agent, a budget that is not a positive whole number or too small, a query the search
 * refuses).
 */
import type { CliCommand } from "../command";
import { cliBrief, positiveOption } from "../shared";

export const briefCommand: CliCommand = {
  name: "brief",
  usage: "brief <vault> --agent NAME [--budget-tokens N] [--query Q] [--date YYYY-MM-DD] [--json]",
  options: {
    agent: { type: "string" },
    "budget-tokens": { type: "string" },
    query: { type: "string" },
    date: { type: "string" },
  },
  positionals: { min: 0, max: 0 },
  async run(ctx, _args, options) {
    const budgetTokens = positiveOption(options["budget-tokens"], "budget-tokens");
    const brief = await cliBrief(ctx, options, budgetTokens !== undefined ? { budgetTokens } : {});
    if (options.json) ctx.out(JSON.stringify(brief, null, 2));
    else ctx.out(brief.markdown.replace(/\n$/, ""));
    return 0;
  },
};
