// SearchService on real temporary vaults (docs/architecture.md, "A search"): "case 05: …" and "case
// 06: …", scopes and isolated zones, ranking, block hits, incremental updates, persistence and
// recovery, size cap.
import { afterEach, describe, expect, it, vi } from "vitest";
import { rmSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { tempVault } from "../../helpers/temp-vault";
import { MemoryLayout } from "../../../src/core/layout";
import { defaultSettings, type Settings } from "../../../src/core/settings";
import {
  SearchService,
  type IndexStore,
  type SearchOptions,
  type SearchResponse,
} from "../../../src/core/search/search-service";
import {
  BINARY_V10,
  readSavedIndex,
  serializeIndex,
  serializeShards,
  serializeShardsBinary,
  type SavedIndex,
  type SavedShard,
} from "../../../src/core/search/persistence";
import { miniSearchOptions } from "../../../src/core/search/search-service";
import { tokenize } from "../../../src/core/search/engine/tokenizer";
import { hashBytes } from "../../../src/core/search/engine/postings-bytes";

const NOW = Date.parse("2026-12-01T12:00:00Z");

/** The binary index a store holds (throws when it holds none). */
function bytesOf(store: MemoryStore): Uint8Array {
  if (!(store.data instanceof Uint8Array)) throw new Error("no binary index saved");
  return store.data;
}

/** Where a binary index's sections start and end (parsed from its header). */
function sectionsOf(bytes: Uint8Array): Record<string, { from: number; to: number }> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = view.getUint32(8, true);
  const head = JSON.parse(new TextDecoder().decode(bytes.subarray(16, 16 + length))) as {
    shards: { sections: Record<string, { offset: number; length: number }> }[];
  };
  const start = 16 + length + ((4 - (length % 4)) % 4);
  const out: Record<string, { from: number; to: number }> = {};
  for (const [name, s] of Object.entries(head.shards[0]?.sections ?? {}))
    out[name] = { from: start + s.offset, to: start + s.offset + s.length };
  return out;
}

/**
 * `bytes` as saved before the phrase filters had block checksums: the same sections, the header
 * without `pairBlocks` (its length and checksum in the preamble made again).
 */
function withoutPairBlocks(bytes: Uint8Array): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = view.getUint32(8, true);
  const head = JSON.parse(new TextDecoder().decode(bytes.subarray(16, 16 + length))) as {
    shards: { pairBlocks?: number[] }[];
  };
  expect(head.shards.every((s) => Array.isArray(s.pairBlocks))).toBe(true);
  for (const s of head.shards) delete s.pairBlocks;
  const body = bytes.subarray(16 + length + ((4 - (length % 4)) % 4));
  const headBytes = new TextEncoder().encode(JSON.stringify(head));
  const start = 16 + headBytes.length + ((4 - (headBytes.length % 4)) % 4);
  const out = new Uint8Array(start + body.length);
  out.set(bytes.subarray(0, 16), 0);
  const outView = new DataView(out.buffer);
  outView.setUint32(8, headBytes.length, true);
  outView.setInt32(12, hashBytes(headBytes), true);
  out.set(headBytes, 16);
  out.set(body, start);
  return out;
}

/** A copy of `bytes` with the byte at `at` changed. */
function flipped(bytes: Uint8Array, at: number): Uint8Array {
  const copy = bytes.slice();
  copy[at] = (copy[at] ?? 0) ^ 0x5a;
  return copy;
}

/** The saved index in the JSON format 9 (what was saved before format 10). */
function asJson(bytes: Uint8Array): string {
  const saved = readSavedIndex(bytes, miniSearchOptions(tokenize));
  if (!saved.ok) throw new Error(saved.error);
  return serializeShards(saved.value.shards, saved.value.key, saved.value.savedAt);
}

/** The saved index in the binary format 10 (terms joined by `\n`, no saved hash table). */
async function asV10(bytes: Uint8Array): Promise<Uint8Array> {
  const saved = readSavedIndex(bytes, miniSearchOptions(tokenize));
  if (!saved.ok) throw new Error(saved.error);
  return serializeShardsBinary(
    saved.value.shards,
    saved.value.key,
    saved.value.savedAt,
    undefined,
    BINARY_V10,
  );
}

let cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
  vi.restoreAllMocks();
});

class MemoryStore implements IndexStore {
  data: Uint8Array | string | null = null;
  saves = 0;
  readonly location = "memory://index";
  load(): Promise<Uint8Array | string | null> {
    return Promise.resolve(this.data);
  }
  save(data: Uint8Array): Promise<void> {
    this.data = data;
    this.saves++;
    return Promise.resolve();
  }
}

function setup(
  files: Record<string, string>,
  opts: { settings?: Partial<Settings>; store?: MemoryStore } = {},
) {
  const tv = tempVault(files);
  cleanups.push(tv.cleanup);
  const settings = { ...defaultSettings(), ...opts.settings };
  const layout = new MemoryLayout(settings);
  const store = opts.store ?? new MemoryStore();
  const make = () => new SearchService({ vault: tv.vault, layout, store, now: () => NOW });
  return { ...tv, layout, store, make, service: make() };
}

async function search(
  service: SearchService,
  query: string,
  options: SearchOptions = {},
): Promise<SearchResponse> {
  const r = await service.search(query, options);
  if (!r.ok) throw new Error(r.error);
  return r.value;
}

async function paths(
  service: SearchService,
  query: string,
  options: SearchOptions = {},
): Promise<string[]> {
  return (await search(service, query, options)).results.map((r) => r.path);
}

const fm = (fields: Record<string, string>) =>
  `---\n${Object.entries(fields)
    .map(([k, v]) => `${k}: ${v}`)
    .join("\n")}\n---\n`;

describe("SearchService", () => {
  it("keeps as many notes' blocks between searches as noteCacheNotes says", async () => {
    const files = {
      "Memory/Library/notes/apple.md": "Apple harvest notes.\n",
      "Memory/Library/notes/pear.md": "Pear harvest notes.\n",
      "Memory/Library/notes/plum.md": "Plum harvest notes.\n",
    };
    const readsFor = async (noteCacheNotes: number | undefined): Promise<number> => {
      const tv = tempVault(files);
      cleanups.push(tv.cleanup);
      const layout = new MemoryLayout(defaultSettings());
      const service = new SearchService({
        vault: tv.vault,
        layout,
        store: new MemoryStore(),
        now: () => NOW,
        ...(noteCacheNotes === undefined ? {} : { noteCacheNotes }),
      });
      await service.open();
      const reads = vi.spyOn(tv.vault, "read");
      // Each query shows one note; the first is asked again after the other two.
      for (const q of ["apple", "pear", "plum", "apple"]) await search(service, q);
      return reads.mock.calls.length;
    };
    expect(await readsFor(undefined)).toBe(3);
    expect(await readsFor(3)).toBe(3);
    // Two kept: apple was dropped for plum and is read again.
    expect(await readsFor(2)).toBe(4);
  });

  it("snippets show the text a person reads: no block ids, no callout markers", async () => {
    const note = "Memory/Agents/link/Knowledge/learning/SEO audit.md";
    const { service } = setup({
      [note]:
        "# SEO audit\n\n> [!insight] 2026-11-10 · confidence 0.9\n> Bounce rate matters more than the framework ^am-1x2y\n",
    });
    await service.open();
    const [hit] = (await search(service, "bounce rate")).results;
    expect(hit?.snippet).toContain("Bounce rate matters more than the framework");
    expect(hit?.snippet).not.toMatch(/\^am-|(^|\s)>/);
  });

  it("case 05: Chinese words, ids and section numbers find the right note; a title finds its note", async () => {
    const auth = "Memory/Agents/ming/Journal/2026-03-05.md";
    const aml = "Memory/Library/compliance/反洗钱细则.md";
    const client = "Memory/Agents/ming/Knowledge/customers/客户李四.md";
    const { service } = setup({
      [auth]: `${fm({ type: "journal" })}今天完成了认证系统的重构，使用JWT令牌。\n`,
      [aml]: `${fm({ type: "library" })}单日跨境转账频次超阈值，触发反洗钱操作细则第3.2.5条。\n`,
      [client]: `${fm({ type: "knowledge" })}偏好电话沟通。\n`,
    });
    await service.open();
    for (const q of ["认证", "重构", "JWT"]) expect((await paths(service, q))[0], q).toBe(auth);
    for (const q of ["反洗钱", "3.2.5"]) expect((await paths(service, q))[0], q).toBe(aml);
    expect(await paths(service, "李四")).toEqual([client]);
    expect(await paths(service, "3.2.5")).not.toContain(auth);
  });

  it("case 06: re-indexing an edited note; re-indexing a new note and removing twice are not errors", async () => {
    const path = "Memory/Agents/me/Journal/03-05.md";
    const { service, write } = setup({ [path]: "alpha beta" });
    const warn = vi.spyOn(console, "warn");
    await service.open();
    expect(await paths(service, "beta")).toEqual([path]);
    write(path, "alpha gamma");
    await expect(service.update(path)).resolves.toBe("indexed");
    expect(await paths(service, "gamma")).toEqual([path]);
    expect(await paths(service, "beta")).toEqual([]);
    expect(await paths(service, "alpha")).toEqual([path]);
    write("Memory/Agents/me/Journal/03-06.md", "delta");
    await expect(service.update("Memory/Agents/me/Journal/03-06.md")).resolves.toBe("indexed");
    expect(await paths(service, "delta")).toEqual(["Memory/Agents/me/Journal/03-06.md"]);
    await expect(service.remove(path)).resolves.toBe(true);
    await expect(service.remove(path)).resolves.toBe(false);
    await expect(service.remove("Memory/never/indexed.md")).resolves.toBe(false);
    expect(await paths(service, "alpha")).toEqual([]);
    expect(warn).not.toHaveBeenCalled();
  });

  it("case 06: after an edit, filters and ranking read the note's new metadata, not the old", async () => {
    const path = "Memory/Agents/me/Knowledge/learning/First.md";
    const other = "Memory/Agents/me/Knowledge/learning/Second.md";
    const { service, write } = setup({
      [path]: `${fm({ status: "active" })}kiwi`,
      [other]: `${fm({ status: "superseded" })}kiwi`,
    });
    await service.open();
    expect(await paths(service, "status:active kiwi")).toEqual([path]);
    // The superseded note ranks lower (DEMOTED_FACTOR), so the active one comes first.
    expect(await paths(service, "kiwi")).toEqual([path, other]);
    write(path, `${fm({ status: "superseded" })}kiwi`);
    write(other, `${fm({ status: "active" })}kiwi`);
    await service.update(path);
    await service.update(other);
    expect(await paths(service, "status:active kiwi")).toEqual([other]);
    expect(await paths(service, "kiwi")).toEqual([other, path]);
  });

  it("case 06: many edits trigger a vacuum of discarded postings; results stay right", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 5; i++) files[`Memory/Agents/me/Journal/n${i}.md`] = `plum v0 note${i}`;
    const { service, write } = setup(files);
    await service.open();
    for (let round = 1; round <= 6; round++) {
      for (let i = 0; i < 5; i++) {
        write(`Memory/Agents/me/Journal/n${i}.md`, `plum v${round} note${i}`);
        await service.update(`Memory/Agents/me/Journal/n${i}.md`);
      }
    }
    await service.save(); // queued behind the vacuum
    const shard = (
      service as unknown as { shards: Map<string, { mini: { dirtCount: number } }> }
    ).shards.get("");
    expect(shard?.mini.dirtCount).toBeLessThan(20);
    expect((await paths(service, "plum")).sort()).toEqual(Object.keys(files).sort());
    expect(await paths(service, "v0")).toEqual([]);
    expect((await paths(service, "v6 note3"))[0]).toBe("Memory/Agents/me/Journal/n3.md");
    expect(await paths(service, "note3")).toEqual(["Memory/Agents/me/Journal/n3.md"]);
  });

  it("a failed vacuum is reported, not swallowed, and the index keeps answering", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 5; i++) files[`Memory/Agents/me/Journal/n${i}.md`] = `plum v0 note${i}`;
    const tv = tempVault(files);
    cleanups.push(tv.cleanup);
    const reported: string[] = [];
    const service = new SearchService({
      vault: tv.vault,
      layout: new MemoryLayout(defaultSettings()),
      store: new MemoryStore(),
      now: () => NOW,
      onBackgroundError: (m) => reported.push(m),
    });
    await service.open();
    const shard = (
      service as unknown as { shards: Map<string, { mini: { vacuum: () => Promise<void> } }> }
    ).shards.get("");
    if (!shard) throw new Error("no main shard");
    const vacuum = vi.spyOn(shard.mini, "vacuum").mockRejectedValue(new Error("out of memory"));
    for (let round = 1; round <= 6; round++) {
      for (let i = 0; i < 5; i++) {
        tv.write(`Memory/Agents/me/Journal/n${i}.md`, `plum v${round} note${i}`);
        await service.update(`Memory/Agents/me/Journal/n${i}.md`);
      }
    }
    await service.save(); // queued behind the vacuum
    expect(vacuum).toHaveBeenCalled();
    expect(reported.length).toBeGreaterThan(0);
    expect(reported[0]).toBe(
      "search index: vacuum failed: out of memory; the index stays usable, it is compacted on its next rebuild",
    );
    expect((await paths(service, "plum")).sort()).toEqual(Object.keys(files).sort());
    expect(await paths(service, "v0")).toEqual([]);
  });

  it("update() of a deleted note removes it; a note outside the memory root is ignored", async () => {
    const path = "Memory/Agents/me/Journal/a.md";
    const { service, root } = setup({ [path]: "kiwi", "Elsewhere/b.md": "kiwi" });
    await service.open();
    expect(await paths(service, "kiwi")).toEqual([path]);
    rmSync(join(root, path));
    await expect(service.update(path)).resolves.toBe("removed");
    await expect(service.update("Elsewhere/b.md")).resolves.toBe("ignored");
    expect(await paths(service, "kiwi")).toEqual([]);
  });

  it("with the whole vault as memory root, hidden folders are still never indexed", async () => {
    const { service } = setup(
      {
        "Notes/a.md": "kiwi",
        ".obsidian/plugins/x/README.md": "kiwi",
        ".agent-memory/x.md": "kiwi",
      },
      { settings: { memoryRoot: "" } },
    );
    await service.open();
    await expect(service.update(".obsidian/plugins/x/README.md")).resolves.toBe("ignored");
    expect(await paths(service, "kiwi")).toEqual(["Notes/a.md"]);
  });

  it("rename() moves a note to its new folder, agent and scope", async () => {
    const from = "Memory/Agents/link/Knowledge/learning/Pricing.md";
    const to = "Memory/Agents/me/Knowledge/learning/Pricing.md";
    const { service, root, write } = setup({ [from]: "tiered pricing experiment" });
    await service.open();
    expect(await paths(service, "pricing", { scope: "agent:link" })).toEqual([from]);
    rmSync(join(root, from));
    write(to, "tiered pricing experiment");
    await service.rename(from, to);
    expect(await paths(service, "pricing", { scope: "agent:link" })).toEqual([]);
    expect(await paths(service, "pricing", { scope: "agent:me" })).toEqual([to]);
  });

  describe("scopes and isolated zones", () => {
    const files = {
      "Memory/Agents/link/Journal/2026-11-02.md": "Link audited the blog: bounce rate 79.",
      "Memory/Agents/me/Journal/2026-11-03.md": "Me reviewed the bounce rate dashboard.",
      "Memory/Library/seo/Bounce rate.md": "Bounce rate: share of single-page sessions.",
      "Memory/Restricted/hr/Salaries.md": `${fm({ type: "knowledge", status: "active", tags: "[bounce]" })}# Bounce rate bonus\nzebrafish payroll bounce rate bonus ^r-1\n`,
      "Memory/Restricted/Zebra.md": "zebrafish",
    };

    it("agent:<name> sees its own folder and the library; library sees the library only", async () => {
      const { service } = setup(files);
      await service.open();
      expect((await paths(service, "bounce rate", { scope: "agent:link" })).sort()).toEqual([
        "Memory/Agents/link/Journal/2026-11-02.md",
        "Memory/Library/seo/Bounce rate.md",
      ]);
      expect(await paths(service, "bounce rate", { scope: "library" })).toEqual([
        "Memory/Library/seo/Bounce rate.md",
      ]);
      expect(await paths(service, "bounce rate", { scope: "all" })).toHaveLength(3);
    });

    it("an isolated note's unique word searched from every other scope returns nothing", async () => {
      const { service } = setup(files);
      await service.open();
      for (const scope of ["all", "library", "agent:link", "agent:me", "agent:hr", undefined]) {
        const res = await search(service, "zebrafish", { scope });
        expect(res.results, String(scope)).toEqual([]);
        expect(res.total, String(scope)).toBe(0);
        const listed = await search(service, "tag:bounce", { scope });
        expect(listed.total, String(scope)).toBe(0);
        const shared = await search(service, "bounce rate bonus payroll", {
          scope,
          limit: 50,
          blocksPerResult: 50,
        });
        const text = JSON.stringify(shared.results);
        expect(text, String(scope)).not.toMatch(/Restricted|zebrafish|payroll|Salaries/);
      }
      const inZone = await search(service, "zebrafish", { scope: "Restricted" });
      expect(inZone.results.map((r) => r.path).sort()).toEqual([
        "Memory/Restricted/Zebra.md",
        "Memory/Restricted/hr/Salaries.md",
      ]);
      expect(inZone.results.every((r) => r.collection === "isolated")).toBe(true);
      // The zone's scope sees nothing of the shared memory either.
      expect(await paths(service, "dashboard", { scope: "Restricted" })).toEqual([]);
    });

    it("isolation holds for notes added, moved and removed after the build", async () => {
      const { service, write, root } = setup(files);
      await service.open();
      write("Memory/Restricted/New.md", "quokka secret");
      await service.update("Memory/Restricted/New.md");
      write("Memory/Agents/me/Journal/quokka.md", "quokka public");
      await service.update("Memory/Agents/me/Journal/quokka.md");
      expect(await paths(service, "quokka")).toEqual(["Memory/Agents/me/Journal/quokka.md"]);
      expect(await paths(service, "quokka", { scope: "Restricted" })).toEqual([
        "Memory/Restricted/New.md",
      ]);
      rmSync(join(root, "Memory/Agents/me/Journal/quokka.md"));
      write("Memory/Restricted/quokka.md", "quokka public");
      await service.rename("Memory/Agents/me/Journal/quokka.md", "Memory/Restricted/quokka.md");
      expect(await paths(service, "quokka")).toEqual([]);
      expect((await paths(service, "quokka", { scope: "Restricted" })).length).toBe(2);
    });

    it("an unknown scope is an error value", async () => {
      const { service } = setup(files);
      await service.open();
      const r = await service.search("bounce", { scope: "Secret" });
      expect(r.ok).toBe(false);
    });
  });

  describe("query language", () => {
    const files = {
      "Memory/Agents/link/Journal/2026-03-01.md": `${fm({ type: "journal", status: "active", domain: "seo", created_at: "2026-03-01T09:00:00+08:00" })}refund request from Person A\n`,
      "Memory/Agents/link/Journal/2026-04-02.md": `${fm({ type: "journal", status: "active", domain: "compliance", created_at: "2026-04-02" })}refund policy reviewed #policy/refunds\n`,
      "Memory/Agents/me/Knowledge/learning/Refunds.md": `${fm({ type: "knowledge", status: "draft", domain: "compliance", updated_at: "2026-05-10", tags: "[policy]" })}# Refunds\nThe refund window is 30 days.\n`,
    };

    it("filters narrow free text (the architecture example)", async () => {
      const { service } = setup(files);
      await service.open();
      expect(
        await paths(service, "after:2024-04-01 status:active domain:compliance refund"),
      ).toEqual(["Memory/Agents/link/Journal/2026-04-02.md"]);
      expect(await paths(service, "refund agent:me")).toEqual([
        "Memory/Agents/me/Knowledge/learning/Refunds.md",
      ]);
      expect((await paths(service, "refund tag:policy")).sort()).toEqual([
        "Memory/Agents/link/Journal/2026-04-02.md",
        "Memory/Agents/me/Knowledge/learning/Refunds.md",
      ]);
      expect(await paths(service, "refund before:2026-04-01")).toEqual([
        "Memory/Agents/link/Journal/2026-03-01.md",
      ]);
      expect(await paths(service, "refund -status:active")).toEqual([
        "Memory/Agents/me/Knowledge/learning/Refunds.md",
      ]);
      expect(await paths(service, "refund path:Knowledge")).toEqual([
        "Memory/Agents/me/Knowledge/learning/Refunds.md",
      ]);
    });

    it("filters alone list matching notes newest first", async () => {
      const { service } = setup(files);
      await service.open();
      const res = await search(service, "domain:compliance");
      expect(res.results.map((r) => r.path)).toEqual([
        "Memory/Agents/me/Knowledge/learning/Refunds.md",
        "Memory/Agents/link/Journal/2026-04-02.md",
      ]);
      expect(res.results[0]?.snippet).toBe("The refund window is 30 days.");
      expect((await search(service, "type:journal")).results.map((r) => r.date)).toEqual([
        "2026-04-02",
        "2026-03-01",
      ]);
    });

    it("type: and agent: read the collection and agent the layout gives when the frontmatter is silent", async () => {
      const { service } = setup({
        ...files,
        "Memory/Agents/me/Journal/2026-05-01.md": "# Monday\nrefund call with the bank\n",
        "Memory/Agents/me/Trackers/Tasks.md": "# Tasks\n- [ ] refund the deposit ^t-001\n",
        "Memory/Restricted/hr/Refund claims.md": `${fm({ agent: "me" })}refund claims for travel\n`,
        "Memory/Library/Ops/Refund policy.md": "# Refund policy\nrefund within 30 days\n",
      });
      await service.open();
      expect((await paths(service, "refund type:journal")).sort()).toEqual([
        "Memory/Agents/link/Journal/2026-03-01.md",
        "Memory/Agents/link/Journal/2026-04-02.md",
        "Memory/Agents/me/Journal/2026-05-01.md",
      ]);
      expect(await paths(service, "refund type:tracker")).toEqual([
        "Memory/Agents/me/Trackers/Tasks.md",
      ]);
      expect(await paths(service, "refund type:library")).toEqual([
        "Memory/Library/Ops/Refund policy.md",
      ]);
      expect((await paths(service, "refund agent:me")).sort()).toEqual([
        "Memory/Agents/me/Journal/2026-05-01.md",
        "Memory/Agents/me/Knowledge/learning/Refunds.md",
        "Memory/Agents/me/Trackers/Tasks.md",
      ]);
      expect(await paths(service, "refund agent:me", { scope: "Restricted" })).toEqual([
        "Memory/Restricted/hr/Refund claims.md",
      ]);
      expect(await paths(service, "refund -type:journal -type:knowledge -type:tracker")).toEqual([
        "Memory/Library/Ops/Refund policy.md",
      ]);
    });

    it("a phrase search lists only the blocks that hold the phrase, and a snippet from one of them", async () => {
      const note = "Memory/Agents/link/Journal/2026-12-01.md";
      const { service } = setup({
        [note]:
          "# Day\n\nOther block about pricing and same things, pricing again.\n\n- [ ] review the pricing draft\n\nThe pricing same as last year was agreed. ^am-zz11\n",
      });
      await service.open();
      const res = await search(service, '"pricing same"', { blocksPerResult: 5 });
      expect(res.results.map((r) => r.path)).toEqual([note]);
      expect(res.results[0]?.blocks.map((b) => b.text)).toEqual([
        "The pricing same as last year was agreed.",
      ]);
      expect(res.results[0]?.snippet).toBe("The pricing same as last year was agreed.");
    });

    it("a tracker line's snippet leaves out its source links and their ^am- block ids", async () => {
      const tasks = "Memory/Agents/link/Trackers/Tasks.md";
      const { service } = setup({
        [tasks]:
          "# Tasks\n\n- [ ] Draft the audit checklist [topic:: SEO audit] [source:: [[2026-11-02#^am-2h7c]], [[2026-11-03#^am-x1y2]]] [created:: 2026-11-02] ^t-001\n",
      });
      await service.open();
      const res = await search(service, "audit checklist");
      expect(res.results[0]?.snippet).toBe(
        "- [ ] Draft the audit checklist [topic:: SEO audit] [created:: 2026-11-02]",
      );
    });

    it("quoted phrases must occur as written", async () => {
      const { service } = setup(files);
      await service.open();
      expect(await paths(service, '"refund window"')).toEqual([
        "Memory/Agents/me/Knowledge/learning/Refunds.md",
      ]);
      expect(await paths(service, '"window refund"')).toEqual([]);
      expect(await paths(service, '"refund policy" reviewed')).toEqual([
        "Memory/Agents/link/Journal/2026-04-02.md",
      ]);
    });

    it("quoted phrases keep their stop words, and a number next to Chinese is a phrase of its own", async () => {
      const note = "Memory/Agents/me/Journal/2026-05-01.md";
      const aml = "Memory/Library/policy/AML.md";
      const { service } = setup({
        [note]: "We shipped the export job by Friday and it was fixed once and for all.",
        [aml]: "单日跨境转账频次超阈值，触发反洗钱操作细则第3.2.5条。",
      });
      await service.open();
      for (const phrase of [
        "the export",
        "export job by",
        "Friday and",
        "fixed once",
        "We shipped",
        "it was",
      ]) {
        expect(await paths(service, `"${phrase}"`), phrase).toEqual([note]);
      }
      expect(await paths(service, '"the job"')).toEqual([]);
      expect(await paths(service, '"3.2.5"')).toEqual([aml]);
      expect(await paths(service, '"反洗钱"')).toEqual([aml]);
      expect(await paths(service, '"洗钱反"')).toEqual([]);
    });

    it("quoted phrases read only notes whose word pairs allow the phrase; the filters are saved and follow edits", async () => {
      const files: Record<string, string> = {};
      // Both words in every note, never side by side: without the filters each note would be read.
      for (let i = 0; i < 120; i++)
        files[`Memory/Library/prices/n${i}.md`] =
          `The pricing of item ${i} stayed the same as last year.\n`;
      const a = "Memory/Library/prices/hit-a.md";
      const b = "Memory/Library/prices/hit-b.md";
      files[a] = "Pricing same as before, we agreed.\n";
      files[b] = "# Review\n\nKeep pricing\nsame for now.\n";
      const { service, make, vault, write } = setup(files);
      await service.open();
      const reads = vi.spyOn(vault, "read");
      const res = await search(service, '"pricing same"');
      expect(res.results.map((r) => r.path).sort()).toEqual([a, b]);
      expect(res.total).toBe(2);
      // The two notes, and at most a few false positives of the filters (about 1% each).
      expect(reads.mock.calls.length).toBeLessThanOrEqual(6);

      const reloaded = make();
      expect((await reloaded.open()).source).toBe("saved");
      reads.mockClear();
      expect((await paths(reloaded, '"pricing same"')).sort()).toEqual([a, b]);
      expect(reads.mock.calls.length).toBeLessThanOrEqual(6);

      write("Memory/Library/prices/n7.md", "Now pricing same as the others.\n");
      await reloaded.update("Memory/Library/prices/n7.md");
      write(a, "Pricing is the same as before.\n");
      await reloaded.update(a);
      expect((await paths(reloaded, '"pricing same"')).sort()).toEqual([
        b,
        "Memory/Library/prices/n7.md",
      ]);
    });

    it("CJK phrases are found across line breaks and markup; hyphenated phrases in every spelling; file-name phrases beside a frontmatter title", async () => {
      const zh = [
        "反洗钱\n操作细则",
        "反洗钱**操作**细则",
        "[[反洗钱]]操作细则",
        "反洗钱，操作细则",
        "反洗钱 操作细则",
        "反洗钱操作细则",
      ];
      const en = [
        "We follow up tomorrow.",
        "The follow-up is due.",
        "Follow–up by phone.",
        "A follow-up-call here.",
      ];
      const files: Record<string, string> = {};
      zh.forEach((t, i) => (files[`Memory/Library/zh/n${i}.md`] = `${t}\n`));
      en.forEach((t, i) => (files[`Memory/Library/en/n${i}.md`] = `${t}\n`));
      files["Memory/Library/en/unrelated.md"] = "Up next: follow the plan.\n";
      const puffin = "Memory/Library/birds/Puffin colony survey.md";
      files[puffin] = `${fm({ title: "Arctic Tern Report" })}Counts from the cliffs.\n`;
      const { service, make } = setup(files);
      await service.open();
      const sorted = async (q: string) => (await paths(service, q, { limit: 20 })).sort();
      const zhPaths = zh.map((_, i) => `Memory/Library/zh/n${i}.md`);
      const enPaths = en.map((_, i) => `Memory/Library/en/n${i}.md`);
      expect(await sorted('"反洗钱操作细则"')).toEqual(zhPaths);
      expect(await sorted('"反洗钱 操作细则"')).toEqual(zhPaths);
      for (const q of ['"follow-up"', '"follow up"', '"Follow–up"'])
        expect(await sorted(q), q).toEqual(enPaths);
      // Unquoted, a compound of words also finds its other spellings, its own first; ids stay whole
      // (test/core/search/search-tokenizer.test.ts, "case 05: …").
      const free = await paths(service, "follow-up", { limit: 20 });
      expect(free[0]).toBe("Memory/Library/en/n1.md");
      expect(free).toEqual(expect.arrayContaining(enPaths));
      for (const q of ['"puffin colony"', '"colony survey"', '"arctic tern"'])
        expect(await paths(service, q), q).toEqual([puffin]);
      // Frontmatter values are part of the note for a phrase, as for the same words unquoted.
      const forecast = "Memory/Library/birds/Q3.md";
      const fmNotes: Record<string, string> = {
        [forecast]: `${fm({ aliases: "[churn forecast]" })}Numbers.\n`,
        "Memory/Library/birds/Q4.md": `${fm({ domain: "churn forecast" })}Numbers.\n`,
        "Memory/Library/birds/Q5.md": `${fm({ tags: "[churn-forecast]" })}Numbers.\n`,
        "Memory/Library/birds/Q6.md": `${fm({ summary: "quarterly churn forecast" })}Numbers.\n`,
      };
      const withFm = setup(fmNotes);
      await withFm.service.open();
      expect((await paths(withFm.service, '"churn forecast"')).sort()).toEqual(
        Object.keys(fmNotes).sort(),
      );
      // The same from the saved index (the phrase filters hold the file name too).
      const reloaded = make();
      expect((await reloaded.open()).source).toBe("saved");
      expect(await paths(reloaded, '"puffin colony"')).toEqual([puffin]);
    });

    it("a phrase query returns up to its limit, even past the 200 candidates a phrase check reads by default", async () => {
      const files: Record<string, string> = {};
      for (let i = 0; i < 230; i++)
        files[`Memory/Library/many/n${i}.md`] = `Alpha beta number ${i}.\n`;
      const { service } = setup(files);
      await service.open();
      const res = await search(service, '"alpha beta"', { limit: 300 });
      expect(res.results).toHaveLength(230);
      expect(res.total).toBe(230);
      expect(res.totalBound).toBeUndefined();
    });

    it("a three-word or CJK phrase is found below hundreds of notes holding its words apart", async () => {
      const files: Record<string, string> = {};
      for (let i = 0; i < 260; i++) {
        files[`Memory/Library/fill/d${i}.md`] =
          `Customer churn is high; churn rate is low; note ${i}.\n`;
        files[`Memory/Library/fill/z${i}.md`] = `反洗钱操作 and 操作细则 ${i}\n`;
      }
      const en = "Memory/Library/fill/t0.md";
      const zh = "Memory/Library/fill/u0.md";
      files[en] = "The customer churn rate rose.\n";
      files[zh] = "反洗钱操作细则 0\n";
      const { service } = setup(files);
      await service.open();
      expect(await search(service, '"customer churn rate"')).toMatchObject({
        total: 1,
        results: [{ path: en }],
      });
      expect(await search(service, '"反洗钱操作细则"')).toMatchObject({
        total: 1,
        results: [{ path: zh }],
      });
      expect((await search(service, '"反洗钱操作细则"')).totalBound).toBeUndefined();
    });

    it("a CJK phrase is found where a note splits every pair of its characters apart", async () => {
      const notes: Record<string, string> = {
        "Memory/Library/zh/a.md": "操，作\n",
        "Memory/Library/zh/b.md": "foo 数 据 库 bar\n",
        "Memory/Library/zh/c.md": "反**洗**钱**操**作**细**则\n",
        "Memory/Library/zh/d.md": "令 牌\n",
        "Memory/Library/zh/e.md": "サ ー バ ー\n",
      };
      const { service } = setup({ ...notes, "Memory/Library/zh/other.md": "作操 库据数 牌令\n" });
      await service.open();
      const expected: [string, string[]][] = [
        ["操作", ["a", "c"]],
        ["数据库", ["b"]],
        ["反洗钱操作细则", ["c"]],
        ["令牌", ["d"]],
        ["サーバー", ["e"]],
      ];
      for (const [p, names] of expected) {
        expect((await paths(service, `"${p}"`)).sort(), p).toEqual(
          names.map((n) => `Memory/Library/zh/${n}.md`),
        );
      }
    });

    it("a CJK phrase reads only notes whose character pairs allow it", async () => {
      const files: Record<string, string> = {};
      for (let i = 0; i < 150; i++)
        files[`Memory/Library/plan/p${i}.md`] = `项目 is late; 进度 ok ${i}\n`;
      const hit = "Memory/Library/plan/hit.md";
      files[hit] = "本周项目\n进度正常\n";
      const { service, vault } = setup(files);
      await service.open();
      const reads = vi.spyOn(vault, "read");
      expect(await search(service, '"项目进度"')).toMatchObject({
        total: 1,
        results: [{ path: hit }],
      });
      expect(reads.mock.calls.length).toBeLessThanOrEqual(5);
    });

    it("free text with no searchable word finds nothing instead of listing every note", async () => {
      const { service } = setup(files);
      await service.open();
      for (const q of ["🚀", "，。！", "✅ 🚀", `"🚀"`, `""`, `"  "`])
        expect(await paths(service, q), q).toEqual([]);
      expect((await paths(service, "agent:me")).length).toBeGreaterThan(0);
    });

    it("an unknown filter or a bad date is an error, not an empty result", async () => {
      const { service } = setup(files);
      await service.open();
      const unknown = await service.search("owner:me refund");
      expect(unknown.ok).toBe(false);
      const badDate = await service.search("after:2026-02-30 refund");
      expect(badDate.ok).toBe(false);
      if (!badDate.ok) expect(badDate.error).toMatch(/bad date/);
    });
  });

  describe("ranking", () => {
    it("superseded and archived notes rank lower; expired notes are left out unless asked for", async () => {
      const text = "onboarding checklist for new customers";
      const { service } = setup({
        "Memory/Library/a/Old.md": `${fm({ status: "superseded" })}${text}\n`,
        "Memory/Library/a/Current.md": `${fm({ status: "active" })}${text}\n`,
        "Memory/Library/a/Archived.md": `${fm({ status: "archived" })}${text}\n`,
        "Memory/Library/a/Expired.md": `${fm({ status: "active", expires_at: "2026-11-30" })}${text}\n`,
        "Memory/Library/a/Later.md": `${fm({ status: "active", expires_at: "2026-12-01" })}${text} later\n`,
      });
      await service.open();
      const ranked = await paths(service, "onboarding checklist");
      expect(ranked.slice(0, 2).sort()).toEqual([
        "Memory/Library/a/Current.md",
        "Memory/Library/a/Later.md",
      ]);
      expect(ranked.slice(2).sort()).toEqual([
        "Memory/Library/a/Archived.md",
        "Memory/Library/a/Old.md",
      ]);
      expect(ranked).not.toContain("Memory/Library/a/Expired.md");
      expect(await paths(service, "onboarding checklist", { includeExpired: true })).toContain(
        "Memory/Library/a/Expired.md",
      );
    });

    it("confidence and recency weigh in when set", async () => {
      const text = "churn analysis of quickstart accounts";
      const files = {
        "Memory/Library/a/Sure.md": `${fm({ confidence: "0.9", updated_at: "2026-01-01" })}${text}\n`,
        "Memory/Library/a/Unsure.md": `${fm({ confidence: "0.2", updated_at: "2026-11-30" })}${text}\n`,
      };
      const { service } = setup(files);
      await service.open();
      expect((await paths(service, "churn"))[0]).toBe("Memory/Library/a/Sure.md");
      const recency = setup(files, {
        settings: {
          search: { ...defaultSettings().search, useConfidence: false, recencyHalfLifeDays: 30 },
        },
      }).service;
      await recency.open();
      expect((await paths(recency, "churn"))[0]).toBe("Memory/Library/a/Unsure.md");
    });

    it("a title match ranks above a body match", async () => {
      const { service } = setup({
        "Memory/Library/a/Kubernetes.md": "Notes on clusters.",
        "Memory/Library/a/Other.md":
          "We once mentioned kubernetes in passing, along with many other words here.",
      });
      await service.open();
      expect((await paths(service, "kubernetes"))[0]).toBe("Memory/Library/a/Kubernetes.md");
    });
  });

  it("each result carries its best-matching blocks with block ids and a snippet", async () => {
    const path = "Memory/Agents/link/Trackers/Tasks.md";
    const { service } = setup({
      [path]: [
        "# Tasks",
        "",
        "- [ ] Get the top-10 pages by traffic and bounce rate [priority:: 2] ^t-048",
        "- [x] Draft the audit checklist ^t-047",
        "    - 2026-03-24: first audit: blog 79, home page 38",
        "",
        "A paragraph about bounce.",
        "^p-1",
        "",
      ].join("\n"),
    });
    await service.open();
    const res = await search(service, "bounce rate", { blocksPerResult: 5 });
    const hit = res.results[0];
    expect(hit?.blocks.map((b) => b.id)).toEqual(["t-048", "p-1"]);
    expect(hit?.blocks[0]?.text).toBe(
      "- [ ] Get the top-10 pages by traffic and bounce rate [priority:: 2]",
    );
    expect(hit?.snippet).toContain("bounce rate");
    const audit = await search(service, "audit home page");
    expect(audit.results[0]?.blocks[0]?.id).toBe("t-047");
    expect(audit.results[0]?.blocks[0]?.text).toContain("home page 38");
  });

  it("a note whose frontmatter does not parse is indexed by its body and reported", async () => {
    const path = "Memory/Agents/me/Journal/broken.md";
    const { service } = setup({
      [path]: "---\npeople: [[Person A]], [[Person B]]\n---\nplatypus sighting\n",
    });
    await service.open();
    expect(await paths(service, "platypus")).toEqual([path]);
    expect(await paths(service, "person")).toEqual([]);
    expect(service.stats().frontmatterErrors.map((e) => e.path)).toEqual([path]);
  });

  it("a note above the size cap is indexed by frontmatter and headings only, and reported", async () => {
    const path = "Memory/Library/big/Dump.md";
    const body = `${fm({ domain: "archive", tags: "[dump]" })}# Wombat heading\n\n${"filler words here. ".repeat(50)}\nnumbat in the body\n`;
    const { service } = setup(
      { [path]: body },
      { settings: { search: { ...defaultSettings().search, sizeCapBytes: 300 } } },
    );
    const report = await service.open();
    expect(report.capped).toEqual([path]);
    expect(await paths(service, "wombat")).toEqual([path]);
    expect(await paths(service, "archive")).toEqual([path]);
    expect(await paths(service, "numbat")).toEqual([]);
    // It has no phrase filter: a phrase is checked by reading its headings.
    expect(await paths(service, '"wombat heading"')).toEqual([path]);
    expect(await paths(service, '"filler words"')).toEqual([]);
  });

  describe("persistence", () => {
    const files = {
      "Memory/Agents/me/Journal/2026-01-01.md": "first note about otters",
      "Memory/Agents/me/Journal/2026-01-02.md": "second note about beavers",
      "Memory/Restricted/x.md": "restricted walrus",
    };

    it("saves after a build, reloads at start and re-indexes only what changed", async () => {
      const { make, store, write, root } = setup(files);
      const first = await make().open();
      expect(first.source).toBe("built");
      expect(first.indexed).toBe(3);
      expect(store.saves).toBe(1);

      const again = make();
      const second = await again.open();
      expect(second).toMatchObject({ source: "saved", indexed: 0, removed: 0, notes: 3 });
      expect(store.saves).toBe(1);
      expect(await paths(again, "otters")).toEqual(["Memory/Agents/me/Journal/2026-01-01.md"]);
      expect(await paths(again, "walrus", { scope: "Restricted" })).toEqual([
        "Memory/Restricted/x.md",
      ]);
      expect(await paths(again, "walrus")).toEqual([]);

      write("Memory/Agents/me/Journal/2026-01-01.md", "first note about herons");
      const later = new Date(Date.now() + 5000);
      utimesSync(join(root, "Memory/Agents/me/Journal/2026-01-01.md"), later, later);
      rmSync(join(root, "Memory/Agents/me/Journal/2026-01-02.md"));
      write("Memory/Agents/me/Journal/2026-01-03.md", "third note about otters");
      const third = make();
      const report = await third.open();
      expect(report).toMatchObject({ source: "saved", indexed: 2, removed: 1, notes: 3 });
      expect(await paths(third, "otters")).toEqual(["Memory/Agents/me/Journal/2026-01-03.md"]);
      expect(await paths(third, "herons")).toEqual(["Memory/Agents/me/Journal/2026-01-01.md"]);
      expect(await paths(third, "beavers")).toEqual([]);
      expect(store.saves).toBe(2);
    });

    it("updates made after loading survive the next save and reload", async () => {
      const { make, write } = setup(files);
      const a = make();
      await a.open();
      write("Memory/Agents/me/Journal/2026-01-04.md", "fourth note about lynx");
      await a.update("Memory/Agents/me/Journal/2026-01-04.md");
      await a.remove("Memory/Agents/me/Journal/2026-01-01.md");
      expect(a.dirty).toBe(true);
      await a.save();
      const b = make();
      const report = await b.open();
      expect(report.source).toBe("saved");
      expect(await paths(b, "lynx")).toEqual(["Memory/Agents/me/Journal/2026-01-04.md"]);
      // The removed note still exists on disk, so opening indexes it again.
      expect(report.indexed).toBeGreaterThanOrEqual(1);
      expect(await paths(b, "otters")).toEqual(["Memory/Agents/me/Journal/2026-01-01.md"]);
    });

    it("a corrupt saved index is rebuilt with a message, never a crash", async () => {
      for (const bad of [
        "{not json",
        "null",
        '{"format":"agent-memory-search","version":1,"key":"x","shards":[]}',
        "[]",
      ]) {
        const store = new MemoryStore();
        store.data = bad;
        const { make } = setup(files, { store });
        const s = make();
        const report = await s.open();
        expect(report.source, bad).toBe("built");
        expect(report.rebuildReason, bad).toBeTruthy();
        expect(await paths(s, "otters")).toEqual(["Memory/Agents/me/Journal/2026-01-01.md"]);
        expect(store.data).not.toBe(bad);
      }
    });

    it("a saved index that is truncated, of another version or with a damaged section is rebuilt, naming it", async () => {
      const { make, store } = setup(files);
      await make().open();
      const good = bytesOf(store);
      const at = sectionsOf(good);
      const versioned = good.slice();
      new DataView(versioned.buffer).setUint32(4, 99, true);
      const variants: [string, Uint8Array][] = [
        ["empty", new Uint8Array(0)],
        ["truncated", good.subarray(0, Math.floor(good.length / 2))],
        ["postings cut short", good.subarray(0, (at.postings?.to ?? 1) - 1)],
        ["another version", versioned],
        ["not ours", flipped(good, 0)],
        ["header", flipped(good, 20)],
      ];
      // One byte of any section checked at open: metadata, documents, terms, the term
      // dictionary's starts and hash table, ends; and the phrase filters of a file saved before
      // they were checked by blocks.
      for (const name of ["metas", "docs", "terms", "starts", "slots", "ends"]) {
        const s = at[name];
        if (s && s.to > s.from) variants.push([name, flipped(good, s.from)]);
      }
      variants.push([
        "pairs, no block checksums",
        flipped(withoutPairBlocks(good), at.pairs?.from ?? 0),
      ]);
      expect(variants.length).toBe(13);
      for (const [what, bad] of variants) {
        store.data = bad;
        const s = make();
        const report = await s.open();
        expect(report.source, what).toBe("built");
        expect(report.rebuildReason, what).toMatch(/(corrupt|version).* in memory:\/\/index$/);
        expect(await paths(s, "otters"), what).toEqual(["Memory/Agents/me/Journal/2026-01-01.md"]);
        expect(await paths(s, '"note about otters"'), what).toEqual([
          "Memory/Agents/me/Journal/2026-01-01.md",
        ]);
        expect(bytesOf(store), what).not.toBe(bad);
      }
    });

    it("postings found damaged when a search first reads them: the index is rebuilt, named, and the search answered", async () => {
      const { vault, layout, store } = setup(files);
      const messages: string[] = [];
      const make = () =>
        new SearchService({
          vault,
          layout,
          store,
          now: () => NOW,
          onBackgroundError: (m) => messages.push(m),
        });
      await make().open();
      const good = bytesOf(store);
      const postings = sectionsOf(good).postings ?? { from: 0, to: 0 };
      store.data = flipped(good, postings.from + 1);
      const s = make();
      // Postings are not read at open: the damage is found by the first search that needs them.
      expect((await s.open()).source).toBe("saved");
      expect(messages).toEqual([]);
      expect(await paths(s, "otters")).toEqual(["Memory/Agents/me/Journal/2026-01-01.md"]);
      expect(messages).toHaveLength(1);
      expect(messages[0]).toMatch(
        /saved index is corrupt \(postings block 0 .*checksum mismatch.*\) in memory:\/\/index; rebuilt/,
      );
      expect(Buffer.from(bytesOf(store)).equals(Buffer.from(good))).toBe(true);
      expect(await paths(s, "beavers")).toEqual(["Memory/Agents/me/Journal/2026-01-02.md"]);
      expect(messages).toHaveLength(1);
    });

    it("phrase filters found damaged when a phrase search first reads them: the index is rebuilt, named, and the search answered", async () => {
      const { vault, layout, store } = setup(files);
      const messages: string[] = [];
      const make = () =>
        new SearchService({
          vault,
          layout,
          store,
          now: () => NOW,
          onBackgroundError: (m) => messages.push(m),
        });
      await make().open();
      const good = bytesOf(store);
      const pairs = sectionsOf(good).pairs ?? { from: 0, to: 0 };
      expect(pairs.to).toBeGreaterThan(pairs.from);
      store.data = flipped(good, pairs.from + 1);
      const s = make();
      // Filters are not checked at open, nor by a search without a quoted phrase.
      expect((await s.open()).source).toBe("saved");
      expect(await paths(s, "otters")).toEqual(["Memory/Agents/me/Journal/2026-01-01.md"]);
      expect(messages).toEqual([]);
      expect(await paths(s, '"note about otters"')).toEqual([
        "Memory/Agents/me/Journal/2026-01-01.md",
      ]);
      expect(messages).toHaveLength(1);
      expect(messages[0]).toMatch(
        /saved index is corrupt \(phrase filters block 0 of the main shard checksum mismatch\) in memory:\/\/index; rebuilt/,
      );
      expect(Buffer.from(bytesOf(store)).equals(Buffer.from(good))).toBe(true);
      expect(await paths(s, '"note about beavers"')).toEqual([
        "Memory/Agents/me/Journal/2026-01-02.md",
      ]);
      expect(messages).toHaveLength(1);
    });

    it("the phrase filters of an index saved without their block checksums are checked at open and still used", async () => {
      const { make, store } = setup(files);
      await make().open();
      const old = withoutPairBlocks(bytesOf(store));
      store.data = old;
      const saves = store.saves;
      const s = make();
      expect(await s.open()).toMatchObject({ source: "saved", indexed: 0 });
      expect(store.saves).toBe(saves);
      expect(await paths(s, '"note about otters"')).toEqual([
        "Memory/Agents/me/Journal/2026-01-01.md",
      ]);
      expect(await paths(s, '"about otters note"')).toEqual([]);
    });

    it("an index saved in the JSON format 9 loads as it is and is rewritten once in the binary format", async () => {
      const { make, store } = setup(files);
      await make().open();
      const binary = bytesOf(store);
      const json = asJson(binary);
      expect(json).toMatch(/^\{"checksum":-?\d+,"format":"agent-memory-search","version":9,/);
      store.data = json;
      const saves = store.saves;
      const s = make();
      expect(await s.open()).toMatchObject({ source: "saved", indexed: 0, removed: 0 });
      expect(store.saves).toBe(saves + 1);
      expect(Buffer.from(bytesOf(store)).equals(Buffer.from(binary))).toBe(true);
      expect(await paths(s, "otters")).toEqual(["Memory/Agents/me/Journal/2026-01-01.md"]);
      // Rewritten once: the next open loads the binary index and has nothing to save.
      expect(await make().open()).toMatchObject({ source: "saved", indexed: 0 });
      expect(store.saves).toBe(saves + 1);
    });

    it("an index saved in the binary format 10 loads as it is and is rewritten once in format 11", async () => {
      const { make, store } = setup(files);
      await make().open();
      const current = bytesOf(store);
      expect(new DataView(current.buffer, current.byteOffset).getUint32(4, true)).toBe(11);
      const v10 = await asV10(current);
      expect(new DataView(v10.buffer).getUint32(4, true)).toBe(10);
      expect(sectionsOf(v10).slots).toBeUndefined();
      store.data = v10;
      const saves = store.saves;
      const s = make();
      expect(await s.open()).toMatchObject({ source: "saved", indexed: 0, removed: 0 });
      expect(await paths(s, "otters")).toEqual(["Memory/Agents/me/Journal/2026-01-01.md"]);
      expect(store.saves).toBe(saves + 1);
      expect(Buffer.from(bytesOf(store)).equals(Buffer.from(current))).toBe(true);
      // Rewritten once: the next open loads format 11 and has nothing to save.
      expect(await make().open()).toMatchObject({ source: "saved", indexed: 0 });
      expect(store.saves).toBe(saves + 1);
      // A damaged format 10 is rebuilt, naming the section.
      store.data = flipped(v10, sectionsOf(v10).terms?.from ?? 0);
      const report = await make().open();
      expect(report).toMatchObject({ source: "built" });
      expect(report.rebuildReason).toMatch(/terms checksum mismatch/);
    });

    it("a JSON index (format 9) that is damaged is rebuilt", async () => {
      const { make, store } = setup(files);
      await make().open();
      const good = asJson(bytesOf(store));
      const variants = [
        good.slice(0, Math.floor(good.length / 2)),
        good.replace('"version":9', '"version":99'),
        good.replace('"postings":"', '"postings":"9:!'),
        // One character of a path or of a note's metadata (documents and metas are checksummed too).
        good.replace("2026-01-01.md", "2026X01-01.md"),
        good.replace('"agent":"me"', '"agent":"mX"'),
        good.replace(/"documentCount":\d+/, '"documentCount":77'),
        good.replace('"sizes":[', '"sizes":[1,'),
      ];
      // Phrase filters that disagree with their sizes, or are missing, under a valid checksum.
      const resaved = (change: (shard: SavedShard) => void): string => {
        const saved = JSON.parse(good) as SavedIndex;
        for (const shard of saved.shards) change(shard);
        return serializeIndex(saved.key, saved.shards, saved.savedAt);
      };
      variants.push(
        resaved((shard) => (shard.pairs.sizes = shard.pairs.sizes.map((n) => n + 1))),
        resaved((shard) => delete (shard as Partial<SavedShard>).pairs),
      );
      const reasons: string[] = [];
      for (const bad of variants) {
        store.data = bad;
        const s = make();
        const report = await s.open();
        expect(report.rebuildReason, bad.slice(0, 80)).toMatch(/corrupt|version/);
        reasons.push(report.rebuildReason ?? "");
        expect(await paths(s, "otters")).toEqual(["Memory/Agents/me/Journal/2026-01-01.md"]);
        expect(await paths(s, '"note about otters"')).toEqual([
          "Memory/Agents/me/Journal/2026-01-01.md",
        ]);
      }
      expect(reasons.at(-2)).toMatch(/phrase filters hold \d+ bytes, expected \d+/);
      expect(reasons.at(-1)).toMatch(/malformed shards/);
    });

    it("a saved index that cannot be read is rebuilt; one that cannot be saved leaves search working", async () => {
      const { make, store } = setup(files);
      store.load = () => Promise.reject(new Error("EACCES: permission denied"));
      const report = await make().open();
      expect(report.source).toBe("built");
      expect(report.rebuildReason).toMatch(/cannot be read.*EACCES/);
      const readOnly = setup(files);
      readOnly.store.save = () => Promise.reject(new Error("EROFS: read-only file system"));
      const service = readOnly.make();
      const opened = await service.open();
      expect(opened.saveError).toMatch(/EROFS/);
      expect(await paths(service, "otters")).toEqual(["Memory/Agents/me/Journal/2026-01-01.md"]);
      await expect(service.save()).rejects.toThrow(/EROFS/);
    });

    it("changed settings (isolated zones) rebuild the saved index", async () => {
      const store = new MemoryStore();
      const { make } = setup(files, { store });
      await make().open();
      const other = setup(files, { store, settings: { isolatedZones: ["Restricted", "Private"] } });
      const report = await other.make().open();
      expect(report.source).toBe("built");
      expect(report.rebuildReason).toMatch(/other settings/);
    });

    it("builds in chunks and reports progress", async () => {
      const many: Record<string, string> = {};
      for (let i = 0; i < 25; i++) many[`Memory/Agents/me/Journal/n${i}.md`] = `note ${i}`;
      const { service } = setup(many);
      const seen: [number, number][] = [];
      let yields = 0;
      const s = new SearchService({
        vault: (service as unknown as { vault: never }).vault,
        layout: new MemoryLayout(defaultSettings()),
        yieldToHost: () => {
          yields++;
          return Promise.resolve();
        },
      });
      await s.open({ chunkSize: 10, onProgress: (done, total) => seen.push([done, total]) });
      expect(seen).toEqual([
        [10, 25],
        [20, 25],
        [25, 25],
      ]);
      expect(yields).toBe(3);
    });
  });
});
