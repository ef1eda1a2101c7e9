// @vitest-environment happy-dom
import "../setup-dom";
import { beforeEach, describe, expect, it } from "vitest";
import { App, WorkspaceLeaf } from "../stubs/obsidian";
import { IndexLifecycle } from "../../src/obsidian/runners/index-lifecycle";
import { highlightTerms, SearchView } from "../../src/obsidian/views/search-view";
import { StatusBarProgress } from "../../src/obsidian/views/status-bar-progress";
import {
  realLeaf,
  resetUi,
  SAMPLE_VAULT,
  seedFromFolder,
  testContext,
  waitFor,
} from "../stubs/obsidian-fixtures";

const STORE = ".obsidian/plugins/agent-memory/search-index.bin";
const JOURNAL = "Memory/Agents/me/Journal/2026-03-05.md";

async function setup(seed: (app: App) => Promise<void>) {
  const app = new App();
  await seed(app);
  const ctx = testContext(app);
  const statusEl = createDiv();
  const index = new IndexLifecycle(ctx, new StatusBarProgress(statusEl), STORE);
  index.load();
  const statusTexts: string[] = [];
  index.subscribe(() => statusTexts.push(statusEl.textContent ?? ""));
  index.start();
  await waitFor(() => index.state.kind === "ready" || index.state.kind === "failed", 10_000);
  const view = new SearchView(realLeaf(new WorkspaceLeaf(app.workspace)), ctx, index);
  view.load();
  await (view as unknown as { open(): Promise<void> }).open();
  return { app, ctx, index, view, statusEl, statusTexts };
}

async function seedSmall(app: App): Promise<void> {
  await app.vault.seed(
    JOURNAL,
    "---\ntype: journal\nagent: me\n---\n# 2026-03-05\n\n今天完成了认证系统的重构，使用JWT令牌。 ^am-k3f9\n\nThe bounce rate of the pricing page dropped after the rewrite. ^am-b0un\n",
  );
  await app.vault.seed(
    "Memory/Library/SEO/Pricing page.md",
    "---\ntype: library\n---\n# Pricing page\n\nPricing page copy is owned by marketing.\n",
  );
  await app.vault.seed(
    "Memory/Restricted/Incidents/INC-1.md",
    "# INC-1\n\nCode word Kestrelwind for the pricing incident.\n",
  );
}

function results(view: SearchView): HTMLElement[] {
  return [...view.contentEl.querySelectorAll<HTMLElement>(".am-search-result")];
}

describe("search panel", () => {
  beforeEach(resetUi);

  it("shows results with title, path, snippet with marked words, and best blocks", async () => {
    const { view } = await setup(seedSmall);
    await view.setQuery("bounce rate");
    const [first] = results(view);
    expect(first?.querySelector(".am-result-title")?.textContent).toBe("2026-03-05");
    expect(first?.querySelector(".am-result-path")?.textContent).toContain(JOURNAL);
    const marks = [...first!.querySelectorAll("mark")].map((m) => m.textContent?.toLowerCase());
    expect(marks).toEqual(expect.arrayContaining(["bounce", "rate"]));
    expect(first?.innerHTML).not.toContain("&lt;mark");
    expect(view.contentEl.querySelector(".am-search-status")?.textContent).toMatch(
      /^1 note in \d+ ms$/,
    );
  });

  it("case 05: Chinese words are found and marked", async () => {
    const { view } = await setup(seedSmall);
    await view.setQuery("重构");
    expect(results(view)).toHaveLength(1);
    expect([...results(view)[0]!.querySelectorAll("mark")].map((m) => m.textContent)).toContain(
      "重构",
    );
  });

  it("keeps isolated zones out of other scopes and searches them by name", async () => {
    const { view } = await setup(seedSmall);
    await view.setQuery("Kestrelwind", "all");
    expect(results(view)).toHaveLength(0);
    expect(view.contentEl.querySelector(".am-empty")?.textContent).toBe(
      'No notes match "Kestrelwind" in all memory.',
    );
    await view.setQuery("Kestrelwind", "Restricted");
    expect(results(view).map((r) => r.dataset.path)).toEqual([
      "Memory/Restricted/Incidents/INC-1.md",
    ]);
    await view.setQuery("pricing", "library");
    expect(results(view).map((r) => r.dataset.path)).toEqual([
      "Memory/Library/SEO/Pricing page.md",
    ]);
  });

  it("says why when the query is empty or a filter is wrong", async () => {
    const { view } = await setup(seedSmall);
    await view.setQuery("");
    expect(view.contentEl.querySelector(".am-search-status")?.textContent).toBe(
      "Type to search your memory.",
    );
    await view.setQuery("colour:blue pricing");
    expect(view.contentEl.querySelector(".am-search-error")?.textContent).toMatch(/colour/);
  });

  it("Enter and clicks open the note at the block", async () => {
    const { app, view } = await setup(seedSmall);
    await view.setQuery("bounce rate");
    const input = view.contentEl.querySelector<HTMLInputElement>(".am-search-input")!;
    input.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter" }));
    expect(app.workspace.opened.at(-1)?.linktext).toBe(`${JOURNAL}#^am-b0un`);
    await view.setQuery("JWT");
    results(view)[0]!.click();
    expect(app.workspace.opened.at(-1)?.linktext).toBe(`${JOURNAL}#^am-k3f9`);
  });

  it("typing is debounced: one search after the last keystroke", async () => {
    const { view } = await setup(seedSmall);
    const input = view.contentEl.querySelector<HTMLInputElement>(".am-search-input")!;
    for (const q of ["p", "pr", "pri", "pricing"]) {
      input.value = q;
      input.dispatchEvent(new Event("input"));
    }
    expect(results(view)).toHaveLength(0);
    await waitFor(() => results(view).length > 0);
    expect(results(view).map((r) => r.dataset.path)).toContain(
      "Memory/Library/SEO/Pricing page.md",
    );
  });

  it("keeps the index current with create, modify, rename and delete events", async () => {
    const { app, view } = await setup(seedSmall);
    /** Waits until `query` finds exactly `paths`. */
    const expectFinds = async (query: string, paths: string[]): Promise<void> => {
      const deadline = Date.now() + 3000;
      for (;;) {
        await view.setQuery(query);
        const found = results(view).map((r) => r.dataset.path);
        if (JSON.stringify(found) === JSON.stringify(paths)) return;
        if (Date.now() > deadline) expect(found).toEqual(paths);
        await new Promise((r) => window.setTimeout(r, 10));
      }
    };
    const first = "Memory/Agents/me/Journal/2026-03-06.md";
    const file = await app.vault.seed(first, "Met the Zeppelinfield team.\n");
    await expectFinds("Zeppelinfield", [first]);
    app.vault.setContent(file, "Met the Quasarholm team.\n");
    await expectFinds("Quasarholm", [first]);
    await expectFinds("Zeppelinfield", []);
    await app.vault.rename(file, "Memory/Agents/me/Journal/2026-03-07.md");
    await expectFinds("Quasarholm", ["Memory/Agents/me/Journal/2026-03-07.md"]);
    await app.fileManager.trashFile(
      app.vault.getFileByPath("Memory/Agents/me/Journal/2026-03-07.md")!,
    );
    await expectFinds("Quasarholm", []);
  });

  it("indexes the sample vault with progress in the status bar and saves the index", async () => {
    const { app, index, view, statusEl, statusTexts } = await setup((a) =>
      seedFromFolder(a, SAMPLE_VAULT).then(() => undefined),
    );
    expect(index.state.kind).toBe("ready");
    expect(statusTexts.some((t) => /^Indexing memory \d+\/\d+$/.test(t))).toBe(true);
    expect(statusEl.textContent).toMatch(/^Memory index: \d+ notes$/);
    // The binary index (format 10) opens with its magic, "AMIX".
    expect(
      Buffer.from(app.vault.adapter.binaries.get(STORE) ?? [])
        .subarray(0, 4)
        .toString(),
    ).toBe("AMIX");
    await view.setQuery("Lighthouse", "library");
    expect(results(view).map((r) => r.dataset.path)).toContain(
      "Memory/Library/SEO/Core Web Vitals.md",
    );
    await view.setQuery("Kestrelwind", "all");
    expect(results(view)).toHaveLength(0);
  });

  it("marks typed and stemmed forms of the query's words, not its filters", () => {
    expect(highlightTerms('agent:link "bounce rates" pages')).toEqual(
      expect.arrayContaining(["bounce", "rates", "rate", "pages", "page"]),
    );
    expect(highlightTerms("agent:link pages")).not.toContain("link");
  });
});
