// The Claude Code plugin in the repository (docs/agents.md, "Claude Code: the plugin"): its
// files, its hook command lines as Claude Code runs them (through a shell, `agent-memory` on
// PATH), and the CLI it needs, installed from the tarball `npm pack` makes.
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { CLI_PATH, cliRun, offlineEnv } from "../helpers/cli-run";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const read = (path: string): unknown => JSON.parse(readFileSync(join(ROOT, path), "utf8"));

interface HookEntry {
  hooks: { type: string; command: string; timeout?: number }[];
}

const pkg = read("package.json") as { version: string };
const plugin = read(".claude-plugin/plugin.json") as { name: string; version: string };
const market = read(".claude-plugin/marketplace.json") as {
  name: string;
  owner: { name: string };
  plugins: { name: string; source: string; version?: string }[];
};
const hooks = (read("hooks/hooks.json") as { hooks: Record<string, HookEntry[]> }).hooks;
const mcp = read(".mcp.json") as {
  mcpServers: Record<string, { command: string; args: string[] }>;
};

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

function temp(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

describe("the plugin's files", () => {
  it("name one plugin, at the repository's root, at the package's version", () => {
    expect(plugin.name).toBe("agent-memory");
    expect(plugin.version).toBe(pkg.version);
    expect(market.owner.name).not.toBe("");
    expect(market.plugins).toEqual([
      expect.objectContaining({ name: plugin.name, source: "./", version: pkg.version }),
    ]);
  });

  it("hook the events of the loop: the ones that read through the shell hook, the others through agent-memory hook", () => {
    expect(Object.keys(hooks).sort()).toEqual([
      "PreCompact",
      "SessionEnd",
      "SessionStart",
      "Stop",
      "UserPromptSubmit",
    ]);
    for (const [event, entries] of Object.entries(hooks)) {
      expect(entries, event).toHaveLength(1);
      const [h] = entries[0]!.hooks;
      expect(h!.type).toBe("command");
      if (event === "SessionStart" || event === "UserPromptSubmit")
        expect(h!.command).toBe('sh "${CLAUDE_PLUGIN_ROOT}/hooks/claude-code-hook.sh"');
      else
        expect(h!.command).toMatch(
          /^agent-memory hook claude-code --vault "\$AGENT_MEMORY_VAULT" --agent /,
        );
      expect(h!.timeout).toBeGreaterThan(0);
    }
    expect(mcp.mcpServers["agent-memory"]).toEqual({
      command: "agent-memory",
      args: ["mcp", "${AGENT_MEMORY_VAULT}", "--agent", "${AGENT_MEMORY_AGENT:-claude}"],
    });
  });
});

describe("the hook command lines, run as Claude Code runs them", () => {
  /** A folder with an `agent-memory` on PATH that runs the built CLI. */
  function shim(): string {
    const bin = temp("am-bin-");
    const file = join(bin, "agent-memory");
    writeFileSync(file, `#!/bin/sh\nexec "${process.execPath}" "${CLI_PATH}" "$@"\n`);
    chmodSync(file, 0o755);
    return bin;
  }

  const run = (command: string, input: unknown, env: NodeJS.ProcessEnv) =>
    spawnSync("/bin/sh", ["-c", command], { input: JSON.stringify(input), encoding: "utf8", env });

  it("give the brief at SessionStart with the vault and agent from the environment", () => {
    const vault = temp("am-plugin-");
    expect(cliRun("init", vault, "--agent", "claude").code).toBe(0);
    const env: NodeJS.ProcessEnv = {
      ...offlineEnv(),
      PATH: `${shim()}:${process.env.PATH ?? ""}`,
      AGENT_MEMORY_VAULT: vault,
      // Set by Claude Code for a plugin's hooks: the installed plugin's folder.
      CLAUDE_PLUGIN_ROOT: ROOT,
    };
    delete env.AGENT_MEMORY_AGENT;
    const r = run(
      hooks.SessionStart![0]!.hooks[0]!.command,
      { hook_event_name: "SessionStart", source: "startup" },
      env,
    );
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      hookSpecificOutput: { hookEventName: "SessionStart" },
    });
  });

  it("take `~/…` in AGENT_MEMORY_VAULT as the home folder, set where no shell expands it", () => {
    const home = temp("am-home-");
    const vault = join(home, "vault");
    expect(cliRun("init", vault, "--agent", "claude").code).toBe(0);
    const env: NodeJS.ProcessEnv = {
      ...offlineEnv(),
      PATH: `${shim()}:${process.env.PATH ?? ""}`,
      HOME: home,
      // As Claude Code's "env" setting passes it: the literal `~`, no shell in between.
      AGENT_MEMORY_VAULT: "~/vault",
      AGENT_MEMORY_SERVER: "off",
      CLAUDE_PLUGIN_ROOT: ROOT,
    };
    const cwd = temp("am-cwd-");
    const start = spawnSync("/bin/sh", ["-c", hooks.SessionStart![0]!.hooks[0]!.command], {
      input: JSON.stringify({ hook_event_name: "SessionStart", source: "startup" }),
      encoding: "utf8",
      env,
      cwd,
    });
    expect(start.stderr).toBe("");
    expect(JSON.parse(start.stdout)).toMatchObject({
      hookSpecificOutput: { hookEventName: "SessionStart" },
    });
    // The Stop hook names the vault as `--vault "$AGENT_MEMORY_VAULT"`: the CLI expands it.
    const transcript = join(cwd, "session.jsonl");
    writeFileSync(
      transcript,
      `${JSON.stringify({ type: "user", sessionId: "s1", timestamp: "2026-12-01T10:00:00Z", message: { role: "user", content: "Ship the upload step" } })}\n`,
    );
    const stop = spawnSync("/bin/sh", ["-c", hooks.Stop![0]!.hooks[0]!.command], {
      input: JSON.stringify({ hook_event_name: "Stop", transcript_path: transcript }),
      encoding: "utf8",
      env,
      cwd,
    });
    expect(stop.stderr).not.toContain("vault folder not found");
    expect(stop.status).toBe(0);
    const journals = readdirSync(join(vault, "Memory", "Agents", "claude", "Journal"));
    expect(journals.some((f) => f.endsWith(".md"))).toBe(true);
    expect(readdirSync(cwd)).toEqual(["session.jsonl"]);
  });

  it("exit 0 with one line when AGENT_MEMORY_VAULT is not set", () => {
    const env: NodeJS.ProcessEnv = { ...offlineEnv(), PATH: `${shim()}:${process.env.PATH ?? ""}` };
    delete env.AGENT_MEMORY_VAULT;
    const r = run(
      hooks.Stop![0]!.hooks[0]!.command,
      { hook_event_name: "Stop", transcript_path: "/x" },
      env,
    );
    expect(r.status).toBe(0);
    expect(r.stderr.trim()).toBe(
      'agent-memory hook: --vault is empty (given as "$AGENT_MEMORY_VAULT"? that variable is unset or empty)',
    );
  });
});

describe("the CLI the plugin finds on PATH", () => {
  it("installs from the tarball npm pack makes, into a fresh prefix, and runs", () => {
    const out = temp("am-pack-");
    const pack = spawnSync("npm", ["pack", "--pack-destination", out, "--silent"], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(pack.status, pack.stderr).toBe(0);
    const tarball = readdirSync(out).find((f) => f.endsWith(".tgz"));
    expect(tarball).toBeDefined();
    const prefix = join(out, "prefix");
    mkdirSync(prefix);
    const install = spawnSync(
      "npm",
      [
        "install",
        "--global",
        "--prefix",
        prefix,
        "--prefer-offline",
        "--no-audit",
        "--no-fund",
        join(out, tarball!),
      ],
      { encoding: "utf8" },
    );
    expect(install.status, install.stderr).toBe(0);
    const help = spawnSync(join(prefix, "bin", "agent-memory"), ["--help"], {
      encoding: "utf8",
      env: offlineEnv(),
    });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("agent-memory hook claude-code|codex");
    expect(help.stdout).toContain("agent-memory ingest");
    // A hook that no server answers runs the hooks' bundle, the second time from the code cache
    // the first wrote beside it (docs/decisions.md, "The hooks' bundle runs from a code cache").
    const vault = join(out, "vault");
    const init = spawnSync(join(prefix, "bin", "agent-memory"), ["init", vault, "--agent", "a"], {
      encoding: "utf8",
      env: offlineEnv(),
    });
    expect(init.status, init.stderr).toBe(0);
    const start = () =>
      spawnSync(
        join(prefix, "bin", "agent-memory"),
        ["hook", "claude-code", "--vault", vault, "--agent", "a"],
        {
          encoding: "utf8",
          env: { ...offlineEnv(), AGENT_MEMORY_SERVER: "off" },
          input: JSON.stringify({ hook_event_name: "SessionStart", source: "startup" }),
        },
      );
    const first = start();
    expect(first.stderr).toBe("");
    expect(first.stdout).toContain("# Session brief: a");
    const dist = join(prefix, "lib", "node_modules", "agent-memory", "dist");
    expect(readdirSync(dist)).toContain("hook-main.cjs.cache");
    expect(start()).toMatchObject({ status: 0, stdout: first.stdout, stderr: "" });
  }, 600_000);
});
