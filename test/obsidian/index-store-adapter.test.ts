// The plugin's saved index over the vault adapter (src/obsidian/runners/index-lifecycle.ts,
// AdapterIndexStore): the index and its delta in the plugin's folder, the delta appended with
// appendBinary; the search service saves a change as a delta record and loads it back.
import { afterEach, describe, expect, it, vi } from "vitest";
import { statSync } from "node:fs";
import { join } from "node:path";
import type { DataAdapter } from "obsidian";
import { StubAdapter } from "../stubs/obsidian";
import { AdapterIndexStore } from "../../src/obsidian/runners/index-lifecycle";
import { SearchService } from "../../src/core/search/search-service";
import { MemoryLayout } from "../../src/core/layout";
import { defaultSettings } from "../../src/core/settings";
import { tempVault } from "../helpers/temp-vault";

const DIR = ".obsidian/plugins/agent-memory";

let cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});

function store(): { adapter: StubAdapter; s: AdapterIndexStore } {
  const adapter = new StubAdapter();
  const s = new AdapterIndexStore(
    adapter as unknown as DataAdapter,
    `${DIR}/search-index.bin`,
    `${DIR}/search-index.json`,
  );
  return { adapter, s };
}

const bytes = (...values: number[]) => Uint8Array.from(values);

describe("AdapterIndexStore delta", () => {
  it("has no delta until one is written; it is search-index.delta in the plugin's folder", async () => {
    const { adapter, s } = store();
    expect(s.deltaPath).toBe(`${DIR}/search-index.delta`);
    expect(await s.loadDelta()).toBeNull();
    expect(await s.writeDelta(() => ({ at: 0, bytes: bytes(1, 2) }))).toBe(true);
    expect(adapter.binaries.get(`${DIR}/search-index.delta`)).toEqual(bytes(1, 2));
    expect(adapter.folders.has(DIR)).toBe(true);
  });

  it("appends at the end with appendBinary, writes whole when it cuts a torn tail, refuses a write past the end", async () => {
    const { adapter, s } = store();
    await s.writeDelta(() => ({ at: 0, bytes: bytes(1, 2, 3) }));
    const append = vi.spyOn(adapter, "appendBinary");
    await s.writeDelta((current) => ({ at: current?.length ?? 0, bytes: bytes(4) }));
    expect(append).toHaveBeenCalledTimes(1);
    expect(await s.loadDelta()).toEqual(bytes(1, 2, 3, 4));
    await s.writeDelta(() => ({ at: 1, bytes: bytes(9) }));
    expect(append).toHaveBeenCalledTimes(1);
    expect(await s.loadDelta()).toEqual(bytes(1, 9));
    await expect(s.writeDelta(() => ({ at: 3, bytes: bytes(5) }))).rejects.toThrow(RangeError);
    expect(await s.writeDelta(() => null)).toBe(false);
    expect(await s.loadDelta()).toEqual(bytes(1, 9));
  });

  it("save writes the index, then the delta, and removes the JSON index", async () => {
    const { adapter, s } = store();
    await adapter.write(`${DIR}/search-index.json`, "{}");
    await s.save(bytes(7, 7), bytes(8));
    expect(await s.load()).toEqual(bytes(7, 7));
    expect(await s.loadDelta()).toEqual(bytes(8));
    expect(adapter.files.has(`${DIR}/search-index.json`)).toBe(false);
  });

  it("writes run one at a time: appends issued together all land whole", async () => {
    const { s } = store();
    await s.writeDelta(() => ({ at: 0, bytes: new Uint8Array(0) }));
    const writes = Array.from({ length: 10 }, (_, i) =>
      s.writeDelta((current) => ({ at: current?.length ?? 0, bytes: new Uint8Array(8).fill(i) })),
    );
    await Promise.all(writes);
    const delta = (await s.loadDelta()) ?? new Uint8Array(0);
    expect(delta.length).toBe(80);
    expect(new Set(delta).size).toBe(10);
  });

  it("a search index saves a one-note change as a delta record and loads it back", async () => {
    const tv = tempVault({
      ...Object.fromEntries(
        Array.from({ length: 150 }, (_, i) => [
          `Memory/Agents/me/Journal/2026-02-${i}.md`,
          `# note ${i}\n\notter beaver heron ${i} lynx walrus river stone\n`,
        ]),
      ),
    });
    cleanups.push(tv.cleanup);
    const { adapter, s } = store();
    const layout = new MemoryLayout(defaultSettings());
    const make = () => new SearchService({ vault: tv.vault, layout, store: s });
    const a = make();
    await a.open();
    const base = adapter.binaries.get(`${DIR}/search-index.bin`);
    const path = "Memory/Agents/me/Journal/2026-02-3.md";
    tv.write(path, "# note 3\n\nkingfisher\n");
    const st = statSync(join(tv.root, path));
    await a.update(path, { mtime: st.mtimeMs, size: st.size });
    await a.save();
    expect(adapter.binaries.get(`${DIR}/search-index.bin`)).toBe(base);
    const b = make();
    expect(await b.open()).toMatchObject({ source: "saved", indexed: 0, deltaRecords: 1 });
    const found = await b.search("kingfisher");
    expect(found.ok && found.value.results.map((r) => r.path)).toEqual([path]);
  });
});
