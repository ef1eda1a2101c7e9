import type { CliCommand } from "../command";
import { today } from "../../core/util/dates";
import { initAgent } from "../../core/init";

/**
 * `agent-memory init <vault> [--agent NAME]` (docs/architecture.md, "The CLI contract"): creates
 * the agent's six tracker notes and today's journal when missing, and the library folder's index
 * note. Never overwrites a note.
 */
export const initCommand: CliCommand = {
  name: "init",
  usage: "init <vault> [--agent NAME] [--json]",
  options: { agent: { type: "string" } },
  positionals: { min: 0, max: 0 },
  async run(ctx, _args, options) {
    const agent = typeof options.agent === "string" ? options.agent : ctx.settings.defaultAgent;
    const created = await initAgent(ctx.vault, ctx.layout, agent, today(Date.now()));
    if (options.json) ctx.out(JSON.stringify({ agent, created }, null, 2));
    else {
      ctx.out(`agent "${agent}" in ${ctx.vaultRoot}`);
      ctx.out(
        created.length
          ? created.map((p) => `  created ${p}`).join("\n")
          : "  everything was already there; nothing written",
      );
    }
    return 0;
  },
};
