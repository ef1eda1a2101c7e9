/**
 * Chooses the extractor for a run (docs/architecture.md, "Extractors"): the language model when a
 * base URL is set (key from secret storage, `requestUrl` as fetch, the offline extractor for
 * explicit conventions), else the embedded offline extractor. The run's cancel signal is handed to
 * the extractor, so Cancel also aborts a pending chat completion.
 */
import { LlmExtractor } from "../../core/extraction/llm-extractor";
import { OfflineExtractor } from "../../core/extraction/offline";
import type { ExtractionInput, ExtractionResult, Extractor } from "../../core/extraction/types";
import type { Settings } from "../../core/settings";
import type { PluginContext } from "../context";
import type { ExtractorFactory } from "./extraction-runner";
import { apiKeyOf, llmConfigured, obsidianFetch } from "../adapters/llm-host";

/** Wraps `inner` so every `extract` call carries `signal` (the pipeline does not pass one). */
export function withSignal(inner: Extractor, signal: AbortSignal): Extractor {
  return {
    name: inner.name,
    extract: (input: ExtractionInput): Promise<ExtractionResult> =>
      inner.extract({ ...input, signal }),
  };
}

/** The extractor the settings ask for. */
export function extractorFor(ctx: PluginContext, settings: Settings): Extractor {
  const offline = new OfflineExtractor();
  if (!llmConfigured(settings)) return offline;
  return new LlmExtractor({
    settings,
    apiKey: apiKeyOf(ctx.app, settings),
    baseUrl: settings.llm.baseUrl.trim(),
    model: settings.llm.model.trim(),
    fetch: obsidianFetch(),
    offline,
  });
}

/** The factory `ExtractionRunner` uses in the plugin. */
export function createExtractorFactory(ctx: PluginContext): ExtractorFactory {
  return (settings, signal) => withSignal(extractorFor(ctx, settings), signal);
}
