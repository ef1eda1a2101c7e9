// Compaction and staleness figures (docs/compaction.md; figures, not tests). On a copy of the
// sample vault (every journal extracted with the offline extractor first) and on a synthetic vault
// (bench/lib/synthetic-vault.ts): digests written by `compact` for every agent, the time of the
// first run and of a re-run (which must write nothing), and the notes `may-be-stale` flags.
// Usage: npx tsx bench/compaction.ts [--notes 10000]
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { NodeVault } from "../src/node/node-vault";
import { compactJournals } from "../src/core/compaction";
import { applyPlan, planExtraction } from "../src/core/extraction/pipeline";
import { OfflineExtractor } from "../src/core/extraction/offline";
import { runHealthCheck } from "../src/core/health";
import { knownAgents } from "../src/core/init";
import { MemoryLayout } from "../src/core/layout";
import { defaultSettings } from "../src/core/settings";
import { generateVault } from "./lib/synthetic-vault";

const arg = process.argv.indexOf("--notes");
const NOTES = arg > 0 ? Number(process.argv[arg + 1]) : 10_000;
const settings = defaultSettings();
const layout = new MemoryLayout(settings);
const say = (line: string): void => void process.stdout.write(`${line}\n`);

async function measure(
  label: string,
  root: string,
  before: string,
  today: string,
  extract: boolean,
): Promise<void> {
  const vault = new NodeVault(root);
  const agents = await knownAgents(vault, layout);
  let t = performance.now();
  if (extract) {
    for (const agent of agents) {
      for (const f of await vault.list(layout.journalFolder(agent))) {
        const plan = await planExtraction({
          vault,
          settings,
          layout,
          journalPath: f.path,
          extractor: new OfflineExtractor(),
        });
        await applyPlan(vault, layout, plan);
      }
    }
    say(`${label}: extracted every journal in ${Math.round(performance.now() - t)} ms`);
  }
  for (const pass of ["first run", "re-run"]) {
    t = performance.now();
    let digests = 0;
    let writes = 0;
    let journals = 0;
    let items = 0;
    let idle = 0;
    for (const agent of agents) {
      const r = await compactJournals({ vault, layout, settings, agent, before });
      digests += r.digests.length;
      writes += r.writes.length;
      journals += r.journals - r.laterJournals;
      for (const d of r.digests) {
        items += Object.values(d.items).reduce((a, b) => a + b, 0);
        idle += d.notExtracted;
      }
    }
    say(
      `${label}: compact ${pass} (${agents.length} agents, before ${before}): ${digests} digests of ${journals} journals, ${writes} written, ${items} items linked, ${idle} blocks with nothing extracted, ${Math.round(performance.now() - t)} ms`,
    );
  }
  t = performance.now();
  const report = await runHealthCheck(vault, layout, settings, { today });
  const stale = report.warnings.filter((w) => w.rule === "may-be-stale");
  const old = report.warnings.filter((w) => w.rule === "stale-knowledge");
  say(
    `${label}: health (${report.checked} notes) ${Math.round(performance.now() - t)} ms: ${stale.length} may-be-stale, ${old.length} stale-knowledge`,
  );
}

const sample = mkdtempSync(join(tmpdir(), "am-compact-sample-"));
cpSync("examples/vault", sample, { recursive: true });
await measure("sample vault", sample, "2026-12-01", "2026-12-01", true);
rmSync(sample, { recursive: true, force: true });

const synth = mkdtempSync(join(tmpdir(), "am-compact-synth-"));
const g0 = performance.now();
const v = generateVault(synth, NOTES);
say(
  `synthetic vault: ${v.paths.length} notes, ${(v.bytes / 1e6).toFixed(1)} MB, generated in ${Math.round(performance.now() - g0)} ms`,
);
await measure(`synthetic ${NOTES}`, synth, "2026-01-01", "2026-01-01", false);
rmSync(synth, { recursive: true, force: true });
