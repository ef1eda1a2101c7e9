/**
 * `agent-memory health <vault> [--json] [--date YYYY-MM-DD]` (DESIGN §7, issue 6 §2): the health
 * check as text grouped by rule, or JSON `{checked, compliant, compliance, errors, warnings}`.
 * Exit 1 when errors exist. Never writes.
 */
import type { CliCommand } from "../command";
import { UsageError } from "../../core/errors";
import { isIsoDate, localDate, renderHealthText, runHealthCheck, toHealthJson } from "../../core/health";

/** Reads `--date`, default the local date today. Throws {@link UsageError} for a bad date. */
export function todayOption(value: unknown): string {
  if (value === undefined) return localDate(new Date());
  if (typeof value !== "string" || !isIsoDate(value)) throw new UsageError(`--date must be a date YYYY-MM-DD, got ${JSON.stringify(value)}`);
  return value;
}

export const healthCommand: CliCommand = {
  name: "health",
  usage: "health <vault> [--json] [--date YYYY-MM-DD]",
  options: { date: { type: "string" } },
  positionals: { min: 0, max: 0 },
  async run(ctx, _args, options) {
    const today = todayOption(options.date);
    const report = await runHealthCheck(ctx.vault, ctx.layout, ctx.settings, { today });
    if (options.json) ctx.out(JSON.stringify(toHealthJson(report), null, 2));
    else ctx.out(renderHealthText(report));
    return report.errors.length > 0 ? 1 : 0;
  },
};
