/**
 * Search benchmark `npm run bench:search [-- --sizes 1000,10000,50000]`.
 *
 * For synthetic vaults of 1k, 10k and 50k notes (bench/lib/synthetic-vault.ts, generated under the
 * system temp folder) and the real Obsidian help vault (`../shared/data/obsidian-help`, when
 * present), measures with SearchService exactly as the CLI runs it (NodeVault, index saved to
 * `<vault>/.agent-memory/`, notes read and CJK segmented on the CLI's worker thread from the
 * bundle `dist/index-worker.mjs`, which it builds first): build time, saved-index size, reload time
 * (parse + restore, then listing the vault and checking mtimes), heap used after the build, query p50/p95 over 200 mixed
 * queries (including reading each result's blocks), single-note update time, and ripgrep
 * (`rg -l -i -F -e …`, a process per query) answering the same queries over the same files in the
 * same run. Each vault is measured in a fresh child process (`--expose-gc`) so heap figures do not
 * mix. Writes bench/results/search.json and bench/results/search.md.
 */
import { execFileSync, spawnSync } from "node:child_process";
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { FileIndexStore, indexFileOf } from "../src/node/index-store";
import { NodeVault } from "../src/node/node-vault";
import { startIndexWorker, WorkerNoteReader } from "../src/node/worker-reader";
import { MemoryLayout } from "../src/core/layout";
import { defaultSettings, type Settings } from "../src/core/settings";
import { SearchService } from "../src/core/search/search-service";
import { benchQueries, generateVault, rng, type BenchQuery } from "./lib/synthetic-vault";
import { mean, percentile, round } from "./lib/stats";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const HELP_VAULT = resolve(ROOT, "../shared/data/obsidian-help");
const WORKER_BUNDLE = join(ROOT, "dist", "index-worker.mjs");
const UPDATES = 50;

/** Figures for one vault. Times in milliseconds, sizes in bytes. */
interface VaultFigures {
  vault: string;
  notes: number;
  bytes: number;
  buildMs: number;
  saveMs: number;
  indexBytes: number;
  reloadLoadMs: number;
  reloadSyncMs: number;
  reloadMs: number;
  /** `SearchService.warmUp()` after the reload, as the plugin runs it. */
  warmUpMs: number;
  heapUsedBytes: number;
  queries: number;
  queryP50Ms: number;
  queryP95Ms: number;
  /** The same queries in a new process that skipped the warm-up (as the CLI runs). */
  coldQueryP50Ms: number | null;
  coldQueryP95Ms: number | null;
  updateP50Ms: number;
  updateMeanMs: number;
  rgP50Ms: number | null;
  rgP95Ms: number | null;
  /** rg p50 ÷ search p50. */
  rgRatioP50: number | null;
  capped: number;
}

function hasRg(): boolean {
  return spawnSync("rg", ["--version"], { encoding: "utf8" }).status === 0;
}

/** Runs in the child process: measures one vault and prints its figures as JSON. */
async function worker(
  vaultRoot: string,
  label: string,
  memoryRoot: string,
  queriesFile: string,
  mode: string,
): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  const settings: Settings = { ...defaultSettings(), memoryRoot };
  const layout = new MemoryLayout(settings);
  const vault = new NodeVault(vaultRoot);
  const queries = JSON.parse(readFileSync(queriesFile, "utf8")) as BenchQuery[];
  const indexFile = indexFileOf(vault);
  // As the CLI builds: notes read and segmented on its worker thread (the bundle main() built).
  const reader = new WorkerNoteReader(vault, {
    startWorker: (data) => startIndexWorker(data, pathToFileURL(WORKER_BUNDLE)),
    onFallback: (reason) => {
      throw new Error(`bench:search: ${reason}`);
    },
  });
  if (mode === "cold") {
    // A new process on the saved index, without the warm-up: the first searches of a kind pay for
    // the JavaScript engine compiling the search code.
    const cold = new SearchService({ vault, layout, store: new FileIndexStore(indexFile), reader });
    await cold.open();
    const times = await timeQueries(cold, queries);
    process.stdout.write(
      `${JSON.stringify({ p50: round(percentile(times, 50), 2), p95: round(percentile(times, 95), 2) })}\n`,
    );
    return;
  }
  rmSync(indexFile, { force: true });

  gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  let builder: SearchService | null = new SearchService({
    vault,
    layout,
    store: new FileIndexStore(indexFile),
    reader,
  });
  const built = await builder.open();
  gc?.();
  const heapUsed = process.memoryUsage().heapUsed - heapBefore;
  // Reload as a new process would: without the builder's index in the heap.
  builder = null;
  gc?.();

  const service = new SearchService({
    vault,
    layout,
    store: new FileIndexStore(indexFile),
    reader,
  });
  const t0 = performance.now();
  const reload = await service.open();
  const reloadMs = performance.now() - t0;
  if (reload.source !== "saved")
    throw new Error(`reload did not use the saved index: ${reload.rebuildReason ?? "?"}`);
  const warmUpMs = await service.warmUp();

  const times = await timeQueries(service, queries);

  const rand = rng(11);
  const files = await vault.list(layout.root || undefined);
  const small = files.filter((f) => f.size < 20_000);
  const updates: number[] = [];
  for (let i = 0; i < UPDATES; i++) {
    const f = small[Math.floor(rand() * small.length)];
    if (!f) break;
    const abs = join(vaultRoot, f.path);
    appendFileSync(abs, `\nUpdate ${i}: reviewed the bounce rate again.\n`);
    const st = statSync(abs);
    const start = performance.now();
    await service.update(f.path, { mtime: st.mtimeMs, size: st.size });
    updates.push(performance.now() - start);
  }

  let rgTimes: number[] | null = null;
  if (hasRg()) {
    rgTimes = [];
    const dir = memoryRoot ? join(vaultRoot, memoryRoot) : vaultRoot;
    for (const q of queries) {
      const start = performance.now();
      spawnSync("rg", ["-l", "-i", "-F", "--no-messages", ...q.rg.flatMap((t) => ["-e", t]), dir], {
        encoding: "utf8",
        maxBuffer: 64 * 1024 * 1024,
      });
      rgTimes.push(performance.now() - start);
    }
  }

  const bytes = files.reduce((a, f) => a + f.size, 0);
  const figures: VaultFigures = {
    vault: label,
    notes: built.notes,
    bytes,
    buildMs: round(built.syncMs),
    saveMs: round(built.saveMs),
    indexBytes: statSync(indexFile).size,
    reloadLoadMs: round(reload.loadMs),
    reloadSyncMs: round(reload.syncMs),
    reloadMs: round(reloadMs),
    warmUpMs: round(warmUpMs),
    heapUsedBytes: heapUsed,
    queries: queries.length,
    queryP50Ms: round(percentile(times, 50), 2),
    queryP95Ms: round(percentile(times, 95), 2),
    coldQueryP50Ms: null,
    coldQueryP95Ms: null,
    updateP50Ms: round(percentile(updates, 50), 2),
    updateMeanMs: round(mean(updates), 2),
    rgP50Ms: rgTimes ? round(percentile(rgTimes, 50), 1) : null,
    rgP95Ms: rgTimes ? round(percentile(rgTimes, 95), 1) : null,
    rgRatioP50: rgTimes ? round(percentile(rgTimes, 50) / percentile(times, 50), 1) : null,
    capped: built.capped.length,
  };
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

/** Each query's time in ms, in order; throws on a query error. */
async function timeQueries(service: SearchService, queries: BenchQuery[]): Promise<number[]> {
  const times: number[] = [];
  for (const q of queries) {
    const start = performance.now();
    const r = await service.search(q.query, { limit: 10 });
    times.push(performance.now() - start);
    if (!r.ok) throw new Error(`query ${q.query}: ${r.error}`);
  }
  return times;
}

/** 200 queries drawn from the help vault's own words (English and Chinese). */
function helpVaultQueries(root: string, count = 200): BenchQuery[] {
  const rand = rng(5);
  const en: string[] = [];
  const zh: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(".md")) {
        const text = readFileSync(p, "utf8");
        for (const m of text.matchAll(/\b[A-Za-z]{4,}\b/g)) if (rand() < 0.02) en.push(m[0]);
        for (const m of text.matchAll(/[\u4e00-\u9fff]{2}/g)) if (rand() < 0.02) zh.push(m[0]);
      }
    }
  };
  walk(root);
  const out: BenchQuery[] = [];
  for (let i = 0; i < count; i++) {
    const pickEn = (): string => en[Math.floor(rand() * en.length)] ?? "vault";
    if (i % 4 === 3 && zh.length > 0) {
      const w = zh[Math.floor(rand() * zh.length)] ?? "笔记";
      out.push({ kind: "chinese", query: w, rg: [w] });
    } else if (i % 4 === 2) {
      const a = pickEn();
      const b = pickEn();
      out.push({ kind: "two words", query: `${a} ${b}`, rg: [a, b] });
    } else {
      const w = pickEn();
      out.push({ kind: "word", query: w, rg: [w] });
    }
  }
  return out;
}

function runWorker(
  vaultRoot: string,
  label: string,
  memoryRoot: string,
  queries: BenchQuery[],
): VaultFigures {
  const qfile = join(vaultRoot, ".agent-memory-bench-queries.json");
  mkdirSync(vaultRoot, { recursive: true });
  writeFileSync(qfile, JSON.stringify(queries));
  try {
    const figures = JSON.parse(
      spawnWorker(vaultRoot, label, memoryRoot, qfile, "full"),
    ) as VaultFigures;
    const cold = JSON.parse(spawnWorker(vaultRoot, label, memoryRoot, qfile, "cold")) as {
      p50: number;
      p95: number;
    };
    return { ...figures, coldQueryP50Ms: cold.p50, coldQueryP95Ms: cold.p95 };
  } finally {
    rmSync(qfile, { force: true });
  }
}

/** Runs {@link worker} in a new process and returns the JSON line it printed last. */
function spawnWorker(
  vaultRoot: string,
  label: string,
  memoryRoot: string,
  qfile: string,
  mode: "full" | "cold",
): string {
  const res = spawnSync(
    process.execPath,
    [
      "--expose-gc",
      "--max-old-space-size=8192",
      "--import",
      "tsx",
      fileURLToPath(import.meta.url),
      "--worker",
      vaultRoot,
      label,
      memoryRoot,
      qfile,
      mode,
    ],
    {
      cwd: ROOT,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const line = res.stdout.trim().split("\n").pop() ?? "";
  if (res.status !== 0 || !line.startsWith("{"))
    throw new Error(`worker (${mode}) for ${label} failed (exit ${res.status})`);
  return line;
}

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function markdown(
  rows: VaultFigures[],
  meta: { date: string; machine: string; rg: string },
): string {
  const head =
    "| vault | notes | text | build | index size | reload (load + sync) | warm-up | heap after build | query p50 | query p95 | no warm-up p50 / p95 | rg p50 | rg p95 | rg ÷ search at p50 | update p50 |";
  const sep = "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|";
  const body = rows.map(
    (r) =>
      `| ${r.vault} | ${r.notes} | ${mb(r.bytes)} | ${(r.buildMs / 1000).toFixed(2)} s | ${mb(r.indexBytes)} | ${(r.reloadMs / 1000).toFixed(2)} s (${(r.reloadLoadMs / 1000).toFixed(2)} + ${(r.reloadSyncMs / 1000).toFixed(2)}) | ${(r.warmUpMs / 1000).toFixed(2)} s | ${mb(r.heapUsedBytes)} | ${r.queryP50Ms} ms | ${r.queryP95Ms} ms | ${r.coldQueryP50Ms ?? "–"} / ${r.coldQueryP95Ms ?? "–"} ms | ${r.rgP50Ms ?? "–"} ms | ${r.rgP95Ms ?? "–"} ms | ${r.rgRatioP50 ?? "–"}× | ${r.updateP50Ms} ms |`,
  );
  return [
    "# Search benchmark",
    "",
    `Measured ${meta.date} on ${meta.machine} with \`npm run bench:search\`; ${meta.rg}.`,
    "Build: list, read and index every note (the saved index is written afterwards, not counted). Reload: a new process-like",
    "SearchService opening the saved index (parse + restore) and checking every note's mtime and size. Query: `search()` with",
    "limit 10 over 200 mixed queries (words, word pairs, rare words, Chinese words, ids, section numbers, phrases, filters),",
    "including reading each result's blocks for snippets, after `warmUp()` (a dozen searches of the vault's own words, which the",
    'plugin runs once the index is open); "no warm-up" runs the same queries in a new process on the saved index without it, as',
    "the CLI does (its first searches of each kind pay for the JavaScript engine compiling the search code). rg: `rg -l -i -F -e <term>…` over the same folder, one process per query.",
    "Update: append a line to a note and re-index it alone (50 notes).",
    "",
    "Targets at 10k notes: query p95 ≤ 10 ms, build ≤ 5 s, reload ≤ 1 s, single-note update ≤ 5 ms, ≥ 20× faster than rg at p50.",
    "",
    head,
    sep,
    ...body,
    "",
  ].join("\n");
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === "--worker") {
    await worker(args[1] ?? "", args[2] ?? "", args[3] ?? "", args[4] ?? "", args[5] ?? "full");
    return;
  }
  // The CLI bundle and its index worker, which the measured builds use.
  execFileSync(process.execPath, [join(ROOT, "esbuild.config.mjs"), "cli"], {
    cwd: ROOT,
    stdio: "pipe",
  });
  const sizesArg = args.indexOf("--sizes");
  const sizes = (sizesArg >= 0 ? (args[sizesArg + 1] ?? "") : "1000,10000,50000")
    .split(",")
    .map(Number)
    .filter((n) => n > 0);
  const rg = hasRg();
  const rgNote = rg
    ? `ripgrep ${
        spawnSync("rg", ["--version"], { encoding: "utf8" })
          .stdout.split("\n")[0]
          ?.replace(/^ripgrep /, "") ?? ""
      }`
    : "ripgrep not installed (apt-get install ripgrep): rg columns skipped";
  if (!rg)
    process.stdout.write(
      "bench:search: rg not found; the rg columns are skipped (apt-get install ripgrep)\n",
    );
  const rows: VaultFigures[] = [];
  const work = join(tmpdir(), "am-bench-search");
  try {
    for (const n of sizes) {
      const dir = join(work, `vault-${n}`);
      rmSync(dir, { recursive: true, force: true });
      const t0 = performance.now();
      const v = generateVault(dir, n);
      process.stdout.write(
        `generated ${n} notes (${mb(v.bytes)}) in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`,
      );
      const figures = runWorker(dir, `synthetic ${n / 1000}k`, "Memory", benchQueries(v));
      rows.push(figures);
      process.stdout.write(`${JSON.stringify(figures)}\n`);
      rmSync(dir, { recursive: true, force: true });
    }
    if (existsSync(HELP_VAULT)) {
      const dir = join(work, "obsidian-help");
      rmSync(dir, { recursive: true, force: true });
      spawnSync("cp", ["-r", HELP_VAULT, dir]);
      spawnSync("chmod", ["-R", "u+w", dir]);
      const figures = runWorker(dir, "obsidian-help (en + zh)", "", helpVaultQueries(dir));
      rows.push(figures);
      process.stdout.write(`${JSON.stringify(figures)}\n`);
      rmSync(dir, { recursive: true, force: true });
    } else {
      process.stdout.write(
        `bench:search: ${relative(ROOT, HELP_VAULT)} not found; the real-vault row is skipped\n`,
      );
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
    join(ROOT, "bench", "results", "search.json"),
    `${JSON.stringify({ ...meta, results: rows }, null, 2)}\n`,
  );
  const md = markdown(rows, meta);
  writeFileSync(join(ROOT, "bench", "results", "search.md"), md);
  process.stdout.write(`\n${md}\nwrote bench/results/search.json and bench/results/search.md\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(
    `bench:search: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exitCode = 1;
});
