// @vitest-environment happy-dom
import "../setup-dom";
import { beforeEach, describe, expect, it } from "vitest";
import { App, Notice, type PluginManifest } from "../stubs/obsidian";
import AgentMemoryPlugin from "../../src/main";
import { defaultSettings } from "../../src/core/settings";
import { testConnection } from "../../src/obsidian/adapters/llm-host";
import { realApp, resetUi, stubPlugin, waitFor } from "../stubs/obsidian-fixtures";

const manifest: PluginManifest = {
  id: "agent-memory",
  name: "Agent Memory",
  version: "0.1.0",
  minAppVersion: "1.11.4",
  description: "test",
  author: "test",
};
const DATA = ".obsidian/plugins/agent-memory/data.json";

async function loadPlugin(app: App): Promise<AgentMemoryPlugin> {
  const plugin = new AgentMemoryPlugin(realApp(app), manifest);
  await plugin.onload();
  return plugin;
}

/** Renders the settings tab and returns a lookup of its rows by name. */
async function openTab(plugin: AgentMemoryPlugin): Promise<(name: string) => HTMLElement> {
  const tab = stubPlugin(plugin).settingTabs[0];
  if (!tab) throw new Error("no settings tab");
  tab.display();
  await waitFor(() => tab.containerEl.querySelector(".setting-item") !== null);
  return (name: string) => {
    const rows = [...tab.containerEl.querySelectorAll<HTMLElement>(".setting-item")];
    const row = rows.find((r) => r.querySelector(".setting-item-name")?.textContent === name);
    if (!row) throw new Error(`no setting named ${name}`);
    return row;
  };
}

function type(input: HTMLInputElement, value: string): void {
  input.value = value;
  input.dispatchEvent(new Event("input"));
}

describe("settings", () => {
  beforeEach(resetUi);

  it("round-trips through data.json: a change is saved and read back by a new plugin instance", async () => {
    const app = new App();
    const plugin = await loadPlugin(app);
    const row = await openTab(plugin);
    type(row("Memory root").querySelector("input")!, "Brain");
    type(row("Timeout").querySelector("input")!, "90");
    const mode = row("After extraction").querySelector("select")!;
    mode.value = "apply";
    mode.dispatchEvent(new Event("change"));
    await waitFor(() => (app.vault.adapter.files.get(DATA) ?? "").includes('"apply"'));

    const again = await loadPlugin(app);
    expect(again.memorySettings.memoryRoot).toBe("Brain");
    expect(again.memorySettings.llm.timeoutMs).toBe(90_000);
    expect(again.memorySettings.reviewMode).toBe("apply");
    expect({
      ...again.memorySettings,
      memoryRoot: "Memory",
      reviewMode: "review",
      llm: { ...again.memorySettings.llm, timeoutMs: 60_000 },
    }).toEqual(defaultSettings());
  });

  it("the API key lives in secret storage; data.json holds only the secret's name", async () => {
    const app = new App();
    const KEY = "sk-test-5f0c1d2e3a4b";
    app.secretStorage.setSecret("openai-key", KEY);
    const plugin = await loadPlugin(app);
    const row = await openTab(plugin);
    type(row("Base URL").querySelector("input")!, "http://127.0.0.1:9/v1");
    const picker = row("API key").querySelector<HTMLSelectElement>("select.secret-component")!;
    picker.value = "openai-key";
    picker.dispatchEvent(new Event("change"));
    await waitFor(() => (app.vault.adapter.files.get(DATA) ?? "").includes("openai-key"));
    const saved = app.vault.adapter.files.get(DATA) ?? "";
    expect(saved).not.toContain(KEY);
    expect((JSON.parse(saved) as { llm: { apiKeySecret: string } }).llm.apiKeySecret).toBe(
      "openai-key",
    );
    for (const text of app.vault.adapter.files.values()) expect(text).not.toContain(KEY);
  });

  it("a bad data.json falls back to the defaults with a notice, never a crash", async () => {
    const app = new App();
    app.vault.adapter.files.set(DATA, JSON.stringify({ memoryRoot: 42, llm: { timeoutMs: -5 } }));
    const plugin = await loadPlugin(app);
    expect(plugin.memorySettings).toEqual(defaultSettings());
    expect(Notice.shown.map((n) => n.text).join("\n")).toMatch(
      /invalid setting "memoryRoot".*defaults/,
    );
  });

  it("refuses an invalid value with a reason and does not save it", async () => {
    const app = new App();
    const plugin = await loadPlugin(app);
    const row = await openTab(plugin);
    const retries = row("Retries");
    type(retries.querySelector("input")!, "99");
    await waitFor(() => retries.querySelector(".am-setting-error") !== null);
    expect(retries.querySelector(".am-setting-error")?.textContent).toMatch(/llm\.maxRetries/);
    expect(plugin.memorySettings.llm.maxRetries).toBe(2);
    expect(app.vault.adapter.files.get(DATA)).toBeUndefined();
    type(retries.querySelector("input")!, "abc");
    expect(retries.querySelector(".am-setting-error")?.textContent).toBe("Enter a number.");
  });

  it("refuses a base URL with credentials under the control, and Test connection says why without a request", async () => {
    const app = new App();
    const plugin = await loadPlugin(app);
    const row = await openTab(plugin);
    const base = row("Base URL");
    type(base.querySelector("input")!, "http://user:secret@127.0.0.1:9/v1");
    await waitFor(() => base.querySelector(".am-setting-error") !== null);
    const shown = base.querySelector(".am-setting-error")?.textContent ?? "";
    expect(shown).toMatch(/credentials.*API key setting/);
    expect(shown).not.toMatch(/secret|user:/);
    expect(plugin.memorySettings.llm.baseUrl).toBe("");
    expect(app.vault.adapter.files.get(DATA)).toBeUndefined();

    let requests = 0;
    const fetch = () => {
      requests++;
      return Promise.reject(new TypeError("not to be called"));
    };
    for (const baseUrl of ["http://user:secret@127.0.0.1:9/v1", "ftp://127.0.0.1:9/v1"]) {
      const result = await testConnection(
        realApp(app),
        { ...defaultSettings(), llm: { ...defaultSettings().llm, baseUrl } },
        fetch,
      );
      expect(result.ok).toBe(false);
      const error = result.ok ? "" : result.error;
      expect(error).toMatch(/^The base URL (has credentials|does not start with http)/);
      expect(error).not.toMatch(/secret|user:/);
    }
    expect(requests).toBe(0);
  });

  it("has a heading per section and discovers agents from folders", async () => {
    const app = new App();
    await app.vault.seed("Memory/Agents/link/Journal/2026-11-02.md", "x");
    await app.vault.createFolder("Memory/Agents/ming");
    const plugin = await loadPlugin(app);
    const row = await openTab(plugin);
    const headings = [
      ...stubPlugin(plugin).settingTabs[0]!.containerEl.querySelectorAll(
        ".setting-item-heading .setting-item-name",
      ),
    ].map((h) => h.textContent);
    expect(headings).toEqual([
      "Memory folders",
      "Agents",
      "Journals",
      "Language model",
      "Extraction",
      "Destinations",
      "Watch and extract",
      "Agent sessions",
      "Search",
      "Semantic search",
      "Health check",
    ]);
    const options = [...row("Default agent").querySelectorAll("option")].map((o) => o.value);
    expect(options).toEqual(["link", "me", "ming"]);
  });
});
