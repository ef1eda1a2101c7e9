// @vitest-environment happy-dom
// Semantic search in the plugin (docs/plugin.md, "Semantic search"): background embedding after
// the index, against the local embeddings stub on 127.0.0.1 through the fake `requestUrl`; the
// search panel's hybrid retrieval; isolated zones kept back; a dead server; cancelling.
import "../setup-dom";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { App, Notice, WorkspaceLeaf } from "../stubs/obsidian";
import { defaultSettings } from "../../src/core/settings";
import { EmbeddingsRunner } from "../../src/obsidian/runners/embeddings-runner";
import { IndexLifecycle } from "../../src/obsidian/runners/index-lifecycle";
import { SearchView } from "../../src/obsidian/views/search-view";
import { StatusBarProgress } from "../../src/obsidian/views/status-bar-progress";
import { realLeaf, resetUi, testContext, waitFor } from "../stubs/obsidian-fixtures";
import { startEmbeddingsStub, type EmbeddingsStub } from "../helpers/embeddings-stub-server";

const DIR = ".obsidian/plugins/agent-memory";
const JOURNAL = "Memory/Agents/me/Journal/2026-03-05.md";
const ZONE_NOTE = "Memory/Restricted/Incidents/INC-1.md";

let stub: EmbeddingsStub;

beforeEach(async () => {
  resetUi();
  stub = await startEmbeddingsStub({ concepts: [["堆积", "瓶颈"], ["kestrelwind"]] });
});
afterEach(async () => {
  await stub.close();
});

async function setup(options: { zones?: string[]; blocks?: number } = {}) {
  const app = new App();
  const extra = Array.from({ length: options.blocks ?? 0 }, (_, i) => `Filler paragraph ${i}.`);
  await app.vault.seed(
    JOURNAL,
    [
      "---",
      "type: journal",
      "agent: me",
      "---",
      "# 2026-03-05",
      "",
      "审核环节存在瓶颈。",
      "",
      "The pricing page copy changed.",
      "",
      ...extra.flatMap((p) => [p, ""]),
    ].join("\n"),
  );
  await app.vault.seed(ZONE_NOTE, "# INC-1\n\nCode word Kestrelwind for the incident.\n");
  const settings = defaultSettings();
  settings.embeddings.baseUrl = stub.baseUrl;
  settings.embeddings.model = "stub-embed";
  settings.embeddings.zones = options.zones ?? [];
  const ctx = testContext(app, settings);
  const statusEl = createDiv();
  const status = new StatusBarProgress(statusEl);
  const embeddings = new EmbeddingsRunner(ctx.app, ctx.vault, () => ctx.settings(), status, DIR);
  const index = new IndexLifecycle(ctx, status, `${DIR}/search-index.bin`, embeddings);
  index.load();
  return { app, ctx, index, embeddings, statusEl };
}

async function ready(index: IndexLifecycle): Promise<void> {
  index.start();
  await waitFor(() => index.state.kind === "ready" || index.state.kind === "failed", 10_000);
}

async function openView(app: App, ctx: ReturnType<typeof testContext>, index: IndexLifecycle) {
  const view = new SearchView(realLeaf(new WorkspaceLeaf(app.workspace)), ctx, index);
  view.load();
  await (view as unknown as { open(): Promise<void> }).open();
  return view;
}

const statusLine = (view: SearchView) =>
  view.contentEl.querySelector(".am-search-status")?.textContent ?? "";

describe("plugin embeddings", () => {
  it("embeds after the index is ready; the panel runs hybrid and finds a note sharing no word with the query", async () => {
    const { app, ctx, index, statusEl } = await setup();
    await ready(index);
    const report = await index.embedNow();
    expect(report?.sent).toBeGreaterThan(0);
    expect(statusEl.textContent).toMatch(/^Memory vectors: \d+ blocks$/);
    expect(app.vault.adapter.binaries.has(`${DIR}/vectors.bin`)).toBe(true);
    const view = await openView(app, ctx, index);
    await view.setQuery("任务堆积");
    const paths = [...view.contentEl.querySelectorAll(".am-search-result")].map((el) =>
      el.getAttribute("data-path"),
    );
    expect(paths).toContain(JOURNAL);
    expect(statusLine(view)).toMatch(/· hybrid/);
    // A second run over the unchanged vault sends nothing.
    const before = stub.inputs.length;
    expect((await index.embedNow())?.sent).toBe(0);
    expect(stub.inputs.length).toBe(before);
  });

  it("the same query by BM25 alone (no embeddings configured) finds nothing", async () => {
    const { app, ctx, index } = await setup();
    ctx.current.embeddings.baseUrl = "";
    await ready(index);
    const view = await openView(app, ctx, index);
    await view.setQuery("任务堆积");
    expect(view.contentEl.querySelectorAll(".am-search-result")).toHaveLength(0);
    expect(stub.inputs).toEqual([]);
  });

  it("sends nothing of an isolated zone unless the zone is listed", async () => {
    const first = await setup();
    await ready(first.index);
    await first.index.embedNow();
    expect(stub.inputs.join("\n")).not.toContain("Kestrelwind");
    expect(stub.inputs.join("\n")).toContain("审核环节存在瓶颈");
    const listed = await setup({ zones: ["Restricted"] });
    await ready(listed.index);
    await listed.index.embedNow();
    expect(stub.inputs.join("\n")).toContain("Kestrelwind");
  });

  it("a dead server makes the search BM25, says so in the status line, with one notice", async () => {
    const { app, ctx, index } = await setup();
    await ready(index);
    await index.embedNow();
    stub.set({ failStatus: 500 });
    const view = await openView(app, ctx, index);
    await view.setQuery("pricing page");
    expect(view.contentEl.querySelectorAll(".am-search-result")).toHaveLength(1);
    expect(statusLine(view)).toMatch(/· BM25/);
    await view.setQuery("pricing copy");
    expect(statusLine(view)).toMatch(/· BM25/);
    const said = Notice.shown.filter((n) => n.text.startsWith("Memory search: search: BM25 only"));
    expect(said).toHaveLength(1);
  });

  it("cancel stops a run after the request under way; the next run embeds the rest", async () => {
    const { index, embeddings, statusEl } = await setup({ blocks: 100 });
    index.start();
    await waitFor(() => index.state.kind === "ready", 10_000);
    // The run started at ready is cancelled at once.
    const cancelled = index.embedNow();
    expect(embeddings.cancel()).toBe(true);
    expect(await cancelled).toBeNull();
    expect(statusEl.textContent).toBe("Embedding cancelled");
    const sentBefore = stub.inputs.length;
    expect(sentBefore).toBeLessThan(102);
    const report = await index.embedNow();
    // Journal: two paragraphs and 100 fillers (the vectors of a request cut off are not kept).
    expect(stub.inputs.length).toBeGreaterThanOrEqual(102);
    expect(report?.blocks).toBeGreaterThanOrEqual(102);
    expect(embeddings.cancel()).toBe(false);
  });
});
