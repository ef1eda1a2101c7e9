import type { CliCommand } from "../command";
import { today } from "../../core/util/dates";
import { initAgent } from "../../core/init";
import { describeGitSetup, isGitWorkTree, setupGit } from "../git";

/**
 * `agent-memory init <vault> [--agent NAME]…` (docs/architecture.md, "The CLI contract"): creates
 * each named agent's six tracker notes and today's journal when missing (the default agent when
 * none is named), the library folder's index note, and, when the vault is in a git work tree,
 * what `git setup` writes (a `.gitignore` that keeps the per-clone state folder `.agent-memory/`
 * out of git, `.gitattributes`, the merge driver in the clone's config; docs/sync.md, "Git"),
 * each said in one line; outside git, one line says that none was written. Never overwrites a
 * note; an existing `.gitignore` keeps its lines byte for byte and gains only what is missing.
 */
export const initCommand: CliCommand = {
  name: "init",
  usage: "init <vault> [--agent NAME]... [--json]",
  options: { agent: { type: "string", multiple: true } },
  positionals: { min: 0, max: 0 },
  async run(ctx, _args, options) {
    const named = Array.isArray(options.agent)
      ? options.agent
      : typeof options.agent === "string"
        ? [options.agent]
        : [];
    const agents = named.length ? [...new Set(named)] : [ctx.settings.defaultAgent];
    // Every name is checked before anything is written: a bad second agent leaves the vault as it was.
    for (const agent of agents) ctx.layout.trackerPath(agent, "tasks");
    const date = today(Date.now());
    const created: string[] = [];
    const byAgent: { agent: string; created: string[] }[] = [];
    for (const agent of agents) {
      const made = await initAgent(ctx.vault, ctx.layout, agent, date);
      byAgent.push({ agent, created: made });
      created.push(...made);
    }
    // Only a vault in a git work tree gets the git files (`.gitignore` keeping `.agent-memory/`
    // out, `.gitattributes`) and the merge driver (docs/sync.md, "Git"); any other is told how
    // to add them once it is one.
    let gitLines: string[];
    if (isGitWorkTree(ctx.vaultRoot, process.env)) {
      const git = await setupGit(ctx, process.env);
      created.push(...git.written);
      gitLines = describeGitSetup(git, ctx.vaultRoot);
    } else
      gitLines = [
        `not in a git repository: no .gitignore or .gitattributes written (run \`agent-memory git setup ${ctx.vaultRoot}\` once it is)`,
      ];
    if (options.json) {
      const agent = agents[0] ?? ctx.settings.defaultAgent;
      ctx.out(JSON.stringify({ agent, agents, created }, null, 2));
    } else {
      for (const { agent, created: made } of byAgent) {
        ctx.out(`agent "${agent}" in ${ctx.vaultRoot}`);
        ctx.out(
          made.length
            ? made.map((p) => `  created ${p}`).join("\n")
            : "  everything was already there; nothing written",
        );
      }
      for (const line of gitLines) ctx.out(`  ${line}`);
    }
    return 0;
  },
};
