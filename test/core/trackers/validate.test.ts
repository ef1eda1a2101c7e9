// The checks of src/core/trackers/validate.ts (docs/mcp.md, "What a write tool refuses"): each
// rule with a value it keeps and one it refuses.
import { describe, expect, it } from "vitest";
import {
  checkAddressees,
  checkBlockText,
  checkCategory,
  checkDate,
  checkFieldValue,
  checkLink,
  checkText,
  MAX_BLOCK_CHARS,
  MAX_TEXT_CHARS,
} from "../../../src/core/trackers/validate";
import { FAKE } from "../ingest/transcript-fixtures";

describe("write-value checks", () => {
  it("a field named as a secret keeps its name only; a link holding a secret is refused without repeating it", () => {
    expect(checkFieldValue("password", "correcthorse99")).toEqual({
      ok: true,
      value: "[redacted: secret-field]",
    });
    expect(checkFieldValue("API_Key", "x8Fj3kLm9QpR2sTzQ")).toEqual({
      ok: true,
      value: "[redacted: secret-field]",
    });
    for (const name of ["密码", "数据库密码", "パスワード"])
      expect(checkFieldValue(name, "correcthorse99"), name).toEqual({
        ok: true,
        value: "[redacted: secret-field]",
      });
    expect(checkFieldValue("max_tokens", "4096")).toEqual({ ok: true, value: "4096" });
    expect(checkFieldValue("topic", "tokens and passwords")).toEqual({
      ok: true,
      value: "tokens and passwords",
    });
    const link = checkLink("source", FAKE.github);
    expect(link.ok).toBe(false);
    expect(link.ok ? "" : link.error).toBe("source holds a secret; nothing written");
    expect(checkLink("source", "[[Token rotation]]")).toEqual({
      ok: true,
      value: "[[Token rotation]]",
    });
  });

  it("a text or a block comes back with its secrets redacted, the rest as given", () => {
    const line = `Decision: rotate ${FAKE.github} and ${FAKE.aws} today`;
    const kept = checkText("text", `  ${line} `);
    const block = checkBlockText("text", `${line}\n\n- [ ] call ops`);
    for (const r of [kept, block]) {
      expect(r.ok).toBe(true);
      const v = r.ok ? r.value : "";
      expect(v).not.toContain(FAKE.github);
      expect(v).not.toContain(FAKE.aws);
      expect(v).toContain(
        "Decision: rotate [redacted: github-token] and [redacted: aws-access-key] today",
      );
    }
    expect(block.ok && block.value.endsWith("\n\n- [ ] call ops")).toBe(true);
    const own = `the server token is ${FAKE.agentMemory} for now`;
    for (const r of [checkText("text", own), checkBlockText("text", own)])
      expect(r).toEqual({
        ok: true,
        value: "the server token is [redacted: agent-memory-token] for now",
      });
    expect(checkText("text", "no secret here")).toEqual({ ok: true, value: "no secret here" });
  });

  it("a text: kept trimmed; refused blank, with a NUL byte, or ending in a block id", () => {
    expect(checkText("text", "  see ^t-003 later ")).toEqual({
      ok: true,
      value: "see ^t-003 later",
    });
    expect(checkText("text", "   ")).toEqual({ ok: false, error: "text is blank" });
    expect(checkText("text", "a\u0000b").ok).toBe(false);
    expect(checkText("progress", "done, see ^t-003")).toMatchObject({ ok: false });
  });

  it("a text: at most MAX_TEXT_CHARS characters, trimmed", () => {
    const at = "w".repeat(MAX_TEXT_CHARS);
    expect(checkText("text", ` ${at} `)).toEqual({ ok: true, value: at });
    expect(checkText("text", `${at}w`)).toEqual({
      ok: false,
      error: `text is ${MAX_TEXT_CHARS + 1} characters; at most ${MAX_TEXT_CHARS} are taken`,
    });
  });

  it("a journal block: line breaks kept, at most MAX_BLOCK_CHARS, no control character", () => {
    expect(checkBlockText("text", "- [ ] one\n\tdetail\r\n")).toEqual({
      ok: true,
      value: "- [ ] one\n\tdetail\r\n",
    });
    expect(checkBlockText("text", " \n ")).toEqual({ ok: false, error: "text is blank" });
    expect(checkBlockText("text", "a\u0000b")).toEqual({
      ok: false,
      error: "text holds a control character",
    });
    expect(checkBlockText("text", "\u001b[31mred").ok).toBe(false);
    expect(checkBlockText("text", "x".repeat(MAX_BLOCK_CHARS)).ok).toBe(true);
    expect(checkBlockText("text", "x".repeat(MAX_BLOCK_CHARS + 1))).toEqual({
      ok: false,
      error: `text is ${MAX_BLOCK_CHARS + 1} characters; at most ${MAX_BLOCK_CHARS} are appended at once`,
    });
  });

  it("a date: a real calendar day only", () => {
    expect(checkDate("due", "2024-02-29")).toEqual({ ok: true, value: "2024-02-29" });
    expect(checkDate("due", "2023-02-29").ok).toBe(false);
    expect(checkDate("due", "not-a-date").ok).toBe(false);
  });

  it("a link: inside the vault, one link, no control character", () => {
    expect(checkLink("source", "2026-11-02#^am-k3f9")).toEqual({
      ok: true,
      value: "[[2026-11-02#^am-k3f9]]",
    });
    expect(checkLink("source", "[[Memory/Agents/link/Journal/2026-11-02]]").ok).toBe(true);
    for (const bad of ["", "[[]]", "../x", "/etc/passwd", "a\u0000b", "a]] [[b"])
      expect(checkLink("source", bad).ok, bad).toBe(false);
  });

  it("addressees: names by the agent-name rule, several comma-separated", () => {
    expect(checkAddressees("to", "@ming, [[atlas]]")).toEqual({
      ok: true,
      value: "[[ming]], [[atlas]]",
    });
    for (const bad of ["", "@", "ming,", "ming/../atlas", "a#b"])
      expect(checkAddressees("to", bad).ok, bad).toBe(false);
  });

  it("a field value by its key; a category of the vault, without case", () => {
    expect(checkFieldValue("due", "2026-12-24").ok).toBe(true);
    expect(checkFieldValue("Scheduled", "soon").ok).toBe(false);
    expect(checkFieldValue("priority", "1")).toEqual({ ok: true, value: "high" });
    expect(checkFieldValue("priority", "urgent").ok).toBe(false);
    expect(checkFieldValue("note", "free text").ok).toBe(true);
    expect(checkCategory(["learning", "strategy"], "Strategy")).toEqual({
      ok: true,
      value: "strategy",
    });
    expect(checkCategory(["learning", "strategy"], "nonsense").ok).toBe(false);
  });
});
