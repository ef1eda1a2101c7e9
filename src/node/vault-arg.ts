/**
 * The vault folder a command line names (docs/agents.md, "Claude Code: the plugin"). One home for
 * every host: the CLI's commands, the hooks and the MCP server (through `openVault`, src/node/context.ts)
 * and the launcher (dist/cli.js, src/cli/launcher.ts), which must stay small: only `node:*` here.
 */
import { homedir } from "node:os";
import * as nodePath from "node:path";

/**
 * The vault as what a command prints names it (the brief's "Not shown" commands, a search's hint):
 * the argument as given, with `~` alone or followed by `/` (or `\` on Windows) replaced by the home
 * folder, as a shell expands it, because `AGENT_MEMORY_VAULT=~/vault` set where no shell expands it
 * (Claude Code's `env` setting, `.mcp.json`) arrives as the literal `~/vault`, and the plugin's
 * shell hook (hooks/claude-code-hook.sh) expands it the same way before it asks a server: so a
 * run a server answers prints what the CLI's own run prints (docs/decisions.md, "The vault is shown
 * as given, `~` expanded"). Anything else, a relative path included, is as given; `~user` is not
 * expanded. `home` defaults to `os.homedir()`. Never throws.
 */
export function shownVault(vaultArg: string, home: string = homedir()): string {
  if (vaultArg === "~") return home;
  const sep = vaultArg[1];
  if (vaultArg.startsWith("~") && (sep === "/" || (sep === "\\" && nodePath.sep === "\\")))
    return `${home}${sep}${vaultArg.slice(2)}`;
  return vaultArg;
}

/**
 * The absolute path of vault argument `vaultArg`: {@link shownVault} (`~` is the home folder)
 * resolved against `cwd`. `home` defaults to `os.homedir()`. Never throws; the folder need not exist.
 */
export function resolveVaultArg(vaultArg: string, cwd: string, home: string = homedir()): string {
  return nodePath.resolve(cwd, shownVault(vaultArg, home));
}
