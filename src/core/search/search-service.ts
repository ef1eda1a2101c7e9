/**
 * SearchService: the memory's BM25 index (docs/architecture.md, "A search"), shared by the plugin
 * and the CLI.
 *
 * - One MiniSearch (BM25+) index per shard: the main shard holds every Markdown note under the
 *   memory root outside isolated zones; each isolated zone has its own shard, so its notes, words,
 *   counts and term statistics can never reach another scope (docs/architecture.md, "Invariants").
 * - Incremental: {@link SearchService.update}, {@link SearchService.remove} and
 *   {@link SearchService.rename} re-index one note with MiniSearch `replace`/`discard`, never `remove`
 *   with a changed document (test/core/search/search-service.test.ts, "case 06: …").
 * - Persistent: {@link SearchService.open} restores the index saved through an {@link IndexStore}
 *   (the base file, then the delta of later saves replayed: delta.ts) and re-indexes only notes
 *   whose mtime or size changed; a corrupt, foreign or outdated saved index is rebuilt with a
 *   message, never a crash. A save appends only what changed since the last one.
 * - Hosts: core code only; it talks to storage through {@link VaultPort} and the store. Long work
 *   runs in chunks, calling `onProgress(done, total)` and the host's `yieldToHost` between chunks so
 *   the plugin's UI stays responsive.
 *
 * MiniSearch API: https://lucaong.github.io/minisearch/classes/MiniSearch.MiniSearch.html
 */
import { clock } from "../util/clock";
import { isExpired, today } from "../util/dates";
import { errorMessage } from "../errors";
import type { MemoryLayout } from "../layout";
import type { VaultPort } from "../vault";
import { BlockScorer } from "./block-rank";
import { SearchEngine, type AnalysisOptions } from "./engine/search-engine";
import { filterTest } from "./filters";
import { NoteCache, type CachedNote } from "./note-cache";
import {
  buildNoteDocument,
  INDEX_FIELDS,
  phraseTitle,
  readNote,
  type IndexDoc,
  type NoteMeta,
} from "./note-document";
import {
  CorruptPostingsError,
  INDEX_FORMAT_VERSION,
  restoreShards,
  savedIndexId,
  savedIndexVersion,
  serializeShardsBinary,
} from "./persistence";
import {
  COMPACT_FRACTION,
  deltaHeader,
  encodeDeltaRecord,
  MAX_DELTA_NOTES,
  readDelta,
  recordNotes,
  scanDelta,
  shouldCompact,
  type DeltaNote,
  type DeltaRecord,
} from "./delta";
import type { IndexStore } from "./search-types";
import { parseQuery, type ParsedQuery } from "./query";
import type { Result } from "../util/result";
import { firstPassages, headingsOf, PASSAGE_NOTES, passageOf, rankPassages } from "./passages";
import {
  chooseNotes,
  type ChosenNote,
  clip,
  hitOf,
  listByDate,
  notesByDate,
  notesWithBlocks,
  rankByText,
  round,
  snippetWords,
  type RunContext,
  type Shard,
  touchShard,
} from "./query-runner";
import { embedHash, embedText } from "./vectors";
import {
  FUSE_DEPTH,
  fuseRanks,
  readSemanticBlock,
  semanticBlocks,
  type SemanticBlock,
} from "./semantic";
import { inScope, MAIN_SHARD, parseScope, scopeLabel, shardOf, type Scope } from "./scope";
import { dropStopWords } from "./engine/stop-words";
import { segmentMemo, type PreparedNote } from "./prepared-note";
import type {
  NoteReader,
  ReadNote,
  IndexStats,
  OpenReport,
  PassageOptions,
  PassageResponse,
  ProgressOptions,
  SearchOptions,
  SearchResponse,
  SearchServiceOptions,
  SemanticQuery,
} from "./search-types";
import { warmUpQueries } from "./warm-up";
import {
  createQueryTokenizer,
  createTokenizer,
  phraseCharTerms,
  phraseRequiredTerms,
  tokenize,
  TOKENIZER_VERSION,
  warmUpSegmenter,
  type SegmentMemo,
  type Tokenizer,
} from "./engine/tokenizer";

export type { IndexStore } from "./search-types";
export { PASSAGE_NOTES, passageLink } from "./passages";
export type * from "./search-types";

/** Field boosts (docs/architecture.md, "A search": title boosted). */
export const FIELD_BOOSTS: Readonly<Record<(typeof INDEX_FIELDS)[number], number>> = {
  title: 3,
  aliases: 2.5,
  tags: 2,
  headings: 1.5,
  properties: 1.2,
  body: 1,
};

/** MiniSearch's auto-vacuum thresholds (its defaults), applied by {@link SearchService} itself. */
const VACUUM_MIN_DIRT = 20;
const VACUUM_MIN_FACTOR = 0.1;

/** Notes read concurrently while building. */
const READ_CONCURRENCY = 16;

/**
 * How a response's `total` reads in words: `"about "`, `"at least "` or `""` when exact (the
 * CLI and the search view print it before the number).
 */
export function totalPrefix(response: Pick<SearchResponse, "totalBound">): string {
  return response.totalBound === "about"
    ? "about "
    : response.totalBound === "at-least"
      ? "at least "
      : "";
}

/** The default {@link NoteReader}: `vault.read`, {@link READ_CONCURRENCY} notes at a time. */
export function vaultReader(vault: Pick<VaultPort, "read">): NoteReader {
  return {
    async *readNotes(files) {
      for (let i = 0; i < files.length; i += READ_CONCURRENCY) {
        yield await Promise.all(
          files.slice(i, i + READ_CONCURRENCY).map(({ path }) =>
            vault.read(path).then(
              (text): ReadNote => ({ path, ok: true, text }),
              (error: unknown): ReadNote => ({ path, ok: false, error }),
            ),
          ),
        );
      }
    },
  };
}

/**
 * MiniSearch options of every shard. `tokenize`/`processTerm` describe what
 * {@link SearchEngine.addCounted} does, so MiniSearch's own `add` would index a note the same way.
 * `processTerm` stays the identity: MiniSearch's field length counts the distinct tokens of
 * `tokenize`, which are then the distinct terms SearchEngine counts
 * (test/core/search/search-minisearch-parity.test.ts).
 */
export function miniSearchOptions(
  tokenizer: Tokenizer = tokenize,
): ConstructorParameters<typeof SearchEngine<IndexDoc>>[0] {
  return {
    idField: "id",
    fields: [...INDEX_FIELDS],
    storeFields: [],
    tokenize: (text: string) => tokenizer(text),
    processTerm: (term: string) => term,
    searchOptions: {
      boost: { ...FIELD_BOOSTS },
      // Queries arrive already tokenized (terms joined by spaces).
      tokenize: (text: string) => text.split(" "),
      processTerm: (term: string) => term,
    },
  };
}

/** Key of what an index depends on: a saved index with another key is rebuilt. */
function indexKey(layout: MemoryLayout, stemming: boolean): string {
  const s = layout.settings;
  return JSON.stringify({
    tokenizer: TOKENIZER_VERSION,
    stemming,
    root: layout.root,
    folders: [
      s.agentsFolder,
      s.journalFolder,
      s.trackersFolder,
      s.knowledgeFolder,
      s.libraryFolder,
    ],
    zones: [...s.isolatedZones].sort(),
    cap: s.search.sizeCapBytes,
  });
}

function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** How {@link SearchService} searches a shard for one query (see its `prepare`). */
type PreparedRun =
  | { kind: "none" }
  | { kind: "list"; ctx: RunContext }
  | {
      kind: "rank";
      ctx: RunContext;
      parsed: ParsedQuery;
      terms: string[];
      required: string[];
      nowMs: number;
    };

/** Drops a note's entry from the shard's metadata-by-short-id cache (it is about to be discarded). */
function forget(shard: Shard, path: string): void {
  const shortId = shard.mini.shortIdOf(path);
  if (shard.byShortId && shortId >= 0) shard.byShortId[shortId] = undefined;
}

/** The search index of one memory. Methods that change the index run one at a time. */
/** Puts what an open did with the saved index's delta into its report. */
function deltaReport(
  report: OpenReport,
  delta: { records: number } | { ignored: string } | null,
): void {
  if (delta && "records" in delta && delta.records > 0) report.deltaRecords = delta.records;
  if (delta && "ignored" in delta) report.deltaIgnored = delta.ignored;
}

export class SearchService {
  private readonly vault: VaultPort;
  private readonly layout: MemoryLayout;
  private readonly store: IndexStore | null;
  private readonly now: () => number;
  private readonly yieldToHost: () => Promise<void>;
  private readonly onBackgroundError: (message: string) => void;
  private readonly reader: NoteReader;
  private readonly key: string;
  private readonly tokenizer: Tokenizer;
  private readonly analysis: AnalysisOptions;
  private readonly queryTokenizer: ReturnType<typeof createQueryTokenizer>;
  private readonly stopWords: boolean;
  private readonly blockScorer: BlockScorer;
  private readonly cache: NoteCache;
  private shards = new Map<string, Shard>();
  private queue: Promise<unknown> = Promise.resolve();
  private changed = false;
  /**
   * The saved index this one follows (delta.ts): the base's id (`savedIndexId`) and bytes, and the
   * delta's bytes after it (header included); `null` when the next save rewrites the base
   * (nothing saved or loaded yet, a store without a delta, a delta not used).
   */
  private saved: { base: string; baseBytes: number; deltaBytes: number } | null = null;
  /**
   * While {@link saved} is set: the notes indexed (as now) or removed (`null`) since the last
   * save, for the next delta record; `null` once they outgrow what a delta may hold, so the next
   * save rewrites the base. {@link pendingChars} counts their text.
   */
  private pending: Map<string, DeltaNote | null> | null = new Map();
  private pendingChars = 0;

  constructor(options: SearchServiceOptions) {
    this.vault = options.vault;
    this.layout = options.layout;
    this.store = options.store ?? null;
    this.now = options.now ?? (() => Date.now());
    this.yieldToHost = options.yieldToHost ?? (() => Promise.resolve());
    this.reader = options.reader ?? vaultReader(options.vault);
    this.onBackgroundError = options.onBackgroundError ?? ((message) => console.warn(message));
    const stemming = options.analysis?.stemming ?? true;
    this.tokenizer = stemming ? tokenize : createTokenizer({ stemming: false });
    this.analysis = { stemming };
    this.queryTokenizer = createQueryTokenizer({ stemming });
    this.stopWords = options.analysis?.stopWords ?? true;
    this.blockScorer = new BlockScorer({ stemming });
    this.cache = new NoteCache(options.noteCacheNotes);
    this.key = indexKey(options.layout, stemming);
  }

  /** True when the index changed since it was last saved or loaded. */
  get dirty(): boolean {
    return this.changed;
  }

  /** Notes in the index (all shards). */
  get size(): number {
    let n = 0;
    for (const s of this.shards.values()) n += s.metas.size;
    return n;
  }

  /**
   * Makes the index current: restores the saved index when there is a usable one, lists the notes
   * under the memory root, re-indexes new and changed notes (by mtime and size), drops deleted
   * ones, and saves when anything changed. Never throws for a bad or unreadable saved index (it is
   * rebuilt and the reason reported) nor when saving fails (reported as `saveError`; the index in
   * memory is complete); throws {@link VaultError} when the vault cannot be listed.
   */
  open(progress: ProgressOptions = {}): Promise<OpenReport> {
    return this.enqueue(() => this.load(progress, true));
  }

  /**
   * {@link open} without listing the vault when the saved index is usable: the index is as it was
   * saved and may be stale (the report says `unsynced`), for a one-shot host that checks the few
   * notes a search returned against the disk and calls {@link sync} when one changed (the hooks,
   * docs/decisions.md, "A hook answers from the saved index"). Without a usable saved index, the
   * same as {@link open}. Throws as {@link open}.
   */
  openSaved(progress: ProgressOptions = {}): Promise<OpenReport> {
    return this.enqueue(() => this.load(progress, true, false));
  }

  /**
   * The second half of {@link open} on the index in memory: lists the notes under the memory root,
   * re-indexes new and changed notes, drops deleted ones and saves when anything changed. The
   * report's `source` and `loadMs` are those of the index it started from. Throws
   * {@link VaultError} when the vault cannot be listed.
   */
  sync(progress: ProgressOptions = {}): Promise<OpenReport> {
    return this.enqueue(() => this.finishOpen(progress, "saved", 0, undefined, undefined));
  }

  /** Drops the index and builds it again from the notes (then saves, when there is a store). */
  rebuild(progress: ProgressOptions = {}): Promise<OpenReport> {
    return this.enqueue(() => this.load(progress, false));
  }

  /**
   * Re-indexes one note after it was created or modified
   * (test/core/search/search-service.test.ts, "case 06: …"). A note outside the memory root is ignored; a note
   * that no longer exists is removed. Indexing a note never indexed before is not an error.
   * @param stat the note's mtime (ms) and size (bytes) when the host knows them (the plugin does,
   *   from `TFile.stat`); otherwise the size is measured and the mtime recorded as unknown, so the
   *   next {@link open} checks the note again.
   * @returns `indexed`, `removed` (it no longer exists) or `ignored` (outside the memory root, in
   *   a hidden folder, or not Markdown)
   * @throws {@link VaultError} when the note exists but cannot be read
   */
  update(
    path: string,
    stat?: { mtime: number; size: number },
  ): Promise<"indexed" | "removed" | "ignored"> {
    return this.enqueue(async () => {
      // Hidden folders (the config folder, .agent-memory, .trash) are never listed, so never indexed.
      const hidden = path.split("/").some((segment) => segment.startsWith("."));
      if (hidden || !this.layout.isInside(path) || !path.toLowerCase().endsWith(".md"))
        return "ignored";
      if (!(await this.vault.exists(path))) {
        this.removeNow(path);
        return "removed";
      }
      const text = await this.vault.read(path);
      this.indexText(path, text, stat ?? { mtime: -1, size: utf8Length(text) });
      return "indexed";
    }).finally(() => this.vacuumIfDirty());
  }

  /**
   * Removes a deleted note. Removing a note that is not indexed (or removing twice) is not an
   * error (test/core/search/search-service.test.ts, "case 06: …").
   * @returns true when the note was in the index
   */
  remove(path: string): Promise<boolean> {
    return this.enqueue(() => Promise.resolve(this.removeNow(path))).finally(() =>
      this.vacuumIfDirty(),
    );
  }

  /**
   * Moves a note in the index after a rename: the old path is removed and the new one read and
   * indexed (its agent, collection or zone may have changed with its folder).
   * @throws {@link VaultError} when the renamed note cannot be read
   */
  async rename(
    oldPath: string,
    newPath: string,
    stat?: { mtime: number; size: number },
  ): Promise<void> {
    await this.remove(oldPath);
    await this.update(newPath, stat);
  }

  /**
   * Saves the index through the store (when there is one): appends the notes changed since the
   * last save to the delta when the store keeps one and it stays under 1/32 of the base, else
   * rewrites the base whole (see delta.ts). Returns the saved index's size in bytes, delta
   * included. Throws whatever the store throws.
   */
  save(): Promise<number> {
    return this.enqueue(() => this.saveNow());
  }

  /** Counts per collection and zone, capped notes and notes whose frontmatter did not parse. */
  stats(): IndexStats {
    const collections: Record<string, number> = {};
    const zones: Record<string, number> = {};
    const frontmatterErrors: IndexStats["frontmatterErrors"] = [];
    let terms = 0;
    for (const [name, shard] of this.shards) {
      terms += shard.mini.termCount;
      if (name !== MAIN_SHARD) zones[name] = shard.metas.size;
      for (const meta of shard.metas.values()) {
        if (name === MAIN_SHARD)
          collections[meta.collection] = (collections[meta.collection] ?? 0) + 1;
        if (meta.frontmatterError)
          frontmatterErrors.push({ path: meta.path, error: meta.frontmatterError });
      }
    }
    frontmatterErrors.sort((a, b) => (a.path < b.path ? -1 : 1));
    return {
      notes: this.size,
      collections,
      zones,
      terms,
      capped: this.cappedPaths(),
      frontmatterErrors,
    };
  }

  /**
   * Runs a dozen searches made of a few notes' own words (see warm-up.ts), yielding to the host
   * between them, then forgets the notes they read, so that the first searches a person types do
   * not pay for the JavaScript engine compiling the search code (query p95,
   * bench/results/search.md). For a long-lived host (the plugin), once the index is open; the CLI,
   * one search per process, skips it. A note that cannot be read is only not used.
   * @param options `yieldToHost` between searches (default: the service's), and `stop`, asked
   *   before each search (the plugin stops when it unloads or the index is rebuilt)
   * @returns the time it took, ms (0 for an empty index)
   */
  async warmUp(
    options: { yieldToHost?: () => Promise<void>; stop?: () => boolean } = {},
  ): Promise<number> {
    const yieldToHost = options.yieldToHost ?? this.yieldToHost;
    const t0 = clock();
    const metas = [...(this.shards.get(MAIN_SHARD)?.metas.values() ?? [])];
    const samples: { text: string; meta: NoteMeta }[] = [];
    for (const meta of [metas[0], metas[Math.floor(metas.length / 2)], metas[metas.length - 1]]) {
      if (!meta || meta.capped || samples.some((s) => s.meta === meta)) continue;
      try {
        samples.push({ text: readNote(await this.vault.read(meta.path), meta.path).body, meta });
      } catch {
        // Not a sample, then.
      }
    }
    for (const query of warmUpQueries(samples)) {
      if (options.stop?.()) break;
      await this.search(query, { limit: 10 });
      await yieldToHost();
    }
    this.cache.clear();
    return metas.length > 0 ? clock() - t0 : 0;
  }

  /** Agents with at least one indexed note outside isolated zones, sorted (for scope hints). */
  agents(): string[] {
    const names = new Set<string>();
    for (const meta of this.shards.get(MAIN_SHARD)?.metas.values() ?? [])
      if (meta.agent) names.add(meta.agent);
    return [...names].sort();
  }

  /** The stored metadata of every indexed note, all shards (isolated zones included). */
  notes(): NoteMeta[] {
    const out: NoteMeta[] = [];
    for (const shard of this.shards.values()) out.push(...shard.metas.values());
    return out;
  }

  /** The stored metadata of an indexed note, or `undefined`. */
  meta(path: string): NoteMeta | undefined {
    for (const shard of this.shards.values()) {
      const m = shard.metas.get(path);
      if (m) return m;
    }
    return undefined;
  }

  /**
   * Searches (docs/architecture.md, "A search"). Free text is ranked by BM25 with field boosts and
   * the ranking factors; a query of filters alone lists matching notes newest first. Each result
   * carries its best-matching blocks and a snippet, read from the note at query time.
   * @returns the response, or an error for an unknown filter, a bad date or an unknown scope
   */
  search(query: string, options: SearchOptions = {}): Promise<Result<SearchResponse>> {
    return this.rebuiltIfCorrupt(() => this.searchOnce(query, options));
  }

  private async searchOnce(query: string, options: SearchOptions): Promise<Result<SearchResponse>> {
    const t0 = clock();
    const prepared = this.prepare(query, options);
    if (!prepared.ok) return prepared;
    const { scope, limit, run } = prepared.value;
    const blocksPerResult = Math.max(0, Math.floor(options.blocksPerResult ?? 3));
    const response: SearchResponse = {
      query,
      scope: scopeLabel(scope),
      took_ms: 0,
      total: 0,
      results: [],
    };
    if (options.semantic) response.retrieval = run.kind === "list" ? "bm25" : options.semantic.mode;
    if (run.kind === "list") await listByDate(run.ctx, limit, response);
    else if (run.kind === "rank" && options.semantic) {
      await this.fuseNotes(run, options.semantic, limit, blocksPerResult, response);
    } else if (run.kind === "rank") {
      const { ctx, parsed, terms, required, nowMs } = run;
      await rankByText(
        ctx,
        parsed,
        terms,
        required,
        {
          limit,
          blocksPerResult,
          search: this.layout.settings.search,
          nowMs,
          blocks: this.blockScorer,
        },
        response,
      );
    }
    response.took_ms = Math.round((clock() - t0) * 1000) / 1000;
    return { ok: true, value: response };
  }

  /**
   * Passage search (docs/architecture.md, "Passages"): the best blocks across notes, ranked
   * together, not grouped by note — a note with two good blocks may supply both, and a better block
   * of another note ranks between them. Same query language, scopes, filters, expiry rule and
   * phrase rule as {@link search}; the blocks of the best `notes` notes (default {@link
   * PASSAGE_NOTES}) compete, each scored by BM25 among all of them times (note score / best note
   * score)² (docs/decisions.md, "Passage search"). Heading blocks are not passages; a block without
   * an id is placed by its 1-based file `line` and its `heading`, and its `link` points at that
   * heading. A query of filters alone gives the first block of each matching note, newest first,
   * with score 0.
   * @returns the response (`results` best first, `total` = matching notes as {@link search} counts
   *   them), or an error for an unknown filter, a bad date or an unknown scope
   */
  searchPassages(query: string, options: PassageOptions = {}): Promise<Result<PassageResponse>> {
    return this.rebuiltIfCorrupt(() => this.searchPassagesOnce(query, options));
  }

  /**
   * Runs a search; when the saved index's postings, read on demand, turn out damaged
   * ({@link CorruptPostingsError}), says so through `onBackgroundError` (naming the file),
   * rebuilds the index from the notes and runs the search again.
   */
  private async rebuiltIfCorrupt<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      if (!(err instanceof CorruptPostingsError)) throw err;
      this.onBackgroundError(
        `search index: saved index is corrupt (${err.message})${this.where()}; rebuilt from the notes`,
      );
      await this.rebuild();
      return run();
    }
  }

  /** `" in <file>"` when the store says where it keeps the index, else `""`. */
  private where(): string {
    return this.store?.location ? ` in ${this.store.location}` : "";
  }

  private async searchPassagesOnce(
    query: string,
    options: PassageOptions,
  ): Promise<Result<PassageResponse>> {
    const t0 = clock();
    const prepared = this.prepare(query, options);
    if (!prepared.ok) return prepared;
    const { scope, limit, run } = prepared.value;
    const response: PassageResponse = {
      query,
      scope: scopeLabel(scope),
      took_ms: 0,
      total: 0,
      results: [],
    };
    if (options.semantic) response.retrieval = run.kind === "list" ? "bm25" : options.semantic.mode;
    if (run.kind === "rank" && options.semantic) {
      await this.fusePassages(run, options.semantic, limit, options.notes, response);
    } else if (run.kind === "list") {
      const listed = notesByDate(run.ctx);
      response.total = listed.length;
      for (let i = 0; i < listed.length && response.results.length < limit; i += READ_CONCURRENCY) {
        const group = listed.slice(i, i + READ_CONCURRENCY);
        const notes = await Promise.all(group.map((meta) => run.ctx.read(meta)));
        firstPassages(
          group.map((meta, k) => ({ meta, score: 0, note: notes[k] ?? null })),
          limit,
          response,
        );
      }
    } else if (run.kind === "rank") {
      const { ctx, parsed, terms, required, nowMs } = run;
      // No passages asked for: only the total, as `search` counts it, without reading notes.
      const notes = limit === 0 ? 0 : Math.max(limit, Math.floor(options.notes ?? PASSAGE_NOTES));
      await rankPassages(
        ctx,
        parsed,
        terms,
        required,
        { limit, notes, search: this.layout.settings.search, nowMs, blocks: this.blockScorer },
        response,
      );
    }
    response.took_ms = Math.round((clock() - t0) * 1000) / 1000;
    return { ok: true, value: response };
  }

  /**
   * What {@link search} and {@link searchPassages} share: the query parsed (or taken as free text),
   * the scope resolved, the limit, and how the shard is to be searched — not at all (no shard, or
   * free text without a searchable word), by date (filters alone) or by text.
   */
  private prepare(
    query: string,
    options: Pick<SearchOptions, "scope" | "limit" | "includeExpired" | "freeText" | "semantic">,
  ): Result<{ scope: Scope; limit: number; run: PreparedRun }> {
    let parsed: ParsedQuery;
    if (options.freeText) parsed = { text: query, phrases: [], filters: [] };
    else {
      const q = parseQuery(query);
      if (!q.ok) return q;
      parsed = q.value;
    }
    const scoped = parseScope(options.scope, this.layout.settings);
    if (!scoped.ok) return scoped;
    const scope = scoped.value;
    // 0 (or less) asks for no notes, only the total (as a slice to 0 would give).
    const requested = Math.floor(options.limit ?? 10);
    const limit = requested > 0 ? requested : 0;
    const shard = this.shards.get(shardOf(scope));
    if (!shard) return { ok: true, value: { scope, limit, run: { kind: "none" } } };
    const nowMs = this.now();
    const todayIso = today(nowMs); // the user's local date, as the health check judges expiry
    const passes = filterTest(parsed.filters);
    const lasting = (meta: NoteMeta): boolean => inScope(meta, scope) && passes(meta);
    const expired = (meta: NoteMeta): boolean =>
      options.includeExpired !== true && isExpired(meta.expiresAt, todayIso, nowMs);
    const visible = (meta: NoteMeta | undefined): meta is NoteMeta =>
      meta !== undefined && lasting(meta) && !expired(meta);
    const visibility = {
      key: JSON.stringify([scope, parsed.filters.map((f) => [f.name, f.value, f.negated])]),
      lasting,
      expired,
    };
    const known = (term: string): boolean => shard.mini.hasTerm(term);
    // Stop words are dropped from free text only: a quoted phrase is literal (dropping "the" from
    // `"the export"` while requiring it found nothing). A phrase's words rank its notes; the terms
    // every note holding it must have are required (compound parts, not CJK words: see
    // phraseRequiredTerms).
    const textTerms = this.queryTokenizer(parsed.text, known);
    const phraseTerms = parsed.phrases.flatMap((p) => [
      ...this.queryTokenizer(p, known),
      ...phraseCharTerms(p).filter(known),
    ]);
    const required = [
      ...new Set(parsed.phrases.flatMap((p) => phraseRequiredTerms(p, this.analysis))),
    ];
    const terms = [
      ...new Set([
        ...(this.stopWords ? dropStopWords(textTerms) : textTerms),
        ...phraseTerms,
        ...required,
      ]),
    ];
    const ctx: RunContext = {
      shard,
      visible,
      visibility,
      read: (meta, store) => this.readCached(meta, store),
      remember: (meta, note) => this.cache.put(meta.path, note),
    };
    let run: PreparedRun;
    // Free text without a searchable word (emoji, punctuation): nothing can match it.
    if (terms.length === 0 && (parsed.text.trim() !== "" || parsed.phrases.length > 0))
      // Words BM25 cannot use (stop words alone) still have a meaning the vectors can rank by.
      run = options.semantic
        ? { kind: "rank", ctx, parsed, terms, required, nowMs }
        : { kind: "none" };
    else if (terms.length === 0) run = { kind: "list", ctx };
    else run = { kind: "rank", ctx, parsed, terms, required, nowMs };
    return { ok: true, value: { scope, limit, run } };
  }

  // ---- internals ----

  /**
   * Notes by BM25 and by block vectors, fused by reciprocal rank (docs/architecture.md, "Semantic
   * recall"); in `semantic` mode by vectors alone. A note BM25 found keeps its blocks and snippet;
   * one only the vectors found shows its best blocks by vector.
   */
  private async fuseNotes(
    run: Extract<PreparedRun, { kind: "rank" }>,
    semantic: SemanticQuery,
    limit: number,
    blocksPerResult: number,
    response: SearchResponse,
  ): Promise<void> {
    const { ctx, parsed, terms, required, nowMs } = run;
    const depth = Math.max(limit, FUSE_DEPTH);
    const search = this.layout.settings.search;
    const bm25: SearchResponse = { ...response, results: [] };
    // BM25 ranks `depth` notes for the fusion; only those shown are read and their blocks scored.
    let ranked: ChosenNote[] = [];
    if (semantic.mode === "hybrid" && terms.length > 0 && limit > 0) {
      ranked = await chooseNotes(
        ctx,
        parsed,
        terms,
        required,
        { limit: depth, search, nowMs, read: false },
        bm25,
      );
    }
    const found = await semanticBlocks(ctx, parsed, semantic, {
      depth,
      search,
      nowMs,
      required,
    });
    const byNote = new Map<string, SemanticBlock[]>();
    for (const b of found) {
      const list = byNote.get(b.meta.path);
      if (list) list.push(b);
      else byNote.set(b.meta.path, [b]);
    }
    const bmRanked = new Map(ranked.map((c) => [c.meta.path, c]));
    const words = snippetWords(parsed);
    let onlyVectors = 0;
    for (const path of byNote.keys()) if (!bmRanked.has(path)) onlyVectors++;
    response.total = bm25.total + onlyVectors;
    if (bm25.totalBound) response.totalBound = bm25.totalBound;
    const fused = fuseRanks([[...bmRanked.keys()], [...byNote.keys()]]).slice(0, limit);
    const shownBm: ChosenNote[] = [];
    for (const { key } of fused) {
      const c = bmRanked.get(key);
      if (c) shownBm.push(c);
    }
    const bmHits = new Map(
      (
        await notesWithBlocks(
          ctx,
          shownBm,
          parsed,
          terms,
          { blocksPerResult, blocks: this.blockScorer },
          ranked[0]?.score,
        )
      ).map((r) => [r.path, r]),
    );
    // Only the notes shown are read: those BM25 did not read already.
    const shown = await Promise.all(
      fused.map(({ key }) =>
        bmHits.has(key)
          ? Promise.resolve([])
          : Promise.all(
              (byNote.get(key) ?? [])
                .slice(0, Math.max(1, blocksPerResult))
                .map((b) => readSemanticBlock(ctx, b, parsed)),
            ),
      ),
    );
    fused.forEach(({ key, score }, i) => {
      const hit = bmHits.get(key);
      if (hit) {
        response.results.push({ ...hit, score: round(score) });
        return;
      }
      const blocks = (shown[i] ?? []).filter(
        (b): b is Required<SemanticBlock> => b?.block !== undefined,
      );
      const first = blocks[0];
      if (!first) return;
      response.results.push(
        hitOf(
          first.meta,
          round(score),
          clip(first.block.block.text, words),
          blocks.slice(0, blocksPerResult).map((b) => ({
            id: b.block.block.id,
            text: b.block.block.text,
            line: b.block.block.line,
            score: round(b.score),
          })),
        ),
      );
    });
  }

  /** Passages by BM25 and by block vectors, fused by reciprocal rank (as {@link fuseNotes}). */
  private async fusePassages(
    run: Extract<PreparedRun, { kind: "rank" }>,
    semantic: SemanticQuery,
    limit: number,
    notes: number | undefined,
    response: PassageResponse,
  ): Promise<void> {
    const { ctx, parsed, terms, required, nowMs } = run;
    const depth = Math.max(limit, FUSE_DEPTH);
    const search = this.layout.settings.search;
    const bm25: PassageResponse = { ...response, results: [] };
    if (semantic.mode === "hybrid" && terms.length > 0 && limit > 0) {
      await rankPassages(
        ctx,
        parsed,
        terms,
        required,
        {
          limit: depth,
          notes: Math.max(depth, Math.floor(notes ?? PASSAGE_NOTES)),
          search,
          nowMs,
          blocks: this.blockScorer,
        },
        bm25,
      );
    }
    const found = await semanticBlocks(ctx, parsed, semantic, {
      depth,
      search,
      nowMs,
      required,
    });
    // Keyed by note and the hash of the text embedded: a vector's block is not read until shown.
    const keyOf = (path: string, hash: number) => `${path}\n${hash}`;
    const bmPassages = new Map(
      bm25.results.map((p) => [keyOf(p.path, embedHash(embedText(p.text))), p] as const),
    );
    const vectorBlocks = new Map(found.map((b) => [keyOf(b.meta.path, b.hash), b] as const));
    const bmNotes = new Set(bm25.results.map((p) => p.path));
    const notesOnlyVectors = new Set(
      found.map((b) => b.meta.path).filter((path) => !bmNotes.has(path)),
    );
    response.total = bm25.total + notesOnlyVectors.size;
    if (bm25.totalBound) response.totalBound = bm25.totalBound;
    const fused = fuseRanks([[...bmPassages.keys()], [...vectorBlocks.keys()]]).slice(0, limit);
    const read = await Promise.all(
      fused.map(({ key }) => {
        const b = vectorBlocks.get(key);
        return bmPassages.has(key) || !b
          ? Promise.resolve(null)
          : readSemanticBlock(ctx, b, parsed);
      }),
    );
    fused.forEach(({ key, score }, i) => {
      const passage = bmPassages.get(key);
      if (passage) {
        response.results.push({ ...passage, score: round(score) });
        return;
      }
      const b = read[i];
      if (!b?.note || b.k === undefined) return;
      const blocks = b.note.blocks();
      const p = passageOf(
        { meta: b.meta, score: b.score, note: b.note },
        blocks,
        b.k,
        headingsOf(blocks),
        score,
      );
      response.results.push(p);
    });
  }

  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    // The failure goes to the caller through `run`; the queue only orders the next job after it.
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async load(
    progress: ProgressOptions,
    useSaved: boolean,
    sync = true,
  ): Promise<OpenReport> {
    let loadMs = 0;
    let rebuildReason: string | undefined;
    let source: OpenReport["source"] = "built";
    let indexBytes: number | undefined;
    let delta: { records: number } | { ignored: string } | null = null;
    this.reset();
    if (this.store && useSaved) {
      const t0 = clock();
      let data: Uint8Array | string | null = null;
      try {
        data = await this.store.load();
      } catch (err) {
        // An unreadable saved index is only a cache that is missing: rebuild and say why.
        rebuildReason = `saved index cannot be read (${errorMessage(err)})`;
      }
      if (data !== null) {
        indexBytes = data.length;
        const restored = this.restore(data);
        if (restored.ok) {
          source = "saved";
          // The JSON format 9 is rewritten once, in the binary format; an older binary format
          // (10) too, after its delta is replayed.
          if (typeof data === "string") this.changed = true;
          else {
            delta = await this.replayDelta(data);
            if (savedIndexVersion(data) !== INDEX_FORMAT_VERSION) {
              this.changed = true;
              this.saved = null;
            }
          }
        } else {
          rebuildReason = `${restored.error}${this.where()}`;
          this.reset();
        }
      }
      loadMs = source === "saved" ? clock() - t0 : 0;
    }
    if (!sync && source === "saved") {
      const report: OpenReport = {
        source,
        notes: this.size,
        indexed: 0,
        removed: 0,
        loadMs,
        syncMs: 0,
        saveMs: 0,
        capped: this.cappedPaths(),
        unreadable: [],
        unsynced: true,
      };
      deltaReport(report, delta);
      if (indexBytes !== undefined) report.indexChars = indexBytes;
      return report;
    }
    return this.finishOpen(progress, source, loadMs, rebuildReason, indexBytes, delta);
  }

  /** Syncs with the vault and saves ({@link sync}); the rest of {@link load}. */
  private async finishOpen(
    progress: ProgressOptions,
    source: OpenReport["source"],
    loadMs: number,
    rebuildReason: string | undefined,
    indexBytes: number | undefined,
    delta: { records: number } | { ignored: string } | null = null,
  ): Promise<OpenReport> {
    // Loading ICU's CJK dictionary belongs to opening, not to the first Chinese query.
    warmUpSegmenter();
    const t1 = clock();
    const sync = await this.syncWithVault(progress);
    const syncMs = clock() - t1;
    let saveMs = 0;
    let saveError: string | undefined;
    if (this.store && (this.changed || source === "built")) {
      const t2 = clock();
      try {
        indexBytes = await this.saveNow();
      } catch (err) {
        // The index in memory is complete; a read-only vault only costs the next start a rebuild.
        saveError = errorMessage(err);
      }
      saveMs = clock() - t2;
    }
    const report: OpenReport = {
      source,
      notes: this.size,
      indexed: sync.indexed,
      removed: sync.removed,
      loadMs,
      syncMs,
      saveMs,
      capped: this.cappedPaths(),
      unreadable: sync.unreadable,
      listed: sync.listed,
    };
    if (rebuildReason) report.rebuildReason = rebuildReason;
    if (saveError) report.saveError = saveError;
    deltaReport(report, delta);
    if (indexBytes !== undefined) report.indexChars = indexBytes;
    return report;
  }

  /**
   * Queues a vacuum of every shard whose discarded documents reached MiniSearch's auto-vacuum
   * thresholds (at least {@link VACUUM_MIN_DIRT} of them and {@link VACUUM_MIN_FACTOR} of the
   * index): their postings are swept in batches, yielding to the host between batches. The caller
   * does not wait for it; later changes queue behind it.
   */
  private vacuumIfDirty(): void {
    const dirty = [...this.shards.values()].filter(
      (s) => s.mini.dirtCount >= VACUUM_MIN_DIRT && s.mini.dirtFactor >= VACUUM_MIN_FACTOR,
    );
    if (dirty.length === 0) return;
    this.enqueue(async () => {
      for (const shard of dirty) await shard.mini.vacuum({ yieldToHost: this.yieldToHost });
    }).catch((err: unknown) => {
      // The index stays correct (discarded documents are skipped); only its memory is not reclaimed.
      this.onBackgroundError(
        `search index: vacuum failed: ${errorMessage(err)}; the index stays usable, it is compacted on its next rebuild`,
      );
    });
  }

  private reset(): void {
    this.shards = new Map();
    this.cache.clear();
    this.changed = false;
    this.saved = null;
    this.pending = new Map();
    this.pendingChars = 0;
  }

  /**
   * Replays the delta stored beside the binary saved index `base` (just restored), then follows
   * them: the next save appends to that delta. A delta that does not follow `base` (or cannot be
   * read) is left unused and the next save rewrites the base; the notes it held differ from the
   * base by mtime or size, so the sync re-indexes them.
   * @returns the records replayed, or why the delta was not used; `null` when the store keeps no
   *   delta
   */
  private async replayDelta(
    base: Uint8Array,
  ): Promise<{ records: number } | { ignored: string } | null> {
    const store = this.store;
    const id = savedIndexId(base);
    if (!store?.loadDelta || !store.writeDelta || id === null) return null;
    let bytes: Uint8Array | null;
    try {
      bytes = await store.loadDelta();
    } catch (err) {
      return { ignored: `delta cannot be read (${errorMessage(err)})` };
    }
    if (bytes === null) {
      this.saved = { base: id, baseBytes: base.length, deltaBytes: 0 };
      return { records: 0 };
    }
    const version = savedIndexVersion(base) ?? INDEX_FORMAT_VERSION;
    const read = readDelta(bytes, this.key, id, version);
    if (!read.ok) return { ignored: read.error };
    for (const record of read.value.records) {
      for (const path of record.removed) this.removeNow(path);
      for (const note of record.notes) this.indexDocument(note.meta.path, note);
    }
    for (const shard of this.shards.values()) shard.mini.flush();
    this.changed = false;
    this.saved = { base: id, baseBytes: base.length, deltaBytes: read.value.length };

    return { records: read.value.records.length };
  }

  /** Notes a save's delta record holds: `note` indexed at `path`, or `null` when it was removed. */
  private track(path: string, note: DeltaNote | null): void {
    if (!this.saved || !this.pending) return;
    const chars = (n: DeltaNote | null | undefined): number =>
      path.length + (n ? INDEX_FIELDS.reduce((sum, f) => sum + n.doc[f].length, 0) : 0);
    // A note changed again replaces its entry: only its latest text counts.
    if (this.pending.has(path)) this.pendingChars -= chars(this.pending.get(path));
    this.pending.set(path, note);
    this.pendingChars += chars(note);
    // More than a delta may hold: the next save rewrites the base, so the documents are not kept.
    if (
      this.pendingChars * COMPACT_FRACTION > this.saved.baseBytes ||
      this.pending.size > MAX_DELTA_NOTES
    )
      this.pending = null;
  }

  private newMini(): SearchEngine<IndexDoc> {
    return new SearchEngine<IndexDoc>(this.miniOptions(), this.analysis);
  }

  private miniOptions(): ConstructorParameters<typeof SearchEngine<IndexDoc>>[0] {
    return miniSearchOptions(this.tokenizer);
  }

  private shardFor(name: string): Shard {
    let shard = this.shards.get(name);
    if (!shard) {
      shard = { mini: this.newMini(), metas: new Map(), pairs: new Map() };
      this.shards.set(name, shard);
    }
    return shard;
  }

  private restore(data: Uint8Array | string): Result<true> {
    const restored = restoreShards(data, this.key, this.miniOptions(), this.analysis);
    if (!restored.ok) return restored;
    this.shards = restored.value;
    return { ok: true, value: true };
  }

  /**
   * Saves: appends the changes since the last save to the delta when there is one to follow and
   * it stays small (see {@link appendDelta}), else rewrites the base and starts a new delta.
   * @returns the bytes of the saved index now, delta included
   */
  private async saveNow(): Promise<number> {
    if (!this.store) return 0;
    const appended = await this.appendDelta();
    if (appended !== null) {
      this.changed = false;
      return appended;
    }
    const store = this.store;
    // Time-sliced (persistence.ts), so a search is not held up by a save.
    const data = await serializeShardsBinary(this.shards, this.key, this.now(), this.yieldToHost);
    const id = savedIndexId(data);
    const header = store.loadDelta && store.writeDelta && id ? deltaHeader(this.key, id) : null;
    await store.save(data, header ?? undefined);
    this.saved =
      header && id ? { base: id, baseBytes: data.length, deltaBytes: header.length } : null;
    this.pending = new Map();
    this.pendingChars = 0;
    this.changed = false;
    return data.length;
  }

  /**
   * Appends one record of the notes changed and removed since the last save to the delta, under
   * the store's lock, after the last whole record found there (another process's records stay).
   * @returns the bytes of base and delta, or `null` when the base must be rewritten instead: no
   *   delta followed, too many changes kept, the delta would outgrow 1/{@link COMPACT_FRACTION}
   *   of the base or {@link MAX_DELTA_NOTES} notes, or the delta stored now follows another base
   *   (another process rewrote it)
   */
  private async appendDelta(): Promise<number | null> {
    const store = this.store;
    const saved = this.saved;
    const pending = this.pending;
    if (!store?.writeDelta || !saved || !pending) return null;
    if (pending.size === 0) return saved.baseBytes + saved.deltaBytes;
    const record: DeltaRecord = { notes: [], removed: [] };
    for (const [path, note] of pending) {
      if (note) record.notes.push(note);
      else record.removed.push(path);
    }
    const bytes = encodeDeltaRecord(record);
    const header = deltaHeader(this.key, saved.base);
    let end = 0;
    const wrote = await store.writeDelta((current) => {
      let at = header.length;
      let before = 0;
      if (current !== null) {
        const scanned = scanDelta(current, this.key, saved.base);
        if (!scanned.ok) return null;
        at = scanned.value.length;
        before = scanned.value.notes;
      }
      const adds = { bytes: bytes.length, notes: recordNotes(bytes) };
      if (shouldCompact(saved.baseBytes, { bytes: at, notes: before }, adds)) return null;
      end = at + bytes.length;
      if (current !== null) return { at, bytes };
      const whole = new Uint8Array(end);
      whole.set(header, 0);
      whole.set(bytes, header.length);
      return { at: 0, bytes: whole };
    });
    if (!wrote) return null;
    saved.deltaBytes = end;
    this.pending = new Map();
    this.pendingChars = 0;
    return saved.baseBytes + end;
  }

  private cappedPaths(): string[] {
    const out: string[] = [];
    for (const shard of this.shards.values())
      for (const m of shard.metas.values()) if (m.capped) out.push(m.path);
    return out.sort();
  }

  private indexText(path: string, text: string, stat: { mtime: number; size: number }): void {
    this.indexDocument(path, buildNoteDocument(path, text, stat, this.layout));
  }

  /** Adds or replaces the note at `path` from its document (see {@link buildNoteDocument}). */
  private indexDocument(
    path: string,
    { doc, meta, pairs }: Pick<PreparedNote, "doc" | "meta" | "pairs">,
    memo?: SegmentMemo,
  ): void {
    const name = meta.zone ?? MAIN_SHARD;
    // A note may change shard only if settings changed under a live index; keep one copy anyway.
    for (const [other, shard] of this.shards) {
      if (other !== name && shard.metas.has(path)) {
        forget(shard, path);
        shard.mini.discard(path);
        shard.metas.delete(path);
        shard.pairs.delete(path);
        touchShard(shard);
      }
    }
    const shard = this.shardFor(name);
    // discard + add is MiniSearch's replace (test/core/search/search-service.test.ts, "case 06: …"); addText
    // counts the tokenizer's terms.
    if (shard.mini.has(path)) {
      forget(shard, path);
      shard.mini.discard(path);
    }
    shard.mini.addText(
      path,
      INDEX_FIELDS.map((f) => doc[f]),
      INDEX_FIELDS,
      memo,
    );
    shard.metas.set(path, meta);
    touchShard(shard);
    if (pairs) shard.pairs.set(path, pairs);
    else shard.pairs.delete(path);
    this.cache.drop(path);
    this.changed = true;
    this.track(path, pairs ? { doc, meta, pairs } : { doc, meta });
  }

  private removeNow(path: string): boolean {
    let found = false;
    for (const shard of this.shards.values()) {
      if (shard.mini.has(path)) {
        forget(shard, path);
        shard.mini.discard(path);
        found = true;
      }
      if (shard.metas.delete(path)) {
        touchShard(shard);
        found = true;
      }
      shard.pairs.delete(path);
    }
    this.cache.drop(path);
    if (found) {
      this.changed = true;
      this.track(path, null);
    }
    return found;
  }

  private async syncWithVault(progress: ProgressOptions): Promise<{
    indexed: number;
    removed: number;
    unreadable: OpenReport["unreadable"];
    listed: string[];
  }> {
    const all = await this.vault.list(this.layout.root || undefined);
    const files = all.filter((f) => this.layout.isInside(f.path));
    const seen = new Set<string>();
    const todo: { path: string; mtime: number; size: number }[] = [];
    for (const f of files) {
      seen.add(f.path);
      const meta = this.meta(f.path);
      if (!meta || meta.mtime !== f.mtime || meta.size !== f.size) todo.push(f);
    }
    let removed = 0;
    for (const shard of this.shards.values()) {
      for (const path of [...shard.metas.keys()]) {
        if (!seen.has(path) && this.removeNow(path)) removed++;
      }
    }
    const unreadable: OpenReport["unreadable"] = [];
    const chunkSize = Math.max(1, progress.chunkSize ?? 200);
    let done = 0;
    for await (const group of this.reader.readNotes(todo, this.layout.settings)) {
      for (const r of group) {
        const f = todo[done++];
        if (f?.path !== r.path)
          throw new Error(`note reader: expected ${f?.path ?? "no note"}, got ${r.path}`);
        if (!r.ok) {
          unreadable.push({ path: f.path, error: errorMessage(r.error) });
          if (this.removeNow(f.path)) removed++;
        } else if ("prepared" in r)
          this.indexDocument(f.path, r.prepared, segmentMemo(r.prepared.segments));
        else this.indexText(f.path, r.text, f);
        if (done % chunkSize === 0 || done === todo.length) {
          progress.onProgress?.(done, todo.length);
          await this.yieldToHost();
        }
      }
    }
    // Grouping the new postings by term is the last step of indexing them.
    for (const shard of this.shards.values()) shard.mini.flush();
    if (todo.length === 0) progress.onProgress?.(0, 0);
    return {
      indexed: todo.length - unreadable.length,
      removed,
      unreadable,
      listed: all.map((f) => f.path),
    };
  }

  private readCached(meta: NoteMeta, store = true): Promise<CachedNote | null> {
    return (
      this.cache
        .get(
          meta.path,
          phraseTitle(meta),
          meta.capped === true,
          () => this.vault.read(meta.path),
          store,
        )
        // A note that cannot be read now (deleted, not UTF-8) gives no passage; the next sync names it.
        .catch(() => null)
    );
  }
}
