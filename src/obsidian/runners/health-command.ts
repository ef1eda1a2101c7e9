/**
 * "Run health check" (docs/architecture.md, "The health check"): runs the core's health check over
 * the memory, writes
 * `Health report.md` at the memory root and opens it, with the summary in a notice.
 */
import { Notice } from "obsidian";
import { localTimestamp } from "../../core/util/dates";
import { errorMessage } from "../../core/errors";
import { runHealthCheck, summaryLine, writeHealthReport } from "../../core/health";
import { layoutOf, type PluginContext } from "../context";

/** Runs the check and opens the report. Never throws; a failure ends in a notice naming it. */
export async function runHealthCommand(
  ctx: PluginContext,
  now: () => Date = () => new Date(),
): Promise<void> {
  const settings = ctx.settings();
  const layout = layoutOf(ctx);
  const progress = new Notice("Checking memory health…", 0);
  try {
    const report = await runHealthCheck(ctx.vault, layout, settings, {
      today: ctx.today(),
      nowMs: now().getTime(),
    });
    const { path } = await writeHealthReport(ctx.vault, layout, report, {
      generatedAt: localTimestamp(now()),
    });
    await ctx.app.workspace.openLinkText(path, "", false);
    new Notice(`Health check: ${summaryLine(report)}.`, 10_000);
  } catch (err) {
    new Notice(`Health check failed: ${errorMessage(err)}`, 10_000);
  } finally {
    progress.hide();
  }
}
