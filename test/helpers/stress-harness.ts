// Stress trials of the write path (docs/write-safety.md): many `extract` processes at once, an
// in-place writer during extraction, and SIGKILL at random moments. Used small by
// test/node/write-stress.process.test.ts and at full size by `npm run stress` (bench/stress.ts). Each trial
// returns what it lost, so the caller decides what counts as a failure.
import { spawn, type ChildProcess } from "node:child_process";
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
  mkdirSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { rng } from "../../bench/lib/synthetic-vault";
import { maskRandomIds } from "./seeded-random";

const projectRoot = fileURLToPath(new URL("../..", import.meta.url));
/**
 * The built CLI the trials run: `AGENT_MEMORY_STRESS_CLI` when set (another build to compare, or
 * the private copy `npm run stress` runs so a rebuild meanwhile cannot change it), else
 * `dist/cli.js` (tests build it first).
 */
export function cliPath(): string {
  return process.env.AGENT_MEMORY_STRESS_CLI || join(projectRoot, "dist", "cli.js");
}

const cleanEnv: NodeJS.ProcessEnv = {
  ...process.env,
  AGENT_MEMORY_LLM_BASE_URL: "",
  AGENT_MEMORY_LLM_API_KEY: "",
  OPENAI_BASE_URL: "",
  OPENAI_API_KEY: "",
  // A lock left by a killed run is taken over after 2 s instead of 10 s.
  AGENT_MEMORY_LOCK_STALE_MS: "2000",
};

/** A small seeded random generator, so a trial can be replayed from its seed. */
export const seeded = rng;

const SYLLABLES = [
  "ka",
  "ro",
  "mi",
  "tu",
  "ve",
  "lo",
  "sa",
  "ni",
  "pe",
  "zu",
  "do",
  "ga",
  "fi",
  "ho",
  "ja",
  "qe",
  "wy",
  "xi",
  "bu",
  "ce",
];

/** A made-up word, unique per index (so no two tasks look like duplicates of each other). */
function word(n: number): string {
  let out = "";
  let x = n + 400;
  while (x > 0) {
    out += SYLLABLES[x % SYLLABLES.length];
    x = Math.floor(x / SYLLABLES.length);
  }
  return out;
}

/** The text of task `i` of journal `j`: three words no other task has. */
export function taskText(j: number, i: number): string {
  const base = (j * 1000 + i) * 3;
  return `Check the ${word(base)} ${word(base + 1)} ${word(base + 2)} figures`;
}

/** A journal of agent `a` with `tasks` task lines. */
function journalText(j: number, tasks: number): string {
  const lines = Array.from({ length: tasks }, (_, i) => `- [ ] ${taskText(j, i)}`);
  return `---\ntype: journal\nagent: a\n---\n# Day ${j}\n\n${lines.join("\n")}\n`;
}

export function journalPath(j: number): string {
  return `Memory/Agents/a/Journal/2026-10-${String(j + 1).padStart(2, "0")}.md`;
}

export const TASKS = "Memory/Agents/a/Trackers/Tasks.md";

/** A vault with agent `a` and `journals` journals of `tasks` tasks each. */
export function stressVault(
  journals: number,
  tasks: number,
): { root: string; cleanup: () => void } {
  const root = mkdtempSync(join(tmpdir(), "am-stress-"));
  for (let j = 0; j < journals; j++) {
    const abs = join(root, journalPath(j));
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, journalText(j, tasks));
  }
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** Runs the CLI; resolves with its exit code and output. `onStart` gets the child (to kill it). */
export function runCli(
  args: string[],
  onStart?: (child: ChildProcess) => void,
): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath(), ...args], {
      env: cleanEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
    onStart?.(child);
  });
}

/** The `rejected:` lines of an extract report, joined, for a failure's message. */
function rejectedLines(stdout: string): string {
  return [
    ...new Set(
      stdout
        .split("\n")
        .filter((l) => /rejected:/.test(l))
        .map((l) => l.replace(/ — .*$/, "").trim()),
    ),
  ].join("; ");
}

/** Files left behind by a write: temporary files anywhere in the vault and lock folders. */
export function leftovers(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.name.endsWith(".tmp") || e.name.endsWith(".lock")) out.push(p.slice(root.length + 1));
      else if (e.isDirectory()) walk(p);
    }
  };
  walk(root);
  return out;
}

/** What a trial lost: tasks missing from the tracker, tasks present twice, ids used twice, files left. */
export interface TrialResult {
  lost: number;
  /** Of `lost`, those no process reported as failed. */
  silentlyLost?: number;
  duplicates: number;
  duplicateIds: number;
  leftovers: string[];
  /** Exit codes other than 0 (with stderr), for the report. */
  failures: string[];
}

/** Counts each expected task's lines in the tracker, and the tracker's ids. */
export function checkTasks(
  root: string,
  expected: string[],
): Pick<TrialResult, "lost" | "duplicates" | "duplicateIds"> {
  const file = join(root, TASKS);
  const text = existsSync(file) ? readFileSync(file, "utf8") : "";
  const lines = text.split("\n");
  let lost = 0;
  let duplicates = 0;
  for (const task of expected) {
    const n = lines.filter((l) => l.includes(task)).length;
    if (n === 0) lost++;
    if (n > 1) duplicates += n - 1;
  }
  const ids = lines
    .map((l) => /\^(t-\d+)\s*$/.exec(l)?.[1])
    .filter((x): x is string => x !== undefined);
  return { lost, duplicates, duplicateIds: ids.length - new Set(ids).size };
}

/**
 * One trial of `writers` extract processes started together, each on its own journal of agent `a`
 * (all write `Trackers/Tasks.md`), or all on the same journal when `sameJournal`.
 */
export async function concurrentExtractTrial(
  writers: number,
  tasks: number,
  sameJournal: boolean,
): Promise<TrialResult> {
  const journals = sameJournal ? 1 : writers;
  const v = stressVault(journals, tasks);
  try {
    const runs = Array.from({ length: writers }, (_, w) =>
      runCli(["extract", v.root, journalPath(sameJournal ? 0 : w)]),
    );
    const results = await Promise.all(runs);
    const failures = results
      .filter((r) => r.code !== 0)
      .map((r) => `exit ${r.code}: ${r.stderr.trim()} ${rejectedLines(r.stdout)}`.trim());
    const expected = Array.from({ length: journals }, (_, j) =>
      Array.from({ length: tasks }, (_, i) => taskText(j, i)),
    ).flat();
    // A task of a journal whose every run failed (and said so) is lost loudly; any other is silent.
    const reported = new Set(
      Array.from({ length: journals }, (_, j) => j).filter((j) =>
        results.every((r, w) => (sameJournal ? 0 : w) !== j || r.code !== 0),
      ),
    );
    const quietly = Array.from({ length: journals }, (_, j) => j)
      .filter((j) => !reported.has(j))
      .flatMap((j) => Array.from({ length: tasks }, (_, i) => taskText(j, i)));
    return {
      ...checkTasks(v.root, expected),
      silentlyLost: checkTasks(v.root, quietly).lost,
      leftovers: leftovers(v.root),
      failures,
    };
  } finally {
    v.cleanup();
  }
}

/** Result of an in-place writer trial: hand-written lines lost, and the extraction's own result. */
export interface InPlaceResult extends TrialResult {
  handLost: number;
  saves: number;
}

/**
 * A program saving `Tasks.md` in place (read, add a hand-written line, truncate, write — as most
 * editors and scripts save) in a loop while `journals` extract processes run one after another.
 * Counts the hand-written lines missing at the end. A writer that saves every few milliseconds can
 * keep a note changing through all of an edit's attempts: the items are then rejected and the
 * journal left unmarked (`failures`). A writer that does not lock can also save over our items from
 * what it read before (docs/write-safety.md), so `lost` is reported, but `handLost` is the promise.
 * `pauseMs` is the range of the writer's pause between saves.
 */
export async function inPlaceWriterTrial(
  journals: number,
  tasks: number,
  seed: number,
  pauseMs: [number, number],
): Promise<InPlaceResult> {
  const v = stressVault(journals, tasks);
  const rand = seeded(seed);
  const file = join(v.root, TASKS);
  try {
    // The tracker exists with 980 hand-written lines before extraction starts.
    mkdirSync(dirname(file), { recursive: true });
    const hand: string[] = [];
    const initial = ["---", "type: tracker", "agent: a", "kind: tasks", "---", "# Tasks", ""];
    for (let i = 0; i < 980; i++) hand.push(`hand-written note ${i} ${word(900_000 + i)}`);
    writeFileSync(file, `${initial.join("\n")}\n${hand.join("\n")}\n`);
    let stop = false;
    let saves = 0;
    const writer = (async () => {
      while (!stop) {
        const text = readFileSync(file, "utf8");
        const line = `hand-written save ${saves} ${word(800_000 + saves)}`;
        hand.push(line);
        writeFileSync(file, `${text}${text.endsWith("\n") ? "" : "\n"}${line}\n`); // truncate, then write
        saves++;
        await new Promise((r) =>
          setTimeout(r, pauseMs[0] + Math.floor(rand() * (pauseMs[1] - pauseMs[0]))),
        );
      }
    })();
    const failures: string[] = [];
    for (let j = 0; j < journals; j++) {
      const r = await runCli(["extract", v.root, journalPath(j)]);
      if (r.code !== 0)
        failures.push(`exit ${r.code}: ${r.stderr.trim()} ${rejectedLines(r.stdout)}`.trim());
    }
    stop = true;
    await writer;
    const text = readFileSync(file, "utf8");
    const handLost = hand.filter((l) => !text.includes(l)).length;
    const expected = Array.from({ length: journals }, (_, j) =>
      Array.from({ length: tasks }, (_, i) => taskText(j, i)),
    ).flat();
    return {
      ...checkTasks(v.root, expected),
      handLost,
      saves,
      leftovers: leftovers(v.root),
      failures,
    };
  } finally {
    v.cleanup();
  }
}

/** Result of a kill trial. */
export interface KillResult {
  /** Notes whose text after the kill is neither what it was nor a complete note. */
  torn: string[];
  /** After a re-run: differences from an uninterrupted run of the same journals. */
  differs: string[];
  leftovers: string[];
  killedAtMs: number;
  /** False when the run ended before the kill (the trial then tested an uninterrupted run). */
  killed: boolean;
}

/** The vault's notes by path, with run-specific timestamps masked. */
function notesOf(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) {
        if (!e.name.startsWith(".")) walk(p);
      } else if (e.name.endsWith(".md")) {
        out.set(
          p.slice(root.length + 1),
          maskRandomIds(readFileSync(p, "utf8")).replace(
            /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[^\s"\]]*/g,
            "<time>",
          ),
        );
      }
    }
  };
  walk(root);
  return out;
}

/** True when a tracker or journal reads as a whole note: frontmatter closed, last line ended. */
function looksComplete(text: string): boolean {
  if (!text.endsWith("\n")) return false;
  if (text.startsWith("---\n") && !/\n---\n/.test(text.slice(3))) return false;
  return true;
}

/**
 * Extracts `journals` journals in one process, kills it with SIGKILL after a random delay, checks
 * that every note is unchanged or complete, then re-runs and compares with an uninterrupted run.
 */
export async function killTrial(
  journals: number,
  tasks: number,
  seed: number,
  maxDelayMs: number,
): Promise<KillResult> {
  const rand = seeded(seed);
  const reference = stressVault(journals, tasks);
  const victim = stressVault(journals, tasks);
  try {
    for (let j = 0; j < journals; j++) await runCli(["extract", reference.root, journalPath(j)]);
    const before = notesOf(victim.root);
    const killedAtMs = Math.floor(rand() * maxDelayMs);
    const killJournal = Math.floor(rand() * journals);
    // The journals one after another, as a script would run them; one run is killed, and the
    // script stops there, as after a crash.
    let killed = false;
    for (let j = 0; j < journals && !killed; j++) {
      const r = await runCli(["extract", victim.root, journalPath(j)], (child) => {
        if (j === killJournal) setTimeout(() => child.kill("SIGKILL"), killedAtMs);
      });
      killed = r.signal === "SIGKILL";
    }
    const torn: string[] = [];
    for (const [path, text] of notesOf(victim.root)) {
      if (
        before.get(path) !== text &&
        !looksComplete(readFileSync(join(victim.root, path), "utf8"))
      )
        torn.push(path);
    }
    for (let j = 0; j < journals; j++) await runCli(["extract", victim.root, journalPath(j)]);
    const want = notesOf(reference.root);
    const got = notesOf(victim.root);
    const differs: string[] = [];
    for (const path of new Set([...want.keys(), ...got.keys()]))
      if (want.get(path) !== got.get(path)) differs.push(path);
    return { torn, differs, leftovers: leftovers(victim.root), killedAtMs, killed };
  } finally {
    reference.cleanup();
    victim.cleanup();
  }
}

/**
 * `writers` processes each append `lines` tagged lines to one note through `NodeVault.process`
 * at once: the adapter alone, at the contention an MCP server beside the CLI and Obsidian makes.
 */
export async function appendTrial(writers: number, lines: number): Promise<TrialResult> {
  const root = mkdtempSync(join(tmpdir(), "am-stress-append-"));
  const note = "Memory/Agents/a/Trackers/Tasks.md";
  const worker = fileURLToPath(new URL("./append-worker.ts", import.meta.url));
  try {
    mkdirSync(join(root, dirname(note)), { recursive: true });
    writeFileSync(join(root, note), "# Tasks\n");
    const runs = Array.from(
      { length: writers },
      (_, w) =>
        new Promise<{ code: number | null; stderr: string; failed: number }>((resolve, reject) => {
          const child = spawn(
            process.execPath,
            ["--import", "tsx", worker, root, note, `w${w}`, String(lines)],
            { cwd: projectRoot, env: cleanEnv, stdio: ["ignore", "pipe", "pipe"] },
          );
          let stderr = "";
          let stdout = "";
          child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
          child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
          child.on("error", reject);
          child.on("close", (code) =>
            resolve({
              code,
              stderr,
              failed: (JSON.parse(stdout || "{}") as { failed?: number }).failed ?? 0,
            }),
          );
        }),
    );
    const results = await Promise.all(runs);
    const failures = results
      .filter((r) => r.code !== 0 || r.stderr !== "")
      .map((r) => `exit ${r.code}: ${r.stderr.trim()}`);
    const text = readFileSync(join(root, note), "utf8").split("\n");
    let lost = 0;
    let duplicates = 0;
    for (let w = 0; w < writers; w++) {
      for (let i = 0; i < lines; i++) {
        const n = text.filter((l) => l === `w${w} line ${i}`).length;
        if (n === 0) lost++;
        if (n > 1) duplicates += n - 1;
      }
    }
    const reported = results.reduce((n, r) => n + r.failed, 0);
    return {
      lost,
      silentlyLost: lost - reported,
      duplicates,
      duplicateIds: 0,
      leftovers: leftovers(root),
      failures,
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
