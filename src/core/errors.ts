/**
 * Errors thrown by the core. Every I/O or input failure is a {@link MemoryError} that names the
 * file or request it concerns (DESIGN §8: "a clear error naming the file or request").
 * Parsing and validation return results with reasons instead of throwing (STYLE: errors are values).
 */
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
/** A path built from input would leave the memory root or is otherwise unsafe (case 12). */
export class PathError extends MemoryError {}
/** A chat completion request failed after retries, timed out, or its reply could not be used. */
export class LlmError extends MemoryError {}
/** Bad usage of a command or bad settings. */
export class UsageError extends MemoryError {}

/** Message of any thrown value, for one-line reports. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
