// The sync stress of docs/sync.md ("Stress"): N clones of one vault repository around a bare
// origin, R rounds of offline work on each (journal lines extracted with the CLI, ticks, text
// edits and new lines by hand, MCP-style writes through the core, supersessions of one fact),
// synced with `git pull` (merge or rebase) and push, the driver set up with `agent-memory git
// setup`. Shared by `npm run stress:sync` (bench/stress-sync.ts, full size) and
// test/cli/sync-stress.process.test.ts (small). Git runs with GIT_CONFIG_NOSYSTEM, a HOME of its
// own and names set per repository; nothing reaches the network.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { rng } from "../../bench/lib/synthetic-vault";
import { listTopicEntries } from "../../src/core/knowledge/callouts";
import { isSuperseded } from "../../src/core/knowledge/supersede";
import { hasConflictMarkers } from "../../src/core/markdown/conflict-markers";
import { listItems } from "../../src/core/trackers/format";
import { addTrackerItem, setItemStatus } from "../../src/core/trackers/store";
import { NodeVault } from "../../src/node/node-vault";
import { CLI_PATH, offlineEnv } from "./cli-run";
import { seededRandom } from "./seeded-random";

/** How a clone takes the others' work. */
export type PullMode = "merge" | "rebase";

/** What {@link runSyncStress} is asked to do. */
export interface SyncStressOptions {
  clones: number;
  rounds: number;
  mode: PullMode;
  /** Seed of every random choice (which item is ticked, edited; the ids the core draws). */
  seed?: number;
  /** Keeps the temporary folder (its path is in the result). */
  keep?: boolean;
  /** The CLI to run (default the built `dist/cli.js`). */
  cli?: string;
}

/** What {@link runSyncStress} found; every count is 0 and `identical` true when sync is right. */
export interface SyncStressResult {
  clones: number;
  rounds: number;
  mode: PullMode;
  pulls: number;
  /** Pulls that stopped on a conflict (then settled with `agent-memory git resolve`). */
  pullsStopped: number;
  /** Ids that name two different items (distinct tokens) in the end. */
  idCollisions: number;
  /** Items made during the run that no tracker holds in the end. */
  itemsLost: number;
  /** Items that more than one line holds in the end. */
  itemsDoubled: number;
  /** Items whose state is not the one the work gave (done when ticked anywhere), and facts left current twice. */
  wrongStates: number;
  /** Text edits found neither in the item's text nor in a `Merge:` line under it. */
  editsLost: number;
  /** Error findings of `agent-memory health` on the first clone in the end. */
  healthErrors: number;
  /** Memory notes holding conflict markers, over all clones. */
  conflictMarkers: number;
  /** True when every clone ends with the same tracked files, byte for byte. */
  identical: boolean;
  /** Items made, ticks and edits done. */
  made: number;
  ticks: number;
  edits: number;
  /** Lines describing each finding (at most 20), for a person. */
  details: string[];
  seconds: number;
  root: string;
}

const AGENT = "link";
const TASKS = `Memory/Agents/${AGENT}/Trackers/Tasks.md`;
const QUESTIONS = `Memory/Agents/${AGENT}/Trackers/Questions.md`;
const DATE = "2026-12-01";

interface Expected {
  token: string;
  path: string;
  done: boolean;
  edits: string[];
}

/**
 * Runs the stress in a fresh temporary folder (removed afterwards unless `keep`) and returns its
 * figures. Needs the built CLI (`dist/cli.js`). Throws when git or the CLI fails in a way the
 * stress does not count (a broken setup), naming the command.
 */
export async function runSyncStress(options: SyncStressOptions): Promise<SyncStressResult> {
  const started = performance.now();
  const seed = options.seed ?? 1;
  const random = rng(seed);
  const ids = seededRandom(seed + 1);
  const root = mkdtempSync(join(tmpdir(), "am-sync-stress-"));
  const home = join(root, "home");
  mkdirSync(home);
  const env: NodeJS.ProcessEnv = {
    ...offlineEnv(),
    GIT_CONFIG_NOSYSTEM: "1",
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    GIT_TERMINAL_PROMPT: "0",
    GIT_EDITOR: "true",
  };
  const git = (cwd: string, ...args: string[]): string =>
    execFileSync("git", args, { cwd, env, encoding: "utf8", stdio: "pipe" });
  const tryGit = (cwd: string, ...args: string[]): boolean =>
    spawnSync("git", args, { cwd, env, encoding: "utf8" }).status === 0;
  const cli = (...args: string[]): { code: number | null; stdout: string; stderr: string } => {
    const r = spawnSync(process.execPath, [options.cli ?? CLI_PATH, ...args], {
      cwd: root,
      env,
      encoding: "utf8",
    });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const mustCli = (...args: string[]): string => {
    const r = cli(...args);
    if (r.code !== 0) throw new Error(`agent-memory ${args.join(" ")}: ${r.stderr.trim()}`);
    return r.stdout;
  };
  const read = (dir: string, p: string): string => {
    try {
      return readFileSync(join(dir, p), "utf8");
    } catch {
      return "";
    }
  };
  const write = (dir: string, p: string, text: string): void => {
    mkdirSync(join(dir, p, ".."), { recursive: true });
    writeFileSync(join(dir, p), text);
  };

  const result: SyncStressResult = {
    clones: options.clones,
    rounds: options.rounds,
    mode: options.mode,
    pulls: 0,
    pullsStopped: 0,
    idCollisions: 0,
    itemsLost: 0,
    itemsDoubled: 0,
    wrongStates: 0,
    editsLost: 0,
    healthErrors: 0,
    conflictMarkers: 0,
    identical: false,
    made: 0,
    ticks: 0,
    edits: 0,
    details: [],
    seconds: 0,
    root,
  };
  const detail = (line: string): void => {
    if (result.details.length < 20) result.details.push(line);
  };

  try {
    git(root, "init", "-q", "--bare", "-b", "main", "origin.git");
    const seedDir = join(root, "seed");
    git(root, "init", "-q", "-b", "main", "seed");
    git(seedDir, "config", "user.name", "seed");
    git(seedDir, "config", "user.email", "seed@example.test");
    mustCli("init", seedDir, "--agent", AGENT);
    git(seedDir, "add", "-A");
    git(seedDir, "commit", "-q", "-m", "init");
    git(seedDir, "remote", "add", "origin", join(root, "origin.git"));
    git(seedDir, "push", "-q", "origin", "main");

    const clones: string[] = [];
    for (let c = 0; c < options.clones; c++) {
      const name = `c${c + 1}`;
      git(root, "clone", "-q", join(root, "origin.git"), name);
      const dir = join(root, name);
      git(dir, "config", "user.name", name);
      git(dir, "config", "user.email", `${name}@example.test`);
      git(dir, "config", "pull.rebase", options.mode === "rebase" ? "true" : "false");
      mustCli("git", "setup", dir);
      clones.push(dir);
    }

    const expected = new Map<string, Expected>();
    const expect = (token: string, path: string): void => {
      expected.set(token, { token, path, done: false, edits: [] });
      result.made++;
    };
    const pick = <T>(list: readonly T[]): T | undefined =>
      list.length ? list[Math.floor(random() * list.length)] : undefined;
    const tokenOf = (text: string): string | undefined => /\b[hmx]k-c\d+r\d+\b/.exec(text)?.[0];

    const work = async (c: number, r: number): Promise<void> => {
      const dir = clones[c] ?? "";
      const tag = `c${c + 1}r${r + 1}`;
      // 1. A journal paragraph per round: a task, a question and a changed fact, extracted.
      const journal = `Memory/Agents/${AGENT}/Journal/${DATE}.md`;
      const minutes = 5 + Math.floor(random() * 90);
      const journalText = read(dir, journal);
      write(
        dir,
        journal,
        `${journalText}${journalText.endsWith("\n") ? "" : "\n"}\n## Work ${tag}\n\n- [ ] Prepare xk-${tag} the brief\n\nQuestion: @ming could we ship xk-${tag} this week?\n\n## Build\n\nLearned: the build takes ${minutes} minutes on the CI runner.\n`,
      );
      mustCli("extract", dir, journal, "--agent", AGENT);
      expect(`xk-${tag}`, TASKS);
      expected.set(`xk-${tag}?`, { token: `xk-${tag}`, path: QUESTIONS, done: false, edits: [] });
      result.made++;
      // 2. By hand: a tick, a text edit and a new line without an id, on the tracker as it is.
      let tasks = read(dir, TASKS);
      const open = listItems(tasks).filter((i) => i.status === "open" && tokenOf(i.text));
      const tick = pick(open);
      if (tick) {
        const lines = tasks.split("\n");
        lines[tick.line] = (lines[tick.line] ?? "").replace("- [ ]", "- [x]");
        tasks = lines.join("\n");
        const e = expected.get(tokenOf(tick.text) ?? "");
        if (e) e.done = true;
        result.ticks++;
      }
      const edit = pick(listItems(tasks).filter((i) => tokenOf(i.text)));
      if (edit) {
        const token = tokenOf(edit.text) ?? "";
        const mark = `e-${tag}`;
        const lines = tasks.split("\n");
        lines[edit.line] = (lines[edit.line] ?? "").replace(token, `${token} ${mark}`);
        tasks = lines.join("\n");
        expected.get(token)?.edits.push(mark);
        result.edits++;
      }
      const items = listItems(tasks);
      const last = items[items.length - 1];
      const hand = `- [ ] Call hk-${tag} the vendor`;
      const lines = tasks.split("\n");
      lines.splice(last ? last.endLine : lines.length, 0, hand);
      write(dir, TASKS, lines.join("\n"));
      expect(`hk-${tag}`, TASKS);
      // 3. MCP-style writes through the core: a new item, and a status change.
      const vault = new NodeVault(dir);
      await vault.process(TASKS, (cur) => {
        return addTrackerItem(
          cur,
          "tasks",
          { text: `Review mk-${tag} the numbers`, fields: [["created", DATE]] },
          { agent: AGENT, title: "Tasks", createdAt: DATE },
          TASKS,
          ids,
        ).text;
      });
      expect(`mk-${tag}`, TASKS);
      const openNow = listItems(read(dir, TASKS)).filter(
        (i) => i.status === "open" && i.id && tokenOf(i.text),
      );
      const close = pick(openNow);
      if (close?.id) {
        const id = close.id;
        await vault.process(TASKS, (cur) => {
          if (cur === null) return null;
          const done = setItemStatus(cur, id, "done", TASKS, DATE);
          return done.ok ? done.value.text : cur;
        });
        const e = expected.get(tokenOf(close.text) ?? "");
        if (e) e.done = true;
        result.ticks++;
      }
      git(dir, "add", "-A");
      git(dir, "commit", "-q", "-m", `work ${tag}`);
    };

    const sync = (dir: string, push: boolean): void => {
      result.pulls++;
      const args = ["pull", "-q", options.mode === "rebase" ? "--rebase" : "--no-rebase"];
      if (!tryGit(dir, ...args, "origin", "main")) {
        result.pullsStopped++;
        detail(`pull stopped in ${relative(root, dir)}: ${git(dir, "status", "--short").trim()}`);
        mustCli("git", "resolve", dir);
        const cont =
          options.mode === "rebase" ? ["rebase", "--continue"] : ["commit", "-q", "--no-edit"];
        for (let n = 0; n < 50 && !tryGit(dir, ...cont); n++) mustCli("git", "resolve", dir);
      }
      if (push) git(dir, "push", "-q", "origin", "main");
    };

    for (let r = 0; r < options.rounds; r++) {
      for (let c = 0; c < clones.length; c++) await work(c, r);
      for (const dir of clones) sync(dir, true);
    }
    for (const dir of clones) sync(dir, false);

    // The end: every clone the same, every item once, in its state, with its edits.
    const snapshot = (dir: string): string =>
      git(dir, "ls-files", "-z")
        .split("\0")
        .filter(Boolean)
        .sort()
        .map((p) => `${p}\n${read(dir, p)}`)
        .join("\0");
    const first = clones[0] ?? "";
    const want = snapshot(first);
    result.identical = clones.every((dir) => snapshot(dir) === want);
    if (!result.identical) detail("the clones differ");
    for (const dir of clones)
      for (const p of git(dir, "ls-files", "-z").split("\0").filter(Boolean))
        if (p.endsWith(".md") && hasConflictMarkers(read(dir, p))) {
          result.conflictMarkers++;
          detail(`conflict markers in ${relative(root, dir)}/${p}`);
        }
    const notes = new Map<string, string>([
      [TASKS, read(first, TASKS)],
      [QUESTIONS, read(first, QUESTIONS)],
    ]);
    const byId = new Map<string, Set<string>>();
    for (const [path, text] of notes)
      for (const item of listItems(text)) {
        const token = tokenOf(item.text);
        if (!item.id || !token) continue;
        const key = `${path}#${item.id}`;
        byId.set(key, (byId.get(key) ?? new Set()).add(token));
      }
    for (const [key, tokens] of byId)
      if (tokens.size > 1) {
        result.idCollisions++;
        detail(`id ${key} names ${[...tokens].join(", ")}`);
      }
    for (const e of expected.values()) {
      const text = notes.get(e.path) ?? "";
      const found = listItems(text).filter((i) => tokenOf(i.text) === e.token);
      if (found.length === 0) {
        result.itemsLost++;
        detail(`lost ${e.token} in ${e.path}`);
        continue;
      }
      if (found.length > 1) {
        result.itemsDoubled++;
        detail(`${found.length} lines of ${e.token} in ${e.path}`);
      }
      const item = found[0];
      if (!item) continue;
      if (e.path === TASKS && (item.status === "done") !== e.done) {
        result.wrongStates++;
        detail(`${e.token} is ${item.status}, expected ${e.done ? "done" : "open"}`);
      }
      const lines = text.split("\n").slice(item.line, item.endLine).join("\n");
      for (const mark of e.edits)
        if (!lines.includes(mark)) {
          result.editsLost++;
          detail(`edit ${mark} of ${e.token} lost`);
        }
    }
    const topic = `Memory/Agents/${AGENT}/Knowledge/learning/Build.md`;
    const current = listTopicEntries(read(first, topic)).filter(
      (e) => e.kind === "insight" && /build takes/.test(e.text) && !isSuperseded(e.fields),
    );
    if (current.length !== 1) {
      result.wrongStates += Math.max(1, current.length - 1);
      detail(`${current.length} current facts "the build takes" in ${topic}`);
    }
    const health = cli("health", first, "--json");
    try {
      const report = JSON.parse(health.stdout) as { errors: { rule?: string; path?: string }[] };
      result.healthErrors = report.errors.length;
      for (const e of report.errors.slice(0, 5)) detail(`health: ${JSON.stringify(e)}`);
    } catch {
      throw new Error(`agent-memory health ${first}: ${health.stderr.trim()}`);
    }
    return result;
  } finally {
    result.seconds = (performance.now() - started) / 1000;
    if (!options.keep) rmSync(root, { recursive: true, force: true });
  }
}
