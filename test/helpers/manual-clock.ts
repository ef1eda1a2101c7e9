// A clock driven by hand for timer tests (docs/testing.md: no test depends on timing): timers
// fire only when the test calls advance(), in due order.
import type { Scheduler } from "../../src/core/watch";

export class ManualClock implements Scheduler {
  now = 0;
  private next = 1;
  private readonly timers = new Map<number, { at: number; fn: () => void }>();

  set(fn: () => void, ms: number): number {
    const id = this.next++;
    this.timers.set(id, { at: this.now + ms, fn });
    return id;
  }

  clear(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  /** Timers waiting. */
  get pending(): number {
    return this.timers.size;
  }

  /** Moves the clock forward by `ms`, firing every timer that falls due, earliest first. */
  advance(ms: number): void {
    const end = this.now + ms;
    for (;;) {
      const due = [...this.timers.entries()]
        .filter(([, t]) => t.at <= end)
        .sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.now = due[1].at;
      due[1].fn();
    }
    this.now = end;
  }
}
