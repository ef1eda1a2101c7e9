// An MCP client on the built `dist/cli.js mcp` (docs/testing.md, "How the suite is organised"): the
// SDK's own Client and StdioClientTransport, as an agent's host would start the server.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

export const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
export const cliPath = join(repoRoot, "dist", "cli.js");

/** Kept for callers: dist/cli.js and its worker are built once per test run (test/global-setup.ts). */
export function buildCli(): void {
  // Built once per test run by test/global-setup.ts, so no file rebuilds it under another file's processes.
}

/** The environment of a spawned server: no language model, no embeddings, the test's time zone. */
export function serverEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !/^(AGENT_MEMORY_LLM_|AGENT_MEMORY_EMBEDDINGS_|OPENAI_)/.test(k))
      env[k] = v;
  return env;
}

/** A running server and its client; `stderr()` is what the server logged so far. */
export interface McpSession {
  client: Client;
  stderr: () => string;
  /** Calls a tool and returns its result (errors are results with `isError`). */
  call: (name: string, args?: Record<string, unknown>) => Promise<ToolResult>;
  close: () => Promise<void>;
}

export interface ToolResult {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
}

/** Starts `agent-memory mcp <vault> …args` and connects a client to it. */
export async function startMcp(
  vault: string,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, "mcp", vault, ...args],
    env: { ...serverEnv(), ...env },
    stderr: "pipe",
  });
  let err = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    err += chunk.toString("utf8");
  });
  const client = new Client({ name: "agent-memory-tests", version: "1.0.0" });
  await client.connect(transport);
  return {
    client,
    stderr: () => err,
    call: async (name, a = {}) => (await client.callTool({ name, arguments: a })) as ToolResult,
    close: () => client.close(),
  };
}

/** The text of a tool result's first content block. */
export function textOf(r: ToolResult): string {
  return r.content[0]?.text ?? "";
}

/**
 * Calls `probe` until it returns a value that is not `undefined`, at most `tries` times with
 * `pauseMs` between calls (a bound, not a timing assertion); throws when it never does.
 */
export async function pollUntil<T>(
  probe: () => Promise<T | undefined>,
  tries = 200,
  pauseMs = 25,
): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const v = await probe();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, pauseMs));
  }
  throw new Error(`condition not met after ${tries} tries`);
}
