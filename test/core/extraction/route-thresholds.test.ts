// The two similarity bars of routing (src/core/extraction/route-tracker.ts), each on both sides of its
// boundary: GOAL_MATCH_SIMILARITY (0.3: progress without a `[goal:: id]` goes under the goal it
// resembles) and SAME_PROGRESS_SIMILARITY (0.9: a progress note that resembles one already under
// the goal is the same note again). Texts are made of distinct plain words so the multiset
// Jaccard similarity is exactly shared / (a + b - shared); `similarity` itself confirms it.
import { afterEach, describe, expect, it } from "vitest";
import { planExtraction } from "../../../src/core/extraction/pipeline";
import { OfflineExtractor } from "../../../src/core/extraction/offline";
import { similarity } from "../../../src/core/extraction/dedupe";
import { MemoryLayout } from "../../../src/core/layout";
import { defaultSettings } from "../../../src/core/settings";
import { tempVault } from "../../helpers/temp-vault";

const settings = defaultSettings();
const layout = new MemoryLayout(settings);
const J = "Memory/Agents/link/Journal/2026-11-24.md";
const GOALS = "Memory/Agents/link/Trackers/Goals.md";
const now = () => new Date("2026-11-24T10:00:00Z");

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

async function planFor(goalsNote: string, progress: string) {
  const t = tempVault({ [J]: `# 2026-11-24\n\nProgress: ${progress}\n`, [GOALS]: goalsNote });
  cleanup = t.cleanup;
  const plan = await planExtraction({
    vault: t.vault,
    settings,
    layout,
    journalPath: J,
    extractor: new OfflineExtractor(),
    now,
  });
  return plan.items.map((p) => `${p.item.category}:${p.action}:${p.existingId ?? ""}`);
}

const words = (n: number, from = 0) =>
  [
    "amber",
    "birch",
    "cedar",
    "dahlia",
    "ember",
    "fennel",
    "garnet",
    "hazel",
    "indigo",
    "juniper",
    "kettle",
    "lantern",
    "meadow",
    "nutmeg",
  ]
    .slice(from, from + n)
    .join(" ");

describe("progress without a goal id goes under the goal it resembles from a similarity of 0.3 on", () => {
  it("at 0.3 (3 shared of 7 and 6 words) it is progress on that goal", async () => {
    const goal = words(7);
    const progress = `${words(3)} ${words(3, 10)}`;
    expect(similarity(goal, progress)).toBeCloseTo(0.3, 10);
    expect(await planFor(`# Goals\n\n- [ ] ${goal} ^g-001\n`, progress)).toEqual([
      "goal:progress:g-001",
    ]);
  });

  it("just below (3 shared of 8 and 6 words, 0.27) it is not placed under the goal", async () => {
    const goal = words(8);
    const progress = `${words(3)} ${words(3, 10)}`;
    expect(similarity(goal, progress)).toBeLessThan(0.3);
    const plan = await planFor(`# Goals\n\n- [ ] ${goal} ^g-001\n`, progress);
    expect(plan).not.toContain("goal:progress:g-001");
    expect(plan).toHaveLength(1);
  });
});

describe("a progress note is the same one again from a similarity of 0.9 on", () => {
  it("at 0.9 (9 of the 10 words of a note already under the goal) it is skipped", async () => {
    const before = words(10);
    const progress = words(9);
    expect(similarity(before, progress)).toBeCloseTo(0.9, 10);
    expect(
      await planFor(`# Goals\n\n- [ ] ${words(3)} ^g-001\n    - 2026-11-20: ${before}\n`, progress),
    ).toEqual(["goal:skip:g-001"]);
  });

  it("just below (9 of 11 words, 0.82) it is new progress", async () => {
    const before = words(11);
    const progress = words(9);
    expect(similarity(before, progress)).toBeLessThan(0.9);
    expect(
      await planFor(`# Goals\n\n- [ ] ${words(3)} ^g-001\n    - 2026-11-20: ${before}\n`, progress),
    ).toEqual(["goal:progress:g-001"]);
  });
});
