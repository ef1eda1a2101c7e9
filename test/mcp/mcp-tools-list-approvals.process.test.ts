// The MCP tool list as a client sees it, through the SDK's own client on the built dist/cli.js
// (docs/mcp.md, "Tools"): the whole `tools/list` against its approval file (docs/testing.md,
// "Approval files"), its size in tokens, the share of arguments with a description.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { estimateTokens } from "../../src/core/llm/tokens";
import { expectApproved } from "../helpers/approval";
import { startMcp, type McpSession } from "../helpers/mcp-client";
import { sampleVaultCopy } from "../helpers/temp-vault";

/** Most tokens the whole `tools/list` may take in an agent's context (`estimateTokens`). */
const TOOL_LIST_BUDGET = 4000;

describe("mcp tools/list", () => {
  let vault: ReturnType<typeof sampleVaultCopy>;
  let s: McpSession;
  beforeAll(async () => {
    vault = sampleVaultCopy();
    s = await startMcp(vault.root, ["--agent", "link"]);
  }, 60_000);
  afterAll(async () => {
    await s?.close();
    vault?.cleanup();
  });

  it("is the approved list (npm run approve re-approves it)", async () => {
    const { tools } = await s.client.listTools();
    expectApproved(
      `${JSON.stringify({ tools }, null, 2)}\n`,
      new URL("./approved/tools-list.json", import.meta.url),
    );
  });

  it(`stays within ${TOOL_LIST_BUDGET} tokens as the brief's budget counts them`, async () => {
    const { tools } = await s.client.listTools();
    expect(estimateTokens(JSON.stringify({ tools }))).toBeLessThanOrEqual(TOOL_LIST_BUDGET);
  });

  it("describes at least 80% of all arguments, and every tool has a title", async () => {
    const { tools } = await s.client.listTools();
    let all = 0;
    let described = 0;
    for (const t of tools) {
      expect(t.title, t.name).toBeTruthy();
      const props = (t.inputSchema.properties ?? {}) as Record<string, { description?: string }>;
      for (const p of Object.values(props)) {
        all++;
        if (p.description) described++;
      }
    }
    expect(all).toBeGreaterThan(30);
    expect(described / all).toBeGreaterThanOrEqual(0.8);
  });
});
