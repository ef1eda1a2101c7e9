// review start / review done on real temporary vaults (docs/architecture.md, "Review loops").
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NodeVault } from "../../../src/node/node-vault";
import { MemoryLayout } from "../../../src/core/layout";
import { defaultSettings } from "../../../src/core/settings";
import { runHealthCheck } from "../../../src/core/health";
import { finishReview, listDueReviews, startReview } from "../../../src/core/review";
import { applyPlan, planExtraction } from "../../../src/core/extraction/pipeline";
import { OfflineExtractor } from "../../../src/core/extraction/offline";

const FIXTURE = fileURLToPath(new URL("../../fixtures/health-vault", import.meta.url));
const settings = defaultSettings();
const layout = new MemoryLayout(settings);
const REVIEWS = "Memory/Agents/ada/Trackers/Reviews.md";
const NOTE = "Memory/Agents/ada/Journal/2026-06-01 review r-001.md";

let root = "";
let vault: NodeVault;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "am-review-"));
  cpSync(FIXTURE, root, { recursive: true });
  vault = new NodeVault(root);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const read = (p: string): string => readFileSync(join(root, p), "utf8");

describe("review start", () => {
  it("creates a review note for the period since the last review with links to everything in it", async () => {
    const result = await startReview(vault, layout, "ada", "r-001", "2026-06-01");
    if (!result.ok) throw new Error(result.error);
    expect(result.value).toMatchObject({ path: NOTE, created: true });
    // The last review was done on 2026-05-18 (the dated line under r-001).
    expect(result.value.material.period).toEqual({ start: "2026-05-19", end: "2026-06-01" });
    expect(result.value.material.journals.map((j) => j.path)).toEqual([
      "Memory/Agents/ada/Journal/2026-05-20.md",
      "Memory/Agents/ada/Journal/2026-05-22.md",
      "Memory/Agents/ada/Journal/2026-05-28.md",
    ]);
    const text = read(NOTE);
    expect(text).toMatch(
      /^---\nid: review-ada-r-001-2026-06-01\ntype: review\nagent: ada\nstatus: draft\ncreated_at: 2026-06-01\n/,
    );
    expect(text).toContain('source: "[[Memory/Agents/ada/Trackers/Reviews#^r-001]]"');
    expect(text).toContain("- [[Memory/Agents/ada/Journal/2026-05-20|2026-05-20]]");
    expect(text).toContain(
      "- [[Memory/Agents/ada/Knowledge/strategy/Onboarding|Onboarding]] (updated 2026-05-28)",
    );
    // Not updated in the period, so not under "Knowledge updated"; a newer journal mentions it, so it may be stale.
    const updated = text.slice(text.indexOf("## Knowledge updated"), text.indexOf("## Open tasks"));
    expect(updated).not.toContain("Pricing experiments|");
    expect(text).toMatch(
      /## May be stale \(1\)\n\n- \[\[Memory\/Agents\/ada\/Knowledge\/strategy\/Pricing experiments\|Pricing experiments\]\] mentioned in 1 journal block newer than its last update \(2025-12-01\): \[\[Memory\/Agents\/ada\/Journal\/2026-05-20#\^am-a1b2\]\]\n/,
    );
    expect(result.value.material.stale.map((t) => t.path)).toEqual([
      "Memory/Agents/ada/Knowledge/strategy/Pricing experiments.md",
    ]);
    expect(text).toContain(
      "- [[Memory/Agents/ada/Trackers/Tasks#^t-001|t-001]] Ask Person B for the churn export",
    );
    expect(text).not.toContain("^t-002"); // done
    expect(text).toContain(
      "- [[Memory/Agents/ada/Trackers/Goals#^g-001|g-001]] Halve first-month churn (in progress); latest: 2026-05-20: setup checklist matters most",
    );
    expect(text).toContain(
      "- [[Memory/Agents/ada/Trackers/Decisions#^d-001|d-001]] Keep the 14-day trial (2026-05-20)",
    );
    // Plain bullets only: extraction must not read the listed tasks as new ones.
    expect(text).not.toMatch(/^- \[[ x/-]\]/m);
  });

  it("the new review note is healthy: its links resolve and it has the required fields", async () => {
    const before = await runHealthCheck(vault, layout, settings, { today: "2026-06-01" });
    await startReview(vault, layout, "ada", "r-001", "2026-06-01");
    const after = await runHealthCheck(vault, layout, settings, { today: "2026-06-01" });
    expect([...after.errors, ...after.warnings].filter((p) => p.path === NOTE)).toEqual([]);
    expect(after.checked).toBe(before.checked + 1);
  });

  it("starting again the same day keeps the note a person has begun to write", async () => {
    await startReview(vault, layout, "ada", "r-001", "2026-06-01");
    writeFileSync(join(root, NOTE), `${read(NOTE)}\nThe churn export came late again.\n`);
    const edited = read(NOTE);
    const again = await startReview(vault, layout, "ada", "r-001", "2026-06-01");
    expect(again).toMatchObject({ ok: true, value: { created: false } });
    expect(read(NOTE)).toBe(edited);
  });

  it("without a dated line, the period is one period before next", async () => {
    const result = await startReview(vault, layout, "ada", "r-002", "2026-06-15");
    if (!result.ok) throw new Error(result.error);
    expect(result.value.material.period).toEqual({ start: "2026-05-15", end: "2026-06-15" });
  });

  it("says why for an unknown review, an item that is not a review, or a missing tracker", async () => {
    expect(await startReview(vault, layout, "ada", "r-404", "2026-06-01")).toEqual({
      ok: false,
      error: `no item ^r-404 in ${REVIEWS}`,
    });
    writeFileSync(join(root, REVIEWS), `${read(REVIEWS)}- [ ] Not a loop ^r-009\n`);
    const notReview = await startReview(vault, layout, "ada", "r-009", "2026-06-01");
    expect(notReview.ok).toBe(false);
    if (!notReview.ok) expect(notReview.error).toMatch(/not a review/);
    expect(await startReview(vault, layout, "nobody", "r-001", "2026-06-01")).toEqual({
      ok: false,
      error: "no reviews tracker at Memory/Agents/nobody/Trackers/Reviews.md",
    });
  });
});

describe("review start and extraction agree", () => {
  it("counts a decision extraction wrote in the period, dated by its decided field", async () => {
    const journal = "Memory/Agents/ada/Journal/2026-05-29.md";
    writeFileSync(
      join(root, journal),
      "# 2026-05-29\n\nDecision: move the onboarding call to week one\n",
    );
    const now = () => new Date("2026-05-29T10:00:00Z");
    const plan = await planExtraction({
      vault,
      settings,
      layout,
      journalPath: journal,
      extractor: new OfflineExtractor(),
      now,
    });
    await applyPlan(vault, layout, plan, now);
    const line =
      read("Memory/Agents/ada/Trackers/Decisions.md")
        .split("\n")
        .find((l) => l.includes("onboarding call")) ?? "";
    expect(line).toContain("[decided:: 2026-05-29]");
    expect(line).not.toContain("[created::");
    const result = await startReview(vault, layout, "ada", "r-001", "2026-06-01");
    if (!result.ok) throw new Error(result.error);
    expect(result.value.material.decisions.map((d) => [d.text, d.date])).toEqual([
      ["Keep the 14-day trial", "2026-05-20"],
      ["move the onboarding call to week one", "2026-05-29"],
    ]);
  });
});

describe("a review note is extracted only where a person wrote", () => {
  const now = () => new Date("2026-06-01T10:00:00Z");
  const plan = () =>
    planExtraction({
      vault,
      settings,
      layout,
      journalPath: NOTE,
      extractor: new OfflineExtractor(),
      now,
    });

  it("the goals, decisions and tasks it quotes are not read as new items", async () => {
    await startReview(vault, layout, "ada", "r-001", "2026-06-01");
    const quoted = read(NOTE);
    expect(quoted).toContain("Keep the 14-day trial");
    const first = await plan();
    expect(first.items.map((p) => p.item.text)).toEqual([]);
    writeFileSync(
      join(root, NOTE),
      quoted.replace(
        "## What to change\n",
        "## What to change\n\n- [ ] write a retro template\nDecision: run reviews on Mondays\n",
      ),
    );
    const second = await plan();
    expect(second.items.map((p) => `${p.item.category}:${p.item.text}`).sort()).toEqual([
      "decision:run reviews on Mondays",
      "decision:run reviews on Mondays",
      "task:write a retro template",
    ]);
    await applyPlan(vault, layout, second, now);
    expect(read(NOTE)).toContain("- [ ] write a retro template ^am-");
    expect(
      read("Memory/Agents/ada/Trackers/Goals.md").match(/Halve first-month churn/g),
    ).toHaveLength(1);
  });
});

describe("review done", () => {
  it("advances next by every, records the day with a link to the review note, and marks the note done", async () => {
    await startReview(vault, layout, "ada", "r-001", "2026-06-01");
    const trackerBefore = read(REVIEWS);
    const result = await finishReview(vault, layout, "ada", "r-001", "2026-06-01");
    expect(result).toEqual({
      ok: true,
      value: {
        reviewsPath: REVIEWS,
        changed: true,
        previous: "2026-05-25",
        next: "2026-06-08",
        note: NOTE,
      },
    });
    expect(read(REVIEWS)).toBe(
      trackerBefore.replace(
        "[next:: 2026-05-25] ^r-001\n    - 2026-05-18: done\n",
        "[next:: 2026-06-08] ^r-001\n    - 2026-05-18: done\n    - 2026-06-01: done; [[2026-06-01 review r-001]]\n",
      ),
    );
    const note = read(NOTE);
    expect(note).toContain("\nstatus: done\n");
    expect(note).toContain("\nupdated_at: 2026-06-01\n");
    // Done is no longer due.
    expect((await listDueReviews(vault, layout, "2026-06-01")).map((d) => d.review.id)).toEqual([]);
  });

  it("twice on the same day changes nothing the second time", async () => {
    await finishReview(vault, layout, "ada", "r-001", "2026-06-01");
    const once = read(REVIEWS);
    const again = await finishReview(vault, layout, "ada", "r-001", "2026-06-01");
    expect(again).toMatchObject({ ok: true, value: { changed: false, next: "2026-06-08" } });
    expect(read(REVIEWS)).toBe(once);
  });

  it("leaves a tracker whose frontmatter does not parse byte for byte as it was", async () => {
    const broken = read(REVIEWS).replace("status: active", 'status: "unclosed');
    writeFileSync(join(root, REVIEWS), broken);
    const result = await finishReview(vault, layout, "ada", "r-001", "2026-06-01");
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/frontmatter/);
    expect(read(REVIEWS)).toBe(broken);
  });
});

describe("listDueReviews", () => {
  it("lists due reviews of every agent, most overdue first", async () => {
    const due = await listDueReviews(vault, layout, "2026-06-20");
    expect(due.map((d) => [d.agent, d.review.id, d.review.daysOverdue])).toEqual([
      ["ada", "r-001", 26],
      ["ada", "r-002", 5],
    ]);
    expect(await listDueReviews(vault, layout, "2026-06-20", "bo")).toEqual([]);
  });
});
