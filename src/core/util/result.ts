/**
 * The one shape of an outcome that may fail without throwing: `{ ok: true, value }` or
 * `{ ok: false, error }`. Used where a failure is an expected answer for the caller to show (a
 * query that does not parse, a tracker item that is not there, settings that do not validate);
 * I/O failures and broken invariants throw instead (`src/core/errors.ts`).
 *
 * `E` is a message (`string`) unless a caller needs more to act on (see `EditFailure`).
 */
export type Result<T, E = string> = { ok: true; value: T } | { ok: false; error: E };

/** A success carrying `value`. */
export function ok<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

/** A failure carrying `error` (a message naming the input, unless `E` says otherwise). */
export function err<E = string>(error: E): { ok: false; error: E } {
  return { ok: false, error };
}
