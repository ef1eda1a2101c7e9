// The merge driver through real git (docs/sync.md, "Git"): two clones of one vault repository,
// offline edits on both, `git pull` with merge and with rebase, and `git resolve` for a clone
// without the driver. Git runs with GIT_CONFIG_NOSYSTEM and a HOME of its own; names and emails
// are set in each test repository only.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { hasConflictMarkers } from "../../src/core/markdown/conflict-markers";
import { listItems } from "../../src/core/trackers/format";
import { CLI_PATH, cliRun } from "../helpers/cli-run";

const TASKS = "Memory/Agents/link/Trackers/Tasks.md";
let root = "";
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = "";
});

function env(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    GIT_CONFIG_NOSYSTEM: "1",
    HOME: join(root, "home"),
    GIT_TERMINAL_PROMPT: "0",
  };
}
function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, env: env(), encoding: "utf8", stdio: "pipe" });
}
function tryGit(cwd: string, ...args: string[]): boolean {
  try {
    git(cwd, ...args);
    return true;
  } catch {
    return false;
  }
}
function clone(name: string, setup: boolean): string {
  const dir = join(root, name);
  git(root, "clone", "-q", join(root, "origin.git"), name);
  git(dir, "config", "user.name", name);
  git(dir, "config", "user.email", `${name}@example.test`);
  if (setup) {
    const r = cliRun("git", "setup", dir);
    expect(r.code, r.stderr).toBe(0);
  }
  return dir;
}
const read = (dir: string, p: string) => readFileSync(join(dir, p), "utf8");
const write = (dir: string, p: string, text: string) => {
  mkdirSync(join(dir, p, ".."), { recursive: true });
  writeFileSync(join(dir, p), text);
};

function start(): void {
  root = mkdtempSync(join(tmpdir(), "am-git-"));
  mkdirSync(join(root, "home"));
  git(root, "init", "-q", "--bare", "-b", "main", "origin.git");
  const seed = join(root, "seed");
  git(root, "init", "-q", "-b", "main", "seed");
  git(seed, "config", "user.name", "seed");
  git(seed, "config", "user.email", "seed@example.test");
  write(
    seed,
    TASKS,
    "# Tasks\n\n- [ ] Send the draft [created:: 2026-11-27] ^t-001\n- [ ] Other ^t-002\n",
  );
  expect(cliRun("git", "setup", seed).code).toBe(0);
  git(seed, "add", "-A");
  git(seed, "commit", "-q", "-m", "seed");
  git(seed, "remote", "add", "origin", join(root, "origin.git"));
  git(seed, "push", "-q", "origin", "main");
}

describe("agent-memory git", () => {
  it("setup writes .gitignore, .gitattributes and the driver in the clone's config, idempotently", () => {
    start();
    const a = clone("a", true);
    expect(read(a, ".gitignore").split("\n")).toContain(".agent-memory/");
    expect(read(a, ".gitattributes")).toContain("Memory/**/*.md merge=agent-memory");
    expect(git(a, "config", "--local", "--get", "merge.agent-memory.driver")).toContain(
      `${CLI_PATH}' git merge-driver %O %A %B %P`,
    );
    const before = [read(a, ".gitignore"), read(a, ".gitattributes")];
    expect(cliRun("git", "setup", a).stdout).toContain("nothing changed");
    expect([read(a, ".gitignore"), read(a, ".gitattributes")]).toEqual(before);
  });

  for (const mode of ["merge", "rebase"] as const) {
    it(`a tick on one side and an edit on the other give one line, done, with the edit (pull --${mode})`, () => {
      start();
      const a = clone("a", true);
      const b = clone("b", true);
      write(
        a,
        TASKS,
        read(a, TASKS).replace(
          "- [ ] Send the draft [created:: 2026-11-27]",
          "- [x] Send the draft [created:: 2026-11-27] [completion:: 2026-12-01]",
        ),
      );
      git(a, "commit", "-qam", "tick");
      git(a, "push", "-q", "origin", "main");
      write(
        b,
        TASKS,
        read(b, TASKS)
          .replace("Send the draft", "Send the signed draft")
          .replace("^t-002\n", "^t-002\n- [ ] New on b ^t-k3f9x2m7qa\n"),
      );
      git(b, "commit", "-qam", "edit");
      expect(
        tryGit(b, "pull", "-q", mode === "rebase" ? "--rebase" : "--no-rebase", "origin", "main"),
      ).toBe(true);
      const text = read(b, TASKS);
      expect(hasConflictMarkers(text)).toBe(false);
      expect(listItems(text).map((i) => [i.id, i.status, i.text])).toEqual([
        ["t-001", "done", "Send the signed draft"],
        ["t-002", "open", "Other"],
        ["t-k3f9x2m7qa", "open", "New on b"],
      ]);
    });
  }

  it("without the driver the pull stops; git resolve settles it from the index stages", () => {
    start();
    const a = clone("a", true);
    const b = clone("b", false);
    git(b, "config", "merge.agent-memory.driver", "false");
    write(a, TASKS, read(a, TASKS).replace("- [ ] Send", "- [x] Send"));
    git(a, "commit", "-qam", "tick");
    git(a, "push", "-q", "origin", "main");
    write(b, TASKS, read(b, TASKS).replace("Send the draft", "Send the signed draft"));
    git(b, "commit", "-qam", "edit");
    expect(tryGit(b, "pull", "-q", "--no-rebase", "origin", "main")).toBe(false);
    const r = cliRun("git", "resolve", b);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`resolved ${TASKS}`);
    const text = read(b, TASKS);
    expect(hasConflictMarkers(text)).toBe(false);
    expect(listItems(text)[0]).toMatchObject({ status: "done", text: "Send the signed draft" });
    expect(git(b, "ls-files", "-u")).toBe("");
  });

  it("resolve outside a git repository: one line saying so, exit 2, nothing written", () => {
    root = mkdtempSync(join(tmpdir(), "am-git-"));
    const vault = join(root, "v");
    write(vault, TASKS, "# Tasks\n\n- [ ] One ^t-001\n");
    const r = cliRun("git", "resolve", vault);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `agent-memory git resolve: ${vault} is not in a git repository: nothing to resolve\n`,
    );
    expect(read(vault, TASKS)).toBe("# Tasks\n\n- [ ] One ^t-001\n");
  });
});
