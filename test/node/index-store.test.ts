// The CLI's saved index files (src/node/index-store.ts): the index replaced whole, the delta beside
// it written in place under a lock, so two processes never interleave or lose each other's records.
import { afterEach, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileIndexStore } from "../../src/node/index-store";

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

function store(): { dir: string; make: () => FileIndexStore } {
  const dir = mkdtempSync(join(tmpdir(), "am-store-"));
  dirs.push(dir);
  return {
    dir,
    make: () => new FileIndexStore(join(dir, "search-index.bin"), join(dir, "search-index.json")),
  };
}

const bytes = (...values: number[]) => Uint8Array.from(values);

describe("FileIndexStore delta", () => {
  it("has no delta until one is written; the delta sits beside the index as search-index.delta", async () => {
    const { dir, make } = store();
    const s = make();
    expect(s.deltaFile).toBe(join(dir, "search-index.delta"));
    expect(await s.loadDelta()).toBeNull();
    expect(
      await s.writeDelta((current) => ({ at: 0, bytes: bytes(current === null ? 1 : 9) })),
    ).toBe(true);
    expect(await s.loadDelta()).toEqual(bytes(1));
  });

  it("writes at the end, cuts a torn tail before writing, and refuses a write past the end", async () => {
    const { make } = store();
    const s = make();
    await s.writeDelta(() => ({ at: 0, bytes: bytes(1, 2, 3, 4) }));
    await s.writeDelta((current) => ({ at: current?.length ?? 0, bytes: bytes(5) }));
    expect(await s.loadDelta()).toEqual(bytes(1, 2, 3, 4, 5));
    await s.writeDelta(() => ({ at: 2, bytes: bytes(7, 8) }));
    expect(await s.loadDelta()).toEqual(bytes(1, 2, 7, 8));
    await expect(s.writeDelta(() => ({ at: 5, bytes: bytes(9) }))).rejects.toThrow(RangeError);
    expect(await s.loadDelta()).toEqual(bytes(1, 2, 7, 8));
    await s.writeDelta((current) => ({ at: current?.length ?? 0, bytes: bytes(9) }));
    expect(await s.loadDelta()).toEqual(bytes(1, 2, 7, 8, 9));
  });

  it("a plan that returns null writes nothing", async () => {
    const { make } = store();
    const s = make();
    await s.writeDelta(() => ({ at: 0, bytes: bytes(1) }));
    expect(await s.writeDelta(() => null)).toBe(false);
    expect(await s.loadDelta()).toEqual(bytes(1));
  });

  it("save replaces the index, then the delta, removes the JSON index and leaves no temporary file", async () => {
    const { dir, make } = store();
    const s = make();
    writeFileSync(join(dir, "search-index.json"), "{}");
    await s.writeDelta(() => ({ at: 0, bytes: bytes(1, 2, 3) }));
    await s.save(bytes(10, 11), bytes(20));
    expect(await s.load()).toEqual(bytes(10, 11));
    expect(await s.loadDelta()).toEqual(bytes(20));
    expect(existsSync(join(dir, "search-index.json"))).toBe(false);
    // Without a delta, save leaves the delta as it is.
    await s.save(bytes(12));
    expect(await s.loadDelta()).toEqual(bytes(20));
    expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("two stores on one file (two processes) appending at once keep every record whole", async () => {
    const { dir, make } = store();
    const [a, b] = [make(), make()];
    await a.writeDelta(() => ({ at: 0, bytes: new Uint8Array(0) }));
    const append = (s: FileIndexStore, tag: number) =>
      s.writeDelta((current) => ({
        at: current?.length ?? 0,
        bytes: new Uint8Array(64).fill(tag),
      }));
    const writes: Promise<boolean>[] = [];
    for (let i = 0; i < 12; i++) writes.push(append(a, 1 + i), append(b, 101 + i));
    expect(await Promise.all(writes)).toEqual(writes.map(() => true));
    const delta = readFileSync(join(dir, "search-index.delta"));
    expect(delta.length).toBe(24 * 64);
    const tags = new Set<number>();
    for (let k = 0; k < delta.length; k += 64) {
      const chunk = delta.subarray(k, k + 64);
      expect(chunk.every((v) => v === chunk[0])).toBe(true);
      tags.add(chunk[0] ?? 0);
    }
    expect(tags.size).toBe(24);
    // The lock is released: its folder is gone.
    expect(readdirSync(join(dir, "locks"))).toEqual([]);
  });
});
