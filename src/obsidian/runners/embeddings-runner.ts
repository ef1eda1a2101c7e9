/**
 * Semantic search in the plugin (docs/plugin.md, "Semantic search"): once the search index is
 * ready, the blocks without a vector are embedded in the background, a chunk at a time with a
 * turn for the UI between chunks, progress in the status bar and "Cancel embedding" to stop
 * (the core's `embedIndex`, which keeps the chunks done and leaves isolated zones out unless
 * `embeddings.zones` lists them). Searches get the query client and the saved vectors
 * ({@link EmbeddingsRunner.source}); a dead, slow or wrong server makes them BM25, with one notice
 * per reason.
 */
import { Notice, type App } from "obsidian";
import { errorMessage } from "../../core/errors";
import type { FetchLike } from "../../core/llm/client";
import type { SearchService } from "../../core/search/search-service";
import type { VectorIndex } from "../../core/search/vectors";
import { embedIndex, loadVectors, type EmbedReport } from "../../core/semantic/embed-index";
import type { SemanticSource } from "../../core/semantic/hybrid";
import type { Settings } from "../../core/settings";
import type { VaultPort } from "../../core/vault";
import {
  AdapterVectorFiles,
  embeddingsConfigured,
  pluginEmbeddingsClient,
} from "../adapters/embeddings-host";
import type { StatusBarProgress } from "../views/status-bar-progress";
import { yieldToUi } from "../views/progress-notice";

/** Texts per chunk of the background run: one record of the vector file, then a turn for the UI. */
const PLUGIN_CHUNK_TEXTS = 64;

/** Settings the vectors depend on: when one changes, the stored vectors are looked at again. */
export function embeddingsSettingsKey(s: Settings): string {
  const e = s.embeddings;
  return JSON.stringify([e.baseUrl, e.model, e.apiKeySecret, e.dimensions, e.zones, e.encoding]);
}

export class EmbeddingsRunner {
  private vectors: VectorIndex | null = null;
  /** The model {@link vectors} were loaded for; `null` before the first load. */
  private vectorsModel: string | null = null;
  private controller: AbortController | null = null;
  private running: Promise<EmbedReport | null> | null = null;
  /** The last notice shown, so one reason is said once, not at every keystroke. */
  private lastNotice = "";
  private readonly files: AdapterVectorFiles;

  /**
   * @param folder vault path of the plugin's folder, where `vectors.bin` and `vector-notes.json` go
   * @param fetch the SDK's transport (tests pass one; the plugin uses `requestUrl`)
   */
  constructor(
    private readonly app: App,
    private readonly vault: Pick<VaultPort, "read">,
    private readonly settings: () => Settings,
    private readonly status: StatusBarProgress,
    folder: string,
    private readonly fetch?: FetchLike,
  ) {
    this.files = new AdapterVectorFiles(app.vault.adapter, folder);
  }

  /** True when a base URL and a model are set. */
  get configured(): boolean {
    return embeddingsConfigured(this.settings());
  }

  /** True while a background run is under way. */
  get busy(): boolean {
    return this.running !== null;
  }

  /**
   * What a search needs for hybrid retrieval: the query client and the saved vectors of its model
   * (`index` null before the first run), or `null` when embeddings are not configured or cannot be
   * used (said once in a notice).
   */
  async source(): Promise<SemanticSource | null> {
    if (!this.configured) return null;
    let client;
    try {
      client = pluginEmbeddingsClient(this.app, this.settings(), "query", this.fetch);
    } catch (err) {
      this.notice(`Semantic search is off: ${errorMessage(err)}`);
      return null;
    }
    if (!client) return null;
    if (this.vectorsModel !== client.model) await this.reload(client.model);
    return { client, index: this.vectors };
  }

  /** Reports why a search ran on BM25 alone: one notice per reason. */
  fallback(line: string): void {
    this.notice(`Memory search: ${line}`);
  }

  /** A hybrid search went through: the next fallback is said again. */
  succeeded(): void {
    this.lastNotice = "";
  }

  /**
   * Embeds the blocks of `service`'s notes that have no vector yet, in the background; a run already
   * under way is returned as it is. Never throws: a failure is said in the status bar and once in a
   * notice, and the vectors of the chunks done are kept.
   * @returns the report, or `null` when not configured, cancelled or failed
   */
  embed(service: SearchService): Promise<EmbedReport | null> {
    if (this.running) return this.running;
    if (!this.configured) return Promise.resolve(null);
    const controller = new AbortController();
    this.controller = controller;
    const run = this.run(service, controller).finally(() => {
      if (this.running === run) this.running = null;
      if (this.controller === controller) this.controller = null;
    });
    this.running = run;
    return run;
  }

  /** Stops a background run after its current request; true when one was running. */
  cancel(): boolean {
    if (!this.controller) return false;
    this.controller.abort();
    return true;
  }

  /** Forgets the loaded vectors (the settings changed); the next search or run loads them again. */
  reset(): void {
    this.cancel();
    this.vectors = null;
    this.vectorsModel = null;
  }

  private async run(
    service: SearchService,
    controller: AbortController,
  ): Promise<EmbedReport | null> {
    const settings = this.settings();
    const label = "Embedding memory";
    let client;
    try {
      client = pluginEmbeddingsClient(this.app, settings, "index", this.fetch);
    } catch (err) {
      this.notice(`Semantic search is off: ${errorMessage(err)}`);
      return null;
    }
    if (!client) return null;
    try {
      this.status.working(label, 0, 0);
      const report = await embedIndex({
        notes: service.notes(),
        vault: this.vault,
        client,
        files: this.files,
        settings: settings.embeddings,
        chunkTexts: PLUGIN_CHUNK_TEXTS,
        signal: controller.signal,
        yieldToHost: async () => {
          await yieldToUi();
          if (controller.signal.aborted) throw new Error("cancelled");
        },
        onProgress: (done, total) => {
          if (!controller.signal.aborted) this.status.working(label, done, total);
        },
      });
      await this.reload(client.model);
      this.status.finished(`Memory vectors: ${report.blocks} blocks`);
      this.lastNotice = "";
      return report;
    } catch (err) {
      if (controller.signal.aborted) {
        this.status.finished("Embedding cancelled");
        await this.reload(client.model);
        return null;
      }
      this.status.finished("Embedding failed");
      this.notice(`Embedding failed: ${errorMessage(err)}`);
      return null;
    }
  }

  private async reload(model: string): Promise<void> {
    try {
      this.vectors = await loadVectors(this.files, model);
    } catch (err) {
      this.vectors = null;
      this.notice(`Memory vectors could not be read: ${errorMessage(err)}`);
    }
    this.vectorsModel = model;
  }

  private notice(message: string): void {
    if (message === this.lastNotice) return;
    this.lastNotice = message;
    new Notice(message);
  }
}
