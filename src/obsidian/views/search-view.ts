/**
 * The search panel (docs/plugin.md, "Search panel"): an `ItemView` with a query box that
 * understands the filter syntax (`agent:` `type:` `status:` `domain:` `tag:` `path:` `after:`
 * `before:`, quoted phrases; docs/architecture.md, "A search"), debounced; a scope picker (all,
 * library, each agent, each isolated zone); results with title, path, a snippet with the matched
 * words marked (DOM nodes, never HTML strings) and the best blocks. Enter or a click opens the note
 * at the block. An empty query, a bad filter or an index that is not ready says why.
 */
import { debounce, ItemView, type WorkspaceLeaf } from "obsidian";
import { parseQuery } from "../../core/search/query";
import { totalPrefix, type SearchHit, type SearchResponse } from "../../core/search/search-service";
import { createTokenizer } from "../../core/search/engine/tokenizer";
import { discoverAgents, type PluginContext } from "../context";
import { appendHighlighted } from "./highlight";
import type { IndexLifecycle, IndexState } from "../runners/index-lifecycle";

export const SEARCH_VIEW_TYPE = "agent-memory-search";

/** Delay between the last keystroke and the search, milliseconds. */
const DEBOUNCE_MS = 250;
const LIMIT = 20;
const HINT =
  'Words, "phrases" and filters: agent: type: status: domain: tag: path: after:YYYY-MM-DD before:YYYY-MM-DD';

const literal = createTokenizer({ stemming: false });
const stemmed = createTokenizer();

/**
 * Words to mark in snippets for a query: its free text and phrases, both as typed and stemmed
 * (so "runs" marks "run…"). Single characters are left out unless the query is one character.
 */
export function highlightTerms(query: string): string[] {
  const parsed = parseQuery(query);
  const text = parsed.ok ? [parsed.value.text, ...parsed.value.phrases].join(" ") : query;
  const terms = new Set([...literal(text), ...stemmed(text)]);
  const all = [...terms];
  const long = all.filter((t) => [...t].length > 1);
  return long.length > 0 ? long : all;
}

/**
 * Which retrieval ran, for the status line: ` · hybrid`, ` · semantic`, ` · BM25`; empty when the
 * search did not say (no embeddings configured: BM25 is the only retrieval there is).
 */
export function retrievalLabel(response: SearchResponse): string {
  const r = response.retrieval;
  if (!r) return "";
  return ` · ${r === "bm25" ? "BM25" : r}`;
}

export class SearchView extends ItemView {
  private inputEl!: HTMLInputElement;
  private scopeEl!: HTMLSelectElement;
  private statusEl!: HTMLElement;
  private resultsEl!: HTMLElement;
  private hits: SearchHit[] = [];
  private selected = -1;
  /** Bumped per search; a slower older search does not overwrite a newer one. */
  private seq = 0;
  /** Resolves when the latest search has been rendered (tests wait on it). */
  searching: Promise<void> = Promise.resolve();
  private readonly searchLater = debounce(() => this.runSearch(), DEBOUNCE_MS, true);

  constructor(
    leaf: WorkspaceLeaf,
    private readonly ctx: PluginContext,
    private readonly index: IndexLifecycle,
  ) {
    super(leaf);
  }

  override getViewType(): string {
    return SEARCH_VIEW_TYPE;
  }

  override getDisplayText(): string {
    return "Memory search";
  }

  override getIcon(): string {
    return "search";
  }

  protected override async onOpen(): Promise<void> {
    const root = this.contentEl;
    root.empty();
    root.addClass("am-search-view");
    const bar = root.createDiv({ cls: "am-search-bar" });
    this.inputEl = bar.createEl("input", {
      cls: "am-search-input",
      type: "search",
      placeholder: "Search memory…",
      attr: { "aria-label": "Search memory", spellcheck: "false" },
    });
    this.scopeEl = bar.createEl("select", {
      cls: "dropdown am-search-scope",
      attr: { "aria-label": "Scope" },
    });
    root.createDiv({ cls: "am-search-hint", text: HINT });
    this.statusEl = root.createDiv({ cls: "am-search-status", attr: { "aria-live": "polite" } });
    this.resultsEl = root.createDiv({ cls: "am-search-results", attr: { role: "listbox" } });

    this.inputEl.addEventListener("input", () => this.searchLater());
    this.inputEl.addEventListener("keydown", (evt) => this.onKey(evt));
    this.scopeEl.addEventListener("change", () => this.runSearch());
    const unsubscribe = this.index.subscribe((state) => this.onIndexState(state));
    this.register(unsubscribe);
    this.register(() => this.searchLater.cancel());
    await this.fillScopes();
    this.runSearch();
    await this.searching;
  }

  protected override onClose(): Promise<void> {
    this.seq++;
    this.contentEl.empty();
    return Promise.resolve();
  }

  /** Sets the query (and optionally the scope) and searches at once. */
  async setQuery(query: string, scope?: string): Promise<void> {
    this.inputEl.value = query;
    if (scope !== undefined) this.scopeEl.value = scope;
    this.runSearch();
    await this.searching;
  }

  private async fillScopes(): Promise<void> {
    const current = this.scopeEl.value || "all";
    this.scopeEl.empty();
    this.scopeEl.createEl("option", { text: "All memory", value: "all" });
    this.scopeEl.createEl("option", { text: "Library", value: "library" });
    for (const agent of await discoverAgents(this.ctx)) {
      this.scopeEl.createEl("option", { text: `Agent: ${agent}`, value: `agent:${agent}` });
    }
    for (const zone of this.ctx.settings().isolatedZones) {
      this.scopeEl.createEl("option", { text: `Isolated: ${zone}`, value: zone });
    }
    this.scopeEl.value = current;
    if (this.scopeEl.value !== current) this.scopeEl.value = "all";
  }

  private onIndexState(state: IndexState): void {
    // Re-run when the index becomes ready or changes, so results never stay stale.
    if (state.kind === "ready" || state.kind === "failed") this.runSearch();
    else this.renderStatusOnly();
  }

  private indexNote(): string {
    const state = this.index.state;
    if (state.kind === "building") {
      return state.total > 0
        ? `Indexing ${state.done} of ${state.total} notes; results may be incomplete.`
        : "Indexing…";
    }
    return "";
  }

  private renderStatusOnly(): void {
    if (this.inputEl.value.trim() === "")
      this.statusEl.setText(this.indexNote() || "Type to search your memory.");
  }

  private runSearch(): void {
    const seq = ++this.seq;
    const query = this.inputEl.value;
    const scope = this.scopeEl.value || "all";
    this.searching = this.search(seq, query, scope);
  }

  private async search(seq: number, query: string, scope: string): Promise<void> {
    if (query.trim() === "") {
      this.hits = [];
      this.resultsEl.empty();
      const problems = this.index.problems;
      this.statusEl.setText(this.indexNote() || "Type to search your memory.");
      if (problems.length > 0)
        this.statusEl.createDiv({
          cls: "am-search-problems",
          text: `Index: ${problems.join("; ")}`,
        });
      return;
    }
    const answer = await this.index.search(query, { scope, limit: LIMIT });
    if (seq !== this.seq) return;
    this.resultsEl.empty();
    this.hits = [];
    this.selected = -1;
    if (!answer.ok) {
      this.statusEl.setText("");
      this.resultsEl.createDiv({ cls: "am-error am-search-error", text: answer.error });
      return;
    }
    this.render(answer.value, query);
  }

  private render(response: SearchResponse, query: string): void {
    const note = this.indexNote();
    const scopeLabel = this.scopeEl.selectedOptions[0]?.textContent ?? response.scope;
    if (response.results.length === 0) {
      this.statusEl.setText(
        `${retrievalLabel(response).replace(/^ · /, "")}${note ? ` ${note}` : ""}`,
      );
      this.resultsEl.createDiv({
        cls: "am-empty",
        text: `No notes match "${query.trim()}" in ${scopeLabel.toLowerCase()}.`,
      });
      return;
    }
    const shown = response.results.length;
    const count =
      response.total > shown
        ? `${shown} of ${totalPrefix(response)}${response.total} notes`
        : `${shown} note${shown === 1 ? "" : "s"}`;
    this.statusEl.setText(
      `${count} in ${Math.max(1, Math.round(response.took_ms))} ms${retrievalLabel(response)}${note ? `. ${note}` : ""}`,
    );
    const terms = highlightTerms(query);
    this.hits = response.results;
    response.results.forEach((hit, i) => this.renderHit(hit, i, terms));
  }

  private renderHit(hit: SearchHit, index: number, terms: string[]): void {
    const item = this.resultsEl.createDiv({
      cls: "am-search-result",
      attr: { role: "option", "data-path": hit.path },
    });
    item.createDiv({ cls: "am-result-title", text: hit.title });
    const date = hit.date && !hit.title.includes(hit.date) ? hit.date : "";
    const sub = [hit.path, hit.agent ? `agent ${hit.agent}` : "", date]
      .filter((s) => s !== "")
      .join(" · ");
    item.createDiv({ cls: "am-result-path", text: sub });
    if (hit.snippet)
      appendHighlighted(item.createDiv({ cls: "am-result-snippet" }), hit.snippet, terms);
    for (const block of hit.blocks) {
      if (block.text.trim() === "" || block.text.trim() === hit.snippet.trim()) continue;
      const el = item.createDiv({ cls: "am-result-block" });
      appendHighlighted(
        el,
        block.text.length > 300 ? `${block.text.slice(0, 300)}…` : block.text,
        terms,
      );
      if (block.id) el.dataset.block = block.id;
      el.addEventListener("click", (evt) => {
        evt.stopPropagation();
        void this.openHit(hit, block.id);
      });
    }
    item.addEventListener("click", () => void this.openHit(hit, hit.blocks[0]?.id ?? null));
    item.addEventListener("mouseenter", () => this.select(index));
  }

  private select(index: number): void {
    const items = this.resultsEl.querySelectorAll(".am-search-result");
    items.forEach((el, i) => el.toggleClass("is-selected", i === index));
    this.selected = index;
    items[index]?.scrollIntoView?.({ block: "nearest" });
  }

  private onKey(evt: KeyboardEvent): void {
    if (evt.key === "ArrowDown" || evt.key === "ArrowUp") {
      if (this.hits.length === 0) return;
      evt.preventDefault();
      const step = evt.key === "ArrowDown" ? 1 : -1;
      this.select((this.selected + step + this.hits.length) % this.hits.length);
    } else if (evt.key === "Enter") {
      evt.preventDefault();
      this.searchLater.cancel();
      const hit = this.hits[Math.max(0, this.selected)];
      if (hit) void this.openHit(hit, hit.blocks[0]?.id ?? null);
      else this.runSearch();
    }
  }

  /** Opens the note at the block (`path#^id`), or at its top when the block has no id. */
  private async openHit(hit: SearchHit, blockId: string | null): Promise<void> {
    await this.app.workspace.openLinkText(
      blockId ? `${hit.path}#^${blockId}` : hit.path,
      "",
      false,
    );
  }
}
