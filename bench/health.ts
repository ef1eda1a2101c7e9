// Health check benchmark (the target: a 10k-note vault in a few seconds; a figure, not
// a test). Builds a synthetic vault of realistic notes in a temporary folder —
// journals with block ids, trackers whose items cite them, knowledge and library topics with
// related_to links and sourced callouts, a few seeded defects — then times the full check through
// NodeVault (cold: every note read from disk) and a second, warm run.
// Usage: npm run bench:health [-- --notes 10000]; KEEP=1 keeps the generated vault and prints its path.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { NodeVault } from "../src/node/node-vault";
import { MemoryLayout } from "../src/core/layout";
import { defaultSettings } from "../src/core/settings";
import { addDays } from "../src/core/util/dates";
import { formatCompliance, runHealthCheck } from "../src/core/health";

const arg = process.argv.indexOf("--notes");
const TARGET = arg > 0 ? Number(process.argv[arg + 1]) : 10_000;
const TODAY = "2026-06-01";
const AGENTS = 10;
const WORDS = (
  "audit pricing churn onboarding canonical rubric backlog retention funnel dashboard release review " +
  "incident cohort survey interview latency cache migration redirect schema editor budget roadmap"
).split(" ");
const CJK = "今天完成了认证系统的重构使用令牌客户流失续费提醒复盘决定目标问题心得模式建议";

let seed = 42;
function rand(n: number): number {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed % n;
}
function sentence(words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(WORDS[rand(WORDS.length)] ?? "x");
  return `${out.join(" ")}.`;
}
function cjk(chars: number): string {
  let s = "";
  for (let i = 0; i < chars; i++) s += CJK[rand(CJK.length)] ?? "的";
  return `${s}。`;
}

function build(root: string): number {
  let count = 0;
  const write = (path: string, text: string): void => {
    const abs = join(root, path);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, text);
    count++;
  };
  const perAgent = Math.floor((TARGET * 0.94) / AGENTS);
  const journalsPer = Math.floor(perAgent * 0.6);
  const topicsPer = perAgent - journalsPer - 4;
  for (let a = 0; a < AGENTS; a++) {
    const agent = `agent${a}`;
    const base = `Memory/Agents/${agent}`;
    const topics = Array.from(
      { length: topicsPer },
      (_, i) => `Topic ${a}-${i} ${WORDS[i % WORDS.length] ?? ""}`,
    );
    const journals: { date: string; blocks: string[] }[] = [];
    for (let j = 0; j < journalsPer; j++) {
      const date = addDays("2024-01-01", Math.floor((j * 880) / journalsPer)) ?? "2024-01-01";
      const stem = `${date}-${j}`;
      const blocks = [`am-${a}x${j}a`, `am-${a}x${j}b`, `am-${a}x${j}c`];
      journals.push({ date: stem, blocks });
      const topic = topics[rand(topics.length)] ?? "";
      const body = [
        `# ${date}`,
        "",
        `${sentence(40)} Worked on ${topic}. ${sentence(30)} ^${blocks[0]}`,
        "",
        `- [ ] ${sentence(8)} ^${blocks[1]}`,
        "",
        `${j % 3 === 0 ? cjk(120) : sentence(60)} ^${blocks[2]}`,
        "",
        sentence(50),
      ].join("\n");
      write(
        `${base}/Journal/${stem}.md`,
        `---\nid: journal-${agent}-${stem}\ntype: journal\nagent: ${agent}\nstatus: active\ncreated_at: ${date}T18:00:00+08:00\nrelated_to: ["[[${topic}]]"]\n---\n${body}\n`,
      );
    }
    for (let t = 0; t < topics.length; t++) {
      const topic = topics[t] ?? "";
      const j = journals[rand(journals.length)];
      const updated = addDays("2024-01-01", rand(880)) ?? "2024-01-01";
      const related = `["[[${topics[(t + 1) % topics.length] ?? ""}]]", "[[${topics[(t + 7) % topics.length] ?? ""}]]"]`;
      const callouts = Array.from(
        { length: 4 },
        (_, k) =>
          `> [!insight] ${updated} · confidence 0.${5 + k}\n> ${sentence(25)}\n> Source: [[Agents/${agent}/Journal/${j?.date ?? ""}#^${j?.blocks[k % 3] ?? ""}]]\n`,
      ).join("\n");
      const status = t % 40 === 0 ? "draft" : "active";
      write(
        `${base}/Knowledge/${["learning", "strategy", "team", "customers"][t % 4] ?? "learning"}/${topic}.md`,
        `---\nid: knowledge-${agent}-${t}\ntype: knowledge\nagent: ${agent}\nstatus: ${status}\ncreated_at: 2024-01-01\nupdated_at: ${updated}\nconfidence: 0.7\nrelated_to: ${related}\n---\n# ${topic}\n\n${sentence(60)}\n\n## Insights\n${callouts}`,
      );
    }
    const items = (prefix: string, n: number, extra: (i: number) => string): string =>
      Array.from({ length: n }, (_, i) => {
        const j = journals[rand(journals.length)];
        return `- [${i % 3 === 0 ? "x" : " "}] ${sentence(8)} [created:: 2025-01-01] [source:: [[${j?.date ?? ""}#^${j?.blocks[1] ?? ""}]]]${extra(i)} ^${prefix}-${String(i + 1).padStart(3, "0")}`;
      }).join("\n");
    const tracker = (name: string, body: string): void =>
      write(
        `${base}/Trackers/${name}.md`,
        `---\nid: tracker-${agent}-${name.toLowerCase()}\ntype: tracker\nagent: ${agent}\nstatus: active\ncreated_at: 2024-01-01\n---\n# ${name}\n\n${body}\n`,
      );
    tracker(
      "Tasks",
      items("t", 150, () => ""),
    );
    tracker(
      "Goals",
      items("g", 20, () => " [target:: 2026-12-31]"),
    );
    tracker(
      "Decisions",
      items("d", 60, () => ""),
    );
    tracker(
      "Reviews",
      `- [ ] Weekly review [every:: weekly] [next:: ${a % 2 === 0 ? "2026-05-20" : "2026-06-20"}] ^r-001\n- [ ] Monthly review [every:: monthly] [next:: 2026-06-30] ^r-002`,
    );
  }
  let l = 0;
  while (count < TARGET) {
    const expired = l % 100 === 0 ? "\nexpires_at: 2026-01-01" : "";
    write(
      `Memory/Library/Area ${l % 20}/Library topic ${l}.md`,
      `---\nid: library-${l}\ntype: library\nstatus: active\ncreated_at: 2025-03-01${expired}\nrelated_to: ["[[Library topic ${(l + 1) % 500}]]"]\n---\n# Library topic ${l}\n\n${sentence(120)}\n\n${cjk(200)}\n`,
    );
    l++;
  }
  // A few defects, so the run does real reporting work.
  write("Memory/Library/Broken/Bad yaml.md", `---\nid: bad\ntitle: "unclosed\n---\nbody\n`);
  write(
    "Memory/Library/Broken/Case 04.md",
    `---\nproject: [[Project Alpha]]\npeople: [[Person A]], [[Person B]]\n---\nbody\n`,
  );
  return count;
}

/** Writes one line to stdout (the bench's output). */
function print(line: string): void {
  process.stdout.write(`${line}\n`);
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), "am-bench-health-"));
  try {
    const t0 = performance.now();
    const notes = build(root);
    const buildMs = performance.now() - t0;
    const settings = defaultSettings();
    const layout = new MemoryLayout(settings);
    const vault = new NodeVault(root);
    const runs: number[] = [];
    const cpu: number[] = [];
    let summary = "";
    for (let i = 0; i < 3; i++) {
      const start = performance.now();
      const cpuStart = process.cpuUsage();
      const report = await runHealthCheck(vault, layout, settings, {
        today: TODAY,
        nowMs: Date.parse(`${TODAY}T12:00:00Z`),
      });
      runs.push(performance.now() - start);
      const used = process.cpuUsage(cpuStart);
      cpu.push((used.user + used.system) / 1000);
      const byRule = new Map<string, number>();
      for (const p of [...report.errors, ...report.warnings])
        byRule.set(p.rule, (byRule.get(p.rule) ?? 0) + 1);
      summary =
        `checked ${report.checked}, compliance ${formatCompliance(report.compliance)}, ${report.errors.length} errors, ${report.warnings.length} warnings\n` +
        [...byRule].map(([r, n]) => `  ${r}: ${n}`).join("\n");
    }
    const heapMb = process.memoryUsage().heapUsed / 1024 / 1024;
    print(`health bench: ${notes} notes written in ${(buildMs / 1000).toFixed(1)} s`);
    print(summary);
    const ms = (list: number[]): string => list.map((r) => `${r.toFixed(0)} ms`).join(", ");
    print(`load average (1 min) ${os.loadavg()[0]?.toFixed(1) ?? "?"} on ${os.cpus().length} CPUs`);
    print(`| notes | first run (cold), wall | warm runs, wall | CPU time per run | heap used |`);
    print(`| ---: | ---: | ---: | ---: | ---: |`);
    print(
      `| ${notes} | ${ms(runs.slice(0, 1))} | ${ms(runs.slice(1))} | ${ms(cpu)} | ${heapMb.toFixed(0)} MB |`,
    );
  } finally {
    if (!process.env.KEEP) rmSync(root, { recursive: true, force: true });
    else print(root);
  }
}

await main();
