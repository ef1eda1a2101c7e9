// The SDK's own StreamableHTTPClientTransport with a bearer token (docs/testing.md, "How the suite
// is organised") and, for the refusal tests, a chosen Origin or a forged Host (a fetch over
// node:http, as a DNS-rebound page's request would arrive). Spawns nothing.
import { request } from "node:http";
import { Readable } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";

/**
 * A fetch over node:http that sends `host` as the Host header (the platform's fetch will not).
 * @param sent told each request's body once the whole request is handed to the system
 */
export function fetchWithHost(host: string, sent: (body: string) => void = () => {}): FetchLike {
  return (url, init) =>
    new Promise((resolve, reject) => {
      const u = new URL(String(url));
      const headers: Record<string, string> = { host };
      new Headers(init?.headers).forEach((value, key) => (headers[key] = value));
      const req = request(
        {
          host: u.hostname,
          port: u.port,
          path: u.pathname,
          method: init?.method ?? "GET",
          headers,
        },
        (res) => {
          const out = new Headers();
          for (const [k, v] of Object.entries(res.headers))
            if (typeof v === "string") out.set(k, v);
          const body = Readable.toWeb(res) as ReadableStream<Uint8Array>;
          resolve(
            new Response(res.statusCode === 204 ? null : body, {
              status: res.statusCode,
              headers: out,
            }),
          );
        },
      );
      req.on("error", reject);
      const body = typeof init?.body === "string" ? init.body : "";
      req.on("finish", () => sent(body));
      if (body) req.write(body);
      req.end();
    });
}

/** Connects the SDK's client to `url` with a bearer `token` (none when `undefined`). */
export async function httpClient(
  url: string,
  token: string | undefined,
  opts: { origin?: string; fetch?: FetchLike } = {},
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const headers: Record<string, string> = {};
  if (token !== undefined) headers.Authorization = `Bearer ${token}`;
  if (opts.origin) headers.Origin = opts.origin;
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers },
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
  });
  const client = new Client({ name: "agent-memory-http-tests", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport };
}
