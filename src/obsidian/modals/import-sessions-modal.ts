/**
 * "Import agent sessions" (docs/agents.md, "Importing past sessions"): pick the agent, the format
 * (or let it be told from the file) and one or more transcript files (`.jsonl`) with the system's
 * file picker; they are read in memory and ingested ({@link importSessions}), then each journal
 * written is offered for extraction (the plan review, as for any journal).
 */
import { Modal, Notice, Setting, type App } from "obsidian";
import type { TranscriptFormat } from "../../core/ingest/types";
import { discoverAgents, type PluginContext } from "../context";
import { importSessions, importSummary, type TranscriptInput } from "../runners/session-import";

/** A picked file: its name and a way to read its text (the browser `File`). */
export interface PickedFile {
  name: string;
  text(): Promise<string>;
}

export class ImportSessionsModal extends Modal {
  private agent: string;
  private format: TranscriptFormat | "auto" = "auto";
  private picked: PickedFile[] = [];
  /** Resolves when the last import finished (tests wait on it). */
  done: Promise<void> = Promise.resolve();

  constructor(
    app: App,
    private readonly ctx: PluginContext,
    private readonly extract: (journal: string, agent: string) => Promise<void>,
  ) {
    super(app);
    this.agent = ctx.settings().defaultAgent;
  }

  override onOpen(): void {
    this.setTitle("Import agent sessions");
    const el = this.contentEl;
    el.empty();
    el.createEl("p", {
      text: "Claude Code transcripts (~/.claude/projects/…/<session>.jsonl) or Codex rollouts (~/.codex/sessions/…/rollout-*.jsonl). Only turns not yet in the journal are added; secrets are redacted.",
    });
    const agentSetting = new Setting(el).setName("Agent");
    void discoverAgents(this.ctx).then((agents) => {
      agentSetting.addDropdown((d) => {
        for (const a of agents) d.addOption(a, a);
        d.setValue(this.agent);
        d.onChange((v) => (this.agent = v));
      });
    });
    new Setting(el).setName("Format").addDropdown((d) => {
      d.addOptions({ auto: "Tell from the file", "claude-code": "Claude Code", codex: "Codex" });
      d.setValue(this.format);
      d.onChange((v) => (this.format = v === "claude-code" || v === "codex" ? v : "auto"));
    });
    const input = el.createEl("input", {
      cls: "am-import-files",
      type: "file",
      attr: { multiple: "", accept: ".jsonl,.json", "aria-label": "Transcript files" },
    });
    input.addEventListener("change", () => this.pick([...(input.files ?? [])]));
    const footer = el.createDiv({ cls: "am-review-footer" });
    footer.createEl("button", { text: "Cancel" }).addEventListener("click", () => this.close());
    footer
      .createEl("button", { cls: "mod-cta am-import-run", text: "Import" })
      .addEventListener("click", () => void this.run());
  }

  override onClose(): void {
    this.contentEl.empty();
  }

  /** Sets the files to import (the file input's `change`). */
  pick(files: PickedFile[]): void {
    this.picked = files;
  }

  /** Imports the picked files, says what happened, closes, and offers extraction. */
  run(): Promise<void> {
    this.done = this.importPicked();
    return this.done;
  }

  private async importPicked(): Promise<void> {
    if (this.picked.length === 0) {
      new Notice("Pick one or more transcript files first.");
      return;
    }
    const inputs: TranscriptInput[] = [];
    for (const f of this.picked) inputs.push({ name: f.name, text: await f.text() });
    const outcome = await importSessions(this.ctx, inputs, this.agent, this.format);
    new Notice(importSummary(outcome) || "Nothing to import.");
    this.close();
    for (const journal of outcome.written) await this.extract(journal, this.agent);
  }
}
