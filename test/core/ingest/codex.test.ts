import { describe, expect, it } from "vitest";
import { parseCodex } from "../../../src/core/ingest/codex";
import { detectFormat, parseTranscript } from "../../../src/core/ingest/parse";
import { fixture, NEVER } from "./transcript-fixtures";

describe("parseCodex", () => {
  it("gives requests, conclusions and what was done, and never output, reasoning or environment context", () => {
    const r = parseCodex(fixture("codex-rollout.jsonl"));
    expect(r.sessions).toHaveLength(1);
    const s = r.sessions[0]!;
    expect(s).toMatchObject({
      id: "019bce9f-0a40-79e2-8351-8818e8487fb6",
      format: "codex",
      cwd: "/home/dev/api",
    });
    expect(s.turns.map((t) => t.request)).toEqual([
      "Add rate limiting to the login endpoint.",
      "Also log every blocked attempt.",
    ]);
    const [first, second] = s.turns;
    expect(first!.actions).toEqual([
      { kind: "ran", target: "rg -n login src" },
      { kind: "edited", target: "src/routes/login.ts" },
      { kind: "wrote", target: "src/middleware/rate-limit.ts" },
      { kind: "ran", target: "npm test", failed: true },
      { kind: "ran", target: "npm test" },
    ]);
    expect(first!.conclusion).toMatch(/^Login is now limited/);
    expect(second!.interrupted).toBe(true);
    expect(second!.conclusion).toBeNull();
    const json = JSON.stringify(r);
    expect(json).not.toContain(NEVER);
    expect(json).not.toContain("environment_context");
    expect(json).not.toContain("gAAAA");
    expect(r.unknownTypes).toEqual(["ghost_snapshot"]);
  });

  it("gives the same turn keys on every read, and different keys to different requests", () => {
    const a = parseCodex(fixture("codex-rollout.jsonl")).sessions[0]!.turns.map((t) => t.key);
    const b = parseCodex(fixture("codex-rollout.jsonl")).sessions[0]!.turns.map((t) => t.key);
    expect(a).toEqual(b);
    expect(new Set(a).size).toBe(a.length);
  });

  it("keeps an assistant message written before a tool call, in order", () => {
    const item = (payload: unknown) =>
      JSON.stringify({ timestamp: "2026-11-30T14:00:00Z", type: "response_item", payload });
    const say = (role: string, type: string, text: string) =>
      item({ type: "message", role, content: [{ type, text }] });
    const text = [
      JSON.stringify({ type: "session_meta", payload: { id: "cx-2", cwd: "/home/dev/cache" } }),
      say("user", "input_text", "Pin redis in staging."),
      say("assistant", "output_text", "Decision: we pin redis to 7.2 for now."),
      item({
        type: "function_call",
        name: "shell",
        arguments: '{"command":["bash","-lc","docker compose up -d redis"]}',
        call_id: "c1",
      }),
      item({ type: "function_call_output", call_id: "c1", output: "Exit code: 0" }),
      say("assistant", "output_text", "Staging now runs redis 7.2."),
    ].join("\n");
    const turn = parseCodex(text).sessions[0]!.turns[0]!;
    expect(turn.conclusion).toBe(
      "Decision: we pin redis to 7.2 for now.\n\nStaging now runs redis 7.2.",
    );
    expect(turn.actions).toEqual([{ kind: "ran", target: "docker compose up -d redis" }]);
  });

  it("reads an older rollout without the type/payload envelope", () => {
    const text = [
      JSON.stringify({ id: "old-1", timestamp: "2025-06-01T10:00:00Z", instructions: null }),
      JSON.stringify({ record_type: "state" }),
      JSON.stringify({
        type: "message",
        role: "user",
        content: [{ type: "input_text", text: "List the files." }],
      }),
      JSON.stringify({
        type: "function_call",
        name: "shell",
        arguments: '{"command":["ls","-la"]}',
        call_id: "c1",
      }),
      JSON.stringify({
        type: "function_call_output",
        call_id: "c1",
        output: '{"output":"x","metadata":{"exit_code":2}}',
      }),
      JSON.stringify({
        type: "message",
        role: "assistant",
        content: [{ type: "output_text", text: "Done." }],
      }),
    ].join("\n");
    expect(detectFormat(text)).toBe("codex");
    const s = parseTranscript(text, "auto", "old.jsonl").sessions[0]!;
    expect(s.id).toBe("old-1");
    expect(s.turns[0]).toMatchObject({
      request: "List the files.",
      conclusion: "Done.",
      actions: [{ kind: "ran", target: "ls -la", failed: true }],
    });
  });
});

describe("parseTranscript", () => {
  it("tells the formats apart", () => {
    expect(detectFormat(fixture("claude-code-session.jsonl"))).toBe("claude-code");
    expect(detectFormat(fixture("codex-rollout.jsonl"))).toBe("codex");
  });

  it("refuses a file of neither format, naming it", () => {
    expect(() => parseTranscript('{"hello":1}\n', "auto", "notes.jsonl")).toThrow(
      /^notes\.jsonl: not a Claude Code or Codex transcript/,
    );
  });

  it("refuses a format the file's lines show to be the other one, naming the file", () => {
    expect(() =>
      parseTranscript(fixture("claude-code-session.jsonl"), "codex", "session.jsonl"),
    ).toThrow(
      /^session\.jsonl: --format codex, but this is a Claude Code transcript; pass --format claude-code/,
    );
    expect(() => parseTranscript(fixture("codex-rollout.jsonl"), "claude-code", "r.jsonl")).toThrow(
      /^r\.jsonl: --format claude-code, but this is a Codex transcript/,
    );
    // The format that matches, given or detected, reads the sessions.
    expect(
      parseTranscript(fixture("codex-rollout.jsonl"), "codex", "r.jsonl").sessions.length,
    ).toBe(parseTranscript(fixture("codex-rollout.jsonl"), "auto", "r.jsonl").sessions.length);
  });

  it("takes a Codex session id from the rollout's name when no session_meta names one", () => {
    const text = JSON.stringify({
      timestamp: "2026-11-30T10:00:00Z",
      type: "response_item",
      payload: { type: "message", role: "user", content: [{ type: "input_text", text: "hi" }] },
    });
    const r = parseTranscript(
      `${text}\n`,
      "codex",
      "rollout-2026-11-30T10-00-00-019bce9f-0a40-79e2-8351-8818e8487fb7.jsonl",
    );
    expect(r.sessions[0]!.id).toBe("019bce9f-0a40-79e2-8351-8818e8487fb7");
  });
});
