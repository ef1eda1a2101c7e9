/**
 * Dot products of a query with int8 vectors, the vector search's scoring of the prefilter's
 * candidates ({@link VectorIndex.scores} in `./vectors.ts`; docs/decisions.md, "Int8 scores are
 * integer dot products with an int16 query"). The query is quantised to int16 (its largest
 * component to 32,767), so a score is an exact integer sum whatever the order it is added in:
 * where WebAssembly with 128-bit SIMD is there and the dimensions are a whole number of 16-byte
 * lanes (384: 24), the candidates' codes are copied into the memory of a small WebAssembly module
 * that multiplies them eight at a time (`i32x4.dot_i16x8_s`); elsewhere JavaScript adds the same
 * products one by one. Both give the same integers, so the ranking never depends on the path.
 */
import {
  addTo,
  countDown,
  get,
  i32,
  instantiate,
  lazyModule,
  moduleBytes,
  set,
  simd,
  sumLanes,
} from "./wasm-bytes";

/** The query as {@link dotProducts} reads it: int16 components and the scale that undoes them. */
export interface Int16Query {
  /** `round(q[i] / scale)`, each within ±32,767. */
  readonly codes: Int16Array;
  /**
   * The query's largest absolute component / 32,767, or more where the query's components add up
   * to so much that a dot product with int8 codes could pass 2^31 (see {@link int16Query}); 0 for
   * a zero query.
   */
  readonly scale: number;
}

/**
 * `query` quantised to int16 (see {@link Int16Query}). The scale keeps Σ |codes| · 127 within
 * 2^30 (plus the rounding, 64 · 127 per component at most), so no dot product with int8 codes,
 * nor any partial sum of one, leaves a 32-bit integer: a vector of 1,536 equal components would
 * otherwise reach 6.4 · 10^9.
 */
export function int16Query(query: Float32Array): Int16Query {
  let max = 0;
  let total = 0;
  for (let i = 0; i < query.length; i++) {
    const a = Math.abs(query[i]!);
    max = Math.max(max, a);
    total += a;
  }
  const scale = Math.max(max / 32767, (total * 127) / 2 ** 30);
  const codes = new Int16Array(query.length);
  if (scale > 0) for (let i = 0; i < query.length; i++) codes[i] = Math.round(query[i]! / scale);
  return { codes, scale };
}

/**
 * The module (hand-assembled; the text form is beside each part). It imports `env.memory` and
 * exports `dots(q, codes, count, lanes, out)`: for each `i < count` it writes to the i32 at
 * `out + 4i` the dot product of the `lanes * 16` int8 codes at `codes + i * lanes * 16` with the
 * int16 query at `q` (each 16 codes widened to two i16x8 halves, multiplied and added in pairs).
 */
const MODULE = (() => {
  // Locals: 0 q, 1 codes, 2 count, 3 lanes, 4 out; 5 i, 6 p, 7 qq, 8 c; 9 acc, 10 v (v128).
  const load = (offset: number) => [...simd(0x00), 4, offset]; // v128.load align=16
  const body = [
    ...[2, 4, 0x7f, 2, 0x7b], // locals: 4 × i32, 2 × v128
    ...get(1),
    ...set(6), // p = codes
    ...[0x02, 0x40], // block
    ...[0x03, 0x40], //   loop (each vector)
    ...get(5),
    ...get(2),
    0x4f, //     i32.ge_u
    ...[0x0d, 1], //     br_if 1 (done)
    ...get(0),
    ...set(7), //     qq = q
    ...get(3),
    ...set(8), //     c = lanes
    ...simd(0x0c),
    ...new Array<number>(16).fill(0), //     v128.const 0
    ...set(9), //     acc = 0
    ...[0x03, 0x40], //     loop (each 16 codes)
    ...get(6),
    ...load(0),
    ...set(10), //       v = the 16 codes at p
    ...get(9),
    ...get(10),
    ...simd(0x87), //       i16x8.extend_low_i8x16_s
    ...get(7),
    ...load(0),
    ...simd(0xba), //       i32x4.dot_i16x8_s (with q's first eight)
    ...simd(0xae), //       i32x4.add
    ...get(10),
    ...simd(0x88), //       i16x8.extend_high_i8x16_s
    ...get(7),
    ...load(16),
    ...simd(0xba), //       i32x4.dot_i16x8_s (with q's next eight)
    ...simd(0xae), //       i32x4.add
    ...set(9),
    ...addTo(6, 16), //       p += 16
    ...addTo(7, 32), //       qq += 32
    ...countDown(8), //       br_if 0 (more codes)
    0x0b, //     end
    ...get(4),
    ...get(5),
    ...i32(2),
    0x74, //     i32.shl
    0x6a, //     out + 4i
    ...sumLanes(9), //     the four lanes summed
    ...[0x36, 2, 0], //     i32.store align=4
    ...addTo(5, 1), //     i++
    ...[0x0c, 0], //     br 0
    0x0b, //   end
    0x0b, // end
    0x0b, // end of the function
  ];
  return moduleBytes("dots", 5, body);
})();

/** The compiled module, `null` where WebAssembly SIMD is not there (compiled once, on first use). */
const wasmModule = lazyModule(MODULE);

/** The module's memory and views, for up to `capacity` vectors of `dims` codes. */
interface Kernel {
  dims: number;
  capacity: number;
  run: (q: number, codes: number, count: number, lanes: number, out: number) => void;
  query: Int16Array;
  codes: Int8Array;
  /** {@link Kernel.codes} as 32-bit words (dimensions are whole 16-byte lanes). */
  codes32: Int32Array;
  out: Int32Array;
  queryAt: number;
  codesAt: number;
  outAt: number;
}

/** One kernel, grown (made anew) when a call needs more room or other dimensions. */
let kernel: Kernel | null = null;

function kernelFor(dims: number, count: number): Kernel | null {
  if (kernel && kernel.dims === dims && kernel.capacity >= count) return kernel;
  const module = wasmModule();
  if (module === null) return null;
  const capacity = Math.max(count, 1024);
  const queryAt = 0;
  const codesAt = Math.ceil((dims * 2) / 16) * 16;
  const outAt = codesAt + capacity * dims;
  const bytes = outAt + capacity * 4;
  try {
    const { exports, buffer } = instantiate(module, bytes);
    kernel = {
      dims,
      capacity,
      run: exports.dots as Kernel["run"],
      query: new Int16Array(buffer, queryAt, dims),
      codes: new Int8Array(buffer, codesAt, capacity * dims),
      codes32: new Int32Array(buffer, codesAt, (capacity * dims) >> 2),
      out: new Int32Array(buffer, outAt, capacity),
      queryAt,
      codesAt,
      outAt,
    };
    return kernel;
  } catch {
    // Memory refused (a limit of the host): added in JavaScript instead.
    return null;
  }
}

/**
 * Writes to `out[i]` the integer dot product of `query.codes` with the `dims` int8 codes of the
 * vector in slot `slotOf(i)` of `codes` (slot `s` at `s * dims`), for `i < count`. Counted by
 * WebAssembly SIMD when it is there and `dims` is a multiple of 16, unless `path` is `"js"` (which
 * tests use to compare the two); both give the same integers.
 * @returns which path counted
 */
export function dotProducts(
  query: Int16Query,
  codes: Int8Array,
  dims: number,
  slotOf: (i: number) => number,
  count: number,
  out: Int32Array | Float64Array,
  path?: "js",
): "wasm" | "js" {
  const k = path === "js" || dims % 16 !== 0 || count === 0 ? null : kernelFor(dims, count);
  if (k) {
    k.query.set(query.codes);
    if (codes.byteOffset % 4 === 0) {
      // Copied four codes at a time through 32-bit views: a subarray per vector made 87 KB of
      // garbage a query (1,000 views), which the young generation's collections paid for.
      const from = new Int32Array(codes.buffer, codes.byteOffset, codes.length >> 2);
      const to = k.codes32;
      const words = dims >> 2;
      for (let i = 0; i < count; i++) {
        const src = slotOf(i) * words;
        const dst = i * words;
        for (let w = 0; w < words; w++) to[dst + w] = from[src + w]!;
      }
    } else
      for (let i = 0; i < count; i++) {
        const base = slotOf(i) * dims;
        k.codes.set(codes.subarray(base, base + dims), i * dims);
      }
    k.run(k.queryAt, k.codesAt, count, dims / 16, k.outAt);
    for (let i = 0; i < count; i++) out[i] = k.out[i]!;
    return "wasm";
  }
  const q = query.codes;
  for (let i = 0; i < count; i++) {
    const base = slotOf(i) * dims;
    let sum = 0;
    for (let d = 0; d < dims; d++) sum += q[d]! * codes[base + d]!;
    out[i] = sum;
  }
  return "js";
}
