/**
 * The CLI's usage refusals (docs/architecture.md, "The CLI contract": exit 2 with a one-line
 * reason): one home for their wording, used by `main` for the registered commands and by
 * `agent-memory git …`, whose sub-commands parse their own arguments.
 */
import { errorMessage } from "../core/errors";
import { oneLine } from "../node/one-line";

/** The reason of a `parseArgs` error, without its advice on `--` and without a final period. */
export function argsReason(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  const message = oneLine(errorMessage(err));
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    const option = /'([^']+)'/.exec(message)?.[1];
    if (option) return `unknown option '${option}'`;
  }
  return message.replace(/^([A-Z])/, (c) => c.toLowerCase()).replace(/\.$/, "");
}

/**
 * The line refusing `--json` to a command that prints no JSON (`serve`, `mcp`, `git setup`):
 * refused before it runs, never ignored.
 * @param name the command as typed after `agent-memory` (`git setup`)
 * @param usageHint `(usage: agent-memory …)`
 */
export function jsonRefusedLine(name: string, usageHint: string): string {
  return `agent-memory ${name}: --json is not an option of ${name} ${usageHint}`;
}

/**
 * The line refusing an empty vault argument: `.mcp.json` and the hooks pass
 * `"$AGENT_MEMORY_VAULT"`, which arrives empty when the variable is unset, and an empty path
 * would be the current folder.
 */
export function emptyVaultLine(name: string, usageHint: string): string {
  return `agent-memory ${name}: the vault argument is empty (given as "$AGENT_MEMORY_VAULT"? that variable is unset or empty) ${usageHint}`;
}
