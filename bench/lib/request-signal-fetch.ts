/**
 * A `fetch` for the SDK's `StreamableHTTPClientTransport` (its `fetch` option) that gives every
 * request an abort signal of its own, tied to the one the transport passes.
 *
 * Why: the transport passes one long-lived `AbortSignal` to every request of a connection, and
 * Node's fetch (undici) adds an `abort` listener to it per request that goes only when the request
 * is garbage-collected. The listeners pile up (`MaxListenersExceededWarning` past about 1,500
 * calls) and adding one walks the list, so a client's CPU per call grows with the calls it made
 * (docs/mcp.md, "Writing a client in Node"). Here undici's listener lands on a signal that lives as
 * long as its request, and the one listener on the transport's signal is removed once the answer's
 * headers are in, unless the answer is a stream (`text/event-stream`), which stays abortable until
 * the transport closes.
 *
 * @param base the fetch to call (the global one unless given)
 * @returns a fetch with the same answers and errors as `base`; aborting the transport's signal
 *   aborts every request in flight, as before
 */
export function requestSignalFetch(base: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const shared = init?.signal ?? null;
    if (shared === null || shared.aborted) return base(input, init);
    const own = new AbortController();
    const onAbort = (): void => own.abort(shared.reason);
    shared.addEventListener("abort", onAbort, { once: true });
    try {
      const res = await base(input, { ...init, signal: own.signal });
      if (!(res.headers.get("content-type") ?? "").includes("text/event-stream"))
        shared.removeEventListener("abort", onAbort);
      return res;
    } catch (error) {
      shared.removeEventListener("abort", onAbort);
      throw error;
    }
  };
}
