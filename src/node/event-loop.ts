/**
 * Yielding to Node's event loop, for long work on a thread that must keep answering (a server's
 * reads, a command that must see Ctrl-C): one home for "let the waiting I/O run", and for keeping
 * a server's background work out of the way of the requests it answers.
 */
import { SLICE_MS, timeSlicer } from "../core/util/slices";

/** Resolves on the event loop's next turn, after the I/O already waiting (`setImmediate`). */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * A time slicer (src/core/util/slices.ts) that yields with {@link nextTurn} once its 4 ms slice is
 * used up: what a long-lived host gives its vault (`NodeVaultOptions.slice`).
 */
export function hostSlicer(): () => Promise<void> {
  return timeSlicer(nextTurn);
}

/**
 * Quiet time (ms) after the last request ended before a server's background work goes on: a
 * client asking one search after another (an agent's burst of tool calls) is not slowed by it.
 */
export const BACKGROUND_QUIET_MS = 25;

/**
 * The requests a server is answering (docs/decisions.md, "Background work waits for requests"):
 * each request runs through {@link Foreground.run}; the server's background work (the
 * SessionStart briefs computed ahead) slices itself with {@link Foreground.backgroundSlicer}, which
 * yields while any request is in flight and until none has been for `quietMs`. A request thus
 * waits for at most one slice of background work, where a plain {@link hostSlicer} would share
 * the thread with it slice by slice until the background work is done.
 */
export class Foreground {
  private inFlight = 0;
  private lastEnd = Number.NEGATIVE_INFINITY;
  private waiters: (() => void)[] = [];

  /**
   * @param quietMs quiet time after the last request before background work resumes, ms
   * @param now the clock, ms (tests give their own)
   */
  constructor(
    private readonly quietMs: number = BACKGROUND_QUIET_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Requests in flight now. */
  get busy(): number {
    return this.inFlight;
  }

  /** Runs one request; background work waits while it is in flight. Returns or throws as `work` does. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    this.inFlight++;
    try {
      return await work();
    } finally {
      this.inFlight--;
      this.lastEnd = this.now();
      if (this.inFlight === 0) {
        const waiters = this.waiters;
        this.waiters = [];
        for (const wake of waiters) wake();
      }
    }
  }

  /**
   * Resolves on a later turn of the event loop once no request is in flight and none ended in the
   * last `quietMs`; at once (a turn) when the server is quiet. Never rejects.
   */
  async quiet(): Promise<void> {
    await nextTurn();
    for (;;) {
      if (this.inFlight > 0) {
        await new Promise<void>((resolve) => this.waiters.push(resolve));
        continue;
      }
      const left = this.lastEnd + this.quietMs - this.now();
      if (left <= 0) return;
      await new Promise<void>((resolve) => setTimeout(resolve, Math.ceil(left)).unref?.());
    }
  }

  /**
   * A time slicer for background work: once its slice is used up it waits for {@link quiet}.
   * @param sliceMs longest run between two yields, ms
   */
  backgroundSlicer(sliceMs: number = SLICE_MS): () => Promise<void> {
    return timeSlicer(() => this.quiet(), sliceMs, this.now);
  }
}
