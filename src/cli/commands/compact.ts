/**
 * `agent-memory compact <vault> --agent A --before DATE [--dry-run] [--json]` (docs/compaction.md): weekly digests of the agent's journals for the weeks ending before DATE.
 * With a model configured in the environment (as for `extract`), a short generated summary on top.
 * Exit 0 done, 1 when a digest was refused or its summary failed, 2 on bad input (nothing written).
 */
import type { CliCommand } from "../command";
import type { CliContext } from "../../node/context";
import { UsageError } from "../../core/errors";
import {
  compactJournals,
  chatSummarizer,
  type CompactReport,
  type Summarizer,
} from "../../core/compaction";
import { createChatClient } from "../../core/llm/client";
import { redactUrl } from "../../core/url";
import { baseUrlError, llmEnv, llmTimeoutMs } from "../../node/llm-env";

/** The summarizer the environment configures (the variables `extract` reads), or `null` with why not. */
export function cliSummarizer(ctx: CliContext): { summarizer: Summarizer | null; why: string } {
  const conn = llmEnv(ctx);
  if (conn.baseUrl === "" && conn.apiKey === "")
    return {
      summarizer: null,
      why: "no LLM configured: no summary (set AGENT_MEMORY_LLM_BASE_URL and AGENT_MEMORY_LLM_MODEL for one)",
    };
  const badUrl = baseUrlError(conn);
  if (badUrl) throw badUrl;
  if (!conn.model)
    throw new UsageError(
      "a summary needs a model name: set AGENT_MEMORY_LLM_MODEL (e.g. gpt-4o-mini, qwen2.5:14b)",
    );
  const client = createChatClient({
    baseUrl: conn.baseUrl || "https://api.openai.com/v1",
    apiKey: conn.apiKey,
    model: conn.model,
    timeoutMs: llmTimeoutMs(ctx, undefined),
    maxRetries: ctx.settings.llm.maxRetries,
    fetch: (input, init) => fetch(input, init),
    responseFormat: "text",
  });
  return {
    summarizer: chatSummarizer(client, ctx.settings.llm.temperature),
    why: `summary by model ${conn.model} at ${redactUrl(conn.baseUrl) || "the OpenAI API"}`,
  };
}

export const compactCommand: CliCommand = {
  name: "compact",
  usage: "compact <vault> --agent NAME --before YYYY-MM-DD [--dry-run] [--json]",
  options: {
    agent: { type: "string" },
    before: { type: "string" },
    "dry-run": { type: "boolean" },
  },
  positionals: { min: 0, max: 0 },
  async run(ctx, _args, options) {
    if (typeof options.agent !== "string" || options.agent.trim() === "")
      throw new UsageError("compact needs --agent NAME", "--agent");
    if (typeof options.before !== "string")
      throw new UsageError(
        "compact needs --before YYYY-MM-DD: only weeks that end before that day are digested",
        "--before",
      );
    const dryRun = options["dry-run"] === true;
    const { summarizer, why } = cliSummarizer(ctx);
    const started = performance.now();
    const report = await compactJournals({
      vault: ctx.vault,
      layout: ctx.layout,
      settings: ctx.settings,
      agent: options.agent.trim(),
      before: options.before,
      dryRun,
      ...(summarizer ? { summarizer } : {}),
    });
    const tookMs = Math.round(performance.now() - started);
    if (options.json)
      ctx.out(JSON.stringify({ ...report, summarizer: why, took_ms: tookMs }, null, 2));
    else printReport(ctx, report, why, tookMs);
    return report.digests.some((d) => d.action === "refused" || d.summary === "failed") ? 1 : 0;
  },
};

function printReport(ctx: CliContext, r: CompactReport, why: string, tookMs: number): void {
  ctx.out(`compact ${r.agent}: weeks ending before ${r.before} — ${why}`);
  if (r.digests.length === 0)
    ctx.out(`  no journal in a week that ends before ${r.before}; nothing to do`);
  for (const d of r.digests) {
    const items = Object.values(d.items).reduce((a, b) => a + b, 0);
    const verb =
      d.action === "unchanged"
        ? "unchanged"
        : d.action === "refused"
          ? "refused"
          : r.dryRun
            ? `would ${d.action}`
            : d.action === "create"
              ? "created"
              : "updated";
    const summary =
      d.summary === "generated"
        ? ", summary generated"
        : d.summary === "failed"
          ? ", summary failed"
          : "";
    ctx.out(
      `  ${d.week} (${d.start} – ${d.end}) ${d.path}: ${verb}; ${d.journals.length} journal(s), ${items} item(s), ${d.notExtracted} block(s) with nothing extracted${summary}`,
    );
    if (d.reason) ctx.out(`    ${d.reason}`);
  }
  if (r.laterJournals > 0)
    ctx.out(
      `  ${r.laterJournals} journal(s) in the week of ${r.before} or later left for a later run`,
    );
  ctx.out(
    r.dryRun
      ? "  dry run: nothing written"
      : r.writes.length
        ? `  wrote ${r.writes.length} digest(s) in ${tookMs} ms; journals untouched`
        : `  nothing new to write (${tookMs} ms)`,
  );
}
