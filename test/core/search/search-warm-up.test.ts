// Warming up the search code once an index is open (query p95, bench/results/search.md): queries
// made of the vault's own words, run without changing what later searches return.
import { afterEach, describe, expect, it, vi } from "vitest";
import { tempVault } from "../../helpers/temp-vault";
import { MemoryLayout } from "../../../src/core/layout";
import { defaultSettings } from "../../../src/core/settings";
import { SearchService } from "../../../src/core/search/search-service";
import { warmUpQueries } from "../../../src/core/search/warm-up";
import type { NoteMeta } from "../../../src/core/search/note-document";

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
  vi.restoreAllMocks();
});

const meta = (type?: string): NoteMeta => ({
  path: "x.md",
  mtime: 0,
  size: 0,
  title: "x",
  agent: null,
  collection: "library",
  zone: null,
  ...(type ? { type } : {}),
});

describe("search warm-up", () => {
  it("makes words, pairs, a phrase, CJK words and filtered queries from a note's own text", () => {
    const text =
      "The export job failed twice because the retry window was short. 今天完成了认证系统的重构。";
    const queries = warmUpQueries([{ text, meta: meta("journal") }]);
    expect(queries).toEqual(
      expect.arrayContaining([
        "The",
        "because",
        "short",
        "今天完成",
        "export was",
        '"job failed"',
        "type:journal The",
        "type:journal",
        "after:2000-01-01 The",
      ]),
    );
    expect(new Set(queries).size).toBe(queries.length);
    // A type that is not a single word is left out of filters rather than breaking the query.
    expect(
      warmUpQueries([{ text, meta: meta("two words") }]).some((q) => q.startsWith("type:")),
    ).toBe(false);
    expect(warmUpQueries([{ text: "— … 123", meta: meta() }])).toEqual([]);
  });

  it("runs searches of the vault's words and leaves later results as they were", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 30; i++)
      files[`Memory/Library/topic/n${i}.md`] =
        `---\ntype: knowledge\n---\nThe retry window ${i} was short; 今天完成了认证 ${i}.\n`;
    const tv = tempVault(files);
    cleanup = tv.cleanup;
    const service = new SearchService({
      vault: tv.vault,
      layout: new MemoryLayout(defaultSettings()),
      store: null,
    });
    await service.open();
    const before = await service.search('retry "window 7"', { limit: 5 });
    const search = vi.spyOn(service, "search");
    const ms = await service.warmUp();
    expect(ms).toBeGreaterThan(0);
    expect(search.mock.calls.length).toBeGreaterThanOrEqual(6);
    const answered = await Promise.all(
      search.mock.results.map((r) => r.value as ReturnType<SearchService["search"]>),
    );
    // Every warm-up query is valid and most find notes: they reach the scoring and block code.
    expect(answered.every((r) => r.ok)).toBe(true);
    expect(
      answered.filter((r) => r.ok && r.value.results.length > 0).length,
    ).toBeGreaterThanOrEqual(5);
    search.mockRestore();
    expect(await service.search('retry "window 7"', { limit: 5 })).toEqual({
      ...before,
      value: { ...(before.ok ? before.value : {}), took_ms: expect.any(Number) as number },
    });
  });

  it("stops when asked (the plugin unloading)", async () => {
    const tv = tempVault({ "Memory/Library/a.md": "The retry window was short.\n" });
    cleanup = tv.cleanup;
    const service = new SearchService({
      vault: tv.vault,
      layout: new MemoryLayout(defaultSettings()),
      store: null,
    });
    await service.open();
    const search = vi.spyOn(service, "search");
    let asked = 0;
    await service.warmUp({ stop: () => ++asked > 2 });
    expect(search).toHaveBeenCalledTimes(2);
  });

  it("an empty index takes no time", async () => {
    const tv = tempVault({});
    cleanup = tv.cleanup;
    const service = new SearchService({
      vault: tv.vault,
      layout: new MemoryLayout(defaultSettings()),
      store: null,
    });
    await service.open();
    expect(await service.warmUp()).toBe(0);
  });
});
