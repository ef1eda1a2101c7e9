import type { CliCommand } from "../command";
import { toVaultPath, type CliContext } from "../../node/context";
import { CancelledError, UsageError } from "../../core/errors";
import { reportActionWords } from "../../core/extraction/action-words";
import {
  applyPlan,
  extractionReport,
  planExtraction,
  type Checkpoint,
  type ExtractionReport,
} from "../../core/extraction/pipeline";
import { READ_SLICE_BLOCKS } from "../../core/extraction/offline";
import { createCliExtractor } from "../../node/llm-env";
import { nextTurn } from "../../node/event-loop";
import { ctrlC, shownWrites } from "../shared";

/**
 * `agent-memory extract <vault> <journal> [--agent NAME] [--llm offline|openai] [--timeout T] [--dry-run] [--force] [--json]`
 * (docs/architecture.md, "The CLI contract"). `--timeout` is the model's per-request timeout
 * (`90s`, `1500ms`, a bare number is milliseconds), over `AGENT_MEMORY_LLM_TIMEOUT_MS` and the
 * setting. Exit 0 done, 1 when items were rejected or could not be written, 2 on bad input (nothing
 * written), 130 when Ctrl-C (SIGINT) stopped it: between notes, never inside one, with one line
 * saying how many notes were written and that running it again continues; a second Ctrl-C exits at
 * once. A run of {@link PROGRESS_ITEMS} items or more, and a journal of many blocks, say how far
 * they got on stderr.
 */
export const extractCommand: CliCommand = {
  name: "extract",
  usage:
    "extract <vault> <journal> [--agent NAME] [--llm offline|openai] [--timeout T] [--dry-run] [--force] [--json]",
  options: {
    agent: { type: "string" },
    llm: { type: "string" },
    timeout: { type: "string" },
    "dry-run": { type: "boolean" },
    force: { type: "boolean" },
  },
  positionals: { min: 1, max: 1 },
  async run(ctx, args, options) {
    const journal = toVaultPath(ctx, args[0] ?? "");
    const llm = typeof options.llm === "string" ? options.llm : undefined;
    if (llm !== undefined && llm !== "offline" && llm !== "openai")
      throw new UsageError(`--llm must be offline or openai, not "${llm}"`);
    const { extractor, why } = createCliExtractor(
      ctx,
      llm,
      typeof options.timeout === "string" ? options.timeout : undefined,
    );
    const stop = ctrlC();
    try {
      return await run(stop.signal);
    } catch (err) {
      if (!stop.signal.aborted) throw err;
      const writes = err instanceof CancelledError ? err.writes.length : 0;
      ctx.err(
        `agent-memory extract: interrupted; wrote ${writes} note(s), each complete; ${journal} is not marked as extracted, so running the same command again continues`,
      );
      return 130;
    } finally {
      stop.done();
    }

    async function run(signal: AbortSignal): Promise<number> {
      let planned = 0;
      const checkpoint: Checkpoint = async ({ phase, done, total }) => {
        if (phase === "read" && done % (READ_SLICE_BLOCKS * 10) === 0)
          ctx.err(`agent-memory extract: read ${done} of ${total} blocks`);
        if (phase === "plan" && done % PROGRESS_ITEMS === 0)
          ctx.err(`agent-memory extract: planned ${done} of ${total} items`);
        if (phase === "apply" && planned >= PROGRESS_ITEMS && done > 0)
          ctx.err(`agent-memory extract: wrote ${done} of ${total} notes`);
        // Lets the event loop run, so that Ctrl-C is seen.
        await nextTurn();
      };
      const plan = await planExtraction({
        vault: ctx.vault,
        settings: ctx.settings,
        layout: ctx.layout,
        journalPath: journal,
        ...(typeof options.agent === "string" ? { agent: options.agent } : {}),
        // An agent is created only by `init` (docs/decisions.md, "The CLI creates no agent").
        newAgent: "refuse",
        extractor,
        force: options.force === true,
        signal,
        checkpoint,
      });
      planned = plan.items.length;
      const applied = options["dry-run"]
        ? null
        : await applyPlan(ctx.vault, ctx.layout, plan, undefined, { signal, checkpoint });
      const report = extractionReport(plan, applied);
      if (options.json) ctx.out(JSON.stringify({ ...report, extractorReason: why }, null, 2));
      else printReport(ctx, report, why);
      return report.rejected.length > 0 ? 1 : 0;
    }
  },
};

/** Runs of at least this many items print a progress line on stderr every so many items. */
const PROGRESS_ITEMS = 500;

const AGENT_WHY: Record<ExtractionReport["agentReason"], string> = {
  named: "from --agent",
  "journal-folder": "the journal is in its folder",
  "default-agent": "the default agent: the journal is in no agent's folder",
};

/** The fields an item will be written with, as the plan shows them: ` (due 2026-12-04, owner ming)`. */
function itemFields(it: { due?: string; owner?: string; target?: string }): string {
  const parts = [
    it.due ? `due ${it.due}` : "",
    it.owner ? `owner ${it.owner}` : "",
    it.target ? `to ${it.target}` : "",
  ].filter(Boolean);
  return parts.length ? ` (${parts.join(", ")})` : "";
}

function printReport(ctx: CliContext, r: ExtractionReport, why: string): void {
  ctx.out(
    `${r.journal} (agent ${r.agent}: ${AGENT_WHY[r.agentReason]}) — extractor: ${r.extractor} (${why})`,
  );
  if (r.skipped) {
    ctx.out("  unchanged since the last extraction; nothing to do (use --force to extract again)");
    return;
  }
  if (r.gate.fired.length)
    ctx.out(
      `  self-check gate fired: ${r.gate.fired.join(", ")}; items ${r.gate.before} → ${r.gate.after}`,
    );
  if (r.items.length === 0) ctx.out("  no items found");
  // One item routed to several notes (a decision to the log and its topic; docs/decisions.md,
  // "Batch dedupe uses the merge rule") is one item with an arrow per note.
  const words = reportActionWords(r.items);
  r.items.forEach((it, i) => {
    const prev = r.items[i - 1];
    const same =
      prev &&
      prev.category === it.category &&
      prev.text === it.text &&
      prev.evidence === it.evidence &&
      prev.blockId === it.blockId;
    if (!same) ctx.out(`  ${it.category.padEnd(11)} ${it.text}${itemFields(it)}`);
    ctx.out(`  ${"".padEnd(11)} → ${it.destination} (${words[i] ?? ""})`);
  });
  for (const rej of r.rejected)
    ctx.out(
      `  rejected: ${rej.reason}${rej.text ? ` — ${rej.text}` : ""}${rej.evidence ? ` (evidence: "${rej.evidence}")` : ""}`,
    );
  if (!r.dryRun && r.rejected.some((rej) => rej.retry))
    ctx.out(
      "  the journal is not marked as extracted: the next run tries the rejected items again",
    );
  for (const note of r.notes) ctx.out(`  note: ${note}`);
  if (r.usage.calls > 0) {
    const cost = r.usage.costUsd !== undefined ? `, $${r.usage.costUsd.toFixed(4)}` : "";
    ctx.out(
      `  model: ${r.usage.calls} call(s), ${r.usage.promptTokens} prompt + ${r.usage.completionTokens} completion tokens, ${(r.usage.wallMs / 1000).toFixed(1)} s${cost}`,
    );
  }
  if (r.dryRun) ctx.out("  dry run: nothing written");
  else
    ctx.out(
      r.writes.length
        ? `  wrote ${r.writes.length} note(s): ${shownWrites(r.writes)}`
        : "  nothing new to write",
    );
}
