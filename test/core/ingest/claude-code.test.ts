import { describe, expect, it } from "vitest";
import { parseClaudeCode } from "../../../src/core/ingest/claude-code";
import { ccLine, fixture, NEVER } from "./transcript-fixtures";

const S = "7f3a9c2e-1b4d-4e8a-9c11-2d5e6f7a8b90";

describe("parseClaudeCode", () => {
  it("gives requests, conclusions and what was done, and never tool output, file contents or thinking", () => {
    const r = parseClaudeCode(fixture("claude-code-session.jsonl"));
    expect(r.sessions).toHaveLength(1);
    const s = r.sessions[0]!;
    expect(s).toMatchObject({
      id: S,
      format: "claude-code",
      cwd: "/home/dev/shop",
      title: "Fix the CRLF parser bug",
    });
    expect(s.turns.map((t) => t.request)).toEqual([
      "The parser test fails on Windows files. Fix it, please.",
      "/review src/exporter.ts",
      "Now refactor the whole tokenizer.",
    ]);
    const [first, review, stopped] = s.turns;
    expect(first!.key).toBe("u-0001");
    expect(first!.at).toBe("2026-11-30T09:02:11.000Z");
    // Every text of the turn is kept, in order: the one before the first tool call too.
    expect(first!.conclusion).toMatch(/^Let me run the tests first\.\n\nThe parser now splits/);
    expect(first!.actions).toEqual([
      { kind: "ran", target: "npm test -- parser", failed: true },
      { kind: "edited", target: "src/parser.ts" },
      { kind: "wrote", target: "test/fixtures/crlf.txt" },
      { kind: "ran", target: "npm test -- parser" },
    ]);
    // A subagent's edit counts for the turn; its words do not.
    expect(review!.actions).toEqual([{ kind: "edited", target: "src/exporter.ts" }]);
    expect(stopped!.interrupted).toBe(true);
    // What it wrote before the person stopped it is kept.
    expect(stopped!.conclusion).toBe("I'll start with the scanner.");
    expect(JSON.stringify(r)).not.toContain(NEVER);
    expect(JSON.stringify(r)).not.toContain("system-reminder");
    expect(r.unknownTypes).toEqual(["some-future-type"]);
    expect(r.badLines).toEqual([]);
    expect(r.cutLastLine).toBe(false);
  });

  it("lists lines that are not JSON and takes a cut last line for one still being written", () => {
    const r = parseClaudeCode(fixture("claude-code-damaged.jsonl"));
    expect(r.badLines).toEqual([4, 5]);
    expect(r.cutLastLine).toBe(true);
    expect(r.sessions[0]!.turns).toHaveLength(1);
  });

  it("a bad line in the middle is not a cut line", () => {
    const r = parseClaudeCode(
      `{"type":"user"\n${ccLine(S, "user", "u1", "2026-11-30T09:00:00Z", "hi")}\n`,
    );
    expect(r.badLines).toEqual([1]);
    expect(r.cutLastLine).toBe(false);
  });

  it("keeps a resumed session's copied records under their own session", () => {
    const r = parseClaudeCode(fixture("claude-code-resumed.jsonl"));
    expect(r.sessions.map((s) => [s.id, s.turns.length])).toEqual([
      [S, 1],
      ["c0ffee00-2222-4333-8444-555566667777", 1],
    ]);
  });

  it("leaves a last request with no reply out, as pending, and takes it once answered", () => {
    const asked = ccLine(S, "user", "u1", "2026-11-30T09:00:00Z", "Explain the build.");
    const pending = parseClaudeCode(`${asked}\n`);
    expect(pending.sessions[0]!.turns).toEqual([]);
    expect(pending.sessions[0]!.pendingTurn).toBe(true);
    const answered = parseClaudeCode(
      `${asked}\n${ccLine(S, "assistant", "a1", "2026-11-30T09:00:05Z", [{ type: "text", text: "It uses esbuild." }])}\n`,
    );
    expect(answered.sessions[0]!.turns[0]!.conclusion).toBe("It uses esbuild.");
    expect(answered.sessions[0]!.pendingTurn).toBe(false);
  });

  it("takes no title from a summary of another session (its leafUuid is not in the file)", () => {
    const text = [
      JSON.stringify({ type: "summary", summary: "Someone else's work", leafUuid: "elsewhere" }),
      ccLine(S, "user", "u1", "2026-11-30T09:00:00Z", "hi"),
      ccLine(S, "assistant", "a1", "2026-11-30T09:00:01Z", [{ type: "text", text: "hello" }]),
    ].join("\n");
    expect(parseClaudeCode(text).sessions[0]!.title).toBeUndefined();
  });

  it("keeps the text written before a tool call, in order, without thinking or tool output", () => {
    const r = parseClaudeCode(fixture("claude-code-text-before-tool.jsonl"));
    const [setup, warm] = r.sessions[0]!.turns;
    expect(setup!.conclusion).toBe(
      "Decision: we pin redis to 7.2 for now.\n\n" +
        "TODO: move the redis version into `.env` once staging is stable.\n\n" +
        "Staging now runs redis 7.2.",
    );
    expect(setup!.actions).toEqual([
      { kind: "edited", target: "docker-compose.yml" },
      { kind: "ran", target: "docker compose up -d redis" },
    ]);
    expect(warm!.conclusion).toBe("Yes, the hit rate is back to normal.");
    expect(JSON.stringify(r)).not.toContain(NEVER);
  });

  it("reads a 5 MB tool result without keeping any of it", () => {
    const big = "x".repeat(5 * 1024 * 1024);
    const text = [
      ccLine(S, "user", "u1", "2026-11-30T09:00:00Z", "Dump the log."),
      ccLine(S, "assistant", "a1", "2026-11-30T09:00:01Z", [
        { type: "tool_use", id: "t1", name: "Bash", input: { command: "cat big.log" } },
      ]),
      ccLine(S, "user", "u2", "2026-11-30T09:00:02Z", [
        { type: "tool_result", tool_use_id: "t1", content: big },
      ]),
      ccLine(S, "assistant", "a2", "2026-11-30T09:00:03Z", [
        { type: "text", text: "The log is long." },
      ]),
    ].join("\n");
    const r = parseClaudeCode(text);
    expect(r.sessions[0]!.turns).toHaveLength(1);
    expect(JSON.stringify(r).length).toBeLessThan(2000);
  });
});
