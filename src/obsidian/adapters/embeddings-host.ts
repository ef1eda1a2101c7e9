/**
 * The embeddings server as the plugin reaches it (docs/plugin.md, "Semantic search"): the
 * settings' base URL and model, the API key from Obsidian's secret storage (the settings hold only
 * the secret's name, as for the language model), `requestUrl` as the SDK's fetch; and the vector
 * cache in the plugin's folder through the vault's `DataAdapter`.
 */
import { normalizePath, type App, type DataAdapter } from "obsidian";
import { createEmbeddingsClient, type EmbeddingsClient } from "../../core/llm/embeddings";
import type { VectorFiles } from "../../core/search/vectors";
import type { Settings } from "../../core/settings";
import { obsidianFetch } from "./llm-host";
import type { FetchLike } from "../../core/llm/client";

/** True when a base URL and a model are set: the plugin then embeds and searches hybrid. */
export function embeddingsConfigured(settings: Settings): boolean {
  return settings.embeddings.baseUrl.trim() !== "" && settings.embeddings.model.trim() !== "";
}

/** The API key named by `settings.embeddings.apiKeySecret`, or `""` when none is set or stored. */
export function embeddingsKeyOf(app: App, settings: Settings): string {
  const name = settings.embeddings.apiKeySecret.trim();
  return name ? (app.secretStorage.getSecret(name) ?? "") : "";
}

/**
 * The embeddings client for `purpose`: `index` with the indexing timeout and retries, `query` with
 * the search-time timeout (`embeddings.queryTimeoutMs`) and no retries, so a search never waits
 * long; `null` when {@link embeddingsConfigured} is false.
 * @throws UsageError for a base URL that cannot be used (credentials in it, not http or https)
 */
export function pluginEmbeddingsClient(
  app: App,
  settings: Settings,
  purpose: "index" | "query",
  fetch: FetchLike = obsidianFetch(),
): EmbeddingsClient | null {
  if (!embeddingsConfigured(settings)) return null;
  const s = settings.embeddings;
  return createEmbeddingsClient({
    baseUrl: s.baseUrl.trim(),
    apiKey: embeddingsKeyOf(app, settings),
    model: s.model.trim(),
    timeoutMs: purpose === "query" ? s.queryTimeoutMs : s.timeoutMs,
    maxRetries: purpose === "query" ? 0 : s.maxRetries,
    batchSize: s.batchSize,
    encoding: s.encoding,
    fetch,
  });
}

/** File names of the vector cache in the plugin's folder. */
const FILES = { vectors: "vectors.bin", notes: "vector-notes.json" } as const;

/**
 * {@link VectorFiles} over the vault's `DataAdapter`, in `folder` (the plugin's folder under the
 * config folder, never a note). `write` replaces the file with `writeBinary`; the files are a
 * rebuildable cache whose records carry checksums, so a write cut short costs a re-embedding of
 * what it held, never a wrong vector (docs/decisions.md, "The plugin's vector cache is written in
 * place").
 */
export class AdapterVectorFiles implements VectorFiles {
  constructor(
    private readonly adapter: DataAdapter,
    private readonly folder: string,
  ) {}

  private path(name: keyof typeof FILES): string {
    return normalizePath(`${this.folder}/${FILES[name]}`);
  }

  async read(name: keyof typeof FILES): Promise<Uint8Array | null> {
    const path = this.path(name);
    if (!(await this.adapter.exists(path))) return null;
    return new Uint8Array(await this.adapter.readBinary(path));
  }

  async append(name: "vectors", bytes: Uint8Array): Promise<void> {
    await this.ensureFolder();
    await this.adapter.appendBinary(this.path(name), toArrayBuffer(bytes));
  }

  async write(name: keyof typeof FILES, bytes: Uint8Array): Promise<void> {
    await this.ensureFolder();
    await this.adapter.writeBinary(this.path(name), toArrayBuffer(bytes));
  }

  private async ensureFolder(): Promise<void> {
    if (!(await this.adapter.exists(this.folder))) await this.adapter.mkdir(this.folder);
  }
}

function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}
