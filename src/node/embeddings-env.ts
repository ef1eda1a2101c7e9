/**
 * The embeddings endpoint of the CLI and the MCP server (docs/architecture.md, "Semantic
 * recall"): `AGENT_MEMORY_EMBEDDINGS_BASE_URL`, `AGENT_MEMORY_EMBEDDINGS_MODEL` and
 * `AGENT_MEMORY_EMBEDDINGS_API_KEY`, the first two falling back to the vault's settings
 * (`embeddings.baseUrl`, `embeddings.model`); the key is never read from the vault. The vector
 * cache lives beside the search index in `<vault>/.agent-memory/`.
 */
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { randomBytes } from "node:crypto";
import type { CliContext } from "./context";
import { UsageError, VaultError, errorMessage } from "../core/errors";
import { checkBaseUrl } from "../core/url";
import { createEmbeddingsClient, type EmbeddingsClient } from "../core/llm/embeddings";
import type { VectorFiles } from "../core/search/vectors";
import { loadVectors } from "../core/semantic/embed-index";
import { BM25_FALLBACK, type SemanticSource } from "../core/semantic/hybrid";
import type { NodeVault } from "./node-vault";

/** The embeddings connection a run uses. */
export interface EmbeddingsEnv {
  baseUrl: string;
  model: string;
  apiKey: string;
}

/** The connection from the environment and the settings; empty strings where none is set. */
export function embeddingsEnv(ctx: Pick<CliContext, "env" | "settings">): EmbeddingsEnv {
  return {
    baseUrl: ctx.env.AGENT_MEMORY_EMBEDDINGS_BASE_URL || ctx.settings.embeddings.baseUrl || "",
    model: ctx.env.AGENT_MEMORY_EMBEDDINGS_MODEL || ctx.settings.embeddings.model || "",
    apiKey: ctx.env.AGENT_MEMORY_EMBEDDINGS_API_KEY || "",
  };
}

/**
 * The embeddings client of a run, or `null` when no base URL is set. `query` clients have the
 * search-time timeout (`embeddings.queryTimeoutMs`) and no retries: a search never waits long.
 * @throws UsageError naming `AGENT_MEMORY_EMBEDDINGS_BASE_URL` for a URL that cannot be used
 *   (credentials in it, not http or https), and `AGENT_MEMORY_EMBEDDINGS_MODEL` when no model is set.
 */
export function cliEmbeddingsClient(
  ctx: Pick<CliContext, "env" | "settings">,
  purpose: "index" | "query",
): EmbeddingsClient | null {
  const conn = embeddingsEnv(ctx);
  if (conn.baseUrl === "") return null;
  const problem = checkBaseUrl(conn.baseUrl);
  if (problem) {
    const advice =
      problem.kind === "credentials"
        ? "; give the URL without them and put the key in AGENT_MEMORY_EMBEDDINGS_API_KEY"
        : "";
    throw new UsageError(
      `AGENT_MEMORY_EMBEDDINGS_BASE_URL ${problem.reason}${advice}`,
      "AGENT_MEMORY_EMBEDDINGS_BASE_URL",
    );
  }
  if (conn.model === "")
    throw new UsageError(
      "embeddings need a model name: set AGENT_MEMORY_EMBEDDINGS_MODEL (e.g. nomic-embed-text, text-embedding-3-small)",
      "AGENT_MEMORY_EMBEDDINGS_MODEL",
    );
  const s = ctx.settings.embeddings;
  return createEmbeddingsClient({
    baseUrl: conn.baseUrl,
    apiKey: conn.apiKey,
    model: conn.model,
    timeoutMs: purpose === "query" ? s.queryTimeoutMs : s.timeoutMs,
    maxRetries: purpose === "query" ? 0 : s.maxRetries,
    batchSize: s.batchSize,
    encoding: s.encoding,
    fetch: (input, init) => fetch(input, init),
  });
}

/** File names of the vector cache under `.agent-memory/`. */
const FILES = { vectors: "vectors.bin", notes: "vector-notes.json" } as const;

/**
 * {@link VectorFiles} under `<vault>/.agent-memory/`: appends go to the end of the file, writes to
 * a temporary file renamed over it. Throws {@link VaultError} naming the file on I/O failure.
 */
export class FileVectorFiles implements VectorFiles {
  constructor(private readonly vault: NodeVault) {}

  private file(name: keyof typeof FILES): string {
    return this.vault.resolve(`.agent-memory/${FILES[name]}`);
  }

  async read(name: keyof typeof FILES): Promise<Uint8Array | null> {
    const file = this.file(name);
    try {
      return new Uint8Array(await fs.readFile(file));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw new VaultError(`cannot read ${file}: ${errorMessage(err)}`, file, { cause: err });
    }
  }

  async append(name: "vectors", bytes: Uint8Array): Promise<void> {
    const file = this.file(name);
    try {
      await fs.appendFile(file, bytes);
    } catch (err) {
      throw new VaultError(`cannot write ${file}: ${errorMessage(err)}`, file, { cause: err });
    }
  }

  async write(name: keyof typeof FILES, bytes: Uint8Array): Promise<void> {
    const file = this.file(name);
    const tmp = `${file}.${randomBytes(4).toString("hex")}.tmp`;
    try {
      await fs.mkdir(nodePath.dirname(file), { recursive: true });
      await fs.writeFile(tmp, bytes);
      await fs.rename(tmp, file);
    } catch (err) {
      await fs.rm(tmp, { force: true });
      throw new VaultError(`cannot write ${file}: ${errorMessage(err)}`, file, { cause: err });
    }
  }
}

/**
 * `warn` for one command: the first line saying the search fell back to BM25
 * ({@link BM25_FALLBACK}) passes, later ones are dropped. A setting that cannot be used is said
 * when the source is made ({@link cliSemanticSource}); without this the search would then add
 * "no embeddings configured", which contradicts it. Other lines pass as they are.
 */
export function oneFallbackLine(warn: (line: string) => void): (line: string) => void {
  let said = false;
  return (line) => {
    if (line.startsWith(BM25_FALLBACK)) {
      if (said) return;
      said = true;
    }
    warn(line);
  };
}

/**
 * What hybrid search needs in the CLI: the query client and the saved vectors of its model, or
 * `null` when no embeddings are configured. A configuration that cannot be used is said in one
 * line through `warn` and gives `null` (a search never fails for it; `index` refuses it).
 */
export async function cliSemanticSource(
  ctx: Pick<CliContext, "env" | "settings" | "vault">,
  warn: (line: string) => void,
): Promise<SemanticSource | null> {
  let client: EmbeddingsClient | null;
  try {
    client = cliEmbeddingsClient(ctx, "query");
  } catch (err) {
    warn(`${BM25_FALLBACK}${errorMessage(err)}`);
    return null;
  }
  if (!client) return null;
  let index = null;
  try {
    index = await loadVectors(new FileVectorFiles(ctx.vault), client.model);
  } catch (err) {
    warn(`search: cannot read the block vectors (${errorMessage(err)})`);
  }
  return { client, index };
}

/**
 * A {@link cliSemanticSource} for a long-lived process (the MCP server): the vectors are read once
 * and again only when `index` has written new ones (the notes file's mtime changed). A setting that
 * cannot be used is said once.
 */
export function cachedSemanticSource(
  ctx: Pick<CliContext, "env" | "settings" | "vault">,
  warn: (line: string) => void,
): () => Promise<SemanticSource | null> {
  let cached: SemanticSource | null = null;
  let stamp: number | null | undefined;
  let warned = false;
  return async () => {
    let client: EmbeddingsClient | null;
    try {
      client = cliEmbeddingsClient(ctx, "query");
    } catch (err) {
      if (!warned) warn(`${BM25_FALLBACK}${errorMessage(err)}`);
      warned = true;
      return null;
    }
    if (!client) return null;
    const file = ctx.vault.resolve(`.agent-memory/${FILES.notes}`);
    const now = await fs.stat(file).then(
      (st) => st.mtimeMs,
      () => null,
    );
    if (cached && now === stamp) return cached;
    stamp = now;
    cached = await cliSemanticSource(ctx, warn);
    return cached;
  };
}
