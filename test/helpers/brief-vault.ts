// The sample vault after extraction, for the session brief tests
// (test/core/brief/brief.process.test.ts, test/cli/brief-cli.process.test.ts): the built CLI
// (dist/cli.js) extracts every journal of the agents asked for, as a user would.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sampleVaultCopy } from "./temp-vault";

export const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
export const cliPath = join(repoRoot, "dist", "cli.js");

/** Kept for callers: dist/cli.js is built once per test run (test/global-setup.ts). */
export function buildCli(): void {
  // Built once per test run by test/global-setup.ts, so no file rebuilds it under another file's processes.
}

/** Runs the built CLI with no language model configured. */
export function runCli(
  args: string[],
  cwd?: string,
): { code: number | null; stdout: string; stderr: string } {
  const env = {
    ...process.env,
    AGENT_MEMORY_LLM_BASE_URL: "",
    AGENT_MEMORY_LLM_API_KEY: "",
    OPENAI_BASE_URL: "",
    OPENAI_API_KEY: "",
  };
  const res = spawnSync(process.execPath, [cliPath, ...args], {
    encoding: "utf8",
    env,
    ...(cwd ? { cwd } : {}),
  });
  return { code: res.status, stdout: res.stdout, stderr: res.stderr };
}

/** A copy of examples/vault with every journal of `agents` extracted (offline extractor). */
export function extractedSample(agents: string[]): ReturnType<typeof sampleVaultCopy> {
  const v = sampleVaultCopy();
  for (const agent of agents) {
    const folder = `Memory/Agents/${agent}/Journal`;
    for (const name of readdirSync(join(v.root, folder)).sort()) {
      const r = runCli(["extract", v.root, `${folder}/${name}`, "--agent", agent]);
      if (r.code !== 0) throw new Error(`extract ${folder}/${name} failed: ${r.stderr}`);
    }
  }
  return v;
}
