// The demo (README: `npm ci && npm run demo`): copies the sample vault to a temporary folder, runs
// the extraction on every journal with the built CLI, prints what went where and the open tasks,
// then runs the extraction again to show that an unchanged journal writes nothing
// (test/core/extraction/extraction-pipeline.test.ts, "case 10: …"). Usage: node scripts/demo.mjs [--keep]   (--keep
// leaves the temporary vault for you to open)
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const cli = join(root, "dist", "cli.js");
const keep = process.argv.includes("--keep");
/** Prints one line of the demo report. */
const say = (line = "") => process.stdout.write(`${line}\n`);

if (!existsSync(cli)) {
  const built = spawnSync(process.execPath, [join(root, "esbuild.config.mjs"), "cli"], {
    cwd: root,
    stdio: "inherit",
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

const vault = mkdtempSync(join(tmpdir(), "agent-memory-demo-"));
cpSync(join(root, "examples", "vault"), vault, { recursive: true });

/** Runs the CLI and returns its parsed JSON output. */
function run(...args) {
  const res = spawnSync(process.execPath, [cli, ...args, "--json"], {
    encoding: "utf8",
    env: {
      ...process.env,
      AGENT_MEMORY_LLM_BASE_URL: "",
      AGENT_MEMORY_LLM_API_KEY: "",
      OPENAI_BASE_URL: "",
      OPENAI_API_KEY: "",
    },
  });
  if (res.status === 2 || !res.stdout.trim()) {
    process.stderr.write(`agent-memory ${args.join(" ")} failed:\n${res.stderr}`);
    process.exit(1);
  }
  return JSON.parse(res.stdout);
}

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
  );
}

const agentsDir = join(vault, "Memory", "Agents");
const agents = readdirSync(agentsDir).filter((a) => existsSync(join(agentsDir, a, "Journal")));
const journals = agents.flatMap((a) =>
  readdirSync(join(agentsDir, a, "Journal"))
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((f) =>
      relative(vault, join(agentsDir, a, "Journal", f))
        .split("\\")
        .join("/"),
    ),
);

say(`Agent Memory demo — sample vault copied to ${vault}`);
say(`${agents.length} agents (${agents.join(", ")}), ${journals.length} journals\n`);

const totals = {};
const perAgent = {};
let extractor = "";
for (const journal of journals) {
  const r = run("extract", vault, journal);
  extractor = `${r.extractor} (${r.extractorReason})`;
  const byCat = {};
  // A decision with a topic is planned twice (Decisions tracker and topic note): count items once.
  const unique = [...new Map(r.items.map((it) => [`${it.category}|${it.evidence}`, it])).values()];
  for (const it of unique) {
    byCat[it.category] = (byCat[it.category] ?? 0) + 1;
    totals[it.category] = (totals[it.category] ?? 0) + 1;
    (perAgent[r.agent] ??= new Set()).add(it.category);
  }
  const cats =
    Object.entries(byCat)
      .map(([c, n]) => `${n} ${c}`)
      .join(", ") || "no explicit items";
  say(`${journal}\n  ${unique.length} items: ${cats}`);
  const where = {};
  // The CLI's words (actionWords, src/core/extraction/action-words.ts): "new" only of a note created.
  const words = {
    add: "added",
    supersede: "added, superseding",
    "add-source": "duplicate, source added",
    progress: "progress note",
    skip: "already recorded",
  };
  for (const it of r.items) {
    const what = it.newNote ? "new note" : (words[it.action] ?? it.action);
    const key = `${it.destination.split("/").slice(-2).join("/")} (${what})`;
    where[key] = (where[key] ?? 0) + 1;
  }
  for (const [dest, n] of Object.entries(where)) say(`    ${n} → ${dest}`);
  for (const rej of r.rejected) say(`    rejected: ${rej.reason}`);
}

say(`\nExtractor: ${extractor}`);
say(
  `Items by category: ${Object.entries(totals)
    .map(([c, n]) => `${c} ${n}`)
    .join(", ")}`,
);
for (const [agent, cats] of Object.entries(perAgent))
  say(`  ${agent}: ${cats.size} categories (${[...cats].join(", ")})`);

say("\nOpen tasks:");
for (const agent of agents) {
  const t = run("trackers", vault, "--agent", agent, "--kind", "tasks", "--status", "open");
  for (const it of t.items)
    say(
      `  [${agent}] ${it.id ?? "-"}  ${it.text}${it.due ? ` (due ${it.due}${it.overdue ? ", overdue" : ""})` : ""}`,
    );
}

// Second run: nothing may be written (test/core/extraction/extraction-pipeline.test.ts, "case 10: …").
const before = new Map(walk(vault).map((f) => [f, statSync(f).mtimeMs]));
let reportedNew = 0;
for (const journal of journals) {
  const r = run("extract", vault, journal);
  reportedNew += r.items.filter((it) => it.action !== "skip").length + r.writes.length;
}
const changed = walk(vault).filter((f) => before.get(f) !== statSync(f).mtimeMs);
say(
  `\nSecond run on the same vault: ${changed.length} files written, ${reportedNew} new items reported.`,
);

if (keep) say(`\nThe vault is kept at ${vault}`);
else rmSync(vault, { recursive: true, force: true });
if (changed.length > 0 || reportedNew > 0) process.exit(1);
