// Builds the CLI bundles once before any test file runs (vitest globalSetup). Tests that spawn
// dist/cli.js (CLI, MCP, stress) used to build it each in its own beforeAll, so one file's build
// could land while another file's processes were starting; now there is one build per run.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export default function setup(): void {
  const root = fileURLToPath(new URL("..", import.meta.url));
  execFileSync(process.execPath, ["esbuild.config.mjs", "cli"], { cwd: root, stdio: "pipe" });
}
