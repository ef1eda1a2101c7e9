/**
 * Saved-index benchmark `npm run bench:store [-- --notes 10000]`: what the saved index costs at
 * start and on a change, on a vault of real text (bench/lib/real-vault.ts: the Obsidian help
 * pages and LoCoMo conversations from `../shared/data/`, notes of 0.5–6 KB). Prints, for the
 * built CLI (`dist/`, built first): the build (`index --rebuild`, wall time and peak RSS), the
 * saved index's size, a one-shot `search` with no server running (p50 of 7 runs, Node's own start
 * included), an MCP server's start to its first answer (SDK client over stdio), and in this
 * process the save of a one-note change (`SearchService.update` then `save`, p50 of 5) with a
 * search issued while it saves, first as the delta record it appends, then as a full rewrite (a
 * store without a delta, as a compaction writes), and an open after them (`--save-only`: these
 * alone, on the vault's saved index). Writes bench/results/store.md.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync, statSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { vaultIndexStore } from "../src/node/index-store";
import { NodeVault } from "../src/node/node-vault";
import { MemoryLayout } from "../src/core/layout";
import { defaultSettings } from "../src/core/settings";
import { SearchService, type IndexStore } from "../src/core/search/search-service";
import { loadCorpus, realVault, scaleQueries } from "./lib/real-vault";
import { percentile, round } from "./lib/stats";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CLI = join(ROOT, "dist", "cli.js");
const DATA = resolve(ROOT, "..", "shared", "data");
/** An agent every generated vault has (bench/lib/real-vault.ts names them agent-01, agent-02, …). */
const AGENT = "agent-01";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
}

/** Bytes of every file under `dir`. */
function folderBytes(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    n += e.isDirectory() ? folderBytes(p) : statSync(p).size;
  }
  return n;
}

/**
 * Runs the CLI under /usr/bin/time: wall ms, CPU ms (user + system: steadier than wall on a
 * shared machine) and peak RSS (bytes).
 */
function timed(args: string[]): { ms: number; cpuMs: number; rss: number; stdout: string } {
  const t = performance.now();
  const r = spawnSync("/usr/bin/time", ["-f", "RSS %M CPU %U %S", process.execPath, CLI, ...args], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`${args.join(" ")} failed: ${r.stderr.slice(-500)}`);
  const m = /RSS (\d+) CPU ([\d.]+) ([\d.]+)/.exec(r.stderr);
  const rss = Number(m?.[1] ?? 0) * 1024;
  const cpuMs = (Number(m?.[2] ?? 0) + Number(m?.[3] ?? 0)) * 1000;
  return { ms, cpuMs, rss, stdout: r.stdout };
}

async function serverFirstAnswer(vault: string, query: string): Promise<number> {
  const t = performance.now();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "mcp", vault, "--agent", AGENT],
    stderr: "pipe",
  });
  const client = new Client({ name: "bench-store", version: "1.0.0" });
  await client.connect(transport);
  const r = await client.callTool({ name: "search", arguments: { query, scope: "all" } });
  const ms = performance.now() - t;
  if (r.isError) throw new Error(`search failed: ${JSON.stringify(r).slice(0, 300)}`);
  await client.close();
  return ms;
}

async function main(): Promise<void> {
  const notes = Number(arg("notes", "10000"));
  execFileSync("npm", ["run", "-s", "build:cli"], { cwd: ROOT, stdio: "inherit" });
  const dir = join(tmpdir(), `am-bench-store-${notes}`);
  const corpus = loadCorpus(DATA);
  const made = realVault(dir, notes, corpus);
  const queries = scaleQueries(corpus, 50).map((q) => q.query);
  const lines: string[] = [];
  const say = (line: string): void => {
    process.stdout.write(`${line}\n`);
    lines.push(line);
  };
  say(
    `load average at start: ${loadavg()
      .map((l) => round(l, 1))
      .join(" ")} (2 cores shared)`,
  );
  say(`vault: ${notes} notes, ${round(made.bytes / 1e6)} MB of real text (${dir})`);

  const cliRuns = !process.argv.includes("--save-only");
  if (cliRuns) {
    const build = timed(["index", dir, "--rebuild", "--json"]);
    say(
      `build: ${round(build.ms)} ms wall, ${round(build.cpuMs)} ms CPU, peak RSS ${round(build.rss / 1e6)} MB`,
    );
    const indexDir = join(dir, ".agent-memory");
    say(`saved index: ${round(folderBytes(indexDir) / 1e6, 2)} MB`);

    const oneShot: number[] = [];
    const oneShotCpu: number[] = [];
    let oneShotRss = 0;
    for (let i = 0; i < 7; i++) {
      const q = queries[i % queries.length] ?? "search";
      const r = timed(["search", dir, q, "--json"]);
      oneShot.push(r.ms);
      oneShotCpu.push(r.cpuMs);
      oneShotRss = Math.max(oneShotRss, r.rss);
    }
    say(
      `one-shot search (no server): p50 ${round(percentile(oneShot, 50))} ms, max ${round(Math.max(...oneShot))} ms, CPU p50 ${round(percentile(oneShotCpu, 50))} ms, peak RSS ${round(oneShotRss / 1e6)} MB`,
    );

    const starts: number[] = [];
    for (let i = 0; i < 3; i++) starts.push(await serverFirstAnswer(dir, queries[i] ?? "x"));
    say(`server start → first answer: p50 ${round(percentile(starts, 50))} ms`);
  }

  const vault = new NodeVault(dir);
  const journals = `Memory/Agents/${AGENT}/Journal`;
  const path = `${journals}/${readdirSync(join(dir, journals)).sort()[0] ?? ""}`;
  /** Five saves of a one-note change: each save's time, and a search's issued as it starts. */
  const saveWhileSearching = async (
    store: IndexStore,
    round: string,
  ): Promise<{ saves: number[]; during: number[] }> => {
    const service = new SearchService({
      vault,
      layout: new MemoryLayout(defaultSettings()),
      store,
      // As the CLI and the server run it (src/cli/shared.ts, cliSearchService).
      yieldToHost: () => new Promise((resolve) => setImmediate(resolve)),
    });
    await service.open();
    // One save first, so the timed ones follow a delta this service wrote (not one it ignored).
    await vault.process(path, (text) => `${text}\nchanged ${round}\n`);
    await service.update(path);
    await service.save();
    const saves: number[] = [];
    const during: number[] = [];
    for (let i = 0; i < 5; i++) {
      await vault.process(path, (text) => `${text}\nchanged ${round} ${i}\n`);
      await service.update(path);
      const t = performance.now();
      const saving = service.save().then(() => saves.push(performance.now() - t));
      // Issued as the save starts, answered once the event loop gets to it.
      await new Promise<void>((done) => {
        setTimeout(() => {
          void service.search(queries[i] ?? "x", { limit: 10 }).then(() => {
            during.push(performance.now() - t);
            done();
          });
        }, 0);
      });
      await saving;
    }
    return { saves, during };
  };
  const store = vaultIndexStore(vault);
  {
    // The same searches with no save running, for comparison.
    const alone = new SearchService({
      vault,
      layout: new MemoryLayout(defaultSettings()),
      store,
      yieldToHost: () => new Promise((resolve) => setImmediate(resolve)),
    });
    await alone.open();
    // Other queries first, so the engine's code is compiled, as it is by the time saves are timed.
    for (let i = 10; i < 20; i++) await alone.search(queries[i] ?? "x", { limit: 10 });
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      await alone.search(queries[i] ?? "x", { limit: 10 });
      times.push(performance.now() - t);
    }
    say(
      `a search with no save running (same queries, same process): p50 ${round(percentile(times, 50))} ms`,
    );
  }
  // The same store without its delta methods: every save rewrites the base, as a compaction does.
  const whole = await saveWhileSearching(
    { load: () => store.load(), save: (data) => store.save(data), location: store.location },
    "whole",
  );
  say(
    `full rewrite (as a compaction, time-sliced): p50 ${round(percentile(whole.saves, 50))} ms; a search issued during it answered in p50 ${round(percentile(whole.during, 50))} ms`,
  );
  const delta = await saveWhileSearching(store, "delta");
  say(
    `one-note change saved (a delta record appended; what a server's close does): p50 ${round(percentile(delta.saves, 50))} ms; a search issued during the save answered in p50 ${round(percentile(delta.during, 50))} ms`,
  );
  const reopened = await new SearchService({
    vault,
    layout: new MemoryLayout(defaultSettings()),
    store,
  }).open();
  say(
    `open after the delta saves: ${reopened.source}, ${reopened.indexed} re-indexed, ${reopened.deltaRecords ?? 0} delta records replayed, load ${round(reopened.loadMs)} ms`,
  );
  writeFileSync(
    join(ROOT, "bench", "results", cliRuns ? "store.md" : "store-save.md"),
    `# bench:store (${new Date().toISOString().slice(0, 10)})\n\n${lines.map((l) => `- ${l}`).join("\n")}\n`,
  );
}

await main();
