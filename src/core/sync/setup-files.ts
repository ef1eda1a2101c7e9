/**
 * The git files a vault needs to sync as memory (docs/sync.md, "Git"): `.gitignore` keeping the
 * CLI's state folder out, `.gitattributes` routing the memory notes to the merge driver. Pure text
 * edits, run inside `VaultPort.process`: lines already there are kept byte for byte, missing ones
 * are appended, so running setup again changes nothing.
 */

/** Folder of per-clone state (search index, locks, serve socket, sync state), never committed. */
export const STATE_DIR = ".agent-memory";

/** What `.gitignore` must hold. */
export const GITIGNORE_LINES: readonly string[] = [`${STATE_DIR}/`];

/** Name of the merge driver in `.gitattributes` and the clone's git config. */
export const MERGE_DRIVER_NAME = "agent-memory";

/**
 * What `.gitattributes` must hold to route the memory notes under `memoryRoot` (vault-relative,
 * e.g. `Memory`) to the driver: every Markdown note below it. A folder name with spaces is
 * written with git's `[[:space:]]` class, which `.gitattributes` patterns need.
 */
export function gitattributesLines(memoryRoot: string): string[] {
  const root = memoryRoot.replace(/^\/+|\/+$/g, "").replace(/ /g, "[[:space:]]");
  const prefix = root === "" ? "" : `${root}/`;
  return [`${prefix}**/*.md merge=${MERGE_DRIVER_NAME}`];
}

/**
 * `current` (a file's text, or `null` when it does not exist) with each of `wanted` that is not
 * already one of its lines (compared without surrounding blanks) appended, one per line; a file
 * without a final newline gets one first. Returns `current` itself when nothing is missing, so
 * `VaultPort.process` writes nothing. The file's line ending (LF or CRLF) is kept.
 */
export function withLines(
  current: string | null,
  wanted: readonly string[],
  comment?: string,
): string | null {
  const text = current ?? "";
  const have = new Set(text.split(/\r?\n/).map((l) => l.trim()));
  const missing = wanted.filter((w) => !have.has(w.trim()));
  if (missing.length === 0) return current;
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const head = text === "" || text.endsWith("\n") ? text : `${text}${eol}`;
  const lines = comment && !have.has(comment.trim()) ? [comment, ...missing] : missing;
  return `${head}${lines.join(eol)}${eol}`;
}
