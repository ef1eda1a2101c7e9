// @vitest-environment happy-dom
import "../setup-dom";
import { beforeEach, describe, expect, it } from "vitest";
import { App, Modal, Notice } from "../stubs/obsidian";
import { OfflineExtractor } from "../../src/core/extraction/offline";
import { planExtraction, type ExtractionPlan } from "../../src/core/extraction/pipeline";
import type { Extractor } from "../../src/core/extraction/types";
import { MemoryLayout } from "../../src/core/layout";
import { ExtractionRunner } from "../../src/obsidian/runners/extraction-runner";
import { gateSummary, PlanReviewModal } from "../../src/obsidian/modals/plan-review-modal";
import { realApp, resetUi, testContext, waitFor } from "../stubs/obsidian-fixtures";

const JOURNAL = "Memory/Agents/me/Journal/2026-03-27.md";
const TASKS = "Memory/Agents/me/Trackers/Tasks.md";
const QUESTIONS = "Memory/Agents/me/Trackers/Questions.md";
const journal = [
  "---",
  "type: journal",
  "agent: me",
  "---",
  "# 2026-03-27",
  "",
  "## Work",
  "",
  "- [ ] Renew passport",
  "- [ ] Book the dentist",
  "- TODO: send the draft to Person A",
  "",
  "Decision: we publish on Tuesdays from now on.",
  "",
  "Learned: bounce rate matters more than the scoring framework.",
  "",
  "Question: who owns the pricing page?",
  "",
].join("\n");

async function setup() {
  const app = new App();
  await app.vault.seed(JOURNAL, journal);
  const ctx = testContext(app, undefined, "2026-03-27");
  return { app, ctx, runner: new ExtractionRunner(ctx) };
}

function modalRows(modal: Modal): HTMLElement[] {
  return [...modal.contentEl.querySelectorAll<HTMLElement>(".am-review-item")];
}

function rowWithText(modal: Modal, text: string): HTMLElement {
  const row = modalRows(modal).find(
    (r) => r.querySelector<HTMLTextAreaElement>("textarea")?.value === text,
  );
  if (!row) throw new Error(`no row ${text}`);
  return row;
}

describe("review modal", () => {
  beforeEach(resetUi);

  it("says which decision a contradicting one supersedes (docs/contradictions.md)", async () => {
    const { app, runner } = await setup();
    await app.vault.seed(
      "Memory/Agents/me/Trackers/Decisions.md",
      "# Decisions\n\n- [x] we do not publish on Tuesdays from now on [decided:: 2026-03-01] ^d-004\n",
    );
    await runner.extract(JOURNAL);
    const modal = Modal.openModals[0]!;
    const row = rowWithText(modal, "we publish on Tuesdays from now on.");
    expect(row.querySelector(".am-action-supersede")?.textContent).toBe(
      "new, supersedes d-004 (says the opposite)",
    );
  });

  it("lists items by category with destination, evidence and confidence", async () => {
    const { app, runner } = await setup();
    await runner.extract(JOURNAL);
    const modal = Modal.openModals[0];
    expect(modal).toBeInstanceOf(PlanReviewModal);
    const headings = [...modal!.contentEl.querySelectorAll(".am-review-category h3")].map(
      (h) => h.textContent,
    );
    expect(headings).toEqual(["Tasks (3)", "Knowledge (1)", "Decisions (2)", "Questions (1)"]);
    const row = rowWithText(modal!, "Renew passport");
    expect(row.querySelector(".am-review-path")?.textContent).toBe(TASKS);
    expect(row.querySelector(".am-review-evidence blockquote")?.textContent).toContain(
      "Renew passport",
    );
    expect(row.querySelector(".am-confidence")?.textContent).toMatch(/^confidence \d\.\d\d$/);
    expect(modal!.contentEl.querySelector(".am-review-gate")?.textContent).toBe(
      "Self-check gate: not used by the offline extractor.",
    );
    expect(modal!.contentEl.querySelector(".am-review-apply")?.textContent).toBe("Apply 7 items");
    expect(app.vault.getFileByPath(TASKS)).toBeNull(); // nothing written before Apply
  });

  it("applies only accepted items, with edited text and changed destination", async () => {
    const { app, runner } = await setup();
    await runner.extract(JOURNAL);
    const modal = Modal.openModals[0]!;
    const drop = rowWithText(modal, "Book the dentist").querySelector<HTMLInputElement>(
      ".am-review-accept",
    )!;
    drop.checked = false;
    drop.dispatchEvent(new Event("change"));
    const edit = rowWithText(modal, "send the draft to Person A").querySelector("textarea")!;
    edit.value = "Send the draft to Person A by Friday";
    edit.dispatchEvent(new Event("input"));
    const move = rowWithText(modal, "who owns the pricing page?").querySelector<HTMLSelectElement>(
      ".am-review-destination",
    )!;
    move.value = "tracker:tasks";
    move.dispatchEvent(new Event("change"));
    expect(modal.contentEl.querySelector(".am-review-apply")?.textContent).toBe("Apply 6 items");

    modal.contentEl.querySelector<HTMLButtonElement>(".am-review-apply")!.click();
    await waitFor(() => Modal.openModals.length === 0);
    const tasks = app.vault.text(TASKS) ?? "";
    expect(tasks).toContain("Renew passport");
    expect(tasks).toContain("Send the draft to Person A by Friday");
    expect(tasks).toContain("who owns the pricing page?");
    expect(tasks).not.toContain("Book the dentist");
    expect(tasks).not.toContain("send the draft to Person A [");
    expect(app.vault.getFileByPath(QUESTIONS)).toBeNull();
    expect(app.vault.text(JOURNAL)).toMatch(/extraction_hash: /);
    // The dropped item's block gets no id; the applied ones do.
    expect(app.vault.text(JOURNAL)).toMatch(/- \[ \] Book the dentist\n/);
    expect(app.vault.text(JOURNAL)).toMatch(/- \[ \] Renew passport \^am-[a-z0-9]+\n/);
    const final = Notice.shown.at(-1)!;
    expect(final.text).toContain("2026-03-27: 6 new, 0 updated (the offline extractor).");
    const links = [...final.messageEl.querySelectorAll("a")].map((a) => a.textContent);
    expect(links).toEqual(expect.arrayContaining(["Tasks", "Decisions", "Work"]));
    final.messageEl.querySelector<HTMLAnchorElement>("a")!.click();
    expect(app.workspace.opened.length).toBe(1);
  });

  it("apply-at-once mode writes without a modal; a second run finds nothing new (case 10)", async () => {
    const { app, ctx, runner } = await setup();
    ctx.current = { ...ctx.current, reviewMode: "apply" };
    await runner.extract(JOURNAL);
    expect(Modal.openModals).toHaveLength(0);
    expect(app.vault.text(TASKS)).toContain("Book the dentist");
    const writes = app.vault.writes;
    await runner.extract(JOURNAL);
    expect(app.vault.writes).toBe(writes);
    expect(Notice.shown.at(-1)?.text).toBe(
      "2026-03-27 has not changed since its last extraction: nothing new.",
    );
  });

  it("Cancel in the progress notice stops the run and writes nothing", async () => {
    const app = new App();
    await app.vault.seed(JOURNAL, journal);
    const ctx = testContext(app, undefined, "2026-03-27");
    let seenSignal: AbortSignal | undefined;
    const slow: Extractor = {
      name: "openai",
      extract: (input) => {
        seenSignal = input.signal;
        return new Promise(() => undefined);
      },
    };
    const runner = new ExtractionRunner(ctx, (_settings, signal) => ({
      name: slow.name,
      extract: (i) => slow.extract({ ...i, signal }),
    }));
    const writes = app.vault.writes;
    const run = runner.extract(JOURNAL);
    await waitFor(() => seenSignal !== undefined);
    const progress = Notice.shown.find((n) => n.messageEl.querySelector(".am-progress-cancel"))!;
    expect(progress.duration).toBe(0);
    progress.messageEl.querySelector<HTMLButtonElement>(".am-progress-cancel")!.click();
    await run;
    expect(seenSignal?.aborted).toBe(true);
    expect(progress.hidden).toBe(true);
    expect(Notice.shown.at(-1)?.text).toBe(
      "Extraction from 2026-03-27 cancelled: nothing was written.",
    );
    expect(app.vault.writes).toBe(writes);
    expect(Modal.openModals).toHaveLength(0);
  });

  it("an error from the apply step is shown in the modal, which stays open", async () => {
    const { app, ctx } = await setup();
    const layout = new MemoryLayout(ctx.current);
    const plan = await planExtraction({
      vault: ctx.vault,
      settings: ctx.current,
      layout,
      journalPath: JOURNAL,
      extractor: new OfflineExtractor(),
    });
    const modal = new PlanReviewModal(realApp(app), {
      plan,
      layout,
      onApply: () => Promise.reject(new Error("disk full")),
    });
    modal.open();
    await modal.apply();
    expect(modal.contentEl.querySelector(".am-review-error")?.textContent).toBe("disk full");
    expect(Modal.openModals).toContain(modal);
  });

  it("the gate's report names the checks that fired and the rescan's effect", () => {
    const plan = {
      extractor: "openai",
      gate: {
        fired: ["rich-without-knowledge", "single-category"],
        before: 1,
        after: 8,
        categoriesBefore: 1,
        categoriesAfter: 4,
      },
    } as unknown as ExtractionPlan;
    expect(gateSummary(plan)).toBe(
      "Self-check gate: a rich note gave no knowledge; all items fell in one category. Rescan: 1 → 8 items, 1 → 4 categories.",
    );
  });

  it("says where today's journal was expected and offers to create it", async () => {
    const app = new App();
    const ctx = testContext(app, undefined, "2026-03-28");
    const runner = new ExtractionRunner(ctx);
    await runner.extractToday();
    const modal = Modal.openModals[0]!;
    expect(modal.contentEl.textContent).toContain(
      "It was expected at Memory/Agents/me/Journal/2026-03-28.md.",
    );
    modal.contentEl.querySelector<HTMLButtonElement>("button.mod-cta")!.click();
    await waitFor(() => app.vault.getFileByPath("Memory/Agents/me/Journal/2026-03-28.md") !== null);
    expect(app.vault.text("Memory/Agents/me/Journal/2026-03-28.md")).toContain("type: journal");
    expect(app.workspace.opened.at(-1)?.linktext).toBe("Memory/Agents/me/Journal/2026-03-28.md");
  });

  it("uses the Daily notes plugin's folder and format when asked, falling back with a message", async () => {
    const app = new App();
    const ctx = testContext(app, undefined, "2026-03-28");
    ctx.current = { ...ctx.current, useDailyNotes: true };
    const runner = new ExtractionRunner(ctx);
    await runner.extractToday();
    expect(Notice.shown[0]?.text).toMatch(
      /^Daily notes not used \(the Daily notes core plugin is not available\); using Memory\/Agents\/me\/Journal\/2026-03-28\.md\.$/,
    );
    resetUi();
    app.setDailyNotes({ folder: "Memory/Agents/me/Daily", format: "YYYY-MM-DD" });
    await runner.extractToday();
    expect(Modal.openModals[0]?.contentEl.textContent).toMatch(
      /It was expected at Memory\/Agents\/me\/Daily\/\d{4}-\d{2}-\d{2}\.md\./,
    );
  });
});
