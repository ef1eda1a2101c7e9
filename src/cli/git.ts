/**
 * `agent-memory git …` (docs/sync.md, "Git"): the git plumbing around the pure merge rules of
 * `src/core/sync/merge.ts`.
 * - `git setup <vault>`: `.gitignore` (keeping `.agent-memory/` out), `.gitattributes` routing the
 *   memory notes to the driver, and the driver registered in the clone's own git config
 *   (`merge.agent-memory.driver`); running it again changes nothing.
 * - `git merge-driver %O %A %B %P`: what git runs for each memory note both sides changed; writes
 *   the merge into %A and exits 0, never leaving conflict markers.
 * - `git resolve <vault>`: for a clone without the driver (a merge that stopped), resolves every
 *   conflicted memory note from git's index stages with the same rules and stages it.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import * as nodePath from "node:path";
import { parseArgs } from "node:util";
import { mergeNote } from "../core/sync/merge";
import { noteShape } from "../core/sync/reconcile";
import {
  GITIGNORE_LINES,
  MERGE_DRIVER_NAME,
  gitattributesLines,
  withLines,
} from "../core/sync/setup-files";
import { openVault, type CliContext } from "../node/context";
import { oneLine } from "../node/one-line";
import { argsReason, emptyVaultLine, jsonRefusedLine } from "./usage-lines";
import type { MemoryLayout } from "../core/layout";

interface Io {
  out: (line: string) => void;
  err: (line: string) => void;
  env: NodeJS.ProcessEnv;
}

/** The `git` sub-commands' usage, `|`-separated (listed in `agent-memory --help`). */
export const GIT_USAGE =
  "git setup <vault> | git resolve <vault> | git merge-driver <base> <ours> <theirs> <path>";

/**
 * Runs `agent-memory git <sub> …`; returns the exit code (2: bad usage, one line on stderr).
 * `setup` and `resolve` read their arguments as the other commands do (src/cli/main.ts): `--help`
 * prints their usage, `--json` is refused (they print no JSON), an unknown option, a wrong number
 * of arguments or an empty vault is named. `merge-driver` takes git's four paths as they come.
 */
export async function runGit(argv: readonly string[], io: Io): Promise<number> {
  const [sub, ...rest] = argv;
  const fail = (line: string): number => {
    io.err(oneLine(line));
    return 2;
  };
  if (sub === "--help" || sub === "-h" || sub === "help") {
    io.out(`usage: agent-memory ${GIT_USAGE}`);
    return 0;
  }
  const form = GIT_USAGE.split(" | ").find((u) => u.startsWith(`git ${sub} `));
  if (sub === undefined || form === undefined)
    return fail(
      `agent-memory git: ${sub === undefined ? "" : `unknown git command "${sub}"; `}usage: agent-memory ${GIT_USAGE}`,
    );
  const name = `git ${sub}`;
  const usageHint = `(usage: agent-memory ${form})`;
  let args = rest;
  if (sub !== "merge-driver") {
    let parsed;
    try {
      parsed = parseArgs({
        args: [...rest],
        allowPositionals: true,
        strict: true,
        options: { json: { type: "boolean" }, help: { type: "boolean", short: "h" } },
      });
    } catch (err) {
      return fail(`agent-memory ${name}: ${argsReason(err)} ${usageHint}`);
    }
    if (parsed.values.help) {
      io.out(`usage: agent-memory ${form}`);
      return 0;
    }
    if (parsed.values.json) return fail(jsonRefusedLine(name, usageHint));
    args = parsed.positionals;
    if (args[0] === "") return fail(emptyVaultLine(name, usageHint));
  }
  if (args.length !== (sub === "merge-driver" ? 4 : 1))
    return fail(`agent-memory ${name}: wrong number of arguments ${usageHint}`);
  try {
    if (sub === "setup") return await setup(args[0] ?? "", io);
    if (sub === "resolve") return await resolve(args[0] ?? "", io);
    return await driver(args, io);
  } catch (err) {
    return fail(`agent-memory ${name}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function git(cwd: string, args: string[], env: NodeJS.ProcessEnv): string {
  return execFileSync("git", args, {
    cwd,
    env,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** True when `dir` is inside a git work tree. */
export function isGitWorkTree(dir: string, env: NodeJS.ProcessEnv): boolean {
  try {
    return git(dir, ["rev-parse", "--is-inside-work-tree"], env).trim() === "true";
  } catch {
    return false;
  }
}

/** The command git runs for the driver: this very CLI, by absolute path. */
function driverCommand(): string {
  const cli = process.argv[1] ?? "agent-memory";
  const q = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
  return `${q(process.execPath)} ${q(nodePath.resolve(cli))} git merge-driver %O %A %B %P`;
}

/**
 * Writes `.gitignore` and `.gitattributes` in the vault and registers the driver in the clone's
 * git config (`git config --local`). Shared with `init` on a git repository.
 * @returns the files written (vault paths) and whether the config changed.
 */
export async function setupGit(
  ctx: CliContext,
  env: NodeJS.ProcessEnv,
): Promise<{ written: string[]; configured: boolean }> {
  const written: string[] = [];
  if (
    await ctx.vault.process(".gitignore", (c) =>
      withLines(c, GITIGNORE_LINES, "# Agent Memory: per-clone state (docs/sync.md)"),
    )
  )
    written.push(".gitignore");
  const root = ctx.layout.settings.memoryRoot;
  if (
    await ctx.vault.process(".gitattributes", (c) =>
      withLines(c, gitattributesLines(root), "# Agent Memory: merge driver (docs/sync.md)"),
    )
  )
    written.push(".gitattributes");
  const key = `merge.${MERGE_DRIVER_NAME}.driver`;
  const want = driverCommand();
  let have = "";
  try {
    have = git(ctx.vaultRoot, ["config", "--local", "--get", key], env).trim();
  } catch {
    have = "";
  }
  if (have === want) return { written, configured: false };
  git(
    ctx.vaultRoot,
    ["config", "--local", `merge.${MERGE_DRIVER_NAME}.name`, "Agent Memory notes"],
    env,
  );
  git(ctx.vaultRoot, ["config", "--local", key, want], env);
  return { written, configured: true };
}

async function setup(vaultArg: string, io: Io): Promise<number> {
  const ctx = await openVault(vaultArg, io);
  if (!isGitWorkTree(ctx.vaultRoot, io.env))
    throw new Error(`${ctx.vaultRoot} is not in a git repository (run git init first)`);
  const done = await setupGit(ctx, io.env);
  for (const line of describeGitSetup(done, ctx.vaultRoot)) io.out(line);
  if (!done.written.length && !done.configured) io.out("git is already set up; nothing changed");
  return 0;
}

/**
 * What {@link setupGit} did, one line each, for `git setup` and `init`: `.gitignore` (what it keeps
 * out), `.gitattributes` (what it routes to the driver), the driver registered in the clone's git
 * config. Nothing when it changed nothing.
 */
export function describeGitSetup(
  done: { written: string[]; configured: boolean },
  vaultRoot: string,
): string[] {
  const lines: string[] = [];
  if (done.written.includes(".gitignore"))
    lines.push("wrote .gitignore (keeps .agent-memory/ out of git)");
  if (done.written.includes(".gitattributes"))
    lines.push("wrote .gitattributes (routes the memory notes to the agent-memory merge driver)");
  if (done.configured)
    lines.push(`registered the agent-memory merge driver in ${vaultRoot}'s git config`);
  return lines;
}

async function driver(args: string[], io: Io): Promise<number> {
  const [basePath = "", oursPath = "", theirsPath = "", notePath = ""] = args;
  const read = (p: string): string | null => {
    try {
      return readFileSync(p, "utf8");
    } catch {
      return null;
    }
  };
  let layout: MemoryLayout | null = null;
  try {
    layout = (await openVault(".", { ...io, out: () => {}, err: () => {} })).layout;
  } catch {
    layout = null;
  }
  const merged = mergeNote(
    read(basePath),
    read(oursPath) ?? "",
    read(theirsPath) ?? "",
    noteShape(layout, notePath.replace(/\\/g, "/")),
  );
  writeFileSync(oursPath, merged.text, "utf8");
  for (const c of merged.choices)
    io.err(
      `agent-memory: ${notePath}: ${c.where} ${c.what}: kept "${c.kept}" over "${c.setAside}"`,
    );
  return 0;
}

async function resolve(vaultArg: string, io: Io): Promise<number> {
  const ctx = await openVault(vaultArg, io);
  if (!isGitWorkTree(ctx.vaultRoot, io.env))
    throw new Error(`${ctx.vaultRoot} is not in a git repository: nothing to resolve`);
  const top = git(ctx.vaultRoot, ["rev-parse", "--show-toplevel"], io.env).trim();
  const lines = git(top, ["ls-files", "-u", "-z"], io.env).split("\0").filter(Boolean);
  const stages = new Map<string, Set<number>>();
  for (const l of lines) {
    const m = /^\d+ [0-9a-f]+ (\d)\t(.*)$/s.exec(l);
    if (!m?.[2]) continue;
    const set = stages.get(m[2]) ?? new Set<number>();
    set.add(Number(m[1]));
    stages.set(m[2], set);
  }
  const prefix = nodePath.relative(top, ctx.vaultRoot).split(nodePath.sep).join("/");
  let resolved = 0;
  for (const [repoPath, have] of stages) {
    const vaultPath = prefix ? repoPath.slice(prefix.length + 1) : repoPath;
    if ((prefix && !repoPath.startsWith(`${prefix}/`)) || !ctx.layout.isInside(vaultPath)) continue;
    if (!vaultPath.toLowerCase().endsWith(".md")) continue;
    const show = (n: number): string | null =>
      have.has(n) ? git(top, ["show", `:${n}:${repoPath}`], io.env) : null;
    const merged = mergeNote(
      show(1),
      show(2) ?? "",
      show(3) ?? "",
      noteShape(ctx.layout, vaultPath),
    );
    await ctx.vault.process(vaultPath, () => merged.text);
    git(top, ["add", "--", repoPath], io.env);
    io.out(`resolved ${vaultPath}`);
    for (const c of merged.choices)
      io.out(`  ${c.where} ${c.what}: kept "${c.kept}" over "${c.setAside}"`);
    resolved++;
  }
  if (!resolved) io.out("no conflicted memory note");
  return 0;
}
