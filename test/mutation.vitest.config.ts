// The suite as `npm run mutation` runs it (stryker.config.json, docs/testing.md "Mutation
// testing"): the `unit` project's files (vitest.config.ts) except the lint test. Stryker turns a
// mutant on inside the test process, so the `process` files, which only drive another process —
// the built CLI, the MCP server, the plugin bundle, the expiry probe, workers — cannot kill one;
// they would only slow the initial run and time out under its load.
import { configDefaults, defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";
import base, { PROCESS_TESTS } from "../vitest.config";

const { projects: _projects, ...shared } = base.test ?? {};

export default defineConfig({
  root: fileURLToPath(new URL("..", import.meta.url)),
  resolve: base.resolve,
  test: {
    ...shared,
    include: ["test/**/*.test.ts"],
    exclude: [...configDefaults.exclude, PROCESS_TESTS, "test/core/core-boundary.test.ts"],
  },
});
