// @vitest-environment happy-dom
import "../setup-dom";
import { beforeEach, describe, expect, it } from "vitest";
import { App, Notice, WorkspaceLeaf } from "../stubs/obsidian";
import { listItems } from "../../src/core/trackers/format";
import { TRACKER_KINDS } from "../../src/core/settings";
import { MemoryLayout } from "../../src/core/layout";
import { TrackerView } from "../../src/obsidian/views/tracker-view";
import {
  realLeaf,
  resetUi,
  SAMPLE_VAULT,
  seedFromFolder,
  testContext,
  waitFor,
} from "../stubs/obsidian-fixtures";

const TASKS = "Memory/Agents/link/Trackers/Tasks.md";
const REVIEWS = "Memory/Agents/link/Trackers/Reviews.md";
const GOALS = "Memory/Agents/link/Trackers/Goals.md";

const tasksNote = [
  "---",
  "type: tracker",
  "agent: link",
  "---",
  "# Tasks",
  "",
  "- [/] Get the top-10 pages by traffic [priority:: 2] [created:: 2026-11-02] [source:: [[2026-11-02#^am-k3f9]]] ^t-001",
  "- [x] Draft the audit checklist [created:: 2026-11-02] ^t-002",
  "- [-] Rewrite the pricing page FAQ ^t-003",
  "- [ ] Compress hero images [due:: 2026-12-04] ^t-005",
  "- [ ] A line a person wrote without an id",
  "",
].join("\n");
const reviewsNote = [
  "# Reviews",
  "- [ ] Weekly retro [every:: weekly] [next:: 2026-11-27] ^r-001",
  "- [ ] Monthly quality review [every:: monthly] [next:: 2026-12-15] ^r-002",
  "",
].join("\n");
const goalsNote = [
  "# Goals",
  "- [ ] Content quality scoring system [target:: 2026-12-31] ^g-006",
  "    - 2026-11-05: rubric drafted",
  "    - 2026-11-27: bounce rate matters more than the framework",
  "",
].join("\n");

async function openView(app: App, today = "2026-12-01") {
  const ctx = testContext(app, undefined, today);
  ctx.current = { ...ctx.current, defaultAgent: "link" };
  const view = new TrackerView(realLeaf(new WorkspaceLeaf(app.workspace)), ctx);
  view.load();
  await (view as unknown as { open(): Promise<void> }).open();
  return view;
}

function rows(view: TrackerView): HTMLElement[] {
  return [...view.contentEl.querySelectorAll<HTMLElement>(".am-tracker-item")];
}

function tab(view: TrackerView, kind: string): HTMLElement {
  const el = view.contentEl.querySelector<HTMLElement>(`.am-tracker-tab[data-kind="${kind}"]`);
  if (!el) throw new Error(`no tab ${kind}`);
  return el;
}

async function seedSmall(app: App): Promise<void> {
  await app.vault.seed(TASKS, tasksNote);
  await app.vault.seed(REVIEWS, reviewsNote);
  await app.vault.seed(GOALS, goalsNote);
  await app.vault.createFolder("Memory/Agents/me");
}

describe("tracker panel", () => {
  beforeEach(resetUi);

  it("renders the sample vault's items for every agent and tab, with counts matching the notes", async () => {
    const app = new App();
    await seedFromFolder(app, SAMPLE_VAULT);
    const view = await openView(app);
    const layout = new MemoryLayout(testContext(app).current);
    const agents = [
      ...view.contentEl.querySelectorAll<HTMLOptionElement>(".am-agent-picker option"),
    ].map((o) => o.value);
    expect(agents).toEqual(expect.arrayContaining(["link", "me", "ming"]));
    let seen = 0;
    for (const agent of agents) {
      view.agent = agent;
      view.filter = "all";
      for (const kind of TRACKER_KINDS) {
        view.kind = kind;
        view.refresh();
        await view.rendering;
        const text = app.vault.text(layout.trackerPath(agent, kind));
        const expected = text === undefined ? [] : listItems(text);
        expect(tab(view, kind).querySelector(".am-tab-count")?.textContent).toBe(
          String(expected.length),
        );
        expect(rows(view).map((r) => r.querySelector(".am-tracker-text")?.textContent)).toEqual(
          expected.map((i) => i.text),
        );
        seen += expected.length;
      }
    }
    expect(seen).toBeGreaterThan(10);
  });

  it("filters by status: open includes in-progress; counts follow the filter", async () => {
    const app = new App();
    await seedSmall(app);
    const view = await openView(app);
    expect(view.agent).toBe("link");
    expect(rows(view).map((r) => r.dataset.id ?? "-")).toEqual(["t-001", "t-005", "-"]);
    expect(tab(view, "tasks").querySelector(".am-tab-count")?.textContent).toBe("3");
    const filter = view.contentEl.querySelector<HTMLSelectElement>(".am-status-filter")!;
    filter.value = "done";
    filter.dispatchEvent(new Event("change"));
    await view.rendering;
    expect(rows(view).map((r) => r.dataset.id)).toEqual(["t-002"]);
    expect(tab(view, "tasks").querySelector(".am-tab-count")?.textContent).toBe("1");
  });

  it("shows an item's owner, written as a name or a wikilink", async () => {
    const app = new App();
    await app.vault.seed(
      TASKS,
      "# Tasks\n\n- [ ] update the runbook [owner:: [[dana]]] [due:: 2026-11-20] ^t-001\n- [ ] renew the certificate [owner:: ming] ^t-002\n- [ ] my own task ^t-003\n",
    );
    await app.vault.createFolder("Memory/Agents/me");
    const view = await openView(app);
    expect(rows(view).map((r) => r.querySelector(".am-field-owner")?.textContent ?? null)).toEqual([
      "owner: dana",
      "owner: ming",
      null,
    ]);
  });

  it("ticking an item sets its status in the tracker note, touching only its line", async () => {
    const app = new App();
    await seedSmall(app);
    const view = await openView(app);
    const row = rows(view).find((r) => r.dataset.id === "t-005")!;
    const check = row.querySelector<HTMLInputElement>("input[type=checkbox]")!;
    check.checked = true;
    check.dispatchEvent(new Event("change"));
    await waitFor(() => (app.vault.text(TASKS) ?? "").includes("- [x] Compress hero images"));
    // Done gets Tasks' completion date, the day of the tick (docs/architecture.md, "Trackers").
    expect(app.vault.text(TASKS)).toBe(
      tasksNote.replace(
        "- [ ] Compress hero images [due:: 2026-12-04] ^t-005",
        "- [x] Compress hero images [due:: 2026-12-04] [completion:: 2026-12-01] ^t-005",
      ),
    );
    await waitFor(() => !rows(view).some((r) => r.dataset.id === "t-005"));
    // An item without a block id cannot be ticked from the panel.
    expect(
      rows(view)
        .find((r) => !r.dataset.id)
        ?.querySelector<HTMLInputElement>("input")?.disabled,
    ).toBe(true);
  });

  it("a person's tick in the note shows in the panel at once", async () => {
    const app = new App();
    await seedSmall(app);
    const view = await openView(app);
    expect(rows(view).some((r) => r.dataset.id === "t-001")).toBe(true);
    const file = app.vault.getFileByPath(TASKS)!;
    app.vault.setContent(file, tasksNote.replace("- [/] Get the top-10", "- [x] Get the top-10"));
    await waitFor(() => !rows(view).some((r) => r.dataset.id === "t-001"));
    expect(tab(view, "tasks").querySelector(".am-tab-count")?.textContent).toBe("2");
  });

  it("marks due reviews, and ticking one moves its next date instead of closing it", async () => {
    const app = new App();
    await seedSmall(app);
    const view = await openView(app, "2026-12-01");
    expect(tab(view, "reviews").querySelector(".am-tab-due")?.textContent).toBe("1 due");
    tab(view, "reviews").click();
    await view.rendering;
    const due = rows(view).filter((r) => r.classList.contains("is-due"));
    expect(due.map((r) => r.dataset.id)).toEqual(["r-001"]);
    expect(due[0]?.querySelector(".am-due")?.textContent).toBe("due 4 d ago");
    const check = due[0]!.querySelector<HTMLInputElement>("input")!;
    check.checked = true;
    check.dispatchEvent(new Event("change"));
    await waitFor(() => (app.vault.text(REVIEWS) ?? "").includes("[next:: 2026-12-04]"));
    expect(app.vault.text(REVIEWS)).toContain(
      "- [ ] Weekly retro [every:: weekly] [next:: 2026-12-04]",
    );
    expect(app.vault.text(REVIEWS)).toContain(
      "- [ ] Monthly quality review [every:: monthly] [next:: 2026-12-15] ^r-002",
    );
    expect(Notice.shown.at(-1)?.text).toBe("Review r-001 done; next on 2026-12-04.");
    await waitFor(() => tab(view, "reviews").querySelector(".am-tab-due") === null);
  });

  it("goals show their latest progress; clicking opens the item's line and its source block", async () => {
    const app = new App();
    await seedSmall(app);
    const view = await openView(app);
    tab(view, "goals").click();
    await view.rendering;
    expect(view.contentEl.querySelector(".am-goal-progress")?.textContent).toBe(
      "2026-11-27: bounce rate matters more than the framework",
    );
    tab(view, "tasks").click();
    await view.rendering;
    const row = rows(view).find((r) => r.dataset.id === "t-001")!;
    row.querySelector<HTMLElement>(".am-tracker-text")!.click();
    row.querySelector<HTMLElement>(".am-source-link")!.click();
    expect(app.workspace.opened.map((o) => [o.linktext, o.sourcePath])).toEqual([
      [`${TASKS}#^t-001`, ""],
      ["2026-11-02#^am-k3f9", TASKS],
    ]);
  });

  it("marks a superseded decision and opens the one that replaced it; the current one is not marked", async () => {
    const app = new App();
    const DECISIONS = "Memory/Agents/link/Trackers/Decisions.md";
    await app.vault.seed(
      DECISIONS,
      [
        "# Decisions",
        "",
        `- [x] ship on Fridays [decided:: 2026-11-02] [superseded_by:: [[${DECISIONS.slice(0, -3)}#^d-002]]] ^d-001`,
        `- [x] ship on Thursdays [decided:: 2026-11-20] [supersedes:: [[${DECISIONS.slice(0, -3)}#^d-001]]] ^d-002`,
        "- [x] freeze on holidays [decided:: 2026-11-21] [valid_to:: 2026-11-30] ^d-003",
        "",
      ].join("\n"),
    );
    await app.vault.createFolder("Memory/Agents/me");
    const view = await openView(app);
    tab(view, "decisions").click();
    await view.rendering;
    const filter = view.contentEl.querySelector<HTMLSelectElement>(".am-status-filter")!;
    filter.value = "all";
    filter.dispatchEvent(new Event("change"));
    await view.rendering;
    const shown = rows(view).map((r) => [
      r.dataset.id,
      r.classList.contains("is-superseded"),
      r.querySelector(".am-superseded")?.textContent ?? null,
    ]);
    expect(shown).toEqual([
      ["d-001", true, "superseded by d-002"],
      ["d-002", false, null],
      ["d-003", true, "superseded"],
    ]);
    rows(view)[0]!.querySelector<HTMLElement>(".am-superseded")!.click();
    expect(app.workspace.opened.map((o) => [o.linktext, o.sourcePath])).toEqual([
      [`${DECISIONS.slice(0, -3)}#^d-002`, DECISIONS],
    ]);
  });

  it("says where a missing tracker note was expected", async () => {
    const app = new App();
    await app.vault.createFolder("Memory");
    const view = await openView(app);
    expect(view.contentEl.querySelector(".am-empty")?.textContent).toBe(
      "No tasks note yet for link (Memory/Agents/link/Trackers/Tasks.md).",
    );
  });
});
