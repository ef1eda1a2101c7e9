// @vitest-environment happy-dom
// The tracker panel's Inbox tab and the promotion modal on the fake Obsidian of test/stubs
// (docs/inbox.md): the tab lists what is addressed, accepting writes under the sender's item as
// the person, and the modal shows the plan before writing it; a zone's note is refused there.
import "../setup-dom";
import { beforeEach, describe, expect, it } from "vitest";
import { App, WorkspaceLeaf } from "../stubs/obsidian";
import { TrackerView } from "../../src/obsidian/views/tracker-view";
import { PromoteModal } from "../../src/obsidian/modals/promote-modal";
import { realApp, realLeaf, resetUi, testContext } from "../stubs/obsidian-fixtures";

const PROPOSALS = "Memory/Agents/link/Trackers/Proposals.md";
const KNOW = "Memory/Agents/link/Knowledge/learning/SEO audit.md";

/** The note's text, or `null` when there is none. */
async function text(app: App, path: string): Promise<string | null> {
  const file = app.vault.getFileByPath(path);
  return file ? app.vault.read(file) : null;
}

/** Polls `check` until it holds (a bound on tries, not a timing assertion). */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error("never held");
}

async function seed(app: App): Promise<void> {
  await app.vault.seed(
    PROPOSALS,
    "# Proposals\n\n- [ ] Publish on Tuesdays [state:: proposed] [to:: [[ming]]] [created:: 2026-11-18] ^p-001\n",
  );
  await app.vault.seed(
    "Memory/Agents/ming/Trackers/Questions.md",
    "# Questions\n\n- [ ] Which pages? [to:: [[link]]] [created:: 2026-11-05] ^q-001\n",
  );
  await app.vault.seed(
    KNOW,
    "# SEO audit\n\n> [!insight] 2026-11-10 · confidence 0.8\n> Canonical tags fix duplicates.\n^ins-1\n",
  );
  await app.vault.seed("Memory/Restricted/INC-1.md", "# Incident\n\nPLOVER\n");
  await app.vault.createFolder("Memory/Agents/me");
}

async function openView(app: App, agent: string) {
  const ctx = testContext(app, undefined, "2026-12-01");
  const view = new TrackerView(realLeaf(new WorkspaceLeaf(app.workspace)), ctx);
  view.agent = agent;
  view.load();
  await (view as unknown as { open(): Promise<void> }).open();
  return { view, ctx };
}

function inboxTab(view: TrackerView): HTMLElement {
  const el = view.contentEl.querySelector<HTMLElement>('.am-tracker-tab[data-kind="inbox"]');
  if (!el) throw new Error("no Inbox tab");
  return el;
}

describe("Inbox tab", () => {
  beforeEach(resetUi);

  it("lists what is addressed to the selected agent, with its count", async () => {
    const app = new App();
    await seed(app);
    const { view } = await openView(app, "link");
    expect(inboxTab(view).querySelector(".am-tab-count")?.textContent).toBe("1");
    inboxTab(view).click();
    await view.rendering;
    const rows = [...view.contentEl.querySelectorAll<HTMLElement>(".am-inbox-item")];
    expect(rows.map((r) => `${r.dataset.from}/${r.dataset.id}`)).toEqual(["ming/q-001"]);
  });

  it("the person's inbox holds the proposal waiting for approval; Accept writes it accepted", async () => {
    const app = new App();
    await seed(app);
    const { view } = await openView(app, "me");
    inboxTab(view).click();
    await view.rendering;
    const row = [...view.contentEl.querySelectorAll<HTMLElement>(".am-inbox-item")].find(
      (r) => r.dataset.id === "p-001",
    );
    expect(row?.dataset.from).toBe("link");
    row?.querySelector<HTMLButtonElement>(".am-inbox-accept")?.click();
    await eventually(async () => /\[state:: accepted\]/.test((await text(app, PROPOSALS)) ?? ""));
    expect(await text(app, PROPOSALS)).toMatch(
      /- \[x\] Publish on Tuesdays \[state:: accepted\] \[to:: \[\[ming\]\]\] \[created:: 2026-11-18\] \[completion:: 2026-12-01\] \^p-001\n/,
    );
  });
});

describe("promotion modal", () => {
  beforeEach(resetUi);

  it("shows source, destination and the lines to write; Promote writes them, once", async () => {
    const app = new App();
    await seed(app);
    const ctx = testContext(app, undefined, "2026-12-01");
    const modal = new PromoteModal(realApp(app), ctx, `${KNOW}#^ins-1`);
    modal.open();
    modal.contentEl.querySelector<HTMLInputElement>(".am-promote-area")!.value = "SEO";
    modal.contentEl.querySelector<HTMLButtonElement>(".am-promote-review")!.click();
    await modal.pending;
    const shown = modal.contentEl.querySelector(".am-promote-lines")?.textContent ?? "";
    expect(shown).toContain("destination: Memory/Library/SEO/SEO audit.md");
    expect(shown).toContain(
      "> [promoted_from:: [[Memory/Agents/link/Knowledge/learning/SEO audit#^ins-1]]] [promoted_at:: 2026-12-01]",
    );
    expect(await text(app, "Memory/Library/SEO/SEO audit.md")).toBeNull();
    modal.contentEl.querySelector<HTMLButtonElement>(".am-promote-confirm")!.click();
    await modal.pending;
    const lib = (await text(app, "Memory/Library/SEO/SEO audit.md")) ?? "";
    for (const line of modal.plan?.content.split("\n") ?? ["?"]) expect(lib).toContain(line);
    expect(await text(app, KNOW)).toContain(
      "> [promoted_to:: [[Memory/Library/SEO/SEO audit#^ins-1]]]",
    );
  });

  it("refuses a note of an isolated zone in the modal and writes nothing", async () => {
    const app = new App();
    await seed(app);
    const modal = new PromoteModal(
      realApp(app),
      testContext(app, undefined, "2026-12-01"),
      "Memory/Restricted/INC-1.md",
    );
    modal.open();
    modal.contentEl.querySelector<HTMLInputElement>(".am-promote-area")!.value = "SEO";
    modal.contentEl.querySelector<HTMLButtonElement>(".am-promote-review")!.click();
    await modal.pending;
    expect(modal.contentEl.querySelector(".am-error")?.textContent).toContain(
      "isolated zone Restricted",
    );
    expect(modal.contentEl.querySelector<HTMLButtonElement>(".am-promote-confirm")?.disabled).toBe(
      true,
    );
    expect(await text(app, "Memory/Library/SEO/INC-1.md")).toBeNull();
  });
});
