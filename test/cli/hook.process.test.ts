// `agent-memory hook` as Claude Code and Codex call it (docs/agents.md, "The automatic loop").
import { spawnSync } from "node:child_process";
import {
  closeSync,
  mkdirSync,
  openSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { NoteLocks } from "../../src/node/note-lock";
import { CLI_PATH, cliRun, cliRunWith, offlineEnv } from "../helpers/cli-run";

const FIXTURES = fileURLToPath(new URL("../fixtures/transcripts/", import.meta.url));
const JOURNAL = "Memory/Agents/claude/Journal/2026-11-30.md";

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

function newVault(): string {
  const root = mkdtempSync(join(tmpdir(), "am-hook-"));
  dirs.push(root);
  expect(cliRun("init", root, "--agent", "claude").code).toBe(0);
  return root;
}

function notes(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const abs = join(dir, name);
      if (statSync(abs).isDirectory()) walk(abs);
      else if (name.endsWith(".md")) out.set(abs, readFileSync(abs, "utf8"));
    }
  };
  walk(root);
  return out;
}

const hook = (vault: string, event: unknown, ...extra: string[]) =>
  cliRunWith(
    { input: typeof event === "string" ? event : JSON.stringify(event) },
    "hook",
    "claude-code",
    "--vault",
    vault,
    "--agent",
    "claude",
    ...extra,
  );

const stop = (path: string) => ({
  hook_event_name: "Stop",
  session_id: "7f3a9c2e-1b4d-4e8a-9c11-2d5e6f7a8b90",
  transcript_path: path,
  cwd: "/home/dev/shop",
  stop_hook_active: false,
});

/** A file outside the vault (removed after the test), for a transcript_path that is not one. */
function otherFile(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), "am-hook-other-"));
  dirs.push(dir);
  writeFileSync(join(dir, name), text);
  return join(dir, name);
}

interface HookReply {
  hookSpecificOutput: { hookEventName: string; additionalContext: string };
}

describe("agent-memory hook claude-code", () => {
  it("Stop ingests the transcript and extracts; a second Stop adds nothing", () => {
    const vault = newVault();
    const first = hook(vault, stop(join(FIXTURES, "claude-code-session.jsonl")));
    expect(first).toMatchObject({ code: 0, stdout: "", stderr: "" });
    expect(readFileSync(join(vault, JOURNAL), "utf8")).toContain("## Claude Code session 7f3a9c2e");
    expect(readFileSync(join(vault, "Memory/Agents/claude/Trackers/Tasks.md"), "utf8")).toContain(
      "Add a CRLF case to the tokenizer tests",
    );
    const before = notes(vault);
    expect(hook(vault, stop(join(FIXTURES, "claude-code-session.jsonl")))).toMatchObject({
      code: 0,
      stderr: "",
    });
    expect(notes(vault)).toEqual(before);
  });

  it("SessionStart gives the brief as additional context, within 10,000 characters", () => {
    const vault = newVault();
    const tasks = Array.from(
      { length: 400 },
      (_, i) =>
        `- [ ] t-${String(i).padStart(3, "0")} Task number ${i} ${"with a long description ".repeat(4)} ^t-${i}`,
    ).join("\n");
    writeFileSync(join(vault, "Memory/Agents/claude/Trackers/Tasks.md"), `# Tasks\n\n${tasks}\n`);
    const r = hook(vault, { hook_event_name: "SessionStart", source: "startup", session_id: "s" });
    expect(r.code).toBe(0);
    const reply = JSON.parse(r.stdout) as HookReply;
    expect(reply.hookSpecificOutput.hookEventName).toBe("SessionStart");
    expect(reply.hookSpecificOutput.additionalContext).toContain("# Session brief: claude");
    expect(reply.hookSpecificOutput.additionalContext).toContain("Task number 0");
    expect(reply.hookSpecificOutput.additionalContext.length).toBeLessThanOrEqual(10_000);
  });

  it("UserPromptSubmit adds the relevant passages, and nothing for an unrelated prompt", () => {
    const vault = newVault();
    expect(hook(vault, stop(join(FIXTURES, "claude-code-session.jsonl"))).code).toBe(0);
    const related = hook(vault, {
      hook_event_name: "UserPromptSubmit",
      prompt: "How should the tokenizer tests cover CRLF?",
    });
    expect(related.code).toBe(0);
    const reply = JSON.parse(related.stdout) as HookReply;
    expect(reply.hookSpecificOutput.hookEventName).toBe("UserPromptSubmit");
    expect(reply.hookSpecificOutput.additionalContext).toContain(
      "Add a CRLF case to the tokenizer tests",
    );
    expect(reply.hookSpecificOutput.additionalContext).toMatch(
      /\[\[Memory\/Agents\/claude\/Trackers\/Tasks#\^t-[0-9a-z]+\]\]/,
    );
    expect(reply.hookSpecificOutput.additionalContext.length).toBeLessThanOrEqual(1500);
    const unrelated = hook(vault, {
      hook_event_name: "UserPromptSubmit",
      prompt: "What is the weather in Paris?",
    });
    expect(unrelated).toMatchObject({ code: 0, stdout: "", stderr: "" });
  });

  it("UserPromptSubmit on a saved index older than the notes: a changed note is answered as it is now", () => {
    const vault = newVault();
    const note = join(vault, "Memory/Agents/claude/Knowledge/learning/Deploys.md");
    mkdirSync(join(note, ".."), { recursive: true });
    writeFileSync(note, "# Deploys\n\nThe canary deploy runs before the fleet deploy.\n");
    expect(cliRun("index", vault).code).toBe(0);
    // Changed after the index was saved: another order, a word more.
    writeFileSync(note, "# Deploys\n\nThe canary deploy now runs after the whole fleet deploy.\n");
    const prompt = {
      hook_event_name: "UserPromptSubmit",
      prompt: "Does the canary deploy run before the fleet deploy?",
    };
    const stale = hook(vault, prompt);
    expect(stale.stderr).toBe("");
    const context = (JSON.parse(stale.stdout) as HookReply).hookSpecificOutput.additionalContext;
    expect(context).toContain("The canary deploy now runs after the whole fleet deploy.");
    expect(context).not.toContain("runs before");
    // The same as once the index is up to date.
    expect(cliRun("index", vault).code).toBe(0);
    expect(hook(vault, prompt)).toEqual(stale);
  });

  it("UserPromptSubmit after a Stop finds the session's new notes, though the saved index is older", () => {
    const vault = newVault();
    expect(cliRun("index", vault).code).toBe(0);
    expect(hook(vault, stop(join(FIXTURES, "claude-code-session.jsonl"))).code).toBe(0);
    const r = hook(vault, {
      hook_event_name: "UserPromptSubmit",
      prompt: "add the CRLF case to the tokenizer tests",
    });
    expect(r.code).toBe(0);
    const context = (JSON.parse(r.stdout) as HookReply).hookSpecificOutput.additionalContext;
    expect(context).toContain("CRLF");
  });

  it("SessionStart on a saved index older than the notes gives the brief of the notes as they are", () => {
    const vault = newVault();
    const note = join(vault, "Memory/Agents/claude/Knowledge/learning/Deploys.md");
    mkdirSync(join(note, ".."), { recursive: true });
    const text = (line: string) =>
      `---\ntype: knowledge\nstatus: active\nupdated_at: 2026-11-20\n---\n# Deploys\n\n${line}\n`;
    writeFileSync(note, text("The canary deploy runs before the fleet deploy."));
    expect(cliRun("index", vault).code).toBe(0);
    writeFileSync(note, text("The zorblax deploy now runs after the whole fleet deploy."));
    const start = { hook_event_name: "SessionStart", source: "startup" };
    const stale = hook(vault, start);
    expect(stale.stderr).toBe("");
    expect(stale.stdout).toContain("zorblax");
    expect(cliRun("index", vault).code).toBe(0);
    expect(hook(vault, start)).toEqual(stale);
  });

  it("SessionStart with no server keeps the stale scan's facts, and a note edited in place changes the brief", () => {
    const vault = newVault();
    const note = join(vault, "Memory/Agents/claude/Knowledge/learning/Deploys.md");
    mkdirSync(join(note, ".."), { recursive: true });
    const topic = (updated: string) =>
      `---\ntype: knowledge\nstatus: active\nupdated_at: ${updated}\n---\n# Deploys\n\nCanary first.\n`;
    writeFileSync(note, topic("2026-11-10"));
    const journal = (day: string) => join(vault, `Memory/Agents/claude/Journal/${day}.md`);
    writeFileSync(journal("2026-11-12"), "# d\n\nDeploys now run at noon. ^am-d001\n");
    const start = () => {
      const r = cliRunWith(
        {
          input: JSON.stringify({ hook_event_name: "SessionStart", source: "startup" }),
          env: { AGENT_MEMORY_SERVER: "off" },
        },
        ...["hook", "claude-code", "--vault", vault, "--agent", "claude"],
      );
      expect(r.stderr).toBe("");
      return (JSON.parse(r.stdout) as HookReply).hookSpecificOutput.additionalContext;
    };
    const first = start();
    expect(first).toContain("## May be stale (1)");
    expect(first).toContain("[[Memory/Agents/claude/Journal/2026-11-12#^am-d001]]");
    expect(statSync(join(vault, ".agent-memory/stale-claude.json")).isFile()).toBe(true);
    expect(start()).toBe(first);
    // Edited in place (its folder untouched): updated after the mention, it is no longer stale.
    writeFileSync(note, topic("2026-11-13"));
    expect(start()).not.toContain("May be stale");
    // A journal edited in place that mentions it after the update: stale again.
    writeFileSync(journal("2026-11-12"), "# d\n\nNothing today.\n");
    writeFileSync(journal("2026-11-20"), "# d\n\nx\n");
    expect(start()).not.toContain("May be stale");
    writeFileSync(journal("2026-11-20"), "# d\n\nDeploys moved to ten. ^am-d002\n");
    const again = start();
    expect(again).toContain("## May be stale (1)");
    expect(again).toContain("[[Memory/Agents/claude/Journal/2026-11-20#^am-d002]]");
  });

  it("--budget-chars bounds what a prompt brings back", () => {
    const vault = newVault();
    expect(hook(vault, stop(join(FIXTURES, "claude-code-session.jsonl"))).code).toBe(0);
    const tiny = hook(
      vault,
      { hook_event_name: "UserPromptSubmit", prompt: "tokenizer tests CRLF case" },
      "--budget-chars",
      "90",
    );
    // The header alone fits; no passage line does.
    expect(tiny).toMatchObject({ code: 0, stdout: "" });
  });

  it.each([
    ["bad JSON", (v: string) => hook(v, "{not json"), /the event is not JSON/],
    [
      // Given as the last argument with stdin open: the event is that argument, not "too many".
      "an event argument that is not JSON",
      (v: string) => hook(v, "", "not json"),
      /^agent-memory hook: the event is not JSON/,
    ],
    ["a JSON array", (v: string) => hook(v, "[1]"), /the event is not a JSON object/],
    ["an event of no name", (v: string) => hook(v, "{}"), /the event has no hook_event_name/],
    [
      "an event this hook does not answer",
      (v: string) => hook(v, { hook_event_name: "Foo" }),
      /the Foo event is not one this hook answers \(SessionStart, UserPromptSubmit, Stop/,
    ],
    [
      "a UserPromptSubmit whose prompt is not text",
      (v: string) => hook(v, { hook_event_name: "UserPromptSubmit", prompt: 123 }),
      /the UserPromptSubmit event has no prompt text; nothing added/,
    ],
    ["no event", (v: string) => hook(v, ""), /no event JSON given/],
    [
      "a missing vault",
      () => hook("/nonexistent/vault", stop("/x.jsonl")),
      /vault folder not found/,
    ],
    [
      "a missing transcript",
      (v: string) => hook(v, stop("/nonexistent/t.jsonl")),
      /cannot read the transcript \/nonexistent\/t\.jsonl/,
    ],
    [
      "a transcript_path that is not a transcript (a Markdown file)",
      (v: string) => hook(v, stop(otherFile("notes.md", "# Notes\n\nnot a transcript\n"))),
      /notes\.md: not a Claude Code transcript \(2 line\(s\) not JSON; no session\); nothing written/,
    ],
    [
      "a transcript_path of JSON lines of another program",
      (v: string) =>
        hook(v, stop(otherFile("events.jsonl", '{"kind":"metric","v":1}\n{"type":"ping"}\n'))),
      /events\.jsonl: not a Claude Code transcript \(line types \(none\), ping; no session\); nothing written/,
    ],
    [
      "a Stop without transcript_path",
      (v: string) => hook(v, { hook_event_name: "Stop" }),
      /no transcript_path/,
    ],
    [
      "an unknown agent",
      (v: string) =>
        cliRunWith(
          { input: JSON.stringify(stop(join(FIXTURES, "codex-rollout.jsonl"))) },
          "hook",
          "claude-code",
          "--vault",
          v,
          "--agent",
          "ghost",
        ),
      /unknown agent "ghost"/,
    ],
    [
      "no --vault",
      () => cliRunWith({ input: "{}" }, "hook", "claude-code", "--agent", "claude"),
      /--vault V is required/,
    ],
    [
      "an empty --vault (AGENT_MEMORY_VAULT unset)",
      () => cliRunWith({ input: "{}" }, "hook", "claude-code", "--vault", "", "--agent", "claude"),
      /--vault is empty \(given as "\$AGENT_MEMORY_VAULT"\? that variable is unset or empty\)/,
    ],
    ["an unknown option", (v: string) => hook(v, "{}", "--bogus"), /Unknown option '--bogus'/],
    [
      "an endless stdin (/dev/zero), read only up to the event limit",
      (v: string) => {
        const zero = openSync("/dev/zero", "r");
        try {
          const res = spawnSync(
            process.execPath,
            [CLI_PATH, "hook", "claude-code", "--vault", v, "--agent", "claude"],
            { encoding: "utf8", env: offlineEnv(), stdio: [zero, "pipe", "pipe"], timeout: 60_000 },
          );
          return { code: res.status, stdout: res.stdout, stderr: res.stderr };
        } finally {
          closeSync(zero);
        }
      },
      /the event is over 4194304 bytes/,
    ],
    [
      "an unknown agent kind",
      (v: string) => cliRunWith({ input: "{}" }, "hook", "cursor", "--vault", v),
      /must be claude-code or codex/,
    ],
  ])("%s: exit 0, one line on stderr, nothing written", (_, run, message) => {
    const vault = newVault();
    const before = notes(vault);
    const r = run(vault);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(notes(vault)).toEqual(before);
  });

  it("a journal locked by another writer: exit 0, one line, the journal unchanged", () => {
    const vault = newVault();
    const lines = readFileSync(join(FIXTURES, "claude-code-session.jsonl"), "utf8").split("\n");
    const early = join(vault, "..", `${dirs.length}-early.jsonl`);
    dirs.push(early);
    writeFileSync(early, `${lines.slice(0, 14).join("\n")}\n`);
    expect(hook(vault, stop(early)).code).toBe(0);
    const before = readFileSync(join(vault, JOURNAL), "utf8");
    // Another process holds the journal's lock (a fresh lock folder, as proper-lockfile makes one).
    const lockDir = join(realpathSync(vault), ".agent-memory", "locks");
    mkdirSync(new NoteLocks(lockDir).lockPath(realpathSync(join(vault, JOURNAL))), {
      recursive: true,
    });
    const r = cliRunWith(
      {
        input: JSON.stringify(stop(join(FIXTURES, "claude-code-session.jsonl"))),
        env: { AGENT_MEMORY_LOCK_WAIT_MS: "0" },
      },
      "hook",
      "claude-code",
      "--vault",
      vault,
      "--agent",
      "claude",
    );
    expect(r.code).toBe(0);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/^agent-memory hook: /);
    expect(readFileSync(join(vault, JOURNAL), "utf8")).toBe(before);
  });

  it("a journal whose frontmatter does not parse: Stop and ingest leave it byte for byte, and say so naming it and the YAML error", () => {
    const vault = newVault();
    const bad = "---\ntitle: [unclosed\n---\n# 2026-11-30\n\nSome notes.\n";
    mkdirSync(join(vault, "Memory/Agents/claude/Journal"), { recursive: true });
    writeFileSync(join(vault, JOURNAL), bad);
    const before = notes(vault);
    const transcript = join(FIXTURES, "claude-code-session.jsonl");
    const message = new RegExp(
      `${JOURNAL}: frontmatter does not parse, the note is left as it is \\(frontmatter is not valid YAML \\(line \\d+\\): `,
    );
    const r = hook(vault, stop(transcript));
    expect(r.code).toBe(0);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/^agent-memory hook: /);
    expect(r.stderr).toMatch(message);
    expect(notes(vault)).toEqual(before);
    // ingest reports the session refused, with the reason, and exits 1 (docs/agents.md).
    const i = cliRun("ingest", vault, transcript, "--agent", "claude");
    expect(i.code).toBe(1);
    expect(i.stderr).toBe("");
    expect(i.stdout).toContain(`${JOURNAL}: refused by the journal, nothing written for it`);
    expect(i.stdout).toMatch(message);
    expect(i.stdout).toContain("nothing new to write");
    expect(readFileSync(join(vault, JOURNAL), "utf8")).toBe(bad);
    expect(notes(vault)).toEqual(before);
  });

  it("a journal whose frontmatter is a list or never closed: Stop and ingest leave it byte for byte, as their message says", () => {
    const transcript = join(FIXTURES, "claude-code-session.jsonl");
    for (const [bad, reason] of [
      [
        "---\n- a\n- b\n---\n# 2026-11-30\n",
        /frontmatter is a YAML list, not a mapping of fields; nothing written/,
      ],
      [
        "---\ntitle: x\n# 2026-11-30\n",
        /is never closed by a --- line; close it, or remove that line; nothing written/,
      ],
    ] as const) {
      const vault = newVault();
      mkdirSync(join(vault, "Memory/Agents/claude/Journal"), { recursive: true });
      writeFileSync(join(vault, JOURNAL), bad);
      const before = notes(vault);
      const r = hook(vault, stop(transcript));
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(reason);
      expect(notes(vault)).toEqual(before);
      const i = cliRun("ingest", vault, transcript, "--agent", "claude");
      expect(i.code).toBe(1);
      expect(i.stdout).toMatch(reason);
      expect(readFileSync(join(vault, JOURNAL), "utf8")).toBe(bad);
      expect(notes(vault)).toEqual(before);
    }
  });
});

describe("agent-memory hook codex", () => {
  const turn = (id: string, input: string, answer: string) =>
    JSON.stringify({
      type: "agent-turn-complete",
      "thread-id": "0199a213-81c0-7800-8aa1-bbab2a035a53",
      "turn-id": id,
      cwd: "/home/dev/api",
      "input-messages": [
        "<environment_context>\n<cwd>/home/dev/api</cwd>\n</environment_context>",
        input,
      ],
      "last-assistant-message": answer,
    });
  const notify = (vault: string, json: string) =>
    cliRun("hook", "codex", "--vault", vault, "--agent", "claude", json);

  it("writes each turn once into the thread's section and extracts", () => {
    const vault = newVault();
    expect(
      notify(
        vault,
        turn("1", "Rename the retry flag", "Renamed it.\n\n## Next steps\n- Update the README"),
      ),
    ).toMatchObject({ code: 0, stderr: "" });
    const journalDir = join(vault, "Memory/Agents/claude/Journal");
    const journal = () => {
      const name = readdirSync(journalDir).find((n) => n.endsWith(".md"));
      return readFileSync(join(journalDir, name ?? ""), "utf8");
    };
    expect(journal()).toContain("## Codex session 0199a213");
    expect(journal()).toContain("**Asked:** Rename the retry flag");
    expect(journal()).not.toContain("environment_context");
    expect(readFileSync(join(vault, "Memory/Agents/claude/Trackers/Tasks.md"), "utf8")).toContain(
      "Update the README",
    );
    const once = journal();
    expect(notify(vault, turn("1", "Rename the retry flag", "Renamed it."))).toMatchObject({
      code: 0,
      stderr: "",
    });
    expect(journal()).toBe(once);
    expect(notify(vault, turn("2", "Now the timeout flag", "Done too.")).code).toBe(0);
    expect(journal().match(/## Codex session/g)).toHaveLength(1);
    expect(journal()).toContain("**Asked:** Now the timeout flag");
    expect(journal()).toContain("turns=2 last=2");
  });

  it("ignores other notifications, and refuses bad JSON with exit 0 and one line", () => {
    const vault = newVault();
    const before = notes(vault);
    expect(notify(vault, JSON.stringify({ type: "approval-requested" }))).toMatchObject({
      code: 0,
      stderr: "",
    });
    for (const text of ["{oops", "not json"]) {
      const bad = notify(vault, text);
      expect(bad.code).toBe(0);
      expect(bad.stderr).toMatch(/^agent-memory hook: the event is not JSON/);
      expect(bad.stderr.trim().split("\n")).toHaveLength(1);
    }
    expect(notes(vault)).toEqual(before);
  });
});
