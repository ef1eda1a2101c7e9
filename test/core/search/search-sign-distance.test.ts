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
    for (const words of [4, 8, 12, 24, 48, 11, 5]) {
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
