// @vitest-environment happy-dom
/**
 * The plugin as a whole, from source: its commands against the stubbed app, and the language-model
 * path end to end (API key from secret storage, `requestUrl` as the SDK's fetch) against a local
 * OpenAI-compatible stub server on 127.0.0.1.
 */
import "../setup-dom";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { App, Modal, Notice, type PluginManifest } from "../stubs/obsidian";
import AgentMemoryPlugin from "../../src/main";
import { realApp, resetUi, stubPlugin, waitFor } from "../stubs/obsidian-fixtures";

const manifest: PluginManifest = {
  id: "agent-memory",
  name: "Agent Memory",
  version: "0.1.0",
  minAppVersion: "1.11.4",
  description: "test",
  author: "test",
};
const JOURNAL = "Memory/Agents/me/Journal/2026-03-27.md";
const journal =
  "# 2026-03-27\n\n- [ ] Renew passport\n\nDecision: we publish on Tuesdays from now on.\n\nCall Person B about the contract renewal.\n";

async function start(app: App): Promise<AgentMemoryPlugin> {
  const plugin = new AgentMemoryPlugin(realApp(app), manifest);
  const stub = stubPlugin(plugin);
  stub.load();
  await stub.loading;
  return plugin;
}

function command(app: App, id: string) {
  const cmd = app.commands.get(`agent-memory:${id}`);
  if (!cmd) throw new Error(`no command ${id}`);
  return cmd;
}

/** A minimal OpenAI-compatible server: `/models` and `/chat/completions`, recording requests. */
function stubServer(reply: (body: Record<string, unknown>) => { status: number; json: unknown }) {
  const seen: { url: string; auth: string | undefined; body: Record<string, unknown> }[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const body = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
      seen.push({ url: req.url ?? "", auth: req.headers.authorization, body });
      const out = req.url?.endsWith("/models")
        ? { status: 200, json: { object: "list", data: [{ id: "stub-model", object: "model" }] } }
        : reply(body);
      res.writeHead(out.status, { "content-type": "application/json" });
      res.end(JSON.stringify(out.json));
    });
  });
  return {
    seen,
    listen: () =>
      new Promise<string>((resolve) =>
        server.listen(0, "127.0.0.1", () =>
          resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`),
        ),
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function chatReply(items: unknown[]) {
  return {
    status: 200,
    json: {
      id: "chatcmpl-1",
      object: "chat.completion",
      created: 0,
      model: "stub-model",
      choices: [
        {
          index: 0,
          finish_reason: "stop",
          message: { role: "assistant", content: JSON.stringify({ items }) },
        },
      ],
      usage: { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 },
    },
  };
}

describe("plugin commands", () => {
  let close: (() => Promise<void>) | null = null;
  beforeEach(resetUi);
  afterEach(async () => {
    await close?.();
    close = null;
  });

  it("extract from current note is offered only for an open Markdown note, and opens the review", async () => {
    const app = new App();
    const file = await app.vault.seed(JOURNAL, journal);
    await start(app);
    const cmd = command(app, "extract-current-note");
    expect(cmd.checkCallback?.(true)).toBe(false);
    app.workspace.activeFile = file;
    expect(cmd.checkCallback?.(true)).toBe(true);
    cmd.checkCallback?.(false);
    await waitFor(() => Modal.openModals.length === 1);
    expect(Modal.openModals[0]?.contentEl.textContent).toContain("Renew passport");
  });

  it("opens both panels in the right sidebar, once each", async () => {
    const app = new App();
    await start(app);
    command(app, "open-trackers").callback?.();
    command(app, "open-search").callback?.();
    command(app, "open-trackers").callback?.();
    await waitFor(() => app.workspace.leaves.filter((l) => l.view).length === 2);
    expect(app.workspace.leaves.map((l) => l.view?.getViewType()).sort()).toEqual([
      "agent-memory-search",
      "agent-memory-trackers",
    ]);
  });

  it("rebuilds the search index and says how many notes it holds", async () => {
    const app = new App();
    await app.vault.seed(JOURNAL, journal);
    await start(app);
    app.workspace.triggerLayoutReady();
    command(app, "rebuild-search-index").callback?.();
    await waitFor(() =>
      Notice.shown.some((n) => n.text.startsWith("Search index rebuilt: 1 notes")),
    );
  });

  it("runs the health check, writes Health report.md at the memory root and opens it", async () => {
    const app = new App();
    await app.vault.seed(JOURNAL, journal);
    await start(app);
    command(app, "run-health-check").callback?.();
    await waitFor(
      () => app.workspace.opened.some((o) => o.linktext === "Memory/Health report.md"),
      5000,
    );
    expect(app.vault.text("Memory/Health report.md")).toMatch(/type: health-report/);
    // Local time with its offset, as every timestamp the tool writes (src/core/util/dates.ts).
    expect(app.vault.text("Memory/Health report.md")).toMatch(
      /\nupdated_at: \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}\n/,
    );
    expect(Notice.shown.at(-1)?.text).toMatch(/^Health check: 1 note checked/);
  });

  it("Test connection lists the server's models, or shows the exact error", async () => {
    const server = stubServer(() => ({ status: 500, json: {} }));
    const base = await server.listen();
    close = server.close;
    const app = new App();
    app.secretStorage.setSecret("llm-key", "sk-local-123");
    const plugin = await start(app);
    plugin.memorySettings = {
      ...plugin.memorySettings,
      llm: { ...plugin.memorySettings.llm, baseUrl: base, apiKeySecret: "llm-key" },
    };
    const tab = stubPlugin(plugin).settingTabs[0]!;
    tab.display();
    await waitFor(() => tab.containerEl.querySelector(".am-connection-result") !== null);
    const button = [...tab.containerEl.querySelectorAll("button")].find(
      (b) => b.textContent === "Test connection",
    )!;
    button.click();
    const result = () => tab.containerEl.querySelector(".am-connection-result")?.textContent ?? "";
    await waitFor(() => result().startsWith("Connected"), 5000);
    expect(result()).toBe("Connected. Models: stub-model.");
    expect(server.seen[0]?.auth).toBe("Bearer sk-local-123");

    plugin.memorySettings = {
      ...plugin.memorySettings,
      llm: { ...plugin.memorySettings.llm, baseUrl: "http://127.0.0.1:9/v1" },
    };
    button.click();
    await waitFor(
      () => tab.containerEl.querySelector(".am-connection-result.am-error") !== null,
      10_000,
    );
    expect(result()).toMatch(/127\.0\.0\.1:9/);
  });

  it("with a base URL set, extraction runs through the language model with the key from secret storage", async () => {
    const server = stubServer(() =>
      chatReply([
        {
          category: "task",
          text: "Call Person B about the contract renewal",
          evidence: "Call Person B about the contract renewal",
          confidence: 0.8,
        },
      ]),
    );
    const base = await server.listen();
    close = server.close;
    const app = new App();
    app.secretStorage.setSecret("llm-key", "sk-local-456");
    const file = await app.vault.seed(JOURNAL, journal);
    const plugin = await start(app);
    plugin.memorySettings = {
      ...plugin.memorySettings,
      llm: {
        ...plugin.memorySettings.llm,
        baseUrl: base,
        model: "stub-model",
        apiKeySecret: "llm-key",
      },
    };
    app.workspace.activeFile = file;
    command(app, "extract-current-note").checkCallback?.(false);
    expect(Notice.shown[0]?.text).toContain("with the language model");
    await waitFor(() => Modal.openModals.length === 1, 10_000);
    const text = Modal.openModals[0]!.contentEl.textContent ?? "";
    expect(text).toContain("Call Person B about the contract renewal");
    expect(text).toMatch(/Extractor: openai, \d+ calls?, \d+ \+ \d+ tokens/);
    const chats = server.seen.filter((r) => r.url.endsWith("/chat/completions"));
    expect(chats.length).toBeGreaterThan(0);
    expect(
      chats.every((r) => r.auth === "Bearer sk-local-456" && r.body.model === "stub-model"),
    ).toBe(true);
  });
});
