/**
 * One lock per note across processes (docs/write-safety.md, "One writer at a time"). The CLI, a
 * long-lived server and tests all edit notes through {@link NodeVault.process}, which holds the
 * note's lock from its read to its rename. The lock is a folder made with `mkdir` (atomic on every
 * local and network file system) by `proper-lockfile`, under `<vault>/.agent-memory/locks/`, named by
 * the note's real path, so two names of one file (a link inside the vault) share a lock. Its holder
 * touches it while it works; a lock not touched for {@link LockOptions.staleMs} (its holder was
 * killed) is taken over. Within one process, edits of a note also wait for each other in memory,
 * so they do not poll the lock folder.
 */
import { mkdirSync } from "node:fs";
import * as nodePath from "node:path";
import { createHash } from "node:crypto";
import { lock } from "proper-lockfile";
import { VaultError } from "../core/errors";

/** The folder of the lock folders, relative to the vault. */
export const LOCK_DIR = ".agent-memory/locks";

/** How long a lock may go untouched before it counts as left by a dead process (ms). */
export const DEFAULT_STALE_MS = 10_000;
/** How long an edit waits for a note's lock before it gives up (ms). */
export const DEFAULT_WAIT_MS = 30_000;

export interface LockOptions {
  /** A lock untouched this long (ms, at least 2,000) was left by a dead process and is taken over. */
  staleMs: number;
  /** Longest wait for a lock before {@link NoteLocks.withLock} throws (ms). */
  waitMs: number;
}

/** A held lock: `assertHeld` throws when another process took it over meanwhile. */
export interface HeldLock {
  assertHeld(): void;
}

export class NoteLocks {
  private readonly queues = new Map<string, Promise<unknown>>();

  /**
   * @param lockDir absolute, real path of the folder holding the lock folders (made when needed)
   * @param options stale and wait times; defaults {@link DEFAULT_STALE_MS}, {@link DEFAULT_WAIT_MS}
   */
  constructor(
    private readonly lockDir: string,
    private readonly options: LockOptions = { staleMs: DEFAULT_STALE_MS, waitMs: DEFAULT_WAIT_MS },
  ) {}

  /** The lock folder of a note's real path: a readable name plus a hash of the whole path. */
  lockPath(real: string): string {
    const hash = createHash("sha256").update(real).digest("hex").slice(0, 16);
    const name = nodePath
      .basename(real)
      .replace(/[^\p{L}\p{N}._-]+/gu, "_")
      .slice(0, 60);
    return nodePath.join(this.lockDir, `${name}-${hash}.lock`);
  }

  /**
   * Runs `fn` while holding the lock of the note whose real path is `real`.
   * @param path vault path of the note, for messages
   * @throws {@link VaultError} naming the note when the lock could not be had within `waitMs`
   *   (another process holds it), or when the lock folder cannot be made
   */
  async withLock<T>(real: string, path: string, fn: (held: HeldLock) => Promise<T>): Promise<T> {
    const before = this.queues.get(real) ?? Promise.resolve();
    // The previous edit's failure was reported to its own caller; this one runs regardless.
    const run = before.catch(() => undefined).then(() => this.withFileLock(real, path, fn));
    const tail = run.catch(() => undefined);
    this.queues.set(real, tail);
    try {
      return await run;
    } finally {
      if (this.queues.get(real) === tail) this.queues.delete(real);
    }
  }

  private async withFileLock<T>(
    real: string,
    path: string,
    fn: (held: HeldLock) => Promise<T>,
  ): Promise<T> {
    const lockfilePath = this.lockPath(real);
    try {
      mkdirSync(this.lockDir, { recursive: true });
    } catch (err) {
      throw new VaultError(
        `cannot write ${path}: cannot make the lock folder ${LOCK_DIR}: ${(err as Error).message}`,
        path,
        { cause: err },
      );
    }
    let compromised: Error | null = null;
    const { staleMs, waitMs } = this.options;
    // retry's wait grows from 20 ms to 250 ms; enough tries to cover waitMs.
    const retries = Math.max(1, Math.ceil(waitMs / 250) + 8);
    let release: () => Promise<void>;
    try {
      release = await lock(real, {
        realpath: false,
        lockfilePath,
        stale: staleMs,
        retries: { retries, minTimeout: 20, maxTimeout: 250, factor: 1.5, randomize: true },
        onCompromised: (err) => {
          compromised = err;
        },
      });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ELOCKED") {
        throw new VaultError(
          `cannot write ${path}: another process kept it locked for over ${Math.round(waitMs / 1000)} s (${nodePath.basename(lockfilePath)} in ${LOCK_DIR}); nothing was written, try again`,
          path,
          { cause: err },
        );
      }
      throw new VaultError(
        `cannot write ${path}: cannot lock it: ${(err as Error).message}`,
        path,
        { cause: err },
      );
    }
    const held: HeldLock = {
      assertHeld: () => {
        if (compromised)
          throw new VaultError(
            `cannot write ${path}: its lock was taken over by another process (${compromised.message}); nothing was written, try again`,
            path,
          );
      },
    };
    try {
      return await fn(held);
    } finally {
      // A lock that cannot be released (already stale, taken over) is left to proper-lockfile's stale rule; the edit's outcome stands.
      await release().catch(() => undefined);
    }
  }
}
