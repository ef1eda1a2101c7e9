// The bars of routing progress (src/core/extraction/route-tracker.ts), each on both sides of its
// boundary: progress without a `[goal:: id]` goes under the open goal that shares the most meaning
// with it, one shared content word at least (src/core/extraction/goal-match.ts), and
// SAME_PROGRESS_SIMILARITY (0.9: a progress note that resembles one already under the goal is the
// same note again). Texts are made of distinct plain words so the multiset Jaccard similarity is
// exactly shared / (a + b - shared); `similarity` itself confirms it.
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

describe("progress without a goal id goes under the open goal it shares the most meaning with", () => {
  it("one shared content word is enough when one goal has it", async () => {
    const goals = `# Goals\n\n- [ ] ${words(7)} ^g-001\n- [ ] ${words(3, 10)} ^g-002\n`;
    expect(await planFor(goals, `${words(1)} ${words(2, 7)}`)).toEqual(["goal:progress:g-001"]);
  });

  it("no shared content word (only stop words, progress words and numbers) places it nowhere, and says so", async () => {
    const t = tempVault({
      [J]: "# 2026-11-24\n\nProgress: 40 of the 50 done this week\n",
      [GOALS]: `# Goals\n\n- [ ] ${words(3)} in 50 days ^g-001\n`,
    });
    cleanup = t.cleanup;
    const plan = await planExtraction({
      vault: t.vault,
      settings,
      layout,
      journalPath: J,
      extractor: new OfflineExtractor(),
      now,
    });
    expect(plan.items).toEqual([]);
    expect(plan.rejected.map((r) => r.reason)).toEqual([
      `progress names no goal, and it shares no words with an open goal in ${GOALS}; add [goal:: g-…] to the line`,
    ]);
  });

  it("a word two goals share weighs half: the goal with a word of its own wins, equal scores are a tie", async () => {
    const goals = `# Goals\n\n- [ ] ${words(3)} ^g-001\n- [ ] ${words(1)} ${words(2, 5)} ^g-002\n`;
    // amber is in both goals (1/2 each), cedar only in g-001 (1).
    expect(await planFor(goals, "amber cedar")).toEqual(["goal:progress:g-001"]);
    const plan = await planFor(goals, "amber");
    expect(plan).toEqual([]);
  });

  it("a goal that is done or abandoned takes no progress", async () => {
    const goals = `# Goals\n\n- [x] ${words(3)} ^g-001\n- [-] ${words(3)} ^g-002\n- [/] ${words(3)} ^g-003\n`;
    expect(await planFor(goals, words(2))).toEqual(["goal:progress:g-003"]);
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
