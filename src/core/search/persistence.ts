/**
 * The saved index (docs/architecture.md, "The saved index"): one JSON document holding, per shard,
 * the MiniSearch index (see {@link SavedMiniIndex}) and each note's metadata with the mtime and
 * size it was indexed at. The host decides where it lives through an {@link IndexStore} (CLI:
 * `<vault>/.agent-memory/`; plugin: its folder under the config dir). Reading it never throws: a
 * corrupt, foreign or outdated file is a reason to rebuild, returned as a value.
 */
import { errorMessage } from "../errors";
import { hashSpan } from "./engine/span-table";
import { SearchEngine, type AnalysisOptions, type SavedMiniIndex } from "./engine/search-engine";
import type { Shard } from "./query-runner";
import type { Result } from "../util/result";
import type { IndexDoc, NoteMeta } from "./note-document";
import { decodeFilters, encodeFilters } from "./engine/phrase-filter";

/**
 * Bumped whenever the saved shape or the indexed fields change. 8: a note's `expiresAt` is its
 * `expires_at` as written (a date-time expires at its instant) and a date from the mtime is the
 * local date (test/core/health/expiry-time-zone.process.test.ts). 9: a note's frontmatter `agent` is kept when it is
 * not the layout's (`agentField`, for the `agent:` filter; test/core/search/search-service.test.ts).
 */
export const INDEX_FORMAT_VERSION = 9;
const FORMAT = "agent-memory-search";

/** One shard as saved: `name` is `""` for the main shard, else the isolated zone's name. */
export interface SavedShard {
  name: string;
  metas: NoteMeta[];
  /**
   * The notes' phrase filters, in the order of `metas`: `sizes[i]` in 32-bit words (-1: none),
   * `data` all of them in base64 (see engine/phrase-filter.ts `encodeFilters`).
   */
  pairs: { sizes: number[]; data: string };
  index: SavedMiniIndex;
}

/** The saved file. `key` identifies the settings and tokenizer the index was built with. */
export interface SavedIndex {
  format: typeof FORMAT;
  version: number;
  key: string;
  savedAt: number;
  shards: SavedShard[];
}

/**
 * Serialises shards to the saved form: JSON with every character outside ASCII written as a
 * `\uXXXX` escape, starting with a checksum of the rest (`{"checksum":N,…`), so that any damaged
 * character — in a path or a note's metadata as well as in the postings — makes the file rebuilt
 * rather than silently wrong. A pure-ASCII file is read back about six times faster (no UTF-8
 * decoding of CJK terms, a one-byte string for `JSON.parse`: 16.7 MB at 10k notes, 0.32 s → 0.05 s).
 */
export function serializeIndex(key: string, shards: SavedShard[], savedAt: number): string {
  const saved: SavedIndex = { format: FORMAT, version: INDEX_FORMAT_VERSION, key, savedAt, shards };
  const body = JSON.stringify(saved).replace(
    NON_ASCII,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  return `{"checksum":${hashSpan(body, 0, body.length)},${body.slice(1)}`;
}

const CHECKSUM_PREFIX = /^\{"checksum":(-?\d+),/;

/** True when `data` starts with the checksum {@link serializeIndex} writes and matches it. */
function checksumHolds(data: string): boolean {
  const m = CHECKSUM_PREFIX.exec(data);
  if (!m) return false;
  // The hash of "{" followed by what comes after the checksum field: the JSON that was hashed.
  return hashSpan(data, m[0].length, data.length, hashSpan("{", 0, 1)) === Number(m[1]);
}

const NON_ASCII = /[\u007f-\uffff]/g;

function isMeta(value: unknown): value is NoteMeta {
  if (typeof value !== "object" || value === null) return false;
  const m = value as Record<string, unknown>;
  return (
    typeof m.path === "string" &&
    typeof m.mtime === "number" &&
    typeof m.size === "number" &&
    typeof m.title === "string"
  );
}

function isShard(value: unknown): value is SavedShard {
  if (typeof value !== "object" || value === null) return false;
  const s = value as Record<string, unknown>;
  const pairs = s.pairs as Record<string, unknown> | null | undefined;
  return (
    typeof s.name === "string" &&
    Array.isArray(s.metas) &&
    s.metas.every(isMeta) &&
    typeof pairs === "object" &&
    pairs !== null &&
    typeof pairs.data === "string" &&
    Array.isArray(pairs.sizes) &&
    pairs.sizes.length === s.metas.length &&
    pairs.sizes.every((n) => Number.isInteger(n) && (n as number) >= -1) &&
    typeof s.index === "object" &&
    s.index !== null &&
    typeof (s.index as unknown as Record<string, unknown>).documentCount === "number"
  );
}

/**
 * Reads a saved index.
 * @param expectedKey the key of the current settings and tokenizer
 * @returns the saved shards, or why they cannot be used (not JSON, not ours, another version,
 *   other settings, malformed)
 */
export function deserializeIndex(data: string, expectedKey: string): Result<SavedIndex> {
  let raw: unknown;
  try {
    raw = JSON.parse(data);
  } catch (err) {
    return {
      ok: false,
      error: `saved index is corrupt (${err instanceof Error ? err.message : String(err)})`,
    };
  }
  if (
    typeof raw !== "object" ||
    raw === null ||
    (raw as Record<string, unknown>).format !== FORMAT
  ) {
    return { ok: false, error: "saved index is corrupt (not an agent-memory search index)" };
  }
  const saved = raw as Record<string, unknown>;
  if (saved.version !== INDEX_FORMAT_VERSION) {
    return {
      ok: false,
      error: `saved index has format version ${String(saved.version)}, expected ${INDEX_FORMAT_VERSION}`,
    };
  }
  if (!checksumHolds(data))
    return { ok: false, error: "saved index is corrupt (checksum mismatch)" };
  if (saved.key !== expectedKey) {
    return { ok: false, error: "saved index was built with other settings or another tokenizer" };
  }
  if (!Array.isArray(saved.shards) || !saved.shards.every(isShard)) {
    return { ok: false, error: "saved index is corrupt (malformed shards)" };
  }
  return { ok: true, value: raw as SavedIndex };
}

/** Serialises the shards (see {@link serializeIndex}). */
export function serializeShards(
  shards: ReadonlyMap<string, Shard>,
  key: string,
  savedAt: number,
): string {
  const saved: SavedShard[] = [];
  for (const [name, shard] of shards) {
    const metas = [...shard.metas.values()];
    const pairs = encodeFilters(metas.map((m) => shard.pairs.get(m.path)));
    saved.push({ name, metas, pairs, index: shard.mini.toSaved() });
  }
  return serializeIndex(key, saved, savedAt);
}

/**
 * Restores shards from a saved index, checking that each index and its metadata agree.
 * @param options the MiniSearch options of every shard
 * @param analysis the shards' analysis options (stemming)
 * @returns the shards by name, or why the saved index cannot be used
 */
export function restoreShards(
  data: string,
  key: string,
  options: ConstructorParameters<typeof SearchEngine<IndexDoc>>[0],
  analysis: AnalysisOptions = {},
): Result<Map<string, Shard>> {
  const saved = deserializeIndex(data, key);
  if (!saved.ok) return saved;
  const shards = new Map<string, Shard>();
  try {
    for (const s of saved.value.shards) {
      const mini = SearchEngine.fromSaved<IndexDoc>(s.index, options, analysis);
      if (mini.documentCount !== s.metas.length) {
        return {
          ok: false,
          error: `saved index is corrupt (shard "${s.name}" holds ${mini.documentCount} notes, metadata ${s.metas.length})`,
        };
      }
      const pairs = new Map<string, Uint32Array>();
      decodeFilters(s.pairs.sizes, s.pairs.data).forEach((filter, i) => {
        const path = s.metas[i]?.path;
        if (filter && path !== undefined) pairs.set(path, filter);
      });
      shards.set(s.name, { mini, metas: new Map(s.metas.map((m) => [m.path, m])), pairs });
    }
  } catch (err) {
    return { ok: false, error: `saved index is corrupt (${errorMessage(err)})` };
  }
  return { ok: true, value: shards };
}
