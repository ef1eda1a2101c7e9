/**
 * "Left unchanged for N minutes" (docs/compaction.md): one timer per note, re-armed by every change,
 * firing once the note has been quiet for `quietMs`. Time comes from an injected {@link Scheduler}
 * (the host's timers; in tests a clock driven by hand), so nothing here depends on real time.
 */

/** Timers of the host: `setTimeout`/`clearTimeout` in Node, `window.setTimeout` in Obsidian, a manual clock in tests. */
export interface Scheduler {
  /** Calls `fn` once after `ms` milliseconds; returns a handle for {@link Scheduler.clear}. */
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

/**
 * Runs `run(path)` for each note once it has had no {@link QuietTimers.touch} for `quietMs`
 * milliseconds. Runs are one at a time, in the order their notes fell quiet; a note touched while
 * it runs is timed again. `run` failures go to `onError` and never stop the timers.
 */
export class QuietTimers {
  private readonly timers = new Map<string, unknown>();
  private chain: Promise<void> = Promise.resolve();
  private closed = false;

  /**
   * @param quietMs milliseconds a note must stay unchanged (≥ 1)
   * @throws RangeError for a `quietMs` that is not a positive number
   */
  constructor(
    private readonly quietMs: number,
    private readonly run: (path: string) => Promise<void>,
    private readonly scheduler: Scheduler,
    private readonly onError: (path: string, err: unknown) => void,
  ) {
    if (!Number.isFinite(quietMs) || quietMs < 1)
      throw new RangeError(`quiet time must be a positive number of milliseconds, got ${quietMs}`);
  }

  /** The note at `path` changed now: its timer starts again. */
  touch(path: string): void {
    if (this.closed) return;
    const old = this.timers.get(path);
    if (old !== undefined) this.scheduler.clear(old);
    this.timers.set(
      path,
      this.scheduler.set(() => {
        this.timers.delete(path);
        this.chain = this.chain.then(() =>
          this.run(path).catch((err: unknown) => this.onError(path, err)),
        );
      }, this.quietMs),
    );
  }

  /** Notes waiting to fall quiet, sorted. */
  waiting(): string[] {
    return [...this.timers.keys()].sort();
  }

  /** Resolves when every run started so far has finished. */
  idle(): Promise<void> {
    return this.chain;
  }

  /** Cancels every timer; runs already started finish. */
  close(): Promise<void> {
    this.closed = true;
    for (const handle of this.timers.values()) this.scheduler.clear(handle);
    this.timers.clear();
    return this.chain;
  }
}
