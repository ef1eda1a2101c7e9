/**
 * Milliseconds of a monotonic clock (`performance.now()` where the host has it, else `Date.now()`),
 * for durations such as a search's `took_ms`; not a date (see ./dates.ts for those).
 */
export function clock(): number {
  return typeof performance !== "undefined" ? performance.now() : Date.now();
}
