/**
 * Building turns from a transcript's events, for both parsers (claude-code.ts, codex.ts): a
 * request starts a turn; assistant text, tool calls and their results fill it; every assistant text
 * of the turn, in order, is its answer (docs/decisions.md, "Ingest keeps every assistant text of a
 * turn").
 */
import type { Turn, TurnAction } from "./types";
import { cutBeforeRedaction, redactSecrets } from "../redact";

/** Longest command line kept (characters); a longer one is cut with `…`. */
export const MAX_COMMAND_CHARS = 160;

/**
 * A path as the journal shows it: relative to `cwd` when it lies inside it, else as given.
 * Only `/` paths are made relative (a Windows path is kept).
 */
export function shownPath(path: string, cwd: string | undefined): string {
  if (cwd && cwd.startsWith("/")) {
    const base = cwd.endsWith("/") ? cwd : `${cwd}/`;
    if (path.startsWith(base) && path.length > base.length) return path.slice(base.length);
  }
  return path;
}

/**
 * The first line of a command, whitespace collapsed, its secrets redacted ({@link redactSecrets})
 * before it is cut to {@link MAX_COMMAND_CHARS}: a key that crossed the cut would not match.
 */
export function shownCommand(command: string): string {
  const lines = redactSecrets(command)
    .split("\n")
    .filter((l) => l.trim() !== "");
  let first = (lines[0] ?? "").trim().replace(/\s+/g, " ");
  if (lines.length > 1) first += " …";
  return first.length > MAX_COMMAND_CHARS
    ? `${first.slice(0, cutBeforeRedaction(first, MAX_COMMAND_CHARS - 1))}…`
    : first;
}

/** Accumulates the turns of one session. */
export class TurnBuilder {
  readonly turns: Turn[] = [];
  private current: Turn | null = null;
  /** The assistant's text parts of the current turn, in order (before and after tool calls). */
  private texts: string[] = [];
  /** Whether anything (text, a tool call) followed the current request. */
  private answered = false;
  private readonly byCall = new Map<string, TurnAction>();

  /** Starts a turn (closing the one before). */
  request(key: string, at: string, text: string): void {
    this.close();
    this.current = { key, at, request: text, conclusion: null, actions: [], interrupted: false };
    this.texts = [];
    this.answered = false;
  }

  /** Assistant text. Before any request it is dropped (a session starts with the person). */
  text(text: string): void {
    if (!this.current || text.trim() === "") return;
    this.texts.push(text.trim());
    this.answered = true;
  }

  /** A tool call; `action` when it is one the journal records, under its call id. */
  toolCall(callId: string | undefined, action: TurnAction | TurnAction[] | null): void {
    if (!this.current) return;
    this.answered = true;
    const list = action === null ? [] : Array.isArray(action) ? action : [action];
    for (const a of list) {
      this.current.actions.push(a);
      if (callId && a.kind === "ran") this.byCall.set(callId, a);
    }
  }

  /** A tool's result: marks the command of `callId` failed when `failed`. */
  toolResult(callId: string | undefined, failed: boolean): void {
    if (!this.current) return;
    this.answered = true;
    if (!callId) return;
    const action = this.byCall.get(callId);
    if (action && failed) action.failed = true;
  }

  /** The person stopped the current turn. */
  interrupt(): void {
    if (!this.current) return;
    this.current.interrupted = true;
    this.answered = true;
  }

  private close(): void {
    if (!this.current) return;
    this.current.conclusion = this.texts.length ? this.texts.join("\n\n") : null;
    this.turns.push(this.current);
    this.current = null;
    this.byCall.clear();
  }

  /**
   * The turns, closing the last. A last turn with nothing after its request is left out and
   * reported as pending (the session is still running; a later read takes it).
   */
  finish(): { turns: Turn[]; pendingTurn: boolean } {
    const pending = this.current !== null && !this.answered;
    if (pending) this.current = null;
    else this.close();
    return { turns: this.turns, pendingTurn: pending };
  }
}
