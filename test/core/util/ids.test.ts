// Ids that do not collide across clones (docs/decisions.md, "Random item ids across clones").
import { describe, expect, it } from "vitest";
import { deriveShortId } from "../../../src/core/util/hash";
import { ITEM_ID_RE, base32, cryptoRandom, isItemIdOf, randomId } from "../../../src/core/util/ids";
import { seededRandom } from "../../helpers/seeded-random";

describe("random item ids", () => {
  it("are the prefix and ten base32 characters, a letter first, valid as Obsidian block ids", () => {
    const random = seededRandom(42);
    for (let i = 0; i < 2000; i++) {
      const id = randomId("t-", new Set(), random);
      expect(id).toMatch(/^t-[a-hjkmnp-tv-z][0-9a-hjkmnp-tv-z]{9}$/);
      expect(id).toMatch(/^[A-Za-z0-9-]+$/);
    }
  });

  it("a seeded source gives the same ids every run; the crypto source draws different ones", () => {
    const a = [1, 2, 3].map(() => "");
    const ra = seededRandom(7);
    const rb = seededRandom(7);
    for (let i = 0; i < a.length; i++)
      expect(randomId("q-", new Set(), ra)).toBe(randomId("q-", new Set(), rb));
    expect(randomId("t-", new Set(), cryptoRandom)).not.toBe(
      randomId("t-", new Set(), cryptoRandom),
    );
  });

  it("never returns a taken id: it draws again", () => {
    const first = randomId("t-", new Set(), seededRandom(3));
    const again = randomId("t-", new Set([first]), seededRandom(3));
    expect(again).not.toBe(first);
    expect(again).toMatch(/^t-[a-z][0-9a-z]{9}$/);
  });

  it("no two of 100,000 drawn ids are equal (three clones with their own sources)", () => {
    const seen = new Set<string>();
    for (const seed of [1, 2, 3]) {
      const random = seededRandom(seed * 7919);
      for (let i = 0; i < 33_334; i++) seen.add(randomId("t-", new Set(), random));
    }
    expect(seen.size).toBe(3 * 33_334);
  });

  it("old and new forms are both item ids, with their prefix", () => {
    for (const id of ["t-004", "t-1000", "q-k3f9x2m7qa", "Q-K3F9X2M7QA"])
      expect(ITEM_ID_RE.test(id)).toBe(true);
    expect(isItemIdOf("q-002", "q")).toBe(true);
    expect(isItemIdOf("q-k3f9x2m7qa", "q")).toBe(true);
    expect(isItemIdOf("p-k3f9x2m7qa", "q")).toBe(false);
    for (const id of ["t-", "-004", "t_004", "t-00 4"]) expect(ITEM_ID_RE.test(id)).toBe(false);
  });
});

describe("derived short ids", () => {
  it("are ten base32 characters of the seed's hash: the same text on two clones gets the same id", () => {
    const id = deriveShortId("am-", "Memory/J/2026-12-01.md\nShip it", new Set());
    expect(id).toMatch(/^am-[0-9a-hjkmnp-tv-z]{10}$/);
    expect(deriveShortId("am-", "Memory/J/2026-12-01.md\nShip it", new Set())).toBe(id);
    expect(deriveShortId("am-", "Memory/J/2026-12-01.md\nShip it", new Set([id]))).not.toBe(id);
  });

  it("with `tried`, a run of ids for repeated seeds is the run without it, and each seed's next call starts where its last stopped", () => {
    const seeds = Array.from({ length: 300 }, (_, i) => `J.md\n${["a", "b", "a", "c"][i % 4]}`);
    const plain = new Set<string>();
    const fast = new Set<string>();
    const tried = new Map<string, number>();
    for (const seed of seeds) {
      const a = deriveShortId("am-", seed, plain);
      const b = deriveShortId("am-", seed, fast, tried);
      expect(b).toBe(a);
      plain.add(a);
      fast.add(b);
    }
    // 150 blocks of "a": the next one tries its 151st id first, not its first.
    expect(tried.get("J.md\na")).toBe(150);
    expect(tried.get("J.md\nc")).toBe(75);
  });

  it("base32 pads and keeps the low bits", () => {
    expect(base32(0, 4)).toBe("0000");
    expect(base32(31, 2)).toBe("0z");
    expect(base32(32, 2)).toBe("10");
    expect(base32(32 ** 2, 2)).toBe("00");
  });
});
