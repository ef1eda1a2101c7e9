// @vitest-environment happy-dom
// Importing agent sessions in the plugin (docs/agents.md, "Importing past sessions"): the import
// modal over picked files and the watched transcript folder, both through the core's ingest.
import "../setup-dom";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { App, Notice } from "../stubs/obsidian";
import { defaultSettings } from "../../src/core/settings";
import { ImportSessionsModal } from "../../src/obsidian/modals/import-sessions-modal";
import { SessionFolderWatch } from "../../src/obsidian/runners/session-import";
import { realApp, resetUi, testContext } from "../stubs/obsidian-fixtures";

const FIXTURES = join(__dirname, "../fixtures/transcripts");
const fixture = (name: string) => readFileSync(join(FIXTURES, name), "utf8");
const JOURNALS = "Memory/Agents/me/Journal/";
const AWS = "AKIAQ7ZX4PLM2RTY8WNB";

function picked(name: string, text: string) {
  return { name, text: () => Promise.resolve(text) };
}

function journals(app: App): string[] {
  return app.vault
    .getMarkdownFiles()
    .map((f) => f.path)
    .filter((p) => p.startsWith(JOURNALS))
    .sort();
}

describe("import agent sessions", () => {
  beforeEach(resetUi);

  it("imports picked Claude Code and Codex files into the agent's journals; again adds nothing", async () => {
    const app = new App();
    const ctx = testContext(app);
    const extracted: string[] = [];
    const open = () =>
      new ImportSessionsModal(realApp(app), ctx, (journal) => {
        extracted.push(journal);
        return Promise.resolve();
      });
    const modal = open();
    modal.open();
    modal.pick([
      picked("session.jsonl", fixture("claude-code-session.jsonl")),
      picked("rollout.jsonl", fixture("codex-rollout.jsonl")),
    ]);
    await modal.run();
    const written = journals(app);
    expect(written.length).toBeGreaterThan(0);
    const text = await Promise.all(written.map((p) => ctx.vault.read(p)));
    expect(text.join("\n")).toMatch(/## Claude Code session 7f3a9c2e/);
    expect(text.join("\n")).toMatch(/## Codex session/);
    expect(Notice.shown.at(-1)?.text).toMatch(/^Imported \d+ new turns of 2 sessions into/);
    expect(extracted.sort()).toEqual(written);

    const writes = app.vault.writes;
    const again = open();
    again.open();
    again.pick([picked("session.jsonl", fixture("claude-code-session.jsonl"))]);
    await again.run();
    expect(app.vault.writes).toBe(writes);
    expect(Notice.shown.at(-1)?.text).toBe("Nothing new: every turn is in the journal already.");
  });

  it("a file that is not a transcript is named in the notice and writes nothing", async () => {
    const app = new App();
    const ctx = testContext(app);
    const modal = new ImportSessionsModal(realApp(app), ctx, () => Promise.resolve());
    modal.open();
    modal.pick([picked("notes.jsonl", '{"hello": "world"}\n')]);
    await modal.run();
    expect(journals(app)).toEqual([]);
    expect(Notice.shown.at(-1)?.text).toMatch(/^notes\.jsonl: /);
  });

  it("a watched folder is off by default; when set, a transcript added there is imported, secrets redacted", async () => {
    const app = new App();
    const settings = defaultSettings();
    const ctx = testContext(app, settings);
    const watch = new SessionFolderWatch(ctx);
    watch.load();
    app.workspace.triggerLayoutReady();
    const line = (type: string, uuid: string, content: unknown) =>
      JSON.stringify({
        type,
        uuid,
        sessionId: "5b1e0c44-0000-4000-8000-000000000001",
        timestamp: "2026-11-30T10:00:00Z",
        message: { role: type, content },
      });
    const transcript = [
      line("user", "u1", `Deploy with key ${AWS} please.`),
      line("assistant", "a1", [
        { type: "text", text: "Deployed.\n\n## Next steps\n- Rotate the key" },
      ]),
      "",
    ].join("\n");
    await app.vault.createFolder("Transcripts");
    await app.vault.createFolder("Transcripts/me");
    await app.vault.create("Transcripts/me/a.jsonl", transcript);
    await watch.flush();
    expect(journals(app)).toEqual([]);

    settings.sessionImport.folders = { me: "Transcripts/me" };
    await app.vault.create("Transcripts/me/b.jsonl", transcript);
    await app.vault.create("Transcripts/other.jsonl", transcript);
    await watch.flush();
    const [journal] = journals(app);
    expect(journal).toBeDefined();
    const text = await ctx.vault.read(journal!);
    expect(text).toContain("Rotate the key");
    expect(text).not.toContain(AWS);
    expect(watch.agentFor("Transcripts/other.jsonl")).toBeNull();
    // The same file changed without new turns writes nothing.
    const writes = app.vault.writes;
    await app.vault.modify(app.vault.getFileByPath("Transcripts/me/b.jsonl")!, transcript);
    await watch.flush();
    expect(app.vault.writes).toBe(writes + 1);
    watch.unload();
  });
});
