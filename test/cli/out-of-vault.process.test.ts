// Every CLI command and every MCP tool against a vault with a link out of the vault at each folder
// level (docs/write-safety.md, "Inside the vault: real paths"): a clean one-line refusal or a
// normal run, never a stack trace, nothing written outside the vault, a server that keeps answering.
import { spawn } from "node:child_process";
import {
  cpSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commands } from "../../src/cli/commands/registry";
import { CLI_PATH, offlineEnv } from "../helpers/cli-run";
import { startMcp, type McpSession } from "../helpers/mcp-client";

const SAMPLE = fileURLToPath(new URL("../../examples/vault", import.meta.url));
const AGENT = "Memory/Agents/link";

/** Where the link out of the vault is, one vault each; the target holds what was there. */
const LEVELS: Record<string, string> = {
  "memory root": "Memory",
  "Agents/": "Memory/Agents",
  "an agent's folder": AGENT,
  "Journal/": `${AGENT}/Journal`,
  "Trackers/": `${AGENT}/Trackers`,
  "Knowledge/": `${AGENT}/Knowledge`,
  "a note": `${AGENT}/Trackers/Tasks.md`,
};

/** Every file under `dir` (links not followed) with its bytes, for "nothing written outside". */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (abs: string, rel: string): void => {
    const st = lstatSync(abs);
    if (st.isDirectory()) {
      for (const name of readdirSync(abs).sort())
        walk(join(abs, name), rel ? `${rel}/${name}` : name);
    } else out[rel] = readFileSync(abs).toString("base64");
  };
  walk(dir, "");
  return out;
}

interface LevelVault {
  root: string;
  /** The folder (or note) outside the vault that the link points to. */
  outside: string;
  before: Record<string, string>;
  transcript: string;
}

const base = mkdtempSync(join(tmpdir(), "am-out-of-vault-"));

function levelVault(index: number, linked: string): LevelVault {
  const root = join(base, `vault-${index}`);
  cpSync(SAMPLE, root, { recursive: true });
  const outside = join(base, `outside-${index}-target`);
  renameSync(join(root, linked), outside);
  symlinkSync(outside, join(root, linked));
  const transcript = join(base, `transcript-${index}.jsonl`);
  writeFileSync(
    transcript,
    `${JSON.stringify({ type: "user", sessionId: "s1", timestamp: "2026-11-28T10:00:00Z", message: { role: "user", content: "Book the Berlin flights" } })}\n`,
  );
  const st = lstatSync(outside);
  const before = st.isDirectory()
    ? snapshot(outside)
    : { "": readFileSync(outside).toString("base64") };
  return { root, outside, before, transcript };
}

function outsideNow(v: LevelVault): Record<string, string> {
  return lstatSync(v.outside).isDirectory()
    ? snapshot(v.outside)
    : { "": readFileSync(v.outside).toString("base64") };
}

/** Typical arguments of each command after its name (the vault is `V`); default `V`. */
function argsFor(name: string, v: LevelVault): string[] {
  const V = v.root;
  const table: Record<string, string[]> = {
    init: [V, "--agent", "link"],
    extract: [V, `${AGENT}/Journal/2026-11-27.md`, "--agent", "link"],
    trackers: [V, "--agent", "link"],
    search: [V, "editorial"],
    index: [V, "--rebuild"],
    health: [V, "--date", "2026-12-01"],
    review: [V, "start", "link", "r-001", "--date", "2026-12-01"],
    migrate: [V, "--apply"],
    brief: [V, "--agent", "link", "--date", "2026-12-01"],
    "export-agents-md": [V, "--agent", "link", "--out", join(V, "AGENTS.md")],
    mcp: [V, "--agent", "link"],
    serve: [V],
    token: ["add", V, "--agent", "link"],
    promote: [V, `${AGENT}/Knowledge/team/Editorial workflow.md`, "--area", "Team", "--yes"],
    inbox: [V, "list", "--agent", "link"],
    compact: [V, "--agent", "link", "--before", "2026-11-15"],
    ingest: [V, v.transcript, "--agent", "link"],
    hook: ["claude-code", "--vault", V, "--agent", "link", "{}"],
    reconcile: [V],
  };
  return table[name] ?? [V];
}

interface Ran {
  code: number | null;
  stderr: string;
}

/**
 * Runs `node dist/cli.js …argv` with stdin closed. A long-running command (`serve`) is stopped
 * with SIGTERM once it says it listens; it then ends with its own code.
 */
function runCli(argv: string[]): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_PATH, ...argv], {
      env: offlineEnv(),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stderr = "";
    child.stdout.resume();
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
      if (/listening on /.test(stderr)) child.kill("SIGTERM");
    });
    child.stdin.end();
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code: signal ? 143 : code, stderr }));
  });
}

/** What Node prints for an uncaught error, in any line of `text`. */
function stackLines(text: string): string[] {
  return text
    .split("\n")
    .filter((l) => /^\s+at /.test(l) || /^(\w*Error|Uncaught|node:internal)/.test(l));
}

/** Valid arguments of each MCP tool (the server runs as agent `link`). */
const TOOL_ARGS: Record<string, Record<string, unknown>> = {
  brief: {},
  search: { query: "editorial" },
  read_note: { note: `${AGENT}/Trackers/Tasks.md` },
  append_journal: { text: "Checked the redirects." },
  extract: { journal: `${AGENT}/Journal/2026-11-27.md`, apply: true },
  list_trackers: {},
  add_tracker_item: { kind: "tasks", text: "Book the Berlin flights" },
  update_tracker_item: { kind: "tasks", id: "t-001", status: "done" },
  add_knowledge: { topic: "SEO audit", text: "Redirect chains cost crawl budget", confidence: 0.8 },
  health: {},
  status: {},
  inbox: {},
  answer_inbox_item: { id: "q-001", verb: "answer", text: "yes" },
  propose_promotion: { note: `${AGENT}/Knowledge/team/Editorial workflow.md`, area: "Team" },
};

const vaults = new Map<string, LevelVault>();

beforeAll(() => {
  Object.entries(LEVELS).forEach(([level, linked], i) => vaults.set(level, levelVault(i, linked)));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe.each(Object.keys(LEVELS))("a link out of the vault at %s", (level) => {
  it("every CLI command exits 0, 1 or 2 without a stack trace and writes nothing outside", async () => {
    const v = vaults.get(level)!;
    const failures: string[] = [];
    for (const command of commands) {
      const ran = await runCli([command.name, ...argsFor(command.name, v)]);
      const stack = stackLines(ran.stderr);
      if (ran.code === null || ![0, 1, 2, 143].includes(ran.code) || stack.length > 0)
        failures.push(`${command.name}: exit ${ran.code}; ${ran.stderr.trim().slice(0, 400)}`);
      if (ran.code === 2 && ran.stderr.trim() === "")
        failures.push(`${command.name}: exit 2 with nothing on stderr`);
      const now = outsideNow(v);
      if (JSON.stringify(now) !== JSON.stringify(v.before))
        failures.push(`${command.name}: changed ${v.outside}`);
    }
    expect(failures).toEqual([]);
    // 19 commands in turn on a loaded machine: a bound above the config's 60 s, not a speed target.
  }, 300_000);

  it("every MCP tool gives a result or a tool error, and the server keeps answering", async () => {
    const v = vaults.get(level)!;
    let session: McpSession;
    try {
      session = await startMcp(v.root, ["--agent", "link"]);
    } catch {
      // A server that cannot start on this vault must have said why on one line, exit 2.
      const ran = await runCli(["mcp", v.root, "--agent", "link"]);
      expect(ran.code).toBe(2);
      expect(stackLines(ran.stderr)).toEqual([]);
      return;
    }
    try {
      const { tools } = await session.client.listTools();
      const failures: string[] = [];
      for (const tool of tools) {
        const args = TOOL_ARGS[tool.name];
        if (!args) {
          failures.push(`${tool.name}: no arguments in TOOL_ARGS`);
          continue;
        }
        try {
          const r = await session.call(tool.name, args);
          if (!Array.isArray(r.content)) failures.push(`${tool.name}: no content`);
        } catch (err) {
          failures.push(`${tool.name}: ${String(err)}`);
        }
        try {
          await session.call("status", {});
        } catch (err) {
          failures.push(`after ${tool.name} the server is gone: ${String(err)}`);
          break;
        }
      }
      expect(failures).toEqual([]);
      expect(stackLines(session.stderr())).toEqual([]);
      // The server's guard against unobserved rejections keeps it alive; none should be needed.
      expect(session.stderr()).not.toMatch(/internal error, kept running/);
      expect(outsideNow(v)).toEqual(v.before);
    } finally {
      await session.close();
    }
  });
});
