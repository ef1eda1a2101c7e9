/**
 * VaultPort: the only I/O boundary of the core (docs/architecture.md, "Core, ports and hosts").
 * Implemented by NodeVault (CLI, tests on real temporary folders) and ObsidianVault (plugin, over
 * `app.vault`).
 *
 * Paths are vault-relative, use `/` as separator, and never start with `/` or contain `..`.
 */

/** A Markdown file seen by {@link VaultPort.list}. */
export interface FileStat {
  /** Vault-relative path with `/` separators. */
  path: string;
  /** Last modification time, milliseconds since the Unix epoch. */
  mtime: number;
  /** Size in bytes. */
  size: number;
}

/**
 * Edit function for {@link VaultPort.process}: receives the file's current content (`null` when the
 * file does not exist) and returns the new content. Returning the current content unchanged (or
 * `null` for a missing file) means "no write". It must be pure: the adapter may call it again on
 * newer content when a concurrent writer changed the file (test/node-vault.test.ts, "case 07: …").
 */
export type ProcessFn = (current: string | null) => string | null;

export interface VaultPort {
  /** Reads a file as UTF-8 text. Throws {@link VaultError} naming the path when it is missing or unreadable. */
  read(path: string): Promise<string>;
  /** True when a file (not a folder) exists at `path`. */
  exists(path: string): Promise<boolean>;
  /** Lists Markdown (`.md`) files under `folder` (recursively; the whole vault when omitted). */
  list(folder?: string): Promise<FileStat[]>;
  /**
   * Atomic read-modify-write of the file's current content. Creates missing parent folders and the
   * file itself when `fn(null)` returns text. Returns true when the file was written.
   * Throws {@link VaultError} naming the path on I/O failure; on error nothing is written.
   */
  process(path: string, fn: ProcessFn): Promise<boolean>;
}
