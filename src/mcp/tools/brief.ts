/** `brief` (docs/mcp.md, "Tools"): the session brief of the server's agent, cut to a token budget. */
import { z } from "zod";
import { buildBrief, type BriefSearchFn } from "../../core/brief";
import { searchWith } from "../../core/semantic/hybrid";
import { today as todayOf } from "../../core/util/dates";
import { shownVault } from "../../node/vault-arg";
import { READ, defineTool, scopeFor } from "./common";

export const brief = defineTool({
  name: "brief",
  title: "Session brief",
  description:
    "Session brief of this agent: due reviews, open tasks, questions, goals, proposals, recent decisions and relevant knowledge, each linked; cut to budget_tokens, naming what was left out.",
  input: {
    query: z.string().optional().describe("what the session is about, to pick relevant knowledge"),
    budget_tokens: z.number().int().min(100).max(50_000).optional().describe("most tokens"),
  },
  hints: READ,
  async run(args, deps) {
    await deps.live.settled();
    const { ctx, access } = deps;
    const service = deps.live.service;
    // Knowledge comes through the search, held to the scopes this server may see.
    const source = (await deps.semantic?.()) ?? null;
    const search: BriefSearchFn = (q, o) =>
      searchWith(
        service,
        q,
        { ...o, scope: scopeFor(deps, o.scope ?? `agent:${access.agent}`) },
        source,
        ctx.err,
      );
    const b = await buildBrief({
      vault: ctx.vault,
      layout: ctx.layout,
      settings: ctx.settings,
      agent: access.agent,
      today: todayOf(deps.now()),
      ...(args.query !== undefined ? { query: args.query } : {}),
      ...(args.budget_tokens !== undefined ? { budgetTokens: args.budget_tokens } : {}),
      search,
      vaultLabel: shownVault(ctx.vaultArg),
      // The live index follows every note: the agents without listing their folders.
      agents: ctx.layout.agentsIn(deps.live.notePaths()),
    });
    return {
      text: b.markdown,
      data: {
        agent: b.agent,
        today: b.today,
        query: b.query,
        markdown: b.markdown,
        budget: b.budget,
        omitted: b.omitted,
        unreadable: b.unreadable,
      },
    };
  },
});
