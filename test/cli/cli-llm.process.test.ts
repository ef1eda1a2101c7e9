// `extract` with a language model, through the built CLI and the real SDK path against a local
// OpenAI-compatible stub server (environment variables, report, errors;
// docs/architecture.md, "The CLI contract").
import { spawn } from "node:child_process";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startStubServer, type StubServer } from "../helpers/llm-stub-server";
import { tempVault } from "../helpers/temp-vault";

const root = fileURLToPath(new URL("../..", import.meta.url));
const cli = join(root, "dist", "cli.js");
const J = "Memory/Agents/link/Journal/2026-11-24.md";
const KEY = "sk-test-do-not-leak-1234";
const journal =
  "# 2026-11-24\n\n## Pages\n\nWe agreed to retire every post under 50 visits a month.\n\n- [ ] Renew passport\n";
const settings = JSON.stringify({ llm: { maxRetries: 0, timeoutMs: 3000 } });

let server: StubServer;
beforeEach(async () => {
  server = await startStubServer({ fallback: { items: [] } });
});
let cleanup: (() => void) | null = null;
afterEach(async () => {
  cleanup?.();
  cleanup = null;
  await server.close();
});

/** Runs the CLI without blocking the event loop (the stub server lives in this process). */
function cliRun(
  env: Record<string, string>,
  ...args: string[]
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], {
      env: { ...process.env, OPENAI_BASE_URL: "", OPENAI_API_KEY: "", ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

function setup() {
  const t = tempVault({ [J]: journal, ".obsidian/plugins/agent-memory/data.json": settings });
  cleanup = t.cleanup;
  return t;
}

function mtimes(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => `${join(e.parentPath, e.name)}:${statSync(join(e.parentPath, e.name)).mtimeMs}`)
    .sort();
}

const env = () => ({
  AGENT_MEMORY_LLM_BASE_URL: server.baseUrl,
  AGENT_MEMORY_LLM_API_KEY: KEY,
  AGENT_MEMORY_LLM_MODEL: "test-model",
});

describe("extract with a language model (CLI)", () => {
  it("uses the model when the environment names a server, merges explicit conventions, and never prints the key", async () => {
    const t = setup();
    server.enqueue({
      items: [
        {
          category: "decision",
          text: "Retire posts under 50 visits a month",
          evidence: "We agreed to retire every post under 50 visits a month.",
          confidence: 0.8,
          topic: "Content pruning",
        },
      ],
    });
    const r = await cliRun(env(), "extract", t.root, J, "--json");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as {
      extractor: string;
      items: { category: string; text: string }[];
      usage: { calls: number; promptTokens: number };
    };
    expect(report.extractor).toBe("openai");
    expect(report.items.map((i) => i.category).sort()).toEqual(["decision", "decision", "task"]);
    expect(report.usage.calls).toBe(server.chatRequests().length);
    expect(report.usage.promptTokens).toBeGreaterThan(0);
    const sent = server.chatRequests().at(-1);
    expect(JSON.stringify(sent?.headers)).toContain(KEY);
    expect(r.stdout).not.toContain(KEY);
    expect(
      readFileSync(join(t.root, "Memory/Agents/link/Trackers/Decisions.md"), "utf8"),
    ).toContain("Retire posts under 50 visits a month");
  });

  it("a failing server exits 2 with one line naming it and what to check, and writes nothing", async () => {
    const t = setup();
    await server.close();
    server = await startStubServer({
      fallback: { status: 500, body: { error: { message: "boom" } } },
    });
    const before = mtimes(t.root);
    const r = await cliRun(env(), "extract", t.root, J);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("127.0.0.1");
    expect(r.stderr).not.toContain(KEY);
    expect(mtimes(t.root)).toEqual(before);
  });

  it("a base URL with credentials exits 2 before any request, naming the problem without the credentials", async () => {
    const t = setup();
    const before = mtimes(t.root);
    const url = server.baseUrl.replace("http://", "http://user:secret@");
    const ways: Record<string, string>[] = [
      { AGENT_MEMORY_LLM_BASE_URL: url },
      { AGENT_MEMORY_LLM_BASE_URL: "", OPENAI_BASE_URL: url },
    ];
    for (const vars of ways) {
      const r = await cliRun({ ...env(), ...vars }, "extract", t.root, J);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toMatch(
        /BASE_URL has credentials in it .*put the key in AGENT_MEMORY_LLM_API_KEY/,
      );
      expect(r.stderr).not.toMatch(/secret|user:/);
      expect(r.stdout).not.toMatch(/secret|user:/);
      expect(r.stderr).not.toMatch(/could not connect|server is running/);
    }
    expect(server.requests).toHaveLength(0);
    expect(mtimes(t.root)).toEqual(before);
  });

  it("a base URL with another scheme, or not a URL, exits 2 saying so before any request", async () => {
    const t = setup();
    for (const [url, reason] of [
      [
        server.baseUrl.replace("http://", "ftp://"),
        /AGENT_MEMORY_LLM_BASE_URL does not start with http:\/\/ or https:\/\/ \(it has ftp:\/\/\)/,
      ],
      ["127.0.0.1 /v1", /AGENT_MEMORY_LLM_BASE_URL is not a URL/],
    ] as const) {
      const r = await cliRun({ ...env(), AGENT_MEMORY_LLM_BASE_URL: url }, "extract", t.root, J);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toMatch(reason);
    }
    expect(server.requests).toHaveLength(0);
  });

  it("--timeout and AGENT_MEMORY_LLM_TIMEOUT_MS set the model timeout, and the wait is shown on stderr", async () => {
    const t = setup();
    const before = mtimes(t.root);
    server.enqueue({ hang: true }, { hang: true });
    const flag = await cliRun(env(), "extract", t.root, J, "--timeout", "0.4s");
    expect(flag.code).toBe(2);
    const lines = flag.stderr.trim().split("\n");
    expect(lines.at(-1)).toMatch(/timed out after 400 ms after 1 attempt/);
    // At least one progress line: its timer is due before the timeout's (more on a quiet machine).
    expect(lines.slice(0, -1).length).toBeGreaterThanOrEqual(1);
    for (const l of lines.slice(0, -1))
      expect(l).toMatch(
        /^waiting for model test-model at http:\/\/127\.0\.0\.1:\d+\/v1: \d\.\d s \(attempt 1 of 1, timeout 0\.4 s\)$/,
      );
    const byEnv = await cliRun(
      { ...env(), AGENT_MEMORY_LLM_TIMEOUT_MS: "300" },
      "extract",
      t.root,
      J,
    );
    expect(byEnv.code).toBe(2);
    expect(byEnv.stderr).toMatch(/timed out after 300 ms/);
    expect(mtimes(t.root)).toEqual(before);
    for (const [vars, args, reason] of [
      [
        {},
        ["--timeout", "soon"],
        /--timeout must be a time from 1 ms to 1 hour, such as 90s, 1500ms, 2m or 90000 \(milliseconds\), not "soon"/,
      ],
      [{ AGENT_MEMORY_LLM_TIMEOUT_MS: "-5" }, [], /AGENT_MEMORY_LLM_TIMEOUT_MS must be a time/],
    ] as const) {
      const r = await cliRun({ ...env(), ...vars }, "extract", t.root, J, ...args);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toMatch(reason);
    }
  });

  it("a 200 reply that is an HTML page exits 2 asking whether the base URL is right", async () => {
    const t = setup();
    server.enqueue({
      raw: {
        contentType: "text/html",
        text: "<!doctype html><html><body>Open WebUI</body></html>",
      },
    });
    const r = await cliRun(env(), "extract", t.root, J);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(
      /the server answered with HTML, not a chat completion — is the base URL right\?/,
    );
  });

  it("--llm openai with no server configured is a usage error", async () => {
    const t = setup();
    const r = await cliRun(
      { AGENT_MEMORY_LLM_BASE_URL: "", AGENT_MEMORY_LLM_API_KEY: "" },
      "extract",
      t.root,
      J,
      "--llm",
      "openai",
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/AGENT_MEMORY_LLM_BASE_URL/);
  });
});
