/**
 * Writing transcripts into an agent's journals (docs/agents.md, "Where it goes"): each session
 * into the journal of its day, through one locked read-modify-write of that journal
 * (`VaultPort.process`), only the turns it does not hold yet.
 */
import { CancelledError, MemoryError, errorMessage } from "../errors";
import type { MemoryLayout } from "../layout";
import { today } from "../util/dates";
import type { VaultPort } from "../vault";
import { parseTranscript } from "./parse";
import { mergeSession, sessionDay, type MergeResult } from "./section";
import type { TranscriptFormat, TranscriptReport, TranscriptSession } from "./types";

/** What happened to one session. */
export interface SessionOutcome {
  id: string;
  format: TranscriptFormat;
  /** Vault path of the journal the session goes in. */
  journal: string;
  /**
   * What {@link mergeSession} did, or `refused`: the journal refused the write (its frontmatter
   * does not parse, it is not UTF-8, a link out of the vault…) and nothing of the session was
   * written (only with {@link IngestOptions.reportRefused}).
   */
  status: MergeResult["status"] | "refused";
  /** Why the journal refused the session (the error's message, naming the journal), for `refused`. */
  reason?: string;
  /** Turns written (or, in a dry run, that would be). */
  added: number;
  /** Turns the transcript holds. */
  turns: number;
  /** The session's last request has no reply yet; it is taken by a later run. */
  pendingTurn: boolean;
}

/** What {@link ingestSessions} and {@link ingestTranscript} did. */
export interface IngestOutcome {
  sessions: SessionOutcome[];
  /** Journals written (none in a dry run), each once. */
  written: string[];
  /** True when {@link IngestOptions.signal} stopped the run before a session (those after it are not in `sessions`). */
  interrupted?: boolean;
}

/** Options of {@link ingestSessions}. */
export interface IngestOptions {
  vault: VaultPort;
  layout: MemoryLayout;
  agent: string;
  /** The current instant (the day of a session with no timestamps). */
  now: Date;
  /** Compute what would be written, write nothing. */
  dryRun?: boolean;
  /**
   * Checked before each session: once aborted, the run stops there (the session under way is
   * written whole first) and the outcome says `interrupted`.
   */
  signal?: AbortSignal;
  /**
   * A session whose journal refuses the write (a {@link MemoryError}) is reported as `refused`
   * with the reason, and the sessions after it go on; without it the error is thrown.
   */
  reportRefused?: boolean;
}

/**
 * Writes each session's new turns into the agent's journal of the session's day
 * ({@link sessionDay}): one `VaultPort.process` per session, so a session is written whole or
 * not at all; an aborted {@link IngestOptions.signal} stops it between two sessions. Errors of the vault (a locked or unwritable journal) are thrown as they come, or with
 * {@link IngestOptions.reportRefused} reported as the session's `refused`; a session written
 * before one fails stays written, and running again adds only what is missing.
 */
export async function ingestSessions(
  sessions: readonly TranscriptSession[],
  options: IngestOptions,
): Promise<IngestOutcome> {
  const { vault, layout, agent } = options;
  const out: IngestOutcome = { sessions: [], written: [] };
  for (const session of sessions) {
    if (options.signal?.aborted) {
      out.interrupted = true;
      break;
    }
    const date = sessionDay(session, today(options.now));
    const path = layout.journalPath(agent, date);
    const note = { agent, date, path };
    const outcome = (
      status: SessionOutcome["status"],
      added: number,
      reason?: string,
    ): SessionOutcome => ({
      id: session.id,
      format: session.format,
      journal: path,
      status,
      ...(reason === undefined ? {} : { reason }),
      added,
      turns: session.turns.length,
      pendingTurn: session.pendingTurn,
    });
    let merged: MergeResult;
    try {
      if (options.dryRun) {
        const current = (await vault.exists(path)) ? await vault.read(path) : null;
        merged = mergeSession(current, session, note);
      } else {
        const { written, result } = await vault.process(path, (current) => {
          const m = mergeSession(current, session, note);
          return { content: m.added.length ? m.text : current, result: m };
        });
        merged = result;
        if (written && !out.written.includes(path)) out.written.push(path);
      }
    } catch (err) {
      if (!options.reportRefused || !(err instanceof MemoryError) || err instanceof CancelledError)
        throw err;
      out.sessions.push(outcome("refused", 0, errorMessage(err)));
      continue;
    }
    out.sessions.push(outcome(merged.status, merged.added.length));
  }
  return out;
}

/**
 * Parses a transcript ({@link parseTranscript}) and writes its sessions ({@link ingestSessions}).
 * @param name the file, for messages
 * @throws UsageError naming the file when its format cannot be told
 */
export async function ingestTranscript(
  text: string,
  name: string,
  format: TranscriptFormat | "auto",
  options: IngestOptions,
): Promise<{ report: TranscriptReport; outcome: IngestOutcome }> {
  const report = parseTranscript(text, format, name);
  const outcome = await ingestSessions(report.sessions, options);
  return { report, outcome };
}
