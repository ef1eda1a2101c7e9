// Every write argument of the MCP tools refused as the CLI and the journal refuse it (docs/mcp.md,
// "What a write tool refuses"), through the SDK's own client on the built dist/cli.js: a one-line
// tool error, and nothing written.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcp, textOf, type McpSession } from "../helpers/mcp-client";
import { sampleVaultCopy } from "../helpers/temp-vault";

const TASKS = "Memory/Agents/link/Trackers/Tasks.md";
const QUESTIONS = "Memory/Agents/link/Trackers/Questions.md";
const KNOWLEDGE = "Memory/Agents/link/Knowledge";

describe("mcp write tools refuse what the journal and the CLI refuse, writing nothing", () => {
  let vault: ReturnType<typeof sampleVaultCopy>;
  let s: McpSession;
  const file = (p: string) => readFileSync(join(vault.root, p), "utf8");
  const read = (p: string) => (existsSync(join(vault.root, p)) ? file(p) : null);
  beforeAll(async () => {
    vault = sampleVaultCopy();
    s = await startMcp(vault.root, ["--agent", "link"]);
  }, 60_000);
  afterAll(async () => {
    await s?.close();
    vault?.cleanup();
  });

  /** Calls `tool` with `args`, expects a one-line tool error matching `reason` and `path` unchanged. */
  async function refused(
    tool: string,
    args: Record<string, unknown>,
    reason: RegExp,
    path: string,
  ) {
    const before = read(path);
    const r = await s.call(tool, args);
    expect(r.isError, `${tool} ${JSON.stringify(args)}: ${textOf(r)}`).toBe(true);
    expect(textOf(r)).toMatch(reason);
    expect(textOf(r)).not.toContain("\n");
    expect(read(path)).toBe(before);
  }

  it("add_tracker_item: an empty or malformed to", async () => {
    const q = { kind: "questions", text: "Which pages need hreflang?" };
    await refused("add_tracker_item", { ...q, to: "" }, /to is empty/, QUESTIONS);
    await refused("add_tracker_item", { ...q, to: "@" }, /to is empty/, QUESTIONS);
    await refused("add_tracker_item", { ...q, to: "ming, " }, /empty name/, QUESTIONS);
    await refused(
      "add_tracker_item",
      { ...q, to: "ming/../atlas" },
      /not an agent name/,
      QUESTIONS,
    );
    const ok = await s.call("add_tracker_item", { ...q, to: "@ming, [[atlas]]" });
    expect(ok.isError, textOf(ok)).toBeFalsy();
    expect(file(QUESTIONS)).toContain("[to:: [[ming]], [[atlas]]]");
  });

  it("add_tracker_item: a source with a NUL byte or outside the vault, a blank text", async () => {
    const t = { kind: "tasks", text: "Check the canonical tags" };
    await refused(
      "add_tracker_item",
      { ...t, source: "2026-11-02\u0000#^am-1" },
      /control character/,
      TASKS,
    );
    await refused(
      "add_tracker_item",
      { ...t, source: "../../etc/passwd" },
      /outside the vault/,
      TASKS,
    );
    await refused("add_tracker_item", { ...t, source: "/etc/passwd" }, /outside the vault/, TASKS);
    await refused("add_tracker_item", { ...t, source: "" }, /source is empty/, TASKS);
    await refused("add_tracker_item", { kind: "tasks", text: "   " }, /text is blank/, TASKS);
    await refused(
      "add_tracker_item",
      { ...t, fields: { scheduled: "soon" } },
      /must be a date/,
      TASKS,
    );
  });

  it("append_journal: a NUL byte, a block over 100,000 characters; add_tracker_item: a text over 10,000", async () => {
    // Today's journal on the server's calendar (the same time zone as this process).
    const journal = `Memory/Agents/link/Journal/${new Date().toLocaleDateString("sv")}.md`;
    const journals = () => readdirSync(join(vault.root, "Memory/Agents/link/Journal")).sort();
    const listed = journals();
    await refused(
      "append_journal",
      { text: "ran it\u0000" },
      /text holds a control character/,
      journal,
    );
    await refused(
      "append_journal",
      { text: "log ".repeat(25_001) },
      /text is 100004 characters; at most 100000 are appended at once/,
      journal,
    );
    await refused(
      "add_tracker_item",
      { kind: "tasks", text: "x".repeat(10_001) },
      /text is 10001 characters; at most 10000 are taken/,
      TASKS,
    );
    expect(journals()).toEqual(listed);
  });

  it("update_tracker_item: due not a date; a progress note or an answer ending in a block id", async () => {
    const base = { kind: "tasks", id: "t-001" };
    await refused(
      "update_tracker_item",
      { ...base, fields: { due: "not-a-date" } },
      /due must be a date/,
      TASKS,
    );
    await refused(
      "update_tracker_item",
      { ...base, fields: { priority: "urgent" } },
      /priority must be one of/,
      TASKS,
    );
    await refused(
      "update_tracker_item",
      { ...base, progress: "see the audit ^t-003" },
      /block id/,
      TASKS,
    );
    await refused("update_tracker_item", { ...base, answer: "yes ^q-001" }, /block id/, TASKS);
    await refused("update_tracker_item", { ...base, progress: "  " }, /progress is blank/, TASKS);
    const ok = await s.call("update_tracker_item", { ...base, fields: { due: "2026-12-24" } });
    expect(ok.isError, textOf(ok)).toBeFalsy();
  });

  it("add_knowledge: an unknown category, a text ending in a block id, a source outside the vault", async () => {
    const k = { topic: "Sitemaps", text: "Sitemaps list canonical URLs only", confidence: 0.7 };
    const newNote = `${KNOWLEDGE}/learning/Sitemaps.md`;
    await refused(
      "add_knowledge",
      { ...k, category: "nonsense" },
      /category "nonsense" is not one of the vault's: learning/,
      newNote,
    );
    await refused(
      "add_knowledge",
      { ...k, text: "Sitemaps list URLs ^c-1a2b" },
      /block id/,
      newNote,
    );
    await refused("add_knowledge", { ...k, source: "../outside" }, /outside the vault/, newNote);
    const ok = await s.call("add_knowledge", { ...k, category: "Strategy" });
    expect(ok.isError, textOf(ok)).toBeFalsy();
    expect((ok.structuredContent as { path: string }).path).toBe(
      `${KNOWLEDGE}/strategy/Sitemaps.md`,
    );
  });

  it("answer_inbox_item: a from that is not an agent name; a text ending in a block id", async () => {
    const inboxOf = "Memory/Agents/ming/Trackers/Questions.md";
    await refused(
      "answer_inbox_item",
      { id: "q-001", from: "../ming", verb: "answer", text: "x" },
      /invalid agent name/,
      inboxOf,
    );
    await refused(
      "answer_inbox_item",
      { id: "q-001", from: "ming", verb: "answer", text: "yes ^q-002" },
      /block id/,
      inboxOf,
    );
  });
});
