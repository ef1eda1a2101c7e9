/**
 * The launcher's side of the server socket (docs/mcp.md, "One-shot searches through a running
 * server"): which commands it may hand to a server, and one request and reply. Only `node:*`
 * modules and src/core/ingest/hook-events.ts: this is bundled into the small dist/cli.js.
 */
import { READ_ONLY_EVENTS } from "../core/ingest/hook-events";
import { connect, type Socket } from "node:net";
import type { ServeReply, ServeRequest } from "./socket-path";

/**
 * How long to wait for its answer before running the command here (a read-only command may run
 * twice); `AGENT_MEMORY_SERVER_TIMEOUT_MS` sets it.
 */
export const REPLY_TIMEOUT_MS = 10_000;
/** How long to wait for the server to accept the connection (a live local server accepts at once). */
export const CONNECT_TIMEOUT_MS = 300;
/** Largest reply read (a `search --json` with many results is well under this). */
const MAX_REPLY_BYTES = 64 * 2 ** 20;

/** `search`'s options that take a value (src/cli/commands/search.ts). */
const VALUE_OPTIONS = new Set(["--scope", "--limit", "--blocks", "--passages"]);
/** Its boolean options. */
const FLAG_OPTIONS = new Set(["--json", "--include-expired"]);

/**
 * The vault argument of a command a server may run, or `null`: `search`, and a Claude Code hook
 * that only reads ({@link servedHookVault}), and only when its arguments read plainly (anything
 * unusual, `--help` included, runs in the full CLI).
 */
export function servedVault(argv: readonly string[]): string | null {
  if (argv[0] === "hook") return servedHookVault(argv);
  if (argv[0] !== "search") return null;
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a.startsWith("--")) {
      const name = a.includes("=") ? a.slice(0, a.indexOf("=")) : a;
      if (FLAG_OPTIONS.has(a)) continue;
      if (VALUE_OPTIONS.has(name)) {
        if (!a.includes("=")) i++;
        continue;
      }
      return null;
    }
    if (a.startsWith("-") || a === "") return null;
    return a;
  }
  return null;
}

/**
 * Sends the request to the socket and resolves with the server's reply, or `null` when there is
 * none (no socket, refused, a timeout, the connection closed before a whole reply).
 */
export function askServer(
  socketPath: string,
  request: ServeRequest,
  timeouts = { connectMs: CONNECT_TIMEOUT_MS, replyMs: REPLY_TIMEOUT_MS },
): Promise<ServeReply | null> {
  return new Promise((resolve) => {
    let settled = false;
    const chunks: Buffer[] = [];
    let size = 0;
    let sock: Socket;
    const finish = (reply: ServeReply | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      sock.destroy();
      resolve(reply);
    };
    let timer = setTimeout(() => finish(null), timeouts.connectMs);
    sock = connect(socketPath, () => {
      clearTimeout(timer);
      timer = setTimeout(() => finish(null), timeouts.replyMs);
      sock.write(`${JSON.stringify(request)}\n`);
    });
    sock.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_REPLY_BYTES) return finish(null);
      const nl = chunk.indexOf(10);
      if (nl < 0) {
        chunks.push(chunk);
        return;
      }
      chunks.push(chunk.subarray(0, nl));
      try {
        finish(JSON.parse(Buffer.concat(chunks).toString("utf8")) as ServeReply);
      } catch {
        // A reply that is not JSON: no answer, the CLI runs the search itself.
        finish(null);
      }
    });
    sock.on("error", () => finish(null));
    sock.on("close", () => finish(null));
  });
}

/**
 * The `--vault` of `hook claude-code --vault V --agent A … '<event json>'` when the event (the
 * last argument) is one that only reads (SessionStart, UserPromptSubmit), else `null`: a hook
 * that writes (Stop and the others) runs in the CLI's own process.
 */
export function servedHookVault(argv: readonly string[]): string | null {
  if (argv[0] !== "hook" || argv[1] !== "claude-code") return null;
  let vault: string | null = null;
  for (let i = 2; i < argv.length - 1; i++) {
    const a = argv[i] as string;
    if (a === "--vault") vault = argv[i + 1] ?? null;
    else if (a.startsWith("--vault=")) vault = a.slice("--vault=".length);
  }
  let event: unknown;
  try {
    event = JSON.parse(argv[argv.length - 1] ?? "");
  } catch {
    return null;
  }
  const name = (event as { hook_event_name?: unknown } | null)?.hook_event_name;
  return vault && typeof name === "string" && READ_ONLY_EVENTS.has(name) ? vault : null;
}

/**
 * Does the socket `path` accept connections? `refused`: a socket left by a server that is gone;
 * `none`: no socket there; a connection that neither opens nor fails within a second, or fails
 * otherwise (EACCES: another user's), counts as `live`, to be left alone. Never rejects.
 */
export function probe(path: string): Promise<"live" | "refused" | "none"> {
  return new Promise((resolve) => {
    const sock = connect(path);
    const done = (r: "live" | "refused" | "none") => {
      sock.destroy();
      resolve(r);
    };
    const timer = setTimeout(() => done("live"), 1000);
    sock.once("connect", () => {
      clearTimeout(timer);
      done("live");
    });
    sock.once("error", (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      // Only a refused connection is a server gone; anything else (EACCES: another user's) is left.
      done(err.code === "ENOENT" ? "none" : err.code === "ECONNREFUSED" ? "refused" : "live");
    });
  });
}
