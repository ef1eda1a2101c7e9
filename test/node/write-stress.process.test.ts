// Stress tests of the write path that can fail (docs/write-safety.md), small and bounded
// here; `npm run stress` runs the same trials at full size and prints the figures.

import { describe, expect, it } from "vitest";
import {
  appendTrial,
  concurrentExtractTrial,
  inPlaceWriterTrial,
  killTrial,
} from "../helpers/stress-harness";

describe("many writers at once", () => {
  it("two writers, one note: 4 processes appending 40 lines each to one note through NodeVault lose and duplicate nothing", async () => {
    const r = await appendTrial(4, 40);
    expect(r.failures).toEqual([]);
    expect({ lost: r.lost, duplicates: r.duplicates }).toEqual({ lost: 0, duplicates: 0 });
    expect(r.leftovers).toEqual([]);
  }, 120_000);

  it("case 13: two writers, one tracker: 4 extract processes on 4 journals of one agent lose and duplicate nothing", async () => {
    for (let trial = 0; trial < 3; trial++) {
      const r = await concurrentExtractTrial(4, 30, false);
      expect(r.failures).toEqual([]);
      expect({ lost: r.lost, duplicates: r.duplicates, duplicateIds: r.duplicateIds }).toEqual({
        lost: 0,
        duplicates: 0,
        duplicateIds: 0,
      });
      expect(r.leftovers).toEqual([]);
    }
  }, 120_000);

  it("the same journal extracted by 3 processes at once: every item exactly once", async () => {
    for (let trial = 0; trial < 2; trial++) {
      const r = await concurrentExtractTrial(3, 30, true);
      expect(r.failures).toEqual([]);
      expect({ lost: r.lost, duplicates: r.duplicates, duplicateIds: r.duplicateIds }).toEqual({
        lost: 0,
        duplicates: 0,
        duplicateIds: 0,
      });
      expect(r.leftovers).toEqual([]);
    }
  }, 120_000);
});

describe("a program saving in place during extraction", () => {
  it.each([
    ["every few milliseconds", [0, 8]],
    ["every 20-60 ms", [20, 60]],
  ] as const)(
    "in-place save %s: no hand-written line is lost while 3 journals are extracted",
    async (_, pause) => {
      const r = await inPlaceWriterTrial(3, 20, 7, [pause[0], pause[1]]);
      expect(r.saves).toBeGreaterThan(0);
      expect(r.handLost).toBe(0);
      expect(r.duplicates).toBe(0);
      // A run that could not write says so (exit 1, the journal not marked), never quietly.
      for (const f of r.failures) expect(f).toMatch(/^exit 1: .*(kept changing|reads as empty)/);
      expect(r.leftovers).toEqual([]);
    },
    120_000,
  );
});

describe("SIGKILL at random moments", () => {
  it("every note is unchanged or complete, and a re-run reaches the state of an uninterrupted run", async () => {
    for (const seed of [1, 2, 3]) {
      const r = await killTrial(3, 20, seed, 600);
      expect(r.torn).toEqual([]);
      expect(r.differs).toEqual([]);
      expect(r.leftovers).toEqual([]);
    }
  }, 180_000);
});
