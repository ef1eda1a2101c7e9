// Int8 dot products of the vector search (src/core/search/int8-dot.ts): the WebAssembly SIMD path
// and JavaScript's give the same integers; the int16 query never lets a sum leave 32 bits; the
// cosine stays within quantisation error of float32's.
import { describe, expect, it } from "vitest";
import { dotProducts, int16Query } from "../../../src/core/search/int8-dot";

function seeded(seed: number): () => number {
  return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

describe("int8 dot products", () => {
  it("WebAssembly and JavaScript give the same integers, in any slot order", () => {
    const random = seeded(3);
    for (const dims of [16, 384, 1536]) {
      const slots = 50;
      const codes = Int8Array.from({ length: slots * dims }, () =>
        Math.round(random() * 254 - 127),
      );
      const query = int16Query(Float32Array.from({ length: dims }, () => random() - 0.5));
      const order = [7, 0, 49, 7, 3, 12, 31];
      const wasm = new Float64Array(order.length);
      const js = new Float64Array(order.length);
      expect(dotProducts(query, codes, dims, (i) => order[i]!, order.length, wasm)).toBe("wasm");
      expect(dotProducts(query, codes, dims, (i) => order[i]!, order.length, js, "js")).toBe("js");
      expect([...wasm]).toEqual([...js]);
      // Each is the plain sum of products.
      const s = order[2]!;
      let sum = 0;
      for (let d = 0; d < dims; d++) sum += query.codes[d]! * codes[s * dims + d]!;
      expect(wasm[2]).toBe(sum);
    }
  });

  it("codes that start anywhere in their buffer are read from where they start", () => {
    // Copied to the kernel four codes at a time where they start at a multiple of 4 bytes, one
    // by one elsewhere: both read the codes, not what lies before them.
    const random = seeded(5);
    const dims = 384;
    const slots = 20;
    const query = int16Query(Float32Array.from({ length: dims }, () => random() - 0.5));
    const order = [19, 0, 5, 5, 11];
    for (const offset of [0, 4, 1, 2, 12]) {
      const buffer = new ArrayBuffer(offset + slots * dims);
      new Int8Array(buffer).fill(99);
      const codes = new Int8Array(buffer, offset, slots * dims);
      codes.set(Int8Array.from({ length: slots * dims }, () => Math.round(random() * 254 - 127)));
      const wasm = new Float64Array(order.length);
      const js = new Float64Array(order.length);
      expect(dotProducts(query, codes, dims, (i) => order[i]!, order.length, wasm)).toBe("wasm");
      dotProducts(query, codes.slice(), dims, (i) => order[i]!, order.length, js, "js");
      expect([...wasm], `offset ${offset}`).toEqual([...js]);
    }
  });

  it("dimensions that are not whole 16-byte lanes are added in JavaScript", () => {
    const codes = Int8Array.from([1, 2, 3, 4, 5, 6, 7]);
    const query = int16Query(Float32Array.from([1, 0, 0, 0, 0, 0, -1]));
    const out = new Float64Array(1);
    expect(dotProducts(query, codes, 7, () => 0, 1, out)).toBe("js");
    expect(out[0]).toBe(32767 * 1 - 32767 * 7);
  });

  it("a query of equal components against codes of 127 stays within 32 bits, and both paths agree", () => {
    const dims = 1536;
    const codes = new Int8Array(2 * dims).fill(127);
    codes.fill(-127, dims);
    const query = int16Query(new Float32Array(dims).fill(1 / Math.sqrt(dims)));
    let total = 0;
    for (const c of query.codes) total += Math.abs(c);
    expect(total * 127).toBeLessThan(2 ** 31);
    const wasm = new Float64Array(2);
    const js = new Float64Array(2);
    dotProducts(query, codes, dims, (i) => i, 2, wasm);
    dotProducts(query, codes, dims, (i) => i, 2, js, "js");
    expect([...wasm]).toEqual([...js]);
    expect(wasm[0]).toBe(total * 127);
    expect(wasm[1]).toBe(-total * 127);
    // The scale undoes the codes: 1536 components of 1/√1536 against 1 each.
    const expected = 127 * Math.sqrt(dims);
    expect(Math.abs(wasm[0]! * query.scale - expected) / expected).toBeLessThan(1e-3);
  });

  it("a small query keeps the full int16 range; a zero query scores 0", () => {
    const q = int16Query(Float32Array.from([0.5, -0.25, 0]));
    // −16383.5 rounds up (Math.round).
    expect([...q.codes]).toEqual([32767, -16383, 0]);
    expect(q.scale).toBeCloseTo(0.5 / 32767, 12);
    const zero = int16Query(new Float32Array(16));
    const out = new Float64Array(1);
    dotProducts(zero, new Int8Array(16).fill(100), 16, () => 0, 1, out);
    expect(out[0]! * zero.scale).toBe(0);
  });
  it("a unit query's int16 dot product stays within 10^-4 of its float dot product", () => {
    const random = seeded(11);
    const dims = 384;
    let worst = 0;
    for (let t = 0; t < 200; t++) {
      const raw = Float32Array.from({ length: dims }, () => random() - 0.5);
      const norm = Math.hypot(...raw);
      const q = raw.map((x) => x / norm);
      // A unit vector quantised to int8 as the index keeps it: codes and a scale.
      const v = Float32Array.from({ length: dims }, () => random() - 0.5);
      const vNorm = Math.hypot(...v);
      const vMax = Math.max(...v.map(Math.abs)) / vNorm;
      const scale = vMax / 127;
      const codes = Int8Array.from(v, (x) => Math.round(x / vNorm / scale));
      let exact = 0;
      for (let d = 0; d < dims; d++) exact += q[d]! * codes[d]! * scale;
      const out = new Float64Array(1);
      const q16 = int16Query(q);
      dotProducts(q16, codes, dims, () => 0, 1, out);
      worst = Math.max(worst, Math.abs(out[0]! * q16.scale * scale - exact));
    }
    expect(worst).toBeGreaterThan(0);
    expect(worst).toBeLessThan(1e-4);
  });
});
