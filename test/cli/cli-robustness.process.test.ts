// The built CLI as shells and package managers run it (docs/architecture.md, "The CLI contract"):
// started through symlinks (`npx`, `npm link`), piped into `head`, and given bad usage, which must
// cost one line of stderr.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { tempVault } from "../helpers/temp-vault";

const root = fileURLToPath(new URL("../..", import.meta.url));
const cli = join(root, "dist", "cli.js");
const env = {
  ...process.env,
  AGENT_MEMORY_LLM_BASE_URL: "",
  AGENT_MEMORY_LLM_API_KEY: "",
  OPENAI_BASE_URL: "",
  OPENAI_API_KEY: "",
  AGENT_MEMORY_DEBUG: "",
};

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** A vault with an (empty) memory root, which every command but init requires. */
function vault(files: Record<string, string> = {}) {
  const t = tempVault(files);
  mkdirSync(join(t.root, "Memory"), { recursive: true });
  cleanups.push(t.cleanup);
  return t;
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "am-cli-bin-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function run(script: string, ...args: string[]) {
  const res = spawnSync(process.execPath, [script, ...args], { encoding: "utf8", env });
  return { code: res.status, stdout: res.stdout, stderr: res.stderr };
}

describe("the CLI started through a symlink or another name", () => {
  it("runs through an absolute symlink named agent-memory (npm link, a link in ~/bin)", () => {
    const t = vault();
    const bin = tempDir();
    symlinkSync(cli, join(bin, "agent-memory"));
    const r = run(join(bin, "agent-memory"), "health", t.root, "--date", "2026-06-01");
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(/^0 notes checked on 2026-06-01/);
    expect(r.code).toBe(0);
  });

  it("runs through a relative node_modules/.bin link, as npx does", () => {
    const t = vault();
    const project = tempDir();
    const binDir = join(project, "node_modules", ".bin");
    mkdirSync(binDir, { recursive: true });
    symlinkSync(relative(binDir, cli), join(binDir, "agent-memory"));
    const bad = run(join(binDir, "agent-memory"), "health", t.root, "extra");
    // Before, the entry check skipped main(): nothing printed and exit 0.
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^agent-memory health: wrong number of arguments/);
  });

  it("runs as `node dist/cli` without the extension", () => {
    const r = run(cli.replace(/\.js$/, ""), "--help");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("agent-memory health <vault>");
  });
});

describe("piping the CLI into head", () => {
  it("a reader that closes early (EPIPE) ends quietly with the command's own exit code", () => {
    // 1500 notes without frontmatter: ~180 KB of findings, more than a pipe buffer (64 KB) holds,
    // so the writes after `head` exits must fail with EPIPE. A real shell pipe, as users type it.
    const files: Record<string, string> = {};
    for (let i = 0; i < 1500; i++)
      files[`Memory/Agents/a/Knowledge/learning/n${i}.md`] = `# note ${i}\n`;
    const t = vault(files);
    const script = '"$0" "$1" health "$2" --date 2026-06-01 | head -n 1; exit "${PIPESTATUS[0]}"';
    const r = spawnSync("bash", ["-c", script, process.execPath, cli, t.root], {
      encoding: "utf8",
      env,
    });
    expect(r.stdout).toBe(
      "1500 notes checked on 2026-06-01: compliance 0.0% (0 without errors), 1500 errors, 0 warnings\n",
    );
    expect(r.stderr).toBe("");
    // Health found errors: 1, as without the pipe (an uncaught EPIPE also exits 1, with a stack trace).
    expect(r.status).toBe(1);
  }, 30_000);
});

describe("every error on stderr is one line", () => {
  it("an unknown option names it with the usage on the same line", () => {
    const t = vault();
    const r = run(cli, "extract", t.root, "j.md", "--bogus");
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      "agent-memory extract: unknown option '--bogus' (usage: agent-memory extract <vault> <journal> [--agent NAME] [--llm offline|openai] [--timeout T] [--dry-run] [--force] [--json])\n",
    );
  });

  it("bad values, counts, commands and library messages are flattened to one line", () => {
    const t = vault({
      "Memory/Agents/ada/Trackers/Reviews.md":
        "# Reviews\n\n- [ ] Weekly [every:: weekly] [next:: 2026-05-25] ^r-001\n",
    });
    const cases: [string[], RegExp][] = [
      [
        ["search", t.root, "q", "--limit"],
        /^agent-memory search: option '--limit <value>' argument missing \(usage: agent-memory search /,
      ],
      [
        ["search", t.root, "q", "--limit", "--json"],
        /^agent-memory search: option '--limit' argument is ambiguous\. Did you forget/,
      ],
      [
        ["health", t.root, "--json=yes"],
        /^agent-memory health: option '--json' does not take an argument \(usage: /,
      ],
      [["health", t.root, "-x"], /^agent-memory health: unknown option '-x' \(usage: /],
      [
        ["health"],
        /^agent-memory health: wrong number of arguments \(usage: agent-memory health <vault>/,
      ],
      [
        ["frobnicate", t.root],
        /^agent-memory: unknown command "frobnicate" \(commands: .*health.*; see agent-memory --help\)$/,
      ],
      [
        ["review", t.root, "finish", "ada", "r-001"],
        /^agent-memory review: the action must be "start" or "done", got "finish"$/,
      ],
      [
        ["review", t.root, "done", "ada", "r-999"],
        /^agent-memory review: no review \^r-999 in Memory\/Agents\/ada\/Trackers\/Reviews\.md \(reviews there: \^r-001\)$/,
      ],
      [
        ["review", t.root, "done", "nobody", "r-001"],
        /^agent-memory review: unknown agent "nobody" \(known agents: ada\)$/,
      ],
      [["health", join(t.root, "missing")], /^agent-memory health: vault folder not found: /],
    ];
    for (const [argv, expected] of cases) {
      const r = run(cli, ...argv);
      expect({ argv, code: r.code }).toEqual({ argv, code: 2 });
      expect(r.stderr.endsWith("\n")).toBe(true);
      expect(r.stderr.slice(0, -1)).toMatch(expected);
      expect(r.stderr.slice(0, -1)).not.toContain("\n");
      expect(r.stderr).not.toMatch(/review: review:/);
    }
  });

  it("a settings file that is not JSON is reported on one line", () => {
    const t = vault({ ".obsidian/plugins/agent-memory/data.json": '{\n  "memoryRoot": \n' });
    const r = run(cli, "health", t.root);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^agent-memory health: settings file is not valid JSON: [^\n]*data\.json: [^\n]+\n$/,
    );
  });
});
