/**
 * Searching with the query's meaning as well as its words (docs/architecture.md, "Semantic
 * recall"): the query is embedded, then {@link SearchService} ranks by BM25 and block vectors
 * together (`hybrid`), or by vectors alone (`semantic`). A dead, slow or wrong embeddings server,
 * or no vectors for the model, never fails a search: BM25 answers, `retrieval` says `bm25`, and
 * `onFallback` gets one line saying why. The CLI, the MCP server, serve and the brief all search
 * through here.
 */
import { errorMessage } from "../errors";
import type { EmbeddingsClient } from "../llm/embeddings";
import type {
  PassageOptions,
  PassageResponse,
  Retrieval,
  SearchOptions,
  SearchResponse,
  SearchService,
  SemanticQuery,
} from "../search/search-service";
import { parseQuery } from "../search/query";
import { normalize, type VectorIndex } from "../search/vectors";
import { clock } from "../util/clock";
import type { Result } from "../util/result";

/** What hybrid search needs: a client for the query (a short timeout) and the block vectors. */
export interface SemanticSource {
  client: EmbeddingsClient;
  /** The saved vectors of `client.model`, or `null` when `index` has not embedded with it yet. */
  index: VectorIndex | null;
}

/** How every line saying that a search fell back to BM25 starts (`search: BM25 only: <why>`). */
export const BM25_FALLBACK = "search: BM25 only: ";

/** The retrieval asked for, or the default: `hybrid` with embeddings configured, else `bm25`. */
export function defaultRetrieval(asked: Retrieval | undefined, source: unknown): Retrieval {
  return asked ?? (source ? "hybrid" : "bm25");
}

/** Retrieval names, for option checks (a tuple, so that a zod enum takes it as it is). */
export const RETRIEVALS = ["bm25", "hybrid", "semantic"] as const satisfies readonly Retrieval[];

/**
 * The query's unit vector, or why there is none. Queries without free text (filters alone) need
 * none and get `null` without a reason.
 */
async function queryVector(
  query: string,
  source: SemanticSource | null,
  freeText: boolean | undefined,
): Promise<{ vector: Float32Array; index: VectorIndex } | { why: string | null }> {
  if (!source)
    return {
      why: "no embeddings configured (set AGENT_MEMORY_EMBEDDINGS_BASE_URL and AGENT_MEMORY_EMBEDDINGS_MODEL)",
    };
  if (!freeText) {
    const parsed = parseQuery(query);
    if (parsed.ok && parsed.value.text.trim() === "" && parsed.value.phrases.length === 0)
      return { why: null };
  }
  const index = source.index;
  if (!index || index.dims === 0)
    return {
      why: `no block vectors of model "${source.client.model}" yet; run agent-memory index to embed the notes`,
    };
  try {
    const res = await source.client.embed([query.trim()]);
    const v = res.vectors[0];
    if (!v) return { why: "the embeddings server sent no vector for the query" };
    if (v.length !== index.dims)
      return {
        why: `the query's vector has ${v.length} dimensions, the stored ones ${index.dims}; run agent-memory index`,
      };
    return { vector: normalize(v), index };
  } catch (err) {
    return { why: errorMessage(err) };
  }
}

/**
 * Runs `search` with the query's vector when `retrieval` asks for one and there is one, else BM25
 * alone (saying why through `onFallback`); the response always says `retrieval`, and its
 * `took_ms` counts the wait for the query's vector too (a slow or dead server included).
 */
async function withRetrieval<
  O extends { freeText?: boolean; semantic?: SemanticQuery },
  R extends { retrieval?: Retrieval; took_ms: number },
>(
  query: string,
  options: O & { retrieval?: Retrieval },
  source: SemanticSource | null,
  onFallback: (line: string) => void,
  search: (options: O) => Promise<Result<R>>,
): Promise<Result<R>> {
  const { retrieval: asked, ...rest } = options;
  const retrieval = defaultRetrieval(asked, source);
  let waitedMs = 0;
  const counted = (res: Result<R>): Result<R> => {
    if (res.ok) res.value.took_ms = Math.round((res.value.took_ms + waitedMs) * 1000) / 1000;
    return res;
  };
  if (retrieval !== "bm25") {
    const t0 = clock();
    const got = await queryVector(query, source, options.freeText);
    waitedMs = clock() - t0;
    if ("vector" in got)
      return counted(await search({ ...rest, semantic: { mode: retrieval, ...got } } as O));
    if (got.why) onFallback(`${BM25_FALLBACK}${got.why}`);
  }
  const res = await search(rest as O);
  if (res.ok) res.value.retrieval = "bm25";
  return counted(res);
}

/**
 * A note search by `retrieval` (default {@link defaultRetrieval}); the response always says
 * `retrieval`. Falls back to BM25 as the module says; only a bad query or scope is an error.
 */
export function searchWith(
  service: SearchService,
  query: string,
  options: SearchOptions & { retrieval?: Retrieval },
  source: SemanticSource | null,
  onFallback: (line: string) => void,
): Promise<Result<SearchResponse>> {
  return withRetrieval(query, options, source, onFallback, (o: SearchOptions) =>
    service.search(query, o),
  );
}

/** A passage search by `retrieval`, as {@link searchWith}. */
export function searchPassagesWith(
  service: SearchService,
  query: string,
  options: PassageOptions & { retrieval?: Retrieval },
  source: SemanticSource | null,
  onFallback: (line: string) => void,
): Promise<Result<PassageResponse>> {
  return withRetrieval(query, options, source, onFallback, (o: PassageOptions) =>
    service.searchPassages(query, o),
  );
}
