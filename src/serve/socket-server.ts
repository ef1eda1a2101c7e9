/**
 * The server side of one-shot searches (docs/mcp.md, "One-shot searches through a running
 * server"): `agent-memory serve` and `agent-memory mcp` listen on a Unix domain socket in the
 * vault's `.agent-memory/` (mode 600: only the same user connects) and run the CLI's own `main`
 * (handed in as {@link SearchSocketOptions.dispatch}, so this host imports no CLI file)
 * for a `search` with its output captured and this server's open index lent to it, so the
 * launcher prints what a run of its own would print (test/serve/serve.process.test.ts).
 *
 * The same server answers the Claude Code plugin's shell hook (hooks/claude-code-hook.sh) over
 * HTTP on a second socket, `.agent-memory/hook.sock` (docs/decisions.md, "A shell hook asks the
 * server first"): its form becomes the command line the launcher would send ({@link hookRequest})
 * and passes the same checks.
 *
 * Refused with a fallback (the launcher then runs the command itself): any command but `search`,
 * a vault that is not this server's (compared as real paths), settings that changed since the
 * server opened the index, a caller in another time zone, a request it cannot read.
 */
import { chmodSync, lstatSync, mkdirSync, realpathSync, unlinkSync } from "node:fs";
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server as HttpServer,
  type ServerResponse,
} from "node:http";
import { createServer, type Server, type Socket } from "node:net";
import * as nodePath from "node:path";
import { errorMessage } from "../core/errors";
import { instantOf, today } from "../core/util/dates";
import type { OpenReport } from "../core/search/search-service";
import type { CliContext, WarmSearch } from "../node/context";
import { hostSlicer, nextTurn } from "../node/event-loop";
import type { LiveIndex } from "../node/live-index";
import type { NodeVault } from "../node/node-vault";
import { probe, servedHookVault } from "./client";
import { shownVault } from "../node/vault-arg";
import {
  checkLength,
  HOOK_SOCKET_VAULT_PATH,
  PROTOCOL_VERSION,
  SOCKET_VAULT_PATH,
  timeZone,
  type ServeReply,
  type ServeRequest,
} from "./socket-path";

/** Largest request read; a request is one command line. */
const MAX_REQUEST_BYTES = 1 << 20;
/**
 * Commands the server runs (read-only; writes stay with the CLI's own process for now): `search`,
 * and the Claude Code hooks that only read (src/cli/serve/client.ts, `servedHookVault`).
 */
const SERVED = new Set(["search", "hook"]);

/** Thrown by the lent index when it will not serve a context; the request then gets a fallback. */
class NotServed extends Error {}

/** Where a dispatched run writes its lines, and the server's index it borrows (the CLI's `CliIo`). */
export interface DispatchIo {
  out: (line: string) => void;
  err: (line: string) => void;
  env: NodeJS.ProcessEnv;
  /** The folder a relative vault argument is resolved against. */
  cwd?: string;
  warm?: WarmSearch;
}

/** Runs one command line (without node and script) and returns its exit code: the CLI's `main`. */
export type Dispatch = (argv: string[], io: DispatchIo) => Promise<number>;

/** What the server needs: the vault, its settings as the index was opened, the live index. */
export interface SearchSocketOptions {
  vault: NodeVault;
  /** The server's settings; a run that reads other settings from `data.json` is not served. */
  settings: unknown;
  live: LiveIndex;
  /** Writes one line to the server's stderr. */
  log: (line: string) => void;
  /** Runs a served command line: the CLI's `main`, injected by the command that starts the server. */
  dispatch: Dispatch;
  /**
   * The vault as the server's own command line named it: when given, the SessionStart brief of
   * each agent of the index is computed at start for a hook naming the vault so ({@link ReplyCache}).
   */
  vaultArg?: string;
}

/** A reply kept by {@link ReplyCache}, with what it was computed from. */
interface CachedReply {
  generation: number;
  /** The local date it was computed on. */
  day: string;
  /** It is stale from this instant (ms): the first `expires_at` date-time then ahead of it. */
  until: number;
  reply: { code: number; lines: ["o" | "e", string][] };
}

/** Quiet time (ms) after the last change before the kept replies are computed again. */
const REFRESH_AFTER_MS = 1000;

/**
 * The `AGENT_MEMORY_*` variables that never change what a hook prints: where the vault and agent
 * came from (the command line carries both), how to reach or start a server, how long to wait
 * for a lock. A request's other variables are part of its kept reply's key.
 */
const REPLY_NEUTRAL_ENV = new Set([
  "AGENT_MEMORY_VAULT",
  "AGENT_MEMORY_AGENT",
  "AGENT_MEMORY_SERVER",
  "AGENT_MEMORY_SERVER_TIMEOUT_MS",
  "AGENT_MEMORY_AUTOSERVE",
  "AGENT_MEMORY_AUTOSERVE_IDLE_SECONDS",
  "AGENT_MEMORY_LOCK_WAIT_MS",
  "AGENT_MEMORY_LOCK_STALE_MS",
]);

/**
 * The replies of Claude Code's `SessionStart` hook (the brief, most of a served hook's time), kept
 * per command line (docs/decisions.md, "A server keeps the SessionStart brief"). A reply is used
 * again while the live index's {@link LiveIndex.generation} is the one it was computed at (no note
 * changed since), on the same local date and before the next `expires_at` date-time of a note; a
 * while after the notes change, the kept replies a hook has asked for are computed again in the
 * background, so the next session start is a hit as well. A reply computed at start that no hook
 * has asked for is not: a server that many agents write to would otherwise build every agent's
 * brief after each burst of writes, taking a core from the searches (bench/results/mcp-http.md).
 */
export class ReplyCache {
  private readonly entries = new Map<
    string,
    { req: ServeRequest; cached: CachedReply | null; asked: boolean }
  >();
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly live: LiveIndex,
    /** Computes a reply; `background`: not asked by a request waiting for it (see {@link fill}). */
    private readonly compute: (req: ServeRequest, background: boolean) => Promise<ServeReply>,
  ) {}

  /** The cache key of a request it keeps replies of, or `null` for any other request. */
  static keyOf(req: ServeRequest, env: NodeJS.ProcessEnv): string | null {
    if (req.argv[0] !== "hook" || req.argv[1] !== "claude-code") return null;
    let name: unknown;
    try {
      name = (JSON.parse(req.argv[req.argv.length - 1] ?? "") as { hook_event_name?: unknown })
        ?.hook_event_name;
    } catch {
      return null;
    }
    if (name !== "SessionStart") return null;
    // The event's other fields (session id, source, transcript) do not change the brief; an empty
    // variable counts as unset, as the CLI reads them; the variables that only say how to reach a
    // server or wait for a lock do not change it either ({@link REPLY_NEUTRAL_ENV}). The folder
    // the hook ran in matters only to a vault given relative to it, so a session started in any
    // project is answered by the reply computed at the server's start.
    const vars = Object.entries(env)
      .filter(([k, v]) => v !== "" && v !== undefined && !REPLY_NEUTRAL_ENV.has(k))
      .sort(([a], [b]) => (a < b ? -1 : 1));
    // `~/v` and the home folder's `v` print the same (shownVault): the shell hook sends the latter.
    const vault = servedHookVault(req.argv) ?? "";
    const shown = shownVault(vault);
    const argv = req.argv
      .slice(0, -1)
      .map((a) => (a === vault ? shown : a === `--vault=${vault}` ? `--vault=${shown}` : a));
    return JSON.stringify([argv, nodePath.isAbsolute(shown) ? null : req.cwd, req.tz, vars]);
  }

  /** The kept reply of `key` when it is still current, else a new one, kept when it succeeded. */
  async reply(key: string, req: ServeRequest): Promise<ServeReply> {
    const now = Date.now();
    const entry = this.entries.get(key);
    if (entry) entry.asked = true;
    const c = entry?.cached;
    if (c && c.generation === this.live.generation && c.day === today(now) && now < c.until)
      return c.reply;
    return this.fill(key, req, true, false);
  }

  /**
   * Computes `req` and keeps its reply under `key` (a fallback or an error is not kept). `asked`:
   * a hook asked for it (else it is computed ahead, at start), so it is kept up to date after
   * changes; once asked, an entry stays so. `background` (the default): no request waits for it,
   * so it yields to the requests being answered (docs/decisions.md, "Background work waits for
   * requests").
   */
  async fill(
    key: string,
    req: ServeRequest,
    asked = false,
    background = true,
  ): Promise<ServeReply> {
    const generation = this.live.generation;
    const day = today(Date.now());
    const reply = await this.compute(req, background);
    this.computed++;
    const cached =
      "code" in reply && reply.code === 0
        ? { generation, day, until: this.nextExpiry(Date.now()), reply }
        : null;
    const was = this.entries.get(key)?.asked === true;
    this.entries.set(key, { req, cached, asked: asked || was });
    return reply;
  }

  /**
   * Computes the kept replies that a hook has asked for again {@link REFRESH_AFTER_MS} after the
   * last change.
   */
  changed(): void {
    if (![...this.entries.values()].some((e) => e.asked)) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void (async () => {
        for (const [key, { req, asked }] of this.entries) if (asked) await this.fill(key, req);
      })();
    }, REFRESH_AFTER_MS);
    this.timer.unref?.();
  }

  /** How many kept replies were computed since start (for tests): see {@link fill}. */
  computed = 0;

  /** Stops a refresh that has not started. */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** The first `expires_at` date-time of an indexed note after `now`, or +∞. */
  private nextExpiry(now: number): number {
    let next = Number.POSITIVE_INFINITY;
    for (const m of this.live.service.notes()) {
      if (typeof m.expiresAt !== "string") continue;
      const at = instantOf(m.expiresAt.trim());
      if (at !== null && at > now && at < next) next = at;
    }
    return next;
  }
}

/**
 * The listening socket. {@link SearchSocket.listen} opens it, {@link SearchSocket.close} removes it.
 */
export class SearchSocket {
  private readonly connections = new Set<Socket>();
  private served = 0;
  private lastRequest = Date.now();
  /**
   * Resolves with how many agents' SessionStart replies were computed at start (0 without
   * {@link SearchSocketOptions.vaultArg}); never rejects.
   */
  warmed: Promise<number> = Promise.resolve(0);

  private constructor(
    /** The socket's real path. */
    readonly path: string,
    private readonly server: Server,
    private readonly ino: number,
    private readonly cache: ReplyCache,
    /** The shell hook's HTTP socket, when it could be opened. */
    readonly hook: { path: string; server: HttpServer; ino: number } | null,
  ) {}

  /**
   * Listens on `<vault>/.agent-memory/serve.sock` (the path resolved inside the vault by
   * {@link NodeVault.resolve}, docs/write-safety.md), and over HTTP on
   * `<vault>/.agent-memory/hook.sock` for the plugin's shell hook ({@link HOOK_SOCKET_VAULT_PATH}).
   * A socket left by a server that is gone (connection refused) is replaced; a live one, a file
   * that is not a socket, Windows or a path too long for a socket give `{ none: reason }` and the
   * server runs without one. When only the hook socket cannot be opened, the server says why on
   * its log and runs without it (the shell hook then runs the CLI).
   */
  static async listen(options: SearchSocketOptions): Promise<SearchSocket | { none: string }> {
    if (process.platform === "win32")
      return { none: "no socket on Windows; one-shot searches run on their own" };
    let path: string;
    let hookPath: string;
    let root: string;
    try {
      mkdirSync(options.vault.resolve(nodePath.posix.dirname(SOCKET_VAULT_PATH)), {
        recursive: true,
      });
      path = options.vault.resolve(SOCKET_VAULT_PATH);
      hookPath = options.vault.resolve(HOOK_SOCKET_VAULT_PATH);
      root = realpathSync(options.vault.root);
    } catch (err) {
      return { none: errorMessage(err) };
    }
    const cache: ReplyCache = new ReplyCache(options.live, (req, background) =>
      run(
        req,
        root,
        options,
        background ? options.live.foreground.backgroundSlicer() : hostSlicer(),
      ),
    );
    let self: SearchSocket | null = null;
    const server = createServer((c: Socket) => {
      if (self) self.accept(c, root, options);
      else c.destroy();
    });
    const bound = await bindSocket(path, server);
    if ("none" in bound) return bound;
    options.live.onChange(() => cache.changed());
    const hookServer = createHttpServer((req, res) => {
      if (self) self.acceptHook(req, res, root, options);
      else res.writeHead(503).end();
    });
    const hookBound = await bindSocket(hookPath, hookServer);
    if ("none" in hookBound)
      options.log(`serve: no socket for the shell hook (${hookBound.none}); hooks run the CLI`);
    self = new SearchSocket(
      path,
      server,
      bound.ino,
      cache,
      "none" in hookBound ? null : { path: hookPath, server: hookServer, ino: hookBound.ino },
    );
    if (options.vaultArg !== undefined) self.warmed = self.prewarm(options.vaultArg, options.live);
    return self;
  }

  /** How many commands this socket ran (fallbacks not counted). */
  get answered(): number {
    return this.served;
  }

  /**
   * When the last request arrived on either socket, answered or not (ms since the epoch; the
   * instant it started listening when none has): what `serve --idle-exit` measures quiet from.
   */
  get lastRequestAt(): number {
    return this.lastRequest;
  }

  /**
   * Computes in the background the SessionStart reply of each agent of the index for a hook
   * naming the vault as `vaultArg`, from this process's folder and environment, so a session's
   * first start is a cache hit. Never throws (a failure only leaves the cache empty).
   */
  private prewarm(vaultArg: string, live: LiveIndex): Promise<number> {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env))
      if (k.startsWith("AGENT_MEMORY_") && v !== undefined) env[k] = v;
    const event = JSON.stringify({ hook_event_name: "SessionStart" });
    return (async () => {
      let n = 0;
      for (const agent of live.service.agents()) {
        const req: ServeRequest = {
          v: PROTOCOL_VERSION,
          argv: ["hook", "claude-code", "--vault", vaultArg, "--agent", agent, event],
          cwd: process.cwd(),
          vault: vaultArg,
          env,
          tz: timeZone(),
        };
        const key = ReplyCache.keyOf(req, env);
        const reply = key ? await this.cache.fill(key, req).catch(() => null) : null;
        if (reply && "code" in reply) n++;
      }
      return n;
    })();
  }

  /** Stops listening and removes the socket file (only if it is still this server's). Never throws. */
  async close(): Promise<void> {
    this.cache.close();
    for (const c of this.connections) c.destroy();
    const closing = [new Promise<void>((resolve) => this.server.close(() => resolve()))];
    if (this.hook) {
      const hook = this.hook.server;
      closing.push(new Promise<void>((resolve) => hook.close(() => resolve())));
      hook.closeAllConnections();
    }
    await Promise.all(closing);
    // Node removes the file itself on close; a socket another server put there since is not ours.
    removeIfSame(this.path, this.ino);
    if (this.hook) removeIfSame(this.hook.path, this.hook.ino);
  }

  /**
   * One request of the shell hook: `POST /claude-code` with a form body (`vault`, `agent`, `cwd`,
   * `tz`, the event as `event`, each `AGENT_MEMORY_*` variable as `env=NAME=value`), run with the
   * checks of a socket request ({@link hookRequest}). 200 with the hook's stdout when it ran, exited
   * 0 and wrote nothing to stderr; else 409 with the reason, and the shell hook runs the CLI, which
   * prints what it prints (its stderr line included). 404 for another path, 413 over
   * {@link MAX_REQUEST_BYTES}.
   */
  private acceptHook(
    req: IncomingMessage,
    res: ServerResponse,
    root: string,
    options: SearchSocketOptions,
  ): void {
    const send = (status: number, body: string): void => {
      res.writeHead(status, {
        "content-type": "text/plain; charset=utf-8",
        "content-length": Buffer.byteLength(body),
      });
      res.end(body);
    };
    this.lastRequest = Date.now();
    if (req.method !== "POST" || req.url !== "/claude-code") {
      send(404, "only POST /claude-code\n");
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_REQUEST_BYTES) chunks.push(chunk);
    });
    req.on("error", () => res.destroy());
    req.on("end", () => {
      if (size > MAX_REQUEST_BYTES) {
        send(413, `request over ${MAX_REQUEST_BYTES} bytes\n`);
        return;
      }
      const request = hookRequest(new URLSearchParams(Buffer.concat(chunks).toString("utf8")));
      if (request === null) {
        send(409, "not a hook request (vault, agent, cwd and event are needed)\n");
        return;
      }
      void answerRequest(request, root, options, this.cache).then((reply) => {
        if ("fallback" in reply) send(409, `${reply.fallback}\n`);
        else if (reply.code !== 0 || reply.lines.some(([s]) => s === "e"))
          send(409, "the hook wrote to stderr or failed: the CLI runs it\n");
        else {
          this.served++;
          send(200, reply.lines.map(([, line]) => `${line}\n`).join(""));
        }
      });
    });
  }

  private accept(conn: Socket, root: string, options: SearchSocketOptions): void {
    this.lastRequest = Date.now();
    this.connections.add(conn);
    conn.on("close", () => this.connections.delete(conn));
    conn.on("error", () => conn.destroy());
    const chunks: Buffer[] = [];
    let size = 0;
    let started = false;
    conn.on("data", (chunk: Buffer) => {
      if (started) return;
      size += chunk.length;
      const nl = chunk.indexOf(10);
      if (nl < 0) {
        chunks.push(chunk);
        if (size > MAX_REQUEST_BYTES) conn.destroy();
        return;
      }
      started = true;
      chunks.push(chunk.subarray(0, nl));
      void answer(Buffer.concat(chunks).toString("utf8"), root, options, this.cache).then(
        (reply) => {
          if ("code" in reply) this.served++;
          if (!conn.destroyed) conn.end(`${JSON.stringify(reply)}\n`);
        },
      );
    });
  }
}

/**
 * Binds `server` to the Unix socket `path` with mode 600. A socket left by a server that is gone
 * (connection refused) is replaced; a path too long, a file that is not a socket or a live socket
 * give `{ none: reason }`. Never throws.
 */
async function bindSocket(
  path: string,
  server: Server | HttpServer,
): Promise<{ ino: number } | { none: string }> {
  const length = checkLength(path);
  if ("none" in length) return length;
  const st = lstatOrNull(path);
  if (st && !st.isSocket())
    return { none: `${path} exists and is not a socket; it is left as it is` };
  if (st) {
    const state = await probe(path);
    if (state === "live") return { none: `another server answers on ${path}` };
    if (state === "refused") {
      try {
        unlinkSync(path);
      } catch (err) {
        return { none: `cannot replace ${path}: ${errorMessage(err)}` };
      }
    }
  }
  return new Promise((resolve) => {
    server.once("error", (err) =>
      resolve({ none: `cannot listen on ${path}: ${errorMessage(err)}` }),
    );
    // Created with mode 600 (umask 177 while it is bound, which Node does at once), then chmod
    // again in case the platform ignored the umask.
    const umask = process.umask(0o177);
    try {
      server.listen(path, () => {
        try {
          chmodSync(path, 0o600);
          resolve({ ino: lstatSync(path).ino });
        } catch (err) {
          server.close();
          resolve({ none: `cannot listen on ${path}: ${errorMessage(err)}` });
        }
      });
    } finally {
      process.umask(umask);
    }
  });
}

/** Removes the socket `path` if it is still the one of inode `ino` (not another server's). */
function removeIfSame(path: string, ino: number): void {
  const st = lstatOrNull(path);
  if (st?.isSocket() && st.ino === ino) {
    try {
      unlinkSync(path);
    } catch {
      // already gone
    }
  }
}

function lstatOrNull(path: string): ReturnType<typeof lstatSync> | null {
  try {
    return lstatSync(path);
  } catch {
    // Gone or unreachable: the caller treats it as no socket file.
    return null;
  }
}

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    // Not resolvable: the caller refuses the path.
    return null;
  }
}

/** Reads a request line and answers it ({@link answerRequest}). Never throws. */
async function answer(
  text: string,
  root: string,
  options: SearchSocketOptions,
  cache: ReplyCache,
): Promise<ServeReply> {
  let req: ServeRequest;
  try {
    req = JSON.parse(text) as ServeRequest;
  } catch {
    // Reported to the client, which then runs the search itself.
    return { fallback: "request is not JSON" };
  }
  return answerRequest(req, root, options, cache);
}

/**
 * The command line the shell hook's form asks for (see {@link SearchSocket}'s `acceptHook`): the
 * one hooks/hooks.json runs, `hook claude-code --vault V --agent A <event>`, with the launcher's
 * fields; `null` when a field is missing.
 */
export function hookRequest(form: URLSearchParams): ServeRequest | null {
  const vault = form.get("vault");
  const agent = form.get("agent");
  const cwd = form.get("cwd");
  const event = form.get("event");
  if (vault === null || agent === null || cwd === null || event === null) return null;
  const env: Record<string, string> = {};
  for (const pair of form.getAll("env")) {
    const eq = pair.indexOf("=");
    if (eq > 0) env[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return {
    v: PROTOCOL_VERSION,
    argv: ["hook", "claude-code", "--vault", vault, "--agent", agent, event],
    cwd,
    vault: nodePath.resolve(cwd, vault),
    env,
    tz: form.get("tz") ?? "",
  };
}

/**
 * Checks a request and runs it (a SessionStart hook through `cache`), as a request of the live
 * index's `Foreground`: the server's background work waits meanwhile. Never throws.
 */
async function answerRequest(
  req: ServeRequest,
  root: string,
  options: SearchSocketOptions,
  cache: ReplyCache,
): Promise<ServeReply> {
  if (req?.v !== PROTOCOL_VERSION)
    return {
      fallback: `protocol version ${String(req?.v)} (this server speaks ${PROTOCOL_VERSION})`,
    };
  if (
    !Array.isArray(req.argv) ||
    !req.argv.every((a) => typeof a === "string") ||
    typeof req.cwd !== "string" ||
    typeof req.vault !== "string"
  ) {
    return { fallback: "request is not a command line" };
  }
  if (
    !SERVED.has(req.argv[0] ?? "") ||
    (req.argv[0] === "hook" && servedHookVault(req.argv) === null)
  )
    return { fallback: `"${req.argv[0] ?? ""}" is not run by a server` };
  if (realOrNull(nodePath.resolve(req.cwd, req.vault)) !== root)
    return { fallback: "another vault" };
  // Expiry is judged by the local date: a caller in another time zone runs on its own.
  if (req.tz !== timeZone()) return { fallback: "another time zone" };
  const key = ReplyCache.keyOf(req, requestEnv(req));
  return options.live.foreground.run(async () => {
    if (key === null) return run(req, root, options, hostSlicer());
    // The watcher's events already queued are seen first, so a note saved just before is a change.
    await nextTurn();
    await options.live.settled();
    return cache.reply(key, req);
  });
}

/** The request's `AGENT_MEMORY_*` variables (only those reach a served run). */
function requestEnv(req: ServeRequest): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(req.env ?? {}))
    if (k.startsWith("AGENT_MEMORY_") && typeof v === "string") env[k] = v;
  return env;
}

/**
 * Runs a checked request with the server's index lent to it. Never throws.
 * @param slice yields once a slice of the run's reads is used up: {@link hostSlicer} for a request,
 *   a {@link Foreground.backgroundSlicer} for work no request waits for
 */
async function run(
  req: ServeRequest,
  root: string,
  options: SearchSocketOptions,
  slice: () => Promise<void>,
): Promise<ServeReply> {
  const env = requestEnv(req);
  const settings = JSON.stringify(options.settings);
  let refused: string | null = null;
  const warm: WarmSearch = {
    // Each served run's reads yield to the server's other requests once a slice is used up.
    slice,
    open: async (ctx: CliContext) => {
      // The same checks on the vault main() opened, as main() parsed the arguments.
      if (realOrNull(ctx.vaultRoot) !== root) refused = "another vault";
      else if (JSON.stringify(ctx.settings) !== settings)
        refused = "the settings changed since the server opened the index";
      if (refused) throw new NotServed(refused);
      // Let the watcher's events already queued be seen (a note saved just before this search),
      // then index everything pending, as the MCP search does (docs/mcp.md, "Following the disk").
      await nextTurn();
      await options.live.settled();
      // The folder links out of the vault the run's own listing would warn of (the server's
      // listing met them; the run does not list the vault).
      ctx.vault.tellSkippedLinks(options.vault.linksSkipped());
      const service = options.live.service;
      const report: OpenReport = {
        source: "saved",
        notes: service.size,
        indexed: 0,
        removed: 0,
        loadMs: 0,
        syncMs: 0,
        saveMs: 0,
        capped: [],
        unreadable: options.live.unreadable(),
      };
      return { service, report };
    },
  };
  const lines: ["o" | "e", string][] = [];
  try {
    const code = await options.dispatch(req.argv, {
      out: (l) => lines.push(["o", l]),
      err: (l) => lines.push(["e", l]),
      env,
      cwd: req.cwd,
      warm,
    });
    if (refused) return { fallback: refused };
    return { code, lines };
  } catch (err) {
    options.log(`serve: a search failed: ${errorMessage(err)}`);
    return { fallback: errorMessage(err) };
  }
}
