// The block vector store (docs/architecture.md, "Semantic recall"): int8 quantisation, the vector
// file's records and torn tails, another model, and the sign-bit prefilter's cut.
import { describe, expect, it } from "vitest";
import { embeddableBlocks, normalize, VectorIndex } from "../../../src/core/search/vectors";

function vec(...xs: number[]): Float32Array {
  return Float32Array.from(xs);
}

describe("VectorIndex", () => {
  it("keeps cosine within int8 error and shares one vector per content hash", () => {
    const index = new VectorIndex("m", 4);
    const a = index.add(1, vec(1, 2, 3, 4));
    expect(index.add(1, vec(9, 9, 9, 9))).toBe(a);
    expect(index.size).toBe(1);
    const q = normalize(vec(1, 2, 3, 4));
    expect(index.similarity(q, a)).toBeCloseTo(1, 2);
    expect(index.similarity(normalize(vec(-1, -2, -3, -4)), a)).toBeCloseTo(-1, 2);
    expect(() => index.add(2, vec(1, 2))).toThrow("2 dimensions in an index of 4");
  });

  it("reads back what it wrote; a record cut short is dropped; another model reads nothing", () => {
    const index = new VectorIndex("m", 3);
    index.add(7, vec(1, 0, 0));
    const head = index.serialize();
    const second = index.record([index.add(8, vec(0, 1, 0))]);
    const file = new Uint8Array(head.length + second.length + 5);
    file.set(head, 0);
    file.set(second, head.length);
    file.set([0x41, 0x4d, 0x56, 0x52, 1], head.length + second.length);
    const loaded = VectorIndex.load("m", file, null);
    expect(loaded.torn).toBe(true);
    expect(loaded.index.size).toBe(2);
    expect(loaded.index.similarity(vec(0, 1, 0), loaded.index.slotOf(8))).toBeCloseTo(1, 2);
    const damaged = file.slice(0, head.length + second.length - 1);
    expect(VectorIndex.load("m", damaged, null).index.size).toBe(1);
    const other = VectorIndex.load("n", file, null);
    expect(other.index.size).toBe(0);
    expect(other.reset).toContain('of model "m", not "n"');
    expect(VectorIndex.load("m", new Uint8Array([1, 2, 3]), null).reset).toContain(
      "not one of ours",
    );
  });

  it("the prefilter keeps every candidate up to its keep count, and the nearest past it", () => {
    const index = new VectorIndex("m", 2);
    index.add(1, vec(1, 1));
    index.add(2, vec(1, -1));
    index.add(3, vec(-1, -1));
    const block = (hash: number) => ({ hash, line: 0, text: "t", factor: 1 });
    // Table blocks 0, 1 (note 0, a.md): far, mid; 2, 3 (note 1, b.md): near, mid.
    index.setNote("a.md", 1, 1, [block(3), block(2)]);
    index.setNote("b.md", 1, 1, [block(1), block(2)]);
    const table = index.blockTable();
    const q = index.signBits(vec(1, 1));
    expect([...index.prefilter(table, q, null, 4)]).toEqual([0, 1, 2, 3]);
    expect([...index.prefilter(table, q, null, 5)]).toEqual([0, 1, 2, 3]);
    // A tie at the cut (blocks 1 and 3) goes to the first.
    expect([...index.prefilter(table, q, null, 2)]).toEqual([1, 2]);
    expect([...index.prefilter(table, q, null, 1)]).toEqual([2]);
    // Of the visible notes only, however near the others are.
    expect([...index.prefilter(table, q, (n) => n === 0, 1)]).toEqual([1]);
    expect([...index.prefilter(table, q, (n) => n === 0, 5)]).toEqual([0, 1]);
    expect([...index.prefilter(table, q, (n) => n === 1, 2)]).toEqual([2, 3]);
    expect([...index.prefilter(table, q, () => false, 2)]).toEqual([]);
  });

  it("the prefilter asks each note's visibility once, and not of notes far past the cut", () => {
    const index = new VectorIndex("m", 2);
    index.add(1, vec(1, 1));
    index.add(3, vec(-1, -1));
    const block = (hash: number) => ({ hash, line: 0, text: "t", factor: 1 });
    // Notes 0–99 hold a block at distance 0 of the query, notes 100–299 one at distance 2.
    for (let n = 0; n < 300; n++) index.setNote(`n${n}.md`, 1, 1, [block(n < 100 ? 1 : 3)]);
    const table = index.blockTable();
    const q = index.signBits(vec(1, 1));
    const asked: number[] = [];
    const visible = (n: number) => {
      asked.push(n);
      return n % 2 === 0;
    };
    const kept = [...index.prefilter(table, q, visible, 10)];
    expect(kept).toEqual([0, 2, 4, 6, 8, 10, 12, 14, 16, 18]);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((n) => n < 100)).toBe(true);
    expect(new Set(asked).size).toBe(asked.length);
    // When the near notes are all hidden, the far ones are asked too (each once) and kept.
    asked.length = 0;
    const far = [...index.prefilter(table, q, (n) => (asked.push(n), n >= 100), 3)];
    expect(far).toEqual([100, 101, 102]);
    expect(new Set(asked).size).toBe(asked.length);
    expect(asked.some((n) => n >= 100)).toBe(true);
  });

  it("the prefilter keeps what sorting every visible block by distance keeps, whatever the filter", () => {
    // Seeded: 2400 blocks of 384 dimensions over 400 notes, sign codes close to the query's so
    // that distances tie often; the sampled cut and the bands must not change what is kept.
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const dims = 384;
    const index = new VectorIndex("m", dims);
    const query = new Float32Array(dims).map(() => random() - 0.5);
    for (let h = 0; h < 600; h++) {
      const v = Float32Array.from(query, (x) => (random() < 0.05 + (h % 7) * 0.03 ? -x : x));
      index.add(h + 1, v);
    }
    for (let n = 0; n < 400; n++) {
      const blocks = Array.from({ length: 6 }, (_, k) => ({
        hash: 1 + Math.floor(random() * 600),
        line: k,
        text: "t",
        factor: 1,
      }));
      index.setNote(`n${n}.md`, 1, 1, blocks);
    }
    const table = index.blockTable();
    const q = index.signBits(query);
    const distance = Array.from(table.signs.distances(q, null, table.noteOf.length));
    const reference = (visible: (n: number) => boolean, keep: number) =>
      distance
        .map((d, b) => ({ d, b }))
        .filter(({ b }) => visible(table.noteOf[b]!))
        .sort((x, y) => x.d - y.d || x.b - y.b)
        .slice(0, keep)
        .map(({ b }) => b)
        .sort((x, y) => x - y);
    const filters: ((n: number) => boolean)[] = [
      () => true,
      (n) => n % 2 === 0,
      (n) => n % 50 === 3,
      (n) => n === 399,
      () => false,
    ];
    for (const visible of filters)
      for (const keep of [1, 10, 100, 150, 1000, 5000]) {
        const want = reference(visible, keep);
        expect([...index.prefilter(table, q, visible, keep)]).toEqual(want);
        // Told how many blocks are visible, it sizes its first band by them and keeps the same.
        let blocks = 0;
        for (let b = 0; b < table.noteOf.length; b++) if (visible(table.noteOf[b]!)) blocks++;
        expect([...index.prefilter(table, q, visible, keep, blocks)]).toEqual(want);
        // Given the visible blocks themselves, the nearest among them are the same.
        const among = Int32Array.from({ length: table.noteOf.length }, (_, b) => b).filter((b) =>
          visible(table.noteOf[b]!),
        );
        expect([...index.nearestAmong(table, q, among, keep)]).toEqual(want);
      }
    expect([...index.prefilter(table, q, null, 150)]).toEqual(reference(() => true, 150));
  });

  it("the prefilter keeps the same blocks whether WebAssembly (384 dimensions) or JavaScript (352) counts", () => {
    for (const [dims, kernel] of [
      [384, "wasm"],
      [352, "js"],
    ] as const) {
      const index = new VectorIndex("m", dims);
      const blocks = [];
      // The vector of hash 100 + j differs from the query in the sign of 40·j components.
      for (let j = 0; j < 8; j++) {
        const v = new Float32Array(dims).fill(1);
        for (let i = 0; i < 40 * j; i++) v[(i * 7) % dims] = -1;
        index.add(100 + j, v);
      }
      // Block k holds hash 100 + (3k mod 8): hashes 100, 101 and 102 are blocks 0, 3 and 6.
      for (let k = 0; k < 8; k++)
        blocks.push({ hash: 100 + ((k * 3) % 8), line: k, text: "t", factor: 1 });
      index.setNote("a.md", 1, 1, blocks);
      const table = index.blockTable();
      expect(table.signs.kernel).toBe(kernel);
      const q = index.signBits(new Float32Array(dims).fill(1));
      expect([...index.prefilter(table, q, null, 3)]).toEqual([0, 3, 6]);
      expect([...index.prefilter(table, q, null, 4)]).toEqual([0, 1, 3, 6]);
    }
  });

  it("scores gives similarity's cosines exactly, whatever the dimensions", () => {
    for (const dims of [384, 7]) {
      const index = new VectorIndex("m", dims);
      const blocks = [];
      for (let j = 0; j < 5; j++) {
        index.add(
          10 + j,
          Float32Array.from({ length: dims }, (_, i) => Math.sin(i * 1.7 + j)),
        );
        blocks.push({ hash: 10 + j, line: j, text: "t", factor: 1 });
      }
      index.setNote("a.md", 1, 1, blocks);
      const table = index.blockTable();
      const q = normalize(Float32Array.from({ length: dims }, (_, i) => Math.cos(i * 0.3)));
      const positions = Int32Array.from([4, 0, 2]);
      const out = new Float64Array(3);
      index.scores(q, table, positions, 3, out);
      expect([...out]).toEqual([...positions].map((b) => index.similarity(q, table.slots[b]!)));
    }
  });

  it("the block table lists each note's blocks with vectors, and follows setNote and relink", () => {
    const index = new VectorIndex("m", 3);
    index.add(1, vec(1, 0, 0));
    const block = (hash: number, line: number) => ({ hash, line, text: "t", factor: 0.5 });
    index.setNote("a.md", 1, 1, [block(1, 0), block(2, 3)]);
    index.setNote("b.md", 1, 1, [block(1, 5)]);
    const first = index.blockTable();
    expect(first.paths).toEqual(["a.md", "b.md"]);
    expect([...first.start]).toEqual([0, 1, 2]);
    expect([...first.lines]).toEqual([0, 5]);
    expect(index.blockTable()).toBe(first);
    // Hash 2 gets its vector: relink puts the block in the next table.
    index.add(2, vec(0, 1, 0));
    index.relink();
    const second = index.blockTable();
    expect([...second.start]).toEqual([0, 2, 3]);
    expect([...second.lines]).toEqual([0, 3, 5]);
    expect([...second.slots]).toEqual([0, 1, 0]);
    index.setNote("b.md", 2, 2, []);
    expect([...index.blockTable().start]).toEqual([0, 2, 2]);
  });

  it("embeds the blocks passages use: no headings, none of a note over the size cap", () => {
    const text = "---\ntitle: x\n---\n# Head\n\nFirst block.\n\n- item ^b1\n";
    expect(embeddableBlocks(text, "a.md", false).map((b) => [b.line, b.text])).toEqual([
      [2, "First block."],
      [4, "- item"],
    ]);
    expect(embeddableBlocks(text, "a.md", true)).toEqual([]);
  });
});
