/**
 * Retries with backoff for chat completion requests, and the one-line error a person sees when a
 * server keeps failing (docs/architecture.md, "Extractors"). The SDK's own retries are turned off
 * (`maxRetries: 0`), for what they cannot do (measured with openai 6.49 against a local server):
 * - a `Retry-After` of any length is waited for (120 s: still waiting after 5 s); here one above
 *   {@link MAX_RETRY_AFTER_MS} fails at once with the server's 429;
 * - their backoff (0.5 s doubling to 8 s) is fixed in a private method, so a dead server with two
 *   retries costs 1.6 s and three 500s 1.8 s of real waiting, in every test that retries
 *   (headers can shorten it for a status, not for a refused connection or a timeout); here the
 *   caller sets the first delay and the sleep;
 * - the error they throw does not say how many attempts were made; ours does.
 * The backoff is the SDK's: 500 ms doubled per retry, capped at 8 s, up to 25% jitter; the
 * retryable statuses are the SDK's too (408, 409, 429, 5xx). The status of each failure comes from
 * the SDK's `APIError`, which is why the plugin's `requestUrl` fetch must return 4xx/5xx responses
 * instead of throwing.
 */
// The error classes alone: the client (and the whole SDK) stays out of a bundle that needs no model.
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from "openai/error";
import { LlmError } from "../errors";
import { redactUrl } from "../url";

/** How retries are paced. */
export interface RetryPolicy {
  /** Retries after the first attempt (settings `llm.maxRetries`). */
  maxRetries: number;
  /** First backoff delay, milliseconds; doubled on each retry, capped at {@link MAX_BACKOFF_MS}. */
  retryBaseMs: number;
  sleep: (ms: number) => Promise<void>;
}

/** Upper bound of one backoff delay, milliseconds. */
export const MAX_BACKOFF_MS = 8_000;
/** A `Retry-After` longer than this (milliseconds) is not waited for; the request fails instead. */
export const MAX_RETRY_AFTER_MS = 60_000;

/** Default sleep. Core code cannot use `window` timers: it also runs under Node (the CLI). */
export function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** What went wrong on one attempt. */
export interface FailureInfo {
  kind: "status" | "timeout" | "connection" | "aborted" | "other";
  status?: number;
  /** The server's own message, redacted, at most 200 characters. */
  detail: string;
  retryable: boolean;
  /** Delay the server asked for (`retry-after-ms` / `retry-after`), milliseconds. */
  retryAfterMs?: number;
}

/** True for statuses worth retrying: request timeout, conflict/lock, rate limit, server errors. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * Removes the API key, any bearer token and the user name and password of any URL ({@link redactUrl})
 * from text that may be shown or logged. Some servers echo the key they rejected in their error
 * message; `fetch` and the SDK echo the URL they refused.
 */
export function redact(text: string, apiKey: string): string {
  let out = redactUrl(text).replace(/Bearer\s+\S+/gi, "Bearer [redacted]");
  if (apiKey.length >= 4) out = out.split(apiKey).join("[redacted]");
  return out;
}

function retryAfterMs(headers: Headers | undefined): number | undefined {
  if (!headers) return undefined;
  const ms = Number.parseFloat(headers.get("retry-after-ms") ?? "");
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const raw = headers.get("retry-after");
  if (!raw) return undefined;
  const seconds = Number.parseFloat(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(raw);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}

/** The server's own words: `error.message` of the body, else the SDK's message without its status. */
function serverMessage(body: unknown, sdkMessage: string): string {
  if (typeof body === "string") return body;
  if (typeof body === "object" && body !== null) {
    const message = (body as { message?: unknown }).message;
    if (typeof message === "string") return message;
  }
  // The SDK's message starts with the status ("404 model not found"); the status is reported apart.
  return sdkMessage.replace(/^\d{3}\s*/, "");
}

function causeCode(err: unknown): string {
  let cur: unknown = err;
  for (let depth = 0; depth < 4 && cur instanceof Error; depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === "string") return code;
    cur = cur.cause;
  }
  return "";
}

/** Classifies a thrown value from the SDK. Never includes the key in `detail`. */
export function classifyFailure(err: unknown, apiKey: string): FailureInfo {
  const clip = (s: string) => {
    const one = redact(s, apiKey).replace(/\s+/g, " ").trim();
    return one.length > 200 ? `${one.slice(0, 199)}…` : one;
  };
  if (err instanceof APIUserAbortError)
    return { kind: "aborted", detail: "cancelled", retryable: false };
  if (err instanceof APIConnectionTimeoutError)
    return { kind: "timeout", detail: "timed out", retryable: true };
  if (err instanceof APIConnectionError) {
    return { kind: "connection", detail: clip(causeCode(err) || err.message), retryable: true };
  }
  if (err instanceof APIError) {
    // `instanceof` gives APIError<any, any, any>; read the fields as what they are at run time.
    const status: unknown = err.status;
    const headers: unknown = err.headers;
    const body: unknown = err.error;
    if (typeof status !== "number")
      return { kind: "other", detail: clip(err.message), retryable: false };
    const info: FailureInfo = {
      kind: "status",
      status,
      detail: clip(serverMessage(body, err.message)),
      retryable: isRetryableStatus(status),
    };
    const after = retryAfterMs(headers instanceof Headers ? headers : undefined);
    if (after !== undefined) info.retryAfterMs = after;
    return info;
  }
  return {
    kind: "other",
    detail: clip(err instanceof Error ? err.message : String(err)),
    retryable: false,
  };
}

/**
 * What to check for a failure, in words a person can act on (docs/architecture.md, "Extractors").
 */
export function hintFor(info: FailureInfo, model: string, timeoutMs: number): string {
  switch (info.kind) {
    case "timeout":
      return `check that the server is running and the base URL, or raise the timeout (now ${timeoutMs} ms)`;
    case "connection":
      return "check the base URL and that the server is running and reachable";
    case "aborted":
      return "the run was cancelled";
    case "other":
      return "check the base URL, the API key and the model name";
    case "status":
      break;
  }
  const status = info.status ?? 0;
  if (status === 401 || status === 403) return "check the API key";
  if (status === 404)
    return `check the model name "${model}" and the base URL (OpenAI-compatible servers usually end in /v1)`;
  if (status === 400 || status === 422)
    return `check the model name "${model}" and that the server supports chat completions`;
  if (status === 429)
    return "the server is rate limiting or the quota is used up; wait, or check the plan and the API key";
  if (status >= 500) return "the server failed; try again later or check the server's logs";
  return "check the base URL, the API key and the model name";
}

/**
 * The one-line error after the last attempt, e.g.
 * `chat completion at http://localhost:11434/v1 failed: HTTP 404 (model "x" not found) after 1 attempt; check the model name …`.
 * The base URL is shown (and made the error's subject) without user name or password ({@link redactUrl}).
 */
export function describeFailure(
  info: FailureInfo,
  ctx: { baseUrl: string; model: string; timeoutMs: number; attempts: number; what: string },
): LlmError {
  const attempts = `${ctx.attempts} attempt${ctx.attempts === 1 ? "" : "s"}`;
  let what: string;
  switch (info.kind) {
    case "timeout":
      what = `timed out after ${ctx.timeoutMs} ms`;
      break;
    case "connection":
      what = `could not connect${info.detail ? ` (${info.detail})` : ""}`;
      break;
    case "aborted":
      what = "was cancelled";
      break;
    case "status":
      what = `failed: HTTP ${info.status ?? "?"}${info.detail ? ` (${info.detail})` : ""}`;
      break;
    default:
      what = `failed${info.detail ? ` (${info.detail})` : ""}`;
  }
  const hint = hintFor(info, ctx.model, ctx.timeoutMs);
  const shown = redactUrl(ctx.baseUrl);
  return new LlmError(`${ctx.what} at ${shown} ${what} after ${attempts}; ${hint}`, shown);
}

/** Backoff before retry number `retry` (1-based), milliseconds, with up to 25% jitter. */
export function backoffMs(
  retry: number,
  baseMs: number,
  random: () => number = Math.random,
): number {
  const base = Math.min(baseMs * 2 ** (retry - 1), MAX_BACKOFF_MS);
  return Math.round(base * (1 - 0.25 * random()));
}

/**
 * Runs `attempt` until it succeeds, fails with a non-retryable error, or retries run out.
 * @returns the value and the number of attempts made.
 * @throws the last failure, classified, through `fail` (an {@link LlmError}).
 */
export async function withRetries<T>(
  attempt: () => Promise<T>,
  policy: RetryPolicy,
  classify: (err: unknown) => FailureInfo,
  fail: (info: FailureInfo, attempts: number) => Error,
): Promise<{ value: T; attempts: number }> {
  for (let n = 1; ; n++) {
    try {
      return { value: await attempt(), attempts: n };
    } catch (err) {
      const info = classify(err);
      const tooLong = info.retryAfterMs !== undefined && info.retryAfterMs > MAX_RETRY_AFTER_MS;
      if (!info.retryable || n > policy.maxRetries || tooLong) throw fail(info, n);
      await policy.sleep(info.retryAfterMs ?? backoffMs(n, policy.retryBaseMs));
    }
  }
}
