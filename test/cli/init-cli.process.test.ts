// `agent-memory init`: several agents at once, and, in a git repository, a .gitignore that keeps
// per-clone state out of git (docs/sync.md, "Git").
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cliRun } from "../helpers/cli-run";
import { tempVault } from "../helpers/temp-vault";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function vault(files: Record<string, string> = {}) {
  const t = tempVault({ "Memory/.keep.md": "", ...files });
  cleanups.push(t.cleanup);
  return t;
}

/** A vault in a git repository of its own (git with no user or system config). */
function gitVault(files: Record<string, string> = {}) {
  const t = vault(files);
  const home = mkdtempSync(join(tmpdir(), "am-init-home-"));
  cleanups.push(() => rmSync(home, { recursive: true, force: true }));
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: "1", HOME: home };
  execFileSync("git", ["init", "-q", t.root], { env, stdio: "pipe" });
  return t;
}

describe("agent-memory init", () => {
  it("creates every agent named by --agent, not only the last", () => {
    const t = vault();
    const r = cliRun("init", t.root, "--agent", "a1", "--agent", "a2", "--agent", "a3", "--json");
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout) as { agents: string[]; created: string[] };
    expect(json.agents).toEqual(["a1", "a2", "a3"]);
    for (const a of ["a1", "a2", "a3"]) {
      expect(existsSync(join(t.root, `Memory/Agents/${a}/Trackers/Tasks.md`)), a).toBe(true);
      expect(json.created).toContain(`Memory/Agents/${a}/Trackers/Decisions.md`);
    }
    const text = cliRun("init", t.root, "--agent", "a1", "--agent", "a2").stdout;
    expect(text).toContain('agent "a1"');
    expect(text).toContain('agent "a2"');
  });

  it("a bad name among several writes nothing at all", () => {
    const t = vault();
    const r = cliRun("init", t.root, "--agent", "ok", "--agent", "a/b");
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/invalid agent name: a\/b/);
    expect(readdirSync(join(t.root, "Memory"))).toEqual([".keep.md"]);
    expect(existsSync(join(t.root, ".gitignore"))).toBe(false);
  });

  it("outside a git repository writes no .gitignore and says so", () => {
    const t = vault();
    const r = cliRun("init", t.root, "--agent", "a1");
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(t.root, ".gitignore"))).toBe(false);
    expect(existsSync(join(t.root, ".gitattributes"))).toBe(false);
    expect(r.stdout).toContain(
      `  not in a git repository: no .gitignore or .gitattributes written (run \`agent-memory git setup ${t.root}\` once it is)`,
    );
    expect(r.stdout).not.toMatch(/wrote/);
    const json = JSON.parse(cliRun("init", t.root, "--agent", "a2", "--json").stdout) as {
      created: string[];
    };
    expect(json.created).not.toContain(".gitignore");
  });

  it("in a git repository writes a .gitignore keeping .agent-memory/ out, once", () => {
    const t = gitVault();
    expect(cliRun("init", t.root, "--agent", "a1").code).toBe(0);
    const ignore = readFileSync(join(t.root, ".gitignore"), "utf8");
    expect(ignore.split("\n")).toContain(".agent-memory/");
    const again = cliRun("init", t.root, "--agent", "a1", "--json");
    expect((JSON.parse(again.stdout) as { created: string[] }).created).toEqual([]);
    expect(readFileSync(join(t.root, ".gitignore"), "utf8")).toBe(ignore);
  });

  it("keeps an existing .gitignore's lines byte for byte and adds only what is missing", () => {
    const before = "node_modules/\r\n# mine  \r\n*.log";
    const t = gitVault({ ".gitignore": before });
    expect(cliRun("init", t.root, "--agent", "a1").code).toBe(0);
    const after = readFileSync(join(t.root, ".gitignore"), "utf8");
    expect(after.startsWith(`${before}\r\n`)).toBe(true);
    expect(after.slice(before.length).split("\r\n")).toContain(".agent-memory/");
    const has = gitVault({ ".gitignore": "x\n.agent-memory/\n" });
    expect(cliRun("init", has.root, "--agent", "a1").code).toBe(0);
    expect(readFileSync(join(has.root, ".gitignore"), "utf8")).toBe("x\n.agent-memory/\n");
  });

  it("on a git repository says what it set up: .gitignore, .gitattributes and the driver", () => {
    const t = gitVault();
    const r = cliRun("init", t.root, "--agent", "a1");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split("\n").filter((l) => /^ {2}(wrote|registered)/.test(l))).toEqual([
      "  wrote .gitignore (keeps .agent-memory/ out of git)",
      "  wrote .gitattributes (routes the memory notes to the agent-memory merge driver)",
      `  registered the agent-memory merge driver in ${t.root}'s git config`,
    ]);
    const again = cliRun("init", t.root, "--agent", "a1");
    expect(again.stdout).not.toMatch(/wrote|registered/);
  });
});
