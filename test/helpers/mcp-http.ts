// The built `dist/cli.js mcp <vault> --http 127.0.0.1:0` as a process on a free port, and tokens
// made with the built CLI (docs/testing.md, "How the suite is organised"); the clients are in
// ./mcp-http-client.ts.
import { spawn, type ChildProcess } from "node:child_process";
import { cliPath, pollUntil, serverEnv } from "./mcp-client";
import { cliRun } from "./cli-run";

/** A running HTTP server: its `/mcp` URL, what it logged so far, and how to stop it. */
export interface HttpServerProcess {
  url: string;
  port: number;
  proc: ChildProcess;
  stderr: () => string;
  /** Sends `signal` and resolves with the exit code. */
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
}

/**
 * Starts `agent-memory mcp <vault> --http 127.0.0.1:0 …args` and waits for its URL in the log;
 * `env` is added to {@link serverEnv}.
 */
export async function startHttpMcp(
  vault: string,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<HttpServerProcess> {
  const proc = spawn(process.execPath, [cliPath, "mcp", vault, "--http", "127.0.0.1:0", ...args], {
    env: { ...serverEnv(), ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let err = "";
  proc.stderr?.on("data", (chunk: Buffer) => (err += chunk.toString("utf8")));
  const exited = new Promise<number | null>((resolve) => proc.once("exit", (c) => resolve(c)));
  const url = await pollUntil(
    () => {
      if (proc.exitCode !== null) throw new Error(`the server exited: ${err}`);
      return Promise.resolve(/listening on (http:\/\/\S+\/mcp)/.exec(err)?.[1]);
    },
    1200,
    25,
  );
  return {
    url,
    port: Number(new URL(url).port),
    proc,
    stderr: () => err,
    stop: (signal = "SIGTERM") => {
      if (proc.exitCode === null) proc.kill(signal);
      return exited;
    },
  };
}

/** `agent-memory token add <vault> …args --json`: the new token's id and secret. */
export function addTokenCli(vault: string, ...args: string[]): { id: string; token: string } {
  const r = cliRun("token", "add", vault, ...args, "--json");
  if (r.code !== 0) throw new Error(`token add failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as { id: string; token: string };
}
