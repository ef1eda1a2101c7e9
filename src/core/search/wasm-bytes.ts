/**
 * The bytes of the small hand-assembled WebAssembly modules the vector search runs (sign-bit
 * distances in `./sign-distance.ts`, int8 dot products in `./int8-dot.ts`; docs/decisions.md, "The
 * prefilter counts sign bits with WebAssembly SIMD"): instruction encodings and the module frame of
 * the WebAssembly binary format (core specification 2.0, section 5), with one imported memory and
 * one exported function of i32 parameters. A module these build is checked by
 * `WebAssembly.validate` before it is compiled ({@link compiledOrNull}).
 */

/** Unsigned LEB128 of `n` (a non-negative 32-bit integer). */
export function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}

/** A SIMD instruction (prefix 0xfd, then its opcode in LEB128). */
export const simd = (op: number): number[] => [0xfd, ...uleb(op)];
/** `local.get l`. */
export const get = (l: number): number[] => [0x20, l];
/** `local.set l`. */
export const set = (l: number): number[] => [0x21, l];
/** `local.tee l`. */
export const tee = (l: number): number[] => [0x22, l];
/** `i32.const n` for an integer 0 ≤ n < 2^31 (signed LEB128). */
export const i32 = (n: number): number[] => {
  if (!(Number.isInteger(n) && n >= 0 && n < 2 ** 31))
    throw new RangeError(`i32 constant ${n} is not an integer in 0 … 2^31 - 1`);
  const out = [0x41];
  for (;;) {
    const byte = n & 0x7f;
    n >>>= 7;
    // The last byte's bit 6 is the sign: a non-negative number ends on a byte where it is 0.
    if (n === 0 && (byte & 0x40) === 0) return [...out, byte];
    out.push(byte | 0x80);
  }
};

/** One exported function of a module: its name, its count of i32 parameters (no result), its code. */
export interface WasmFunction {
  name: string;
  params: number;
  /** Its local declarations, then its instructions, then `end`. */
  body: number[];
}

/**
 * A module importing `env.memory` (at least one page) and exporting `name`, one function of
 * `params` i32 parameters and no result, whose code is `body` (its local declarations first); or,
 * given a list of {@link WasmFunction}s, exporting each.
 */
export function moduleBytes(
  name: string | readonly WasmFunction[],
  params?: number,
  body?: number[],
): Uint8Array<ArrayBuffer> {
  const fns: readonly WasmFunction[] =
    typeof name === "string" ? [{ name, params: params ?? 0, body: body ?? [] }] : name;
  const vec = (bytes: number[]) => [...uleb(bytes.length), ...bytes];
  const list = (items: number[][]) => [...uleb(items.length), ...items.flat()];
  const section = (id: number, bytes: number[]) => [id, ...vec(bytes)];
  const text = (s: string) => vec([...s].map((c) => c.charCodeAt(0)));
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00], // \0asm, version 1
    // One type per function: (i32 …) → ().
    ...section(
      1,
      list(fns.map((f) => [0x60, f.params, ...new Array<number>(f.params).fill(0x7f), 0])),
    ),
    ...section(2, [1, ...text("env"), ...text("memory"), 0x02, 0x00, 0x01]), // memory, min 1 page
    ...section(3, list(fns.map((_, i) => uleb(i)))), // function i of type i
    ...section(7, list(fns.map((f, i) => [...text(f.name), 0x00, ...uleb(i)]))), // exported
    ...section(10, list(fns.map((f) => vec(f.body)))), // their code
  ]);
}

/** `bytes` compiled, or `null` where WebAssembly (with SIMD) is missing or refuses them. */
export function compiledOrNull(bytes: Uint8Array<ArrayBuffer>): WebAssembly.Module | null {
  try {
    return typeof WebAssembly === "object" && WebAssembly.validate(bytes)
      ? new WebAssembly.Module(bytes)
      : null;
  } catch {
    return null;
  }
}

/**
 * The instructions that add the four i32 lanes of the v128 in local `l`, leaving the sum on the
 * stack (`i32x4.extract_lane` 0–3 and three `i32.add`).
 */
export function sumLanes(l: number): number[] {
  const out = [...get(l), ...simd(0x1b), 0];
  for (let lane = 1; lane < 4; lane++) out.push(...get(l), ...simd(0x1b), lane, 0x6a);
  return out;
}

/**
 * `bytes` compiled on first call and kept (see {@link compiledOrNull}): a getter of the module,
 * `null` where WebAssembly SIMD is missing.
 */
export function lazyModule(bytes: Uint8Array<ArrayBuffer>): () => WebAssembly.Module | null {
  let compiled: WebAssembly.Module | null | undefined;
  return () => {
    if (compiled === undefined) compiled = compiledOrNull(bytes);
    return compiled;
  };
}

/** Bytes of a WebAssembly memory page. */
const PAGE = 65536;

/**
 * An instance of `module` with a new memory of at least `bytes` bytes as its `env.memory` (or with
 * `bytes`, a memory another instance has, so that both read the same bytes), and that memory and
 * its buffer (the memory never grows, so views of it stay valid). Throws a `RangeError` when the
 * host refuses the memory.
 */
export function instantiate(
  module: WebAssembly.Module,
  bytes: number | WebAssembly.Memory,
): { exports: WebAssembly.Exports; buffer: ArrayBuffer; memory: WebAssembly.Memory } {
  const memory =
    typeof bytes === "number"
      ? new WebAssembly.Memory({ initial: Math.max(1, Math.ceil(bytes / PAGE)) })
      : bytes;
  const instance = new WebAssembly.Instance(module, { env: { memory } });
  return { exports: instance.exports, buffer: memory.buffer, memory };
}

/** `local l += n` (i32; n as {@link i32} takes it). */
export function addTo(l: number, n: number): number[] {
  return [...get(l), ...i32(n), 0x6a, ...set(l)];
}

/** `local l -= 1`, then `br_if 0` while it is not 0: the end of a counted inner loop. */
export function countDown(l: number): number[] {
  return [...get(l), ...i32(1), 0x6b, ...tee(l), 0x0d, 0];
}
