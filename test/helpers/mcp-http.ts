// The built `dist/cli.js mcp <vault> --http 127.0.0.1:0` and the SDK's own
// StreamableHTTPClientTransport on it (docs/testing.md, "How the suite is organised"): a server
// process on a free port, clients with a bearer token and, for the refusal tests, a chosen Origin
// or a forged Host (a fetch over node:http, as a DNS-rebound page's request would arrive).
import { spawn, type ChildProcess } from "node:child_process";
import { request } from "node:http";
import { Readable } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { cliPath, pollUntil, serverEnv } from "./mcp-client";
import { cliRun } from "./cli-run";

/** A running HTTP server: its `/mcp` URL, what it logged so far, and how to stop it. */
export interface HttpServerProcess {
  url: string;
  port: number;
  proc: ChildProcess;
  stderr: () => string;
  /** Sends `signal` and resolves with the exit code. */
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
}

/** Starts `agent-memory mcp <vault> --http 127.0.0.1:0 …args` and waits for its URL in the log. */
export async function startHttpMcp(vault: string, args: string[] = []): Promise<HttpServerProcess> {
  const proc = spawn(process.execPath, [cliPath, "mcp", vault, "--http", "127.0.0.1:0", ...args], {
    env: serverEnv(),
    stdio: ["ignore", "ignore", "pipe"],
  });
  let err = "";
  proc.stderr?.on("data", (chunk: Buffer) => (err += chunk.toString("utf8")));
  const exited = new Promise<number | null>((resolve) => proc.once("exit", (c) => resolve(c)));
  const url = await pollUntil(
    () => {
      if (proc.exitCode !== null) throw new Error(`the server exited: ${err}`);
      return Promise.resolve(/listening on (http:\/\/\S+\/mcp)/.exec(err)?.[1]);
    },
    1200,
    25,
  );
  return {
    url,
    port: Number(new URL(url).port),
    proc,
    stderr: () => err,
    stop: (signal = "SIGTERM") => {
      if (proc.exitCode === null) proc.kill(signal);
      return exited;
    },
  };
}

/** `agent-memory token add <vault> …args --json`: the new token's id and secret. */
export function addTokenCli(vault: string, ...args: string[]): { id: string; token: string } {
  const r = cliRun("token", "add", vault, ...args, "--json");
  if (r.code !== 0) throw new Error(`token add failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as { id: string; token: string };
}

/** A fetch over node:http that sends `host` as the Host header (the platform's fetch will not). */
export function fetchWithHost(host: string): FetchLike {
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
      if (typeof init?.body === "string") req.write(init.body);
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
