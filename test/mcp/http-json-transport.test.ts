// A session's plain requests (src/mcp/http/json-transport.ts) are answered without the SDK's Node
// transport, with the answer it gives; every other request is still the SDK's, refusals included.
import { afterEach, describe, expect, it, vi } from "vitest";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";
import { McpHttpServer } from "../../src/mcp/http/http-server";
import { TokenRegistry, addToken } from "../../src/mcp/http/tokens";
import { httpClient } from "../helpers/mcp-http-client";
import { tempVault } from "../helpers/temp-vault";

let v: ReturnType<typeof tempVault>;
let server: McpHttpServer | null = null;
afterEach(async () => {
  vi.restoreAllMocks();
  await server?.close();
  server = null;
  v?.cleanup();
});

const NOW = Date.parse("2026-12-01T12:00:00Z");

/** What `hold` waits for, by its text: released by the test. */
const gates = new Map<string, () => void>();
/** A promise `hold` with `text` waits on until {@link release}. */
function gate(text: string): Promise<void> {
  return new Promise((resolve) => gates.set(text, resolve));
}
function release(text: string): void {
  gates.get(text)?.();
}

/**
 * A server whose sessions have two tools: `shout`, that logs a line about its request and
 * answers, and `hold`, that answers its text once the test releases it.
 */
async function start(drainMs?: number) {
  v = tempVault();
  const t = await addToken(
    v.vault,
    { agent: "ada", readOnly: false, tools: null, zones: [] },
    null,
    NOW,
  );
  server = await McpHttpServer.listen({
    host: "127.0.0.1",
    port: 0,
    loopback: true,
    allowedOrigins: [],
    maxBodyBytes: 1024 * 1024,
    ratePerMinute: 1000,
    idleMs: 60_000,
    ...(drainMs !== undefined ? { drainMs } : {}),
    tokens: new TokenRegistry(
      v.vault,
      () => NOW,
      () => undefined,
    ),
    serverFor: () => {
      const mcp = new McpServer({ name: "bare", version: "1" }, { capabilities: { logging: {} } });
      mcp.registerTool(
        "shout",
        { description: "upper case", inputSchema: { text: z.string() } },
        async ({ text }, extra) => {
          // A notification about this request: no stream carries it in JSON-response mode.
          await extra.sendNotification({
            method: "notifications/message",
            params: { level: "info", data: `shouting ${text}` },
          });
          return { content: [{ type: "text", text: text.toUpperCase() }] };
        },
      );
      mcp.registerTool(
        "hold",
        { description: "waits", inputSchema: { text: z.string() } },
        async ({ text }) => {
          await gate(text);
          return { content: [{ type: "text", text }] };
        },
      );
      return Promise.resolve(mcp);
    },
    log: () => undefined,
    now: () => NOW,
  });
  const { client, transport } = await httpClient(server.url, t.secret);
  return { url: server.url, secret: t.secret, client, session: transport.sessionId ?? "" };
}

/** The POSTs the SDK's Node transport handled (the client's GET stream is always its). */
function sdkPosts(spy: { mock: { calls: unknown[][] } }): number {
  return spy.mock.calls.filter((c) => (c[0] as { method?: string }).method === "POST").length;
}

/** A POST of `body` in the session, with the headers the SDK's client sends unless overridden. */
async function post(
  s: { url: string; secret: string; session: string },
  body: unknown,
  headers: Record<string, string | null> = {},
) {
  return postText(s, JSON.stringify(body), headers);
}

/** {@link post} of a body as it is (JSON or not); a header given as `null` is not sent. */
async function postText(
  s: { url: string; secret: string; session: string },
  body: string,
  headers: Record<string, string | null> = {},
) {
  const all: Record<string, string | null> = {
    Authorization: `Bearer ${s.secret}`,
    Accept: "application/json, text/event-stream",
    "Content-Type": "application/json",
    "Mcp-Session-Id": s.session,
    "Mcp-Protocol-Version": "2025-06-18",
    ...headers,
  };
  const sent = Object.entries(all).filter((e): e is [string, string] => e[1] !== null);
  const res = await fetch(s.url, {
    method: "POST",
    headers: Object.fromEntries(sent),
    body,
  });
  const text = await res.text();
  return {
    status: res.status,
    type: res.headers.get("content-type"),
    session: res.headers.get("mcp-session-id"),
    body: text ? (JSON.parse(text) as unknown) : null,
  };
}

const call = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "shout", arguments: { text: "hello" } },
});

describe("a session's plain requests", () => {
  it("are answered without the SDK's Node transport, as it answers them", async () => {
    const s = await start();
    const viaSdk = vi.spyOn(StreamableHTTPServerTransport.prototype, "handleRequest");
    const plain = await post(s, call(1));
    expect(sdkPosts(viaSdk)).toBe(0);
    // A media type parameter this server does not judge: the SDK's transport answers.
    const other = await post(s, call(1), { "Content-Type": "application/json; profile=x" });
    expect(sdkPosts(viaSdk)).toBe(1);
    expect(plain).toEqual(other);
    expect(plain).toEqual({
      status: 200,
      type: "application/json",
      session: s.session,
      body: { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "HELLO" }] } },
    });
    // The SDK's client reads such answers.
    expect(await s.client.callTool({ name: "shout", arguments: { text: "hi" } })).toEqual({
      content: [{ type: "text", text: "HI" }],
    });
    await s.client.close();
  });

  it("leaves to the SDK what it refuses or answers otherwise", async () => {
    const s = await start();
    const viaSdk = vi.spyOn(StreamableHTTPServerTransport.prototype, "handleRequest");
    const version = await post(s, call(2), { "Mcp-Protocol-Version": "1999-01-01" });
    expect(version.status).toBe(400);
    expect(JSON.stringify(version.body)).toContain("Unsupported protocol version");
    // Refused headers (406, 415) and an unknown session (404) are this server's, before any
    // transport, in the SDK's words ("refusals as the SDK gives them" below).
    expect((await post(s, call(3), { Accept: "application/json" })).status).toBe(406);
    expect((await post(s, call(4), { "Content-Type": "text/plain" })).status).toBe(415);
    expect((await post(s, call(5), { "Mcp-Session-Id": "another" })).status).toBe(404);
    expect((await post(s, { jsonrpc: "2.0", method: "notifications/initialized" })).status).toBe(
      202,
    );
    const batch = await post(s, [call(6)]);
    expect(batch.status).toBe(200);
    // The SDK answers a batch of one with the one response.
    expect(batch.body).toEqual({
      jsonrpc: "2.0",
      id: 6,
      result: { content: [{ type: "text", text: "HELLO" }] },
    });
    expect((await post(s, { jsonrpc: "2.0", id: 7 })).status).toBe(400);
    expect(sdkPosts(viaSdk)).toBe(4);
    await s.client.close();
  });
});

describe("refusals as the SDK gives them", () => {
  it("a body that is not JSON gets the refusal of its headers first (406, 415), else a parse error", async () => {
    const s = await start();
    const notJson = "this is not JSON";
    const cases: Record<string, string>[] = [
      { Accept: "application/json" },
      { "Content-Type": "text/plain" },
      { Accept: "text/html", "Content-Type": "text/plain" },
    ];
    for (const headers of cases) {
      // What the SDK's transport answers for these headers with a body it could read.
      const sdk = await post(s, call(1), headers);
      expect([406, 415]).toContain(sdk.status);
      expect(await postText(s, notJson, headers)).toEqual(sdk);
    }
    const parse = await postText(s, notJson);
    expect(parse.status).toBe(400);
    expect(parse.body).toMatchObject({ error: { code: -32700 } });
    await s.client.close();
  });

  it("refused headers are judged before the session: none, an unknown one or a live one", async () => {
    const s = await start();
    const init = {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "t", version: "1" },
      },
    };
    const cases: Record<string, string>[] = [
      { Accept: "application/json" },
      { "Content-Type": "text/plain" },
      { "Content-Type": "application/x-www-form-urlencoded" },
    ];
    for (const headers of cases) {
      // An initialize with no session reaches the SDK's transport: its answer is the reference.
      const sdk = await post(s, init, { ...headers, "Mcp-Session-Id": null });
      expect([406, 415]).toContain(sdk.status);
      expect(await post(s, call(1), headers)).toEqual(sdk);
      expect(await post(s, call(1), { ...headers, "Mcp-Session-Id": null })).toEqual(sdk);
      expect(await post(s, call(1), { ...headers, "Mcp-Session-Id": "another" })).toEqual(sdk);
    }
    // With headers it takes, the session decides.
    expect((await post(s, call(1), { "Mcp-Session-Id": null })).status).toBe(400);
    expect((await post(s, call(1), { "Mcp-Session-Id": "another" })).status).toBe(404);
    await s.client.close();
  });

  it("an unknown session gets 404 with the SDK's code for it", async () => {
    const s = await start();
    const gone = await post(s, call(1), { "Mcp-Session-Id": "another" });
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ error: { code: -32001, message: "Session not found" } });
    await s.client.close();
  });
});

const hold = (id: number | string, text: string) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "hold", arguments: { text } },
});

/** Resolves once `hold` with `text` is waiting in the server. */
async function waiting(text: string): Promise<void> {
  while (!gates.has(text)) await new Promise((r) => setTimeout(r, 5));
}

describe("requests in flight", () => {
  afterEach(() => {
    for (const open of gates.values()) open();
    gates.clear();
  });

  it("two requests of one id at once each get their own answer, under that id", async () => {
    const s = await start();
    const first = post(s, hold(5, "first"));
    await waiting("first");
    const second = post(s, hold(5, "second"));
    await waiting("second");
    release("second");
    release("first");
    const [a, b] = await Promise.all([first, second]);
    expect(a.body).toEqual({
      jsonrpc: "2.0",
      id: 5,
      result: { content: [{ type: "text", text: "first" }] },
    });
    expect(b.body).toEqual({
      jsonrpc: "2.0",
      id: 5,
      result: { content: [{ type: "text", text: "second" }] },
    });
    await s.client.close();
  });

  it("a retry of a request whose client went away gets its own answer, not the old one", async () => {
    const s = await start();
    const gone = new AbortController();
    const abandoned = fetch(s.url, {
      method: "POST",
      signal: gone.signal,
      headers: {
        Authorization: `Bearer ${s.secret}`,
        Accept: "application/json, text/event-stream",
        "Content-Type": "application/json",
        "Mcp-Session-Id": s.session,
      },
      body: JSON.stringify(hold(46, "old")),
    }).catch(() => null);
    await waiting("old");
    gone.abort();
    await abandoned;
    const retry = post(s, hold(46, "new"));
    await waiting("new");
    // The retry's answer comes first, the abandoned request's after it.
    release("new");
    await new Promise((r) => setTimeout(r, 50));
    release("old");
    expect((await retry).body).toEqual({
      jsonrpc: "2.0",
      id: 46,
      result: { content: [{ type: "text", text: "new" }] },
    });
    await s.client.close();
  });

  it("a session ended while a request waits answers it that the session ended; a stop does not wait past drainMs", async () => {
    const s = await start(300);
    const pending = post(s, hold(7, "stuck"));
    await waiting("stuck");
    const del = await fetch(s.url, {
      method: "DELETE",
      headers: { Authorization: `Bearer ${s.secret}`, "Mcp-Session-Id": s.session },
    });
    expect(del.status).toBe(200);
    expect((await pending).body).toEqual({
      jsonrpc: "2.0",
      id: 7,
      error: { code: -32000, message: "the session ended" },
    });
    await server!.close();
    v.cleanup();
    // A request that is never answered (its tool never returns) does not keep a stop waiting.
    const t = await start(300);
    void post(t, hold(8, "never")).catch(() => null);
    await waiting("never");
    await server!.close();
    server = null;
  });
});
