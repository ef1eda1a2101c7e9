/**
 * Where a running server (`agent-memory serve`, `agent-memory mcp`) listens for one-shot CLI
 * searches, and the shape of what goes over that socket (docs/mcp.md, "One-shot searches through a
 * running server"). Shared by the launcher (dist/cli.js, which must stay small: only `node:path`
 * here) and the server.
 */
import * as nodePath from "node:path";

/** The socket's path inside the vault. */
export const SOCKET_VAULT_PATH = ".agent-memory/serve.sock";

/**
 * The socket where the same server answers Claude Code's read-only hooks over HTTP, for the
 * plugin's shell hook (hooks/claude-code-hook.sh, through `curl --unix-socket`), which skips
 * Node's start (docs/decisions.md, "A shell hook asks the server first").
 */
export const HOOK_SOCKET_VAULT_PATH = ".agent-memory/hook.sock";

/**
 * Longest socket path in bytes: `sun_path` holds 108 bytes on Linux and 104 on macOS, the
 * terminating NUL included.
 */
export const MAX_SOCKET_PATH_BYTES = 103;

/** `AGENT_MEMORY_SERVER=off`: the CLI never asks a server and servers do not listen. */
export const SERVER_ENV = "AGENT_MEMORY_SERVER";

/** Version of the request and reply below; a server answers another version with a fallback. */
export const PROTOCOL_VERSION = 1;

/** The one JSON line the launcher sends. */
export interface ServeRequest {
  v: number;
  /** The CLI's arguments, without node and script. */
  argv: string[];
  /** The launcher's working folder (relative vault paths are resolved against it). */
  cwd: string;
  /** The vault argument resolved against `cwd`. */
  vault: string;
  /** The launcher's `AGENT_MEMORY_*` variables (lock timings, debug): the rest stays private. */
  env: Record<string, string>;
  /** The launcher's `TZ` (expiry is judged by the local date): another one is not served. */
  tz: string;
}

/**
 * The one JSON line the server answers: the run's output lines in the order they were written
 * (`o` stdout, `e` stderr) and its exit code; or `fallback` with the reason the server did not run
 * it, and the launcher then runs the command itself.
 */
export type ServeReply = { code: number; lines: ["o" | "e", string][] } | { fallback: string };

/**
 * This process's time zone as {@link ServeRequest.tz} carries it: the `TZ` variable ("" when
 * unset; on one machine the same `TZ` is the same zone). Not `Intl`'s resolved zone: loading the
 * time-zone data costs about 50 ms, most of what a served search costs.
 */
export function timeZone(): string {
  return process.env.TZ ?? "";
}

/**
 * The socket path for a vault folder (absolute, not yet a real path), or the reason there is none:
 * Windows (no Unix domain sockets with file modes; the CLI then always runs on its own), or a path
 * longer than {@link MAX_SOCKET_PATH_BYTES}.
 */
export function socketPathFor(
  vaultAbs: string,
  platform: string = process.platform,
): { path: string } | { none: string } {
  if (platform === "win32") return { none: "no server socket on Windows" };
  const path = nodePath.join(vaultAbs, ...SOCKET_VAULT_PATH.split("/"));
  return checkLength(path);
}

/** `{ path }` when a socket can have this path, else why not. */
export function checkLength(path: string): { path: string } | { none: string } {
  const bytes = Buffer.byteLength(path, "utf8");
  if (bytes > MAX_SOCKET_PATH_BYTES)
    return {
      none: `the socket path ${path} is ${bytes} bytes, more than a socket path may hold (${MAX_SOCKET_PATH_BYTES})`,
    };
  return { path };
}
