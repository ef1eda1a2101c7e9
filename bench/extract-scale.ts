// Extraction at scale: how planning and applying grow with the number of items in a run.
// A copy of the sample vault gets one journal with N extractable lines (bench/lib/scale-journal.ts:
// tasks, `Decision:`, `Learned:`, Chinese tasks, 决定 and 心得, a few lines written twice), which the
// offline extractor reads; the run is timed in process (planExtraction, then applyPlan), or, with
// `--cli`, as `node <cli> extract <vault> <journal> [--dry-run]` processes.
//
// Usage: npm run bench:extract-scale [-- --sizes 500,1000,2000] [--cli dist/cli.js] [--json]
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { NodeVault } from "../src/node/node-vault";
import { MemoryLayout } from "../src/core/layout";
import { defaultSettings } from "../src/core/settings";
import { applyPlan, planExtraction } from "../src/core/extraction/pipeline";
import { OfflineExtractor } from "../src/core/extraction/offline";
import { scaleJournal } from "./lib/scale-journal";

const args = process.argv.slice(2);
const value = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const SIZES = (value("--sizes") ?? "500,1000,2000").split(",").map(Number);
const CLI = value("--cli");
const JSON_OUT = args.includes("--json");
const SAMPLE = fileURLToPath(new URL("../examples/vault", import.meta.url));
const JOURNAL = "Memory/Agents/link/Journal/2026-12-01.md";

interface Row {
  lines: number;
  items: number;
  planS: number;
  applyS: number;
}

function freshVault(lines: number): string {
  const root = mkdtempSync(join(tmpdir(), "am-extract-scale-"));
  cpSync(SAMPLE, root, { recursive: true });
  writeFileSync(join(root, JOURNAL), scaleJournal(lines));
  return root;
}

async function inProcess(lines: number): Promise<Row> {
  const root = freshVault(lines);
  try {
    const settings = defaultSettings();
    const layout = new MemoryLayout(settings);
    const vault = new NodeVault(root);
    const t0 = performance.now();
    const plan = await planExtraction({
      vault,
      settings,
      layout,
      journalPath: JOURNAL,
      extractor: new OfflineExtractor(),
    });
    const t1 = performance.now();
    await applyPlan(vault, layout, plan);
    const t2 = performance.now();
    return { lines, items: plan.items.length, planS: (t1 - t0) / 1000, applyS: (t2 - t1) / 1000 };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

function viaCli(cli: string, lines: number): Row {
  const root = freshVault(lines);
  const env = {
    ...process.env,
    AGENT_MEMORY_LLM_BASE_URL: "",
    AGENT_MEMORY_LLM_API_KEY: "",
    OPENAI_BASE_URL: "",
    OPENAI_API_KEY: "",
  };
  const run = (extra: string[]): { s: number; out: string } => {
    const t0 = performance.now();
    const out = execFileSync(
      process.execPath,
      [cli, "extract", root, JOURNAL, "--json", ...extra],
      { env, maxBuffer: 1 << 28, stdio: ["ignore", "pipe", "ignore"] },
    ).toString();
    return { s: (performance.now() - t0) / 1000, out };
  };
  try {
    const dry = run(["--dry-run"]);
    const items = (JSON.parse(dry.out) as { items: unknown[] }).items.length;
    const full = run([]);
    // The whole run re-plans before it writes: applying is what it takes beyond the dry run.
    return { lines, items, planS: dry.s, applyS: Math.max(0, full.s - dry.s) };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const rows: Row[] = [];
for (const n of SIZES) rows.push(CLI ? viaCli(resolve(CLI), n) : await inProcess(n));
if (JSON_OUT) process.stdout.write(`${JSON.stringify({ cli: CLI ?? null, rows }, null, 2)}\n`);
else {
  const how = CLI
    ? `node ${CLI} extract (plan: --dry-run process; apply: a full run's extra time)`
    : "in process (planExtraction, applyPlan)";
  process.stdout.write(`extraction at scale, ${how}\n`);
  process.stdout.write(
    "| journal lines | items | plan s | apply s | total s | items/s |\n|---:|---:|---:|---:|---:|---:|\n",
  );
  for (const r of rows) {
    const total = r.planS + r.applyS;
    process.stdout.write(
      `| ${r.lines} | ${r.items} | ${r.planS.toFixed(2)} | ${r.applyS.toFixed(2)} | ${total.toFixed(2)} | ${Math.round(r.items / total)} |\n`,
    );
  }
}
