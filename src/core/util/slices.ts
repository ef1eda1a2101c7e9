/**
 * Time slices for long work on a thread that must keep answering (docs/architecture.md, "The saved
 * index"): the work calls the slicer often; it yields to the host only when a slice's time is
 * used up, so a search waiting for the thread waits at most about one slice, and short work never
 * pays for a yield.
 */

/** Longest run between two yields of a {@link timeSlicer}, ms. */
export const SLICE_MS = 4;

function clock(): number {
  return typeof performance !== "undefined" ? performance.now() : Date.now();
}

/**
 * A slicer over `yieldToHost`: each call awaits `yieldToHost()` when at least `sliceMs`
 * milliseconds passed since the slicer was made or last yielded, and otherwise resolves at once
 * (a microtask). `now` is the clock in ms (tests give their own).
 */
export function timeSlicer(
  yieldToHost: () => Promise<void>,
  sliceMs: number = SLICE_MS,
  now: () => number = clock,
): () => Promise<void> {
  let since = now();
  return async () => {
    if (now() - since < sliceMs) return;
    await yieldToHost();
    since = now();
  };
}
