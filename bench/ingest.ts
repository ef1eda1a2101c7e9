/**
 * Ingest throughput (docs/agents.md, "Where it goes"): `npm run bench:ingest [-- --turns 2000 --mb 20]`.
 *
 * Generates a Claude Code transcript (bench/lib/transcript.ts: one tool result of `--mb` MB and
 * `--turns` turns), then parses it and writes its session into a fresh journal in this process
 * (`ingestTranscript` on `NodeVault`, a temporary folder), and runs it once more (nothing new).
 * Then times the `Stop` hook of the built CLI (`dist/cli.js hook claude-code`, one process, wall
 * clock, offline) on the 5 MB transcript in a fresh vault, first and again (nothing new).
 * Prints MB/s and writes bench/results/ingest.md.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { ingestTranscript } from "../src/core/ingest/ingest";
import { MemoryLayout } from "../src/core/layout";
import { defaultSettings } from "../src/core/settings";
import { NodeVault } from "../src/node/node-vault";
import { round } from "./lib/stats";
import { claudeTranscript } from "./lib/transcript";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};

async function run(turns: number, mb: number): Promise<string> {
  const text = claudeTranscript(turns, mb * 2 ** 20, `bench-${turns}`);
  const bytes = Buffer.byteLength(text) / 2 ** 20;
  const scratch = mkdtempSync(join(tmpdir(), "am-bench-ingest-"));
  try {
    mkdirSync(join(scratch, "Memory/Agents/a/Journal"), { recursive: true });
    const options = {
      vault: new NodeVault(scratch),
      layout: new MemoryLayout(defaultSettings()),
      agent: "a",
      now: new Date(),
    };
    const t0 = performance.now();
    await ingestTranscript(text, "bench.jsonl", "claude-code", options);
    const first = performance.now() - t0;
    const t1 = performance.now();
    await ingestTranscript(text, "bench.jsonl", "claude-code", options);
    const again = performance.now() - t1;
    return `| ${round(bytes)} MB | ${turns} | ${round(first)} ms | ${round(bytes / (first / 1000))} MB/s | ${round(again)} ms |`;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Wall-clock ms of two `Stop` hook runs on a 5 MB transcript, through the built CLI. */
function stopHook(): [number, number] {
  const vault = mkdtempSync(join(tmpdir(), "am-bench-stop-"));
  const file = `${vault}.jsonl`;
  const cli = join(ROOT, "dist", "cli.js");
  const env = { ...process.env, AGENT_MEMORY_LLM_BASE_URL: "", AGENT_MEMORY_LLM_API_KEY: "" };
  try {
    writeFileSync(file, claudeTranscript(40, 5 * 2 ** 20, "bench-stop"));
    spawnSync(process.execPath, [cli, "init", vault, "--agent", "a"], { env, stdio: "ignore" });
    const input = JSON.stringify({ hook_event_name: "Stop", transcript_path: file });
    const once = () => {
      const t0 = performance.now();
      const r = spawnSync(
        process.execPath,
        [cli, "hook", "claude-code", "--vault", vault, "--agent", "a"],
        {
          input,
          env,
          encoding: "utf8",
        },
      );
      if (r.status !== 0 || r.stderr) throw new Error(`Stop hook failed: ${r.stderr}`);
      return performance.now() - t0;
    };
    return [once(), once()];
  } finally {
    rmSync(vault, { recursive: true, force: true });
    rmSync(file, { force: true });
  }
}

async function main(): Promise<void> {
  const turns = arg("turns", 2000);
  const mb = arg("mb", 20);
  const rows = [await run(40, 5), await run(turns, mb)];
  const stop = stopHook();
  const t0 = performance.now();
  spawnSync(process.execPath, [join(ROOT, "dist", "cli.js"), "--help"], { stdio: "ignore" });
  const help = performance.now() - t0;
  const md = [
    "# Ingest throughput",
    "",
    `\`npm run bench:ingest\` on ${cpus().length} cores, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}, Node ${process.version}: a generated Claude Code transcript (one tool result`,
    "of most of its size, the rest in turns) parsed and written into a new journal in process",
    "(`ingestTranscript` on `NodeVault`), then again (nothing new).",
    "",
    "| transcript | turns | first run | throughput | again |",
    "|---|---|---|---|---|",
    ...rows,
    "",
    `\`Stop\` hook on the 5 MB transcript (\`dist/cli.js\`, one process, offline): ${round(stop[0])} ms the first time, ${round(stop[1])} ms again (nothing new). \`node dist/cli.js --help\` alone takes ${round(help)} ms here: most of it is loading the CLI.`,
    "",
  ].join("\n");
  mkdirSync(join(ROOT, "bench", "results"), { recursive: true });
  writeFileSync(join(ROOT, "bench", "results", "ingest.md"), md);
  process.stdout.write(`${md}\n`);
}

void main();
