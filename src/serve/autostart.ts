/**
 * A server started for the hooks (docs/agents.md, "A server started for you"; docs/decisions.md,
 * "Hooks start a server that stops when idle"). A read-only Claude Code hook that found no server
 * on its vault answers on its own, then starts `agent-memory serve <vault> --idle-exit S` in the
 * background, detached from the session, so the next hooks of the session are answered through
 * the server's socket. One per vault: a second server cannot bind the socket and exits, and a
 * start is not tried again within {@link RETRY_AFTER_MS} of the last one. It stops after
 * {@link AUTOSERVE_IDLE_SECONDS} without a request. `AGENT_MEMORY_AUTOSERVE=off` (or
 * `AGENT_MEMORY_SERVER=off`) starts none.
 *
 * Only `node:*` modules: this is bundled into the small launcher (dist/cli.js). Only inside the
 * vault's own `.agent-memory/` folder, and only when it exists as a real folder (a vault a hook
 * has run on): a link there, a missing folder or a path that is not a vault starts nothing and
 * writes nothing. Never throws: a hook never fails for this.
 */
import { spawn } from "node:child_process";
import { closeSync, constants, lstatSync, openSync, type Stats, writeSync } from "node:fs";
import * as nodePath from "node:path";
import { probe } from "./client";
import { SERVER_ENV, socketPathFor } from "./socket-path";

/** `AGENT_MEMORY_AUTOSERVE=off`: a hook never starts a server. */
export const AUTOSERVE_ENV = "AGENT_MEMORY_AUTOSERVE";
/** Seconds without a request after which a started server stops; this variable sets it. */
export const AUTOSERVE_IDLE_ENV = "AGENT_MEMORY_AUTOSERVE_IDLE_SECONDS";
/** A started server's `--idle-exit` by default: 30 minutes. */
export const AUTOSERVE_IDLE_SECONDS = 1800;
/** No second start within this long of the last (ms): a server loading its index has no socket yet. */
export const RETRY_AFTER_MS = 60_000;
/** The started server's log (stderr and stdout), made anew at each start; inside the vault. */
export const AUTOSERVE_LOG_VAULT_PATH = ".agent-memory/serve.log";
/**
 * Made anew at each start, holding the started process's id (a line); its modification time is
 * when the last start was tried.
 */
export const AUTOSERVE_MARK_VAULT_PATH = ".agent-memory/serve.started";

/** What a hook found on a vault's socket path. */
export type SocketState = "none" | "stale" | "live" | "other";

/**
 * What is at a socket path: nothing (`none`), a socket nobody listens on (`stale`, a server that
 * was killed), a server or a socket to leave alone (`live`, as {@link probe} judges it), or a file
 * that is not a socket (`other`).
 */
export async function socketState(path: string): Promise<SocketState> {
  let st: Stats;
  try {
    st = lstatSync(path);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ENOENT" ? "none" : "other";
  }
  if (!st.isSocket()) return "other";
  const state = await probe(path);
  return state === "refused" ? "stale" : state;
}

/**
 * The idle time a started server runs with: {@link AUTOSERVE_IDLE_ENV} when it is a whole number
 * of seconds from 1 to 86400, else {@link AUTOSERVE_IDLE_SECONDS}.
 */
export function autoserveIdleSeconds(env: NodeJS.ProcessEnv): number {
  const raw = env[AUTOSERVE_IDLE_ENV];
  const n = raw !== undefined && /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
  return Number.isInteger(n) && n >= 1 && n <= 86_400 ? n : AUTOSERVE_IDLE_SECONDS;
}

/**
 * Why no server is started for the vault `vaultAbs`, or `null` when one may be: turned off, no
 * real `.agent-memory/` folder in it, a socket path there cannot have, a server already there (or
 * something that is not a socket in its place), or a start tried within {@link RETRY_AFTER_MS}.
 */
export async function whyNoStart(
  vaultAbs: string,
  env: NodeJS.ProcessEnv,
  now: number = Date.now(),
): Promise<string | null> {
  if (env[AUTOSERVE_ENV] === "off") return `${AUTOSERVE_ENV}=off`;
  if (env[SERVER_ENV] === "off") return `${SERVER_ENV}=off`;
  const where = socketPathFor(vaultAbs);
  if (!("path" in where)) return where.none;
  const dir = nodePath.dirname(where.path);
  try {
    if (!lstatSync(dir).isDirectory()) return `${dir} is not a folder`;
  } catch {
    return `no ${dir}`;
  }
  const state = await socketState(where.path);
  if (state === "live") return "a server answers on the vault";
  if (state === "other") return `${where.path} is not a server's socket`;
  try {
    const mark = lstatSync(nodePath.join(vaultAbs, ...AUTOSERVE_MARK_VAULT_PATH.split("/")));
    if (now - mark.mtimeMs < RETRY_AFTER_MS) return "a server was started less than a minute ago";
  } catch {
    // never started here
  }
  return null;
}

/** Opens a file of the vault's `.agent-memory/` for writing, made anew, never through a link. */
function openInside(vaultAbs: string, vaultPath: string): number {
  return openSync(
    nodePath.join(vaultAbs, ...vaultPath.split("/")),
    constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW,
    0o600,
  );
}

/**
 * Starts `agent-memory serve <vaultAbs> --idle-exit S` detached (its own process group, no stdin,
 * its output to {@link AUTOSERVE_LOG_VAULT_PATH}) when {@link whyNoStart} allows, and returns at
 * once; the server outlives the hook.
 * @param vaultAbs the vault folder, absolute (as the launcher resolved the hook's `--vault`)
 * @param launcher this program's script (dist/cli.js)
 * @returns the started process's id, or why none was started; never throws
 */
export async function startServerForHook(
  vaultAbs: string,
  launcher: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ pid: number } | { none: string }> {
  let log: number | undefined;
  let mark: number | undefined;
  try {
    const why = await whyNoStart(vaultAbs, env);
    if (why !== null) return { none: why };
    mark = openInside(vaultAbs, AUTOSERVE_MARK_VAULT_PATH);
    log = openInside(vaultAbs, AUTOSERVE_LOG_VAULT_PATH);
    const child = spawn(
      process.execPath,
      [launcher, "serve", vaultAbs, "--idle-exit", String(autoserveIdleSeconds(env))],
      { cwd: vaultAbs, detached: true, stdio: ["ignore", log, log], env },
    );
    child.on("error", () => undefined);
    child.unref();
    if (child.pid === undefined) return { none: "the server did not start" };
    writeSync(mark, `${child.pid}\n`);
    return { pid: child.pid };
  } catch (err) {
    return { none: err instanceof Error ? err.message : String(err) };
  } finally {
    for (const fd of [log, mark]) if (fd !== undefined) closeSync(fd);
  }
}
