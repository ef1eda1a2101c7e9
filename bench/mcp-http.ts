/**
 * MCP over stdio and over Streamable HTTP side by side (docs/mcp.md, "Figures"):
 * `npm run bench:mcp-http [-- --notes 2000]` (also run by `npm run bench:mcp`).
 *
 * On one synthetic vault (bench/lib/synthetic-vault.ts) indexed by `agent-memory index`, the built
 * `dist/cli.js mcp <vault> --agent agent-01` (stdio, the SDK's StdioClientTransport) and
 * `dist/cli.js mcp <vault> --http 127.0.0.1:0` with a token of agent-01 (the SDK's
 * StreamableHTTPClientTransport) are measured the same way, round trip through the SDK's client:
 * - one client: warm `search` p50/p95 over the 200 queries of bench:search (after 20), the same
 *   200 again (their notes read before: what a server answers once it has seen them), then
 *   `append_journal` p50/p95 over 50 appends to the agent's journal of today;
 * - eight concurrent: 8 callers × 25 searches (the clients' first calls, reported apart), then,
 *   warm, 8 × 100 searches (800 samples, the figure issue 27's target is about), then 8 × 10
 *   appends to the same journal, at once; over HTTP eight clients, each its own session; over
 *   stdio one client with eight requests in flight (a stdio server has one client), errors
 *   counted;
 * - the bytes of a typical result: the JSON of one `search` (limit 10) and one `append_journal`
 *   result, and over HTTP the bytes of the whole response (SSE framing included);
 * - over HTTP also eight raw clients: the same 8 × 25 then (timed) 8 × 100 searches as JSON-RPC
 *   POSTs on keep-alive connections of Node's `http`, each client its own session, without the
 *   SDK's client (whose own CPU, on the same 2 cores, is part of the eight-at-once figures above).
 * Writes bench/results/mcp-http.md.
 */
import { execFileSync, spawn } from "node:child_process";
import { Agent, request as httpRequest } from "node:http";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { benchQueries, generateVault } from "./lib/synthetic-vault";
import { requestSignalFetch } from "./lib/request-signal-fetch";
import { percentile, round } from "./lib/stats";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CLI = join(ROOT, "dist", "cli.js");
const AGENT = "agent-01";
/** Searches each of the eight callers makes in its first round (untimed as warm figures). */
const FIRST_EACH = 25;
/** Searches each of the eight callers makes in the timed warm round: 800 samples in all. */
const WARM_EACH = 100;

type Result = { isError?: boolean; content?: unknown; structuredContent?: unknown };

function env(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !/^(AGENT_MEMORY_LLM_|AGENT_MEMORY_EMBEDDINGS_|OPENAI_)/.test(k))
      out[k] = v;
  return out;
}

/**
 * Node options for the two servers from `BENCH_SERVER_NODE_ARGS` (space-separated), e.g.
 * `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile them; none when unset.
 */
function serverNodeArgs(): string[] {
  return (process.env.BENCH_SERVER_NODE_ARGS ?? "").split(" ").filter(Boolean);
}

interface Figures {
  searchP50: number;
  searchP95: number;
  /** The 200 queries asked again. */
  againP50: number;
  againP95: number;
  cpuAgain: number | null;
  appendP50: number;
  appendP95: number;
  /** The eight clients' first {@link FIRST_EACH} searches each. */
  first8SearchP50: number;
  first8SearchP95: number;
  /** Eight at once, warm: {@link WARM_EACH} searches each after the first round. */
  conc8SearchP50: number;
  conc8SearchP95: number;
  conc8AppendP50: number;
  conc8AppendP95: number;
  errors: number;
  searchBytes: number;
  appendBytes: number;
  wireSearchBytes: number | null;
  /** The server process's CPU time (user + system) per search, one client and eight at once. */
  cpuSearch1: number | null;
  cpuSearch8: number | null;
  /** This process's CPU time (the eight SDK clients) per search, eight at once. */
  clientCpuSearch8: number;
}

/** CPU time (user + system, ms) a process has used, from /proc; `null` off Linux. */
function cpuMs(pid: number | null | undefined): number | null {
  if (!pid) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

async function timed(fn: () => Promise<Result>, into: number[]): Promise<boolean> {
  const s = performance.now();
  try {
    const r = await fn();
    into.push(performance.now() - s);
    return !r.isError;
  } catch {
    return false;
  }
}

/**
 * Runs `fn` and counts the bytes of the response bodies read meanwhile (over HTTP; `null` over
 * stdio). Only the call it wraps is counted, so the timed calls pay nothing for the counting.
 */
type WireCounter = <T>(fn: () => Promise<T>) => Promise<{ value: T; bytes: number | null }>;

async function measure(
  clients: Client[],
  queries: string[],
  wire: WireCounter,
  pid: number | null,
): Promise<Figures> {
  const [one] = clients;
  if (!one) throw new Error("no client");
  const search = (c: Client, q: string) =>
    c.callTool({ name: "search", arguments: { query: q, scope: "all" } }) as Promise<Result>;
  const append = (c: Client, text: string) =>
    c.callTool({ name: "append_journal", arguments: { text } }) as Promise<Result>;
  let errors = 0;
  for (const q of queries.slice(0, 20)) await search(one, q);
  const s1: number[] = [];
  const c0 = cpuMs(pid);
  for (const q of queries) if (!(await timed(() => search(one, q), s1))) errors++;
  const c1 = cpuMs(pid);
  const again: number[] = [];
  for (const q of queries) if (!(await timed(() => search(one, q), again))) errors++;
  const c1b = cpuMs(pid);
  const a1: number[] = [];
  for (let i = 0; i < 50; i++)
    if (!(await timed(() => append(one, `bench append ${i}`), a1))) errors++;
  // Eight callers at once, each `n` searches (caller c asks queries c·n…): the first round is
  // the clients' first calls (over HTTP, seven of the eight clients have made none yet), reported
  // apart; the timed rounds after it are the warm figures.
  const eightAtOnce = (n: number, into: number[]) =>
    Promise.all(
      Array.from({ length: 8 }, async (_, c) => {
        const client = clients[c % clients.length] ?? one;
        for (let i = 0; i < n; i++)
          if (
            !(await timed(() => search(client, queries[(c * n + i) % queries.length] ?? "x"), into))
          )
            errors++;
      }),
    );
  const first8: number[] = [];
  await eightAtOnce(FIRST_EACH, first8);
  const s8: number[] = [];
  const a8: number[] = [];
  const c2 = cpuMs(pid);
  const u2 = process.cpuUsage();
  await eightAtOnce(WARM_EACH, s8);
  const c3 = cpuMs(pid);
  const u3 = process.cpuUsage(u2);
  await Promise.all(
    Array.from({ length: 8 }, async (_, c) => {
      const client = clients[c % clients.length] ?? one;
      for (let i = 0; i < 10; i++)
        if (!(await timed(() => append(client, `bench concurrent ${c}-${i}`), a8))) errors++;
    }),
  );
  const { value: typical, bytes: wireSearchBytes } = await wire(() =>
    search(one, queries[0] ?? "x"),
  );
  const appended = await append(one, "bench typical append");
  const p = (xs: number[], q: number) => round(percentile(xs, q), 2);
  return {
    searchP50: p(s1, 50),
    searchP95: p(s1, 95),
    againP50: p(again, 50),
    againP95: p(again, 95),
    cpuAgain: c1 === null || c1b === null ? null : round((c1b - c1) / again.length, 2),
    appendP50: p(a1, 50),
    appendP95: p(a1, 95),
    first8SearchP50: p(first8, 50),
    first8SearchP95: p(first8, 95),
    conc8SearchP50: p(s8, 50),
    conc8SearchP95: p(s8, 95),
    conc8AppendP50: p(a8, 50),
    conc8AppendP95: p(a8, 95),
    errors,
    searchBytes: JSON.stringify(typical).length,
    appendBytes: JSON.stringify(appended).length,
    wireSearchBytes,
    cpuSearch1: c0 === null || c1 === null ? null : round((c1 - c0) / s1.length, 2),
    cpuSearch8: c2 === null || c3 === null ? null : round((c3 - c2) / Math.max(1, s8.length), 2),
    clientCpuSearch8: round((u3.user + u3.system) / 1000 / Math.max(1, s8.length), 2),
  };
}

/** Eight raw HTTP clients at once (see the module comment). */
interface RawFigures {
  p50: number;
  p95: number;
  errors: number;
  serverCpu: number | null;
  clientCpu: number;
}

/** One JSON-RPC POST on `agent`'s keep-alive connections: the status, headers and parsed body. */
function post(
  url: URL,
  agent: Agent,
  headers: Record<string, string>,
  message: unknown,
): Promise<{ status: number; session: string | undefined; body: unknown }> {
  const data = JSON.stringify(message);
  return new Promise((resolveAnswer, reject) => {
    const req = httpRequest(
      url,
      {
        method: "POST",
        agent,
        headers: {
          ...headers,
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
          "Content-Length": String(Buffer.byteLength(data)),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          const session = res.headers["mcp-session-id"];
          resolveAnswer({
            status: res.statusCode ?? 0,
            session: typeof session === "string" ? session : undefined,
            body: text ? (JSON.parse(text) as unknown) : null,
          });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(data);
  });
}

/**
 * Eight raw clients, each its own session on its own keep-alive connection, 25 searches each at
 * once: the same queries as the SDK's eight clients.
 */
async function rawEight(
  url: string,
  token: string,
  queries: string[],
  pid: number | null,
): Promise<RawFigures> {
  const target = new URL(url);
  const auth = { Authorization: `Bearer ${token}` };
  const clients = await Promise.all(
    Array.from({ length: 8 }, async (_, c) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const init = await post(target, agent, auth, {
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: {
          protocolVersion: LATEST_PROTOCOL_VERSION,
          capabilities: {},
          clientInfo: { name: `bench-raw-${c}`, version: "1" },
        },
      });
      if (!init.session) throw new Error(`raw client ${c}: no session (${init.status})`);
      const headers = {
        ...auth,
        "mcp-session-id": init.session,
        "mcp-protocol-version": LATEST_PROTOCOL_VERSION,
      };
      await post(target, agent, headers, { jsonrpc: "2.0", method: "notifications/initialized" });
      return { agent, headers };
    }),
  );
  let errors = 0;
  let id = 0;
  const round8 = (n: number, into: number[]) =>
    Promise.all(
      clients.map(async ({ agent, headers }, c) => {
        for (let i = 0; i < n; i++) {
          const s = performance.now();
          try {
            const r = await post(target, agent, headers, {
              jsonrpc: "2.0",
              id: ++id,
              method: "tools/call",
              params: {
                name: "search",
                arguments: { query: queries[(c * n + i) % queries.length] ?? "x", scope: "all" },
              },
            });
            into.push(performance.now() - s);
            const result = (r.body as { result?: Result } | null)?.result;
            if (r.status !== 200 || !result || result.isError) errors++;
          } catch {
            errors++;
          }
        }
      }),
    );
  await round8(FIRST_EACH, []);
  const times: number[] = [];
  const c0 = cpuMs(pid);
  const u0 = process.cpuUsage();
  await round8(WARM_EACH, times);
  const c1 = cpuMs(pid);
  const u1 = process.cpuUsage(u0);
  for (const { agent } of clients) agent.destroy();
  return {
    p50: round(percentile(times, 50), 2),
    p95: round(percentile(times, 95), 2),
    errors,
    serverCpu: c0 === null || c1 === null ? null : round((c1 - c0) / Math.max(1, times.length), 2),
    clientCpu: round((u1.user + u1.system) / 1000 / Math.max(1, times.length), 2),
  };
}

const TITLE = "# MCP over stdio and Streamable HTTP";

/** The short commit measured, marked when the work tree has changes. */
function commitLabel(): string {
  try {
    const head = execFileSync("git", ["rev-parse", "--short", "HEAD"], {
      cwd: ROOT,
      encoding: "utf8",
    });
    const dirty = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], {
      cwd: ROOT,
      encoding: "utf8",
    });
    return `${head.trim()}${dirty.trim() ? " with changes" : ""}`;
  } catch {
    return "unknown";
  }
}

/** The results file with `section` on top of the sections it holds (older runs are kept). */
function withSection(file: string, section: string): string {
  let older = "";
  try {
    older = readFileSync(file, "utf8");
  } catch {
    // No results yet.
  }
  older = older.startsWith(TITLE) ? older.slice(TITLE.length).trim() : older.trim();
  return `${TITLE}\n\n${section}${older ? `\n${older}\n` : ""}`;
}

async function main(): Promise<void> {
  const arg = process.argv.indexOf("--notes");
  const notes = arg > 0 ? Number(process.argv[arg + 1]) : 2000;
  const dir = join(tmpdir(), `am-bench-http-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  try {
    const v = generateVault(dir, notes);
    const queries = benchQueries(v).map((q) => q.query);
    execFileSync(process.execPath, [CLI, "index", dir], { env: env(), stdio: "pipe" });

    // stdio: one server, one client.
    const stdio = new StdioClientTransport({
      command: process.execPath,
      args: [...serverNodeArgs(), CLI, "mcp", dir, "--agent", AGENT],
      env: { ...env(), AGENT_MEMORY_SERVER: "off" },
      stderr: "pipe",
    });
    const sc = new Client({ name: "bench-stdio", version: "1" });
    await sc.connect(stdio);
    const viaStdio = await measure(
      [sc],
      queries,
      async (fn) => ({ value: await fn(), bytes: null }),
      stdio.pid,
    );
    await sc.close();

    // HTTP: one server, eight clients with their own sessions.
    const made = execFileSync(
      process.execPath,
      [CLI, "token", "add", dir, "--agent", AGENT, "--json"],
      {
        env: env(),
        encoding: "utf8",
      },
    );
    const token = (JSON.parse(made) as { token: string }).token;
    const proc = spawn(
      process.execPath,
      [...serverNodeArgs(), CLI, "mcp", dir, "--http", "127.0.0.1:0", "--rate", "1000000"],
      {
        env: { ...env(), AGENT_MEMORY_SERVER: "off" },
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    let log = "";
    const url = await new Promise<string>((resolveUrl, reject) => {
      // Read to the end (a full pipe would stop the server), kept only until the address is known:
      // the access log grows by a line per request.
      let found = false;
      proc.stderr.on("data", (c: Buffer) => {
        if (found) return;
        log += c.toString("utf8");
        const m = /listening on (http:\/\/\S+\/mcp)/.exec(log);
        if (m?.[1]) {
          found = true;
          resolveUrl(m[1]);
        }
      });
      proc.once("exit", () => reject(new Error(`the HTTP server exited: ${log}`)));
    });
    // Bytes of the response bodies the first client reads while `counting` is on, counted on a
    // copy; a body is counted once its stream has ended. Off for the timed calls: teeing every
    // answer would add its cost to them.
    let counting = false;
    let wireBytes = 0;
    const reading = new Set<Promise<void>>();
    const countingFetch: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      // The standalone GET stream never ends; the answers to POSTs do.
      if (!counting || init?.method !== "POST") return res;
      const copy = res.clone();
      const counted: Promise<void> = copy.arrayBuffer().then(
        (b) => {
          wireBytes += b.byteLength;
        },
        () => undefined,
      );
      reading.add(counted);
      void counted.finally(() => reading.delete(counted));
      return res;
    };
    const clients = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const t = new StreamableHTTPClientTransport(new URL(url), {
          requestInit: { headers: { Authorization: `Bearer ${token}` } },
          // Each request gets an abort signal of its own (bench/lib/request-signal-fetch.ts).
          fetch: requestSignalFetch(i === 0 ? countingFetch : fetch),
        });
        const c = new Client({ name: `bench-http-${i}`, version: "1" });
        await c.connect(t);
        return c;
      }),
    );
    const viaHttp = await measure(
      clients,
      queries,
      async (fn) => {
        counting = true;
        wireBytes = 0;
        try {
          const value = await fn();
          await Promise.all([...reading]);
          return { value, bytes: wireBytes };
        } finally {
          counting = false;
        }
      },
      proc.pid ?? null,
    );
    await Promise.all(clients.map((c) => c.close()));
    const raw = await rawEight(url, token, queries, proc.pid ?? null);
    proc.kill("SIGTERM");
    await new Promise((r) => proc.once("exit", r));

    const rows: [string, (f: Figures) => string][] = [
      ["search, one client, p50 / p95 (ms)", (f) => `${f.searchP50} / ${f.searchP95}`],
      ["search, one client, the 200 again, p50 / p95 (ms)", (f) => `${f.againP50} / ${f.againP95}`],
      ["append_journal, one client, p50 / p95 (ms)", (f) => `${f.appendP50} / ${f.appendP95}`],
      [
        `search, eight at once, the clients' first ${FIRST_EACH} each, p50 / p95 (ms)`,
        (f) => `${f.first8SearchP50} / ${f.first8SearchP95}`,
      ],
      [
        `search, eight at once, warm (${WARM_EACH} each after those), p50 / p95 (ms)`,
        (f) => `${f.conc8SearchP50} / ${f.conc8SearchP95}`,
      ],
      [
        "append_journal, eight at once, p50 / p95 (ms)",
        (f) => `${f.conc8AppendP50} / ${f.conc8AppendP95}`,
      ],
      [
        "server CPU per search, one client / the 200 again / eight at once (ms)",
        (f) => `${f.cpuSearch1 ?? "—"} / ${f.cpuAgain ?? "—"} / ${f.cpuSearch8 ?? "—"}`,
      ],
      ["client CPU per search, eight at once (ms)", (f) => String(f.clientCpuSearch8)],
      ["errors", (f) => String(f.errors)],
      ["a search result (JSON bytes)", (f) => String(f.searchBytes)],
      ["an append_journal result (JSON bytes)", (f) => String(f.appendBytes)],
      [
        "a search response on the wire (bytes)",
        (f) => (f.wireSearchBytes === null ? "—" : String(f.wireSearchBytes)),
      ],
    ];
    const table = [
      "| | stdio | HTTP |",
      "|---|---|---|",
      ...rows.map(([name, f]) => `| ${name} | ${f(viaStdio)} | ${f(viaHttp)} |`),
      `| search, eight at once, warm, raw HTTP clients (not the SDK's), p50 / p95 (ms) | — | ${raw.p50} / ${raw.p95} |`,
      `| server / client CPU per search, eight raw HTTP clients (ms) | — | ${raw.serverCpu ?? "—"} / ${raw.clientCpu} |`,
      `| errors, eight raw HTTP clients | — | ${raw.errors} |`,
    ].join("\n");
    const section = [
      `## ${new Date().toISOString().slice(0, 10)}, commit ${commitLabel()}, load ${round(loadavg()[0] ?? 0, 1)}`,
      "",
      `\`npm run bench:mcp-http -- --notes ${notes}\`: ${notes} synthetic notes, ${cpus().length} cores, load average ${round(loadavg()[0] ?? 0, 1)} at the end (a shared machine; every figure is slower than on an idle one). Round trips through the SDK's client; over HTTP eight clients with their own sessions and one token, over stdio one client with eight requests in flight.`,
      "",
      table,
      "",
    ].join("\n");
    const file = join(ROOT, "bench", "results", "mcp-http.md");
    process.stdout.write(`${section}\nwrote bench/results/mcp-http.md\n`);
    writeFileSync(file, withSection(file, section));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main().catch((err: unknown) => {
  process.stderr.write(
    `bench:mcp-http: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exitCode = 1;
});
