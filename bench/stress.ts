// Stress trials of the write path at full size (docs/write-safety.md): prints trials,
// losses and duplicates for each kind of trial, and writes bench/results/stress.md and .json.
// The same trials run small in `npm test` (test/node/write-stress.process.test.ts).
// Usage: npm run stress [-- --writers 8 --trials 100]  (builds dist/cli.js first)
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import {
  appendTrial,
  concurrentExtractTrial,
  inPlaceWriterTrial,
  killTrial,
  type TrialResult,
} from "../test/helpers/stress-harness";

const root = fileURLToPath(new URL("..", import.meta.url));
const num = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const WRITERS = num("writers", 8);
const say = (line: string): void => void process.stdout.write(`${line}\n`);
const TRIALS = num("trials", 100);

interface Row {
  trial: string;
  trials: number;
  lost: number;
  duplicates: number;
  duplicateIds: number;
  leftovers: number;
  failedRuns: number;
  other: string;
  seconds: number;
}

function total(results: TrialResult[], key: "lost" | "duplicates" | "duplicateIds"): number {
  return results.reduce((n, r) => n + r[key], 0);
}

async function measure(
  label: string,
  trials: number,
  one: (i: number) => Promise<TrialResult>,
  other: (rs: TrialResult[]) => string = () => "",
): Promise<Row> {
  const t0 = performance.now();
  const results: TrialResult[] = [];
  for (let i = 0; i < trials; i++) {
    results.push(await one(i));
    if ((i + 1) % 10 === 0 || i + 1 === trials)
      process.stderr.write(`  ${label}: ${i + 1}/${trials}\r`);
  }
  process.stderr.write("\n");
  const row: Row = {
    trial: label,
    trials,
    lost: total(results, "lost"),
    duplicates: total(results, "duplicates"),
    duplicateIds: total(results, "duplicateIds"),
    leftovers: results.reduce((n, r) => n + r.leftovers.length, 0),
    failedRuns: results.reduce((n, r) => n + r.failures.length, 0),
    other: other(results),
    seconds: Math.round((performance.now() - t0) / 100) / 10,
  };
  say(JSON.stringify(row));
  return row;
}

execFileSync(process.execPath, [join(root, "esbuild.config.mjs"), "cli"], {
  cwd: root,
  stdio: "pipe",
});
// The trials run a private copy of the build, so a rebuild of dist/ meanwhile cannot change them.
const privateDist = mkdtempSync(join(os.tmpdir(), "am-stress-cli-"));
cpSync(join(root, "dist"), privateDist, { recursive: true });
process.env.AGENT_MEMORY_STRESS_CLI = join(privateDist, "cli.js");
process.on("exit", () => rmSync(privateDist, { recursive: true, force: true }));
say(
  `stress: ${WRITERS} writers, ${TRIALS} trials, on ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "?"}), Node ${process.version}`,
);
const rows: Row[] = [];
const silent = (rs: TrialResult[]): string => {
  const failures = rs.flatMap((r) => r.failures);
  const kinds = [...new Set(failures.map((f) => f.replace(/\d+/g, "N").slice(0, 160)))];
  return `silently lost ${rs.reduce((n, r) => n + (r.silentlyLost ?? 0), 0)}${kinds.length ? `; failures said: ${kinds.join(" | ")}` : ""}`;
};
rows.push(
  await measure(
    `${WRITERS} extract processes, ${WRITERS} journals × 30 tasks, one tracker`,
    TRIALS,
    () => concurrentExtractTrial(WRITERS, 30, false),
    silent,
  ),
);
rows.push(
  await measure(
    `${WRITERS} extract processes on the same journal (30 tasks)`,
    Math.max(1, Math.round(TRIALS / 5)),
    () => concurrentExtractTrial(WRITERS, 30, true),
    silent,
  ),
);
rows.push(
  await measure(
    `${WRITERS} processes × 50 appends to one note (NodeVault)`,
    Math.max(1, Math.round(TRIALS / 5)),
    () => appendTrial(WRITERS, 50),
    silent,
  ),
);
for (const [name, pause] of [
  ["every 0-8 ms", [0, 8]],
  ["every 20-60 ms", [20, 60]],
] as const) {
  rows.push(
    await measure(
      `in-place writer saving ${name} during 3 extracts (980 hand-written lines)`,
      Math.max(1, Math.round(TRIALS / 10)),
      (i) => inPlaceWriterTrial(3, 20, i + 1, [pause[0], pause[1]]),
      (rs) => {
        const r = rs as Awaited<ReturnType<typeof inPlaceWriterTrial>>[];
        return `hand-written lines lost ${r.reduce((n, x) => n + x.handLost, 0)} of ${r.reduce((n, x) => n + 980 + x.saves, 0)}; saves ${r.reduce((n, x) => n + x.saves, 0)}`;
      },
    ),
  );
}
{
  const trials = Math.max(1, Math.round(TRIALS / 5));
  const t0 = performance.now();
  let torn = 0;
  let differs = 0;
  let left = 0;
  let killed = 0;
  for (let i = 0; i < trials; i++) {
    const r = await killTrial(3, 20, 1000 + i, 700);
    torn += r.torn.length;
    differs += r.differs.length;
    left += r.leftovers.length;
    if (r.killed) killed++;
  }
  const row: Row = {
    trial: "SIGKILL at a random moment (0-700 ms) of 3 extracts, then a re-run",
    trials,
    lost: differs,
    duplicates: 0,
    duplicateIds: 0,
    leftovers: left,
    failedRuns: 0,
    other: `killed ${killed}; torn notes ${torn}; notes differing from an uninterrupted run ${differs}`,
    seconds: Math.round((performance.now() - t0) / 100) / 10,
  };
  say(JSON.stringify(row));
  rows.push(row);
}

const machine = `${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.cpus()[0]?.model ?? "?"}, Node ${process.version}`;
const md = [
  "# Write-path stress figures",
  "",
  `\`npm run stress -- --writers ${WRITERS} --trials ${TRIALS}\` on ${machine}, ${new Date().toISOString().slice(0, 10)}.`,
  "A failed run is one that said it could not write (exit 1, items rejected, journal not marked), never a silent loss.",
  "",
  "| trial | trials | lost | duplicates | duplicate ids | files left | failed runs | other | seconds |",
  "|---|---|---|---|---|---|---|---|---|",
  ...rows.map(
    (r) =>
      `| ${r.trial} | ${r.trials} | ${r.lost} | ${r.duplicates} | ${r.duplicateIds} | ${r.leftovers} | ${r.failedRuns} | ${r.other} | ${r.seconds} |`,
  ),
  "",
].join("\n");
mkdirSync(join(root, "bench", "results"), { recursive: true });
writeFileSync(join(root, "bench", "results", "stress.md"), md);
writeFileSync(
  join(root, "bench", "results", "stress.json"),
  `${JSON.stringify({ machine, writers: WRITERS, trials: TRIALS, rows }, null, 2)}\n`,
);
say(md);
