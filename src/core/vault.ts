/**
 * VaultPort: the only I/O boundary of the core (docs/architecture.md, "Core, ports and hosts").
 * Implemented by NodeVault (CLI, tests on real temporary folders) and ObsidianVault (plugin, over
 * `app.vault`).
 *
 * Paths are vault-relative, use `/` as separator, and never start with `/` or contain `..`.
 */
import { errorMessage, isUnreadableNote, type UnreadableNote } from "./errors";

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
 * newer content when a concurrent writer changed the file (test/node/node-vault.test.ts, "case 07: …").
 */
export type ProcessFn = (current: string | null) => string | null;

/**
 * What a {@link DecideFn} returns: the new `content` (as a {@link ProcessFn} returns it: unchanged
 * or `null` means "no write") and the `result` it decided, handed back by {@link VaultPort.process}.
 */
export interface Decision<T> {
  content: string | null;
  result: T;
}

/**
 * Edit function that also decides a result (an id it gave, whether the item was found, a message):
 * like {@link ProcessFn}, pure and possibly called more than once; {@link VaultPort.process} returns
 * the `result` of its last call, the one whose content was kept.
 */
export type DecideFn<T> = (current: string | null) => Decision<T>;

/** What {@link VaultPort.process} returns for a {@link DecideFn}: whether it wrote, and the decision. */
export interface Decided<T> {
  /** True when the file was written. */
  written: boolean;
  /** The `result` of the edit function's last call. */
  result: T;
}

/**
 * For adapters: one call of {@link VaultPort.process}'s edit function, either form. {@link apply}
 * runs it (as often as the adapter needs) and keeps the last result; {@link outcome} gives what
 * `process` returns — `written` for a {@link ProcessFn}, a {@link Decided} for a {@link DecideFn}.
 */
export class EditRun<T> {
  private decides = false;
  private last: T | undefined;

  constructor(private readonly fn: ProcessFn | DecideFn<T>) {}

  /** Runs the edit on `current`; returns the new content (`null` or `current`: no write). */
  apply(current: string | null): string | null {
    const out = this.fn(current);
    if (out === null || typeof out === "string") return out;
    this.decides = true;
    this.last = out.result;
    return out.content;
  }

  /** What `process` returns once the edit is done: see {@link VaultPort.process}. */
  outcome(written: boolean): boolean | Decided<T> {
    return this.decides ? { written, result: this.last as T } : written;
  }
}

export interface VaultPort {
  /** Reads a file as UTF-8 text. Throws {@link VaultError} naming the path when it is missing or unreadable. */
  read(path: string): Promise<string>;
  /** True when a file (not a folder) exists at `path`. */
  exists(path: string): Promise<boolean>;
  /** Lists Markdown (`.md`) files under `folder` (recursively; the whole vault when omitted). */
  list(folder?: string): Promise<FileStat[]>;
  /**
   * One of the notes {@link list} gives for `folder` (any one), or `null` when it gives none.
   * Optional: a host that can stop its walk at the first note has it; without, callers list.
   */
  firstNote?(folder?: string): Promise<FileStat | null>;
  /**
   * Atomic read-modify-write of the file's current content. Creates missing parent folders and the
   * file itself when `fn(null)` returns text. Returns true when the file was written.
   * Throws {@link VaultError} naming the path on I/O failure; on error nothing is written.
   */
  process(path: string, fn: ProcessFn): Promise<boolean>;
  /**
   * The same with an edit function that also decides a result: returns whether the file was
   * written and the `result` of the function's last call (it may run more than once, see
   * {@link DecideFn}), so no caller needs a variable captured by the function.
   */
  process<T>(path: string, fn: DecideFn<T>): Promise<Decided<T>>;
  /** Either form, for a wrapper that passes on the edit function it was given (`writeGuarded`). */
  process<T>(path: string, fn: ProcessFn | DecideFn<T>): Promise<boolean | Decided<T>>;
  /**
   * Moves a file (any extension) to `to`, creating missing parent folders; nothing is deleted.
   * Throws {@link VaultError} naming the path when `from` is missing or `to` already exists.
   * Optional: a host without it cannot `reconcile` conflict copies (docs/sync.md, "Reconcile").
   */
  move?(from: string, to: string): Promise<void>;
}

/**
 * Reads the note at `path` for a reader that goes over many notes: a note refused for what it is
 * (not UTF-8, a link out of the vault: {@link isUnreadableNote}) gives `null` and is added to
 * `unreadable` with its reason, for the host to name on stderr; any other failure throws as
 * {@link VaultPort.read} does.
 */
export async function readOrLeaveOut(
  vault: VaultPort,
  path: string,
  unreadable: UnreadableNote[],
): Promise<string | null> {
  try {
    return await vault.read(path);
  } catch (err) {
    if (!isUnreadableNote(err)) throw err;
    if (!unreadable.some((u) => u.path === path))
      unreadable.push({ path, error: errorMessage(err) });
    return null;
  }
}
