// `agent-memory ingest` through the built CLI (docs/agents.md, "Importing past sessions").
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { cliRun } from "../helpers/cli-run";
import { FAKE, ccLine } from "../core/ingest/transcript-fixtures";
import { listItems } from "../../src/core/trackers/format";
import { fieldValue } from "../../src/core/trackers/fields";

const FIXTURES = fileURLToPath(new URL("../fixtures/transcripts/", import.meta.url));
const JOURNAL = "Memory/Agents/claude/Journal/2026-11-30.md";

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

function newVault(): string {
  const root = mkdtempSync(join(tmpdir(), "am-ingest-"));
  dirs.push(root);
  expect(cliRun("init", root, "--agent", "claude").code).toBe(0);
  return root;
}

/** Every file of a folder, path → text. */
function snapshot(root: string): Map<string, string> {
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

describe("agent-memory ingest", () => {
  it("the wrote line names the journal and the trackers its extraction wrote", () => {
    const vault = newVault();
    const r = cliRun(
      "ingest",
      vault,
      join(FIXTURES, "claude-code-session.jsonl"),
      "--agent",
      "claude",
    );
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split("\n").at(-1)).toBe(
      `wrote ${JOURNAL}, Memory/Agents/claude/Trackers/Tasks.md, Memory/Agents/claude/Trackers/Decisions.md`,
    );
  });

  it("writes both formats, extracts the items, and a re-run writes nothing", () => {
    const vault = newVault();
    const files = [
      join(FIXTURES, "claude-code-session.jsonl"),
      join(FIXTURES, "codex-rollout.jsonl"),
    ];
    const first = cliRun("ingest", vault, ...files, "--agent", "claude", "--json");
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    const json = JSON.parse(first.stdout) as {
      files: { format: string; sessions: { status: string; added: number }[] }[];
      written: string[];
      extraction: { items: { category: string; text: string }[] }[];
    };
    expect(json.files.map((f) => [f.format, f.sessions[0]!.status, f.sessions[0]!.added])).toEqual([
      ["claude-code", "new", 3],
      ["codex", "new", 2],
    ]);
    expect(json.written).toEqual([JOURNAL]);
    const items = json.extraction[0]!.items.map((i) => `${i.category}: ${i.text}`);
    expect(items).toContain("task: Add a CRLF case to the tokenizer tests");
    expect(items).toContain("task: Add the limit to the password reset endpoint");
    expect(items.some((i) => i.startsWith("decision: normalise line endings"))).toBe(true);
    const tasks = readFileSync(join(vault, "Memory/Agents/claude/Trackers/Tasks.md"), "utf8");
    expect(tasks).toContain("Add a CRLF case to the tokenizer tests");
    const before = snapshot(vault);
    const again = cliRun("ingest", vault, ...files, "--agent", "claude");
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("already in the journal");
    expect(again.stdout).toContain("nothing new to write");
    const after = snapshot(vault);
    // The saved search index may be refreshed; no note changes.
    for (const [path, text] of before)
      if (path.endsWith(".md")) expect(after.get(path), path).toBe(text);
  });

  it("a dry run writes nothing and says so", () => {
    const vault = newVault();
    const before = snapshot(vault);
    const r = cliRun(
      "ingest",
      vault,
      join(FIXTURES, "codex-rollout.jsonl"),
      "--agent",
      "claude",
      "--dry-run",
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("2 new turns (new section)");
    expect(r.stdout).toContain("dry run: nothing written");
    expect(snapshot(vault)).toEqual(before);
  });

  it("exits 1 naming the lines it skipped, and reads the rest", () => {
    const vault = newVault();
    const r = cliRun(
      "ingest",
      vault,
      join(FIXTURES, "claude-code-damaged.jsonl"),
      "--agent",
      "claude",
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("skipped 2 lines that are not JSON (line 4, 5)");
    expect(r.stdout).toContain("the last line is cut");
    expect(readFileSync(join(vault, JOURNAL), "utf8")).toContain(
      "The parser test fails on Windows files",
    );
    // One line skipped is said in the singular.
    const other = newVault();
    const one = join(other, "one-bad.jsonl");
    const lines = readFileSync(join(FIXTURES, "claude-code-damaged.jsonl"), "utf8").split("\n");
    writeFileSync(one, lines.filter((_, i) => i !== 4).join("\n"));
    const single = cliRun("ingest", other, one, "--agent", "claude", "--dry-run");
    expect(single.stdout).toContain("skipped 1 line that is not JSON (line 4)");
  });

  it.each([
    [
      "a missing file",
      () => "/nonexistent/session.jsonl",
      /cannot read the transcript \/nonexistent\/session\.jsonl/,
    ],
    [
      "a file of neither format",
      (dir: string) => {
        writeFileSync(join(dir, "notes.jsonl"), '{"hello":1}\n');
        return join(dir, "notes.jsonl");
      },
      /notes\.jsonl: not a Claude Code or Codex transcript/,
    ],
  ])(
    "refuses %s with exit 2, one line, and writes nothing, not even the other files' sessions",
    (_, make, message) => {
      const vault = newVault();
      const before = snapshot(vault);
      const bad = make(vault);
      const r = cliRun(
        "ingest",
        vault,
        join(FIXTURES, "codex-rollout.jsonl"),
        bad,
        "--agent",
        "claude",
      );
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      const after = snapshot(vault);
      for (const [path, text] of after)
        if (path.endsWith(".md")) expect(before.get(path), path).toBe(text);
      expect([...after.keys()].some((p) => p.endsWith("2026-11-30.md"))).toBe(false);
    },
  );

  it("refuses an unknown agent and a bad --format with exit 2", () => {
    const vault = newVault();
    const file = join(FIXTURES, "codex-rollout.jsonl");
    const unknown = cliRun("ingest", vault, file, "--agent", "nobody");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown agent "nobody"');
    const format = cliRun("ingest", vault, file, "--agent", "claude", "--format", "chatgpt");
    expect(format.code).toBe(2);
    expect(format.stderr).toContain("--format must be auto, claude-code or codex");
    // A Codex rollout read as Claude Code is refused, not reported as "0 sessions".
    const before = snapshot(vault);
    const other = cliRun("ingest", vault, file, "--agent", "claude", "--format", "claude-code");
    expect(other.code).toBe(2);
    expect(other.stderr).toContain(
      "--format claude-code, but this is a Codex transcript; pass --format codex",
    );
    expect(snapshot(vault)).toEqual(before);
  });

  it("leaves no secret of three kinds and more anywhere in the vault", () => {
    const vault = newVault();
    const S = "5ec2e7aa-0000-4000-8000-000000000001";
    const file = join(vault, "..", `${S}.jsonl`);
    dirs.push(file);
    writeFileSync(
      file,
      [
        ccLine(
          S,
          "user",
          "u1",
          "2026-11-30T09:00:00Z",
          `Deploy with ${FAKE.aws} and ${FAKE.github}. TODO: rotate ${FAKE.anthropic}`,
        ),
        ccLine(S, "assistant", "a1", "2026-11-30T09:00:01Z", [
          {
            type: "tool_use",
            id: "t1",
            name: "Bash",
            input: {
              command: `export SLACK=${FAKE.slack}; curl -u x:${FAKE.urlPassword} https://x:${FAKE.urlPassword}@api`,
            },
          },
        ]),
        ccLine(S, "user", "u2", "2026-11-30T09:00:02Z", [
          { type: "tool_result", tool_use_id: "t1", content: FAKE.privateKey },
        ]),
        ccLine(S, "assistant", "a2", "2026-11-30T09:00:03Z", [
          {
            type: "text",
            text: `Done.\n\n## Next steps\n- Revoke ${FAKE.jwt}\n- TODO: remove ${FAKE.openai} from .env`,
          },
        ]),
      ].join("\n") + "\n",
    );
    const r = cliRun("ingest", vault, file, "--agent", "claude", "--json");
    expect(r.code).toBe(0);
    for (const secret of Object.values(FAKE)) expect(r.stdout).not.toContain(secret);
    const files = snapshot(vault);
    expect(files.get(join(vault, JOURNAL))).toContain("[redacted: github-token]");
    for (const [path, text] of files)
      for (const secret of Object.values(FAKE)) expect(text, path).not.toContain(secret);
  });
});

describe("agent-memory ingest: the summary names every item written", () => {
  const S = "dec1510e-0000-4000-8000-000000000001";
  const DECISIONS = "Memory/Agents/claude/Trackers/Decisions.md";
  /** A session whose reply holds a decision and two tasks. */
  function transcript(): string {
    const dir = mkdtempSync(join(tmpdir(), "am-ingest-t-"));
    dirs.push(dir);
    const file = join(dir, `${S}.jsonl`);
    writeFileSync(
      file,
      [
        ccLine(S, "user", "u1", "2026-11-30T09:00:00Z", "How do we deploy from now on?"),
        ccLine(S, "assistant", "a1", "2026-11-30T09:00:01Z", [
          {
            type: "text",
            text: "Decision: we deploy with blue-green from now on.\n\n- [ ] Write the deploy runbook\n- [ ] Update the release calendar",
          },
        ]),
      ].join("\n") + "\n",
    );
    return file;
  }
  const summaryLine = (stdout: string) =>
    stdout.split("\n").find((l) => l.startsWith(`extracted ${JOURNAL}`)) ?? "";

  it("into an empty vault: the decision and both tasks", () => {
    const vault = newVault();
    const r = cliRun("ingest", vault, transcript(), "--agent", "claude");
    expect(r.code).toBe(0);
    expect(summaryLine(r.stdout)).toMatch(/: decision 1, task 2$/);
  });

  it("a decision that supersedes an earlier one is counted, and what it supersedes is named as extract names it", () => {
    const vault = newVault();
    const earlier = "Memory/Agents/claude/Journal/2026-11-29.md";
    writeFileSync(join(vault, earlier), "# 2026-11-29\n\nDecision: we deploy with canaries.\n");
    expect(cliRun("extract", vault, earlier).code).toBe(0);
    const [old] = listItems(readFileSync(join(vault, DECISIONS), "utf8"));
    const r = cliRun("ingest", vault, transcript(), "--agent", "claude");
    expect(r.code).toBe(0);
    expect(summaryLine(r.stdout)).toMatch(
      new RegExp(`: decision 1 \\(supersedes ${old!.id} \\(another value\\)\\), task 2$`),
    );
    const log = listItems(readFileSync(join(vault, DECISIONS), "utf8"));
    expect(log.map((d) => d.text)).toEqual([
      "we deploy with canaries.",
      "we deploy with blue-green from now on.",
    ]);
    expect(fieldValue(log[0]!.fields, "superseded_by")).toContain(`#^${log[1]!.id}]]`);
  });

  it("--json gives each superseding item its supersedes, as extract --json does", () => {
    const vault = newVault();
    const earlier = "Memory/Agents/claude/Journal/2026-11-29.md";
    writeFileSync(join(vault, earlier), "# 2026-11-29\n\nDecision: we deploy with canaries.\n");
    expect(cliRun("extract", vault, earlier).code).toBe(0);
    const [old] = listItems(readFileSync(join(vault, DECISIONS), "utf8"));
    const r = cliRun("ingest", vault, transcript(), "--agent", "claude", "--json");
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout) as {
      extraction: { items: { category: string; action: string; supersedes?: unknown }[] }[];
    };
    const decision = json.extraction[0]!.items.find((i) => i.category === "decision");
    expect(decision).toMatchObject({
      action: "supersede",
      supersedes: { id: old!.id, reason: "value" },
    });
  });
});

describe("agent-memory ingest of several files, one refused", () => {
  const LATER = "Memory/Agents/claude/Journal/2026-12-02.md";
  /** The session fixture moved to 2 December, under another session id: another day's journal. */
  function laterCopy(): string {
    const dir = mkdtempSync(join(tmpdir(), "am-ingest-t-"));
    dirs.push(dir);
    const text = readFileSync(join(FIXTURES, "claude-code-session.jsonl"), "utf8")
      .replaceAll("2026-11-30", "2026-12-02")
      .replaceAll("7f3a9c2e-1b4d", "8f3a9c2e-1b4d");
    writeFileSync(join(dir, "later.jsonl"), text);
    return join(dir, "later.jsonl");
  }
  const BAD_FRONTMATTER = "---\ntags: [a\nfoo: : bar\n---\n# x\n";

  interface Json {
    files: {
      file: string;
      sessions: { journal: string; status: string; added: number; reason?: string }[];
    }[];
    written: string[];
    extraction: { journal: string; items: unknown[] }[];
  }

  it("writes and reports both files of different days when all is well (exit 0)", () => {
    const vault = newVault();
    const later = laterCopy();
    const r = cliRun(
      "ingest",
      vault,
      join(FIXTURES, "claude-code-session.jsonl"),
      later,
      "--agent",
      "claude",
      "--json",
    );
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout) as Json;
    expect(json.files.map((f) => f.sessions.map((s) => [s.journal, s.status]))).toEqual([
      [[JOURNAL, "new"]],
      [[LATER, "new"]],
    ]);
    expect(json.written).toEqual([JOURNAL, LATER]);
    expect(json.extraction.map((e) => e.journal)).toEqual([JOURNAL, LATER]);
  });

  it.each([
    ["second", (good: string, bad: string) => [good, bad]],
    ["first", (good: string, bad: string) => [bad, good]],
  ])(
    "a journal refusing the %s file's session: the other is written, both are reported, exit 1",
    (_, order) => {
      for (const [label, refusing] of [
        ["bad frontmatter", BAD_FRONTMATTER],
        ["not UTF-8", Buffer.from([0xff, 0xfe, 0x41, 0x00])],
      ] as const) {
        const vault = newVault();
        const later = laterCopy();
        writeFileSync(join(vault, LATER), refusing);
        const files = order(join(FIXTURES, "claude-code-session.jsonl"), later);
        const text = cliRun("ingest", vault, ...files, "--agent", "claude");
        expect(text.code, label).toBe(1);
        expect(text.stderr, label).toBe("");
        // Each file is named with what it gave: the journal written, or the refusal and why.
        expect(text.stdout, label).toContain(`${later} (claude-code): 1 session`);
        expect(text.stdout, label).toContain(
          `  8f3a9c2e → ${LATER}: refused by the journal, nothing written for it\n    ${LATER}`,
        );
        expect(text.stdout, label).toContain(`  7f3a9c2e → ${JOURNAL}: 3 new turns (new section)`);
        expect(text.stdout, label).toContain(`extracted ${JOURNAL}`);
        expect(text.stdout, label).toMatch(new RegExp(`^wrote ${JOURNAL}, `, "m"));
        expect(readFileSync(join(vault, JOURNAL), "utf8")).toContain(
          "The parser test fails on Windows files",
        );
        expect(readFileSync(join(vault, LATER)), label).toEqual(Buffer.from(refusing));

        // The same vault again, in JSON: the written file is unchanged, the refusal is said again.
        const json = cliRun("ingest", vault, ...files, "--agent", "claude", "--json");
        expect(json.code, label).toBe(1);
        const parsed = JSON.parse(json.stdout) as Json;
        const refused = parsed.files.find((f) => f.file === later)!.sessions[0]!;
        expect(refused.status, label).toBe("refused");
        expect(refused.reason, label).toMatch(new RegExp(`^${LATER}[: ]`));
        expect(parsed.files.find((f) => f.file !== later)!.sessions[0]!.status, label).toBe(
          "unchanged",
        );
      }
    },
  );

  it.each([
    ["second", (good: string, bad: string) => [good, bad]],
    ["first", (good: string, bad: string) => [bad, good]],
  ])(
    "a file that is not a transcript, given %s: exit 2 naming it, and nothing written",
    (_, order) => {
      const vault = newVault();
      const before = snapshot(vault);
      const bad = join(vault, "..", `${vault.split("/").pop()}-notes.jsonl`);
      dirs.push(bad);
      writeFileSync(bad, '{"hello":1}\n');
      const r = cliRun(
        "ingest",
        vault,
        ...order(join(FIXTURES, "claude-code-session.jsonl"), bad),
        "--agent",
        "claude",
      );
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr.trim()).toBe(
        `agent-memory ingest: ${bad}: not a Claude Code or Codex transcript (no line names a session); pass --format claude-code or --format codex`,
      );
      expect(snapshot(vault)).toEqual(before);
    },
  );
});
