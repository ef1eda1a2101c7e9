/**
 * The public shapes of {@link SearchService}: options, reports and results (docs/architecture.md,
 * "The index", "Query language", "Scopes and zones", "Ranking", "The saved index" and "The CLI
 * contract").
 */
import type { MemoryLayout } from "../layout";
import type { Settings } from "../settings";
import type { FileStat, VaultPort } from "../vault";
import type { NoteMeta } from "./note-document";
import type { PreparedNote } from "./prepared-note";
import type { VectorIndex } from "./vectors";

/** Where a write of the saved index's delta goes: `bytes` at byte `at` (the file cut there first; 0: a new file). */
export interface DeltaWrite {
  at: number;
  bytes: Uint8Array;
}

/**
 * Where the host keeps the saved index (docs/architecture.md, "The saved index"). `load` returns
 * the binary index (format 10) as bytes, an index of the JSON format 9 as text, or `null` when
 * nothing was saved yet; `save` is given the binary index and replaces what `load` returns
 * atomically (a crash leaves the old index or the new one, never half of one).
 *
 * A store may also keep the delta beside it (delta.ts): then a save appends only what changed. A
 * store without `loadDelta` and `writeDelta` is rewritten whole on every save.
 */
export interface IndexStore {
  load(): Promise<Uint8Array | string | null>;
  /**
   * Replaces the saved index with `data`, then, when `delta` is given, the delta with `delta` (a
   * new delta's header), each atomically, under the store's lock when it has one. The delta is
   * written after the index: a crash between leaves the new index beside a delta that follows the
   * old one, which is then not used.
   */
  save(data: Uint8Array, delta?: Uint8Array): Promise<void>;
  /** The delta's bytes, or `null` when there is none. */
  loadDelta?(): Promise<Uint8Array | null>;
  /**
   * A locked read-modify-write of the delta: reads the delta now stored (`null`: none), asks
   * `plan` where to write, then writes `bytes` at byte `at` (the file cut to `at` first; `at` 0
   * writes a new file atomically), so two processes never interleave their records. `at` must not
   * exceed the delta's length. Resolves `false` when `plan` returns `null` (nothing is written).
   */
  writeDelta?(plan: (current: Uint8Array | null) => DeltaWrite | null): Promise<boolean>;
  /** Where the index is (a file path), for messages. */
  readonly location?: string;
}

/** Construction options of {@link SearchService}. */
export interface SearchServiceOptions {
  vault: VaultPort;
  /** Folder names and settings (`search.*`, `isolatedZones`, `memoryRoot`). */
  layout: MemoryLayout;
  /** Where the index is saved; without one, {@link SearchService.open} always builds. */
  store?: IndexStore | null;
  /** Clock for recency and expiry, ms since the epoch (tests fix it). */
  now?: () => number;
  /**
   * Awaited between chunks of long work. The plugin passes a macrotask yield (e.g. a
   * `window.setTimeout(…, 0)` promise) so the UI can paint; the default only yields to microtasks.
   */
  yieldToHost?: () => Promise<void>;
  /**
   * Text analysis switches, for evaluations that measure what each step is worth
   * (docs/architecture.md, "Tokenizer"); the defaults are what the product uses: English stemming
   * on, query stop words dropped.
   */
  analysis?: { stemming?: boolean; stopWords?: boolean };
  /**
   * Reads the notes to index when building; the default reads them one group at a time with
   * `vault.read`. The CLI passes one that reads and prepares them on a worker thread (see
   * {@link NoteReader}).
   */
  reader?: NoteReader;
  /**
   * Told of a failure in work the caller does not await (a vacuum of the index, the warm-up
   * queries), with a message naming it; the index stays usable. Defaults to `console.warn`.
   */
  onBackgroundError?: (message: string) => void;
  /**
   * Notes whose blocks (and their counted terms) are kept between searches; default 512
   * (`NOTE_CACHE_NOTES`, note-cache.ts). The CLI keeps more, for its servers (docs/decisions.md,
   * "The CLI keeps 2,048 notes' blocks").
   */
  noteCacheNotes?: number;
}

/** A note read for indexing: its text or, prepared elsewhere, its document; or why it could not be read. */
export type ReadNote =
  | { path: string; ok: true; text: string }
  | { path: string; ok: true; prepared: PreparedNote }
  | { path: string; ok: false; error: unknown };

/**
 * Reads many notes for a build, possibly elsewhere than the calling thread. The index does not
 * depend on the reader: a note it prepares (prepared-note.ts) is what the index would make of the
 * note's text with the same settings.
 */
export interface NoteReader {
  /**
   * Yields every note of `files` once, in that order, in groups of any size; `settings` are the
   * index's (a reader that prepares notes must prepare them with these). A note that cannot be read
   * is yielded with `ok: false`; the iteration itself throws only when the reader breaks (the
   * index then stops with that error).
   */
  readNotes(files: readonly FileStat[], settings: Settings): AsyncIterable<ReadNote[]>;
}

/** Progress reporting for long work. */
export interface ProgressOptions {
  /** Called after each chunk and at the end with notes done and notes to do. */
  onProgress?: (done: number, total: number) => void;
  /** Notes per chunk (default 200). */
  chunkSize?: number;
}

/** What {@link SearchService.open} did. Times in milliseconds. */
export interface OpenReport {
  /** `saved`: restored from the store; `built`: built from the notes. */
  source: "saved" | "built";
  /** Why a saved index was not used (unreadable, corrupt, other version, other settings), when there was one. */
  rebuildReason?: string;
  /** Why the index could not be saved (a read-only vault, say); the index in memory is complete. */
  saveError?: string;
  /** Notes in the index now (all shards). */
  notes: number;
  /** Notes read and (re-)indexed during this open. */
  indexed: number;
  /** Notes dropped because they no longer exist. */
  removed: number;
  /** Time to parse and restore the saved index (0 when built). */
  loadMs: number;
  /** Time to list the vault and re-index what changed. */
  syncMs: number;
  /** Time to save (0 when nothing changed or there is no store). */
  saveMs: number;
  /**
   * Size of the saved index when it was saved or loaded: bytes (format 10), or characters for an
   * index loaded in the JSON format 9.
   */
  indexChars?: number;
  /** Records of the saved index's delta replayed over it (delta.ts), when there were any. */
  deltaRecords?: number;
  /**
   * Why the delta beside the saved index was not used (another base, version or settings, damaged
   * header, unreadable); the notes it held are re-indexed by mtime and size, and the next save
   * rewrites the index whole.
   */
  deltaIgnored?: string;
  /** Notes over the size cap, indexed by frontmatter and headings only. */
  capped: string[];
  /** Notes that could not be read, with the reason (they are left out). */
  unreadable: { path: string; error: string }[];
  /**
   * Every file this open listed under the memory root (vault paths; hidden folders are never
   * listed), so a host that keeps its own list of notes need not list the vault again; absent
   * when a running server lent its open index.
   */
  listed?: readonly string[];
  /**
   * True when the vault was not listed ({@link SearchService.openSaved}): the index is as it was
   * saved, and notes changed since are not in it yet.
   */
  unsynced?: true;
}

/** Options of {@link SearchService.search}. */
/**
 * How a search was answered (docs/architecture.md, "Semantic recall"): BM25 alone, BM25 and block
 * vectors fused by reciprocal rank, or block vectors alone.
 */
export type Retrieval = "bm25" | "hybrid" | "semantic";

/** The vector side of a search: the query's unit vector and the block vectors to rank by it. */
export interface SemanticQuery {
  /** `hybrid` fuses with BM25, `semantic` ranks by vectors alone. */
  mode: "hybrid" | "semantic";
  /** The query's vector, unit-normalised, of `index.dims` dimensions. */
  vector: Float32Array;
  index: VectorIndex;
}

export interface SearchOptions {
  /** Vectors to rank by as well as (or instead of) BM25; without it the search is BM25 alone. */
  semantic?: SemanticQuery;
  /** `all` (default), `library`, `agent:<name>` or an isolated zone's name. */
  scope?: string;
  /** Most notes returned (default 10; 0 or less: none, the total still counted). */
  limit?: number;
  /** Most blocks per note (default 3). */
  blocksPerResult?: number;
  /** Include notes whose `expires_at` is past (default false). */
  includeExpired?: boolean;
  /** Treat the whole query as free text: no filters or phrases (used by evaluations). */
  freeText?: boolean;
}

/** A block of a result note that matched the query. */
export interface BlockHit {
  /** Block id without `^`, or `null`. */
  id: string | null;
  text: string;
  /** 0-based line in the note body. */
  line: number;
  /**
   * BM25 score of the block among the blocks of all returned notes, times (note score / best note
   * score)²; comparable across the results of one search.
   */
  score: number;
}

/** One result note. */
export interface SearchHit {
  path: string;
  title: string;
  /** BM25 score times the ranking factor (see `rankFactor` in ranking.ts); 0 when listed by filters alone. */
  score: number;
  agent: string | null;
  collection: NoteMeta["collection"];
  type?: string;
  status?: string;
  date?: string;
  /** Text around the best match (at most 240 characters). */
  snippet: string;
  /** Best-matching blocks, best first. */
  blocks: BlockHit[];
}

/** The answer to a search. */
export interface SearchResponse {
  query: string;
  scope: string;
  took_ms: number;
  /**
   * Matching notes in scope before the limit. For a phrase query whose candidates were not all
   * read it is an estimate: the notes read and found to hold the phrases, plus the candidates not
   * read whose phrase filters hold them (some may not: filters have about 1% false positives, and
   * a phrase of three or more words passes a note holding each of its pairs apart). When a phrase
   * has one word or one CJK character, which the filters cannot judge, only the notes read count
   * (reading stops once `limit` are found or after 2,000 candidates), so it is a lower bound.
   */
  total: number;
  /**
   * How far `total` can be off: absent when it is exact, `about` when it counts unread notes by
   * their phrase filters or when the ranking passed over notes that could not reach the results
   * (an estimate from the notes holding the query's words, see `SearchEngine.searchTop`),
   * `at-least` when it counts only the notes read.
   */
  totalBound?: "about" | "at-least";
  /**
   * How it was answered, when vectors were offered ({@link SearchOptions.semantic}): `bm25` for a
   * query of filters alone. With vectors, `total` counts the notes BM25 matched plus those only
   * the vectors brought.
   */
  retrieval?: Retrieval;
  results: SearchHit[];
}

/** Counts for `index --json` and the plugin's status. */
export interface IndexStats {
  notes: number;
  /** Notes per collection in the main shard. */
  collections: Record<string, number>;
  /** Notes per isolated zone. */
  zones: Record<string, number>;
  /** Distinct terms over all shards. */
  terms: number;
  capped: string[];
  /** Notes indexed by body only because their frontmatter did not parse. */
  frontmatterErrors: { path: string; error: string }[];
}

/** Options of {@link SearchService.searchPassages}. */
export interface PassageOptions {
  /** As {@link SearchOptions.semantic}. */
  semantic?: SemanticQuery;
  /** `all` (default), `library`, `agent:<name>` or an isolated zone's name. */
  scope?: string;
  /** Most passages returned (default 10; 0 or less: none, the total still counted). */
  limit?: number;
  /**
   * Most notes whose blocks compete (default {@link PASSAGE_NOTES}, and never fewer than `limit`):
   * the best notes by BM25, as `search` ranks them.
   */
  notes?: number;
  /** Include notes whose `expires_at` is past (default false). */
  includeExpired?: boolean;
  /** Treat the whole query as free text: no filters or phrases (used by evaluations). */
  freeText?: boolean;
}

/** One passage: a block of a note, ranked against the blocks of every other note in scope. */
export interface Passage {
  /** Vault path of the note. */
  path: string;
  /** The note's title. */
  title: string;
  /** The block's id without `^`, or `null` when the block has none (then `line` and `heading` place it). */
  blockId: string | null;
  /** 1-based line of the block's first line in the note file, frontmatter included. */
  line: number;
  /** Text of the nearest heading above the block (without `#`), or `null` when none. */
  heading: string | null;
  /** The block's text, without its block id marker; lines joined with `\n`. */
  text: string;
  /** Comparable across the passages of one search (see docs/decisions.md, "Passage search"). */
  score: number;
  agent: string | null;
  collection: NoteMeta["collection"];
  /**
   * An Obsidian link to the passage: `[[path-without-.md#^blockId]]`; for a block without an id,
   * `[[path-without-.md#heading]]` (the section it is in) or `[[path-without-.md]]` when it is under
   * no heading.
   */
  link: string;
}

/** The answer to {@link SearchService.searchPassages}. */
export interface PassageResponse {
  query: string;
  scope: string;
  took_ms: number;
  /** Matching notes in scope before any limit, as {@link SearchResponse.total} counts them. */
  total: number;
  /** How far `total` can be off, as {@link SearchResponse.totalBound}. */
  totalBound?: "about" | "at-least";
  /** As {@link SearchResponse.retrieval}. */
  retrieval?: Retrieval;
  /** Passages, best first, from any notes (a note may supply several). */
  results: Passage[];
}
