/** `health` (docs/mcp.md, "Tools"): the health check, without the isolated zones this server may not reach. */
import { runHealthCheck, toHealthJson } from "../../core/health";
import { today as todayOf } from "../../core/util/dates";
import { READ, defineTool } from "./common";

export const health = defineTool({
  name: "health",
  title: "Health check",
  description:
    "Health check of the memory: errors and warnings per note (missing fields, broken links, stale notes, due reviews).",
  input: {},
  hints: READ,
  async run(_args, deps) {
    const { ctx, access } = deps;
    const nowMs = deps.now();
    const report = toHealthJson(
      await runHealthCheck(ctx.vault, ctx.layout, ctx.settings, { today: todayOf(nowMs), nowMs }),
    );
    // Problems of isolated zones this server may not reach are not shown (their paths say too much).
    const shown = (p: { path: string }) => access.zoneAllowed(ctx.layout.zoneOf(p.path));
    const data = {
      ...report,
      errors: report.errors.filter(shown),
      warnings: report.warnings.filter(shown),
    };
    const lines = [
      `${data.checked} notes checked, ${data.compliant} compliant (${Math.round(data.compliance * 100)}%); ${data.errors.length} errors, ${data.warnings.length} warnings`,
    ];
    for (const p of [
      ...data.errors.map((e) => ({ ...e, s: "error" })),
      ...data.warnings.map((w) => ({ ...w, s: "warning" })),
    ].slice(0, 40)) {
      lines.push(`- ${p.s} ${p.rule} ${p.path}${p.line ? `:${p.line}` : ""}: ${p.message}`);
    }
    return { text: lines.join("\n"), data };
  },
});
