/**
 * OpenAI-compatible embeddings client (docs/architecture.md, "Semantic recall"): `POST
 * /embeddings` through the `openai` SDK against any base URL (OpenAI, Ollama, LM Studio, llama.cpp
 * server, vLLM …), with the chat client's URL and credential rules ({@link checkBaseUrl}), its
 * retry loop ({@link withRetries}), batching, a per-request timeout and token usage. Vectors are
 * asked for as `base64` (little-endian float32, what the SDK asks for by default) or `float`
 * (JSON numbers); whichever the server sends back is read, since some servers ignore the
 * `encoding_format` they are asked for. The API key is passed to the SDK only.
 */
import { openAiSdk } from "./client";
import { toByteArray } from "base64-js";
import { LlmError, UsageError } from "../errors";
import { checkBaseUrl, redactUrl } from "../url";
import { estimateTokens } from "./tokens";
import { classifyFailure, defaultSleep, describeFailure, withRetries } from "./retry";
import type { FetchLike } from "./request-url-fetch";

/** How vectors travel: base64 of little-endian float32, or JSON numbers. */
export type EmbeddingEncoding = "base64" | "float";

export interface EmbeddingsClientOptions {
  /** OpenAI-compatible base URL, e.g. `http://localhost:11434/v1`. */
  baseUrl: string;
  /** API key; may be empty for local servers that need none. Never logged. */
  apiKey: string;
  model: string;
  /** Per-request timeout, milliseconds. */
  timeoutMs: number;
  /** Retries after the first attempt on 408/409/429/5xx, timeouts and network errors. */
  maxRetries: number;
  /** Texts per request (≥ 1). */
  batchSize: number;
  encoding: EmbeddingEncoding;
  /** `fetch` to use: global fetch in the CLI, `requestUrlFetch` in the plugin. */
  fetch?: FetchLike;
  /** First backoff delay, milliseconds (default 500; tests use a few ms). */
  retryBaseMs?: number;
  /** Sleep used for backoff, for tests. */
  sleep?: (ms: number) => Promise<void>;
  /** Clock in milliseconds, for wall time. */
  now?: () => number;
}

/** Vectors of one {@link EmbeddingsClient.embed} call, in the order of the texts. */
export interface EmbeddingResult {
  /** One vector per text, as the server gave it (not normalised). */
  vectors: Float32Array[];
  /** Input tokens the server reported, or estimated (see {@link estimatedUsage}). */
  promptTokens: number;
  /** True when the server reported no usage for some request and its count is an estimate. */
  estimatedUsage: boolean;
  /** Requests made, retries included. */
  attempts: number;
  /** Requests that succeeded (one per batch). */
  requests: number;
  /** Wall time, milliseconds, retries and backoff included. */
  wallMs: number;
}

/** An embeddings client bound to one server and model. */
export interface EmbeddingsClient {
  /** The base URL without trailing slashes (never with credentials). */
  readonly baseUrl: string;
  readonly model: string;
  /** Texts per request ({@link EmbeddingsClientOptions.batchSize}), when the client sends batches. */
  readonly batchSize?: number;
  /**
   * Embeds `texts`, {@link EmbeddingsClientOptions.batchSize} per request, one request after
   * another; `onBatch(done, total)` is called after each request (texts done so far).
   * @throws LlmError naming the server, the status and what to check, after the retries; also when
   *   a reply is not an embeddings list, holds another number of vectors than texts sent, or
   *   vectors of different lengths.
   */
  embed(
    texts: readonly string[],
    options?: { signal?: AbortSignal; onBatch?: (done: number, total: number) => void },
  ): Promise<EmbeddingResult>;
}

/**
 * Reads one vector as a server sends it: a list of numbers, or base64 of little-endian float32.
 * @returns `null` when it is neither.
 */
export function decodeEmbedding(value: unknown): Float32Array | null {
  if (Array.isArray(value)) {
    const out = new Float32Array(value.length);
    for (let i = 0; i < value.length; i++) {
      const x: unknown = value[i];
      if (typeof x !== "number" || !Number.isFinite(x)) return null;
      out[i] = x;
    }
    return out;
  }
  if (typeof value === "string") {
    let bytes: Uint8Array;
    try {
      bytes = toByteArray(value);
    } catch {
      return null;
    }
    if (bytes.length % 4 !== 0) return null;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const out = new Float32Array(bytes.length / 4);
    for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
    return out;
  }
  if (value instanceof Float32Array) return value;
  return null;
}

/**
 * Creates an embeddings client. Nothing is sent until {@link EmbeddingsClient.embed} is called.
 * @throws UsageError when the base URL cannot be used ({@link checkBaseUrl}), or the model name is
 *   empty; the message never repeats credentials.
 */
export function createEmbeddingsClient(options: EmbeddingsClientOptions): EmbeddingsClient {
  const baseUrl = options.baseUrl.trim().replace(/\/+$/, "");
  const problem = checkBaseUrl(baseUrl);
  if (problem) {
    const advice =
      problem.kind === "credentials"
        ? "; give the URL without them and the key as the API key"
        : "";
    throw new UsageError(`the embeddings base URL ${problem.reason}${advice}`, redactUrl(baseUrl));
  }
  if (options.model.trim() === "") throw new UsageError("the embeddings model name is empty");
  const apiKey = options.apiKey;
  const now = options.now ?? (() => Date.now());
  const batchSize = Math.max(1, Math.floor(options.batchSize));
  const policy = {
    maxRetries: options.maxRetries,
    retryBaseMs: options.retryBaseMs ?? 500,
    sleep: options.sleep ?? defaultSleep,
  };
  const sdk = openAiSdk({ baseUrl, apiKey, timeoutMs: options.timeoutMs, fetch: options.fetch });
  const shown = redactUrl(baseUrl);
  const wrong = (why: string) =>
    new LlmError(
      `embeddings at ${shown}: ${why} — is the base URL right, and is "${options.model}" an embedding model?`,
      shown,
    );

  async function embed(
    texts: readonly string[],
    opts: { signal?: AbortSignal; onBatch?: (done: number, total: number) => void } = {},
  ): Promise<EmbeddingResult> {
    const started = now();
    const vectors: Float32Array[] = [];
    let promptTokens = 0;
    let estimatedUsage = false;
    let attempts = 0;
    let requests = 0;
    for (let at = 0; at < texts.length; at += batchSize) {
      const input = texts.slice(at, at + batchSize);
      const { value, attempts: made } = await withRetries(
        () =>
          sdk.embeddings.create(
            { model: options.model, input, encoding_format: options.encoding },
            { signal: opts.signal },
          ),
        policy,
        (err) => classifyFailure(err, apiKey),
        (info, n) =>
          describeFailure(info, {
            baseUrl,
            model: options.model,
            timeoutMs: options.timeoutMs,
            attempts: attempts + n,
            what: "embeddings",
          }),
      );
      attempts += made;
      requests++;
      // A 200 reply that is not JSON comes back from the SDK as its text.
      const reply: unknown = value;
      const data: unknown =
        typeof reply === "object" && reply !== null
          ? (reply as { data?: unknown }).data
          : undefined;
      if (!Array.isArray(data))
        throw wrong("the server answered with something other than an embeddings list");
      if (data.length !== input.length)
        throw wrong(`the server sent ${data.length} vectors for ${input.length} texts`);
      // Replies carry an `index` per vector; order by it when every entry has one.
      const entries = data as { index?: unknown; embedding?: unknown }[];
      const ordered = entries.every((e) => typeof e.index === "number")
        ? [...entries].sort((a, b) => (a.index as number) - (b.index as number))
        : entries;
      for (const entry of ordered) {
        const vector = decodeEmbedding(entry.embedding);
        if (!vector || vector.length === 0) throw wrong("a vector in the reply cannot be read");
        if (vectors[0] && vectors[0].length !== vector.length)
          throw wrong(
            `the server sent vectors of ${vectors[0].length} and ${vector.length} dimensions`,
          );
        vectors.push(vector);
      }
      const usage = (reply as { usage?: { prompt_tokens?: unknown } }).usage;
      if (typeof usage?.prompt_tokens === "number") promptTokens += usage.prompt_tokens;
      else {
        estimatedUsage = true;
        promptTokens += input.reduce((sum, t) => sum + estimateTokens(t), 0);
      }
      opts.onBatch?.(Math.min(texts.length, at + input.length), texts.length);
    }
    return { vectors, promptTokens, estimatedUsage, attempts, requests, wallMs: now() - started };
  }

  return { baseUrl, model: options.model, batchSize, embed };
}
