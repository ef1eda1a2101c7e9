/**
 * Ingesting transcripts from the CLI (docs/agents.md, "Importing past sessions"), shared by
 * `agent-memory ingest` and `agent-memory hook`: read the files, parse them all (a file that is
 * not a transcript stops the run before anything is written), write the sessions' new turns into
 * the agent's journals, then extract from each journal written.
 */
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { CancelledError, UsageError, errorMessage } from "../core/errors";
import {
  applyPlan,
  extractionDue,
  extractionReport,
  planExtraction,
  type Checkpoint,
  type ExtractionReport,
} from "../core/extraction/pipeline";
import { supersessionLabel } from "../core/extraction/contradiction";
import { ingestSessions, type IngestOutcome } from "../core/ingest/ingest";
import { parseTranscript } from "../core/ingest/parse";
import type { TranscriptFormat, TranscriptReport, TranscriptSession } from "../core/ingest/types";
import type { CliContext } from "../node/context";
import { createCliExtractor } from "../node/llm-env";
import { nextTurn } from "../node/event-loop";

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
  /**
   * Journals to extract, each once: those written, then those of the run's sessions that a run
   * before wrote and did not extract (killed between its write and its extraction). Empty in a dry run.
   */
  toExtract: string[];
  /** The extraction of each journal written (empty in a dry run or with `extract: false`). */
  extraction: (ExtractionReport & { extractorReason: string })[];
  /**
   * True when the run's signal stopped it (Ctrl-C): between two sessions, before the extraction,
   * or between two notes of an extraction; what it wrote is complete, and the same run again
   * continues (a journal written and not extracted is extracted then).
   */
  interrupted: boolean;
  /** Notes written by an extraction the signal stopped (each complete; not in `extraction`). */
  stoppedWrites: string[];
}

/**
 * Writes the sessions of `files` into the journals of `agent` (one locked write per session),
 * then, unless `dryRun` or `extract` is false, extracts each journal of {@link IngestRun.toExtract}
 * with the CLI's extractor (offline unless a model is configured): a journal whose sessions were
 * all there already is extracted too when it is not extracted as it reads (`extractionDue`), so a
 * run killed between its write and its extraction is caught up by the next.
 */
export async function ingestFiles(
  ctx: CliContext,
  files: readonly TranscriptFile[],
  options: {
    agent: string;
    dryRun: boolean;
    extract: boolean;
    now?: Date;
    /** Stops the run after the write under way (see {@link IngestRun.interrupted}). */
    signal?: AbortSignal;
    /**
     * A session whose journal refuses the write is reported (`refused`, with its reason) and the
     * other sessions and files go on, rather than the error stopping the run after what it wrote.
     */
    reportRefused?: boolean;
  },
): Promise<IngestRun> {
  const { signal } = options;
  const run: IngestRun = {
    files: [],
    written: [],
    toExtract: [],
    extraction: [],
    interrupted: false,
    stoppedWrites: [],
  };
  for (const file of files) {
    if (signal?.aborted) break;
    const outcome = await ingestSessions(file.report.sessions, {
      vault: ctx.vault,
      layout: ctx.layout,
      agent: options.agent,
      now: options.now ?? new Date(),
      dryRun: options.dryRun,
      ...(signal ? { signal } : {}),
      ...(options.reportRefused ? { reportRefused: true } : {}),
    });
    run.files.push({ file, outcome });
    for (const w of outcome.written) if (!run.written.includes(w)) run.written.push(w);
  }
  if (signal?.aborted) {
    run.interrupted = true;
    return run;
  }
  if (options.dryRun) return run;
  run.toExtract = await journalsToExtract(
    ctx,
    run.files.map((f) => f.outcome),
  );
  if (!options.extract) return run;
  try {
    await extractJournals(ctx, run.toExtract, options.agent, signal, (r) => run.extraction.push(r));
  } catch (err) {
    if (!signal?.aborted) throw err;
    run.interrupted = true;
    if (err instanceof CancelledError) run.stoppedWrites = [...err.writes];
  }
  return run;
}

/**
 * The journals to extract after writing `outcomes`, each once: those written, then the journals of
 * their sessions that are {@link extractionDue} (written by a run killed before it extracted them);
 * a journal that refused its session is not read. Throws `VaultError` when such a journal cannot be read.
 */
export async function journalsToExtract(
  ctx: Pick<CliContext, "vault">,
  outcomes: readonly IngestOutcome[],
): Promise<string[]> {
  const out: string[] = [];
  for (const o of outcomes) for (const w of o.written) if (!out.includes(w)) out.push(w);
  for (const o of outcomes)
    for (const s of o.sessions)
      if (
        s.status !== "refused" &&
        !out.includes(s.journal) &&
        (await extractionDue(ctx.vault, s.journal))
      )
        out.push(s.journal);
  return out;
}

/** Lets the event loop run between notes, so that a Ctrl-C is seen (as `extract` does). */
const yieldToSignals: Checkpoint = nextTurn;

/**
 * Extracts each journal with the CLI's extractor (offline unless a model is configured).
 * With `signal`, an abort stops it between two journals, or between two notes of one (a
 * {@link CancelledError} with the notes written, each complete; the journal is not marked as
 * extracted); `onDone` gets each journal's report as it is done, so a stopped run keeps them.
 */
export async function extractJournals(
  ctx: CliContext,
  journals: readonly string[],
  agent: string,
  signal?: AbortSignal,
  onDone?: (report: IngestRun["extraction"][number]) => void,
): Promise<IngestRun["extraction"]> {
  if (journals.length === 0) return [];
  const { extractor, why } = createCliExtractor(ctx, undefined);
  const out: IngestRun["extraction"] = [];
  const control = signal ? { signal, checkpoint: yieldToSignals } : {};
  for (const journalPath of journals) {
    if (signal?.aborted) throw new CancelledError(`stopped before extracting ${journalPath}`);
    const plan = await planExtraction({
      vault: ctx.vault,
      settings: ctx.settings,
      layout: ctx.layout,
      journalPath,
      agent,
      newAgent: "refuse",
      extractor,
      ...control,
    });
    const applied = await applyPlan(ctx.vault, ctx.layout, plan, undefined, control);
    const report = { ...extractionReport(plan, applied), extractorReason: why };
    out.push(report);
    onDone?.(report);
  }
  return out;
}

/**
 * What one journal's extraction wrote, for the summary line: every new item by category, the ones
 * that supersede an entry included, each supersession named as `extract` names it (`task 2,
 * decision 1 (supersedes d-004 (another value))`); `no new items` when there is none.
 */
export function extractionSummary(items: ExtractionReport["items"]): string {
  const counts = new Map<string, { n: number; supersedes: string[] }>();
  for (const it of items) {
    if (it.action !== "add" && it.action !== "supersede") continue;
    const c = counts.get(it.category) ?? { n: 0, supersedes: [] };
    c.n++;
    if (it.supersedes) c.supersedes.push(supersessionLabel(it.supersedes));
    counts.set(it.category, c);
  }
  const list = [...counts].map(
    ([category, c]) =>
      `${category} ${c.n}${c.supersedes.length ? ` (${c.supersedes.join(", ")})` : ""}`,
  );
  return list.join(", ") || "no new items";
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
    ...(run.interrupted ? { interrupted: true, stoppedWrites: run.stoppedWrites } : {}),
    extraction: run.extraction.map((r) => ({
      journal: r.journal,
      extractor: r.extractor,
      extractorReason: r.extractorReason,
      items: r.items.map((it) => ({
        category: it.category,
        text: it.text,
        destination: it.destination,
        action: it.action,
        ...(it.supersedes ? { supersedes: it.supersedes } : {}),
      })),
      rejected: r.rejected,
      writes: r.writes,
    })),
  };
}

/**
 * True when the run found problems (exit 1): lines skipped as not JSON, a session not added to or
 * refused by its journal, items rejected.
 */
export function ingestHadProblems(run: IngestRun): boolean {
  return (
    run.files.some(
      ({ file, outcome }) =>
        file.report.badLines.length > 0 ||
        outcome.sessions.some((s) => s.status === "diverged" || s.status === "refused"),
    ) || run.extraction.some((r) => r.rejected.length > 0)
  );
}

/** Short session name for messages. */
export function shortId(session: Pick<TranscriptSession, "id">): string {
  return session.id.slice(0, 8);
}
