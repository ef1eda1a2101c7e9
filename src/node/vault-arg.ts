/**
 * The vault folder a command line names (docs/agents.md, "Claude Code: the plugin"). One home for
 * every host: the CLI's commands, the hooks and the MCP server (through `openVault`, src/node/context.ts)
 * and the launcher (dist/cli.js, src/cli/launcher.ts), which must stay small: only `node:*` here.
 */
import { homedir } from "node:os";
import * as nodePath from "node:path";

/**
 * The absolute path of vault argument `vaultArg`: `~` alone or followed by `/` (or `\` on Windows)
 * is the home folder, as a shell expands it, because `AGENT_MEMORY_VAULT=~/vault` set where no
 * shell expands it (Claude Code's `env` setting, `.mcp.json`) arrives as the literal `~/vault`;
 * anything else is resolved against `cwd`. `~user` is not expanded (resolved against `cwd` as it
 * is). `home` defaults to `os.homedir()`. Never throws; the folder need not exist.
 */
export function resolveVaultArg(vaultArg: string, cwd: string, home: string = homedir()): string {
  if (vaultArg === "~") return nodePath.resolve(home);
  const sep = vaultArg[1];
  if (vaultArg.startsWith("~") && (sep === "/" || (sep === "\\" && nodePath.sep === "\\")))
    return nodePath.resolve(home, vaultArg.slice(2));
  return nodePath.resolve(cwd, vaultArg);
}
