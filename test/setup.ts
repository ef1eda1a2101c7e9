// Shared test setup: the time zone is TZ when set (vitest.config.ts), UTC otherwise (STYLE: Tests).
process.env.TZ = process.env.TZ || "UTC";
