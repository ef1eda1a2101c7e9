// A read-only hook that finds no server starts one for the next hooks, which stops when idle
// (docs/agents.md, "A server started for you"; src/serve/autostart.ts). Every server a test
// starts is stopped in afterEach, by the process id the start leaves in `.agent-memory/`.
import { execFile, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildCli, cliPath, serverEnv } from "../helpers/mcp-client";
import { tempVault } from "../helpers/temp-vault";
import { AUTOSERVE_MARK_VAULT_PATH, RETRY_AFTER_MS } from "../../src/serve/autostart";

beforeAll(() => buildCli(), 120_000);

const SHELL_HOOK = fileURLToPath(new URL("../../hooks/claude-code-hook.sh", import.meta.url));

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const notes: Record<string, string> = {
  "Memory/Library/Ops/Deploys.md":
    "---\ntype: knowledge\n---\n# Deploys\n\nThe canary deploy runs before the fleet deploy.\n",
  "Memory/Agents/claude/Journal/2026-06-01.md": "# 2026-06-01\n\nWorked on the canary deploy.\n",
};

/** Whether process `pid` is alive. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits for `cond` to hold, checking every 100 ms, up to 60 s (an event, never a duration). */
async function until(cond: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A vault the hooks have run on (its `.agent-memory/` exists); servers started in it are stopped. */
function vault() {
  const t = tempVault(notes);
  mkdirSync(join(t.root, ".agent-memory"));
  cleanups.push(t.cleanup);
  cleanups.push(async () => {
    const pid = startedPid(t.root);
    if (pid === null) return;
    if (alive(pid)) process.kill(pid, "SIGTERM");
    await until(() => !alive(pid), `server ${pid} to stop`);
  });
  return t;
}

/** The process id the last start wrote, or `null` when none was started. */
function startedPid(root: string): number | null {
  const mark = join(root, ...AUTOSERVE_MARK_VAULT_PATH.split("/"));
  if (!existsSync(mark)) return null;
  const pid = Number(readFileSync(mark, "utf8").trim());
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

/** Runs a Claude Code hook as the plugin does when no server answers: the launcher, event on stdin. */
function hook(root: string, env: Record<string, string>, event: object): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [cliPath, "hook", "claude-code", "--vault", root, "--agent", "claude"],
      { env: { ...serverEnv(), ...env }, encoding: "utf8" },
      (err, stdout) => (err ? reject(new Error(err.message)) : resolve(stdout)),
    );
    child.stdin?.end(JSON.stringify(event));
  });
}

const prompt = {
  hook_event_name: "UserPromptSubmit",
  session_id: "s1",
  prompt: "how does the canary deploy run?",
};
const ON = { AGENT_MEMORY_AUTOSERVE: "", AGENT_MEMORY_AUTOSERVE_IDLE_SECONDS: "2" };

describe("a hook starts a server for the next hooks", () => {
  it("starts one after answering, the next hook is served, and it stops once idle", async () => {
    const t = vault();
    const first = await hook(t.root, ON, prompt);
    expect(first).toContain("canary deploy");
    const sock = join(t.root, ".agent-memory", "serve.sock");
    await until(() => existsSync(sock), "the started server's socket");
    const pid = startedPid(t.root);
    expect(pid).not.toBeNull();
    // The next hook is answered by that server, with the same passages.
    expect(await hook(t.root, ON, prompt)).toBe(first);
    await until(() => !alive(pid!), "the idle server to stop");
    const log = readFileSync(join(t.root, ".agent-memory", "serve.log"), "utf8");
    expect(log).toMatch(/no request for 2 s; stopping \(--idle-exit\)/);
    expect(log).toMatch(/stopped after 1 search\b/);
    expect(existsSync(sock)).toBe(false);
  });

  it("after a server is killed (kill -9, sockets left), the plugin's shell hook starts a new one", async () => {
    const t = vault();
    await hook(t.root, ON, prompt);
    const sock = join(t.root, ".agent-memory", "serve.sock");
    const hookSock = join(t.root, ".agent-memory", "hook.sock");
    await until(() => existsSync(hookSock) && existsSync(sock), "the started server's sockets");
    const killed = startedPid(t.root)!;
    process.kill(killed, "SIGKILL");
    await until(() => !alive(killed), "the killed server to go");
    expect(existsSync(hookSock)).toBe(true);
    // Past the retry wait, as after a reboot.
    const old = (Date.now() - RETRY_AFTER_MS - 5_000) / 1000;
    utimesSync(join(t.root, ...AUTOSERVE_MARK_VAULT_PATH.split("/")), old, old);
    const bin = mkdtempSync(join(tmpdir(), "am-bin-"));
    cleanups.push(() => rmSync(bin, { recursive: true, force: true }));
    writeFileSync(
      join(bin, "agent-memory"),
      `#!/bin/sh\nexec "${process.execPath}" "${cliPath}" "$@"\n`,
      { mode: 0o755 },
    );
    const out = spawnSync("/bin/sh", [SHELL_HOOK], {
      input: JSON.stringify(prompt),
      encoding: "utf8",
      env: {
        ...serverEnv(),
        ...ON,
        AGENT_MEMORY_VAULT: t.root,
        AGENT_MEMORY_AGENT: "claude",
        PATH: `${bin}:${process.env.PATH ?? ""}`,
      },
    });
    expect(out.status).toBe(0);
    expect(out.stdout).toContain("canary deploy");
    await until(() => startedPid(t.root) !== killed, "a new server's start");
    const next = startedPid(t.root)!;
    await until(() => alive(next) && existsSync(hookSock), "the new server");
  });

  it("a server already answering is asked, and no second one is started", async () => {
    const t = vault();
    await hook(t.root, ON, prompt);
    await until(() => existsSync(join(t.root, ".agent-memory", "serve.sock")), "the socket");
    const pid = startedPid(t.root);
    // Past the retry wait, a hook that is answered by the server starts nothing.
    const old = (Date.now() - RETRY_AFTER_MS - 5_000) / 1000;
    utimesSync(join(t.root, ...AUTOSERVE_MARK_VAULT_PATH.split("/")), old, old);
    await hook(t.root, { ...ON, AGENT_MEMORY_AUTOSERVE_IDLE_SECONDS: "60" }, prompt);
    expect(startedPid(t.root)).toBe(pid);
  });

  it.each([
    ["AGENT_MEMORY_AUTOSERVE=off", { AGENT_MEMORY_AUTOSERVE: "off" }],
    ["AGENT_MEMORY_SERVER=off", { AGENT_MEMORY_AUTOSERVE: "", AGENT_MEMORY_SERVER: "off" }],
  ])("%s: the hook answers and starts nothing", async (_name, env) => {
    const t = vault();
    expect(await hook(t.root, env, prompt)).toContain("canary deploy");
    const files = readdirSync(join(t.root, ".agent-memory"));
    expect(files).not.toContain("serve.started");
    expect(files).not.toContain("serve.log");
  });

  it("a write hook (Stop) starts nothing: only the hooks a server answers do", async () => {
    const t = vault();
    await hook(t.root, ON, { hook_event_name: "Stop", session_id: "s1", transcript_path: "/none" });
    expect(startedPid(t.root)).toBeNull();
  });

  it("a folder that is not a vault gets nothing: no .agent-memory/ is made, no server started", async () => {
    const t = tempVault({ "notes.md": "# Not a vault\n" });
    cleanups.push(t.cleanup);
    await hook(t.root, ON, {
      hook_event_name: "SessionStart",
      session_id: "s1",
      source: "startup",
    });
    expect(readdirSync(t.root)).toEqual(["notes.md"]);
  });

  it("a .agent-memory/ that links out of the vault: nothing is written through the link", async () => {
    const t = tempVault(notes);
    cleanups.push(t.cleanup);
    const outside = mkdtempSync(join(tmpdir(), "am-outside-"));
    cleanups.push(() => rmSync(outside, { recursive: true, force: true }));
    symlinkSync(outside, join(t.root, ".agent-memory"));
    await hook(t.root, { ...ON, AGENT_MEMORY_SERVER_TIMEOUT_MS: "2000" }, prompt);
    expect(readdirSync(outside).filter((f) => f.startsWith("serve."))).toEqual([]);
  });
});
