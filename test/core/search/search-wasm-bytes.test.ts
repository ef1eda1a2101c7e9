// The hand-assembled WebAssembly of the vector search (src/core/search/wasm-bytes.ts): constants
// are signed LEB128, and the sign-distance sweep unrolled for each lane count it takes is a valid
// module (an invalid one would fall back to the general kernel without a word).
import { describe, expect, it } from "vitest";
import { i32 } from "../../../src/core/search/wasm-bytes";
import { sweepModule } from "../../../src/core/search/sign-distance";

describe("WebAssembly bytes", () => {
  it("i32.const is signed LEB128: bit 6 of the last byte is the sign", () => {
    expect(i32(0)).toEqual([0x41, 0x00]);
    expect(i32(63)).toEqual([0x41, 0x3f]);
    expect(i32(64)).toEqual([0x41, 0xc0, 0x00]);
    expect(i32(496)).toEqual([0x41, 0xf0, 0x03]);
    expect(i32(2 ** 31 - 1)).toEqual([0x41, 0xff, 0xff, 0xff, 0xff, 0x07]);
    expect(() => i32(-1)).toThrow(RangeError);
    expect(() => i32(2 ** 31)).toThrow(RangeError);
    expect(() => i32(1.5)).toThrow(RangeError);
  });

  it("the sign-distance sweep is a valid module for 1 to 31 lanes", () => {
    for (let lanes = 1; lanes <= 31; lanes++)
      expect(WebAssembly.validate(sweepModule(lanes)), `${lanes} lanes`).toBe(true);
  });
});
