/**
 * Search at scale: `npm run bench:scale [-- --sizes 10000,50000,100000] [--queries 200]`.
 *
 * Vaults of real text (bench/lib/real-vault.ts: the Obsidian help pages and LoCoMo in
 * `../shared/data/`, notes of 0.5–6 KB) are generated once under the system temp folder
 * (`am-bench-scale-<checkout>/vault-N`) and reused by later runs. For each size, through the built
 * `dist/cli.js`, as a user's machine runs it:
 * - build: `agent-memory index <vault>` from nothing, wall clock, and its peak RSS (VmHWM);
 * - saved index: bytes of `.agent-memory/search-index*`;
 * - cold one-shot search: `agent-memory search <vault> <q> --json` with no server, p50 of 10;
 * - server start → first answer: spawn of `agent-memory mcp` to its first `search` answered
 *   (the SDK's client over stdio);
 * - warm `search` p50/p95/p99 and `mode: passages` p50/p95/p99 over the queries (after 20 warm-up
 *   queries), scope all, limit 10; then the server's RSS;
 * - `rg -l -i -F` over the same folder, one process per query, p50/p95 (when installed);
 * - in this process: the engine (`SearchEngine.searchTop` over title and body) against stock
 *   MiniSearch 7.2 (its default tokenizer, fields title and body, the same boosts), p50/p95/p99,
 *   and the check that the engine's results equal its exhaustive scorer's for every query (same
 *   top 10, same scores, ties aside); a difference fails the run.
 * `--engine-only` measures only the in-process columns (no build, CLI or server).
 * Writes bench/results/scale.json and prints a markdown table (bench/results/scale.md keeps the
 * recorded runs, written by hand from it).
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import MiniSearch from "minisearch";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { SearchEngine } from "../src/core/search/engine/search-engine";
import {
  createQueryTokenizer,
  createTokenizer,
  phraseRequiredTerms,
} from "../src/core/search/engine/tokenizer";
import { dropStopWords } from "../src/core/search/engine/stop-words";
import { loadCorpus, realVault, scaleQueries, type ScaleQuery } from "./lib/real-vault";
import { percentile, round } from "./lib/stats";
import { childEnv } from "./lib/child-env";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CLI = join(ROOT, "dist", "cli.js");
const DATA = resolve(ROOT, "..", "shared", "data");
/**
 * Where the generated vaults live: one folder per checkout, since each run builds its index inside
 * the vault and two checkouts benchmarking at once must not write one index.
 */
const WORK = join(tmpdir(), `am-bench-scale-${basename(ROOT)}`);

interface Figures {
  notes: number;
  vaultMB: number;
  buildS: number;
  buildPeakRssMB: number | null;
  savedIndexMB: number;
  coldSearchP50Ms: number;
  serverFirstAnswerS: number;
  searchP50Ms: number;
  searchP95Ms: number;
  searchP99Ms: number;
  passagesP50Ms: number;
  passagesP95Ms: number;
  passagesP99Ms: number;
  serverRssMB: number | null;
  rgP50Ms: number | null;
  rgP95Ms: number | null;
  engineP50Ms: number;
  engineP95Ms: number;
  engineP99Ms: number;
  exhaustiveP50Ms: number;
  exhaustiveP95Ms: number;
  miniSearchP50Ms: number;
  miniSearchP95Ms: number;
  miniSearchP99Ms: number;
  /** Queries whose engine results differed from the exhaustive scorer's (must be 0). */
  mismatches: number;
  loadAverage: number;
}

const mb = (bytes: number): number => round(bytes / 2 ** 20, 1);

function procStatus(pid: number | undefined, key: "VmRSS" | "VmHWM"): number | null {
  if (pid === undefined) return null;
  try {
    const kb = new RegExp(`${key}:\\s+(\\d+)\\s+kB`).exec(
      readFileSync(`/proc/${pid}/status`, "utf8"),
    )?.[1];
    return kb ? Number(kb) * 1024 : null;
  } catch {
    return null;
  }
}

/** Runs `agent-memory index <dir>`; wall clock and the highest VmHWM seen while it ran. */
async function build(dir: string): Promise<{ ms: number; peak: number | null }> {
  rmSync(join(dir, ".agent-memory"), { recursive: true, force: true });
  const t0 = performance.now();
  const child = spawn(process.execPath, [CLI, "index", dir], { env: childEnv(), stdio: "ignore" });
  let peak: number | null = null;
  const timer = setInterval(() => {
    const hwm = procStatus(child.pid, "VmHWM");
    if (hwm !== null) peak = Math.max(peak ?? 0, hwm);
  }, 20);
  const code = await new Promise<number | null>((res) => child.on("exit", res));
  clearInterval(timer);
  if (code !== 0) throw new Error(`agent-memory index ${dir} exited ${code}`);
  return { ms: performance.now() - t0, peak };
}

function savedIndexBytes(dir: string): number {
  let n = 0;
  const at = join(dir, ".agent-memory");
  for (const name of readdirSync(at))
    if (name.startsWith("search-index")) n += statSync(join(at, name)).size;
  return n;
}

function listNotes(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    if (name.startsWith(".")) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) listNotes(p, out);
    else if (name.endsWith(".md")) out.push(p);
  }
  return out;
}

/** A deterministic stand-in for the ranking factor: 0 for one note in ten (out of scope), else 0.5–1. */
function boostOf(shortId: number): number {
  const h = Math.imul(shortId + 1, 0x9e3779b1) >>> 0;
  return h % 10 === 0 ? 0 : 0.5 + (h % 6) / 10;
}

/** The engine against stock MiniSearch in this process, and the exhaustive check. */
function inProcess(
  dir: string,
  queries: readonly ScaleQuery[],
): Pick<
  Figures,
  | "engineP50Ms"
  | "engineP95Ms"
  | "engineP99Ms"
  | "exhaustiveP50Ms"
  | "exhaustiveP95Ms"
  | "miniSearchP50Ms"
  | "miniSearchP95Ms"
  | "miniSearchP99Ms"
  | "mismatches"
> {
  const tokenize = createTokenizer();
  const engine = new SearchEngine<{ id: string }>({
    idField: "id",
    fields: ["title", "body"],
    storeFields: [],
    tokenize,
    processTerm: (t: string) => t,
    searchOptions: {
      boost: { title: 3 },
      tokenize: (t: string) => t.split(" "),
      processTerm: (t: string) => t,
    },
  });
  const stock = new MiniSearch<{ id: string; title: string; body: string }>({
    fields: ["title", "body"],
    searchOptions: { boost: { title: 3 } },
  });
  for (const file of listNotes(dir)) {
    const text = readFileSync(file, "utf8");
    const title = /^# (.*)$/m.exec(text)?.[1] ?? "";
    const id = file.slice(dir.length + 1);
    engine.addText(id, [title, text], ["title", "body"]);
    stock.add({ id, title, body: text });
  }
  engine.flush();
  const queryTerms = createQueryTokenizer();
  const prepared = queries.map((q) => {
    const phrases = [...q.query.matchAll(/"([^"]+)"/g)].map((m) => m[1] ?? "");
    const words = q.query
      .replace(/"[^"]*"/g, " ")
      .replace(/\S+:\S+/g, " ")
      .trim();
    const terms = dropStopWords(
      queryTerms([words, ...phrases].join(" "), (t) => engine.hasTerm(t)),
    );
    const required = [...new Set(phrases.flatMap((p) => phraseRequiredTerms(p)))];
    return { terms, required, text: [words, ...phrases].join(" ") };
  });
  const boost = (_id: string, shortId: number): number => boostOf(shortId);
  const run = (exhaustive: boolean) =>
    prepared.map((p) => {
      const s = performance.now();
      const r = engine.searchTop(p.terms, boost, 10, p.required, { exhaustive, maxBoost: 1 });
      return { ms: performance.now() - s, r };
    });
  run(false); // warm-up
  const fast = run(false);
  const full = run(true);
  let mismatches = 0;
  fast.forEach((f, i) => {
    const e = full[i]?.r;
    if (!e) return;
    const a = f.r.top;
    const b = e.top;
    const same =
      a.length === b.length &&
      a.every((h, k) => h.score === b[k]?.score) &&
      // Ties aside: a document whose score no other result shares is the same one.
      a.every((h, k) => a.filter((x) => x.score === h.score).length > 1 || h.id === b[k]?.id);
    if (!same) {
      mismatches++;
      process.stdout.write(
        `bench:scale: "${queries[i]?.query}" differs from the exhaustive scorer:\n  ${JSON.stringify(a.map((h) => [h.id, h.score]))}\n  ${JSON.stringify(b.map((h) => [h.id, h.score]))}\n`,
      );
    }
  });
  const stockMs: number[] = [];
  for (let pass = 0; pass < 2; pass++) {
    stockMs.length = 0;
    for (const p of prepared) {
      const s = performance.now();
      stock.search(p.text, { boostDocument: (_id, _t, _d) => 1 }).slice(0, 10);
      stockMs.push(performance.now() - s);
    }
  }
  const ms = (xs: { ms: number }[]) => xs.map((x) => x.ms);
  return {
    engineP50Ms: round(percentile(ms(fast), 50), 2),
    engineP95Ms: round(percentile(ms(fast), 95), 2),
    engineP99Ms: round(percentile(ms(fast), 99), 2),
    exhaustiveP50Ms: round(percentile(ms(full), 50), 2),
    exhaustiveP95Ms: round(percentile(ms(full), 95), 2),
    miniSearchP50Ms: round(percentile(stockMs, 50), 2),
    miniSearchP95Ms: round(percentile(stockMs, 95), 2),
    miniSearchP99Ms: round(percentile(stockMs, 99), 2),
    mismatches,
  };
}

type ToolResult = { isError?: boolean };

async function measure(dir: string, n: number, queries: ScaleQuery[], rg: boolean) {
  const v = realVault(dir, n, loadCorpus(DATA));
  const built = await build(dir);
  const cold: number[] = [];
  for (const q of queries.slice(0, 10)) {
    const s = performance.now();
    const r = spawnSync(process.execPath, [CLI, "search", dir, q.query, "--json"], {
      env: childEnv(),
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
    if (r.status !== 0) throw new Error(`search ${q.query}: ${r.stderr}`);
    cold.push(performance.now() - s);
  }

  const t0 = performance.now();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "mcp", dir, "--agent", "agent-01"],
    env: childEnv(),
    stderr: "pipe",
  });
  let log = "";
  transport.stderr?.on("data", (c: Buffer) => {
    log += c.toString("utf8");
  });
  const client = new Client({ name: "bench-scale", version: "1.0.0" });
  const call = async (args: Record<string, unknown>): Promise<void> => {
    const r = (await client.callTool({ name: "search", arguments: args })) as ToolResult;
    if (r.isError) throw new Error(`search failed: ${JSON.stringify(r)}; ${log.slice(-500)}`);
  };
  let serverFirstAnswerMs = 0;
  const searchMs: number[] = [];
  const passageMs: number[] = [];
  let serverRss: number | null = null;
  try {
    await client.connect(transport);
    await call({ query: queries[0]?.query ?? "note", scope: "all" });
    serverFirstAnswerMs = performance.now() - t0;
    for (const q of queries.slice(0, 20)) {
      await call({ query: q.query, scope: "all" });
      await call({ query: q.query, scope: "all", mode: "passages" });
    }
    for (const q of queries) {
      const s = performance.now();
      await call({ query: q.query, scope: "all" });
      searchMs.push(performance.now() - s);
    }
    for (const q of queries) {
      const s = performance.now();
      await call({ query: q.query, scope: "all", mode: "passages" });
      passageMs.push(performance.now() - s);
    }
    serverRss = procStatus(transport.pid ?? undefined, "VmRSS");
  } finally {
    await client.close();
  }

  const rgMs: number[] = [];
  if (rg)
    for (const q of queries.slice(0, 20)) {
      const s = performance.now();
      spawnSync("rg", ["-l", "-i", "-F", "--no-messages", ...q.rg.flatMap((t) => ["-e", t]), dir], {
        encoding: "utf8",
        maxBuffer: 64 * 1024 * 1024,
      });
      rgMs.push(performance.now() - s);
    }
  const engine = inProcess(dir, queries);
  const figures: Figures = {
    notes: n,
    vaultMB: mb(v.bytes),
    buildS: round(built.ms / 1000, 2),
    buildPeakRssMB: built.peak === null ? null : mb(built.peak),
    savedIndexMB: mb(savedIndexBytes(dir)),
    coldSearchP50Ms: round(percentile(cold, 50), 1),
    serverFirstAnswerS: round(serverFirstAnswerMs / 1000, 2),
    searchP50Ms: round(percentile(searchMs, 50), 2),
    searchP95Ms: round(percentile(searchMs, 95), 2),
    searchP99Ms: round(percentile(searchMs, 99), 2),
    passagesP50Ms: round(percentile(passageMs, 50), 2),
    passagesP95Ms: round(percentile(passageMs, 95), 2),
    passagesP99Ms: round(percentile(passageMs, 99), 2),
    serverRssMB: serverRss === null ? null : mb(serverRss),
    rgP50Ms: rg ? round(percentile(rgMs, 50), 1) : null,
    rgP95Ms: rg ? round(percentile(rgMs, 95), 1) : null,
    ...engine,
    loadAverage: round(loadavg()[0] ?? 0, 1),
  };
  return figures;
}

function table(rows: Figures[]): string {
  const o = (x: number | null, unit: string) => (x === null ? "–" : `${x} ${unit}`);
  return [
    "| notes | build | build peak RSS | saved index | cold one-shot search p50 | server start → first answer | warm search p50 / p95 / p99 (MCP) | passages p50 / p95 / p99 (MCP) | server RSS | rg p50 / p95 | engine in-process p50 / p95 / p99 (exhaustive p50 / p95) | stock MiniSearch p50 / p95 / p99 | differing from exhaustive | load |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...rows.map(
      (r) =>
        `| ${r.notes} | ${r.buildS} s | ${o(r.buildPeakRssMB, "MB")} | ${r.savedIndexMB} MB | ${r.coldSearchP50Ms} ms | ${r.serverFirstAnswerS} s | ${r.searchP50Ms} / ${r.searchP95Ms} / ${r.searchP99Ms} ms | ${r.passagesP50Ms} / ${r.passagesP95Ms} / ${r.passagesP99Ms} ms | ${o(r.serverRssMB, "MB")} | ${r.rgP50Ms ?? "–"} / ${r.rgP95Ms ?? "–"} ms | ${r.engineP50Ms} / ${r.engineP95Ms} / ${r.engineP99Ms} (${r.exhaustiveP50Ms} / ${r.exhaustiveP95Ms}) ms | ${r.miniSearchP50Ms} / ${r.miniSearchP95Ms} / ${r.miniSearchP99Ms} ms | ${r.mismatches} | ${r.loadAverage} |`,
    ),
  ].join("\n");
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const arg = (name: string, fallback: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? (args[i + 1] ?? fallback) : fallback;
  };
  const sizes = arg("--sizes", "10000,50000,100000")
    .split(",")
    .map(Number)
    .filter((x) => x > 0);
  const corpus = loadCorpus(DATA);
  const queries = scaleQueries(corpus, Number(arg("--queries", "200")));
  if (args.includes("--engine-only")) {
    for (const n of sizes) {
      const dir = join(WORK, `vault-${n}`);
      realVault(dir, n, corpus);
      const figures = inProcess(dir, queries);
      process.stdout.write(`${JSON.stringify({ notes: n, ...figures })}\n`);
      if (figures.mismatches > 0) process.exitCode = 1;
    }
    return;
  }
  execFileSync(process.execPath, [join(ROOT, "esbuild.config.mjs"), "cli"], {
    cwd: ROOT,
    stdio: "pipe",
  });
  const rg = spawnSync("rg", ["--version"]).status === 0;
  const rows: Figures[] = [];
  for (const n of sizes) {
    const figures = await measure(join(WORK, `vault-${n}`), n, queries, rg);
    rows.push(figures);
    process.stdout.write(`${JSON.stringify(figures)}\n`);
  }
  const meta = {
    date: new Date().toISOString().slice(0, 16),
    machine: `${cpus().length} × ${cpus()[0]?.model.trim() ?? "CPU"}, ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.version}`,
  };
  mkdirSync(join(ROOT, "bench", "results"), { recursive: true });
  writeFileSync(
    join(ROOT, "bench", "results", "scale.json"),
    `${JSON.stringify({ ...meta, results: rows }, null, 2)}\n`,
  );
  process.stdout.write(`\n${meta.date}, ${meta.machine}\n\n${table(rows)}\n`);
  if (rows.some((r) => r.mismatches > 0)) {
    process.stderr.write("bench:scale: results differ from the exhaustive scorer\n");
    process.exitCode = 1;
  }
}

main().catch((err: unknown) => {
  process.stderr.write(
    `bench:scale: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exitCode = 1;
});
