// Scopes check a note's zone on top of the shard they search (src/core/search/scope.ts inScope):
// an isolated note stays out of `all`, `library` and `agent:` even when an index puts it in the
// main shard. The mutant `inScope('all')` admitting isolated notes is killed here (docs/testing.md).
import { afterEach, describe, expect, it } from "vitest";
import { MemoryLayout } from "../../../src/core/layout";
import { defaultSettings } from "../../../src/core/settings";
import type { NoteMeta } from "../../../src/core/search/note-document";
import { readSavedIndex, serializeShardsBinary } from "../../../src/core/search/persistence";
import type { IndexStore } from "../../../src/core/search/search-types";
import { inScope, type Scope } from "../../../src/core/search/scope";
import { miniSearchOptions, SearchService } from "../../../src/core/search/search-service";
import { tokenize } from "../../../src/core/search/engine/tokenizer";
import { tempVault } from "../../helpers/temp-vault";

const meta = (over: Partial<NoteMeta>): NoteMeta => ({
  path: "Memory/x.md",
  mtime: 0,
  size: 0,
  title: "x",
  agent: null,
  collection: "other",
  zone: null,
  ...over,
});
const isolated = meta({
  path: "Memory/Restricted/hr/Salaries.md",
  collection: "isolated",
  zone: "Restricted",
});
const libraryNote = meta({ path: "Memory/Library/SEO/x.md", collection: "library" });
const agentNote = meta({
  path: "Memory/Agents/link/Knowledge/learning/x.md",
  agent: "link",
  collection: "knowledge",
});

describe("inScope", () => {
  const scopes: Scope[] = [{ kind: "all" }, { kind: "library" }, { kind: "agent", agent: "link" }];

  it("never admits a note of an isolated zone outside that zone", () => {
    for (const scope of scopes) expect(inScope(isolated, scope), scope.kind).toBe(false);
    expect(inScope({ ...isolated, collection: "library" }, { kind: "library" })).toBe(false);
    expect(inScope({ ...isolated, agent: "link" }, { kind: "agent", agent: "link" })).toBe(false);
    expect(inScope(isolated, { kind: "zone", zone: "Other" })).toBe(false);
  });

  it("admits the zone's own notes in the zone, and shared notes in the shared scopes only", () => {
    expect(inScope(isolated, { kind: "zone", zone: "Restricted" })).toBe(true);
    expect(inScope(libraryNote, { kind: "all" })).toBe(true);
    expect(inScope(agentNote, { kind: "all" })).toBe(true);
    expect(inScope(libraryNote, { kind: "library" })).toBe(true);
    expect(inScope(agentNote, { kind: "library" })).toBe(false);
    expect(inScope(agentNote, { kind: "agent", agent: "link" })).toBe(true);
    expect(inScope(libraryNote, { kind: "agent", agent: "link" })).toBe(true);
    expect(inScope(agentNote, { kind: "agent", agent: "ming" })).toBe(false);
    expect(inScope(agentNote, { kind: "zone", zone: "Restricted" })).toBe(false);
  });
});

class MemoryStore implements IndexStore {
  data: Uint8Array | string | null = null;
  load(): Promise<Uint8Array | string | null> {
    return Promise.resolve(this.data);
  }
  save(data: Uint8Array): Promise<void> {
    this.data = data;
    return Promise.resolve();
  }
}

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

describe("a saved index whose main shard holds an isolated note", () => {
  it("keeps the note out of `all`: the zone is checked, not only the shard", async () => {
    const note = "Memory/Agents/me/Journal/2026-01-01.md";
    const t = tempVault({
      [note]: "notes about otters",
      "Memory/Agents/me/Journal/2026-01-02.md": "notes about beavers",
    });
    cleanup = t.cleanup;
    const layout = new MemoryLayout(defaultSettings());
    const store = new MemoryStore();
    const make = () =>
      new SearchService({
        vault: t.vault,
        layout,
        store,
        now: () => Date.parse("2026-12-01T12:00:00Z"),
      });
    const first = make();
    await first.open();
    expect((await first.search("otters")).ok).toBe(true);

    // An index is data: a file saved with the note's zone set (a checksum that holds, the right
    // key) is loaded as it is, with the note in the main shard.
    const data = store.data;
    if (!(data instanceof Uint8Array)) throw new Error("no binary index saved");
    const saved = readSavedIndex(data, miniSearchOptions(tokenize));
    if (!saved.ok) throw new Error(saved.error);
    const target = saved.value.shards.get("")?.metas.get(note);
    expect(target).toBeDefined();
    if (target) target.zone = "Restricted";
    store.data = await serializeShardsBinary(
      saved.value.shards,
      saved.value.key,
      saved.value.savedAt,
    );

    const again = make();
    expect(await again.open()).toMatchObject({ source: "saved", indexed: 0 });
    const hits = async (query: string) => {
      const r = await again.search(query);
      if (!r.ok) throw new Error(r.error);
      return r.value.results.map((h) => h.path);
    };
    expect(await hits("otters")).toEqual([]);
    expect(await hits("beavers")).toEqual(["Memory/Agents/me/Journal/2026-01-02.md"]);
  });
});
