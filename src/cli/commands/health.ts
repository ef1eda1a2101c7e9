/**
 * `agent-memory health <vault> [--json] [--date YYYY-MM-DD]`
 * (docs/architecture.md, "The CLI contract" and "The health check"): the health check as text
 * grouped by rule, or JSON `{checked,
 * compliant, compliance, errors, warnings}`. Exit 1 when errors exist. Never writes.
 */
import type { CliCommand } from "../command";
import { renderHealthText, runHealthCheck, toHealthJson } from "../../core/health";
import { todayOption } from "../shared";

export const healthCommand: CliCommand = {
  name: "health",
  usage: "health <vault> [--json] [--date YYYY-MM-DD]",
  options: { date: { type: "string" } },
  positionals: { min: 0, max: 0 },
  async run(ctx, _args, options) {
    const nowMs = Date.now();
    const report = await runHealthCheck(ctx.vault, ctx.layout, ctx.settings, {
      today: todayOption(options.date, nowMs),
      nowMs,
    });
    if (options.json) ctx.out(JSON.stringify(toHealthJson(report), null, 2));
    else ctx.out(renderHealthText(report));
    return report.errors.length > 0 ? 1 : 0;
  },
};
