/**
 * The `agent-memory` launcher, built as dist/cli.js (a few KB; docs/mcp.md, "One-shot searches
 * through a running server"). For `search`, it first asks a server running on the vault
 * (`agent-memory serve` or `agent-memory mcp`, docs/mcp.md) over the socket in the vault's
 * `.agent-memory/`, and prints what the server's run of the same command printed. When no server
 * answers (no socket, a stale one, a server that dies or stalls, another vault's, a refusal), and
 * for every other command, it loads the full CLI (dist/cli-main.mjs) and runs it as before; a
 * Claude Code hook that only reads loads the hooks' own bundle (dist/hook-main.cjs, with V8's code
 * cache: {@link loadWithCodeCache}) instead, and then starts a server for the next hooks
 * ({@link startServerForHook}).
 * Only `node:*` modules here: loading the full CLI is what costs time. Bundled as CommonJS
 * (esbuild.config.mjs), so `import.meta` is not available: the full CLI is found from `__dirname`.
 */
import * as nodePath from "node:path";
import { pathToFileURL } from "node:url";
import {
  askServer,
  CONNECT_TIMEOUT_MS,
  REPLY_TIMEOUT_MS,
  servedHookVault,
  servedVault,
} from "../serve/client";
import { resolveVaultArg } from "../node/vault-arg";
import { startServerForHook } from "../serve/autostart";
import { PROTOCOL_VERSION, SERVER_ENV, socketPathFor, timeZone } from "../serve/socket-path";
import { loadWithCodeCache } from "./code-cache";
import { MAX_EVENT_BYTES } from "./hook-event-size";

/** Writes a line unless the stream's reader has gone (EPIPE after `| head`), as the full CLI does. */
function write(stream: NodeJS.WriteStream, line: string): void {
  if (!stream.destroyed && stream.writable) stream.write(`${line}\n`);
}

/** Tries the server; true when it answered and its output was printed. */
async function viaServer(argv: string[]): Promise<boolean> {
  if (process.env[SERVER_ENV] === "off") return false;
  const vaultArg = servedVault(argv);
  if (vaultArg === null) return false;
  const cwd = process.cwd();
  const vault = resolveVaultArg(vaultArg, cwd);
  const where = socketPathFor(vault);
  if (!("path" in where)) return false;
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (k.startsWith("AGENT_MEMORY_") && v !== undefined) env[k] = v;
  const wait = Number(process.env.AGENT_MEMORY_SERVER_TIMEOUT_MS);
  const replyMs = Number.isInteger(wait) && wait > 0 ? wait : REPLY_TIMEOUT_MS;
  const reply = await askServer(
    where.path,
    { v: PROTOCOL_VERSION, argv, cwd, vault, env, tz: timeZone() },
    { connectMs: CONNECT_TIMEOUT_MS, replyMs },
  );
  if (
    !reply ||
    "fallback" in reply ||
    !Array.isArray(reply.lines) ||
    typeof reply.code !== "number"
  )
    return false;
  process.exitCode = reply.code;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (err: NodeJS.ErrnoException) => {
      // As the full CLI: a reader that went away is not an error; any other write failure is exit 2.
      if (err.code !== "EPIPE" && err.code !== "ERR_STREAM_DESTROYED") process.exitCode = 2;
    });
  }
  for (const [s, line] of reply.lines) write(s === "o" ? process.stdout : process.stderr, line);
  return true;
}

/** The full CLI (dist/cli-main.mjs beside this file; src/cli/main.ts). */
interface FullCli {
  runCli(argv: string[]): Promise<void>;
}

/** The hooks' own bundle (dist/hook-main.cjs beside this file; src/cli/hook-main.ts). */
interface HookCli {
  runHookCli(argv: string[], loadFull: () => Promise<FullCli>): Promise<void>;
}

/** The full CLI, imported. */
async function fullCli(): Promise<FullCli> {
  // eslint-disable-next-line no-unsanitized/method -- a fixed file beside this one, not user input (a URL keeps esbuild from bundling it)
  return (await import(pathToFileURL(nodePath.join(__dirname, "cli-main.mjs")).href)) as FullCli;
}

/**
 * Reads stdin (a Claude Code hook's event), stopping once past {@link MAX_EVENT_BYTES}: what was
 * read then is longer than the limit, which the hook refuses with one line (src/cli/hook-read.ts).
 */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
    if (size > MAX_EVENT_BYTES) break;
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The options of `hook` that take a value (src/cli/hook-read.ts). */
const HOOK_VALUE_OPTIONS = new Set(["--vault", "--agent", "--budget-chars"]);

/**
 * True when `args` (after `hook claude-code`) hold a positional: the event given as an argument,
 * JSON or not (the hook says when it is not), so stdin is not read and appended after it.
 */
function hasPositional(args: readonly string[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === "--") return i < args.length - 1;
    if (HOOK_VALUE_OPTIONS.has(a)) i++;
    else if (!a.startsWith("-")) return true;
  }
  return false;
}

/**
 * `hook claude-code …` with its event on stdin: the event read here and passed as the last
 * argument, so a server can answer it and the full CLI gets it the same way (stdin can be read
 * once). Other command lines, and one that already gives its event as an argument, come back as
 * they are.
 */
async function withHookEvent(argv: string[]): Promise<string[]> {
  if (argv[0] !== "hook" || argv[1] !== "claude-code" || process.stdin.isTTY) return argv;
  if (hasPositional(argv.slice(2))) return argv;
  return [...argv, await readStdin()];
}

async function launch(): Promise<void> {
  const argv = await withHookEvent(process.argv.slice(2));
  if (await viaServer(argv)) return;
  // A Claude Code hook that only reads loads the hooks' own, smaller bundle (docs/decisions.md,
  // "A bundle of its own for the hooks that read"); everything else the full CLI.
  if (servedHookVault(argv) !== null) {
    const hook = loadWithCodeCache<HookCli>(nodePath.join(__dirname, "hook-main.cjs"));
    await hook.exports.runHookCli(argv, fullCli);
    // The cache is written after the run, so it holds the functions the hook compiled too.
    hook.save();
    // No server answered: one is started for the next hooks (docs/agents.md, "A server started
    // for you"), after this hook's own answer, so it costs this hook only the spawn.
    const vault = servedHookVault(argv);
    if (vault !== null) await startServerForHook(resolveVaultArg(vault, process.cwd()), __filename);
    return;
  }
  await (await fullCli()).runCli(argv);
}

launch().catch((err: unknown) => {
  process.stderr.write(`agent-memory: ${err instanceof Error ? err.message : String(err)}\n`);
  // A hook never exits 2 (Claude Code reads it as "block"; src/cli/commands/hook.ts).
  process.exitCode = process.argv[2] === "hook" ? 0 : 2;
});
