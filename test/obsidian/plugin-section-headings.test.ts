// @vitest-environment happy-dom
// The plugin's settings tab exposes the sectionHeadings table, one comma-separated list
// per category, validated by the settings schema (a heading under two categories is refused).
import "../setup-dom";
import { beforeEach, describe, expect, it } from "vitest";
import { App } from "../stubs/obsidian";
import { DEFAULT_SECTION_HEADINGS } from "../../src/core/extraction/section-headings";
import { openSettingsTab as tabRow, resetUi, waitFor } from "../stubs/obsidian-fixtures";

const DATA = ".obsidian/plugins/agent-memory/data.json";

function type(input: HTMLInputElement, value: string): void {
  input.value = value;
  input.dispatchEvent(new Event("input"));
}

describe("settings tab: headings the offline extractor reads", () => {
  beforeEach(resetUi);

  it("shows each category's headings and saves an edited list", async () => {
    const app = new App();
    const { plugin, row } = await tabRow(app);
    const tasks = row("Headings read as tasks").querySelector("input")!;
    expect(tasks.value).toBe(DEFAULT_SECTION_HEADINGS.task.join(", "));
    for (const name of ["goals", "patterns", "improvements", "knowledge", "decisions", "questions"])
      expect(row(`Headings read as ${name}`)).toBeTruthy();
    type(tasks, "Next steps, Blockers");
    await waitFor(() => (app.vault.adapter.files.get(DATA) ?? "").includes("Blockers"));
    expect(plugin.memorySettings.sectionHeadings.task).toEqual(["Next steps", "Blockers"]);
  });

  it("refuses a heading already listed under another category, with the reason", async () => {
    const app = new App();
    const { plugin, row } = await tabRow(app);
    const questions = row("Headings read as questions");
    type(questions.querySelector("input")!, "Open questions, Action items");
    await waitFor(() => questions.querySelector(".am-setting-error") !== null);
    expect(questions.querySelector(".am-setting-error")?.textContent).toContain(
      '"Action items" is listed under both task and question',
    );
    expect(plugin.memorySettings.sectionHeadings.question).toEqual(
      DEFAULT_SECTION_HEADINGS.question,
    );
  });
});
