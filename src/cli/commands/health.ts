/**
 * `agent-memory health <vault> [--json] [--date YYYY-MM-DD]`
 * (docs/architecture.md, "The CLI contract" and "The health check"): the health check as text
 * grouped by rule, or JSON `{checked,
 * compliant, compliance, errors, warnings}`. Exit 1 when errors exist. Never writes.
 */
import type { CliCommand } from "../command";
import { UsageError } from "../../core/errors";
import { isIsoDate, renderHealthText, runHealthCheck, toHealthJson, today } from "../../core/health";

/**
 * Reads `--date`, default {@link today} at `nowMs` (the user's local date). Throws
 * {@link UsageError} for a bad date.
 */
export function todayOption(value: unknown, nowMs: number = Date.now()): string {
  if (value === undefined) return today(nowMs);
  if (typeof value !== "string" || !isIsoDate(value)) throw new UsageError(`--date must be a date YYYY-MM-DD, got ${JSON.stringify(value)}`);
  return value;
}

export const healthCommand: CliCommand = {
  name: "health",
  usage: "health <vault> [--json] [--date YYYY-MM-DD]",
  options: { date: { type: "string" } },
  positionals: { min: 0, max: 0 },
  async run(ctx, _args, options) {
    const nowMs = Date.now();
    const report = await runHealthCheck(ctx.vault, ctx.layout, ctx.settings, { today: todayOption(options.date, nowMs), nowMs });
    if (options.json) ctx.out(JSON.stringify(toHealthJson(report), null, 2));
    else ctx.out(renderHealthText(report));
    return report.errors.length > 0 ? 1 : 0;
  },
};
