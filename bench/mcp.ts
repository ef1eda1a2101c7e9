/**
 * MCP server benchmark (docs/mcp.md, "Figures"): `npm run bench:mcp [-- --sizes 1000,10000,50000]`.
 *
 * For synthetic vaults (bench/lib/synthetic-vault.ts, under the system temp folder), everything is
 * measured through the SDK's own `Client` and `StdioClientTransport` on the built
 * `dist/cli.js mcp <vault> --agent agent-01`, as an agent's host runs it, after `agent-memory index`
 * has saved the index (the server opens it, as it would on a user's machine):
 * - server start: spawn to the tool list answered;
 * - tool-list size: characters of the JSON of `tools/list`, and tokens estimated as characters / 4
 *   and with the project's own estimate (`estimateTokens`, src/core/llm/tokens.ts);
 * - `search` p50/p95 over the 200 mixed queries of bench:search, warm (after 20 queries), round trip;
 * - `append_journal` p50/p95 over 100 appends to today's journal of the agent;
 * - a note written on disk by another program to searchable: the file is written, then `search`
 *   is called until it finds the note's unique word (p50/p95 over 30 notes);
 * - the server's resident set size (`/proc/<pid>/status` VmRSS) after all of that;
 * - beside it, in the same run, one process per query, wall clock, p50/p95 over 20 of the queries:
 *   a one-shot `agent-memory search --json` before the server starts (no socket: the launcher
 *   loads the full CLI, which opens the saved index), then the same searches while the server
 *   runs (the launcher hands them to the server's socket, docs/mcp.md), before anything changed
 *   the index, each output checked against the run without a server (took_ms aside), each
 *   followed by `rg -l -i -F` over the same folder (when rg is installed) and `node -e 0`.
 * Writes bench/results/mcp.json and bench/results/mcp.md.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { estimateTokens } from "../src/core/llm/tokens";
import { benchQueries, generateVault } from "./lib/synthetic-vault";
import { percentile, round } from "./lib/stats";
import { childEnv } from "./lib/child-env";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CLI = join(ROOT, "dist", "cli.js");
const AGENT = "agent-01";

interface McpFigures {
  vault: string;
  notes: number;
  indexBuildMs: number;
  serverStartMs: number;
  toolListChars: number;
  toolListTokensChars4: number;
  toolListTokensEstimate: number;
  searches: number;
  searchP50Ms: number;
  searchP95Ms: number;
  appends: number;
  appendP50Ms: number;
  appendP95Ms: number;
  diskToSearchable: number;
  diskToSearchableP50Ms: number;
  diskToSearchableP95Ms: number;
  diskToSearchableMaxMs: number;
  rssBytes: number | null;
  cliSearchP50Ms: number;
  cliSearchP95Ms: number;
  servedSearchP50Ms: number;
  servedSearchP95Ms: number;
  /** Queries whose output through the server differed from the run without one (took_ms aside). */
  servedMismatches: number;
  rgP50Ms: number | null;
  rgP95Ms: number | null;
  /** `node -e 0`, the floor of any Node command, measured beside them. */
  nodeP50Ms: number;
  nodeP95Ms: number;
  /**
   * The same served searches and `node -e 0` with NODE_EXTRA_CA_CERTS removed from their
   * environment, when it was set (`null` otherwise): Node reads that file of certificates at every
   * start, before any script runs, which costs every Node command the same (docs/decisions.md,
   * "One-shot search against rg").
   */
  withoutExtraCa: {
    servedP50Ms: number;
    servedP95Ms: number;
    nodeP50Ms: number;
    nodeP95Ms: number;
  } | null;
  /** The machine's 1-minute load average when this size was done (other processes slow every figure). */
  loadAverage: number;
}

/** `childEnv()` without NODE_EXTRA_CA_CERTS, or `null` when it is not set. */
function envWithoutExtraCa(): Record<string, string> | null {
  const e = childEnv();
  if (!e.NODE_EXTRA_CA_CERTS) return null;
  delete e.NODE_EXTRA_CA_CERTS;
  return e;
}

function hasRg(): boolean {
  return spawnSync("rg", ["--version"], { encoding: "utf8" }).status === 0;
}

function rss(pid: number | null): number | null {
  if (pid === null) return null;
  try {
    const kb = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? Number(kb) * 1024 : null;
  } catch {
    return null;
  }
}

type Result = { isError?: boolean; structuredContent?: { results?: { path: string }[] } };

async function measure(dir: string, n: number, rg: boolean): Promise<McpFigures> {
  const v = generateVault(dir, n);
  const queries = benchQueries(v);
  const t0 = performance.now();
  execFileSync(process.execPath, [CLI, "index", dir], { env: childEnv(), stdio: "pipe" });
  const indexBuildMs = performance.now() - t0;

  // One-shot searches without a server (no socket: the launcher loads the full CLI, which opens
  // the saved index), before the server starts.
  const oneShot = queries.slice(0, 20);
  const cli = (q: string, vars = childEnv()) =>
    spawnSync(process.execPath, [CLI, "search", dir, q, "--json"], {
      env: vars,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
  const noCaEnv = envWithoutExtraCa();
  const cliMs: number[] = [];
  const coldOut: string[] = [];
  const rgMs: number[] = [];
  for (const q of oneShot) {
    const s = performance.now();
    coldOut.push(cli(q.query).stdout);
    cliMs.push(performance.now() - s);
  }

  const t1 = performance.now();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "mcp", dir, "--agent", AGENT],
    env: childEnv(),
    stderr: "pipe",
  });
  let log = "";
  transport.stderr?.on("data", (c: Buffer) => {
    log += c.toString("utf8");
  });
  const client = new Client({ name: "bench-mcp", version: "1.0.0" });
  await client.connect(transport);
  const { tools } = await client.listTools();
  const serverStartMs = performance.now() - t1;
  const listJson = JSON.stringify(tools);
  const call = async (name: string, args: Record<string, unknown>): Promise<Result> => {
    const r = (await client.callTool({ name, arguments: args })) as Result;
    if (r.isError)
      throw new Error(`${name} failed: ${JSON.stringify(r)}; server log: ${log.slice(-500)}`);
    return r;
  };
  try {
    for (const q of queries.slice(0, 20)) await call("search", { query: q.query, scope: "all" });
    const searchMs: number[] = [];
    for (const q of queries) {
      const s = performance.now();
      await call("search", { query: q.query, scope: "all" });
      searchMs.push(performance.now() - s);
    }
    // The same one-shot searches with the server running, before anything changes the index, so
    // both opened the same index and must print the same JSON (took_ms aside).
    if (!/CLI searches answered on /.test(log))
      throw new Error(`the server has no socket for CLI searches: ${log.slice(-500)}`);
    const servedMs: number[] = [];
    const nodeMs: number[] = [];
    const servedNoCaMs: number[] = [];
    const nodeNoCaMs: number[] = [];
    let servedMismatches = 0;
    const strip = (out: string) => out.replace(/"took_ms": [\d.e+-]+/, "");
    oneShot.forEach((q, i) => {
      const s = performance.now();
      const out = cli(q.query).stdout;
      servedMs.push(performance.now() - s);
      if (strip(out) !== strip(coldOut[i] ?? "")) servedMismatches++;
      // rg and an empty Node process right after each, so all three meet the same machine load.
      if (rg) {
        const r0 = performance.now();
        spawnSync(
          "rg",
          ["-l", "-i", "-F", "--no-messages", ...q.rg.flatMap((t) => ["-e", t]), dir],
          { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
        );
        rgMs.push(performance.now() - r0);
      }
      const n0 = performance.now();
      spawnSync(process.execPath, ["-e", "0"]);
      nodeMs.push(performance.now() - n0);
      if (noCaEnv) {
        const c0 = performance.now();
        const outNoCa = cli(q.query, noCaEnv).stdout;
        servedNoCaMs.push(performance.now() - c0);
        if (strip(outNoCa) !== strip(coldOut[i] ?? "")) servedMismatches++;
        const c1 = performance.now();
        spawnSync(process.execPath, ["-e", "0"], { env: noCaEnv });
        nodeNoCaMs.push(performance.now() - c1);
      }
    });
    const appendMs: number[] = [];
    for (let i = 0; i < 100; i++) {
      const s = performance.now();
      await call("append_journal", {
        text: `Bench note ${i}: the append path of the MCP server, measured.`,
      });
      appendMs.push(performance.now() - s);
    }
    const visibleMs: number[] = [];
    mkdirSync(join(dir, "Memory", "Library", "Bench"), { recursive: true });
    for (let i = 0; i < 30; i++) {
      const word = `zorblax${i}q${n}`;
      const s = performance.now();
      writeFileSync(
        join(dir, "Memory", "Library", "Bench", `Written ${i}.md`),
        `# Written ${i}\n\nA note saved by another program: ${word}.\n`,
      );
      for (let tries = 0; ; tries++) {
        const r = await call("search", { query: word, scope: "all", limit: 1 });
        if ((r.structuredContent?.results?.length ?? 0) > 0) break;
        if (tries > 5000) throw new Error(`note ${i} never became searchable`);
        await new Promise((res) => setTimeout(res, 2));
      }
      visibleMs.push(performance.now() - s);
    }
    const rssBytes = rss(transport.pid);
    return {
      vault: `synthetic ${n / 1000}k`,
      notes: n,
      indexBuildMs: round(indexBuildMs),
      serverStartMs: round(serverStartMs),
      toolListChars: listJson.length,
      toolListTokensChars4: Math.round(listJson.length / 4),
      toolListTokensEstimate: estimateTokens(listJson),
      searches: searchMs.length,
      searchP50Ms: round(percentile(searchMs, 50), 2),
      searchP95Ms: round(percentile(searchMs, 95), 2),
      appends: appendMs.length,
      appendP50Ms: round(percentile(appendMs, 50), 2),
      appendP95Ms: round(percentile(appendMs, 95), 2),
      diskToSearchable: visibleMs.length,
      diskToSearchableP50Ms: round(percentile(visibleMs, 50), 1),
      diskToSearchableP95Ms: round(percentile(visibleMs, 95), 1),
      diskToSearchableMaxMs: round(Math.max(...visibleMs), 1),
      rssBytes,
      cliSearchP50Ms: round(percentile(cliMs, 50), 1),
      cliSearchP95Ms: round(percentile(cliMs, 95), 1),
      servedSearchP50Ms: round(percentile(servedMs, 50), 1),
      servedSearchP95Ms: round(percentile(servedMs, 95), 1),
      servedMismatches,
      rgP50Ms: rg ? round(percentile(rgMs, 50), 1) : null,
      rgP95Ms: rg ? round(percentile(rgMs, 95), 1) : null,
      nodeP50Ms: round(percentile(nodeMs, 50), 1),
      nodeP95Ms: round(percentile(nodeMs, 95), 1),
      withoutExtraCa: noCaEnv
        ? {
            servedP50Ms: round(percentile(servedNoCaMs, 50), 1),
            servedP95Ms: round(percentile(servedNoCaMs, 95), 1),
            nodeP50Ms: round(percentile(nodeNoCaMs, 50), 1),
            nodeP95Ms: round(percentile(nodeNoCaMs, 95), 1),
          }
        : null,
      loadAverage: round(loadavg()[0] ?? 0, 1),
    };
  } finally {
    await client.close();
  }
}

function markdown(rows: McpFigures[], meta: { date: string; machine: string; rg: string }): string {
  const mb = (b: number | null) => (b === null ? "–" : `${Math.round(b / 2 ** 20)} MB`);
  const lines = [
    "# MCP server benchmark",
    "",
    `Measured ${meta.date} on ${meta.machine} with \`npm run bench:mcp\`; ${meta.rg}.`,
    "Every figure is a round trip through the MCP SDK's client and stdio transport to `dist/cli.js mcp <vault> --agent agent-01`, which opened the index `agent-memory index` saved.",
    "",
    "| vault | notes | server start | search p50 | search p95 | append_journal p50 | p95 | disk write → searchable p50 | p95 | max | server RSS |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
    ...rows.map(
      (r) =>
        `| ${r.vault} | ${r.notes} | ${(r.serverStartMs / 1000).toFixed(2)} s | ${r.searchP50Ms} ms | ${r.searchP95Ms} ms | ${r.appendP50Ms} ms | ${r.appendP95Ms} ms | ${r.diskToSearchableP50Ms} ms | ${r.diskToSearchableP95Ms} ms | ${r.diskToSearchableMaxMs} ms | ${mb(r.rssBytes)} |`,
    ),
    "",
    "One-shot `agent-memory search <vault> <query> --json`, one process per query, wall clock:",
    "",
    "| vault | with a server p50 | p95 | without a server p50 | p95 | rg p50 | p95 | `node -e 0` p50 | p95 | outputs differing | load average |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
    ...rows.map(
      (r) =>
        `| ${r.vault} | ${r.servedSearchP50Ms} ms | ${r.servedSearchP95Ms} ms | ${r.cliSearchP50Ms} ms | ${r.cliSearchP95Ms} ms | ${r.rgP50Ms === null ? "–" : `${r.rgP50Ms} ms`} | ${r.rgP95Ms === null ? "–" : `${r.rgP95Ms} ms`} | ${r.nodeP50Ms} ms | ${r.nodeP95Ms} ms | ${r.servedMismatches} | ${r.loadAverage} |`,
    ),
    ...(rows.some((r) => r.withoutExtraCa)
      ? [
          "",
          "NODE_EXTRA_CA_CERTS is set on this machine; Node reads that certificate file at every start, before any script runs. The same searches with a server, and `node -e 0`, with it removed from their environment (rg does not read it):",
          "",
          "| vault | with a server p50 | p95 | `node -e 0` p50 | p95 |",
          "|---|---|---|---|---|",
          ...rows.map((r) =>
            r.withoutExtraCa
              ? `| ${r.vault} | ${r.withoutExtraCa.servedP50Ms} ms | ${r.withoutExtraCa.servedP95Ms} ms | ${r.withoutExtraCa.nodeP50Ms} ms | ${r.withoutExtraCa.nodeP95Ms} ms |`
              : `| ${r.vault} | – | – | – | – |`,
          ),
        ]
      : []),
    "",
    `Tool list (\`tools/list\`, all ${rows.length ? "11" : "?"} tools): ${rows[0]?.toolListChars ?? "?"} characters, about ${rows[0]?.toolListTokensChars4 ?? "?"} tokens at 4 characters a token (${rows[0]?.toolListTokensEstimate ?? "?"} by the project's estimateTokens).`,
    "",
    "Search: the 200 mixed queries of bench:search after 20 warm-up queries, scope all, limit 10. append_journal: 100 appends to one journal (locked, atomic write, then re-indexed). Disk write → searchable: a new note written with writeFileSync, then search called every 2 ms until it finds the note's unique word (30 notes; the watcher's event reaches the server, and the search indexes what is pending without waiting for the 40 ms debounce). One-shot CLI and rg: 20 of the queries, one process each, wall clock. Without a server: run before the MCP server starts (no socket), so the launcher (dist/cli.js) loads the full CLI, which opens the saved index. With a server: run while the MCP server above is up (after its warm-up, before the appends), so the launcher hands the search to the server's socket and prints its answer. rg and `node -e 0` (an empty Node process): run right after each search with a server, so the three meet the same load; `node -e 0` is the floor of any command written for Node. Load average: the machine's 1-minute load average when the size was done; other processes on the machine slow every figure (on this 2-core machine `node -e 0` takes about 60 ms when it is idle, about 23 ms of it without NODE_EXTRA_CA_CERTS). Outputs differing: queries whose JSON through the server was not the one the run without a server printed (took_ms aside).",
    "",
    "Targets: warm search p95 ≤ 10 ms at 10k, append_journal p50 ≤ 20 ms, disk write → searchable p95 ≤ 250 ms, RSS at 50k ≤ 400 MB, a one-shot search at 10k no slower than rg.",
    "",
  ];
  return lines.join("\n");
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  execFileSync(process.execPath, [join(ROOT, "esbuild.config.mjs"), "cli"], {
    cwd: ROOT,
    stdio: "pipe",
  });
  const sizesArg = args.indexOf("--sizes");
  const sizes = (sizesArg >= 0 ? (args[sizesArg + 1] ?? "") : "1000,10000,50000")
    .split(",")
    .map(Number)
    .filter((x) => x > 0);
  const rg = hasRg();
  const rgNote = rg
    ? `ripgrep ${
        spawnSync("rg", ["--version"], { encoding: "utf8" })
          .stdout.split("\n")[0]
          ?.replace(/^ripgrep /, "") ?? ""
      }`
    : "ripgrep not installed: the rg column is skipped";
  if (!rg) process.stdout.write("bench:mcp: rg not found; the rg column is skipped\n");
  const work = join(tmpdir(), "am-bench-mcp");
  const rows: McpFigures[] = [];
  try {
    for (const n of sizes) {
      const dir = join(work, `vault-${n}`);
      rmSync(dir, { recursive: true, force: true });
      const figures = await measure(dir, n, rg);
      rows.push(figures);
      process.stdout.write(`${JSON.stringify(figures)}\n`);
      rmSync(dir, { recursive: true, force: true });
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const meta = {
    date: new Date().toISOString().slice(0, 10),
    machine: `${cpus().length} × ${cpus()[0]?.model.trim() ?? "CPU"}, ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.version}`,
    rg: rgNote,
  };
  mkdirSync(join(ROOT, "bench", "results"), { recursive: true });
  writeFileSync(
    join(ROOT, "bench", "results", "mcp.json"),
    `${JSON.stringify({ ...meta, results: rows }, null, 2)}\n`,
  );
  const md = markdown(rows, meta);
  writeFileSync(join(ROOT, "bench", "results", "mcp.md"), md);
  process.stdout.write(`\n${md}\nwrote bench/results/mcp.json and bench/results/mcp.md\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(
    `bench:mcp: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exitCode = 1;
});
