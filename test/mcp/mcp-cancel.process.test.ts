// A cancelled `extract` stops and writes nothing more (docs/mcp.md, "Cancelling"), through the SDK's
// own clients on the built dist/cli.js: over stdio and over HTTP the client's
// `notifications/cancelled`, and over HTTP a connection closed before the answer. The model is the
// local stub server, made to hang, so the call is in flight until it is cancelled; without
// cancellation its request would stay open (the polls below would give up).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStubServer, type StubServer } from "../helpers/llm-stub-server";
import { pollUntil, startMcp, textOf } from "../helpers/mcp-client";
import { addTokenCli, startHttpMcp } from "../helpers/mcp-http";
import { httpClient } from "../helpers/mcp-http-client";
import { sampleVaultCopy } from "../helpers/temp-vault";

const JOURNAL = "Memory/Agents/link/Journal/2026-11-29.md";
const TASKS = "Memory/Agents/link/Trackers/Tasks.md";

describe("mcp: a cancelled extract stops where it is", () => {
  let llm: StubServer;
  let vault: ReturnType<typeof sampleVaultCopy>;
  const file = (p: string) => readFileSync(join(vault.root, p), "utf8");
  let env: Record<string, string>;
  beforeAll(async () => {
    llm = await startStubServer({ fallback: { hang: true } });
    env = {
      AGENT_MEMORY_LLM_BASE_URL: llm.baseUrl,
      AGENT_MEMORY_LLM_API_KEY: "sk-test-cancel",
      AGENT_MEMORY_LLM_MODEL: "test-model",
    };
    vault = sampleVaultCopy();
    writeFileSync(
      join(vault.root, JOURNAL),
      "---\nid: journal-link-2026-11-29\ntype: journal\nagent: link\nstatus: active\ncreated_at: 2026-11-29\n---\n# 2026-11-29\n\n- [ ] Renew the quokka certificate\n",
    );
  }, 60_000);
  afterAll(async () => {
    await llm?.close();
    vault?.cleanup();
  });

  /** Waits for the model's `n`-th chat request, then returns it once its client has let it go. */
  async function inFlight(n: number) {
    return pollUntil(async () => Promise.resolve(llm.chatRequests()[n - 1]), 800, 25);
  }
  async function abandoned(n: number) {
    return pollUntil(
      async () => Promise.resolve(llm.chatRequests()[n - 1]?.abandoned ? true : undefined),
      800,
      25,
    );
  }

  it("over stdio: the client's cancel aborts the model's request; nothing is written and the server answers on", async () => {
    const tasks = file(TASKS);
    const journal = file(JOURNAL);
    const s = await startMcp(vault.root, ["--agent", "link"], env);
    try {
      const stop = new AbortController();
      const call = s.client.callTool(
        { name: "extract", arguments: { journal: JOURNAL, apply: true } },
        undefined,
        { signal: stop.signal },
      );
      const asked = llm.chatRequests().length;
      await inFlight(asked + 1);
      stop.abort("the user pressed Esc");
      await expect(call).rejects.toThrow(/Esc|abort/i);
      await abandoned(asked + 1);
      await pollUntil(async () =>
        Promise.resolve(
          /mcp: extract: cancelled by the client; wrote 0 note/.test(s.stderr()) || undefined,
        ),
      );
      expect(file(TASKS)).toBe(tasks);
      expect(file(JOURNAL)).toBe(journal);
      const after = await s.call("search", { query: "quokka" });
      expect(after.isError, textOf(after)).toBeFalsy();
    } finally {
      await s.close();
    }
  }, 60_000);

  it("over HTTP: the SDK client's cancel and a connection closed before the answer both abort it", async () => {
    const tasks = file(TASKS);
    const journal = file(JOURNAL);
    const t = addTokenCli(vault.root, "--agent", "link");
    const s = await startHttpMcp(vault.root, [], env);
    try {
      // The SDK's client: notifications/cancelled names the id the client gave its request.
      const { client } = await httpClient(s.url, t.token);
      const stop = new AbortController();
      const call = client.callTool(
        { name: "extract", arguments: { journal: JOURNAL, apply: true } },
        undefined,
        { signal: stop.signal },
      );
      let asked = llm.chatRequests().length;
      await inFlight(asked + 1);
      stop.abort("cancelled");
      await expect(call).rejects.toThrow(/cancel|abort/i);
      await abandoned(asked + 1);

      // A plain POST of the call on the client's session, its connection closed mid-call.
      const session = (client.transport as { sessionId?: string } | undefined)?.sessionId ?? "";
      const cut = new AbortController();
      const post = fetch(s.url, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${t.token}`,
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
          "Mcp-Session-Id": session,
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "extract", arguments: { journal: JOURNAL, apply: true } },
        }),
        signal: cut.signal,
      });
      asked = llm.chatRequests().length;
      await inFlight(asked + 1);
      cut.abort();
      await expect(post).rejects.toThrow();
      await abandoned(asked + 1);
      await pollUntil(async () =>
        Promise.resolve(
          (s.stderr().match(/mcp: extract: cancelled by the client; wrote 0 note/g) ?? [])
            .length === 2 || undefined,
        ),
      );
      expect(file(TASKS)).toBe(tasks);
      expect(file(JOURNAL)).toBe(journal);
      expect((await client.ping()) as unknown).toEqual({});
      await client.close();
    } finally {
      await s.stop();
    }
  }, 60_000);
});
