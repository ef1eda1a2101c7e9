/**
 * `agent-memory mcp <vault> --http [HOST:]PORT` (docs/mcp.md, "Remote use"): the MCP server over
 * Streamable HTTP at `/mcp`, on Node's `http` module and the SDK's own
 * `StreamableHTTPServerTransport`, one transport and one `McpServer` per session, each request
 * answered with one JSON body (no SSE stream per request); a plain request of a session is
 * answered by `json-transport.ts` without the SDK's web `Request` and `Response`. The session's
 * server is built from the rights of the token that opened it (agent, zones, read-only, tools:
 * the rules of the stdio flags), and every request is judged again before it reaches the
 * session, in this order: `Host` (421, when bound to loopback), `Origin` (403), path (404), a
 * browser's preflight of an allowed origin (204, with the CORS headers every answer to that origin
 * carries), `Authorization: Bearer` (401 with `WWW-Authenticate`), the token's rate (429 with
 * `Retry-After`), the body's size (413), and the session's token (403 when another token opened
 * it). One access-log line per request goes to stderr: time, token id, method or tool, status,
 * milliseconds — never the token or an argument.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { EventStore } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { isJsonContentType } from "@modelcontextprotocol/sdk/shared/mediaType.js";
import { errorMessage } from "../../core/errors";
import {
  PREFLIGHT_HEADERS,
  RateLimiter,
  corsHeaders,
  loopbackHosts,
  normalOrigin,
  originAllowed,
} from "./limits";
import { JsonSessionTransport } from "./json-transport";
import type { TokenEntry, TokenRegistry } from "./tokens";

/** Largest request body read (bytes): a bigger one is answered 413 before it is parsed. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** Requests one token may make per minute before 429. */
export const DEFAULT_RATE_PER_MINUTE = 600;

/** A session with no request and no open stream this long (ms) is closed. */
export const DEFAULT_IDLE_MS = 30 * 60_000;

/**
 * Longest a stop waits for the requests in flight (ms) before it closes the sessions and the
 * connections anyway: a request that never ends (a client's own stream, a tool that hangs) must
 * not keep a stopping server, and its index unsaved, for as long as its client waits.
 */
export const DEFAULT_DRAIN_MS = 10_000;

/** Messages kept per session for a client that resumes a stream (`Last-Event-ID`). */
const EVENTS_KEPT = 512;

/** What {@link McpHttpServer.listen} needs. */
export interface McpHttpOptions {
  host: string;
  /** 0: a free port, chosen by the system (see {@link McpHttpServer.port}). */
  port: number;
  /** Bound to loopback: the `Host` header must name the bound host (DNS rebinding). */
  loopback: boolean;
  /** `Origin` values answered besides none (`--allow-origin`). */
  allowedOrigins: readonly string[];
  maxBodyBytes: number;
  ratePerMinute: number;
  idleMs: number;
  /** Longest a stop waits for requests in flight (ms); {@link DEFAULT_DRAIN_MS} when not given. */
  drainMs?: number;
  tokens: TokenRegistry;
  /**
   * Builds the MCP server of a new session for `token`. A {@link Error} thrown (an agent or zone
   * no longer in the vault) is answered 403 with its message.
   */
  serverFor: (token: TokenEntry) => Promise<McpServer>;
  /** One line to stderr. */
  log: (line: string) => void;
  /** Clock (ms since the epoch). */
  now: () => number;
}

interface Session {
  id: string;
  token: TokenEntry;
  server: McpServer;
  transport: JsonSessionTransport;
  /** Requests and streams of this session still open. */
  open: number;
  lastSeen: number;
}

/**
 * The SDK's resumability store (`EventStore`) for one session, in memory: the last
 * {@link EVENTS_KEPT} messages, so a client whose stream broke gets what it missed when it
 * reconnects with `Last-Event-ID`.
 */
class SessionEvents implements EventStore {
  private readonly events: { id: string; stream: string; message: JSONRPCMessage }[] = [];
  private next = 0;

  storeEvent(stream: string, message: JSONRPCMessage): Promise<string> {
    const id = `${stream}.${++this.next}`;
    this.events.push({ id, stream, message });
    if (this.events.length > EVENTS_KEPT) this.events.shift();
    return Promise.resolve(id);
  }

  getStreamIdForEventId(id: string): Promise<string | undefined> {
    return Promise.resolve(this.events.find((e) => e.id === id)?.stream);
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (id: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const at = this.events.findIndex((e) => e.id === lastEventId);
    if (at < 0) return "";
    const stream = this.events[at]?.stream ?? "";
    for (const e of this.events.slice(at + 1))
      if (e.stream === stream && Object.keys(e.message).length > 0) await send(e.id, e.message);
    return stream;
  }
}

/** What a request's JSON-RPC body asks, for the log: methods, with the tool of a `tools/call`. */
function labelOf(body: unknown): string {
  const one = (m: unknown): string => {
    if (m === null || typeof m !== "object") return "?";
    const r = m as { method?: unknown; params?: { name?: unknown }; result?: unknown };
    if (typeof r.method !== "string") return "response";
    const tool = r.method === "tools/call" ? r.params?.name : undefined;
    return typeof tool === "string" ? `${r.method}:${tool}` : r.method;
  };
  const label = Array.isArray(body) ? body.map(one).join(",") : one(body);
  // Names a client chose: kept to a safe, short form in the log.
  return label.replace(/[^\w/:,.-]/g, "?").slice(0, 120);
}

/** Reads a request body up to `limit` bytes; `null` when it is longer (the rest is not read). */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on("data", (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limit) {
        done = true;
        resolve(null);
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (!done) resolve(Buffer.concat(chunks));
    });
    req.on("error", reject);
  });
}

function jsonError(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
  code = -32000,
): void {
  if (res.headersSent) return;
  res.writeHead(status, { "Content-Type": "application/json", ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

/** The JSON-RPC error code the SDK's transport gives an unknown session (with status 404). */
const SESSION_NOT_FOUND = -32001;

/**
 * The SDK transport's refusal of a POST by its headers, in its order and words: an `Accept`
 * without both `application/json` and `text/event-stream` (406), then a `Content-Type` that is
 * not JSON (415); `null` when it would read the body.
 */
function headersRefusal(req: IncomingMessage): { status: number; message: string } | null {
  const accept = req.headers.accept ?? "";
  if (!accept.includes("application/json") || !accept.includes("text/event-stream"))
    return {
      status: 406,
      message: "Not Acceptable: Client must accept both application/json and text/event-stream",
    };
  if (!isJsonContentType(req.headers["content-type"]))
    return {
      status: 415,
      message: "Unsupported Media Type: Content-Type must be application/json",
    };
  return null;
}

/** The Streamable HTTP server of one vault; see the module comment. */
export class McpHttpServer {
  private readonly sessions = new Map<string, Session>();
  private readonly inflight = new Set<Promise<void>>();
  private readonly limiter: RateLimiter;
  private readonly origins: Set<string>;
  private hosts: Set<string> = new Set();
  private closing = false;
  private sweeper: ReturnType<typeof setInterval> | null = null;

  private constructor(
    private readonly opts: McpHttpOptions,
    private readonly http: Server,
  ) {
    this.limiter = new RateLimiter(opts.ratePerMinute);
    this.origins = new Set(opts.allowedOrigins.map(normalOrigin));
  }

  /**
   * Listens on `opts.host`:`opts.port` and answers at `/mcp`.
   * @throws the listen error (`EADDRINUSE`, `EACCES` …)
   */
  static async listen(opts: McpHttpOptions): Promise<McpHttpServer> {
    // A client reuses an idle connection until the server's keep-alive hint (less a second): a
    // server that closed it at 5 s (Node's default) meanwhile fails that request on a busy
    // machine. Sixty seconds, as proxies keep theirs; headers must come within a little more.
    const http = createServer({ headersTimeout: 61_000 });
    http.keepAliveTimeout = 60_000;
    const server = new McpHttpServer(opts, http);
    http.on("request", (req: IncomingMessage, res: ServerResponse) => server.onRequest(req, res));
    await new Promise<void>((resolve, reject) => {
      http.once("error", reject);
      http.listen(opts.port, opts.host, () => {
        http.off("error", reject);
        resolve();
      });
    });
    server.hosts = loopbackHosts(opts.host, server.port);
    server.sweeper = setInterval(() => void server.sweep(), Math.min(opts.idleMs, 60_000));
    server.sweeper.unref();
    return server;
  }

  /** The port it listens on (the one the system chose for port 0). */
  get port(): number {
    return (this.http.address() as AddressInfo).port;
  }

  /** `http://HOST:PORT/mcp`, as a client names it. */
  get url(): string {
    const h = this.opts.host.includes(":") ? `[${this.opts.host}]` : this.opts.host;
    return `http://${h}:${this.port}/mcp`;
  }

  /** Sessions open now. */
  get sessionCount(): number {
    return this.sessions.size;
  }

  /**
   * Closes the sessions that are idle (no request and no open stream for `idleMs`) and those whose
   * token is revoked or expired. Runs by itself every minute (at most `idleMs`); tests call it.
   */
  async sweep(): Promise<void> {
    await this.opts.tokens.refresh();
    const nowMs = this.opts.now();
    for (const s of [...this.sessions.values()]) {
      if (this.opts.tokens.void(s.token)) await this.end(s, "its token is no longer valid");
      else if (s.open === 0 && nowMs - s.lastSeen >= this.opts.idleMs)
        await this.end(s, `idle for ${Math.round((nowMs - s.lastSeen) / 1000)} s`);
    }
  }

  /**
   * Stops: no new connection or request (503 meanwhile), waits for the requests in flight to be
   * answered (at most {@link McpHttpOptions.drainMs}), then closes every session (its streams
   * end, a request still waiting is told the session ended) and the listening socket.
   */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    if (this.sweeper) clearInterval(this.sweeper);
    const closed = new Promise<void>((resolve) => this.http.close(() => resolve()));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<"late">((resolve) => {
      timer = setTimeout(() => resolve("late"), this.opts.drainMs ?? DEFAULT_DRAIN_MS);
    });
    while (this.inflight.size > 0) {
      if ((await Promise.race([Promise.all([...this.inflight]), late])) === "late") {
        this.opts.log(`mcp: stopping without waiting longer for ${this.inflight.size} request(s)`);
        break;
      }
    }
    clearTimeout(timer);
    for (const s of [...this.sessions.values()]) await this.end(s, "the server stops");
    this.http.closeAllConnections();
    await closed;
  }

  private async end(s: Session, why: string): Promise<void> {
    if (!this.sessions.delete(s.id)) return;
    this.opts.log(`mcp: session ${s.id.slice(0, 8)} of ${s.token.id} closed (${why})`);
    await s.server.close().catch(() => undefined);
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    const t0 = performance.now();
    let tokenId = "-";
    let label = `${req.method ?? "?"}`;
    let session: Session | null = null;
    // A request in flight, which close() waits for; a GET stream lasts as long as its session.
    let settle: () => void = () => undefined;
    const pending =
      req.method === "GET" ? null : new Promise<void>((resolve) => (settle = resolve));
    if (pending) this.inflight.add(pending);
    res.on("close", () => {
      const ms = Math.round(performance.now() - t0);
      const aborted = res.writableFinished ? "" : " (connection closed early)";
      // No status was sent on a connection closed before an answer: "-", not Node's default 200.
      const status = res.headersSent ? String(res.statusCode) : "-";
      this.opts.log(
        `http: ${new Date(this.opts.now()).toISOString()} ${tokenId} ${label} ${status} ${ms} ms${aborted}`,
      );
      if (session) {
        session.open--;
        session.lastSeen = this.opts.now();
      }
      if (pending) this.inflight.delete(pending);
      settle();
    });
    void this.handle(req, res, {
      token: (id) => (tokenId = id),
      label: (l) => (label = l),
      session: (s) => {
        session = s;
        s.open++;
      },
    }).catch((err: unknown) => {
      this.opts.log(`mcp: request failed: ${errorMessage(err)}`);
      jsonError(res, 500, "internal error");
    });
  }

  private async handle(
    req: IncomingMessage,
    res: ServerResponse,
    note: {
      token: (id: string) => void;
      label: (label: string) => void;
      session: (s: Session) => void;
    },
  ): Promise<void> {
    if (this.closing) {
      jsonError(res, 503, "the server is stopping", { Connection: "close" });
      return;
    }
    const host = (req.headers.host ?? "").toLowerCase();
    if (this.opts.loopback && !this.hosts.has(host)) {
      jsonError(
        res,
        421,
        `Host ${host || "(none)"} is not this server's (${[...this.hosts].join(", ")})`,
      );
      return;
    }
    const origin = req.headers.origin;
    if (!originAllowed(origin, this.origins)) {
      jsonError(res, 403, `Origin ${origin} is not allowed (see --allow-origin)`);
      return;
    }
    // An allowed web page reads every answer, errors included (docs/mcp.md, "A web page as the client").
    for (const [name, value] of Object.entries(corsHeaders(origin))) res.setHeader(name, value);
    const path = (req.url ?? "").split("?")[0];
    if (path !== "/mcp") {
      jsonError(res, 404, `no MCP endpoint at ${path}; it is /mcp`);
      return;
    }
    if (req.method === "OPTIONS") {
      note.label("OPTIONS preflight");
      res.writeHead(204, PREFLIGHT_HEADERS);
      res.end();
      return;
    }
    await this.opts.tokens.refresh();
    const auth = this.opts.tokens.authenticate(req.headers.authorization);
    if (!auth.ok) {
      if (auth.id) note.token(auth.id);
      const challenge =
        auth.error === "invalid_request"
          ? `Bearer realm="agent-memory"`
          : `Bearer realm="agent-memory", error="invalid_token", error_description="${auth.reason}"`;
      jsonError(res, 401, `${auth.reason}: send Authorization: Bearer <token>`, {
        "WWW-Authenticate": challenge,
      });
      return;
    }
    const token = auth.token;
    note.token(token.id);
    const wait = this.limiter.take(token.id, this.opts.now());
    if (wait > 0) {
      jsonError(
        res,
        429,
        `more than ${this.limiter.perMinute} requests a minute with ${token.id}; retry in ${wait} s`,
        { "Retry-After": String(wait) },
      );
      return;
    }
    let body: unknown = undefined;
    if (req.method === "POST") {
      const declared = Number(req.headers["content-length"]);
      const raw =
        declared > this.opts.maxBodyBytes ? null : await readBody(req, this.opts.maxBodyBytes);
      if (raw === null) {
        jsonError(res, 413, `request body over ${this.opts.maxBodyBytes} bytes`, {
          Connection: "close",
        });
        return;
      }
      // The SDK judges a POST's headers before its body and its session: under headers it refuses,
      // a body that is not JSON, a request with no session or an unknown one gets its refusal
      // (406, 415), not a parse error, 400 or 404.
      const refused = headersRefusal(req);
      if (refused) {
        jsonError(res, refused.status, refused.message);
        return;
      }
      try {
        body = JSON.parse(raw.toString("utf8"));
      } catch {
        res.writeHead(400, { "Content-Type": "application/json" });
        res.end(
          JSON.stringify({
            jsonrpc: "2.0",
            error: { code: -32700, message: "Parse error: Invalid JSON" },
            id: null,
          }),
        );
        return;
      }
      note.label(labelOf(body));
    } else note.label(req.method === "GET" ? "GET stream" : `${req.method ?? "?"} session`);
    await this.opts.tokens.touch(token);
    const sid = req.headers["mcp-session-id"];
    if (typeof sid === "string") {
      const s = this.sessions.get(sid);
      if (!s) {
        jsonError(res, 404, "Session not found", {}, SESSION_NOT_FOUND);
        return;
      }
      if (s.token.id !== token.id) {
        jsonError(res, 403, `this session belongs to another token than ${token.id}`);
        return;
      }
      note.session(s);
      s.lastSeen = this.opts.now();
      await s.transport.handle(req, res, body);
      return;
    }
    await this.open(req, res, token, body, note.session);
  }

  /** A request without a session: an `initialize` opens one, anything else is refused. */
  private async open(
    req: IncomingMessage,
    res: ServerResponse,
    token: TokenEntry,
    body: unknown,
    noteSession: (s: Session) => void,
  ): Promise<void> {
    const isInit =
      req.method === "POST" &&
      body !== null &&
      typeof body === "object" &&
      !Array.isArray(body) &&
      (body as { method?: unknown }).method === "initialize";
    if (!isInit) {
      jsonError(res, 400, "no Mcp-Session-Id: send initialize first");
      return;
    }
    let server: McpServer;
    try {
      server = await this.opts.serverFor(token);
    } catch (err) {
      jsonError(res, 403, `${token.id}: ${errorMessage(err)}`);
      return;
    }
    let s: Session | null = null;
    const sdk: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // A request's answer is one JSON body, not an SSE stream (docs/decisions.md, "MCP over HTTP
      // answers a request with JSON"): no tool sends a notification while it runs, and a stream
      // per request cost the server about half a millisecond each. Notifications of the server
      // still go over the session's GET stream, resumable from the events kept.
      enableJsonResponse: true,
      eventStore: new SessionEvents(),
      // This server reads the body itself (the limit above) and hands it over parsed.
      onsessioninitialized: (id) => {
        s = { id, token, server, transport, open: 0, lastSeen: this.opts.now() };
        this.sessions.set(id, s);
        noteSession(s);
        this.opts.log(
          `mcp: session ${id.slice(0, 8)} opened with ${token.id} (agent ${token.agent})`,
        );
      },
    });
    // A plain request of the session is answered without the SDK's Node transport, the rest
    // through it (docs/decisions.md, "MCP over HTTP answers a plain request itself").
    const transport = new JsonSessionTransport(sdk);
    transport.onclose = () => {
      if (s) void this.end(s, "ended by the client");
    };
    await server.connect(transport);
    await transport.handle(req, res, body);
    if (!s) await server.close().catch(() => undefined);
  }
}
