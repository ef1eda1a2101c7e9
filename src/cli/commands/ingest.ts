/**
 * `agent-memory ingest <vault> <file…> --agent A [--format auto|claude-code|codex] [--dry-run] [--json]`
 * (docs/agents.md, "Importing past sessions"): Claude Code and Codex transcripts into the agent's
 * journals, one section per session, only the turns not yet there; then extraction of each
 * journal written. Exit 0 done; 1 when lines were skipped as not JSON, a session could not be
 * added to (its section's last turn is not in the file), a journal refused a session (its
 * frontmatter does not parse, it is not UTF-8…: that session is reported with the reason, the
 * others are written) or items were rejected; 2 bad usage or a file that cannot be read or is not
 * a transcript (nothing written); 130 when Ctrl-C (SIGINT)
 * stopped it after the write under way (between two sessions, or two notes of an extraction):
 * what it did so far is printed, then one stderr line with how many notes it wrote, each
 * complete; running the same command again continues. A second Ctrl-C exits at once.
 */
import type { CliCommand } from "../command";
import { UsageError } from "../../core/errors";
import {
  extractionSummary,
  ingestFiles,
  ingestHadProblems,
  ingestJson,
  readTranscripts,
  shortId,
} from "../ingest-run";
import { agentOption, ctrlC, shownWrites } from "../shared";

const STATUS_WORDS = {
  new: "new section",
  grown: "added to its section",
  unchanged: "already in the journal",
  diverged: "not added: the journal's section ends with a turn this file does not hold",
  refused: "refused by the journal, nothing written for it",
} as const;

export const ingestCommand: CliCommand = {
  name: "ingest",
  usage:
    "ingest <vault> <file…> --agent NAME [--format auto|claude-code|codex] [--dry-run] [--json]",
  options: {
    agent: { type: "string" },
    format: { type: "string" },
    "dry-run": { type: "boolean" },
  },
  positionals: { min: 1, max: Number.POSITIVE_INFINITY },
  async run(ctx, args, options) {
    const format = typeof options.format === "string" ? options.format : "auto";
    if (format !== "auto" && format !== "claude-code" && format !== "codex")
      throw new UsageError(`--format must be auto, claude-code or codex, not "${format}"`);
    const agent = await agentOption(ctx, options.agent);
    const dryRun = options["dry-run"] === true;
    const files = await readTranscripts(ctx, args, format);
    const stop = ctrlC();
    const run = await ingestFiles(ctx, files, {
      agent,
      dryRun,
      extract: true,
      signal: stop.signal,
      reportRefused: true,
    }).finally(stop.done);
    // Stopped by Ctrl-C: what it did so far, then one line on stderr and 130.
    const interrupted = (): number => {
      const wrote = [...new Set([...run.written, ...run.extraction.flatMap((e) => e.writes)])];
      const all = [...new Set([...wrote, ...run.stoppedWrites])];
      ctx.err(
        `agent-memory ingest: interrupted; wrote ${all.length} note(s), each complete; running the same command again continues (a journal written and not extracted is extracted then)`,
      );
      return 130;
    };
    if (options.json) {
      ctx.out(JSON.stringify(ingestJson(run, dryRun), null, 2));
      if (run.interrupted) return interrupted();
      return ingestHadProblems(run) ? 1 : 0;
    }
    for (const { file, outcome } of run.files) {
      const r = file.report;
      ctx.out(
        `${file.name} (${r.format}): ${r.sessions.length} session${r.sessions.length === 1 ? "" : "s"}`,
      );
      for (const s of outcome.sessions) {
        const pending = s.pendingTurn
          ? "; its last request has no reply yet and waits for the next run"
          : "";
        const what =
          s.added > 0
            ? `${s.added} new turn${s.added === 1 ? "" : "s"} (${STATUS_WORDS[s.status]})`
            : STATUS_WORDS[s.status];
        ctx.out(`  ${shortId(s)} → ${s.journal}: ${what}${pending}`);
        if (s.reason !== undefined) ctx.out(`    ${s.reason}`);
      }
      if (r.badLines.length)
        ctx.out(
          `  skipped ${r.badLines.length === 1 ? "1 line that is" : `${r.badLines.length} lines that are`} not JSON (line ${r.badLines.slice(0, 10).join(", ")}${r.badLines.length > 10 ? ", …" : ""})`,
        );
      if (r.cutLastLine)
        ctx.out("  the last line is cut (the file is still being written); it is read next time");
    }
    for (const e of run.extraction) {
      ctx.out(
        `extracted ${e.journal} — extractor: ${e.extractor} (${e.extractorReason}): ${extractionSummary(e.items)}${e.rejected.length ? `; ${e.rejected.length} rejected` : ""}`,
      );
    }
    if (dryRun) ctx.out("dry run: nothing written");
    else {
      // The journals, then what their extraction wrote (trackers, topic notes), each once.
      const wrote = [
        ...new Set([
          ...run.written,
          ...run.extraction.flatMap((e) => e.writes),
          ...run.stoppedWrites,
        ]),
      ];
      ctx.out(wrote.length ? `wrote ${shownWrites(wrote)}` : "nothing new to write");
    }
    if (run.interrupted) return interrupted();
    return ingestHadProblems(run) ? 1 : 0;
  },
};
