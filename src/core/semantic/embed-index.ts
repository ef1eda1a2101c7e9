/**
 * Embedding the blocks of the vault (docs/architecture.md, "Semantic recall"): after the search
 * index is current, every block that passages use and that has no vector yet for the configured
 * model is sent to the embeddings server, one request's batch at a time; each batch's vectors are
 * appended to the vector file as one checksummed record as soon as they arrive, so a killed run
 * keeps every batch received before the kill, and the next run sends only the rest. A note
 * whose mtime and size are unchanged is not read again; a second run over an unchanged vault sends
 * nothing. Notes of an isolated zone are embedded only when `embeddings.zones` lists the zone.
 */
import { LlmError, UsageError } from "../errors";
import type { EmbeddingsClient } from "../llm/embeddings";
import type { Settings } from "../settings";
import type { VaultPort } from "../vault";
import type { NoteMeta } from "../search/note-document";
import { embeddableBlocks, VectorIndex, type VectorFiles } from "../search/vectors";

/**
 * Texts embedded between two writes of the vector file when the client says no batch size
 * ({@link EmbeddingsClient.batchSize}, which is used otherwise: one record per request).
 */
export const CHUNK_TEXTS = 64;

/** Options of {@link embedIndex}. */
export interface EmbedIndexOptions {
  /** The indexed notes (`SearchService.notes()`), so only what the search index holds is embedded. */
  notes: readonly NoteMeta[];
  vault: Pick<VaultPort, "read">;
  client: EmbeddingsClient;
  files: VectorFiles;
  settings: Settings["embeddings"];
  /** Drop the stored vectors and embed every block again. */
  rebuild?: boolean;
  /**
   * Texts per record of the vector file, at most (default: the client's batch size, else
   * {@link CHUNK_TEXTS}); never more than the client's batch size, so that no vector received
   * waits for another request before it is written.
   */
  chunkTexts?: number;
  /**
   * Called before the first request and after each record is written: texts embedded and saved so
   * far in this run, and texts to send in this run (0 when there is nothing to send).
   */
  onProgress?: (done: number, total: number) => void;
  /** Why stored vectors were not used (another model, a damaged file), as soon as it is known. */
  onReset?: (reason: string) => void;
  signal?: AbortSignal;
  /** Between chunks, so a host's UI stays responsive. */
  yieldToHost?: () => Promise<void>;
}

/** What {@link embedIndex} did. */
export interface EmbedReport {
  model: string;
  /** Vector length; 0 when no block has a vector. */
  dims: number;
  /** Notes with blocks that have vectors. */
  notes: number;
  /** Blocks of those notes. */
  blocks: number;
  /** Texts sent in this run (0 for an unchanged vault). */
  sent: number;
  /** Input tokens of this run (estimated when the server reported none: `estimatedUsage`). */
  tokens: number;
  estimatedUsage: boolean;
  requests: number;
  /** USD, when `embeddings.pricePerM` is set. */
  costUsd?: number;
  wallMs: number;
  /** Notes left out because their isolated zone is not in `embeddings.zones`, per zone. */
  zonesLeftOut: Record<string, number>;
  /** Why the stored vectors were not used, when they were not. */
  reset?: string;
  /** The vector file was rewritten without the vectors no block uses any more. */
  compacted: boolean;
  /** Vectors held, and the bytes they take in memory. */
  vectors: number;
  vectorBytes: number;
}

/** Vectors no block uses, past which the vector file is rewritten without them. */
const COMPACT_MIN_DEAD = 1000;

/**
 * Embeds the blocks that have no vector yet and saves the vectors and the blocks of each note.
 * @throws UsageError naming `embeddings.dimensions` when the model's vectors have another length
 *   than the setting says, or naming `AGENT_MEMORY_EMBEDDINGS_MODEL` when they have another length
 *   than the stored vectors of the same model; LlmError from the client (an unknown model, an
 *   unreachable server) with the setting to check. Vectors of the chunks done before the error are
 *   kept.
 */
export async function embedIndex(options: EmbedIndexOptions): Promise<EmbedReport> {
  const { client, files, settings } = options;
  const model = client.model;
  const started = Date.now();
  const loaded = options.rebuild
    ? { index: new VectorIndex(model, settings.dimensions, 16), torn: false, reset: undefined }
    : VectorIndex.load(
        model,
        await files.read("vectors"),
        await files.read("notes"),
        settings.dimensions || undefined,
      );
  let index = loaded.index;
  if (loaded.reset) options.onReset?.(loaded.reset);
  // A file to start afresh (none yet, another model, a rebuild) or to rewrite without a torn tail.
  let rewrite = options.rebuild === true || loaded.reset !== undefined || loaded.torn;
  const fileMissing = index.size === 0;
  if (fileMissing) rewrite = true;

  const allowed = new Set(settings.zones);
  const zonesLeftOut: Record<string, number> = {};
  const seen = new Set<string>();
  const texts = new Map<number, string>();
  for (const meta of options.notes) {
    if (meta.zone !== null && !allowed.has(meta.zone)) {
      // Never sent, and never kept: a zone taken off the list loses its vectors.
      zonesLeftOut[meta.zone] = (zonesLeftOut[meta.zone] ?? 0) + 1;
      continue;
    }
    seen.add(meta.path);
    const known = index.notes.get(meta.path);
    const current =
      known && known.mtime === meta.mtime && meta.mtime >= 0 && known.size === meta.size;
    if (current && known.blocks.every((b) => b.slot >= 0)) continue;
    let text: string;
    try {
      text = await options.vault.read(meta.path);
    } catch {
      // A note that cannot be read now gives no vectors; `index` names it already.
      index.notes.delete(meta.path);
      continue;
    }
    const blocks = embeddableBlocks(text, meta.path, meta.capped === true);
    index.setNote(meta.path, meta.mtime, meta.size, blocks);
    for (const b of blocks) if (index.slotOf(b.hash) < 0) texts.set(b.hash, b.text);
  }
  for (const path of [...index.notes.keys()]) if (!seen.has(path)) index.notes.delete(path);

  const todo = [...texts.entries()];
  const chunk = Math.max(
    1,
    Math.min(options.chunkTexts ?? Infinity, client.batchSize ?? options.chunkTexts ?? CHUNK_TEXTS),
  );
  let tokens = 0;
  let estimatedUsage = false;
  let requests = 0;
  let done = 0;
  options.onProgress?.(0, todo.length);
  for (let at = 0; at < todo.length; at += chunk) {
    const part = todo.slice(at, at + chunk);
    let result;
    try {
      result = await client.embed(
        part.map(([, t]) => t),
        { signal: options.signal },
      );
    } catch (err) {
      if (err instanceof LlmError && /HTTP 404/.test(err.message))
        throw new LlmError(
          `${err.message}; set AGENT_MEMORY_EMBEDDINGS_MODEL (or the embeddings model setting) to a model the server has`,
          err.subject,
        );
      throw err;
    }
    const dims = result.vectors[0]?.length ?? 0;
    if (settings.dimensions > 0 && dims !== settings.dimensions)
      throw new UsageError(
        `the embeddings model "${model}" gives ${dims}-dimensional vectors, but the setting embeddings.dimensions says ${settings.dimensions}; set it to ${dims} or 0`,
        "embeddings.dimensions",
      );
    if (index.dims === 0) {
      const notes = index.notes;
      index = new VectorIndex(model, dims, Math.max(16, todo.length));
      for (const [path, n] of notes) index.notes.set(path, n);
    } else if (dims !== index.dims) {
      throw new UsageError(
        `the embeddings model "${model}" now gives ${dims}-dimensional vectors, but its stored vectors have ${index.dims}; check AGENT_MEMORY_EMBEDDINGS_MODEL, or run index --rebuild to embed every block again`,
        "AGENT_MEMORY_EMBEDDINGS_MODEL",
      );
    }
    const slots = part.map(([hash], k) => {
      const v = result.vectors[k];
      return v ? index.add(hash, v) : -1;
    });
    if (rewrite) {
      await files.write("vectors", index.serialize());
      rewrite = false;
    } else {
      await files.append("vectors", index.record(slots.filter((s) => s >= 0)));
    }
    tokens += result.promptTokens;
    estimatedUsage ||= result.estimatedUsage;
    requests += result.requests;
    done += part.length;
    options.onProgress?.(done, todo.length);
    await options.yieldToHost?.();
  }
  index.relink();
  const live = index.liveHashes();
  const dead = index.size - live.size;
  let compacted = false;
  if (index.dims > 0 && (rewrite || (dead >= COMPACT_MIN_DEAD && dead > live.size))) {
    await files.write("vectors", index.serialize(live));
    compacted = dead > 0;
  }
  await files.write("notes", index.serializeNotes());
  let blocks = 0;
  let notes = 0;
  for (const n of index.notes.values()) {
    if (n.blocks.length === 0) continue;
    notes++;
    blocks += n.blocks.length;
  }
  const report: EmbedReport = {
    model,
    dims: index.dims,
    notes,
    blocks,
    sent: todo.length,
    tokens,
    estimatedUsage,
    requests,
    wallMs: Date.now() - started,
    zonesLeftOut,
    compacted,
    vectors: live.size,
    vectorBytes: live.size * (index.dims + 12),
  };
  if (settings.pricePerM > 0)
    report.costUsd = Math.round((tokens / 1_000_000) * settings.pricePerM * 1e6) / 1e6;
  if (loaded.reset) report.reset = loaded.reset;
  return report;
}

/**
 * The vector index saved by {@link embedIndex} for `model`, for searches; `null` when there is none
 * for this model (never embedded, or embedded with another model).
 */
export async function loadVectors(files: VectorFiles, model: string): Promise<VectorIndex | null> {
  const loaded = VectorIndex.load(model, await files.read("vectors"), await files.read("notes"));
  return loaded.reset || loaded.index.size === 0 ? null : loaded.index;
}
