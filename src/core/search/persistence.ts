/**
 * The saved index (docs/architecture.md, "The saved index"). Since format 10 it is binary and read
 * on demand (docs/decisions.md, "Saved index format 10: binary, read on demand"; see
 * {@link serializeShardsBinary}): a small header, then per shard its notes' metadata, documents,
 * phrase filters, terms and postings as separate sections, the postings decoded term by term when
 * a query first needs them. Format 9, one JSON document (see {@link serializeIndex}), still loads
 * and is rewritten in format 10 by the next save. The host decides where it lives through an
 * {@link IndexStore} (CLI: `<vault>/.agent-memory/`; plugin: its folder under the config dir).
 * Reading it never throws: a corrupt, foreign or outdated file is a reason to rebuild, returned as
 * a value; postings found damaged later throw {@link CorruptPostingsError} from the search.
 */
import { errorMessage } from "../errors";
import { hashSpan } from "./engine/span-table";
import { SearchEngine, type AnalysisOptions, type SavedMiniIndex } from "./engine/search-engine";
import type { Shard } from "./query-runner";
import type { Result } from "../util/result";
import type { IndexDoc, NoteMeta } from "./note-document";
import { decodeFilters, encodeFilters } from "./engine/phrase-filter";
import { CorruptPostingsError, hashBytes } from "./engine/postings-bytes";
import { SavedTerms, type SavedTermsParts } from "./engine/saved-terms";
import { timeSlicer } from "../util/slices";

export { CorruptPostingsError } from "./engine/postings-bytes";

/**
 * Bumped whenever the saved shape or the indexed fields change. 10: the binary format read on
 * demand ({@link serializeShardsBinary}); 9 is the last JSON one ({@link JSON_FORMAT_VERSION}).
 * 11: the term dictionary saved as a hash table read in place (sections `starts` and `slots`,
 * engine/saved-terms.ts); 10 ({@link BINARY_V10}) still loads.
 */
export const INDEX_FORMAT_VERSION = 11;

/** The first binary format, whose terms are joined by `\n` and hashed again on load; still loads. */
export const BINARY_V10 = 10;

/**
 * The version of the JSON format (one document, {@link serializeIndex}) that still loads. 8: a note's `expiresAt` is its
 * `expires_at` as written (a date-time expires at its instant) and a date from the mtime is the
 * local date (test/core/health/expiry-time-zone.process.test.ts). 9: a note's frontmatter `agent` is kept when it is
 * not the layout's (`agentField`, for the `agent:` filter; test/core/search/search-service.test.ts).
 */
export const JSON_FORMAT_VERSION = 9;
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
  const saved: SavedIndex = { format: FORMAT, version: JSON_FORMAT_VERSION, key, savedAt, shards };
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

/** True when `value` has the fields every saved {@link NoteMeta} has (path, mtime, size, title). */
export function isMeta(value: unknown): value is NoteMeta {
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
  if (saved.version !== JSON_FORMAT_VERSION) {
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

/**
 * Serialises the shards in the JSON format 9 (see {@link serializeIndex}): no longer written by the
 * service, kept so the format that still loads can be made for tests.
 */
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
 * Restores shards from a saved index, checking that each index and its metadata agree: `data` is
 * the binary format ({@link serializeShardsBinary}) as bytes, or the JSON format 9 as text.
 * @param options the MiniSearch options of every shard
 * @param analysis the shards' analysis options (stemming)
 * @returns the shards by name, or why the saved index cannot be used
 */
export function restoreShards(
  data: string | Uint8Array,
  key: string,
  options: ConstructorParameters<typeof SearchEngine<IndexDoc>>[0],
  analysis: AnalysisOptions = {},
): Result<Map<string, Shard>> {
  if (typeof data !== "string") return restoreBinary(data, key, options, analysis);
  const saved = deserializeIndex(data, key);
  if (!saved.ok) return saved;
  const shards = new Map<string, Shard>();
  try {
    for (const s of saved.value.shards) {
      const mini = SearchEngine.fromSaved<IndexDoc>(s.index, options, analysis);
      if (mini.documentCount !== s.metas.length) {
        return {
          ok: false,
          error: `saved index is corrupt (${shardLabel(s.name)} holds ${mini.documentCount} notes, metadata ${s.metas.length})`,
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

/** "AMIX": the first four bytes of a binary saved index. */
const MAGIC = [0x41, 0x4d, 0x49, 0x58];
/** Bytes before the header: magic, version, header length, header checksum (u32 little-endian). */
const PREAMBLE = 16;
/** Postings are checked in blocks of this many bytes, each the first time a query reads it. */
export const POSTINGS_BLOCK = 1 << 16;

/** A section of a binary saved index: where it is after the header, its length and checksum. */
interface Section {
  offset: number;
  length: number;
  checksum: number;
}

const SECTION_NAMES = [
  "metas",
  "docs",
  "pairs",
  "terms",
  "starts",
  "slots",
  "ends",
  "postings",
] as const;
type SectionName = (typeof SECTION_NAMES)[number];
/** The sections of format 10, which has no `starts` or `slots` (its terms are joined by `\n`). */
const V10_SECTION_NAMES = SECTION_NAMES.filter((n) => n !== "starts" && n !== "slots");

/** One shard in the header of a binary saved index. */
interface BinaryShardHead {
  name: string;
  documentCount: number;
  nextId: number;
  dirtCount: number;
  fieldIds: Record<string, number>;
  averageFieldLength: number[];
  sections: Record<SectionName, Section>;
  /** {@link hashBytes} of each {@link POSTINGS_BLOCK} bytes of the postings section. */
  blocks: number[];
  /**
   * {@link hashBytes} of each {@link POSTINGS_BLOCK} bytes of the `pairs` section, checked when a
   * phrase filter in the block is first read ({@link SavedFilters}); absent from files saved before
   * it, whose `pairs` section is checked whole at open.
   */
  pairBlocks?: number[];
}

/** The header of a binary saved index (JSON, after the preamble). */
interface BinaryHead {
  format: typeof FORMAT;
  version: number;
  key: string;
  savedAt: number;
  shards: BinaryShardHead[];
}

function u32Bytes(values: Uint32Array): Uint8Array {
  return new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
}

/**
 * Serialises shards in the binary format 11 (or `version` 10, kept so tests can make the older
 * format that still loads), read on demand:
 * `AMIX`, the version, the header's length and {@link hashBytes} (four u32, little-endian), the
 * header (UTF-8 JSON: key, save time and per shard its counts, fields, each section's offset,
 * length and checksum, and the checksum of each {@link POSTINGS_BLOCK} of postings and of phrase
 * filters), then the sections, each starting at a multiple of 4 bytes: `metas` (UTF-8 JSON of the
 * notes' metadata), `docs` (UTF-8 JSON: short ids, document ids, field lengths, phrase filter
 * sizes in 32-bit words, -1 for none), `pairs` (the phrase filters' words end to end, in the platform's byte
 * order like the JSON format's base64), `terms` (the terms' UTF-8 end to end; format 10: joined
 * by `\n`), `starts` (u32 per term and one more: where each term's bytes start), `slots` (u32, a
 * power of two of them: the hash table over the terms, engine/saved-terms.ts; `starts` and
 * `slots` are not in format 10), `ends` (u32 per term: where its postings end) and `postings`
 * (engine/postings-bytes.ts). The work is time-sliced
 * ({@link timeSlicer}): `yieldToHost` is awaited whenever a slice (`SLICE_MS`, 4 ms) is used up, so a
 * query waits at most about a slice. Must not run alongside changes to the shards (the service
 * queues them). Throws `Error` for a term holding white space.
 */
export async function serializeShardsBinary(
  shards: ReadonlyMap<string, Shard>,
  key: string,
  savedAt: number,
  yieldToHost: () => Promise<void> = () => Promise.resolve(),
  version: typeof INDEX_FORMAT_VERSION | typeof BINARY_V10 = INDEX_FORMAT_VERSION,
): Promise<Uint8Array> {
  const slice = timeSlicer(yieldToHost);
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [];
  let offset = 0;
  const add = async (bytes: Uint8Array): Promise<Section> => {
    const section = { offset, length: bytes.length, checksum: await hashSliced(bytes, slice) };
    parts.push(bytes);
    offset += bytes.length;
    const pad = (4 - (offset % 4)) % 4;
    if (pad > 0) {
      parts.push(new Uint8Array(pad));
      offset += pad;
    }
    return section;
  };
  const heads: BinaryShardHead[] = [];
  for (const [name, shard] of shards) {
    // Everything but the postings is taken at once, so the state and its notes agree.
    const metas = [...shard.metas.values()];
    const state = shard.mini.savedState();
    await slice();
    const filters = metas.map((m) => shard.pairs.get(m.path));
    const pairSizes = filters.map((f) => (f ? f.length : -1));
    const words = new Uint32Array(pairSizes.reduce((a, n) => a + Math.max(0, n), 0));
    let at = 0;
    for (const [i, f] of filters.entries()) {
      if (i % 256 === 0) await slice();
      if (!f) continue;
      words.set(f, at);
      at += f.length;
    }
    await slice();
    const binary = await shard.mini.toBinary({ batchSize: 256, yieldToHost: slice });
    const sections = {} as Record<SectionName, Section>;
    await slice();
    sections.metas = await add(encoder.encode(JSON.stringify(metas)));
    await slice();
    sections.docs = await add(
      encoder.encode(
        JSON.stringify({
          shortIds: state.shortIds,
          documentIds: state.documentIds,
          fieldLength: state.fieldLength,
          pairSizes,
        }),
      ),
    );
    await slice();
    const pairBytes = u32Bytes(words);
    sections.pairs = await add(pairBytes);
    const pairBlocks = await blockChecksums(pairBytes, slice);
    if (version === BINARY_V10) {
      sections.terms = await add(encoder.encode(v10Terms(binary.terms)));
    } else {
      sections.terms = await add(binary.terms.bytes);
      await slice();
      sections.starts = await add(u32Bytes(binary.terms.starts));
      await slice();
      sections.slots = await add(u32Bytes(binary.terms.slots));
    }
    await slice();
    sections.ends = await add(u32Bytes(binary.ends));
    const blocks = await blockChecksums(binary.postings, slice);
    sections.postings = await add(binary.postings);
    heads.push({
      name,
      documentCount: state.documentCount,
      nextId: state.nextId,
      dirtCount: state.dirtCount,
      fieldIds: state.fieldIds,
      averageFieldLength: state.averageFieldLength,
      sections,
      blocks,
      pairBlocks,
    });
  }
  const head: BinaryHead = {
    format: FORMAT,
    version,
    key,
    savedAt,
    shards: heads,
  };
  const headBytes = encoder.encode(JSON.stringify(head));
  const start = PREAMBLE + headBytes.length + ((4 - (headBytes.length % 4)) % 4);
  const out = new Uint8Array(start + offset);
  out.set(MAGIC, 0);
  const view = new DataView(out.buffer);
  view.setUint32(4, version, true);
  view.setUint32(8, headBytes.length, true);
  view.setInt32(12, hashBytes(headBytes), true);
  out.set(headBytes, PREAMBLE);
  let k = start;
  for (const p of parts) {
    for (let from = 0; from < p.length; from += HASH_CHUNK) {
      await slice();
      out.set(p.subarray(from, Math.min(from + HASH_CHUNK, p.length)), k + from);
    }
    k += p.length;
  }
  return out;
}

/** Format 10's terms section: the terms joined by `\n` (written only to test that it still loads). */
function v10Terms(parts: SavedTermsParts): string {
  const terms = new SavedTerms(parts);
  const out: string[] = [];
  for (let k = 0; k < terms.count; k++) out.push(terms.keyAt(k));
  return out.join("\n");
}

/** A shard as messages name it: the main one (named "") or `shard "zone"`. */
function shardLabel(name: string): string {
  return name === "" ? "the main shard" : `shard "${name}"`;
}

/** {@link hashBytes} of each {@link POSTINGS_BLOCK} bytes of `bytes`, `slice` awaited every 8. */
async function blockChecksums(bytes: Uint8Array, slice: () => Promise<void>): Promise<number[]> {
  const out: number[] = [];
  for (let b = 0; b < bytes.length; b += POSTINGS_BLOCK) {
    out.push(hashBytes(bytes, b, Math.min(b + POSTINGS_BLOCK, bytes.length)));
    if (out.length % 8 === 0) await slice();
  }
  return out;
}

/**
 * A check of `bytes` by blocks of {@link POSTINGS_BLOCK} against `checksums`, each block hashed
 * the first time a range in it is asked for. Throws {@link CorruptPostingsError} naming `what`, the
 * block and `shard` when one fails.
 */
function blockVerifier(
  bytes: Uint8Array,
  checksums: readonly number[],
  what: string,
  shard: string,
): (from: number, to: number) => void {
  const checked = new Uint8Array(checksums.length);
  return (from, to) => {
    for (let b = Math.floor(from / POSTINGS_BLOCK); b * POSTINGS_BLOCK < to; b++) {
      if (checked[b]) continue;
      const a = b * POSTINGS_BLOCK;
      if (hashBytes(bytes, a, Math.min(a + POSTINGS_BLOCK, bytes.length)) !== checksums[b])
        throw new CorruptPostingsError(
          `${what} block ${b} of ${shardLabel(shard)} checksum mismatch`,
        );
      checked[b] = 1;
    }
  };
}

/**
 * The phrase filters of a restored shard (`Shard.pairs`, by note path). Those read from the saved
 * index are views of its `pairs` section, checked by blocks (`verify`, {@link blockVerifier}) the
 * first time a filter is read, so a start neither hashes nor copies them all (docs/decisions.md,
 * "Phrase filters are checked when first read"); filters set later are the notes' own.
 */
export class SavedFilters extends Map<string, Uint32Array> {
  private words: Uint32Array = new Uint32Array(0);
  private verify: (from: number, to: number) => void = () => undefined;

  /**
   * @param words the `pairs` section as words
   * @param verify checks a byte range of the section (throws {@link CorruptPostingsError})
   */
  static of(words: Uint32Array, verify: (from: number, to: number) => void): SavedFilters {
    const filters = new SavedFilters();
    filters.words = words;
    filters.verify = verify;
    return filters;
  }

  /** The filter of `path`, its saved bytes checked first. Throws {@link CorruptPostingsError}. */
  override get(path: string): Uint32Array | undefined {
    const f = super.get(path);
    if (f !== undefined && f.buffer === this.words.buffer && f.length > 0) {
      const from = f.byteOffset - this.words.byteOffset;
      if (from >= 0 && from < this.words.byteLength) this.verify(from, from + f.byteLength);
    }
    return f;
  }
}

/** Bytes hashed or copied between two checks of the slicer. */
const HASH_CHUNK = 1 << 20;

/** {@link hashBytes} of `bytes`, {@link HASH_CHUNK} bytes at a time with `slice` awaited between. */
async function hashSliced(bytes: Uint8Array, slice: () => Promise<void>): Promise<number> {
  let h = hashBytes(bytes, 0, Math.min(HASH_CHUNK, bytes.length));
  for (let at = HASH_CHUNK; at < bytes.length; at += HASH_CHUNK) {
    await slice();
    h = hashBytes(bytes, at, Math.min(at + HASH_CHUNK, bytes.length), h);
  }
  return h;
}

/**
 * What identifies a binary saved index (see {@link serializeShardsBinary}) for the delta saved
 * beside it (delta.ts): its length in bytes and the {@link hashBytes} of its preamble and header,
 * which hold its save time and every section's checksum. `null` for bytes that do not start as a
 * binary saved index (a JSON one has no delta).
 */
export function savedIndexId(bytes: Uint8Array): string | null {
  if (bytes.length < PREAMBLE || MAGIC.some((b, i) => bytes[i] !== b)) return null;
  const headLength = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(
    8,
    true,
  );
  if (PREAMBLE + headLength > bytes.length) return null;
  return `${bytes.length}:${hashBytes(bytes, 0, PREAMBLE + headLength)}`;
}

/**
 * The format version of a binary saved index (preamble only, nothing checked), or `null` for bytes
 * that do not start as one. The service rewrites an index of an older format once.
 */
export function savedIndexVersion(bytes: Uint8Array): number | null {
  if (bytes.length < PREAMBLE || MAGIC.some((b, i) => bytes[i] !== b)) return null;
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(4, true);
}

function isSection(value: unknown): value is Section {
  if (typeof value !== "object" || value === null) return false;
  const s = value as Record<string, unknown>;
  return (
    Number.isInteger(s.offset) &&
    Number.isInteger(s.length) &&
    Number.isInteger(s.checksum) &&
    (s.offset as number) >= 0 &&
    (s.length as number) >= 0
  );
}

function isShardHead(value: unknown, version: number): value is BinaryShardHead {
  if (typeof value !== "object" || value === null) return false;
  const s = value as Record<string, unknown>;
  const sections = s.sections as Record<string, unknown> | null | undefined;
  return (
    typeof s.name === "string" &&
    typeof sections === "object" &&
    sections !== null &&
    (version === BINARY_V10 ? V10_SECTION_NAMES : SECTION_NAMES).every((n) =>
      isSection(sections[n]),
    ) &&
    Array.isArray(s.blocks) &&
    s.blocks.every((b) => Number.isInteger(b))
  );
}

/**
 * The binary saved index's header, or why it cannot be used.
 * @param key the expected key, or `null` to take any
 */
function readHead(
  bytes: Uint8Array,
  key: string | null,
): Result<{ head: BinaryHead; start: number; version: number }> {
  const corrupt = (why: string): Result<never> => ({
    ok: false,
    error: `saved index is corrupt (${why})`,
  });
  if (bytes.length < PREAMBLE || MAGIC.some((b, i) => bytes[i] !== b))
    return corrupt("not an agent-memory search index");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(4, true);
  if (version !== INDEX_FORMAT_VERSION && version !== BINARY_V10) {
    return {
      ok: false,
      error: `saved index has format version ${version}, expected ${INDEX_FORMAT_VERSION}`,
    };
  }
  const headLength = view.getUint32(8, true);
  if (PREAMBLE + headLength > bytes.length) return corrupt("truncated header");
  const headBytes = bytes.subarray(PREAMBLE, PREAMBLE + headLength);
  if (hashBytes(headBytes) !== view.getInt32(12, true)) return corrupt("header checksum mismatch");
  let head: unknown;
  try {
    head = JSON.parse(new TextDecoder().decode(headBytes));
  } catch (err) {
    return corrupt(errorMessage(err));
  }
  const h = head as Record<string, unknown> | null;
  if (typeof h !== "object" || h === null || h.format !== FORMAT)
    return corrupt("not an agent-memory search index");
  if (typeof h.key !== "string" || typeof h.savedAt !== "number")
    return corrupt("malformed header");
  if (key !== null && h.key !== key)
    return { ok: false, error: "saved index was built with other settings or another tokenizer" };
  if (!Array.isArray(h.shards) || !h.shards.every((s) => isShardHead(s, version)))
    return corrupt("malformed shards");
  return {
    ok: true,
    value: {
      head: h as unknown as BinaryHead,
      start: PREAMBLE + headLength + ((4 - (headLength % 4)) % 4),
      version,
    },
  };
}

/**
 * A binary saved index whatever its key (for tools and tests that rewrite one): its key, save
 * time and shards, or why it cannot be used.
 */
export function readSavedIndex(
  bytes: Uint8Array,
  options: ConstructorParameters<typeof SearchEngine<IndexDoc>>[0],
  analysis: AnalysisOptions = {},
): Result<{ key: string; savedAt: number; shards: Map<string, Shard> }> {
  const read = readHead(bytes, null);
  if (!read.ok) return read;
  const shards = restoreBinary(bytes, read.value.head.key, options, analysis);
  if (!shards.ok) return shards;
  return {
    ok: true,
    value: { key: read.value.head.key, savedAt: read.value.head.savedAt, shards: shards.value },
  };
}

/** {@link restoreShards} of the binary format. */
function restoreBinary(
  bytes: Uint8Array,
  key: string,
  options: ConstructorParameters<typeof SearchEngine<IndexDoc>>[0],
  analysis: AnalysisOptions,
): Result<Map<string, Shard>> {
  const read = readHead(bytes, key);
  if (!read.ok) return read;
  const { head, start, version } = read.value;
  const decoder = new TextDecoder();
  const shards = new Map<string, Shard>();
  try {
    for (const s of head.shards) {
      const section = (name: SectionName, check = true): Uint8Array => {
        const { offset, length, checksum } = s.sections[name];
        if (start + offset + length > bytes.length)
          throw new Error(`${shardLabel(s.name)} ${name} truncated`);
        const view = bytes.subarray(start + offset, start + offset + length);
        if (check && hashBytes(view) !== checksum)
          throw new Error(`${shardLabel(s.name)} ${name} checksum mismatch`);
        return view;
      };
      const u32 = (view: Uint8Array): Uint32Array => {
        if (view.length % 4 !== 0) throw new Error(`${shardLabel(s.name)} has a partial word`);
        // Sections start at a multiple of 4 in the file, so a file read into a buffer of its own
        // is viewed as words in place; a copy only when its bytes are not aligned in memory.
        return view.byteOffset % 4 === 0
          ? new Uint32Array(view.buffer, view.byteOffset, view.length / 4)
          : new Uint32Array(Uint8Array.prototype.slice.call(view).buffer);
      };
      const metas = JSON.parse(decoder.decode(section("metas"))) as unknown;
      if (!Array.isArray(metas) || !metas.every(isMeta))
        throw new Error(`${shardLabel(s.name)} has malformed metadata`);
      const docs = JSON.parse(decoder.decode(section("docs"))) as Record<string, unknown>;
      const pairSizes = docs.pairSizes;
      if (
        !Array.isArray(pairSizes) ||
        pairSizes.length !== metas.length ||
        !pairSizes.every((n) => Number.isInteger(n) && (n as number) >= -1)
      )
        throw new Error(`${shardLabel(s.name)} has malformed phrase filter sizes`);
      // Checked by blocks when first read, where the file has their checksums.
      const lazyPairs =
        Array.isArray(s.pairBlocks) &&
        s.pairBlocks.length === Math.ceil(s.sections.pairs.length / POSTINGS_BLOCK);
      const words = u32(section("pairs", !lazyPairs));
      if (words.length !== (pairSizes as number[]).reduce((a, n) => a + Math.max(0, n), 0))
        throw new Error(`${shardLabel(s.name)} phrase filters disagree with their sizes`);
      const ends = u32(section("ends"));
      const postings = section("postings", false);
      if (s.blocks.length !== Math.ceil(postings.length / POSTINGS_BLOCK))
        throw new Error(`${shardLabel(s.name)} postings blocks disagree with their length`);
      const startOf = new Uint32Array(ends.length);
      let prev = 0;
      for (let k = 0; k < ends.length; k++) {
        const e = ends[k] ?? 0;
        if (e < prev || e > postings.length)
          throw new Error(`${shardLabel(s.name)} postings ends out of order`);
        startOf[k] = prev;
        prev = e;
      }
      const verify = blockVerifier(postings, s.blocks, "postings", s.name);
      const state = {
        documentCount: s.documentCount,
        nextId: s.nextId,
        dirtCount: s.dirtCount,
        fieldIds: s.fieldIds,
        averageFieldLength: s.averageFieldLength,
        shortIds: docs.shortIds as number[],
        documentIds: docs.documentIds as string[],
        fieldLength: docs.fieldLength as number[],
      };
      const saved = { bytes: postings, start: startOf, end: ends, verify };
      const terms =
        version === BINARY_V10
          ? decoder.decode(section("terms"))
          : new SavedTerms({
              bytes: section("terms"),
              starts: u32(section("starts")),
              slots: u32(section("slots")),
            });
      const mini = SearchEngine.fromBinary<IndexDoc>(state, terms, saved, options, analysis);
      if (mini.documentCount !== metas.length) {
        return {
          ok: false,
          error: `saved index is corrupt (${shardLabel(s.name)} holds ${mini.documentCount} notes, metadata ${metas.length})`,
        };
      }
      const pairs = lazyPairs
        ? SavedFilters.of(
            words,
            blockVerifier(u32Bytes(words), s.pairBlocks ?? [], "phrase filters", s.name),
          )
        : new Map<string, Uint32Array>();
      let at = 0;
      (pairSizes as number[]).forEach((n, i) => {
        const path = (metas[i] as NoteMeta).path;
        if (n >= 0) pairs.set(path, words.subarray(at, at + n));
        at += Math.max(0, n);
      });
      shards.set(s.name, {
        mini,
        metas: new Map(metas.map((m) => [m.path, m])),
        pairs,
      });
    }
  } catch (err) {
    return { ok: false, error: `saved index is corrupt (${errorMessage(err)})` };
  }
  return { ok: true, value: shards };
}
