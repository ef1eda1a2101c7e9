// The suite as `npm run mutation` runs it (stryker.config.json, docs/testing.md "Mutation
// testing"): every test file except those that only drive another process — the built CLI, the MCP
// server, the plugin bundle, the expiry probe — or lint. Stryker turns a mutant on inside the test
// process, so those files cannot kill one; they would only slow the initial run and time out under
// its load.
import { configDefaults, defineConfig, mergeConfig } from "vitest/config";
import { fileURLToPath } from "node:url";
import base from "../vitest.config";

export default mergeConfig(
  base,
  defineConfig({
    root: fileURLToPath(new URL("..", import.meta.url)),
    test: {
      exclude: [
        ...configDefaults.exclude,
        "test/*-cli.test.ts",
        "test/cli*.test.ts",
        "test/mcp-*.test.ts",
        "test/serve/serve.process.test.ts",
        "test/obsidian/bundle.process.test.ts",
        "test/core/health/expiry-time-zone.process.test.ts",
        "test/node/write-stress.process.test.ts",
        "test/core/core-boundary.test.ts",
      ],
    },
  }),
);
