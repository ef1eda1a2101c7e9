// The delta beside the saved index (src/core/search/delta.ts; docs/architecture.md, "The saved
// index"): saves append only what changed, base + delta answers as the index that saved it and as
// a fresh build, a torn or foreign delta is never mis-read, two writers never corrupt it.
import { afterEach, describe, expect, it } from "vitest";
import { readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempVault } from "../../helpers/temp-vault";
import { seededRandom } from "../../helpers/seeded-random";
import { MemoryLayout } from "../../../src/core/layout";
import { defaultSettings } from "../../../src/core/settings";
import { SearchService, type SearchResponse } from "../../../src/core/search/search-service";
import { savedIndexId } from "../../../src/core/search/persistence";
import {
  COMPACT_FRACTION,
  deltaHeader,
  encodeDeltaRecord,
  MAX_DELTA_NOTES,
  readDelta,
  recordNotes,
  scanDelta,
  shouldCompact,
} from "../../../src/core/search/delta";
import { FileIndexStore, vaultIndexStore } from "../../../src/node/index-store";
import type { NoteMeta } from "../../../src/core/search/note-document";

const NOW = Date.parse("2026-12-01T12:00:00Z");
const JOURNAL = "Memory/Agents/me/Journal";

let cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});

const WORDS = [
  "otter",
  "beaver",
  "heron",
  "lynx",
  "walrus",
  "river",
  "stone",
  "deploy",
  "budget",
  "review",
  "审核",
  "瓶颈",
  "任务",
  "部署",
  "meeting",
  "latency",
];

/** A deterministic source of small integers below `n`. */
function dice(seed: number): (n: number) => number {
  const random = seededRandom(seed);
  const byte = new Uint8Array(4);
  return (n) => {
    random(byte);
    return new DataView(byte.buffer).getUint32(0) % n;
  };
}

function noteText(roll: (n: number) => number, title: string): string {
  const words = Array.from({ length: 6 + roll(30) }, () => WORDS[roll(WORDS.length)] ?? "x");
  return `# ${title}\n\n${words.join(" ")}\n\n- ${words.slice(0, 3).join(" ")} ^b${roll(1000)}\n`;
}

function setup(files: Record<string, string>) {
  const tv = tempVault(files);
  cleanups.push(tv.cleanup);
  const layout = new MemoryLayout(defaultSettings());
  const store = vaultIndexStore(tv.vault);
  const make = (s: FileIndexStore | null = store) =>
    new SearchService({ vault: tv.vault, layout, store: s, now: () => NOW });
  return { ...tv, layout, store, make };
}

/** The note's mtime (ms) and size (bytes) on disk, as a host that knows them passes them. */
function statOf(root: string, path: string): { mtime: number; size: number } {
  const st = statSync(join(root, path));
  return { mtime: st.mtimeMs, size: st.size };
}

/**
 * The answers to `queries`, with the postings of discarded notes swept first (the service's
 * vacuum, which it runs itself past 20 discarded notes and 10%): until then BM25 counts a term's
 * notes as MiniSearch does, discarded ones included until met, so scores depend on where the
 * discarded notes lie, which differs between an index edited live, one loaded and a fresh build.
 * Every match is listed (no cut between equal scores); results are sorted by score, then path
 * (equal scores may come in another order).
 */
async function answers(service: SearchService, queries: readonly string[]): Promise<unknown[]> {
  const shards = (
    service as unknown as { shards: Map<string, { mini: { vacuum: () => Promise<void> } }> }
  ).shards;
  for (const shard of shards.values()) await shard.mini.vacuum();
  const out: unknown[] = [];
  for (const q of queries) {
    const r = await service.search(q, { limit: 1000, scope: "all" });
    if (!r.ok) throw new Error(r.error);
    out.push(strip(r.value));
  }
  return out;
}

/**
 * A response without its timing and whether its total is an estimate (that depends on the score
 * bounds the scorer has cached, kept while average field lengths move less than 5%, so on the
 * index's history), its results sorted by score, then path.
 */
function strip(response: SearchResponse): unknown {
  const results = [...response.results].sort((x, y) =>
    x.score !== y.score ? y.score - x.score : x.path < y.path ? -1 : 1,
  );
  const rest: Partial<SearchResponse> = { ...response };
  delete rest.totalBound;
  return { ...rest, took_ms: 0, results };
}

/** Paths and scores only: a fresh build adds notes in another order, so equal scores may tie otherwise. */
function ranked(all: unknown[]): unknown[] {
  return all.map((r) =>
    (r as SearchResponse).results
      .map((h) => `${h.score} ${h.path}`)
      .sort()
      .concat(`total ${(r as SearchResponse).total}`),
  );
}

const QUERIES = ["otter", "beaver heron", "审核 瓶颈", "部署", "deploy budget", '"river stone"'];

function many(count: number, seed: number): Record<string, string> {
  const roll = dice(seed);
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++)
    files[`${JOURNAL}/2026-01-${String(i + 1).padStart(2, "0")}-n${i}.md`] = noteText(
      roll,
      `note ${i}`,
    );
  return files;
}

describe("delta format", () => {
  const meta = (path: string): NoteMeta => ({
    path,
    mtime: 1,
    size: 2,
    title: path,
    agent: null,
    collection: "journal",
    zone: null,
  });
  const doc = (path: string, body: string) => ({
    id: path,
    title: path,
    aliases: "",
    tags: "",
    headings: "",
    properties: "",
    body,
  });

  it("reads back the records written, in order, with their phrase filters", () => {
    const head = deltaHeader("key", "base");
    const one = encodeDeltaRecord({
      notes: [{ meta: meta("a.md"), doc: doc("a.md", "otter 审核"), pairs: Uint32Array.of(1, 2) }],
      removed: [],
    });
    const two = encodeDeltaRecord({ notes: [], removed: ["b.md"] });
    const bytes = new Uint8Array([...head, ...one, ...two]);
    const read = readDelta(bytes, "key", "base");
    expect(read.ok && read.value.length).toBe(bytes.length);
    expect(read.ok && read.value.records).toEqual([
      {
        notes: [
          { meta: meta("a.md"), doc: doc("a.md", "otter 审核"), pairs: Uint32Array.of(1, 2) },
        ],
        removed: [],
      },
      { notes: [], removed: ["b.md"] },
    ]);
  });

  it("a record cut at any byte, or with a changed byte, ends the delta before it", () => {
    const head = deltaHeader("key", "base");
    const one = encodeDeltaRecord({ notes: [], removed: ["a.md"] });
    const two = encodeDeltaRecord({
      notes: [{ meta: meta("c.md"), doc: doc("c.md", "x") }],
      removed: [],
    });
    const whole = new Uint8Array([...head, ...one, ...two]);
    const before = head.length + one.length;
    for (let cut = before; cut < whole.length; cut++) {
      const read = readDelta(whole.subarray(0, cut), "key", "base");
      expect(read.ok && read.value.records.length, `cut at ${cut}`).toBe(1);
      expect(read.ok && read.value.length).toBe(before);
    }
    for (let at = before; at < whole.length; at++) {
      const bad = whole.slice();
      bad[at] = (bad[at] ?? 0) ^ 0x5a;
      const read = scanDelta(bad, "key", "base");
      // A changed length may still frame a record past the end: either way, not read.
      expect(read.ok && read.value.payloads.length, `byte ${at}`).toBe(1);
    }
  });

  it("a header of another key, base, version or a damaged one is refused, naming why", () => {
    const bytes = deltaHeader("key", "base");
    expect(readDelta(bytes, "other", "base")).toEqual({
      ok: false,
      error: "delta was saved with other settings or another tokenizer",
    });
    expect(readDelta(bytes, "key", "other")).toEqual({
      ok: false,
      error: "delta follows another saved index",
    });
    const version = bytes.slice();
    version[4] = 99;
    expect(readDelta(version, "key", "base")).toEqual({
      ok: false,
      error: "delta has version 99, expected 1",
    });
    const damaged = bytes.slice();
    damaged[20] = (damaged[20] ?? 0) ^ 1;
    expect(readDelta(damaged, "key", "base")).toEqual({
      ok: false,
      error: "delta is corrupt (header checksum mismatch)",
    });
    expect(readDelta(new TextEncoder().encode("{}"), "key", "base").ok).toBe(false);
  });

  it("compacts only once the delta would exceed 1/32 of the base or 64 notes", () => {
    expect(COMPACT_FRACTION).toBe(32);
    expect(MAX_DELTA_NOTES).toBe(64);
    const d = (bytes: number, notes = 1) => ({ bytes, notes });
    expect(shouldCompact(3200, d(50), d(50))).toBe(false);
    expect(shouldCompact(3200, d(50), d(51))).toBe(true);
    expect(shouldCompact(3200, d(0), d(100))).toBe(false);
    expect(shouldCompact(3199, d(0), d(100))).toBe(true);
    expect(shouldCompact(1e9, d(10, 60), d(10, 4))).toBe(false);
    expect(shouldCompact(1e9, d(10, 60), d(10, 5))).toBe(true);
  });

  it("a record's frame counts its notes, changed and removed", () => {
    const one = encodeDeltaRecord({
      notes: [{ meta: meta("a.md"), doc: doc("a.md", "x") }],
      removed: ["b.md", "c.md"],
    });
    expect(recordNotes(one)).toBe(3);
    const bytes = new Uint8Array([...deltaHeader("key", "base"), ...one, ...one]);
    const scanned = scanDelta(bytes, "key", "base");
    expect(scanned.ok && scanned.value.notes).toBe(6);
  });
});

describe("SearchService with a delta", () => {
  it("a save after a one-note change appends one record; the base is not rewritten", async () => {
    const { make, store, root, write } = setup(many(200, 1));
    const a = make();
    await a.open();
    const base = readFileSync(store.file);
    const path = `${JOURNAL}/2026-01-01-n0.md`;
    write(path, "# note 0\n\nkingfisher otter\n");
    await a.update(path, statOf(root, path));
    await a.save();
    expect(readFileSync(store.file).equals(base)).toBe(true);
    const id = savedIndexId(new Uint8Array(base));
    const delta = readDelta(new Uint8Array(readFileSync(store.deltaFile)), keyOf(store), id ?? "");
    expect(delta.ok && delta.value.records.map((r) => r.notes.map((n) => n.meta.path))).toEqual([
      [path],
    ]);

    const b = make();
    const report = await b.open();
    expect(report).toMatchObject({ source: "saved", indexed: 0, removed: 0, deltaRecords: 1 });
    expect(await answers(b, ["kingfisher"])).toEqual(await answers(a, ["kingfisher"]));
    expect((await answers(b, ["kingfisher"]))[0]).toMatchObject({ results: [{ path }] });
  });

  it("a removal is saved in the delta; the note stays out after a reload", async () => {
    const { make, root } = setup(many(200, 2));
    const a = make();
    await a.open();
    const path = `${JOURNAL}/2026-01-02-n1.md`;
    rmSync(join(root, path));
    await a.remove(path);
    await a.save();
    const b = make();
    expect(await b.open()).toMatchObject({ indexed: 0, removed: 0, deltaRecords: 1 });
    expect(b.meta(path)).toBeUndefined();
    expect(await answers(b, QUERIES)).toEqual(await answers(a, QUERIES));
  });

  it("once the delta passes 1/32 of the base the save rewrites the base and starts a new delta", async () => {
    const { make, store, root, write } = setup(many(200, 3));
    const a = make();
    await a.open();
    const baseBytes = statSync(store.file).size;
    const path = `${JOURNAL}/2026-01-03-n2.md`;
    let rewrites = 0;
    let appends = 0;
    for (let i = 0; i < 12; i++) {
      const before = readFileSync(store.file);
      const deltaBefore = statSync(store.deltaFile, { throwIfNoEntry: false })?.size ?? 0;
      write(path, `# note 2\n\n${"heron ".repeat(10 + i * 20)}round${i}\n`);
      await a.update(path, statOf(root, path));
      await a.save();
      const delta = statSync(store.deltaFile).size;
      if (readFileSync(store.file).equals(before)) {
        appends++;
        // Appended: the delta grew and stays within 1/32 of the base.
        expect(delta).toBeGreaterThan(deltaBefore);
        expect(delta * COMPACT_FRACTION).toBeLessThanOrEqual(baseBytes * 1.05);
      } else {
        rewrites++;
        // Rewritten: the delta is a header for the new base, no record.
        const read = readDelta(
          new Uint8Array(readFileSync(store.deltaFile)),
          keyOf(store),
          savedIndexId(new Uint8Array(readFileSync(store.file))) ?? "",
        );
        expect(read.ok && read.value.records).toEqual([]);
      }
      const b = make();
      expect((await b.open()).indexed).toBe(0);
      expect(await answers(b, [`round${i}`, "heron"])).toEqual(
        await answers(a, [`round${i}`, "heron"]),
      );
    }
    expect(appends).toBeGreaterThan(0);
    expect(rewrites).toBeGreaterThan(0);
  });

  it("a note changed many times between saves counts once toward the delta's limit; as many different notes do not fit", async () => {
    const { make, store, root, write } = setup(many(200, 10));
    const a = make();
    await a.open();
    const baseBytes = statSync(store.file).size;
    const text = (i: number) =>
      `# n\n\n${"grebe ".repeat(Math.ceil(baseBytes / 32 / 6 / 3))}v${i}\n`;
    // Each version is about a third of what the delta may hold; ten of them are three times that.
    const one = `${JOURNAL}/2026-01-01-n0.md`;
    for (let i = 0; i < 10; i++) {
      write(one, text(i));
      await a.update(one, statOf(root, one));
    }
    const before = readFileSync(store.file);
    await a.save();
    expect(readFileSync(store.file).equals(before)).toBe(true);
    // Ten different notes of that size: the base is rewritten.
    for (let i = 0; i < 10; i++) {
      const path = `${JOURNAL}/2026-01-${String(i + 2).padStart(2, "0")}-n${i + 1}.md`;
      write(path, text(i));
      await a.update(path, statOf(root, path));
    }
    await a.save();
    expect(readFileSync(store.file).equals(before)).toBe(false);
    const b = make();
    expect(await b.open()).toMatchObject({ indexed: 0 });
    expect(await answers(b, ["grebe", "v9"])).toEqual(await answers(a, ["grebe", "v9"]));
  });

  it("the 64th note in the delta is appended; the 65th rewrites the base", async () => {
    const { make, store, root } = setup(many(1200, 11));
    const a = make();
    await a.open();
    const base = readFileSync(store.file);
    const paths = Object.keys(many(1200, 11)).sort();
    for (let i = 0; i < 64; i++) {
      const path = paths[i] ?? "";
      rmSync(join(root, path));
      await a.remove(path);
      await a.save();
    }
    expect(readFileSync(store.file).equals(base)).toBe(true);
    // Far from 1/32 of the base in bytes: the count of notes is what rewrites it next.
    expect(statSync(store.deltaFile).size * COMPACT_FRACTION * 1.5).toBeLessThan(base.length);
    const path = paths[64] ?? "";
    rmSync(join(root, path));
    await a.remove(path);
    await a.save();
    expect(readFileSync(store.file).equals(base)).toBe(false);
    const b = make();
    expect(await b.open()).toMatchObject({ indexed: 0, removed: 0, notes: 1200 - 65 });
  });

  it("base + delta answers exactly as the index that saved it, and as a fresh build, after random edits, additions and removals", async () => {
    const files = many(200, 4);
    const { make, root, write, store } = setup(files);
    const roll = dice(44);
    const a = make();
    await a.open();
    const live = new Set(Object.keys(files));
    let next = 100;
    let replayed = 0;
    let rewrites = 0;
    for (let round = 0; round < 16; round++) {
      const base = readFileSync(store.file);
      for (let op = 0, ops = 1 + roll(4); op < ops; op++) {
        const kind = roll(3);
        const list = [...live].sort();
        const path = list[roll(list.length)] ?? `${JOURNAL}/x.md`;
        if (kind === 0 && live.size > 5) {
          rmSync(join(root, path));
          live.delete(path);
          await a.remove(path);
        } else if (kind === 1) {
          const added = `${JOURNAL}/2026-03-01-new${next++}.md`;
          write(added, noteText(roll, `new ${next}`));
          live.add(added);
          await a.update(added, statOf(root, added));
        } else {
          write(path, noteText(roll, `edited ${round}`));
          await a.update(path, statOf(root, path));
        }
      }
      await a.save();
      if (!readFileSync(store.file).equals(base)) rewrites++;
      const b = make();
      const report = await b.open();
      expect(report).toMatchObject({ source: "saved", indexed: 0, removed: 0 });
      expect(report.deltaIgnored).toBeUndefined();
      replayed += report.deltaRecords ?? 0;
      const fromSaved = await answers(b, QUERIES);
      expect(fromSaved, `round ${round}`).toEqual(await answers(a, QUERIES));
      const fresh = make(null);
      await fresh.open();
      expect(ranked(fromSaved), `round ${round}`).toEqual(ranked(await answers(fresh, QUERIES)));
      expect(
        b
          .notes()
          .map((m) => m.path)
          .sort(),
      ).toEqual([...live].sort());
    }
    // Both kinds of save happened: records were replayed and the base was rewritten.
    expect(replayed).toBeGreaterThan(0);
    expect(rewrites).toBeGreaterThan(0);
  });

  it("a delta cut at any byte of its last record (a killed save) loads the records before it; the note is re-indexed", async () => {
    const { make, store, root, write } = setup(many(200, 5));
    const a = make();
    await a.open();
    const x = `${JOURNAL}/2026-01-01-n0.md`;
    const y = `${JOURNAL}/2026-01-02-n1.md`;
    write(x, "# x\n\nkingfisher\n");
    await a.update(x, statOf(root, x));
    await a.save();
    write(y, "# y\n\ncormorant\n");
    await a.update(y, statOf(root, y));
    await a.save();
    const whole = new Uint8Array(readFileSync(store.deltaFile));
    const id = savedIndexId(new Uint8Array(readFileSync(store.file))) ?? "";
    const scanned = scanDelta(whole, keyOf(store), id);
    if (!scanned.ok) throw new Error(scanned.error);
    expect(scanned.value.payloads).toHaveLength(2);
    const lastStart = (scanned.value.payloads[1]?.[0] ?? 0) - 12;
    expect(whole.length - lastStart).toBeLessThan(1000);
    for (let cut = lastStart; cut < whole.length; cut++) {
      writeFileSync(store.deltaFile, whole.subarray(0, cut));
      const b = make();
      const report = await b.open();
      expect(report, `cut at ${cut}`).toMatchObject({
        source: "saved",
        deltaRecords: 1,
        indexed: 1,
      });
      expect(report.rebuildReason).toBeUndefined();
      expect((await answers(b, ["kingfisher"]))[0]).toMatchObject({ results: [{ path: x }] });
      expect((await answers(b, ["cormorant"]))[0]).toMatchObject({ results: [{ path: y }] });
      // The open's save appended after the last whole record: the torn tail is gone.
      const after = new Uint8Array(readFileSync(store.deltaFile));
      const again = scanDelta(after, keyOf(store), id);
      expect(again.ok && again.value.length).toBe(after.length);
      expect(again.ok && again.value.payloads).toHaveLength(2);
    }
  });

  it("a delta of other settings, another vault's index or another version is not used: the changes are re-indexed and the base rewritten", async () => {
    const one = setup(many(200, 6));
    const other = setup(many(200, 7));
    for (const s of [one, other]) await s.make().open();
    const x = `${JOURNAL}/2026-01-01-n0.md`;
    const change = async (s: typeof one, word: string) => {
      const a = s.make();
      await a.open();
      s.write(x, `# x\n\n${word}\n`);
      await a.update(x, statOf(s.root, x));
      await a.save();
    };
    const baseId = () => savedIndexId(new Uint8Array(readFileSync(one.store.file))) ?? "";
    const cases: [string, () => void, string][] = [
      [
        "other settings",
        () => {
          const bytes = new Uint8Array(readFileSync(one.store.deltaFile));
          const scanned = scanDelta(bytes, keyOf(one.store), baseId());
          if (!scanned.ok) throw new Error(scanned.error);
          const records = scanned.value.payloads.map(([from, to]) => bytes.subarray(from - 12, to));
          const head = deltaHeader("another key", baseId());
          writeFileSync(one.store.deltaFile, Buffer.concat([head, ...records]));
        },
        "delta was saved with other settings or another tokenizer",
      ],
      [
        "another vault's",
        () => writeFileSync(one.store.deltaFile, readFileSync(other.store.deltaFile)),
        "delta follows another saved index",
      ],
      [
        "another version",
        () => {
          const bytes = readFileSync(one.store.deltaFile);
          bytes[4] = 7;
          writeFileSync(one.store.deltaFile, bytes);
        },
        "delta has version 7, expected 1",
      ],
    ];
    for (const [name, spoil, why] of cases) {
      await change(one, `word${name.length}`);
      await change(other, "grebe");
      spoil();
      const before = readFileSync(one.store.file);
      const b = one.make();
      const report = await b.open();
      expect(report, name).toMatchObject({ source: "saved", deltaIgnored: why, indexed: 1 });
      expect(await answers(b, [`word${name.length}`, "grebe"])).toEqual(
        await answers(await opened(one.make(null)), [`word${name.length}`, "grebe"]),
      );
      // The open rewrote the base and started a delta that follows it.
      expect(readFileSync(one.store.file).equals(before)).toBe(false);
      expect(
        readDelta(new Uint8Array(readFileSync(one.store.deltaFile)), keyOf(one.store), baseId()).ok,
      ).toBe(true);
    }
  });

  it("a base saved without a delta (before deltas) loads, and the next save starts one", async () => {
    const { make, store, root, write } = setup(many(200, 8));
    await make().open();
    rmSync(store.deltaFile);
    const a = make();
    expect((await a.open()).deltaRecords).toBeUndefined();
    const x = `${JOURNAL}/2026-01-01-n0.md`;
    write(x, "# x\n\nkingfisher\n");
    await a.update(x, statOf(root, x));
    await a.save();
    expect(await make().open()).toMatchObject({ deltaRecords: 1, indexed: 0 });
  });

  it("two processes saving the same index at once never corrupt it", async () => {
    const { root, write, layout, vault, store } = setup(many(200, 9));
    const makeOwn = () =>
      new SearchService({
        vault,
        layout,
        // A store of its own: its own lock holder, as another process would be.
        store: new FileIndexStore(store.file, undefined, store.deltaFile),
        now: () => NOW,
      });
    const p = makeOwn();
    const q = makeOwn();
    await p.open();
    await q.open();
    const roll = dice(99);
    for (let round = 0; round < 10; round++) {
      const edits = [p, q].map(async (s, k) => {
        const path = `${JOURNAL}/2026-01-${String(1 + roll(200)).padStart(2, "0")}-n${k}${round}.md`;
        write(path, noteText(roll, `p${k} ${round}`));
        await s.update(path, statOf(root, path));
        if (roll(4) === 0) await s.rebuild();
        await s.save();
      });
      await Promise.all(edits);
      const bytes = new Uint8Array(readFileSync(store.deltaFile));
      const id = savedIndexId(new Uint8Array(readFileSync(store.file)));
      const scanned = scanDelta(bytes, keyOf(store), id ?? "");
      // Either the delta follows the base on disk and reads whole, or it follows an older base.
      if (scanned.ok) expect(scanned.value.length).toBe(bytes.length);
      const r = await opened(makeOwn());
      expect(await answers(r, QUERIES)).toEqual(await answers(await opened(makeOwn()), QUERIES));
      const fresh = await opened(new SearchService({ vault, layout, store: null, now: () => NOW }));
      expect(ranked(await answers(r, QUERIES))).toEqual(ranked(await answers(fresh, QUERIES)));
    }
  });
});

async function opened(service: SearchService): Promise<SearchService> {
  await service.open();
  return service;
}

/** The key of the index in `store` (read from the delta's own header). */
function keyOf(store: FileIndexStore): string {
  const bytes = readFileSync(store.deltaFile);
  const length = bytes.readUInt32LE(8);
  return (JSON.parse(bytes.subarray(16, 16 + length).toString("utf8")) as { key: string }).key;
}
