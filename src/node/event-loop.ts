/**
 * Yielding to Node's event loop, for long work on a thread that must keep answering (a server's
 * reads, a command that must see Ctrl-C): one home for "let the waiting I/O run".
 */
import { timeSlicer } from "../core/util/slices";

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
