/** `extract` (docs/mcp.md, "Tools"): extraction of a journal of the agent, as a plan or applied. */
import { z } from "zod";
import { UsageError } from "../../core/errors";
import { reportActionWords } from "../../core/extraction/action-words";
import { applyPlan, extractionReport, planExtraction } from "../../core/extraction/pipeline";
import { isIsoDate, today as todayOf } from "../../core/util/dates";
import { nextTurn } from "../../node/event-loop";
import { createCliExtractor } from "../../node/llm-env";
import { REPLACE, defineTool } from "./common";

export const extract = defineTool({
  name: "extract",
  title: "Extract items from a journal",
  description:
    "Extract tasks, goals, decisions, questions, knowledge… from a journal of this agent (default today's). apply false (default) returns the plan; apply true writes it.",
  input: {
    journal: z.string().optional().describe("a journal's path or date YYYY-MM-DD; default today's"),
    apply: z.boolean().optional().describe("true writes the plan; default false, plan only"),
    force: z.boolean().optional().describe("redo a journal unchanged since its last extraction"),
  },
  // Applying may close tasks and supersede entries (docs/contradictions.md): values are replaced.
  hints: REPLACE,
  async run(args, deps) {
    const { access, ctx } = deps;
    const raw = args.journal?.trim() || todayOf(deps.now());
    const path = access.writable(isIsoDate(raw) ? ctx.layout.journalPath(access.agent, raw) : raw);
    if (!(await ctx.vault.exists(path))) throw new UsageError(`no journal ${path}`);
    const { extractor, why } = createCliExtractor(ctx, undefined);
    const vault = access.writeGuarded();
    const plan = await planExtraction({
      vault,
      settings: ctx.settings,
      layout: ctx.layout,
      journalPath: path,
      agent: access.agent,
      extractor,
      force: args.force === true,
      // A cancelled call stops at the next checkpoint (docs/mcp.md, "Cancelling"); each one lets
      // the event loop run, so the cancellation (and other clients' requests) are seen.
      ...(deps.signal ? { signal: deps.signal } : {}),
      checkpoint: nextTurn,
    });
    // Items routed outside the agent's folder (none by default) are refused before anything is written.
    const inside = (p: string) => p.startsWith(`${access.writeRoot}/`);
    for (const planned of plan.items.filter((p) => !inside(p.destination))) {
      plan.rejected.push({
        reason: `${planned.destination} is outside the folder of agent ${access.agent}`,
        category: planned.item.category,
        text: planned.item.text,
        evidence: planned.item.evidence,
      });
    }
    plan.items = plan.items.filter((p) => inside(p.destination));
    const control = { ...(deps.signal ? { signal: deps.signal } : {}), checkpoint: nextTurn };
    const applied =
      args.apply === true ? await applyPlan(vault, ctx.layout, plan, undefined, control) : null;
    for (const p of applied?.writes ?? []) await deps.live.wrote(p);
    const report = extractionReport(plan, applied);
    const lines = [
      `${report.journal}: ${report.skipped ? "unchanged since the last extraction (force: true to redo)" : `${report.items.length} item(s), ${report.rejected.length} rejected`} — ${report.extractor}`,
    ];
    const words = reportActionWords(report.items);
    report.items.forEach((it, i) =>
      lines.push(`- ${it.category}: ${it.text} → ${it.destination} (${words[i] ?? ""})`),
    );
    for (const r of report.rejected)
      lines.push(`- rejected: ${r.reason}${r.text ? ` — ${r.text}` : ""}`);
    lines.push(
      applied
        ? `wrote ${report.writes.length} note(s)`
        : "plan only: call again with apply: true to write it",
    );
    return { text: lines.join("\n"), data: { ...report, extractorReason: why } };
  },
});
