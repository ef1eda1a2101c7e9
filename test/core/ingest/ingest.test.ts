// Transcripts into journals on a real temporary vault (docs/agents.md, "Where it goes").
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ingestTranscript } from "../../../src/core/ingest/ingest";
import { findWatermark } from "../../../src/core/ingest/section";
import { MAX_COMMAND_CHARS, shownCommand } from "../../../src/core/ingest/turns";
import { cutBeforeRedaction } from "../../../src/core/redact";
import { fenceAfter } from "../../../src/core/markdown/fences";
import { MemoryLayout } from "../../../src/core/layout";
import { defaultSettings } from "../../../src/core/settings";
import { tempVault } from "../../helpers/temp-vault";
import { ccLine, FAKE, fixture, NEVER } from "./transcript-fixtures";

const layout = new MemoryLayout(defaultSettings());
const S = "7f3a9c2e-1b4d-4e8a-9c11-2d5e6f7a8b90";
const JOURNAL = "Memory/Agents/claude/Journal/2026-11-30.md";
const now = new Date("2026-12-01T12:00:00Z");

let cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});

function vault() {
  const v = tempVault({ "Memory/Agents/claude/Journal/.keep": "" });
  cleanups.push(v.cleanup);
  return v;
}

/** Every file of the vault, path → text. */
function allFiles(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const abs = join(dir, name);
      if (statSync(abs).isDirectory()) walk(abs);
      else out.set(abs, readFileSync(abs, "utf8"));
    }
  };
  walk(root);
  return out;
}

const run = (v: ReturnType<typeof vault>, text: string, dryRun = false) =>
  ingestTranscript(text, "session.jsonl", "auto", {
    vault: v.vault,
    layout,
    agent: "claude",
    now,
    dryRun,
  });

describe("ingestTranscript", () => {
  it("writes one section per session into the journal of its day, and a re-run changes nothing", async () => {
    const v = vault();
    const first = await run(v, fixture("claude-code-session.jsonl"));
    expect(first.outcome.sessions).toEqual([
      expect.objectContaining({ id: S, journal: JOURNAL, status: "new", added: 3, turns: 3 }),
    ]);
    expect(first.outcome.written).toEqual([JOURNAL]);
    const text = readFileSync(join(v.root, JOURNAL), "utf8");
    expect(text).toContain("type: journal");
    expect(text).toContain("## Claude Code session 7f3a9c2e · Fix the CRLF parser bug");
    expect(findWatermark(text, S)).toMatchObject({ turns: 3, last: "u-0011" });
    expect(text).toContain("#### Next steps");
    expect(text).not.toContain(NEVER);
    const again = await run(v, fixture("claude-code-session.jsonl"));
    expect(again.outcome.sessions[0]).toMatchObject({ status: "unchanged", added: 0 });
    expect(again.outcome.written).toEqual([]);
    expect(readFileSync(join(v.root, JOURNAL), "utf8")).toBe(text);
  });

  it("adds only the new turns of a grown transcript, at the end of its section, keeping what follows", async () => {
    const v = vault();
    const lines = fixture("claude-code-session.jsonl").split("\n");
    // The first turn only: up to its conclusion (line 14 holds it).
    await run(v, `${lines.slice(0, 14).join("\n")}\n`);
    const person = "\n## My notes\n\nWritten by hand, kept as it is.\n";
    const before = readFileSync(join(v.root, JOURNAL), "utf8");
    expect(findWatermark(before, S)).toMatchObject({ turns: 1, last: "u-0001" });
    v.write(JOURNAL, before + person);
    const grown = await run(v, fixture("claude-code-session.jsonl"));
    expect(grown.outcome.sessions[0]).toMatchObject({ status: "grown", added: 2 });
    const after = readFileSync(join(v.root, JOURNAL), "utf8");
    expect(after.endsWith(person)).toBe(true);
    expect(after.indexOf("/review src/exporter.ts")).toBeLessThan(after.indexOf("## My notes"));
    expect(after.match(/The parser test fails on Windows files/g)).toHaveLength(1);
    expect(findWatermark(after, S)).toMatchObject({ turns: 3, last: "u-0011" });
  });

  it("adds nothing when the journal's last turn is not in the transcript", async () => {
    const v = vault();
    await run(v, fixture("claude-code-session.jsonl"));
    const before = readFileSync(join(v.root, JOURNAL), "utf8");
    const other = [1, 2, 3]
      .flatMap((i) => [
        ccLine(S, "user", `x-${i}`, `2026-11-30T11:0${i}:00Z`, `Something else ${i}.`),
        ccLine(S, "assistant", `y-${i}`, `2026-11-30T11:0${i}:01Z`, [
          { type: "text", text: "Ok." },
        ]),
      ])
      .join("\n");
    const r = await run(v, other);
    expect(r.outcome.sessions[0]).toMatchObject({ status: "diverged", added: 0 });
    expect(readFileSync(join(v.root, JOURNAL), "utf8")).toBe(before);
  });

  it("takes a file with fewer turns than the section for an earlier copy: nothing new, no problem", async () => {
    const v = vault();
    await run(v, fixture("claude-code-session.jsonl"));
    const before = readFileSync(join(v.root, JOURNAL), "utf8");
    const r = await run(v, fixture("claude-code-damaged.jsonl"));
    expect(r.outcome.sessions[0]).toMatchObject({ status: "unchanged", added: 0 });
    expect(readFileSync(join(v.root, JOURNAL), "utf8")).toBe(before);
  });

  it("writes a resumed session's new part only, the copied part being in its own session", async () => {
    const v = vault();
    await run(v, fixture("claude-code-session.jsonl"));
    const r = await run(v, fixture("claude-code-resumed.jsonl"));
    expect(r.outcome.sessions.map((s) => [s.id.slice(0, 8), s.status, s.journal])).toEqual([
      ["7f3a9c2e", "unchanged", JOURNAL],
      ["c0ffee00", "new", "Memory/Agents/claude/Journal/2026-12-01.md"],
    ]);
  });

  it("a dry run writes nothing", async () => {
    const v = vault();
    const r = await run(v, fixture("codex-rollout.jsonl"), true);
    expect(r.outcome.sessions[0]).toMatchObject({ status: "new", added: 2 });
    expect(r.outcome.written).toEqual([]);
    expect([...allFiles(v.root).keys()].some((p) => p.endsWith(".md"))).toBe(false);
  });

  it("lets no secret of a transcript reach any file of the vault", async () => {
    const v = vault();
    const secrets = [
      `My key is ${FAKE.aws} and the token ${FAKE.github}; deploy with ${FAKE.anthropic}`,
      `DB at postgres://app:${FAKE.urlPassword}@db/shop, Slack ${FAKE.slack}`,
    ].join("\n");
    const text = [
      ccLine(S, "user", "s-1", "2026-11-30T09:00:00Z", secrets),
      ccLine(S, "assistant", "s-2", "2026-11-30T09:00:01Z", [
        {
          type: "tool_use",
          id: "t1",
          name: "Bash",
          input: { command: `curl -H "Authorization: Bearer ${FAKE.jwt}" api` },
        },
        {
          type: "tool_use",
          id: "t2",
          name: "Write",
          input: { file_path: "/home/dev/shop/.env", content: `KEY=${FAKE.openai}` },
        },
      ]),
      ccLine(S, "user", "s-3", "2026-11-30T09:00:02Z", [
        { type: "tool_result", tool_use_id: "t1", content: FAKE.privateKey },
      ]),
      ccLine(S, "assistant", "s-4", "2026-11-30T09:00:03Z", [
        { type: "text", text: `Stored ${FAKE.gitlab} and ${FAKE.google} in the vault config.` },
      ]),
    ].join("\n");
    await run(v, text);
    const files = allFiles(v.root);
    expect(files.size).toBeGreaterThan(1);
    const journal = files.get(join(v.root, JOURNAL)) ?? "";
    expect(journal).toContain("[redacted: aws-access-key]");
    expect(journal).toContain("[redacted: github-token]");
    expect(journal).toContain("[redacted: jwt]");
    for (const [path, content] of files)
      for (const secret of Object.values(FAKE)) expect(content, path).not.toContain(secret);
  });

  it("leaves no fragment of a secret that a cut command or request would have split", async () => {
    const v = vault();
    const text = [
      ccLine(S, "user", "s-1", "2026-11-30T09:00:00Z", `${"a".repeat(1980)} ${FAKE.openai}`),
      ccLine(S, "assistant", "s-2", "2026-11-30T09:00:01Z", [
        {
          type: "tool_use",
          id: "t1",
          name: "Bash",
          input: { command: `echo ${"b".repeat(130)} ${FAKE.github}` },
        },
        { type: "text", text: "Done." },
      ]),
    ].join("\n");
    await run(v, text);
    const journal = allFiles(v.root).get(join(v.root, JOURNAL)) ?? "";
    expect(journal).toContain("**Done:** ran `echo bbb");
    // Before, the cut came first: `ghp_aB3dE…` and `sk-proj-Tq3…` were left in the journal.
    for (const [path, content] of allFiles(v.root)) {
      expect(content, path).not.toContain(FAKE.github.slice(0, 8));
      expect(content, path).not.toContain(FAKE.openai.slice(0, 12));
    }
  });

  it("closes a code fence a request or an answer left open, so what follows is not code", async () => {
    const v = vault();
    const text = [
      ccLine(S, "user", "f-1", "2026-11-30T09:00:00Z", "Why does this fail?\n```ts\nconst x = 1"),
      ccLine(S, "assistant", "f-2", "2026-11-30T09:00:01Z", [
        { type: "text", text: "Decision: validate the input with zod.\n~~~~\nstill open" },
      ]),
      ccLine(S, "user", "f-3", "2026-11-30T09:05:00Z", "TODO: add the test for it"),
      ccLine(S, "assistant", "f-4", "2026-11-30T09:05:01Z", [{ type: "text", text: "Added." }]),
    ].join("\n");
    await run(v, text);
    const journal = allFiles(v.root).get(join(v.root, JOURNAL)) ?? "";
    // Each line with the fence open before it (the one rule of markdown/fences.ts).
    let fence: string | null = null;
    const inCode = new Map<string, boolean>();
    for (const line of journal.split("\n")) {
      inCode.set(line, fence !== null);
      fence = fenceAfter(fence, line.trimStart());
    }
    expect(fence).toBeNull();
    const lineWith = (part: string) => [...inCode.keys()].find((l) => l.includes(part)) ?? "";
    expect(inCode.get(lineWith("const x = 1"))).toBe(true);
    expect(inCode.get(lineWith("still open"))).toBe(true);
    for (const part of ["Decision: validate", "TODO: add the test", "Added."])
      expect(inCode.get(lineWith(part)), part).toBe(false);
  });

  it("writes the text before a tool call into the Answer, and adds nothing to a section the older ingest wrote", async () => {
    const v = vault();
    const full = fixture("claude-code-text-before-tool.jsonl");
    const S2 = "3c9d51e0-7a2b-4f6c-8e1d-5b0a9c7d2e41";
    await run(v, full);
    const text = readFileSync(join(v.root, JOURNAL), "utf8");
    // In order, each line perhaps with a block id.
    expect(text).toMatch(
      /\*\*Answer:\*\* Decision: we pin redis to 7\.2 for now\.[^\n]*\n\nTODO: move the redis version into `\.env` once staging is stable\.[^\n]*\n\nStaging now runs redis 7\.2\./,
    );
    expect(text).not.toContain(NEVER);
    // A section as the older ingest wrote it: only the last text of each turn.
    const old = text.replace(
      /Decision: we pin redis to 7\.2 for now\.[^\n]*\n\nTODO: [^\n]*\n\n/,
      "",
    );
    expect(old).not.toContain("Decision: we pin");
    v.write(JOURNAL, old);
    const again = await run(v, full);
    expect(again.outcome.sessions[0]).toMatchObject({ id: S2, status: "unchanged", added: 0 });
    expect(again.outcome.written).toEqual([]);
    expect(readFileSync(join(v.root, JOURNAL), "utf8")).toBe(old);
  });

  it("grows a section the older ingest wrote by the new turns only", async () => {
    const v = vault();
    const full = fixture("claude-code-text-before-tool.jsonl");
    const S2 = "3c9d51e0-7a2b-4f6c-8e1d-5b0a9c7d2e41";
    // The first turn only (its last text is line 8), written then stripped to the older form.
    await run(v, `${full.split("\n").slice(0, 8).join("\n")}\n`);
    const first = readFileSync(join(v.root, JOURNAL), "utf8");
    const old = first.replace(
      /Decision: we pin redis to 7\.2 for now\.[^\n]*\n\nTODO: [^\n]*\n\n/,
      "",
    );
    expect(old).not.toBe(first);
    v.write(JOURNAL, old);
    const grown = await run(v, full);
    expect(grown.outcome.sessions[0]).toMatchObject({ id: S2, status: "grown", added: 1 });
    const after = readFileSync(join(v.root, JOURNAL), "utf8");
    // The older text is kept byte for byte; only the watermark moved on.
    expect(
      after.replace("turns=2 last=u-0104", "turns=1 last=u-0101").startsWith(old.trimEnd()),
    ).toBe(true);
    expect(after.match(/Which redis version/g)).toHaveLength(1);
    expect(after.match(/Staging now runs redis 7\.2/g)).toHaveLength(1);
    expect(after).not.toContain("Decision: we pin");
    expect(after).toContain("Yes, the hit rate is back to normal.");
    expect(findWatermark(after, S2)).toMatchObject({ turns: 2, last: "u-0104" });
  });
});

describe("a command cut to its length", () => {
  it("is never cut inside a redaction label", () => {
    const pad = "x".repeat(MAX_COMMAND_CHARS - 30);
    for (let k = 0; k < 40; k++) {
      const shown = shownCommand(
        `echo ${pad.slice(k)} && curl -u admin:Sup3rSecret99 https://a.example`,
      );
      expect(shown.length).toBeLessThanOrEqual(MAX_COMMAND_CHARS);
      expect(shown).not.toContain("Sup3rSecret99");
      // A label is whole or not there at all.
      expect(shown.replace(/\[redacted: [a-z-]+\]/g, "")).not.toContain("[redacted");
    }
  });

  it("keeps a label that ends right before the cut", () => {
    const text = "ab [redacted: jwt] cd";
    const end = text.indexOf("]") + 1;
    expect(cutBeforeRedaction(text, end)).toBe(end);
    expect(cutBeforeRedaction(text, end - 1)).toBe(text.indexOf("["));
    expect(cutBeforeRedaction(text, 2)).toBe(2);
  });
});
