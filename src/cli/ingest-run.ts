/**
 * Ingesting transcripts from the CLI (docs/agents.md, "Importing past sessions"), shared by
 * `agent-memory ingest` and `agent-memory hook`: read the files, parse them all (a file that is
 * not a transcript stops the run before anything is written), write the sessions' new turns into
 * the agent's journals, then extract from each journal written.
 */
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { UsageError, errorMessage } from "../core/errors";
import {
  applyPlan,
  extractionReport,
  planExtraction,
  type ExtractionReport,
} from "../core/extraction/pipeline";
import { ingestSessions, type IngestOutcome } from "../core/ingest/ingest";
import { parseTranscript } from "../core/ingest/parse";
import type { TranscriptFormat, TranscriptReport, TranscriptSession } from "../core/ingest/types";
import type { CliContext } from "../node/context";
import { createCliExtractor } from "../node/llm-env";

/** A transcript read from disk. */
export interface TranscriptFile {
  /** The path as given (for messages). */
  name: string;
  report: TranscriptReport;
}

/**
 * Reads and parses transcript files. Transcripts live outside the vault (`~/.claude`,
 * `~/.codex`): they are read where they are and never written (docs/decisions.md, "Ingest reads
 * transcripts where they are").
 * @throws UsageError naming the file when it cannot be read or is not a transcript
 */
export async function readTranscripts(
  ctx: Pick<CliContext, "vaultRoot">,
  paths: readonly string[],
  format: TranscriptFormat | "auto",
  cwd: string = process.cwd(),
): Promise<TranscriptFile[]> {
  const out: TranscriptFile[] = [];
  for (const p of paths) {
    let text: string;
    try {
      text = await fs.readFile(nodePath.resolve(cwd, p), "utf8");
    } catch (err) {
      throw new UsageError(`cannot read the transcript ${p}: ${errorMessage(err)}`, p);
    }
    out.push({ name: p, report: parseTranscript(text, format, p) });
  }
  return out;
}

/** What {@link ingestFiles} did. */
export interface IngestRun {
  files: { file: TranscriptFile; outcome: IngestOutcome }[];
  /** Journals written, each once. */
  written: string[];
  /** The extraction of each journal written (empty in a dry run or with `extract: false`). */
  extraction: (ExtractionReport & { extractorReason: string })[];
}

/**
 * Writes the sessions of `files` into the journals of `agent` (one locked write per session),
 * then, unless `dryRun` or `extract` is false, extracts each journal written with the CLI's
 * extractor (offline unless a model is configured).
 */
export async function ingestFiles(
  ctx: CliContext,
  files: readonly TranscriptFile[],
  options: { agent: string; dryRun: boolean; extract: boolean; now?: Date },
): Promise<IngestRun> {
  const run: IngestRun = { files: [], written: [], extraction: [] };
  for (const file of files) {
    const outcome = await ingestSessions(file.report.sessions, {
      vault: ctx.vault,
      layout: ctx.layout,
      agent: options.agent,
      now: options.now ?? new Date(),
      dryRun: options.dryRun,
    });
    run.files.push({ file, outcome });
    for (const w of outcome.written) if (!run.written.includes(w)) run.written.push(w);
  }
  if (!options.dryRun && options.extract)
    run.extraction = await extractJournals(ctx, run.written, options.agent);
  return run;
}

/** Extracts each journal with the CLI's extractor (offline unless a model is configured). */
export async function extractJournals(
  ctx: CliContext,
  journals: readonly string[],
  agent: string,
): Promise<IngestRun["extraction"]> {
  if (journals.length === 0) return [];
  const { extractor, why } = createCliExtractor(ctx, undefined);
  const out: IngestRun["extraction"] = [];
  for (const journalPath of journals) {
    const plan = await planExtraction({
      vault: ctx.vault,
      settings: ctx.settings,
      layout: ctx.layout,
      journalPath,
      agent,
      newAgent: "refuse",
      extractor,
    });
    const applied = await applyPlan(ctx.vault, ctx.layout, plan);
    out.push({ ...extractionReport(plan, applied), extractorReason: why });
  }
  return out;
}

/** The sessions of a run, for `--json`. */
export function ingestJson(run: IngestRun, dryRun: boolean): unknown {
  return {
    dryRun,
    files: run.files.map(({ file, outcome }) => ({
      file: file.name,
      format: file.report.format,
      badLines: file.report.badLines,
      cutLastLine: file.report.cutLastLine,
      unknownTypes: file.report.unknownTypes,
      sessions: outcome.sessions,
    })),
    written: run.written,
    extraction: run.extraction.map((r) => ({
      journal: r.journal,
      extractor: r.extractor,
      extractorReason: r.extractorReason,
      items: r.items.map((it) => ({
        category: it.category,
        text: it.text,
        destination: it.destination,
        action: it.action,
      })),
      rejected: r.rejected,
      writes: r.writes,
    })),
  };
}

/** True when the run found problems (exit 1): lines skipped as not JSON, a session not added to, items rejected. */
export function ingestHadProblems(run: IngestRun): boolean {
  return (
    run.files.some(
      ({ file, outcome }) =>
        file.report.badLines.length > 0 || outcome.sessions.some((s) => s.status === "diverged"),
    ) || run.extraction.some((r) => r.rejected.length > 0)
  );
}

/** Short session name for messages. */
export function shortId(session: Pick<TranscriptSession, "id">): string {
  return session.id.slice(0, 8);
}
