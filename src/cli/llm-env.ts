/**
 * Chooses the extractor for the CLI from `--llm` and the environment (DESIGN §7, issue 3 §9):
 * `AGENT_MEMORY_LLM_BASE_URL`, `AGENT_MEMORY_LLM_API_KEY`, `AGENT_MEMORY_LLM_MODEL`, falling back to
 * `OPENAI_BASE_URL` and `OPENAI_API_KEY`. No API key is ever read from the vault's settings.
 */
import type { CliContext } from "./context";
import { UsageError } from "../core/errors";
import { OfflineExtractor } from "../core/extraction/offline";
import { LlmExtractor } from "../core/extraction/llm-extractor";
import type { Extractor } from "../core/extraction/types";

export interface LlmEnv {
  baseUrl: string;
  apiKey: string;
  model: string;
}

/** LLM connection from the environment, then the vault settings (base URL and model only). */
export function llmEnv(ctx: CliContext): LlmEnv {
  const env = ctx.env;
  return {
    baseUrl: env.AGENT_MEMORY_LLM_BASE_URL || env.OPENAI_BASE_URL || "",
    apiKey: env.AGENT_MEMORY_LLM_API_KEY || env.OPENAI_API_KEY || "",
    model: env.AGENT_MEMORY_LLM_MODEL || ctx.settings.llm.model || "",
  };
}

/** Builds the extractor and says why it was chosen. Throws {@link UsageError} for `--llm openai` without a server. */
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
  if (!conn.model) throw new UsageError("--llm openai needs a model name: set AGENT_MEMORY_LLM_MODEL (e.g. gpt-4o-mini, qwen2.5:14b)");
  const extractor = new LlmExtractor({
    settings: ctx.settings,
    apiKey: conn.apiKey,
    baseUrl: conn.baseUrl,
    model: conn.model,
    fetch: (input, init) => fetch(input, init),
    offline: new OfflineExtractor(),
  });
  return { extractor, why: `${llm ? "--llm openai" : "LLM configured in the environment"}: model ${conn.model} at ${conn.baseUrl || "the OpenAI API"}` };
}
