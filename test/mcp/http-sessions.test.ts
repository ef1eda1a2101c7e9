// Sessions of the HTTP server (src/mcp/http/http-server.ts) in process, on a clock driven by hand:
// a session whose client went away without ending it is closed once idle for idleMs, not before;
// a session whose token is revoked is closed at the next sweep. The MCP servers are bare ones: what
// is judged here is the sessions, not the tools. A request is answered with one JSON body, while
// the server's own notifications still reach the client over the session's GET stream.
import { afterEach, describe, expect, it } from "vitest";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { McpHttpServer } from "../../src/mcp/http/http-server";
import { TokenRegistry, addToken, revokeToken } from "../../src/mcp/http/tokens";
import { httpClient } from "../helpers/mcp-http-client";
import { tempVault } from "../helpers/temp-vault";

let v: ReturnType<typeof tempVault>;
let server: McpHttpServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
  v?.cleanup();
});

async function start(
  now: () => number,
  log: string[],
  onLine: (l: string) => void = () => {},
  made: McpServer[] = [],
) {
  v = tempVault();
  const t = await addToken(
    v.vault,
    { agent: "ada", readOnly: false, tools: null, zones: [] },
    null,
    now(),
  );
  const tokens = new TokenRegistry(v.vault, now, (l) => log.push(l));
  server = await McpHttpServer.listen({
    host: "127.0.0.1",
    port: 0,
    loopback: true,
    allowedOrigins: [],
    maxBodyBytes: 1024 * 1024,
    ratePerMinute: 1000,
    idleMs: 60_000,
    tokens,
    serverFor: () => {
      const mcp = new McpServer({ name: "bare", version: "1" }, { capabilities: { logging: {} } });
      made.push(mcp);
      return Promise.resolve(mcp);
    },
    log: (l) => {
      log.push(l);
      onLine(l);
    },
    now,
  });
  return { server, t };
}

describe("http sessions", () => {
  it("closes a session left without a DELETE once idle for idleMs, not a millisecond before", async () => {
    let now = Date.parse("2026-12-01T12:00:00Z");
    let ended: () => void = () => undefined;
    const streamEnded = new Promise<void>((resolve) => (ended = resolve));
    const log: string[] = [];
    const { server, t } = await start(
      () => now,
      log,
      (l) => {
        if (l.includes(" GET stream ")) ended();
      },
    );
    const { client, transport } = await httpClient(server.url, t.secret);
    await client.ping();
    // The client goes away: its streams close, no DELETE is sent.
    await transport.close();
    await client.close();
    // The server has seen the stream end once it logs it.
    await streamEnded;
    expect(server.sessionCount).toBe(1);
    const idleFrom = now;
    now = idleFrom + 59_999;
    await server.sweep();
    expect(server.sessionCount).toBe(1);
    now = idleFrom + 60_000;
    await server.sweep();
    expect(server.sessionCount).toBe(0);
    expect(log.some((l) => /session \w+ of tk-\w+ closed \(idle for 60 s\)/.test(l))).toBe(true);
  });

  it("closes the sessions of a token revoked meanwhile", async () => {
    const now = Date.parse("2026-12-01T12:00:00Z");
    const log: string[] = [];
    const { server, t } = await start(() => now, log);
    const { client } = await httpClient(server.url, t.secret);
    await client.ping();
    await server.sweep();
    expect(server.sessionCount).toBe(1);
    await revokeToken(v.vault, t.id, now);
    await server.sweep();
    expect(server.sessionCount).toBe(0);
    expect(log.some((l) => l.includes("closed (its token is no longer valid)"))).toBe(true);
    await client.close();
  });

  it("answers a request with one JSON body; the server's notifications come over the GET stream", async () => {
    const now = Date.parse("2026-12-01T12:00:00Z");
    const made: McpServer[] = [];
    const { server, t } = await start(() => now, [], undefined, made);
    const { client, transport } = await httpClient(server.url, t.secret);
    const res = await fetch(server.url, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${t.secret}`,
        Accept: "application/json, text/event-stream",
        "Content-Type": "application/json",
        "Mcp-Session-Id": transport.sessionId ?? "",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "ping" }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({ jsonrpc: "2.0", id: 7, result: {} });
    // The SDK's client takes JSON answers as it takes streamed ones.
    await client.ping();
    const heard = new Promise<unknown>((resolve) =>
      client.setNotificationHandler(LoggingMessageNotificationSchema, (n) =>
        resolve(n.params.data),
      ),
    );
    // The client opens its GET stream after initialize, in the background: a notification is sent
    // until one arrives.
    const mcp = made[0]!;
    const timer = setInterval(
      () => void mcp.server.sendLoggingMessage({ level: "info", data: "hello" }).catch(() => {}),
      20,
    );
    try {
      expect(await heard).toBe("hello");
    } finally {
      clearInterval(timer);
    }
    await client.close();
  });
});
