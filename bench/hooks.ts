/**
 * Hook benchmark (docs/agents.md, "The automatic loop"): `npm run bench:hooks [-- --notes 10000]`.
 *
 * On a synthetic vault (bench/lib/synthetic-vault.ts, 10,000 notes by default, under the system
 * temp folder, index saved first), each hook is run as Claude Code runs it: the built
 * `dist/cli.js hook claude-code --vault V --agent agent-01` with the event JSON on stdin, one
 * process per run, wall clock:
 * - `UserPromptSubmit` p50/p95 over 20 prompts and `SessionStart` p50/p95 over 10 runs, with no
 *   server (`AGENT_MEMORY_SERVER=off`) and with `agent-memory serve` running (timed once it says
 *   its session briefs are ready), and through the plugin's shell hook (hooks/claude-code-hook.sh,
 *   curl to the server's hook socket) with the server running, and through the shell hook in a
 *   session that began with no server (its first hook starts one, docs/agents.md, "A server
 *   started for you");
 * - `Stop` on a generated 5 MB Claude Code transcript (a 5 MB tool result and 40 turns), first run
 *   (journal written, offline extraction) and a second run (nothing new);
 * - ingest throughput: parsing plus writing a 20 MB transcript in this process (MB/s).
 * Writes bench/results/hooks.md.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { ingestTranscript } from "../src/core/ingest/ingest";
import { MemoryLayout } from "../src/core/layout";
import { defaultSettings } from "../src/core/settings";
import { NodeVault } from "../src/node/node-vault";
import { benchQueries, generateVault } from "./lib/synthetic-vault";
import { percentile, round } from "./lib/stats";
import { claudeTranscript as transcript } from "./lib/transcript";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CLI = join(ROOT, "dist", "cli.js");
const AGENT = "agent-01";
const argNotes = process.argv.indexOf("--notes");
const NOTES = argNotes > 0 ? Number(process.argv[argNotes + 1]) : 10_000;

const offline = {
  ...process.env,
  AGENT_MEMORY_LLM_BASE_URL: "",
  AGENT_MEMORY_LLM_API_KEY: "",
  OPENAI_BASE_URL: "",
  OPENAI_API_KEY: "",
};

const SHELL_HOOK = join(ROOT, "hooks", "claude-code-hook.sh");

/**
 * Wall clock (ms) of one run of the CLI with `args`, or, with `shell`, of the plugin's shell hook
 * (hooks/claude-code-hook.sh: vault and agent from the environment, as the plugin runs it).
 */
function timed(args: string[], input: string, env: NodeJS.ProcessEnv, shell = false): number {
  const t0 = performance.now();
  const r = shell
    ? spawnSync("/bin/sh", [SHELL_HOOK], { input, env, encoding: "utf8" })
    : spawnSync(process.execPath, [CLI, ...args], { input, env, encoding: "utf8" });
  const ms = performance.now() - t0;
  if (r.status !== 0 || r.stderr) throw new Error(`hook failed (${r.status}): ${r.stderr}`);
  return ms;
}

/** A file's text, or "" while it does not exist. */
function readOr(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), "am-bench-hooks-"));
  try {
    process.stdout.write(`generating ${NOTES} notes in ${root}\n`);
    const v = generateVault(root, NOTES);
    spawnSync(process.execPath, [CLI, "index", root], { env: offline, stdio: "ignore" });
    const hook = ["hook", "claude-code", "--vault", root, "--agent", AGENT];
    const prompts = benchQueries(v, 20).map(
      (q) => `How do we handle ${q.query.replace(/[^\p{L}\p{N} ]/gu, " ")}?`,
    );
    const start = JSON.stringify({ hook_event_name: "SessionStart", source: "startup" });
    const run = (env: NodeJS.ProcessEnv, shell = false) => ({
      prompt: prompts.map((p) =>
        timed(hook, JSON.stringify({ hook_event_name: "UserPromptSubmit", prompt: p }), env, shell),
      ),
      start: Array.from({ length: 10 }, () => timed(hook, start, env, shell)),
    });
    const cold = run({ ...offline, AGENT_MEMORY_SERVER: "off" });
    const server = spawn(process.execPath, [CLI, "serve", root], {
      env: offline,
      stdio: ["ignore", "ignore", "pipe"],
    });
    await new Promise<void>((ok, fail) => {
      let log = "";
      server.stderr.on("data", (c: Buffer) => {
        log += c.toString();
        // Timed once the server has computed the session briefs it keeps (docs/decisions.md,
        // "A server keeps the SessionStart brief"): the figures are those of a server at rest.
        if (/session briefs of \d+ agents? ready/.test(log)) ok();
      });
      server.once("exit", () => fail(new Error(`serve exited: ${log}`)));
    });
    const warm = run(offline);
    const shellEnv = { ...offline, AGENT_MEMORY_VAULT: root, AGENT_MEMORY_AGENT: AGENT };
    const viaShell = run(shellEnv, true);
    const serverGone = new Promise((ok) => server.once("exit", ok));
    server.kill("SIGTERM");
    await serverGone;

    // A session with no server running: its first hook answers alone and starts one (docs/agents.md,
    // "A server started for you"); the next hooks, once it has its briefs ready, go through it.
    // With no server the shell hook runs `agent-memory` from PATH, as an installed plugin does.
    const bin = mkdtempSync(join(tmpdir(), "am-bench-bin-"));
    symlinkSync(CLI, join(bin, "agent-memory"));
    const autoEnv = {
      ...shellEnv,
      AGENT_MEMORY_AUTOSERVE: "",
      PATH: `${bin}:${process.env.PATH ?? ""}`,
    };
    const sessionFirst = timed(hook, start, autoEnv, true);
    const serveLog = join(root, ".agent-memory", "serve.log");
    const deadline = Date.now() + 120_000;
    while (!/session briefs of \d+ agents? ready/.test(readOr(serveLog))) {
      if (Date.now() > deadline)
        throw new Error(`the started server did not get ready: ${readOr(serveLog)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const sessionNext = run(autoEnv, true);
    const startedPid = Number(readOr(join(root, ".agent-memory", "serve.started")).trim());
    if (startedPid > 0) process.kill(startedPid, "SIGTERM");
    rmSync(bin, { recursive: true, force: true });

    const big = join(root, "..", `${root.split("/").pop()}-5mb.jsonl`);
    writeFileSync(big, transcript(40, 5 * 2 ** 20, "bench-5mb"));
    const stop = JSON.stringify({ hook_event_name: "Stop", transcript_path: big });
    const stopFirst = timed(hook, stop, offline);
    const stopAgain = timed(hook, stop, offline);
    rmSync(big, { force: true });

    const text = transcript(2000, 20 * 2 ** 20, "bench-20mb");
    const scratch = mkdtempSync(join(tmpdir(), "am-bench-ingest-"));
    mkdirSync(join(scratch, "Memory/Agents/a/Journal"), { recursive: true });
    const t0 = performance.now();
    await ingestTranscript(text, "bench.jsonl", "claude-code", {
      vault: new NodeVault(scratch),
      layout: new MemoryLayout(defaultSettings()),
      agent: "a",
      now: new Date(),
    });
    const ingestMs = performance.now() - t0;
    rmSync(scratch, { recursive: true, force: true });
    const mb = Buffer.byteLength(text) / 2 ** 20;

    const row = (name: string, xs: number[]) =>
      `| ${name} | ${round(percentile(xs, 50))} | ${round(percentile(xs, 95))} |`;
    const md = [
      "# Hooks",
      "",
      `\`npm run bench:hooks\` on ${NOTES} synthetic notes, ${cpus().length} cores, load ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}; one process per hook run, wall clock (ms).`,
      "",
      "| hook | p50 ms | p95 ms |",
      "|---|---|---|",
      row("UserPromptSubmit, no server", cold.prompt),
      row("UserPromptSubmit, serve running", warm.prompt),
      row("UserPromptSubmit, serve running, the plugin's shell hook", viaShell.prompt),
      row("SessionStart, no server", cold.start),
      row("SessionStart, serve running", warm.start),
      row("SessionStart, serve running, the plugin's shell hook", viaShell.start),
      row(
        "UserPromptSubmit, the server a first hook started, the plugin's shell hook",
        sessionNext.prompt,
      ),
      row(
        "SessionStart, the server a first hook started, the plugin's shell hook",
        sessionNext.start,
      ),
      "",
      `With no server running, a session's first hook (SessionStart through the plugin's shell hook, which then starts \`serve --idle-exit\`): ${round(sessionFirst)} ms; the rows "the server a first hook started" are the session's next hooks.`,
      "",
      `Stop on a 5 MB transcript (40 turns): ${round(stopFirst)} ms the first time (journal written, offline extraction), ${round(stopAgain)} ms again (nothing new).`,
      "",
      `Ingest (parse and write, in process): ${round(mb)} MB in ${round(ingestMs)} ms, ${round(mb / (ingestMs / 1000))} MB/s.`,
      "",
    ].join("\n");
    mkdirSync(join(ROOT, "bench", "results"), { recursive: true });
    writeFileSync(join(ROOT, "bench", "results", "hooks.md"), md);
    process.stdout.write(`${md}\n`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

void main();
