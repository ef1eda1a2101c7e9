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
    // Table blocks 0, 1, 2: far, mid, near.
    index.setNote("a.md", 1, 1, [block(3), block(2), block(1)]);
    const table = index.blockTable();
    const q = index.signBits(vec(1, 1));
    expect([...index.prefilter(table, q, null, 3, 3)]).toEqual([0, 1, 2]);
    expect([...index.prefilter(table, q, null, 3, 2)]).toEqual([1, 2]);
    expect([...index.prefilter(table, q, null, 3, 1)]).toEqual([2]);
    // Over some blocks only, by position; a tie at the cut goes to the first.
    expect([...index.prefilter(table, q, Int32Array.from([0, 1]), 2, 1)]).toEqual([1]);
    expect([...index.prefilter(table, q, Int32Array.from([1, 1, 0]), 3, 1)]).toEqual([1]);
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
      expect([...index.prefilter(table, q, null, 8, 3)]).toEqual([0, 3, 6]);
      expect([...index.prefilter(table, q, null, 8, 4)]).toEqual([0, 1, 3, 6]);
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
