/**
 * Errors thrown by the core. Every I/O or input failure is a {@link MemoryError} that names the
 * file or request it concerns (docs/architecture.md, "Invariants": "a clear error naming the file
 * or request"). Parsing and validation return results with reasons instead of throwing
 * (errors are values).
 */
import { redactUrl } from "./url";
export class MemoryError extends Error {
  /** Vault-relative path, URL or other subject the error is about, when there is one. */
  readonly subject: string | undefined;
  constructor(message: string, subject?: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.subject = subject;
  }
}

/** A note's frontmatter is not valid YAML; the note must never be rewritten. */
export class FrontmatterError extends MemoryError {}
/** A file could not be read or written, or does not exist. */
export class VaultError extends MemoryError {}
/**
 * A path built from input would leave the memory root or is otherwise unsafe (test/core/layout.test.ts,
 * "case 12: …").
 */
export class PathError extends MemoryError {}
/** A chat completion request failed after retries, timed out, or its reply could not be used. */
export class LlmError extends MemoryError {}
/** Bad usage of a command or bad settings. */
export class UsageError extends MemoryError {}

/**
 * Message of any thrown value, for one-line reports, with the user name and password of any URL in
 * it removed ({@link redactUrl}): a library's error (the OpenAI SDK, `fetch`) may echo a URL.
 */
export function errorMessage(err: unknown): string {
  return redactUrl(err instanceof Error ? err.message : String(err));
}

/**
 * A note is not valid UTF-8 (or is UTF-16): it is never decoded with replacement characters, since
 * writing that text back would destroy every byte that did not decode.
 */
export class EncodingError extends MemoryError {}
/**
 * A note that exists read as empty even after retries, which is what a program saving it in place
 * (truncate, then write) looks like from outside: it is never edited or rebuilt from that read.
 */
export class TruncatedNoteError extends MemoryError {}

/**
 * True for a note refused for what it is: not UTF-8 ({@link EncodingError}) or a link out of the
 * vault ({@link PathError}). A reader that goes over many notes (health, search, the brief) leaves
 * such a note out and names it; any other read failure is a real error.
 */
export function isUnreadableNote(err: unknown): err is EncodingError | PathError {
  return err instanceof EncodingError || err instanceof PathError;
}

/** A note left out because it cannot be read ({@link isUnreadableNote}), with the reason. */
export interface UnreadableNote {
  /** Vault-relative path of the note. */
  path: string;
  /** One-line reason ({@link errorMessage}). */
  error: string;
}

/**
 * `<path>: <reason>` for a note left out ({@link UnreadableNote}), naming the note once: a reason
 * that already starts with the path (`X is not valid UTF-8 …`, `X is a symbolic link to …`,
 * `cannot read X: …`) loses it, so `index: left out X: not valid UTF-8 …` does not say X twice.
 */
export function unreadableLine(u: UnreadableNote): string {
  const { path, error } = u;
  if (error.startsWith(`${path} is `)) return `${path}: ${error.slice(path.length + 4)}`;
  if (error.startsWith(`${path}: `)) return error;
  if (error.startsWith(`cannot read ${path}: `)) return error.slice("cannot read ".length);
  return `${path}: ${error}`;
}
/**
 * A run stopped because it was cancelled (Ctrl-C in the CLI): `writes` are the notes written
 * before it stopped, each complete; the journal is not marked as extracted, so the same run again
 * continues (docs/write-safety.md, "What stops a run").
 */
export class CancelledError extends MemoryError {
  constructor(
    message: string,
    readonly writes: readonly string[] = [],
  ) {
    super(message);
  }
}
