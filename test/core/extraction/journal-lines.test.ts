import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { applyPlan, planExtraction } from "../../../src/core/extraction/pipeline";
import { OfflineExtractor } from "../../../src/core/extraction/offline";
import { MemoryLayout } from "../../../src/core/layout";
import { defaultSettings } from "../../../src/core/settings";
import { tempVault } from "../../helpers/temp-vault";

const settings = defaultSettings();
const layout = new MemoryLayout(settings);
const J = "Memory/Agents/link/Journal/2026-11-24.md";
const TASKS = "Memory/Agents/link/Trackers/Tasks.md";
const now = () => new Date("2026-11-24T10:00:00Z");

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

function setup(files: Record<string, string>) {
  const t = tempVault(files);
  cleanup = t.cleanup;
  return t;
}

async function run(t: ReturnType<typeof setup>, force = false) {
  const plan = await planExtraction({
    vault: t.vault,
    settings,
    layout,
    journalPath: J,
    extractor: new OfflineExtractor(),
    force,
    now,
  });
  const applied = await applyPlan(t.vault, layout, plan, now);
  return { plan, applied };
}

const read = (t: ReturnType<typeof setup>, p: string) => readFileSync(join(t.root, p), "utf8");

const QUESTIONS = "Memory/Agents/link/Trackers/Questions.md";
const DECISIONS = "Memory/Agents/link/Trackers/Decisions.md";
const AGENTS = {
  "Memory/Agents/atlas/Journal/2026-11-20.md": "# 2026-11-20\n",
  "Memory/Agents/dana/Journal/2026-11-20.md": "# 2026-11-20\n",
};
/** The line of `text` that holds `words`, or ends with a block id `^…` given as `words`. */
const lineOf = (text: string, words: string) =>
  text
    .split("\n")
    .find((l) => (words.startsWith("^") ? l.endsWith(` ${words}`) : l.includes(words))) ?? "";

describe("a reworded journal line", () => {
  it("supersedes the task it produced, though the new wording reads as a duplicate", async () => {
    const t = setup({ [J]: "# 2026-11-24\n\n- [ ] book the Berlin flights\n" });
    await run(t);
    const j = read(t, J);
    writeFileSync(
      join(t.root, J),
      j.replace("book the Berlin flights", "book the Berlin flights and the hotel"),
    );
    const second = await run(t);
    expect(second.plan.items.map((p) => p.action)).toEqual(["supersede"]);
    const tasks = read(t, TASKS);
    expect(lineOf(tasks, "^t-001")).toMatch(/^- \[-\] book the Berlin flights .*superseded_by/);
    expect(lineOf(tasks, "^t-002")).toMatch(/^- \[ \] book the Berlin flights and the hotel /);
  });

  it("a restatement (case, punctuation, a stop word) is the same task, skipped", async () => {
    const t = setup({ [J]: "# 2026-11-24\n\n- [ ] book the Berlin flights\n" });
    await run(t);
    writeFileSync(
      join(t.root, J),
      read(t, J).replace("book the Berlin flights", "Book Berlin flights!"),
    );
    const second = await run(t);
    expect(second.plan.items.map((p) => p.action)).toEqual(["skip"]);
    expect(read(t, TASKS)).not.toContain("t-002");
  });

  it("a reworded decision supersedes its callout in the topic note", async () => {
    const t = setup({ [J]: "# 2026-11-24\n\n## Pricing\n\nDecision: raise the Pro plan price\n" });
    await run(t);
    writeFileSync(
      join(t.root, J),
      read(t, J).replace("raise the Pro plan price", "raise the Pro plan price in March"),
    );
    const second = await run(t);
    expect(second.plan.items.map((p) => `${p.item.category}:${p.action}`)).toEqual([
      "decision:supersede",
      "decision:supersede",
    ]);
  });
});
