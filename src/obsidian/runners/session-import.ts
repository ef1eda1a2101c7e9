/**
 * Importing agent sessions in the plugin (docs/agents.md, "Importing past sessions"): Claude Code
 * and Codex transcripts, picked as files or found in a watched vault folder per agent, go through
 * the core's ingest (`ingestTranscript`) into the agent's journals, one section per session, only
 * the turns not there yet; every write is the journal's `VaultPort.process`.
 */
import { Component, Notice, TFile, type TAbstractFile } from "obsidian";
import { errorMessage } from "../../core/errors";
import { ingestTranscript } from "../../core/ingest/ingest";
import type { TranscriptFormat } from "../../core/ingest/types";
import { layoutOf, type PluginContext } from "../context";

/** A transcript to import: a name for messages (the file's) and its text. */
export interface TranscriptInput {
  name: string;
  text: string;
}

/** What {@link importSessions} did. */
export interface ImportOutcome {
  /** Journals written, each once. */
  written: string[];
  /** Turns added over all sessions. */
  turns: number;
  sessions: number;
  /** One line per file that could not be imported (it wrote nothing). */
  errors: string[];
}

/**
 * Ingests each transcript for `agent`. A file whose format cannot be told, or that cannot be
 * written, is reported in `errors` by name and the others go on; running again adds only what is
 * new (the journal section's watermark).
 */
export async function importSessions(
  ctx: PluginContext,
  inputs: readonly TranscriptInput[],
  agent: string,
  format: TranscriptFormat | "auto",
): Promise<ImportOutcome> {
  const out: ImportOutcome = { written: [], turns: 0, sessions: 0, errors: [] };
  for (const input of inputs) {
    try {
      const { outcome } = await ingestTranscript(input.text, input.name, format, {
        vault: ctx.vault,
        layout: layoutOf(ctx),
        agent,
        now: new Date(),
      });
      for (const path of outcome.written) if (!out.written.includes(path)) out.written.push(path);
      for (const s of outcome.sessions) out.turns += s.added;
      out.sessions += outcome.sessions.length;
    } catch (err) {
      out.errors.push(`${input.name}: ${errorMessage(err)}`);
    }
  }
  return out;
}

/** One line saying what an import did. */
export function importSummary(outcome: ImportOutcome): string {
  const done =
    outcome.turns > 0
      ? `Imported ${outcome.turns} new turn${outcome.turns === 1 ? "" : "s"} of ${outcome.sessions} session${outcome.sessions === 1 ? "" : "s"} into ${outcome.written.length} journal${outcome.written.length === 1 ? "" : "s"}.`
      : outcome.sessions > 0
        ? "Nothing new: every turn is in the journal already."
        : "";
  return [done, ...outcome.errors].filter((l) => l !== "").join(" ");
}

/** Wait after the last change of a watched transcript before it is read, milliseconds. */
export const TRANSCRIPT_QUIET_MS = 2000;

/**
 * Watches the transcript folders of `sessionImport.folders` (vault folders; off by default): a
 * `.jsonl` file created or changed there is ingested for its agent once it has been quiet for
 * {@link TRANSCRIPT_QUIET_MS}. A failure is said in one notice per file and reason.
 */
export class SessionFolderWatch extends Component {
  private readonly timers = new Map<string, number>();
  private readonly said = new Map<string, string>();
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly ctx: PluginContext) {
    super();
  }

  override onload(): void {
    this.ctx.app.workspace.onLayoutReady(() => {
      const { vault } = this.ctx.app;
      this.registerEvent(vault.on("create", (file) => this.changed(file)));
      this.registerEvent(vault.on("modify", (file) => this.changed(file)));
    });
  }

  override onunload(): void {
    for (const id of this.timers.values()) window.clearTimeout(id);
    this.timers.clear();
  }

  /** The agent whose watched folder holds `path`, or `null`. */
  agentFor(path: string): string | null {
    for (const [agent, folder] of Object.entries(this.ctx.settings().sessionImport.folders)) {
      const f = folder.trim().replace(/^\/+|\/+$/g, "");
      if (f !== "" && path.startsWith(`${f}/`)) return agent;
    }
    return null;
  }

  /** Ingests every file waiting for its quiet time now (tests; the plugin waits). */
  async flush(): Promise<void> {
    for (const [path, id] of [...this.timers]) {
      window.clearTimeout(id);
      this.timers.delete(path);
      this.track(this.ingest(path));
    }
    await Promise.all([...this.pending]);
  }

  private changed(file: TAbstractFile): void {
    if (!(file instanceof TFile) || file.extension !== "jsonl") return;
    if (this.agentFor(file.path) === null) return;
    const old = this.timers.get(file.path);
    if (old !== undefined) window.clearTimeout(old);
    this.timers.set(
      file.path,
      window.setTimeout(() => {
        this.timers.delete(file.path);
        this.track(this.ingest(file.path));
      }, TRANSCRIPT_QUIET_MS),
    );
  }

  private track(work: Promise<void>): void {
    this.pending.add(work);
    void work.finally(() => this.pending.delete(work));
  }

  private async ingest(path: string): Promise<void> {
    const agent = this.agentFor(path);
    if (agent === null) return;
    let text: string;
    try {
      text = await this.ctx.vault.read(path);
    } catch (err) {
      this.say(path, `Agent sessions: ${errorMessage(err)}`);
      return;
    }
    const outcome = await importSessions(this.ctx, [{ name: path, text }], agent, "auto");
    if (outcome.errors.length) this.say(path, `Agent sessions: ${outcome.errors.join(" ")}`);
    else this.said.delete(path);
  }

  private say(path: string, message: string): void {
    if (this.said.get(path) === message) return;
    this.said.set(path, message);
    new Notice(message);
  }
}
