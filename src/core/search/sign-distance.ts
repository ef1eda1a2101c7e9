/**
 * Hamming distances between a query's sign bits and every block's, the vector prefilter's inner
 * loop ({@link VectorIndex.prefilter} in `./vectors.ts`; docs/decisions.md, "The prefilter counts
 * sign bits with WebAssembly SIMD"). Where WebAssembly with 128-bit SIMD is there (Node 20,
 * Electron, current browsers) and a block's bits are a whole number of 16-byte lanes (384
 * dimensions: 3), the bits live in the memory of a small WebAssembly module that counts them with
 * `i8x16.popcnt`; elsewhere the same distances are counted in JavaScript, by 16-bit halves from a
 * 64 KB table. Both give the same distances, so the blocks kept never depend on the path.
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
  uleb,
} from "./wasm-bytes";

/** Bits set in each 16-bit number (64 KB, built once): JavaScript counts a word by halves. */
const POPCOUNT16 = (() => {
  const t = new Uint8Array(1 << 16);
  for (let i = 1; i < t.length; i++) t[i] = (i & 1) + t[i >>> 1]!;
  return t;
})();

/** Bits set in the 32-bit integer `x` (SWAR; small enough for V8 to inline in a loop). */
function popcount(x: number): number {
  x = (x - ((x >>> 1) & 0x55555555)) | 0;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/**
 * The sign bits of `blocks` blocks, `words` 32-bit words each, and the count of their distances to
 * a query. Fill {@link bits} (block `b`'s words at `b * words`), then ask {@link distances}.
 */
export interface SignCodes {
  readonly words: number;
  /** `blocks * words` words, zero when made. */
  readonly bits: Uint32Array;
  /** `wasm` when WebAssembly SIMD counts, `js` otherwise. */
  readonly kernel: "wasm" | "js";
  /**
   * The Hamming distance of `query` (`words` words) to the blocks at `positions[0..count)` (blocks
   * `0..count` when `positions` is `null`): element `i` of the array returned. The array is
   * scratch, valid until the next call on any codes (used synchronously).
   * @throws RangeError when `count` exceeds the blocks, or a position is outside them
   */
  distances(query: Uint32Array, positions: Int32Array | null, count: number): Uint16Array;
  /**
   * Of the distances the last {@link distances} call returned for blocks `0..count` (`positions`
   * `null`), the blocks whose distance is `from` to `to`, both included, in block order. The
   * array is scratch like the distances (the next `distances` or `within` call overwrites it);
   * the distances stay as they were.
   * @throws RangeError when `count` exceeds the blocks
   */
  within(from: number, to: number, count: number): Int32Array;
}

/** Scratch of the JavaScript path, one distance per block, grown as needed. */
let scratch = new Uint16Array(0);

/** Distances in JavaScript (see {@link SignCodes.distances}). */
function jsDistances(
  bits: Uint32Array,
  words: number,
  blocks: number,
  query: Uint32Array,
  positions: Int32Array | null,
  count: number,
): Uint16Array {
  checkRange(blocks, positions, count);
  if (scratch.length < count) scratch = new Uint16Array(count);
  const distance = scratch;
  if (words === 12) {
    // 384 dimensions, the common size: the twelve words unrolled, each counted by halves.
    const q = query;
    const t = POPCOUNT16;
    const q0 = q[0]!,
      q1 = q[1]!,
      q2 = q[2]!,
      q3 = q[3]!,
      q4 = q[4]!,
      q5 = q[5]!;
    const q6 = q[6]!,
      q7 = q[7]!,
      q8 = q[8]!,
      q9 = q[9]!,
      q10 = q[10]!,
      q11 = q[11]!;
    for (let i = 0; i < count; i++) {
      const base = (positions === null ? i : positions[i]!) * 12;
      const x0 = bits[base]! ^ q0,
        x1 = bits[base + 1]! ^ q1,
        x2 = bits[base + 2]! ^ q2;
      const x3 = bits[base + 3]! ^ q3,
        x4 = bits[base + 4]! ^ q4,
        x5 = bits[base + 5]! ^ q5;
      const x6 = bits[base + 6]! ^ q6,
        x7 = bits[base + 7]! ^ q7,
        x8 = bits[base + 8]! ^ q8;
      const x9 = bits[base + 9]! ^ q9,
        x10 = bits[base + 10]! ^ q10,
        x11 = bits[base + 11]! ^ q11;
      distance[i] =
        t[x0 & 0xffff]! +
        t[x0 >>> 16]! +
        t[x1 & 0xffff]! +
        t[x1 >>> 16]! +
        t[x2 & 0xffff]! +
        t[x2 >>> 16]! +
        t[x3 & 0xffff]! +
        t[x3 >>> 16]! +
        t[x4 & 0xffff]! +
        t[x4 >>> 16]! +
        t[x5 & 0xffff]! +
        t[x5 >>> 16]! +
        t[x6 & 0xffff]! +
        t[x6 >>> 16]! +
        t[x7 & 0xffff]! +
        t[x7 >>> 16]! +
        t[x8 & 0xffff]! +
        t[x8 >>> 16]! +
        t[x9 & 0xffff]! +
        t[x9 >>> 16]! +
        t[x10 & 0xffff]! +
        t[x10 >>> 16]! +
        t[x11 & 0xffff]! +
        t[x11 >>> 16]!;
    }
  } else {
    for (let i = 0; i < count; i++) {
      const base = (positions ? positions[i]! : i) * words;
      let d = 0;
      for (let w = 0; w < words; w++) d += popcount(bits[base + w]! ^ query[w]!);
      distance[i] = d;
    }
  }
  return distance.subarray(0, count);
}

/** Scratch of the JavaScript path's {@link SignCodes.within}, grown as needed. */
let band = new Int32Array(0);

/** {@link SignCodes.within} in JavaScript, over `distance` (the last distances). */
function jsWithin(distance: Uint16Array, from: number, to: number, count: number): Int32Array {
  if (count > distance.length || count < 0)
    throw new RangeError(`sign distances: ${count} blocks asked of ${distance.length}`);
  if (band.length < count) band = new Int32Array(count);
  if (to < from) return band.subarray(0, 0);
  const span = to - from;
  let n = 0;
  for (let i = 0; i < count; i++) if ((distance[i]! - from) >>> 0 <= span) band[n++] = i;
  return band.subarray(0, n);
}

/** Throws when `count` or a position falls outside `blocks` blocks. */
function checkRange(blocks: number, positions: Int32Array | null, count: number): void {
  if (count > (positions ? positions.length : blocks) || count < 0)
    throw new RangeError(`sign distances: ${count} blocks asked of ${blocks}`);
}

/**
 * The WebAssembly module (hand-assembled; the text form is beside each part). It imports
 * `env.memory` and exports `distances(q, bits, pos, count, lanes, out, hasPos)`: for each
 * `i < count`, block `b = hasPos ? i32[pos + 4i] : i`, it writes to the u16 at `out + 2i` the
 * number of bits set in the XOR of the `lanes` 16-byte lanes at `bits + b * lanes * 16` with those
 * at `q` (i8x16.popcnt per lane, widened to i16 lanes and summed).
 */
const MODULE = (() => {
  // Locals: 0 q, 1 bits, 2 pos, 3 count, 4 lanes, 5 out, 6 hasPos; 7 i, 8 p, 9 c, 10 qq; 11 acc (v128).
  const body = [
    ...[2, 4, 0x7f, 1, 0x7b], // locals: two groups, 4 × i32 and 1 × v128
    ...[0x02, 0x40], // block
    ...[0x03, 0x40], //   loop
    ...get(7),
    ...get(3),
    0x4f, //     i32.ge_u
    ...[0x0d, 1], //     br_if 1 (done)
    ...get(6),
    ...[0x04, 0x7f], //     if (result i32): the block's number
    ...get(2),
    ...get(7),
    ...i32(2),
    0x74, //       i32.shl
    0x6a, //       i32.add
    ...[0x28, 2, 0], //       i32.load align=4
    0x05, //     else
    ...get(7),
    0x0b, //     end
    ...get(4),
    0x6c, //     i32.mul
    ...i32(4),
    0x74, //     i32.shl (× 16 bytes a lane)
    ...get(1),
    0x6a, //     i32.add
    ...set(8), //     p = bits + b * lanes * 16
    ...get(0),
    ...set(10), //     qq = q
    ...get(4),
    ...set(9), //     c = lanes
    ...simd(0x0c),
    ...new Array<number>(16).fill(0), //     v128.const 0
    ...set(11), //     acc = 0
    ...[0x03, 0x40], //     loop (each lane)
    ...get(11),
    ...get(8),
    ...simd(0x00),
    ...[4, 0], //       v128.load align=16
    ...get(10),
    ...simd(0x00),
    ...[4, 0], //       v128.load align=16
    ...simd(0x51), //       v128.xor
    ...simd(0x62), //       i8x16.popcnt
    ...simd(0x7d), //       i16x8.extadd_pairwise_i8x16_u
    ...simd(0x8e), //       i16x8.add
    ...set(11),
    ...addTo(8, 16), //       p += 16
    ...addTo(10, 16), //       qq += 16
    ...countDown(9), //       br_if 0 (another lane)
    0x0b, //     end
    ...get(5),
    ...get(7),
    ...i32(1),
    0x74,
    0x6a, //     out + 2i
    ...get(11),
    ...simd(0x7f), //     i32x4.extadd_pairwise_i16x8_u
    ...set(11),
    ...sumLanes(11), //     the four lanes summed
    ...[0x3b, 1, 0], //     i32.store16 align=2
    ...addTo(7, 1), //     i++
    ...[0x0c, 0], //     br 0
    0x0b, //   end
    0x0b, // end
    0x0b, // end of the function
  ];
  // within(dist, count, from, span, out, nAt): for each i < count, i is written at out + 4n and n
  // counts it when (u16 at dist + 2i) - from ≤ span, unsigned (no branch); n is stored at nAt.
  // Locals: 0 dist, 1 count, 2 from, 3 span, 4 out, 5 nAt; 6 i, 7 n.
  const within = [
    ...[1, 2, 0x7f], // locals: 2 × i32
    ...[0x02, 0x40], // block
    ...[0x03, 0x40], //   loop
    ...get(6),
    ...get(1),
    0x4f, //     i32.ge_u
    ...[0x0d, 1], //     br_if 1 (done)
    ...get(4),
    ...get(7),
    ...i32(2),
    0x74,
    0x6a, //     out + 4n
    ...get(6),
    ...[0x36, 2, 0], //     i32.store align=4: i
    ...get(7),
    ...get(0),
    ...get(6),
    ...i32(1),
    0x74,
    0x6a,
    ...[0x2f, 1, 0], //     i32.load16_u align=2: the distance
    ...get(2),
    0x6b, //     i32.sub
    ...get(3),
    0x4d, //     i32.le_u
    0x6a, //     n + (d - from ≤ span)
    ...set(7),
    ...addTo(6, 1), //     i++
    ...[0x0c, 0], //     br 0
    0x0b, //   end
    0x0b, // end
    ...get(5),
    ...get(7),
    ...[0x36, 2, 0], // i32.store: n at nAt
    0x0b, // end of the function
  ];
  return moduleBytes([
    { name: "distances", params: 7, body },
    { name: "within", params: 6, body: within },
  ]);
})();

/** The compiled module, `null` where WebAssembly SIMD is not there (compiled once, on first use). */
const wasmModule = lazyModule(MODULE);

/**
 * Most lanes a block may have for {@link sweepModule}: it adds the lanes' popcounts byte by byte,
 * at most 8 each, and 31 × 8 is the most a byte holds.
 */
const SWEEP_LANES = 31;

/**
 * A module exporting `sweep(q, bits, count, out)`: the distances of blocks `0..count` of `lanes`
 * 16-byte lanes, as `distances` without positions gives them, with the lanes unrolled: each lane's
 * XOR with the query's is counted by `i8x16.popcnt` and the counts added byte by byte, then
 * widened and summed once per block (the loop over lanes, and a sum per lane, were most of what
 * `distances` did per block; docs/decisions.md, "The vector side skips what cannot change its top").
 */
export function sweepModule(lanes: number): Uint8Array<ArrayBuffer> {
  const load = (local: number, lane: number) => [
    ...get(local),
    ...simd(0x00),
    4,
    ...uleb(lane * 16),
  ];
  const counted: number[] = [];
  const query: number[] = [];
  for (let lane = 0; lane < lanes; lane++) {
    query.push(...load(0, lane), ...set(7 + lane)); // the query's lane, read once
    counted.push(...load(5, lane), ...get(7 + lane), ...simd(0x51), ...simd(0x62)); // xor, popcnt
    if (lane > 0) counted.push(...simd(0x6e)); // i8x16.add
  }
  // Locals: 0 q, 1 bits, 2 count, 3 out; 4 i, 5 p; 6 acc, 7… the query's lanes (v128).
  const body = [
    ...[2, 2, 0x7f, 1 + lanes, 0x7b], // locals: 2 × i32, 1 + lanes × v128
    ...query,
    ...get(1),
    ...set(5), // p = bits
    ...[0x02, 0x40], // block
    ...[0x03, 0x40], //   loop
    ...get(4),
    ...get(2),
    0x4f, //     i32.ge_u
    ...[0x0d, 1], //     br_if 1 (done)
    ...counted, //     the lanes' popcounts, added byte by byte
    ...simd(0x7d), //     i16x8.extadd_pairwise_i8x16_u
    ...simd(0x7f), //     i32x4.extadd_pairwise_i16x8_u
    ...set(6),
    ...get(3),
    ...get(4),
    ...i32(1),
    0x74,
    0x6a, //     out + 2i
    ...sumLanes(6), //     the four lanes summed
    ...[0x3b, 1, 0], //     i32.store16 align=2
    ...addTo(5, lanes * 16), //     p += the block's bytes
    ...addTo(4, 1), //     i++
    ...[0x0c, 0], //     br 0
    0x0b, //   end
    0x0b, // end
    0x0b, // end of the function
  ];
  return moduleBytes("sweep", 4, body);
}

/** The compiled {@link sweepModule} of each lane count asked (`null` where SIMD is not there). */
const sweepModules = new Map<number, () => WebAssembly.Module | null>();

function sweepFor(lanes: number): WebAssembly.Module | null {
  if (lanes < 1 || lanes > SWEEP_LANES) return null;
  let module = sweepModules.get(lanes);
  if (!module) sweepModules.set(lanes, (module = lazyModule(sweepModule(lanes))));
  return module();
}

/** Rounded up to a multiple of 16 bytes. */
const align16 = (n: number) => Math.ceil(n / 16) * 16;

/**
 * Sign codes of `blocks` blocks of `words` words: counted by WebAssembly SIMD when it is there and
 * `words` is a multiple of 4 (unless `kernel` is `"js"`, which tests use to compare the two).
 * The WebAssembly memory is sized once for the bits, the query, the positions and the distances,
 * and never grows, so the views stay valid.
 */
export function signCodes(blocks: number, words: number, kernel?: "js"): SignCodes {
  const module = kernel === "js" || words % 4 !== 0 || blocks === 0 ? null : wasmModule();
  if (module) {
    try {
      return wasmCodes(module, blocks, words);
    } catch {
      // Memory refused (a limit of the host): counted in JavaScript instead.
    }
  }
  const bits = new Uint32Array(blocks * words);
  let last: Uint16Array = new Uint16Array(0);
  return {
    words,
    bits,
    kernel: "js",
    distances: (query, positions, count) =>
      (last = jsDistances(bits, words, blocks, query, positions, count)),
    within: (from, to, count) => jsWithin(last, from, to, count),
  };
}

function wasmCodes(module: WebAssembly.Module, blocks: number, words: number): SignCodes {
  const bitsAt = 0;
  const queryAt = align16(blocks * words * 4);
  const posAt = queryAt + align16(words * 4);
  const outAt = posAt + align16(blocks * 4);
  const nAt = outAt + align16(blocks * 2);
  const bytes = nAt + 16;
  const { exports, buffer, memory } = instantiate(module, bytes);
  const run = exports.distances as (...args: number[]) => void;
  const sweeping = sweepFor(words / 4);
  const sweep = sweeping
    ? (instantiate(sweeping, memory).exports.sweep as (...args: number[]) => void)
    : null;
  const runWithin = exports.within as (...args: number[]) => void;
  const found = new Int32Array(buffer, nAt, 1);
  const bits = new Uint32Array(buffer, bitsAt, blocks * words);
  const query = new Uint32Array(buffer, queryAt, words);
  const pos = new Int32Array(buffer, posAt, blocks);
  const out = new Uint16Array(buffer, outAt, blocks);
  return {
    words,
    bits,
    kernel: "wasm",
    distances: (q, positions, count) => {
      checkRange(blocks, positions, count);
      query.set(q.subarray(0, words));
      if (positions) {
        // A position outside the blocks would read another part of the memory: refused.
        for (let i = 0; i < count; i++)
          if (positions[i]! >>> 0 >= blocks)
            throw new RangeError(`sign distances: block ${positions[i]} of ${blocks}`);
        pos.set(positions.subarray(0, count));
      }
      if (!positions && sweep) sweep(queryAt, bitsAt, count, outAt);
      else run(queryAt, bitsAt, posAt, count, words / 4, outAt, positions ? 1 : 0);
      return out.subarray(0, count);
    },
    within: (from, to, count) => {
      checkRange(blocks, null, count);
      if (to < from) return pos.subarray(0, 0);
      runWithin(outAt, count, from, to - from, posAt, nAt);
      return pos.subarray(0, found[0]);
    },
  };
}
