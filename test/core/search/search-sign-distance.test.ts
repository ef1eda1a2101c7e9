// The prefilter's Hamming distances (src/core/search/sign-distance.ts): the WebAssembly SIMD
// kernel gives the JavaScript count's distances for any bits, block size and positions, and
// refuses to read outside its blocks.
import { describe, expect, it } from "vitest";
import { signCodes } from "../../../src/core/search/sign-distance";
import { rng as random } from "../../../bench/lib/synthetic-vault";

/** Hamming distance counted bit by bit: the reference. */
function naive(bits: Uint32Array, words: number, block: number, query: Uint32Array): number {
  let d = 0;
  for (let w = 0; w < words; w++) {
    const x = (bits[block * words + w]! ^ query[w]!) >>> 0;
    for (let i = 0; i < 32; i++) d += (x >>> i) & 1;
  }
  return d;
}

describe("sign distances", () => {
  it("WebAssembly and JavaScript give the bit-by-bit distances, with and without positions", () => {
    const next = random(7);
    const word = () => (next() * 2 ** 32) >>> 0;
    // 124 words are the most the unrolled sweep takes (31 lanes), 128 go the general way.
    for (const words of [4, 8, 12, 24, 48, 124, 128, 11, 5]) {
      for (const blocks of [1, 3, 64, 517]) {
        const wasm = signCodes(blocks, words);
        const js = signCodes(blocks, words, "js");
        // Node 20 has WebAssembly SIMD: a silent fall-back to JavaScript would fail here.
        expect(wasm.kernel).toBe(words % 4 === 0 ? "wasm" : "js");
        expect(js.kernel).toBe("js");
        for (let i = 0; i < blocks * words; i++) {
          // All bits set or none now and then: distances of 0 and of every bit.
          const x = i % 97 === 0 ? 0xffffffff : i % 89 === 0 ? 0 : word();
          wasm.bits[i] = x;
          js.bits[i] = x;
        }
        const query = Uint32Array.from({ length: words }, word);
        const expected = Array.from({ length: blocks }, (_, b) => naive(js.bits, words, b, query));
        expect(Array.from(wasm.distances(query, null, blocks))).toEqual(expected);
        expect(Array.from(js.distances(query, null, blocks))).toEqual(expected);
        // Some blocks, repeated and out of order, and fewer than the array holds.
        const positions = Int32Array.from({ length: blocks + 5 }, () =>
          Math.floor(next() * blocks),
        );
        const count = Math.max(1, blocks - 1);
        const picked = Array.from(positions.subarray(0, count), (b) => expected[b]);
        expect(Array.from(wasm.distances(query, positions, count))).toEqual(picked);
        expect(Array.from(js.distances(query, positions, count))).toEqual(picked);
      }
    }
  });

  it("within gives the blocks whose last distance lies in the range, both ends included, by either kernel", () => {
    const next = random(11);
    const blocks = 700;
    const words = 12;
    const wasm = signCodes(blocks, words);
    const js = signCodes(blocks, words, "js");
    expect(wasm.kernel).toBe("wasm");
    for (let i = 0; i < blocks * words; i++) {
      // Close to the query (all zero) so that distances tie often at the range's ends.
      const x = next() < 0.5 ? 0 : 1 << Math.floor(next() * 32);
      wasm.bits[i] = x;
      js.bits[i] = x;
    }
    const query = new Uint32Array(words);
    const distance = Array.from(js.distances(query, null, blocks));
    wasm.distances(query, null, blocks);
    for (const [from, to] of [
      [0, 0],
      [2, 4],
      [3, 3],
      [5, 384],
      [4, 2],
      [0, 384],
    ] as const) {
      for (const count of [blocks, 300]) {
        const want: number[] = [];
        for (let b = 0; b < count; b++)
          if (distance[b]! >= from && distance[b]! <= to) want.push(b);
        expect(Array.from(wasm.within(from, to, count))).toEqual(want);
        expect(Array.from(js.within(from, to, count))).toEqual(want);
      }
    }
    // The ends matter: a range one short at either end leaves out the blocks at that distance.
    const at3 = distance.filter((d) => d === 3).length;
    expect(at3).toBeGreaterThan(0);
    expect(wasm.within(3, 4, blocks).length - wasm.within(4, 4, blocks).length).toBe(at3);
    expect(() => wasm.within(0, 1, blocks + 1)).toThrow(RangeError);
    expect(() => js.within(0, 1, blocks + 1)).toThrow(RangeError);
  });

  it("refuses more blocks than it holds, and a position outside them", () => {
    for (const codes of [signCodes(4, 12), signCodes(4, 12, "js")]) {
      const query = new Uint32Array(12);
      expect(() => codes.distances(query, null, 5)).toThrow(RangeError);
      expect(() => codes.distances(query, Int32Array.from([0, 1]), 3)).toThrow(RangeError);
      if (codes.kernel === "wasm")
        expect(() => codes.distances(query, Int32Array.from([0, 4]), 2)).toThrow("block 4 of 4");
      expect(Array.from(codes.distances(query, null, 0))).toEqual([]);
    }
  });
});
