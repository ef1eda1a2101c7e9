// SearchService.openSaved and sync, and changedOnDisk (src/cli/shared.ts): a one-shot hook answers
// from the saved index without listing the vault, and brings it up to date when a note it
// returned changed on disk (docs/decisions.md, "A hook answers from the saved index").
import { rmSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MemoryLayout } from "../../src/core/layout";
import { defaultSettings } from "../../src/core/settings";
import { SearchService } from "../../src/core/search/search-service";
import { changedOnDisk, foldersChanged } from "../../src/cli/shared";
import { savedIndexTime, vaultIndexStore } from "../../src/node/index-store";
import { tempVault } from "../helpers/temp-vault";

const A = "Memory/Agents/link/Knowledge/learning/Deploys.md";
const B = "Memory/Library/Ops/Pager.md";

let cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function setup() {
  const tv = tempVault({
    [A]: "# Deploys\n\nThe canary deploy runs before the fleet deploy.\n",
    [B]: "# Pager\n\nThe pager rotation changes on Mondays.\n",
  });
  cleanups.push(tv.cleanup);
  const layout = new MemoryLayout(defaultSettings());
  const make = () =>
    new SearchService({ vault: tv.vault, layout, store: vaultIndexStore(tv.vault) });
  return { tv, make };
}

async function paths(service: SearchService, query: string): Promise<string[]> {
  const r = await service.search(query);
  if (!r.ok) throw new Error(r.error);
  return r.value.results.map((x) => x.path);
}

describe("openSaved", () => {
  it("without a saved index it opens as open does: listed, built and saved, not unsynced", async () => {
    const { make } = setup();
    const report = await make().openSaved();
    expect(report.source).toBe("built");
    expect(report.unsynced).toBeUndefined();
    expect(report.listed).toEqual([A, B]);
    expect((await make().openSaved()).unsynced).toBe(true);
  });

  it("takes the saved index as it is; changedOnDisk names a changed or deleted note, and sync catches up", async () => {
    const { tv, make } = setup();
    await make().open();
    tv.write(A, "# Deploys\n\nThe zorblax deploy runs after the fleet deploy, on Tuesdays.\n");
    rmSync(join(tv.root, B));
    const service = make();
    const report = await service.openSaved();
    expect(report).toMatchObject({ source: "saved", unsynced: true, indexed: 0, notes: 2 });
    expect(report.listed).toBeUndefined();
    // As saved: the new word is not found yet, the deleted note still is.
    expect(await paths(service, "zorblax")).toEqual([]);
    expect(await paths(service, "pager")).toEqual([B]);
    expect(changedOnDisk(tv, service, [A])).toBe(true);
    expect(changedOnDisk(tv, service, [B])).toBe(true);
    const synced = await service.sync();
    expect(synced).toMatchObject({ indexed: 1, removed: 1, notes: 1 });
    expect(synced.unsynced).toBeUndefined();
    expect(await paths(service, "zorblax")).toEqual([A]);
    expect(await paths(service, "pager")).toEqual([]);
    expect(changedOnDisk(tv, service, [A])).toBe(false);
  });

  it("changedOnDisk: an unchanged note is not changed; the same size with another mtime is", async () => {
    const { tv, make } = setup();
    await make().open();
    const service = make();
    await service.openSaved();
    expect(changedOnDisk(tv, service, [A, B])).toBe(false);
    const at = new Date(Date.now() + 60_000);
    utimesSync(join(tv.root, B), at, at);
    expect(changedOnDisk(tv, service, [A])).toBe(false);
    expect(changedOnDisk(tv, service, [A, B])).toBe(true);
    // A path the index does not hold is a change too.
    expect(changedOnDisk(tv, service, ["Memory/Library/Ops/New.md"])).toBe(true);
  });
});

describe("foldersChanged", () => {
  it("a folder (or a parent up to the memory root) changed more than 1 s after its newest indexed note is a change; at 1 s it is not", async () => {
    const { tv, make } = setup();
    // Notes and their folders at one known time, then indexed.
    const t = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;
    const at = (ms: number) => new Date(ms);
    const folders = [
      "Memory",
      "Memory/Agents",
      "Memory/Agents/link",
      "Memory/Agents/link/Knowledge",
      "Memory/Agents/link/Knowledge/learning",
      "Memory/Library",
      "Memory/Library/Ops",
    ];
    const setAll = () => {
      for (const p of [A, B]) utimesSync(join(tv.root, p), at(t), at(t));
      for (const f of folders) utimesSync(join(tv.root, f), at(t), at(t));
    };
    setAll();
    await make().open();
    const service = make();
    await service.openSaved();
    const ctx = { vaultRoot: tv.root, layout: new MemoryLayout(defaultSettings()) };
    expect(foldersChanged(ctx, service, null)).toBe(false);
    const ops = join(tv.root, "Memory/Library/Ops");
    utimesSync(ops, at(t + 1_000), at(t + 1_000));
    expect(foldersChanged(ctx, service, null)).toBe(false);
    utimesSync(ops, at(t + 1_001), at(t + 1_001));
    expect(foldersChanged(ctx, service, null)).toBe(true);
    // A parent without notes of its own counts by the notes beneath it.
    setAll();
    expect(foldersChanged(ctx, service, null)).toBe(false);
    utimesSync(join(tv.root, "Memory/Agents"), at(t + 5_000), at(t + 5_000));
    expect(foldersChanged(ctx, service, null)).toBe(true);
    // A note written through the vault (a rename into its folder) since the index was saved.
    setAll();
    await tv.vault.process("Memory/Library/Ops/Oncall.md", () => "# Oncall\n\nThe oncall swap.\n");
    expect(foldersChanged(ctx, service, null)).toBe(true);
    // A note edited in place leaves its folder alone: changedOnDisk catches it when returned.
    rmSync(join(tv.root, "Memory/Library/Ops/Oncall.md"));
    setAll();
    tv.write(B, "# Pager\n\nThe pager rotation changes on Fridays.\n");
    utimesSync(ops, at(t), at(t));
    expect(foldersChanged(ctx, service, null)).toBe(false);
    expect(changedOnDisk(tv, service, [B])).toBe(true);
  });

  it("a folder changed after the saved index was written is a change, also within 1 s of its newest note; savedIndexTime is the index's", async () => {
    const { tv, make } = setup();
    expect(savedIndexTime(tv.vault)).toBeNull();
    const t = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;
    const at = new Date(t);
    for (const p of [A, B]) utimesSync(join(tv.root, p), at, at);
    await make().open();
    const saved = savedIndexTime(tv.vault);
    expect(saved).toBeGreaterThan(t);
    const service = make();
    await service.openSaved();
    const ctx = { vaultRoot: tv.root, layout: new MemoryLayout(defaultSettings()) };
    for (const f of [
      "Memory",
      "Memory/Library",
      "Memory/Library/Ops",
      "Memory/Agents",
      "Memory/Agents/link",
      "Memory/Agents/link/Knowledge",
      "Memory/Agents/link/Knowledge/learning",
    ])
      utimesSync(join(tv.root, f), at, at);
    const ops = join(tv.root, "Memory/Library/Ops");
    // Half a second after the newest note: within the slack, so only the save time tells.
    utimesSync(ops, new Date(t + 500), new Date(t + 500));
    expect(foldersChanged(ctx, service, null)).toBe(false);
    expect(foldersChanged(ctx, service, t + 499)).toBe(true);
    expect(foldersChanged(ctx, service, t + 500)).toBe(false);
  });
});
