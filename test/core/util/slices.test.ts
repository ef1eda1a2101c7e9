// Time slices (src/core/util/slices.ts): long work yields to the host once a slice is used up,
// never before.
import { describe, expect, it } from "vitest";
import { SLICE_MS, timeSlicer } from "../../../src/core/util/slices";

describe("timeSlicer", () => {
  it("yields once a slice's time is used up, not before, and measures the next slice from the yield", async () => {
    let now = 1000;
    let yields = 0;
    const slice = timeSlicer(
      () => {
        yields++;
        now += 1; // the host ran for a while
        return Promise.resolve();
      },
      SLICE_MS,
      () => now,
    );
    now += SLICE_MS - 0.5;
    await slice();
    expect(yields).toBe(0);
    now += 0.5;
    await slice();
    expect(yields).toBe(1);
    // The slice starts after the host's turn, at 1000 + SLICE_MS + 1.
    now += SLICE_MS - 0.5;
    await slice();
    expect(yields).toBe(1);
    now += 0.5;
    await slice();
    expect(yields).toBe(2);
  });

  it("a slice of 4 ms by default", () => {
    expect(SLICE_MS).toBe(4);
  });
});
