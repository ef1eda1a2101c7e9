/**
 * Chooses the extractor for the CLI from `--llm` and the environment
 * (docs/architecture.md, "The CLI contract"):
 * `AGENT_MEMORY_LLM_BASE_URL`, `AGENT_MEMORY_LLM_API_KEY`, `AGENT_MEMORY_LLM_MODEL`, falling back to
 * `OPENAI_BASE_URL` and `OPENAI_API_KEY`, and `AGENT_MEMORY_LLM_TIMEOUT_MS` (or `--timeout`) for
 * the per-request timeout. No API key is ever read from the vault's settings.
 */
import type { CliContext } from "./context";
import { UsageError } from "../core/errors";
import { checkBaseUrl, redactUrl } from "../core/url";
import { OfflineExtractor } from "../core/extraction/offline";
import { LlmExtractor } from "../core/extraction/llm-extractor";
import type { Extractor } from "../core/extraction/types";
import type { Waiting } from "../core/llm/client";

/** Longest timeout accepted, milliseconds (one hour). */
const MAX_TIMEOUT_MS = 3_600_000;

/**
 * A timeout as written after `--timeout` or in `AGENT_MEMORY_LLM_TIMEOUT_MS`, in milliseconds:
 * `90000`, `1500ms`, `90s`, `2m` (a bare number is milliseconds, as in the variable's name).
 * @throws UsageError naming `source` for anything else, or a value outside 1 ms – 1 hour.
 */
export function parseTimeout(raw: string, source: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m)?\s*$/i.exec(raw);
  const unit = (m?.[2] ?? "ms").toLowerCase();
  const ms = m ? Math.round(Number(m[1]) * (unit === "m" ? 60_000 : unit === "s" ? 1000 : 1)) : NaN;
  if (!Number.isFinite(ms) || ms < 1 || ms > MAX_TIMEOUT_MS) {
    throw new UsageError(
      `${source} must be a time from 1 ms to 1 hour, such as 90s, 1500ms, 2m or 90000 (milliseconds), not "${raw}"`,
      source,
    );
  }
  return ms;
}

/** The timeout a run uses: `--timeout`, else `AGENT_MEMORY_LLM_TIMEOUT_MS`, else the `llm.timeoutMs` setting. */
export function llmTimeoutMs(ctx: CliContext, flag: string | undefined): number {
  if (flag !== undefined) return parseTimeout(flag, "--timeout");
  const env = ctx.env.AGENT_MEMORY_LLM_TIMEOUT_MS;
  if (env !== undefined && env !== "") return parseTimeout(env, "AGENT_MEMORY_LLM_TIMEOUT_MS");
  return ctx.settings.llm.timeoutMs;
}

/** The stderr line for a request still waiting: `waiting for model m at URL: 20 s (attempt 1 of 3, timeout 60 s)`. */
export function waitingLine(model: string, baseUrl: string, w: Waiting): string {
  const secs = (ms: number) =>
    ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
  return `waiting for model ${model} at ${redactUrl(baseUrl)}: ${secs(w.waitedMs)} (attempt ${w.attempt} of ${w.attempts}, timeout ${secs(w.timeoutMs)})`;
}

export interface LlmEnv {
  baseUrl: string;
  /** The variable the base URL came from, for messages (`AGENT_MEMORY_LLM_BASE_URL` when none is set). */
  baseUrlVar: "AGENT_MEMORY_LLM_BASE_URL" | "OPENAI_BASE_URL";
  apiKey: string;
  model: string;
}

/** LLM connection from the environment; the model falls back to the vault settings (`llm.model`). */
export function llmEnv(ctx: CliContext): LlmEnv {
  const env = ctx.env;
  return {
    baseUrl: env.AGENT_MEMORY_LLM_BASE_URL || env.OPENAI_BASE_URL || "",
    baseUrlVar:
      !env.AGENT_MEMORY_LLM_BASE_URL && env.OPENAI_BASE_URL
        ? "OPENAI_BASE_URL"
        : "AGENT_MEMORY_LLM_BASE_URL",
    apiKey: env.AGENT_MEMORY_LLM_API_KEY || env.OPENAI_API_KEY || "",
    model: env.AGENT_MEMORY_LLM_MODEL || ctx.settings.llm.model || "",
  };
}

/**
 * The one-line usage error for a base URL that cannot be used
 * (docs/decisions.md, "Credentials never go in the base URL"), or `null`. Checked before any
 * request: `fetch` refuses a URL with
 * credentials without sending it, which would otherwise read as a server that is not running.
 */
export function baseUrlError(conn: LlmEnv): UsageError | null {
  if (conn.baseUrl === "") return null;
  const problem = checkBaseUrl(conn.baseUrl);
  if (!problem) return null;
  const advice =
    problem.kind === "credentials"
      ? "; give the URL without them and put the key in AGENT_MEMORY_LLM_API_KEY"
      : "";
  return new UsageError(`${conn.baseUrlVar} ${problem.reason}${advice}`, conn.baseUrlVar);
}

/**
 * Builds the extractor and says why it was chosen.
 * @throws UsageError for `--llm openai` without a server or model, and for a base URL that cannot
 *   be used ({@link baseUrlError}), before anything is sent.
 */
export function createCliExtractor(
  ctx: CliContext,
  llm: string | undefined,
  timeout?: string,
): { extractor: Extractor; why: string } {
  const conn = llmEnv(ctx);
  if (timeout !== undefined) parseTimeout(timeout, "--timeout"); // a bad flag is refused even offline
  const configured = conn.baseUrl !== "" || conn.apiKey !== "";
  const wanted = llm ?? (configured ? "openai" : "offline");
  if (wanted === "offline") {
    return {
      extractor: new OfflineExtractor(),
      why: llm
        ? "--llm offline"
        : "no LLM configured: set AGENT_MEMORY_LLM_BASE_URL (or AGENT_MEMORY_LLM_API_KEY) and AGENT_MEMORY_LLM_MODEL to use a model",
    };
  }
  if (!configured) {
    throw new UsageError(
      "--llm openai needs a server: set AGENT_MEMORY_LLM_BASE_URL (and AGENT_MEMORY_LLM_API_KEY if the server needs a key)",
    );
  }
  const badUrl = baseUrlError(conn);
  if (badUrl) throw badUrl;
  if (!conn.model)
    throw new UsageError(
      "--llm openai needs a model name: set AGENT_MEMORY_LLM_MODEL (e.g. gpt-4o-mini, qwen2.5:14b)",
    );
  const timeoutMs = llmTimeoutMs(ctx, timeout);
  const extractor = new LlmExtractor({
    settings: ctx.settings,
    apiKey: conn.apiKey,
    baseUrl: conn.baseUrl,
    model: conn.model,
    fetch: (input, init) => fetch(input, init),
    offline: new OfflineExtractor(),
    timeoutMs,
    onWaiting: (w) => ctx.err(waitingLine(conn.model, conn.baseUrl || "the OpenAI API", w)),
  });
  return {
    extractor,
    why: `${llm ? "--llm openai" : "LLM configured in the environment"}: model ${conn.model} at ${redactUrl(conn.baseUrl) || "the OpenAI API"}`,
  };
}
