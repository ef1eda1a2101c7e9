// `npm run bench:merge` (docs/sync.md, "The merge driver"): the three-way merge of a 2,000-item
// tracker note, as the merge driver runs it (`mergeNote`, in process) and as git runs it (the
// built CLI's `git merge-driver` on three files, node's start included). Both sides change the
// note: ticks, text edits, new items, a progress line; prints the median and p95 in ms and writes
// bench/results/merge-driver.md with --write. Target: ≤ 50 ms for the merge itself.
// Usage: npm run bench:merge [-- --items 2000 --runs 30 --write]
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { mergeNote } from "../src/core/sync/merge";
import { percentile, round } from "./lib/stats";

const root = fileURLToPath(new URL("..", import.meta.url));
const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const ITEMS = arg("items", 2000);
const RUNS = arg("runs", 30);
const say = (line: string): void => void process.stdout.write(`${line}\n`);

const id = (n: number): string =>
  `t-${n
    .toString(32)
    .padStart(10, "a")
    .replace(/[ilou]/g, "z")}`;
const head =
  "---\nid: tracker-link-tasks\ntype: tracker\nkind: tasks\nagent: link\nstatus: active\ncreated_at: 2026-12-01\n---\n# Tasks\n\n";
const line = (n: number, done = false, text = `Task number ${n} for the weekly report`): string =>
  `- [${done ? "x" : " "}] ${text} [created:: 2026-11-01] ^${id(n)}`;
const note = (f: (n: number) => string, extra: string[] = []): string =>
  `${head}${Array.from({ length: ITEMS }, (_, n) => f(n)).join("\n")}\n${extra.join("\n")}${extra.length ? "\n" : ""}`;

const base = note((n) => line(n));
// Ours ticks every 10th item and adds 20; theirs edits every 7th text, adds progress to every
// 50th and adds 20 of its own: about 500 items changed, some on both sides.
const ours = note(
  (n) => (n % 10 === 0 ? line(n, true) : line(n)),
  Array.from({ length: 20 }, (_, k) => line(ITEMS + k)),
);
const theirs = note(
  (n) =>
    n % 7 === 0
      ? line(n, false, `Task number ${n} for the weekly report, signed`)
      : n % 50 === 0
        ? `${line(n)}\n    - 2026-12-01: half done`
        : line(n),
  Array.from({ length: 20 }, (_, k) => line(ITEMS + 100 + k)),
);

// Wall time and this process's CPU time (user + system): on a machine shared with other work
// the wall time waits for the CPU, the CPU time does not.
const times: number[] = [];
const cpuTimes: number[] = [];
let merged = "";
for (let r = 0; r < RUNS + 3; r++) {
  const t = performance.now();
  const c = process.cpuUsage();
  merged = mergeNote(base, ours, theirs, "tracker").text;
  const used = process.cpuUsage(c);
  if (r >= 3) {
    times.push(performance.now() - t);
    cpuTimes.push((used.user + used.system) / 1000);
  }
}
const items = merged.split("\n").filter((l) => /^- \[/.test(l)).length;
say(
  `mergeNote, ${ITEMS}-item tracker (${items} items after): median ${round(percentile(times, 50))} ms, p95 ${round(percentile(times, 95))} ms over ${RUNS} runs; CPU time median ${round(percentile(cpuTimes, 50))} ms`,
);

execFileSync(process.execPath, ["esbuild.config.mjs", "cli"], { cwd: root, stdio: "ignore" });
const dir = mkdtempSync(join(os.tmpdir(), "am-bench-merge-"));
const procTimes: number[] = [];
try {
  const files = { O: join(dir, "O"), A: join(dir, "A"), B: join(dir, "B") };
  for (let r = 0; r < Math.min(RUNS, 10); r++) {
    writeFileSync(files.O, base);
    writeFileSync(files.A, ours);
    writeFileSync(files.B, theirs);
    const t = performance.now();
    execFileSync(
      process.execPath,
      [
        join(root, "dist", "cli.js"),
        "git",
        "merge-driver",
        files.O,
        files.A,
        files.B,
        "Memory/Agents/link/Trackers/Tasks.md",
      ],
      { cwd: dir, stdio: "ignore" },
    );
    procTimes.push(performance.now() - t);
    if (readFileSync(files.A, "utf8") !== merged)
      throw new Error("the driver's merge differs from mergeNote's");
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
say(
  `agent-memory git merge-driver (a process, node's start included): median ${round(percentile(procTimes, 50))} ms, p95 ${round(percentile(procTimes, 95))} ms over ${procTimes.length} runs`,
);

if (process.argv.includes("--write")) {
  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  writeFileSync(
    new URL("results/merge-driver.md", import.meta.url),
    [
      "# Merge driver figures",
      "",
      `\`npm run bench:merge -- --items ${ITEMS} --runs ${RUNS}\` on ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${cpu}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}, on a machine shared with other work.`,
      `A ${ITEMS}-item tracker; ours ticks every 10th item and adds 20, theirs edits every 7th text, adds a progress line to every 50th and adds 20. Target: ≤ 50 ms for the merge.`,
      "",
      "| what | median ms | p95 ms | CPU median ms | runs |",
      "|---|---|---|---|---|",
      `| \`mergeNote\` (the merge itself) | ${round(percentile(times, 50))} | ${round(percentile(times, 95))} | ${round(percentile(cpuTimes, 50))} | ${times.length} |`,
      `| \`agent-memory git merge-driver\` as git runs it (a node process) | ${round(percentile(procTimes, 50))} | ${round(percentile(procTimes, 95))} | – | ${procTimes.length} |`,
      "",
    ].join("\n"),
  );
  say("wrote bench/results/merge-driver.md");
}
