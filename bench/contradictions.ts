// Facts that change (docs/contradictions.md; a figure, not a test). Two runs:
// 1. the sample vault (examples/vault copied to a temporary folder): every journal extracted in
//    name order with the offline extractor, then the health check;
// 2. a synthetic vault (bench/lib/synthetic-vault.ts) whose journals are given statements that
//    change over time — a limit with another number, a weekday moved, a decision negated — in
//    English and Chinese, plus restatements (duplicates) and refunds with swapped numbers (neither
//    a duplicate nor a contradiction). Each statement's expected outcome is known, so the run
//    prints how many supersessions were expected, planned and written.
// Usage: npm run bench:contradictions [-- --notes 2000]; KEEP=1 keeps the vaults and prints their paths.
import {
  appendFileSync,
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { NodeVault } from "../src/node/node-vault";
import { applyPlan, planExtraction } from "../src/core/extraction/pipeline";
import { OfflineExtractor } from "../src/core/extraction/offline";
import { runHealthCheck } from "../src/core/health";
import { MemoryLayout } from "../src/core/layout";
import { defaultSettings } from "../src/core/settings";
import { generateVault, rng } from "./lib/synthetic-vault";

const say = (line: string): void => void process.stdout.write(`${line}\n`);
const arg = process.argv.indexOf("--notes");
const NOTES = arg > 0 ? Number(process.argv[arg + 1]) : 2_000;
const settings = defaultSettings();
const layout = new MemoryLayout(settings);
const now = () => new Date("2026-12-01T10:00:00Z");

function journalsOf(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const abs = join(dir, name);
      if (statSync(abs).isDirectory()) walk(abs);
      else if (name.endsWith(".md") && /\/Journal\//.test(abs))
        out.push(relative(root, abs).split("\\").join("/"));
    }
  };
  walk(join(root, "Memory", "Agents"));
  return out.sort();
}

interface Figures {
  journals: number;
  items: number;
  planned: {
    supersede: number;
    polarity: number;
    value: number;
    reworded: number;
    addSource: number;
  };
  written: { supersededBy: number; supersedes: number };
  unresolved: number;
  extractMs: number;
  healthMs: number;
}

/** What a seeded statement should do when extracted, by journal. */
type Expectations = Map<string, { text: string; expect: "add" | "add-source" | "supersede" }[]>;

async function run(
  root: string,
  expectations?: Expectations,
): Promise<Figures & { mismatches: string[] }> {
  const vault = new NodeVault(root);
  const f: Figures = {
    journals: 0,
    items: 0,
    planned: { supersede: 0, polarity: 0, value: 0, reworded: 0, addSource: 0 },
    written: { supersededBy: 0, supersedes: 0 },
    unresolved: 0,
    extractMs: 0,
    healthMs: 0,
  };
  const mismatches: string[] = [];
  const t0 = performance.now();
  for (const journal of journalsOf(root)) {
    const plan = await planExtraction({
      vault,
      settings,
      layout,
      journalPath: journal,
      extractor: new OfflineExtractor(),
      now,
    });
    await applyPlan(vault, layout, plan, now);
    f.journals++;
    f.items += plan.items.length;
    for (const e of expectations?.get(journal) ?? []) {
      const got = plan.items.find((p) =>
        p.tracker !== undefined || p.destination.includes("/Knowledge/")
          ? p.item.evidence.includes(e.text) &&
            (p.tracker !== undefined || e.text.startsWith("Learned"))
          : false,
      );
      if (got?.action !== e.expect)
        mismatches.push(
          `${journal}: ${e.text}: expected ${e.expect}, got ${got?.action ?? "nothing"}${got?.existingId ? ` ${got.existingId}` : ""}`,
        );
    }
    for (const p of plan.items) {
      if (p.action === "add-source") f.planned.addSource++;
      if (p.action !== "supersede" || !p.supersedes) continue;
      f.planned.supersede++;
      f.planned[p.supersedes.reason]++;
    }
  }
  f.extractMs = performance.now() - t0;
  const t1 = performance.now();
  const report = await runHealthCheck(vault, layout, settings, { today: "2026-12-01" });
  f.healthMs = performance.now() - t1;
  f.unresolved = report.warnings.filter((w) => w.rule === "unresolved-contradiction").length;
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const abs = join(dir, name);
      if (statSync(abs).isDirectory()) walk(abs);
      else if (name.endsWith(".md")) {
        const text = readFileSync(abs, "utf8");
        f.written.supersededBy += text.match(/\[superseded_by:: /g)?.length ?? 0;
        f.written.supersedes += text.match(/\[supersedes:: /g)?.length ?? 0;
      }
    }
  };
  walk(join(root, "Memory"));
  return { ...f, mismatches };
}

/** Statements whose value changes: `say(subject, value)` for a value index; `values` of them. */
const SUBJECTS: { say: (w: string, v: number) => string; values: number }[] = [
  {
    say: (w, v) => `Decision: the ${w} API rate limit is ${[100, 200, 500][v]} per second`,
    values: 3,
  },
  {
    say: (w, v) =>
      `Decision: we deploy the ${w} service on ${["Mondays", "Thursdays", "Fridays"][v]}`,
    values: 3,
  },
  {
    say: (w, v) => `Decision: we will ${v === 0 ? "" : "not "}ship the ${w} release on Fridays`,
    values: 2,
  },
  {
    say: (w, v) => `Learned: the ${w} cache holds ${[32, 64][v]} GB [topic:: ${w} cache]`,
    values: 2,
  },
  { say: (w, v) => `决定：${w} 接口的速率限制为每秒 ${[100, 300][v]} 次`, values: 2 },
  { say: (w, v) => `决定：我们周五${v === 0 ? "" : "不"}部署 ${w} 服务`, values: 2 },
];

/**
 * Appends the statements to the synthetic journals (in extraction order, per agent) and returns
 * how many supersessions a correct run makes: each statement whose value differs from the
 * current one of its agent and subject.
 */
function seedStatements(
  root: string,
  seed = 17,
): { statements: number; expected: number; refunds: number; expectations: Expectations } {
  const expectations: Expectations = new Map();
  const rand = rng(seed);
  const current = new Map<string, number>();
  let statements = 0;
  let expected = 0;
  let refunds = 0;
  const names = "alpha bravo cedar delta ember falcon garnet harbor indigo juniper".split(" ");
  for (const journal of journalsOf(root)) {
    if (rand() > 0.3) continue;
    const agent = journal.split("/")[2] ?? "";
    const lines: string[] = [];
    const said = new Set<string>();
    for (let k = 0; k < 2; k++) {
      const s = Math.floor(rand() * SUBJECTS.length);
      const subject = SUBJECTS[s];
      if (!subject) continue;
      const w = names[Math.floor(rand() * names.length)] ?? "alpha";
      const key = `${agent}/${s}/${w}`;
      // Two values of one subject in one journal are both added (docs/contradictions.md): not seeded.
      if (said.has(key)) continue;
      said.add(key);
      const before = current.get(key);
      // Half the time a restatement of the current value (a duplicate), else a random value.
      const v = before !== undefined && rand() < 0.5 ? before : Math.floor(rand() * subject.values);
      if (before !== undefined && before !== v) expected++;
      current.set(key, v);
      lines.push(subject.say(w, v));
      const list = expectations.get(journal) ?? [];
      list.push({
        text: subject.say(w, v).replace(/ \[topic:: .*\]$/, ""),
        expect: before === undefined ? "add" : before === v ? "add-source" : "supersede",
      });
      expectations.set(journal, list);
      statements++;
    }
    if (rand() < 0.2) {
      const a = 1000 + Math.floor(rand() * 9000);
      const b = 1000 + Math.floor(rand() * 9000);
      lines.push(
        `- [ ] refund customer ${a} for order ${b}`,
        `- [ ] refund customer ${b} for order ${a}`,
      );
      refunds += 2;
    }
    appendFileSync(join(root, journal), `\n\n${lines.join("\n\n")}\n`);
  }
  return { statements, expected, refunds, expectations };
}

function print(title: string, f: Figures): void {
  say(`\n${title}`);
  say(
    `  journals extracted: ${f.journals}, items planned: ${f.items} (${f.planned.addSource} duplicates, a source added)`,
  );
  say(
    `  supersessions planned: ${f.planned.supersede} (polarity ${f.planned.polarity}, value ${f.planned.value}, reworded ${f.planned.reworded})`,
  );
  say(
    `  written: ${f.written.supersededBy} entries marked superseded_by, ${f.written.supersedes} marked supersedes`,
  );
  say(`  unresolved contradictions (health check): ${f.unresolved}`);
  say(
    `  time: extraction ${(f.extractMs / 1000).toFixed(1)} s (${(f.extractMs / Math.max(1, f.journals)).toFixed(1)} ms a journal), health check ${(f.healthMs / 1000).toFixed(1)} s`,
  );
}

async function main(): Promise<void> {
  const sample = mkdtempSync(join(tmpdir(), "am-contra-sample-"));
  cpSync(fileURLToPath(new URL("../examples/vault", import.meta.url)), sample, { recursive: true });
  print("sample vault (examples/vault)", await run(sample));

  const synthetic = mkdtempSync(join(tmpdir(), "am-contra-synth-"));
  generateVault(synthetic, NOTES);
  const seeded = seedStatements(synthetic);
  const f = await run(synthetic, seeded.expectations);
  print(`synthetic vault (${NOTES} notes)`, f);
  say(
    `  seeded: ${seeded.statements} changing statements (${seeded.expected} changes of value expected to supersede), ${seeded.refunds} refund tasks with swapped numbers`,
  );
  const refunds = readdirSync(join(synthetic, "Memory", "Agents")).reduce((n, agent) => {
    try {
      return (
        n +
        (readFileSync(
          join(synthetic, "Memory", "Agents", agent, "Trackers", "Tasks.md"),
          "utf8",
        ).match(/refund customer \d+ for order \d+/g)?.length ?? 0)
      );
    } catch {
      return n;
    }
  }, 0);
  say(`  refund tasks written: ${refunds} of ${seeded.refunds}`);
  say(`  seeded statements whose outcome differed from the expected one: ${f.mismatches.length}`);
  const kinds = new Map<string, number>();
  for (const m of f.mismatches) {
    const k = /expected .*?, got [a-z-]+/.exec(m)?.[0] ?? m;
    kinds.set(k, (kinds.get(k) ?? 0) + 1);
  }
  for (const [k, n] of kinds) say(`    ${n} × ${k}`);
  for (const m of f.mismatches.slice(0, 5)) say(`    e.g. ${m}`);
  if (process.env.KEEP) say(`\nkept: ${sample}\nkept: ${synthetic}`);
  else {
    rmSync(sample, { recursive: true, force: true });
    rmSync(synthetic, { recursive: true, force: true });
  }
}

void main();
