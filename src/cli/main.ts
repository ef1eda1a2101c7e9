/**
 * The `agent-memory` command (docs/architecture.md, "The CLI contract"). Exit codes: 0 done; 1 ran
 * and found problems; 2 bad usage or unreadable input, with a one-line reason on stderr and nothing
 * written.
 */
import { GIT_USAGE, runGit } from "./git";
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { MemoryError, errorMessage } from "../core/errors";
import { redactUrl } from "../core/url";
import { openVault, requireMemoryRoot, type WarmSearch } from "../node/context";
import { hostSlicer } from "../node/event-loop";
import type { CliCommand } from "./command";
import { commands } from "./commands/registry";
import { oneLine } from "../node/one-line";
import { argsReason, emptyVaultLine, jsonRefusedLine } from "./usage-lines";
import { streamFailed, streamWriter, watchStream } from "./process-io";
import { version as packageVersion } from "../../package.json";

/** Where the CLI writes its lines; tests pass their own. */
export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
  env: NodeJS.ProcessEnv;
  /** The folder a relative vault argument is resolved against (default: the process's). */
  cwd?: string;
  /** A server's open search index, used instead of opening the saved one (docs/mcp.md). */
  warm?: WarmSearch;
}

function usage(): string {
  return [
    "usage:",
    // A command with several forms (`token add | token list | …`) gets a line for each.
    ...commands.flatMap((c) =>
      c.usage
        .split(` | ${c.name} `)
        .map((u, i) => (i === 0 ? u : `${c.name} ${u}`))
        .map((u) => `  agent-memory ${u}`),
    ),
    ...GIT_USAGE.split(" | ").map((u) => `  agent-memory ${u}`),
    "  agent-memory --version",
  ].join("\n");
}

export { oneLine };

/**
 * Runs the CLI with `argv` (without node and script) and returns the exit code
 * (docs/architecture.md, "The CLI contract"). Every error line given to `io.err` is one line; usage
 * goes to `io.out` only on request (`--help`) or when no command is given.
 */
export async function main(
  argv: string[],
  io: CliIo = {
    out: streamWriter(process.stdout),
    err: streamWriter(process.stderr),
    env: process.env,
  },
): Promise<number> {
  const fail = (line: string): number => {
    io.err(oneLine(line));
    return 2;
  };
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    io.out(usage());
    return name ? 0 : 2;
  }
  if (name === "--version" || name === "-V" || name === "version") {
    io.out(`agent-memory ${packageVersion}`);
    return 0;
  }
  // `git setup <vault>`, `git resolve <vault>`, `git merge-driver %O %A %B %P` (docs/sync.md).
  if (name === "git") return runGit(rest, io);
  const command: CliCommand | undefined = commands.find((c) => c.name === name);
  if (!command) {
    return fail(
      `agent-memory: unknown command "${name}" (commands: ${[...commands.map((c) => c.name), "git"].join(", ")}; see agent-memory --help)`,
    );
  }
  if (command.direct) return command.direct(rest, io);
  const usageHint = `(usage: agent-memory ${command.usage})`;
  // A negated filter (`-tag:x`) would be read as short options: such arguments go through
  // parseArgs as placeholders and come back as they were.
  const held = new Map<string, string>();
  const args0 = command.dashWords
    ? rest.map((a) => {
        if (!/^-[^-]/.test(a) || a === "-h") return a;
        const key = `\u0000${held.size}`;
        held.set(key, a);
        return key;
      })
    : rest;
  let parsed;
  try {
    parsed = parseArgs({
      args: args0,
      allowPositionals: true,
      strict: true,
      options: {
        json: { type: "boolean" },
        help: { type: "boolean", short: "h" },
        ...command.options,
      },
    });
  } catch (err) {
    return fail(`agent-memory ${name}: ${argsReason(err)} ${usageHint}`);
  }
  if (parsed.values.help) {
    io.out(`usage: agent-memory ${command.usage}`);
    return 0;
  }
  if (command.json === false && parsed.values.json) return fail(jsonRefusedLine(name, usageHint));
  const restore = (v: string): string => held.get(v) ?? v;
  const [vaultArg, ...args] = parsed.positionals.map(restore);
  const values: Record<string, string | boolean | string[] | undefined> = { ...parsed.values };
  for (const [key, value] of Object.entries(values))
    if (typeof value === "string") values[key] = restore(value);
  // `.mcp.json` and the hooks pass "$AGENT_MEMORY_VAULT": unset, it arrives as an empty argument.
  if (vaultArg === "" && parsed.positionals.length > 0)
    return fail(emptyVaultLine(name, usageHint));
  if (!vaultArg || args.length < command.positionals.min || args.length > command.positionals.max) {
    return fail(`agent-memory ${name}: wrong number of arguments ${usageHint}`);
  }
  try {
    // Commands report through ctx.err too: hold them to the same one-line rule.
    const ctx = await openVault(
      vaultArg,
      {
        ...io,
        err: (line) => io.err(oneLine(line)),
        ...(command.longLived ? { slice: hostSlicer() } : {}),
      },
      command.name === "init",
    );
    if (command.name !== "init") await requireMemoryRoot(ctx);
    return await command.run(ctx, args, values, main);
  } catch (err) {
    const code = fail(`agent-memory ${name}: ${errorMessage(err)}`);
    if (!(err instanceof MemoryError) && io.env.AGENT_MEMORY_DEBUG)
      io.err(redactUrl(String((err as Error).stack)));
    return code;
  }
}

/**
 * True when this module is the script Node was started with. Compares real paths, so the CLI also
 * runs through `npx agent-memory`, `npm link` and any other symlink to dist/cli.js, whatever the
 * link is called; a module imported by tests is never the script.
 */
function isEntryModule(): boolean {
  const script = typeof process === "undefined" ? undefined : process.argv[1];
  if (!script) return false;
  let self: string;
  try {
    self = realpathSync(fileURLToPath(import.meta.url));
  } catch {
    // Not a file URL (bundled elsewhere): not run as the CLI script.
    return false;
  }
  // `node dist/cli` names the script without its extension.
  for (const candidate of [script, `${script}.js`, `${script}.mjs`]) {
    try {
      if (realpathSync(candidate) === self) return true;
    } catch {
      // not this spelling
    }
  }
  return false;
}

/**
 * Runs the CLI as a process: `argv` without node and script, output to the process's streams, the
 * exit code set on `process.exitCode`. Called by the launcher (dist/cli.js, src/cli/launcher.ts)
 * when no server ran the command, and when this bundle is started itself.
 */
export function runCli(argv: string[]): Promise<void> {
  watchStream(process.stdout, "stdout");
  watchStream(process.stderr, "stderr");
  // A hook never exits 2: Claude Code takes 2 for "block" (docs/agents.md, "A hook never breaks a session").
  const failed = argv[0] === "hook" ? 0 : 2;
  return main(argv).then(
    (code) => {
      process.exitCode = streamFailed() ? failed : code;
    },
    (err: unknown) => {
      streamWriter(process.stderr)(oneLine(`agent-memory: ${errorMessage(err)}`));
      process.exitCode = failed;
    },
  );
}

if (isEntryModule()) void runCli(process.argv.slice(2));
