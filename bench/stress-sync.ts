// `npm run stress:sync` (docs/sync.md, "Stress"): N clones × R rounds of offline work around a
// bare repository, synced with `git pull` (merge, then rebase) and push; prints pulls that
// stopped, id collisions, items lost or doubled, wrong states, lost edits, health errors, conflict
// markers and whether the clones end identical, and writes bench/results/stress-sync.md and .json
// (with --write). The same run is small in `npm test` (test/cli/sync-stress.process.test.ts).
// Usage: npm run stress:sync [-- --clones 3 --rounds 20 --mode merge|rebase|both --write]
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as os from "node:os";
import { fileURLToPath } from "node:url";
import { runSyncStress, type PullMode, type SyncStressResult } from "../test/helpers/sync-stress";

const root = fileURLToPath(new URL("..", import.meta.url));
const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const CLONES = Number(arg("clones") ?? 3);
const ROUNDS = Number(arg("rounds") ?? 20);
const MODE = arg("mode") ?? "both";
const modes: PullMode[] = MODE === "both" ? ["merge", "rebase"] : [MODE as PullMode];
const say = (line: string): void => void process.stdout.write(`${line}\n`);

execFileSync(process.execPath, ["esbuild.config.mjs", "cli"], { cwd: root, stdio: "inherit" });
// A copy of the build, so that a rebuild meanwhile (a test run) does not change the CLI mid-run.
const copy = mkdtempSync(join(os.tmpdir(), "am-stress-cli-"));
cpSync(join(root, "dist"), copy, { recursive: true });
process.on("exit", () => rmSync(copy, { recursive: true, force: true }));

const results: SyncStressResult[] = [];
for (const mode of modes) {
  const r = await runSyncStress({
    clones: CLONES,
    rounds: ROUNDS,
    mode,
    seed: 1,
    keep: process.argv.includes("--keep"),
  });
  results.push(r);
  say(
    `${mode}: ${r.clones} clones × ${r.rounds} rounds, ${r.made} items made, ${r.ticks} ticks, ${r.edits} edits, ${r.pulls} pulls in ${r.seconds.toFixed(1)} s`,
  );
  say(
    `  pulls stopped ${r.pullsStopped} · id collisions ${r.idCollisions} · items lost ${r.itemsLost} · items doubled ${r.itemsDoubled} · wrong states ${r.wrongStates} · edits lost ${r.editsLost} · health errors ${r.healthErrors} · conflict markers ${r.conflictMarkers} · clones identical ${r.identical ? "yes" : "no"}`,
  );
  for (const d of r.details) say(`  - ${d}`);
  if (process.argv.includes("--keep")) say(`  kept ${r.root}`);
}

if (process.argv.includes("--write")) {
  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  const lines = [
    "# Sync stress figures",
    "",
    `\`npm run stress:sync -- --clones ${CLONES} --rounds ${ROUNDS}\` on ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${cpu}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}.`,
    "Each round every clone extracts new journal lines, ticks and edits tracker lines by hand, adds a line by hand, adds and closes an item through the core (as the MCP tools do) and changes one fact (a supersession); then each clone pulls and pushes in turn.",
    "",
    "| pull | clones × rounds | items made | ticks | edits | pulls | stopped | id collisions | lost | doubled | wrong states | edits lost | health errors | conflict markers | identical | seconds |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...results.map(
      (r) =>
        `| ${r.mode} | ${r.clones} × ${r.rounds} | ${r.made} | ${r.ticks} | ${r.edits} | ${r.pulls} | ${r.pullsStopped} | ${r.idCollisions} | ${r.itemsLost} | ${r.itemsDoubled} | ${r.wrongStates} | ${r.editsLost} | ${r.healthErrors} | ${r.conflictMarkers} | ${r.identical ? "yes" : "no"} | ${r.seconds.toFixed(1)} |`,
    ),
    "",
  ];
  writeFileSync(new URL("results/stress-sync.md", import.meta.url), lines.join("\n"));
  writeFileSync(
    new URL("results/stress-sync.json", import.meta.url),
    `${JSON.stringify(
      results.map(({ root: _root, ...r }) => r),
      null,
      2,
    )}\n`,
  );
  say("wrote bench/results/stress-sync.md and .json");
}
