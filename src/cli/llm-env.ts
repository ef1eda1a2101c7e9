/**
 * Chooses the extractor for the CLI from `--llm` and the environment (DESIGN §7, issue 3 §9):
 * `AGENT_MEMORY_LLM_BASE_URL`, `AGENT_MEMORY_LLM_API_KEY`, `AGENT_MEMORY_LLM_MODEL`, falling back to
 * `OPENAI_BASE_URL` and `OPENAI_API_KEY`. No API key is ever read from the vault's settings.
 */
import type { CliContext } from "./context";
import { UsageError } from "../core/errors";
import { checkBaseUrl, redactUrl } from "../core/url";
import { OfflineExtractor } from "../core/extraction/offline";
import { LlmExtractor } from "../core/extraction/llm-extractor";
import type { Extractor } from "../core/extraction/types";

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
    baseUrlVar: !env.AGENT_MEMORY_LLM_BASE_URL && env.OPENAI_BASE_URL ? "OPENAI_BASE_URL" : "AGENT_MEMORY_LLM_BASE_URL",
    apiKey: env.AGENT_MEMORY_LLM_API_KEY || env.OPENAI_API_KEY || "",
    model: env.AGENT_MEMORY_LLM_MODEL || ctx.settings.llm.model || "",
  };
}

/**
 * The one-line usage error for a base URL that cannot be used (issue 12 §6), or `null`. Checked
 * before any request: `fetch` refuses a URL with credentials without sending it, which would
 * otherwise read as a server that is not running.
 */
export function baseUrlError(conn: LlmEnv): UsageError | null {
  if (conn.baseUrl === "") return null;
  const problem = checkBaseUrl(conn.baseUrl);
  if (!problem) return null;
  const advice = problem.kind === "credentials" ? "; give the URL without them and put the key in AGENT_MEMORY_LLM_API_KEY" : "";
  return new UsageError(`${conn.baseUrlVar} ${problem.reason}${advice}`, conn.baseUrlVar);
}

/**
 * Builds the extractor and says why it was chosen.
 * @throws UsageError for `--llm openai` without a server or model, and for a base URL that cannot
 *   be used ({@link baseUrlError}), before anything is sent.
 */
export function createCliExtractor(ctx: CliContext, llm: string | undefined): { extractor: Extractor; why: string } {
  const conn = llmEnv(ctx);
  const configured = conn.baseUrl !== "" || conn.apiKey !== "";
  const wanted = llm ?? (configured ? "openai" : "offline");
  if (wanted === "offline") {
    return { extractor: new OfflineExtractor(), why: llm ? "--llm offline" : "no LLM configured: set AGENT_MEMORY_LLM_BASE_URL (or AGENT_MEMORY_LLM_API_KEY) and AGENT_MEMORY_LLM_MODEL to use a model" };
  }
  if (!configured) {
    throw new UsageError("--llm openai needs a server: set AGENT_MEMORY_LLM_BASE_URL (and AGENT_MEMORY_LLM_API_KEY if the server needs a key)");
  }
  const badUrl = baseUrlError(conn);
  if (badUrl) throw badUrl;
  if (!conn.model) throw new UsageError("--llm openai needs a model name: set AGENT_MEMORY_LLM_MODEL (e.g. gpt-4o-mini, qwen2.5:14b)");
  const extractor = new LlmExtractor({
    settings: ctx.settings,
    apiKey: conn.apiKey,
    baseUrl: conn.baseUrl,
    model: conn.model,
    fetch: (input, init) => fetch(input, init),
    offline: new OfflineExtractor(),
  });
  return { extractor, why: `${llm ? "--llm openai" : "LLM configured in the environment"}: model ${conn.model} at ${redactUrl(conn.baseUrl) || "the OpenAI API"}` };
}
