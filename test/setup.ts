// Shared test setup: time zone fixed to UTC (STYLE: Tests).
process.env.TZ = "UTC";
