/**
 * The search index in the plugin (docs/plugin.md, "Search panel"): loaded or built after the layout
 * is ready, in chunks that yield to the UI with progress in the status bar; kept current by the
 * vault's `create` (subscribed only after layout ready, since it fires for every file at start-up),
 * `modify`,
 * `delete` and `rename` events; saved under the plugin's folder in the config dir.
 *
 * The index itself is the core's {@link SearchService}; this class only hosts it.
 */
import {
  Component,
  debounce,
  normalizePath,
  TFile,
  type DataAdapter,
  type TAbstractFile,
} from "obsidian";
import { errorMessage } from "../../core/errors";
import { MemoryLayout } from "../../core/layout";
import type { Result } from "../../core/util/result";
import { emptyZones } from "../../core/search/scope";
import {
  SearchService,
  type DeltaWrite,
  type IndexStore,
  type OpenReport,
  type SearchOptions,
  type SearchResponse,
} from "../../core/search/search-service";
import type { Settings } from "../../core/settings";
import type { PluginContext } from "../context";
import type { StatusBarProgress } from "../views/status-bar-progress";
import { yieldToUi } from "../views/progress-notice";
import { searchWith } from "../../core/semantic/hybrid";
import { embeddingsSettingsKey, type EmbeddingsRunner } from "./embeddings-runner";

/** Notes per chunk while building; the UI gets a turn between chunks. */
const CHUNK = 100;
/** Wait after the last change before saving the index, milliseconds. */
const SAVE_DELAY_MS = 5000;
/** Wait after the last settings change before re-opening the index, milliseconds. */
const RECONFIGURE_DELAY_MS = 1500;
/** Wait after the last change of a note before embedding what changed, milliseconds. */
const EMBED_DELAY_MS = 10_000;

/** Where the index is: not started, being built, ready, or failed (with the reason). */
export type IndexState =
  | { kind: "waiting" }
  | { kind: "building"; done: number; total: number }
  | { kind: "ready"; notes: number }
  | { kind: "failed"; error: string };

/**
 * {@link IndexStore} over the vault adapter: a binary file in the plugin's folder (`path`), or,
 * before its first save, the JSON index (format 9) at `jsonPath`, which a save then removes; the
 * delta at `deltaPath` (default: `path` with `.delta` for its extension), appended with
 * `appendBinary`. Only this plugin writes these files; its saves and delta writes run one at a
 * time.
 */
export class AdapterIndexStore implements IndexStore {
  readonly deltaPath: string;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly adapter: DataAdapter,
    readonly path: string,
    readonly jsonPath?: string,
    deltaPath?: string,
  ) {
    this.deltaPath = deltaPath ?? `${path.replace(/\.[^./]*$/, "")}.delta`;
  }

  get location(): string {
    return this.path;
  }

  async load(): Promise<Uint8Array | string | null> {
    if (await this.adapter.exists(this.path))
      return new Uint8Array(await this.adapter.readBinary(this.path));
    if (this.jsonPath !== undefined && (await this.adapter.exists(this.jsonPath)))
      return this.adapter.read(this.jsonPath);
    return null;
  }

  async loadDelta(): Promise<Uint8Array | null> {
    if (!(await this.adapter.exists(this.deltaPath))) return null;
    return new Uint8Array(await this.adapter.readBinary(this.deltaPath));
  }

  /**
   * See {@link IndexStore.writeDelta}: `appendBinary` when the write starts at the delta's end,
   * else the delta written whole (its first `at` bytes, then `bytes`). Throws `RangeError` for an
   * `at` past the delta's end.
   */
  writeDelta(plan: (current: Uint8Array | null) => DeltaWrite | null): Promise<boolean> {
    return this.oneAtATime(async () => {
      const current = await this.loadDelta();
      const write = plan(current);
      if (write === null) return false;
      const length = current?.length ?? 0;
      if (write.at > length) throw new RangeError(`delta write at ${write.at} is past its end`);
      if (current !== null && write.at === length && length > 0) {
        await this.adapter.appendBinary(this.deltaPath, bufferOf(write.bytes));
        return true;
      }
      const whole = new Uint8Array(write.at + write.bytes.length);
      if (current !== null) whole.set(current.subarray(0, write.at), 0);
      whole.set(write.bytes, write.at);
      await this.mkFolder();
      await this.adapter.writeBinary(this.deltaPath, whole.buffer);
      return true;
    });
  }

  save(data: Uint8Array, delta?: Uint8Array): Promise<void> {
    return this.oneAtATime(async () => {
      await this.mkFolder();
      await this.adapter.writeBinary(this.path, bufferOf(data));
      if (delta !== undefined) await this.adapter.writeBinary(this.deltaPath, bufferOf(delta));
      if (this.jsonPath !== undefined && (await this.adapter.exists(this.jsonPath)))
        await this.adapter.remove(this.jsonPath);
    });
  }

  private async mkFolder(): Promise<void> {
    const folder = this.path.slice(0, this.path.lastIndexOf("/"));
    if (folder && !(await this.adapter.exists(folder))) await this.adapter.mkdir(folder);
  }

  private oneAtATime<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

/** A copy of `bytes` in an `ArrayBuffer` of their own (the adapter takes whole buffers). */
function bufferOf(bytes: Uint8Array): ArrayBuffer {
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  return copy.buffer;
}

/** Settings the index depends on: when one changes, the index is re-opened. */
function indexSettingsKey(s: Settings): string {
  return JSON.stringify([
    s.memoryRoot,
    s.agentsFolder,
    s.journalFolder,
    s.trackersFolder,
    s.knowledgeFolder,
    s.libraryFolder,
    s.isolatedZones,
    s.search,
  ]);
}

export class IndexLifecycle extends Component {
  private service: SearchService | null = null;
  /** The warm-up's pending yields (timeout id → resolve), cut short on unload. */
  private readonly warmUpYields = new Map<number, () => void>();
  private stateValue: IndexState = { kind: "waiting" };
  private readonly listeners = new Set<(state: IndexState) => void>();
  private settingsKey = "";
  private embeddingsKey = "";
  private problemList: string[] = [];
  private started = false;
  private unloaded = false;
  /** Bumped when a newer open/rebuild starts; an older one then stops reporting. */
  private generation = 0;
  private readonly saveLater = debounce(() => void this.saveNow(), SAVE_DELAY_MS, true);
  private readonly reconfigureLater = debounce(
    () => void this.reopen(),
    RECONFIGURE_DELAY_MS,
    true,
  );
  private readonly embedLater = debounce(() => void this.embedNow(), EMBED_DELAY_MS, true);

  /**
   * @param storePath vault path of the saved index, e.g. `.obsidian/plugins/agent-memory/search-index.bin`;
   *   an index saved in the JSON format 9 beside it (`search-index.json`) is read once and replaced
   * @param embeddings the background embedding and the vectors of hybrid search; without it (or
   *   without embeddings configured) search is BM25 alone
   */
  constructor(
    private readonly ctx: PluginContext,
    private readonly status: StatusBarProgress,
    private readonly storePath: string,
    private readonly embeddings: EmbeddingsRunner | null = null,
  ) {
    super();
  }

  /** The index's state now. */
  get state(): IndexState {
    return this.stateValue;
  }

  /** Calls `listener` on every state change until the returned function is called. */
  subscribe(listener: (state: IndexState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  override onunload(): void {
    this.unloaded = true;
    this.generation++;
    for (const [id, resolve] of this.warmUpYields) {
      window.clearTimeout(id);
      resolve();
    }
    this.warmUpYields.clear();
    this.saveLater.cancel();
    this.reconfigureLater.cancel();
    this.embedLater.cancel();
    this.embeddings?.cancel();
    this.status.dispose();
    this.listeners.clear();
  }

  /**
   * Starts the index; call from `workspace.onLayoutReady`. Subscribes to vault events (after layout
   * ready, so start-up `create` events are not seen) and opens the index in the background.
   */
  start(): void {
    if (this.started || this.unloaded) return;
    this.started = true;
    const { vault } = this.ctx.app;
    this.registerEvent(vault.on("create", (file) => this.onFileChanged(file)));
    this.registerEvent(vault.on("modify", (file) => this.onFileChanged(file)));
    this.registerEvent(vault.on("delete", (file) => this.onFileDeleted(file)));
    this.registerEvent(vault.on("rename", (file, oldPath) => this.onFileRenamed(file, oldPath)));
    void this.reopen();
  }

  /** Tells the index the settings changed; it re-opens (debounced) when a relevant one did. */
  settingsChanged(): void {
    if (!this.started || this.unloaded) return;
    if (indexSettingsKey(this.ctx.settings()) !== this.settingsKey) this.reconfigureLater();
    else if (embeddingsSettingsKey(this.ctx.settings()) !== this.embeddingsKey) {
      this.embeddings?.reset();
      this.embeddingsKey = embeddingsSettingsKey(this.ctx.settings());
      this.embedLater();
    }
  }

  /**
   * Embeds the blocks that have no vector yet, in the background ("Embed memory now"); waits for
   * the run. `null` when the index is not ready, embeddings are not configured, or the run was
   * cancelled or failed (said in the status bar and a notice).
   */
  async embedNow(): Promise<Awaited<ReturnType<EmbeddingsRunner["embed"]>>> {
    const service = this.service;
    if (!service || this.stateValue.kind !== "ready" || !this.embeddings || this.unloaded)
      return null;
    return this.embeddings.embed(service);
  }

  /** Drops the saved index and builds it again ("Rebuild search index"). */
  async rebuild(): Promise<OpenReport | null> {
    if (!this.service) this.service = this.createService();
    return this.run("rebuild");
  }

  /**
   * Searches the index. Before the index exists (or after it failed) says why, as an error value.
   */
  async search(query: string, options: SearchOptions): Promise<Result<SearchResponse>> {
    const service = this.service;
    if (!service || this.stateValue.kind === "waiting")
      return { ok: false, error: "The search index is not ready yet." };
    if (this.stateValue.kind === "failed" && service.size === 0) {
      return { ok: false, error: `The search index could not be built: ${this.stateValue.error}` };
    }
    try {
      const embeddings = this.embeddings;
      const source = embeddings ? await embeddings.source() : null;
      if (!embeddings || !source) return await service.search(query, options);
      let fellBack = false;
      const res = await searchWith(service, query, options, source, (line) => {
        fellBack = true;
        embeddings.fallback(line);
      });
      if (res.ok && !fellBack && res.value.retrieval !== "bm25") embeddings.succeeded();
      return res;
    } catch (err) {
      return { ok: false, error: errorMessage(err) };
    }
  }

  /** Recent problems of the background work (newest last, at most 5), shown by the search panel. */
  get problems(): readonly string[] {
    return this.problemList;
  }

  private addProblem(message: string): void {
    this.problemList = [...this.problemList.slice(-4), message];
    this.setState(this.stateValue);
  }

  private setState(state: IndexState): void {
    this.stateValue = state;
    for (const l of this.listeners) l(state);
  }

  private createService(): SearchService {
    const settings = this.ctx.settings();
    this.settingsKey = indexSettingsKey(settings);
    return new SearchService({
      vault: this.ctx.vault,
      layout: new MemoryLayout(settings),
      store: new AdapterIndexStore(
        this.ctx.app.vault.adapter,
        normalizePath(this.storePath),
        normalizePath(this.storePath.replace(/\.bin$/, ".json")),
      ),
      yieldToHost: yieldToUi,
      onBackgroundError: reportBackgroundError,
    });
  }

  private async reopen(): Promise<void> {
    if (this.unloaded) return;
    this.service = this.createService();
    await this.run("open");
  }

  /** Opens or rebuilds with progress in the status bar. Never throws; a failure becomes the state. */
  private async run(mode: "open" | "rebuild"): Promise<OpenReport | null> {
    const service = this.service;
    if (!service) return null;
    const gen = ++this.generation;
    const label = mode === "open" ? "Indexing memory" : "Rebuilding memory index";
    this.setState({ kind: "building", done: 0, total: 0 });
    this.status.working(label, 0, 0);
    const onProgress = (done: number, total: number): void => {
      if (gen !== this.generation) return;
      this.status.working(label, done, total);
      this.setState({ kind: "building", done, total });
    };
    try {
      const report =
        mode === "open"
          ? await service.open({ onProgress, chunkSize: CHUNK })
          : await service.rebuild({ onProgress, chunkSize: CHUNK });
      if (gen !== this.generation) return report;
      this.problemList = report.unreadable.map((u) => `${u.path}: ${u.error}`).slice(-5);
      if (report.rebuildReason) this.problemList.push(`rebuilt: ${report.rebuildReason}`);
      if (report.saveError) this.problemList.push(`not saved: ${report.saveError}`);
      // A misspelt zone isolates nothing: say so where the index's problems are shown.
      for (const zone of emptyZones(this.ctx.settings().isolatedZones, service.stats().zones)) {
        this.problemList.push(`isolated zone "${zone}" holds no notes; check the setting`);
      }
      this.status.finished(`Memory index: ${report.notes} notes`);
      this.setState({ kind: "ready", notes: report.notes });
      this.embeddingsKey = embeddingsSettingsKey(this.ctx.settings());
      // Blocks without a vector are embedded after the index, in the background.
      void this.embedNow();
      // A few searches of the vault's own words, so the person's first searches run on optimised
      // code (query p95, bench/results/search.md); it yields between them and never fails the
      // index.
      const yieldToHost = (): Promise<void> =>
        new Promise((resolve) => {
          const id = window.setTimeout(() => {
            this.warmUpYields.delete(id);
            resolve();
          }, 0);
          this.warmUpYields.set(id, resolve);
        });
      void service
        .warmUp({ yieldToHost, stop: () => gen !== this.generation })
        .catch((err: unknown) => {
          // Only the first searches are slower without it; the index itself is ready.
          reportBackgroundError(`search warm-up failed: ${errorMessage(err)}`);
        });
      return report;
    } catch (err) {
      if (gen !== this.generation) return null;
      const error = errorMessage(err);
      this.status.finished("Memory index failed");
      this.setState({ kind: "failed", error });
      return null;
    }
  }

  private onFileChanged(file: TAbstractFile): void {
    if (!(file instanceof TFile) || file.extension !== "md" || !this.service) return;
    this.track(this.service.update(file.path, { mtime: file.stat.mtime, size: file.stat.size }));
  }

  private onFileDeleted(file: TAbstractFile): void {
    if (!(file instanceof TFile) || !this.service) return;
    this.track(this.service.remove(file.path));
  }

  private onFileRenamed(file: TAbstractFile, oldPath: string): void {
    if (!(file instanceof TFile) || !this.service) return;
    this.track(
      this.service.rename(oldPath, file.path, { mtime: file.stat.mtime, size: file.stat.size }),
    );
  }

  /** Waits for an incremental change, then schedules a save and tells listeners (views refresh). */
  private track(work: Promise<unknown>): void {
    void work.then(
      () => {
        if (this.unloaded) return;
        this.saveLater();
        if (this.embeddings?.configured) this.embedLater();
        if (this.stateValue.kind === "ready" && this.service)
          this.setState({ kind: "ready", notes: this.service.size });
      },
      (err: unknown) => {
        // One unreadable note must not stop the index; it is retried on the next change or start.
        this.addProblem(`could not index a change: ${errorMessage(err)}`);
      },
    );
  }

  private async saveNow(): Promise<void> {
    const service = this.service;
    if (!service || !service.dirty || this.unloaded) return;
    try {
      await service.save();
    } catch (err) {
      this.addProblem(`could not save the index: ${errorMessage(err)}`);
    }
  }
}

/**
 * A failure of background index work nobody awaits (a vacuum, the warm-up): the index stays
 * usable, so it goes to the developer console rather than a notice.
 */
function reportBackgroundError(message: string): void {
  console.warn(`Agent Memory: ${message}`);
}
