import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

export default defineConfig({
  resolve: {
    alias: {
      obsidian: fileURLToPath(new URL("./test/stubs/obsidian.ts", import.meta.url)),
    },
  },
  test: {
    include: ["test/**/*.test.ts"],
    setupFiles: ["test/setup.ts"],
    // dist/cli.js is built once before the files run (CLI, MCP and stress tests spawn it).
    globalSetup: ["test/global-setup.ts"],
    // The host's zone when TZ is set (.ci/run runs the suite again under Asia/Shanghai so that a
    // UTC-only assumption fails there), UTC otherwise.
    env: { TZ: process.env.TZ || "UTC" },
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
