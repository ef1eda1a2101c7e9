/**
 * SearchService: the memory's BM25 index (DESIGN §4, issue 4), shared by the plugin and the CLI.
 *
 * - One MiniSearch (BM25+) index per shard: the main shard holds every Markdown note under the
 *   memory root outside isolated zones; each isolated zone has its own shard, so its notes, words,
 *   counts and term statistics can never reach another scope (DESIGN §8).
 * - Incremental: {@link SearchService.update}, {@link SearchService.remove} and
 *   {@link SearchService.rename} re-index one note with MiniSearch `replace`/`discard`, never `remove`
 *   with a changed document (case 06).
 * - Persistent: {@link SearchService.open} restores the index saved through an {@link IndexStore}
 *   and re-indexes only notes whose mtime or size changed; a corrupt, foreign or outdated saved
 *   index is rebuilt with a message, never a crash.
 * - Hosts: core code only; it talks to storage through {@link VaultPort} and the store. Long work
 *   runs in chunks, calling `onProgress(done, total)` and the host's `yieldToHost` between chunks so
 *   the plugin's UI stays responsive.
 *
 * MiniSearch API: https://lucaong.github.io/minisearch/classes/MiniSearch.MiniSearch.html
 */
import { errorMessage } from "../errors";
import type { MemoryLayout } from "../layout";
import type { VaultPort } from "../vault";
import { scoreBlocks } from "./block-rank";
import { CountingIndex, countTerms } from "./counting-index";
import { matchesFilters } from "./filters";
import { NoteCache, type CachedNote } from "./note-cache";
import { buildNoteDocument, INDEX_FIELDS, type IndexDoc, type NoteMeta } from "./note-document";
import { deserializeIndex, serializeIndex, type IndexStore, type SavedShard } from "./persistence";
import { parseQuery, type Parsed, type ParsedQuery } from "./query";
import { isExpired, rankFactor, today } from "./ranking";
import { inScope, MAIN_SHARD, parseScope, scopeLabel, shardOf } from "./scope";
import { dropStopWords } from "./stop-words";
import {
  containsPhrase,
  createQueryTokenizer,
  createTokenizer,
  normalizeText,
  tokenize,
  TOKENIZER_VERSION,
  type Tokenizer,
} from "./tokenizer";

export type { IndexStore } from "./persistence";

/** Field boosts (DESIGN §4: title boosted). */
export const FIELD_BOOSTS: Readonly<Record<(typeof INDEX_FIELDS)[number], number>> = {
  title: 3,
  aliases: 2.5,
  tags: 2,
  headings: 1.5,
  properties: 1.2,
  body: 1,
};

/** Phrase queries check at most this many BM25 candidates against the notes' text. */
const PHRASE_CHECK_LIMIT = 500;
/** Snippet length, characters. */
const SNIPPET_CHARS = 240;
/** Notes read concurrently while building. */
const READ_CONCURRENCY = 16;

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
   * Text analysis switches, for evaluations that measure what each step is worth (issue 4 §1);
   * the defaults are what the product uses: English stemming on, query stop words dropped.
   */
  analysis?: { stemming?: boolean; stopWords?: boolean };
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
  /** Why a saved index was not used (corrupt, other version, other settings), when there was one. */
  rebuildReason?: string;
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
  /** Size of the saved index in bytes (UTF-16 length of the JSON), when it was saved or loaded. */
  indexBytes?: number;
  /** Notes over the size cap, indexed by frontmatter and headings only. */
  capped: string[];
  /** Notes that could not be read, with the reason (they are left out). */
  unreadable: { path: string; error: string }[];
}

/** Options of {@link SearchService.search}. */
export interface SearchOptions {
  /** `all` (default), `library`, `agent:<name>` or an isolated zone's name. */
  scope?: string;
  /** Most notes returned (default 10). */
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
  /** BM25 score times the ranking factor (see {@link rankFactor}); 0 when listed by filters alone. */
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
  /** Matching notes in scope before the limit (phrase queries: among the first 500 candidates). */
  total: number;
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

interface Shard {
  mini: CountingIndex<IndexDoc>;
  metas: Map<string, NoteMeta>;
}

interface Candidate {
  meta: NoteMeta;
  score: number;
}

/**
 * MiniSearch options of every shard. `tokenize`/`processTerm` describe what
 * {@link CountingIndex.addCounted} does, so MiniSearch's own `add` would index a note the same way.
 */
export function miniSearchOptions(tokenizer: Tokenizer = tokenize): ConstructorParameters<typeof CountingIndex<IndexDoc>>[0] {
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
    folders: [s.agentsFolder, s.journalFolder, s.trackersFolder, s.knowledgeFolder, s.libraryFolder],
    zones: [...s.isolatedZones].sort(),
    cap: s.search.sizeCapBytes,
  });
}

function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}

function clock(): number {
  return typeof performance !== "undefined" ? performance.now() : Date.now();
}

/** The search index of one memory. Methods that change the index run one at a time. */
export class SearchService {
  private readonly vault: VaultPort;
  private readonly layout: MemoryLayout;
  private readonly store: IndexStore | null;
  private readonly now: () => number;
  private readonly yieldToHost: () => Promise<void>;
  private readonly key: string;
  private readonly tokenizer: Tokenizer;
  private readonly queryTokenizer: ReturnType<typeof createQueryTokenizer>;
  private readonly stopWords: boolean;
  private readonly blockTokenizer: Tokenizer;
  private readonly cache: NoteCache;
  private shards = new Map<string, Shard>();
  private queue: Promise<unknown> = Promise.resolve();
  private changed = false;

  constructor(options: SearchServiceOptions) {
    this.vault = options.vault;
    this.layout = options.layout;
    this.store = options.store ?? null;
    this.now = options.now ?? (() => Date.now());
    this.yieldToHost = options.yieldToHost ?? (() => Promise.resolve());
    const stemming = options.analysis?.stemming ?? true;
    this.tokenizer = stemming ? tokenize : createTokenizer({ stemming: false });
    this.queryTokenizer = createQueryTokenizer({ stemming });
    this.stopWords = options.analysis?.stopWords ?? true;
    // Blocks are scored with CJK n-grams instead of the segmenter: the same terms for every CJK
    // query term but bigrams, at a fraction of the cost (query time reads whole notes).
    this.blockTokenizer = createTokenizer({ stemming, cjk: "ngrams" });
    this.cache = new NoteCache();
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
   * ones, and saves when anything changed. Never throws for a bad saved index (it is rebuilt and
   * the reason reported); throws {@link VaultError} when the vault cannot be listed, or the store's
   * own error when saving fails.
   */
  open(progress: ProgressOptions = {}): Promise<OpenReport> {
    return this.enqueue(async () => {
      let loadMs = 0;
      let rebuildReason: string | undefined;
      let source: OpenReport["source"] = "built";
      let indexBytes: number | undefined;
      this.reset();
      if (this.store) {
        const t0 = clock();
        const data = await this.store.load();
        if (data !== null) {
          indexBytes = data.length;
          const restored = this.restore(data);
          if (restored.ok) source = "saved";
          else {
            rebuildReason = restored.error;
            this.reset();
          }
        }
        loadMs = source === "saved" ? clock() - t0 : 0;
      }
      const t1 = clock();
      const sync = await this.syncWithVault(progress);
      const syncMs = clock() - t1;
      let saveMs = 0;
      if (this.store && (this.changed || source === "built")) {
        const t2 = clock();
        indexBytes = await this.saveNow();
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
      };
      if (rebuildReason) report.rebuildReason = rebuildReason;
      if (indexBytes !== undefined) report.indexBytes = indexBytes;
      return report;
    });
  }

  /** Drops the index and builds it again from the notes (then saves, when there is a store). */
  rebuild(progress: ProgressOptions = {}): Promise<OpenReport> {
    return this.enqueue(async () => {
      this.reset();
      const t1 = clock();
      const sync = await this.syncWithVault(progress);
      const syncMs = clock() - t1;
      let saveMs = 0;
      let indexBytes: number | undefined;
      if (this.store) {
        const t2 = clock();
        indexBytes = await this.saveNow();
        saveMs = clock() - t2;
      }
      const report: OpenReport = {
        source: "built",
        notes: this.size,
        indexed: sync.indexed,
        removed: sync.removed,
        loadMs: 0,
        syncMs,
        saveMs,
        capped: this.cappedPaths(),
        unreadable: sync.unreadable,
      };
      if (indexBytes !== undefined) report.indexBytes = indexBytes;
      return report;
    });
  }

  /**
   * Re-indexes one note after it was created or modified (case 06). A note outside the memory
   * root is ignored; a note that no longer exists is removed. Indexing a note never indexed before
   * is not an error.
   * @param stat the note's mtime (ms) and size (bytes) when the host knows them (the plugin does,
   *   from `TFile.stat`); otherwise the size is measured and the mtime recorded as unknown, so the
   *   next {@link open} checks the note again.
   * @returns `indexed`, `removed` (it no longer exists) or `ignored` (outside the memory root)
   * @throws {@link VaultError} when the note exists but cannot be read
   */
  update(path: string, stat?: { mtime: number; size: number }): Promise<"indexed" | "removed" | "ignored"> {
    return this.enqueue(async () => {
      if (!this.layout.isInside(path) || !path.toLowerCase().endsWith(".md")) return "ignored";
      if (!(await this.vault.exists(path))) {
        this.removeNow(path);
        return "removed";
      }
      const text = await this.vault.read(path);
      this.indexText(path, text, stat ?? { mtime: -1, size: utf8Length(text) });
      return "indexed";
    });
  }

  /**
   * Removes a deleted note. Removing a note that is not indexed (or removing twice) is not an
   * error (case 06).
   * @returns true when the note was in the index
   */
  remove(path: string): Promise<boolean> {
    return this.enqueue(() => Promise.resolve(this.removeNow(path)));
  }

  /**
   * Moves a note in the index after a rename: the old path is removed and the new one read and
   * indexed (its agent, collection or zone may have changed with its folder).
   * @throws {@link VaultError} when the renamed note cannot be read
   */
  async rename(oldPath: string, newPath: string, stat?: { mtime: number; size: number }): Promise<void> {
    await this.remove(oldPath);
    await this.update(newPath, stat);
  }

  /**
   * Saves the index through the store (when there is one) and returns its size in characters.
   * Throws whatever the store throws.
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
        if (name === MAIN_SHARD) collections[meta.collection] = (collections[meta.collection] ?? 0) + 1;
        if (meta.frontmatterError) frontmatterErrors.push({ path: meta.path, error: meta.frontmatterError });
      }
    }
    frontmatterErrors.sort((a, b) => (a.path < b.path ? -1 : 1));
    return { notes: this.size, collections, zones, terms, capped: this.cappedPaths(), frontmatterErrors };
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
   * Searches (issue 4 §3–5). Free text is ranked by BM25 with field boosts and the ranking
   * factors; a query of filters alone lists matching notes newest first. Each result carries its
   * best-matching blocks and a snippet, read from the note at query time.
   * @returns the response, or an error for an unknown filter, a bad date or an unknown scope
   */
  async search(query: string, options: SearchOptions = {}): Promise<Parsed<SearchResponse>> {
    const t0 = clock();
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
    const limit = Math.max(1, Math.floor(options.limit ?? 10));
    const blocksPerResult = Math.max(0, Math.floor(options.blocksPerResult ?? 3));
    const shard = this.shards.get(shardOf(scope));
    const response: SearchResponse = { query, scope: scopeLabel(scope), took_ms: 0, total: 0, results: [] };
    if (shard) {
      const nowMs = this.now();
      const todayIso = today(nowMs);
      const visible = (meta: NoteMeta | undefined): meta is NoteMeta =>
        meta !== undefined &&
        inScope(meta, scope) &&
        matchesFilters(meta, parsed.filters) &&
        (options.includeExpired === true || !isExpired(meta, todayIso));
      const known = (term: string): boolean => shard.mini.hasTerm(term);
      const queryTerms = this.queryTokenizer([parsed.text, ...parsed.phrases].join(" "), known);
      const terms = [...new Set(this.stopWords ? dropStopWords(queryTerms) : queryTerms)];
      if (terms.length === 0) {
        await this.listByDate(shard, visible, limit, response);
      } else {
        await this.rankByText(shard, parsed, terms, visible, nowMs, { limit, blocksPerResult }, response);
      }
    }
    response.took_ms = Math.round((clock() - t0) * 1000) / 1000;
    return { ok: true, value: response };
  }

  // ---- internals ----

  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private reset(): void {
    this.shards = new Map();
    this.cache.clear();
    this.changed = false;
  }

  private newMini(): CountingIndex<IndexDoc> {
    return new CountingIndex<IndexDoc>(this.miniOptions());
  }

  private miniOptions(): ConstructorParameters<typeof CountingIndex<IndexDoc>>[0] {
    return miniSearchOptions(this.tokenizer);
  }

  private shardFor(name: string): Shard {
    let shard = this.shards.get(name);
    if (!shard) {
      shard = { mini: this.newMini(), metas: new Map() };
      this.shards.set(name, shard);
    }
    return shard;
  }

  private restore(data: string): Parsed<true> {
    const saved = deserializeIndex(data, this.key);
    if (!saved.ok) return saved;
    try {
      for (const s of saved.value.shards) {
        const mini = CountingIndex.fromSaved<IndexDoc>(s.index, this.miniOptions());
        if (mini.documentCount !== s.metas.length) {
          return { ok: false, error: `saved index is corrupt (shard "${s.name}" holds ${mini.documentCount} notes, metadata ${s.metas.length})` };
        }
        const metas = new Map<string, NoteMeta>();
        for (const m of s.metas) metas.set(m.path, m);
        this.shards.set(s.name, { mini, metas });
      }
    } catch (err) {
      return { ok: false, error: `saved index is corrupt (${errorMessage(err)})` };
    }
    return { ok: true, value: true };
  }

  private async saveNow(): Promise<number> {
    if (!this.store) return 0;
    const shards: SavedShard[] = [];
    for (const [name, shard] of this.shards) {
      shards.push({ name, metas: [...shard.metas.values()], index: shard.mini.toSaved() });
    }
    const data = serializeIndex(this.key, shards, this.now());
    await this.store.save(data);
    this.changed = false;
    return data.length;
  }

  private cappedPaths(): string[] {
    const out: string[] = [];
    for (const shard of this.shards.values()) for (const m of shard.metas.values()) if (m.capped) out.push(m.path);
    return out.sort();
  }

  private indexText(path: string, text: string, stat: { mtime: number; size: number }): void {
    const { doc, meta } = buildNoteDocument(path, text, stat, this.layout);
    const name = meta.zone ?? MAIN_SHARD;
    // A note may change shard only if settings changed under a live index; keep one copy anyway.
    for (const [other, shard] of this.shards) {
      if (other !== name && shard.metas.has(path)) {
        shard.mini.discard(path);
        shard.metas.delete(path);
      }
    }
    const shard = this.shardFor(name);
    // discard + add is MiniSearch's replace (case 06); the add takes pre-counted terms.
    if (shard.mini.has(path)) shard.mini.discard(path);
    shard.mini.addCounted(path, INDEX_FIELDS.map((f) => countTerms(this.tokenizer(doc[f]))), INDEX_FIELDS);
    shard.metas.set(path, meta);
    this.cache.drop(path);
    this.changed = true;
  }

  private removeNow(path: string): boolean {
    let found = false;
    for (const shard of this.shards.values()) {
      if (shard.mini.has(path)) {
        shard.mini.discard(path);
        found = true;
      }
      if (shard.metas.delete(path)) found = true;
    }
    this.cache.drop(path);
    if (found) this.changed = true;
    return found;
  }

  private async syncWithVault(
    progress: ProgressOptions,
  ): Promise<{ indexed: number; removed: number; unreadable: OpenReport["unreadable"] }> {
    const files = (await this.vault.list(this.layout.root || undefined)).filter((f) => this.layout.isInside(f.path));
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
    for (let start = 0; start < todo.length; start += chunkSize) {
      const chunk = todo.slice(start, start + chunkSize);
      for (let i = 0; i < chunk.length; i += READ_CONCURRENCY) {
        const group = chunk.slice(i, i + READ_CONCURRENCY);
        const texts = await Promise.all(
          group.map((f) => this.vault.read(f.path).then((t) => ({ ok: true as const, t }), (e: unknown) => ({ ok: false as const, e }))),
        );
        group.forEach((f, k) => {
          const r = texts[k];
          if (r?.ok) this.indexText(f.path, r.t, f);
          else {
            unreadable.push({ path: f.path, error: errorMessage(r?.e) });
            if (this.removeNow(f.path)) removed++;
          }
        });
      }
      done += chunk.length;
      progress.onProgress?.(done, todo.length);
      await this.yieldToHost();
    }
    if (todo.length === 0) progress.onProgress?.(0, 0);
    return { indexed: todo.length - unreadable.length, removed, unreadable };
  }

  private async listByDate(
    shard: Shard,
    visible: (meta: NoteMeta | undefined) => meta is NoteMeta,
    limit: number,
    response: SearchResponse,
  ): Promise<void> {
    const matches: NoteMeta[] = [];
    for (const meta of shard.metas.values()) if (visible(meta)) matches.push(meta);
    matches.sort((a, b) => {
      const da = a.date ?? "";
      const db = b.date ?? "";
      if (da !== db) return da < db ? 1 : -1;
      return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
    });
    response.total = matches.length;
    const shown = matches.slice(0, limit);
    const notes = await Promise.all(shown.map((meta) => this.readCached(meta)));
    shown.forEach((meta, k) => {
      const note = notes[k];
      const first = note?.blocks.find((b) => !b.block.heading) ?? note?.blocks[0];
      response.results.push(this.hit(meta, 0, first ? clip(first.block.text, []) : "", []));
    });
  }

  private async rankByText(
    shard: Shard,
    parsed: ParsedQuery,
    terms: string[],
    visible: (meta: NoteMeta | undefined) => meta is NoteMeta,
    nowMs: number,
    opts: { limit: number; blocksPerResult: number },
    response: SearchResponse,
  ): Promise<void> {
    const known = (term: string): boolean => shard.mini.hasTerm(term);
    const phraseTerms = parsed.phrases.map((p) => [...new Set(this.queryTokenizer(p, known))]);
    const search = this.layout.settings.search;
    // Scope, filters, expiry and the ranking factor go in as MiniSearch's document boost, once per
    // note and query: a note boosted 0 never becomes a result, the rest come back ranked.
    const factors = new Map<string, number>();
    const boostDocument = (id: unknown): number => {
      const key = id as string;
      let factor = factors.get(key);
      if (factor === undefined) {
        const meta = shard.metas.get(key);
        factor = visible(meta) ? rankFactor(meta, search, nowMs) : 0;
        factors.set(key, factor);
      }
      return factor;
    };
    const raw = shard.mini.search(terms.join(" "), { boostDocument });
    let candidates: Candidate[] = [];
    for (const r of raw) {
      const meta = shard.metas.get(r.id as string);
      if (!meta) continue;
      if (phraseTerms.length > 0) {
        const matched = new Set(r.queryTerms);
        if (!phraseTerms.every((pt) => pt.every((t) => matched.has(t)))) continue;
      }
      candidates.push({ meta, score: r.score });
    }

    const chosen: { cand: Candidate; note: CachedNote | null }[] = [];
    if (parsed.phrases.length > 0) {
      let total = 0;
      const checked = candidates.slice(0, PHRASE_CHECK_LIMIT);
      for (let i = 0; i < checked.length; i += READ_CONCURRENCY) {
        const group = checked.slice(i, i + READ_CONCURRENCY);
        const notes = await Promise.all(group.map((c) => this.readCached(c.meta)));
        group.forEach((cand, k) => {
          const note = notes[k];
          if (!note || !parsed.phrases.every((p) => containsPhrase(note.phraseText(), p))) return;
          total++;
          if (chosen.length < opts.limit) chosen.push({ cand, note });
        });
      }
      response.total = total;
    } else {
      response.total = candidates.length;
      candidates = candidates.slice(0, opts.limit);
      const notes = await Promise.all(candidates.map((c) => this.readCached(c.meta)));
      candidates.forEach((cand, k) => chosen.push({ cand, note: notes[k] ?? null }));
    }

    const blockSets = chosen.map((c) => c.note?.blocks ?? []);
    const blockScores = scoreBlocks(blockSets, terms, this.blockTokenizer);
    const top = chosen[0]?.cand.score ?? 1;
    const words = normalizeText([parsed.text, ...parsed.phrases].join(" "))
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length > 1);
    chosen.forEach(({ cand }, i) => {
      const scores = blockScores[i] ?? [];
      // A block inherits its note's relevance: (note score / best note score)², measured on LoCoMo
      // (bench/results/locomo.md) against plain block BM25 and gentler weights.
      const weight = top > 0 ? (cand.score / top) ** 2 : 1;
      const blocks = (blockSets[i] ?? [])
        .map((b, k) => ({ b, score: (scores[k] ?? 0) * weight }))
        .filter((x) => x.score > 0)
        .sort((x, y) => y.score - x.score || x.b.block.line - y.b.block.line);
      const best = blocks[0]?.b.block ?? (blockSets[i] ?? []).find((b) => !b.block.heading)?.block;
      const hits: BlockHit[] = blocks
        .slice(0, opts.blocksPerResult)
        .map(({ b, score }) => ({ id: b.block.id, text: b.block.text, line: b.block.line, score: round(score) }));
      response.results.push(this.hit(cand.meta, round(cand.score), best ? clip(best.text, words) : "", hits));
    });
  }

  private readCached(meta: NoteMeta): Promise<CachedNote | null> {
    return this.cache
      .get(meta.path, meta.title, meta.capped === true, () => this.vault.read(meta.path))
      .catch(() => null);
  }

  private hit(meta: NoteMeta, score: number, snippet: string, blocks: BlockHit[]): SearchHit {
    const hit: SearchHit = {
      path: meta.path,
      title: meta.title,
      score,
      agent: meta.agent,
      collection: meta.collection,
      snippet,
      blocks,
    };
    if (meta.type) hit.type = meta.type;
    if (meta.status) hit.status = meta.status;
    if (meta.date) hit.date = meta.date;
    return hit;
  }
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

/** At most {@link SNIPPET_CHARS} characters of `text`, around the first query word found. */
function clip(text: string, words: string[]): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= SNIPPET_CHARS) return flat;
  const lower = flat.toLowerCase();
  let at = -1;
  for (const w of words) {
    const i = lower.indexOf(w);
    if (i >= 0 && (at < 0 || i < at)) at = i;
  }
  const start = Math.max(0, Math.min(at < 0 ? 0 : at - 60, flat.length - SNIPPET_CHARS));
  const body = flat.slice(start, start + SNIPPET_CHARS).trim();
  return `${start > 0 ? "…" : ""}${body}${start + SNIPPET_CHARS < flat.length ? "…" : ""}`;
}
