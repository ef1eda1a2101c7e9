/**
 * URLs in messages and the LLM base URL check
 * (docs/decisions.md, "Credentials never go in the base URL"). A URL may carry a user name and
 * password (`http://user:pass@host/v1`); {@link redactUrl}
 * takes them out of any text before it is shown, and {@link checkBaseUrl} refuses such a base URL,
 * or one that is not http(s), before any request is made (the `fetch` of Node and of browsers
 * refuses URLs with credentials anyway). Tests: test/core/url.test.ts; test/cli/cli-llm.process.test.ts.
 */

/**
 * A scheme, `://`, then the user info up to the last `@` before the host ends (whitespace, `/`,
 * `?` or `#`). Greedy, so a password holding `@` is taken whole.
 */
const USER_INFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#]*@/gi;

/** What replaces the user info of a URL in a message. */
export const REDACTED_USER_INFO = "[redacted]";

/**
 * Removes the user name and password of every URL in `text`, and the values of query parameters
 * that carry secrets ({@link SECRET_PARAM}):
 * `chat completion at http://user:secret@host/v1 failed` → `… at http://[redacted]@host/v1 failed`.
 * Text without such a URL comes back unchanged. Every message the project prints that may hold a
 * URL or a library's error text (the OpenAI SDK and `fetch` echo the URL) goes through it:
 * `errorMessage` (src/core/errors.ts) applies it to every error, the CLI to every stderr line.
 */
export function redactUrl(text: string): string {
  return text
    .replace(USER_INFO, `$1${REDACTED_USER_INFO}@`)
    .replace(SECRET_PARAM, `$1${REDACTED_USER_INFO}`);
}

/**
 * A query parameter that carries a secret in a URL (`?key=…`, `&api_key=…`, `access_token`,
 * `token`, `secret`, `password`, `sig`): its value is redacted too. Some servers take the key
 * that way.
 */
const SECRET_PARAM =
  /([?&](?:api[-_]?key|key|access[-_]?token|token|secret|password|passwd|sig|signature|auth)=)(?!\[redacted)[^&#\s]*/gi;

/** Why a base URL cannot be used. */
export interface BaseUrlProblem {
  /** `credentials`: a user name or password in it; `scheme`: not http/https; `unparsable`: not a URL. */
  kind: "credentials" | "scheme" | "unparsable";
  /**
   * The reason, to follow the setting's name (`AGENT_MEMORY_LLM_BASE_URL has …`). It never repeats
   * the URL, so it holds no credentials; the caller adds where the key belongs instead.
   */
  reason: string;
}

/**
 * Checks an OpenAI-compatible base URL before anything is sent to it. Surrounding whitespace is
 * ignored; an empty string is not a URL (callers treat "" as "no server" before asking).
 * @returns `null` when the URL is usable, else the problem: it does not parse, its scheme is not
 *   `http:` or `https:`, or it has a user name or password (`http://user:pass@host`).
 */
export function checkBaseUrl(baseUrl: string): BaseUrlProblem | null {
  const text = baseUrl.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return {
      kind: "unparsable",
      reason:
        "is not a URL; write it in full, e.g. http://localhost:11434/v1 or https://api.openai.com/v1",
    };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    // `localhost:11434/v1` and `user:pass@host` parse with the scheme `localhost:` / `user:`: the
    // scheme is named only when it was written as one (`ftp://`), so a user name is never echoed.
    const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text)
      ? ` (it has ${url.protocol.slice(0, -1)}://)`
      : "";
    return {
      kind: "scheme",
      reason: `does not start with http:// or https://${scheme}; only http and https servers are supported`,
    };
  }
  if (url.username !== "" || url.password !== "") {
    return {
      kind: "credentials",
      reason:
        "has credentials in it (a user name or password before the host), which are never sent",
    };
  }
  return null;
}
