// Extracted items whose text cannot go into a tracker as it stands (src/core/trackers/validate.ts,
// textProblem): over 10,000 characters, or holding a control character such as a NUL from a
// damaged journal, are refused with the reason; the rest of the journal is extracted as usual.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_TEXT_CHARS } from "../../../src/core/trackers/validate";
import { extractOffline } from "../../helpers/offline-extract";
import { tempVault } from "../../helpers/temp-vault";

const J = "Memory/Agents/a/Journal/2026-11-02.md";
const TASKS = "Memory/Agents/a/Trackers/Tasks.md";
const now = () => new Date(2026, 10, 2, 12);

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

/** A task line whose text is `n` characters (`TODO: ` then words). */
function taskOf(n: number): string {
  const words = "renew the staging certificate ".repeat(Math.ceil(n / 30) + 1).slice(0, n - 1);
  return `${words.trimEnd().padEnd(n - 1, "x")}.`;
}

describe("extracted item text limits", () => {
  it("a task of 10,000 characters is written; one of 10,001 is refused with the reason, and the journal's other task is written", async () => {
    const ok = taskOf(MAX_TEXT_CHARS);
    const long = taskOf(MAX_TEXT_CHARS + 1);
    expect([ok.length, long.length]).toEqual([MAX_TEXT_CHARS, MAX_TEXT_CHARS + 1]);
    const t = tempVault({
      [J]: `# 2026-11-02\n\nTODO: ${ok}\n\nTODO: ${long}\n\nTODO: book the review room\n`,
    });
    cleanup = t.cleanup;
    const plan = await extractOffline(t.vault, J, now);
    const tasks = readFileSync(join(t.root, TASKS), "utf8");
    expect(tasks).toContain(ok);
    expect(tasks).not.toContain(long);
    expect(tasks).toContain("book the review room");
    expect(plan.rejected.map((r) => r.reason)).toEqual([
      `the item's text is ${MAX_TEXT_CHARS + 1} characters; at most ${MAX_TEXT_CHARS} are taken`,
    ]);
    expect(plan.rejected[0]?.text?.length).toBeLessThanOrEqual(200);
  });

  it("a task holding a NUL is refused, never written into the tracker", async () => {
    const t = tempVault({
      [J]: "# 2026-11-02\n\nTODO: rotate the nul\u0000inside key\n\nTODO: book the review room\n",
    });
    cleanup = t.cleanup;
    const plan = await extractOffline(t.vault, J, now);
    const tasks = readFileSync(join(t.root, TASKS), "utf8");
    expect(tasks).not.toContain("\u0000");
    expect(tasks).toContain("book the review room");
    expect(plan.rejected.map((r) => r.reason)).toEqual([
      "the item's text holds a control character",
    ]);
  });
});
