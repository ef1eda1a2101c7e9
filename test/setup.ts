// Shared test setup: the time zone is TZ when set, UTC otherwise (vitest.config.ts; .ci/run runs the suite again under Asia/Shanghai).
process.env.TZ = process.env.TZ || "UTC";
// No test's hook starts a server that outlives it (docs/agents.md, "A server started for you");
// the tests of that start turn it back on for themselves (test/serve/autoserve.process.test.ts).
process.env.AGENT_MEMORY_AUTOSERVE = "off";
