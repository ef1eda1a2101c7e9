/**
 * The `agent-memory` command (DESIGN §7). Exit codes: 0 done; 1 ran and found problems;
 * 2 bad usage or unreadable input, with a one-line reason on stderr and nothing written.
 */
import { parseArgs } from "node:util";
import { MemoryError, errorMessage } from "../core/errors";
import { openVault } from "./context";
import type { CliCommand } from "./command";
import { commands } from "./commands/registry";

function usage(): string {
  return ["usage:", ...commands.map((c) => `  agent-memory ${c.usage}`)].join("\n");
}

/** Runs the CLI with `argv` (without node and script) and returns the exit code. */
export async function main(
  argv: string[],
  io = {
    out: (line: string) => void process.stdout.write(`${line}\n`),
    err: (line: string) => void process.stderr.write(`${line}\n`),
    env: process.env,
  },
): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    io.out(usage());
    return name ? 0 : 2;
  }
  const command: CliCommand | undefined = commands.find((c) => c.name === name);
  if (!command) {
    io.err(`agent-memory: unknown command "${name}"\n${usage()}`);
    return 2;
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      allowPositionals: true,
      strict: true,
      options: { json: { type: "boolean" }, help: { type: "boolean", short: "h" }, ...command.options },
    });
  } catch (err) {
    io.err(`agent-memory ${name}: ${errorMessage(err)}\nusage: agent-memory ${command.usage}`);
    return 2;
  }
  if (parsed.values.help) {
    io.out(`usage: agent-memory ${command.usage}`);
    return 0;
  }
  const [vaultArg, ...args] = parsed.positionals;
  if (!vaultArg || args.length < command.positionals.min || args.length > command.positionals.max) {
    io.err(`agent-memory ${name}: wrong number of arguments\nusage: agent-memory ${command.usage}`);
    return 2;
  }
  try {
    const ctx = await openVault(vaultArg, io);
    return await command.run(ctx, args, parsed.values);
  } catch (err) {
    const message = errorMessage(err).replace(/\s*\n\s*/g, " ");
    io.err(`agent-memory ${name}: ${message}`);
    if (!(err instanceof MemoryError) && process.env.AGENT_MEMORY_DEBUG) io.err(String((err as Error).stack));
    return 2;
  }
}

const isEntry = typeof process !== "undefined" && process.argv[1] !== undefined && /cli\.(js|ts|mjs)$/.test(process.argv[1]);
if (isEntry) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`agent-memory: ${errorMessage(err)}\n`);
      process.exitCode = 2;
    },
  );
}
