// Shared test setup: the time zone is TZ when set, UTC otherwise (vitest.config.ts; .ci/run runs the suite again under Asia/Shanghai).
process.env.TZ = process.env.TZ || "UTC";
