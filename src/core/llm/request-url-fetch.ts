/**
 * A `fetch` built on Obsidian's `requestUrl`, for the OpenAI SDK inside the plugin (network
 * through `requestUrl`, which is not subject to CORS). The function is passed in so the core does
 * not import `obsidian`. See https://docs.obsidian.md/Reference/TypeScript+API/requestUrl
 */

/** The subset of Obsidian's `RequestUrlParam` used here. */
export interface RequestUrlParamLike {
  url: string;
  method?: string;
  contentType?: string;
  body?: string | ArrayBuffer;
  headers?: Record<string, string>;
  /** `false`: a 4xx/5xx status resolves instead of rejecting. */
  throw?: boolean;
}

/** The subset of Obsidian's `RequestUrlResponse` used here. */
export interface RequestUrlResponseLike {
  status: number;
  headers: Record<string, string>;
  arrayBuffer: ArrayBuffer;
}

/** Obsidian's `requestUrl`, structurally. */
export type RequestUrlLike = (request: RequestUrlParamLike) => Promise<RequestUrlResponseLike>;

/** The `fetch` signature the OpenAI SDK accepts (`ClientOptions.fetch`). */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Statuses whose responses must not carry a body (Fetch standard "null body status"). */
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

function abortError(): Error {
  const err = new Error("The operation was aborted.");
  err.name = "AbortError";
  return err;
}

async function bodyOf(
  input: string | URL | Request,
  init: RequestInit | undefined,
): Promise<string | ArrayBuffer | undefined> {
  const body =
    init?.body ?? (input instanceof Request && input.body ? await input.arrayBuffer() : undefined);
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string" || body instanceof ArrayBuffer) return body;
  // Blob, FormData, URLSearchParams, typed arrays, streams: let the platform serialise them.
  return await new Response(body).arrayBuffer();
}

/**
 * Builds a `fetch`-compatible function on `requestUrl`. It calls `requestUrl` with `throw: false`
 * so a 4xx/5xx reply becomes a `Response` with that status, which the SDK turns into an `APIError`
 * whose status the retry logic and the error message need. An aborted `signal` (the SDK's timeout or
 * a cancelled run) rejects with an `AbortError`, as `fetch` does; `requestUrl` itself cannot be
 * cancelled, so its late reply is ignored.
 * @param requestUrl Obsidian's `requestUrl` (or any function of the same shape).
 */
export function requestUrlFetch(requestUrl: RequestUrlLike): FetchLike {
  return async (input, init) => {
    const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    if (signal?.aborted) throw abortError();
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const headers: Record<string, string> = {};
    new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined)).forEach(
      (value, key) => {
        headers[key] = value;
      },
    );
    const request: RequestUrlParamLike = {
      url,
      method: init?.method ?? (input instanceof Request ? input.method : "GET"),
      headers,
      throw: false,
    };
    const body = await bodyOf(input, init);
    if (body !== undefined) request.body = body;
    if (headers["content-type"]) request.contentType = headers["content-type"];

    const pending = requestUrl(request);
    const reply = signal
      ? await new Promise<RequestUrlResponseLike>((resolve, reject) => {
          const onAbort = () => reject(abortError());
          signal.addEventListener("abort", onAbort, { once: true });
          pending.then(
            (r) => {
              signal.removeEventListener("abort", onAbort);
              resolve(r);
            },
            (e: unknown) => {
              signal.removeEventListener("abort", onAbort);
              reject(e instanceof Error ? e : new Error(String(e)));
            },
          );
        })
      : await pending;

    const status = reply.status >= 200 && reply.status <= 599 ? reply.status : 502;
    return new Response(NULL_BODY_STATUS.has(status) ? null : reply.arrayBuffer, {
      status,
      headers: reply.headers,
    });
  };
}
