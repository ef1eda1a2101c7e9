/**
 * What a transcript parser gives (docs/agents.md, "What is captured"): per session, the turns of
 * the conversation as the journal keeps them — the person's request, the assistant's answer
 * (every text it wrote in the turn, in order) and what was done — and never tool output, file contents, thinking
 * or encrypted reasoning.
 */

/** The transcript formats read: Claude Code session JSONL and Codex rollout JSONL. */
export type TranscriptFormat = "claude-code" | "codex";

/** One thing done during a turn. */
export interface TurnAction {
  /** `wrote`: a file created or overwritten; `edited`: changed in place; `deleted`; `ran`: a shell command. */
  kind: "wrote" | "edited" | "deleted" | "ran";
  /** The file (relative to the session's folder when inside it) or the command's first line. */
  target: string;
  /** For `ran`: true when the command failed (non-zero exit, or the tool reported an error). */
  failed?: boolean;
}

/** One turn: a request of the person and what followed until the next one. */
export interface Turn {
  /**
   * Stable key of the turn, the same every time the transcript is read: the user message's
   * `uuid` (Claude Code), the `turn-id` (Codex notify), else a hash of the request's timestamp and
   * text (Codex rollouts carry no message ids). The journal's watermark holds it
   * (docs/decisions.md, "The ingest watermark lives in the journal section").
   */
  key: string;
  /** ISO 8601 timestamp of the request, or `""` when the transcript has none. */
  at: string;
  /** The person's request, boilerplate removed. */
  request: string;
  /**
   * The assistant's text parts of the turn, in order and joined by a blank line — those before a
   * tool call as well as the last (never thinking or tool output) — or `null` when there is none.
   */
  conclusion: string | null;
  actions: TurnAction[];
  /** The person stopped the turn (Claude Code's "[Request interrupted by user]", Codex's `turn_aborted`). */
  interrupted: boolean;
}

/** A session of a transcript. */
export interface TranscriptSession {
  id: string;
  format: TranscriptFormat;
  /** The session's working folder, when the transcript names it. */
  cwd?: string;
  /** A title for the session (Claude Code's `summary` of this session), when there is one. */
  title?: string;
  turns: Turn[];
  /**
   * True when the last turn has a request and nothing after it yet (the session is still
   * running): it is not in `turns`, and a later read takes it.
   */
  pendingTurn: boolean;
  /**
   * The turns are new ones only, not the whole session (Codex's `notify`, one turn a call): all
   * are added but one the section already ends with.
   */
  incremental?: boolean;
}

/** What reading a transcript found, besides its sessions. */
export interface TranscriptReport {
  format: TranscriptFormat;
  sessions: TranscriptSession[];
  /** 1-based numbers of lines that are not JSON objects (skipped). */
  badLines: number[];
  /** True when the last line is cut (no final newline and not JSON): a file still being written. */
  cutLastLine: boolean;
  /** Line types the parser does not know (skipped), each once. */
  unknownTypes: string[];
}
