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

/** A server whose sessions have one tool, `shout`, that logs a line about its request and answers. */
async function start() {
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
  headers: Record<string, string> = {},
) {
  const res = await fetch(s.url, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${s.secret}`,
      Accept: "application/json, text/event-stream",
      "Content-Type": "application/json",
      "Mcp-Session-Id": s.session,
      "Mcp-Protocol-Version": "2025-06-18",
      ...headers,
    },
    body: JSON.stringify(body),
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
    expect((await post(s, call(3), { Accept: "application/json" })).status).toBe(406);
    expect((await post(s, call(4), { "Content-Type": "text/plain" })).status).toBe(415);
    // An unknown session is this server's 404, before any transport.
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
    expect(sdkPosts(viaSdk)).toBe(6);
    await s.client.close();
  });
});
