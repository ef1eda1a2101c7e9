/**
 * The shape of one `agent-memory` sub-command (docs/architecture.md, "The CLI contract"). Each
 * lives in `src/cli/commands/<name>.ts`.
 */
import type { CliContext, WarmSearch } from "../node/context";
import type { Dispatch } from "../serve/socket-server";

export type OptionSpec = Record<
  string,
  { type: "string" | "boolean"; short?: string; multiple?: boolean }
>;

/** The streams a {@link CliCommand.direct} command gets (what `main` gets). */
export interface DirectIo {
  out: (line: string) => void;
  err: (line: string) => void;
  env: NodeJS.ProcessEnv;
  cwd?: string;
  warm?: WarmSearch;
}

export interface CliCommand {
  name: string;
  /** One usage line, as in docs/architecture.md, "The CLI contract". */
  usage: string;
  /** Options besides the global `--json` and `--help`. */
  options: OptionSpec;
  /** False for a command that prints no JSON (`serve`, `mcp`): `--json` is then refused. */
  json?: boolean;
  /** Number of positionals after the vault. */
  positionals: { min: number; max: number };
  /**
   * Arguments like `-draft` or `-tag:x` (one dash, then a word) are positionals, not options: the
   * query language's negated filters (`search`).
   */
  dashWords?: boolean;
  /**
   * A server that keeps running (`mcp`, `serve`): its vault's reads and lists yield to the event
   * loop once a 4 ms time slice is used up (`NodeVaultOptions.slice`), so a long tool call (a
   * brief at 50k notes) lets the other requests in.
   */
  longLived?: boolean;
  /**
   * Runs the command. Returns the exit code: 0 done, 1 ran and found problems.
   * Throws {@link UsageError} or another {@link MemoryError} for exit 2 (the message is printed on one line).
   * `dispatch` is the CLI's `main`, for a command that runs others (a server answering searches).
   */
  /**
   * For a command that takes no vault positional and handles its own errors (`hook`): run with
   * the arguments after its name instead of {@link run}; returns the exit code.
   */
  direct?: (argv: string[], io: DirectIo) => Promise<number>;
  run(
    ctx: CliContext,
    args: string[],
    options: Record<string, string | boolean | string[] | undefined>,
    dispatch: Dispatch,
  ): Promise<number>;
}
