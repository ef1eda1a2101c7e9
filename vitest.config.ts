import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

/**
 * Two projects (docs/testing.md, "Two projects: unit and process"): `unit`, the files that spawn
 * nothing (no child process, no worker thread, no server over stdio), fast enough to run at every
 * change; `process`, the files named `*.process.test.ts`, which spawn the built CLI, the MCP server,
 * git or workers, and need dist/cli.js built once first (test/global-setup.ts).
 * test/unit-spawns-nothing.test.ts fails when a `unit` file spawns.
 */
export const PROCESS_TESTS = "test/**/*.process.test.ts";

export default defineConfig({
  resolve: {
    alias: {
      obsidian: fileURLToPath(new URL("./test/stubs/obsidian.ts", import.meta.url)),
    },
  },
  test: {
    setupFiles: ["test/setup.ts"],
    // The host's zone when TZ is set (.ci/run runs the suite again under Asia/Shanghai so that a
    // UTC-only assumption fails there), UTC otherwise.
    env: { TZ: process.env.TZ || "UTC" },
    // Generous: a test's time is never what it asserts, and the suite must pass on a busy machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["test/**/*.test.ts"], exclude: [PROCESS_TESTS] },
      },
      {
        extends: true,
        test: {
          name: "process",
          include: [PROCESS_TESTS],
          // dist/cli.js is built once before the files run (CLI, MCP and stress tests spawn it).
          globalSetup: ["test/global-setup.ts"],
        },
      },
    ],
  },
});
