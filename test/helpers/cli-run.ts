// The built CLI as a user runs it, for CLI tests: dist/cli.js (built once per run by
// test/global-setup.ts) spawned with no language model configured.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The built CLI. */
export const CLI_PATH = join(fileURLToPath(new URL("../..", import.meta.url)), "dist", "cli.js");

/** The test process's environment with every language-model variable emptied (offline extraction). */
export function offlineEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    AGENT_MEMORY_LLM_BASE_URL: "",
    AGENT_MEMORY_LLM_API_KEY: "",
    OPENAI_BASE_URL: "",
    OPENAI_API_KEY: "",
    AGENT_MEMORY_EMBEDDINGS_BASE_URL: "",
    AGENT_MEMORY_EMBEDDINGS_MODEL: "",
    AGENT_MEMORY_EMBEDDINGS_API_KEY: "",
  };
}

/** Runs `node dist/cli.js …args` to its end; returns its exit code and output. */
export function cliRun(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const res = spawnSync(process.execPath, [CLI_PATH, ...args], {
    encoding: "utf8",
    env: offlineEnv(),
  });
  return { code: res.status, stdout: res.stdout, stderr: res.stderr };
}

/** {@link cliRun} with `input` on stdin and extra environment variables. */
export function cliRunWith(
  options: { input?: string; env?: NodeJS.ProcessEnv; cwd?: string },
  ...args: string[]
): { code: number | null; stdout: string; stderr: string } {
  const res = spawnSync(process.execPath, [CLI_PATH, ...args], {
    encoding: "utf8",
    env: { ...offlineEnv(), ...options.env },
    input: options.input ?? "",
    ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
  });
  return { code: res.status, stdout: res.stdout, stderr: res.stderr };
}
