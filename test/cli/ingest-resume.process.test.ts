// A multi-session `ingest` killed (SIGKILL) between writing its journal sections and extracting
// them: the next run must extract them, though it finds every session in the journal already
// (src/cli/ingest-run.ts, `journalsToExtract`). No timing: the kill waits for the sections on disk
// while the test holds the lock of the tracker the extraction writes, so the extraction cannot
// have marked the journal yet.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { parseNote } from "../../src/core/frontmatter";
import { LOCK_DIR, NoteLocks } from "../../src/node/note-lock";
import { CLI_PATH, cliRun, cliRunWith, offlineEnv } from "../helpers/cli-run";

const FIXTURES = fileURLToPath(new URL("../fixtures/transcripts/", import.meta.url));
const FILES = [join(FIXTURES, "claude-code-session.jsonl"), join(FIXTURES, "codex-rollout.jsonl")];
const JOURNAL = "Memory/Agents/claude/Journal/2026-11-30.md";
const TASKS = "Memory/Agents/claude/Trackers/Tasks.md";
const TASK = "Add a CRLF case to the tokenizer tests";

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

function newVault(): string {
  const root = mkdtempSync(join(tmpdir(), "am-ingest-resume-"));
  dirs.push(root);
  expect(cliRun("init", root, "--agent", "claude").code).toBe(0);
  return root;
}

/** The journal's text, or "" while it does not exist. */
function journal(root: string): string {
  const abs = join(root, JOURNAL);
  return existsSync(abs) ? readFileSync(abs, "utf8") : "";
}

/**
 * Runs `ingest` of both fixtures and SIGKILLs it once the journal holds both sessions' sections,
 * while the Tasks tracker's lock is held here, so the extraction is stuck before its writes.
 */
async function ingestKilledBeforeExtraction(root: string): Promise<void> {
  const locks = new NoteLocks(join(realpathSync(root), LOCK_DIR));
  await locks.withLock(realpathSync(join(root, TASKS)), TASKS, async () => {
    const child = spawn(
      process.execPath,
      [CLI_PATH, "ingest", root, ...FILES, "--agent", "claude"],
      {
        env: { ...offlineEnv(), AGENT_MEMORY_LOCK_WAIT_MS: "120000" },
        stdio: "ignore",
      },
    );
    const exited = new Promise<string | null>((resolve) =>
      child.once("exit", (_code, signal) => resolve(signal)),
    );
    let running = true;
    void exited.then(() => (running = false));
    const both = (t: string) =>
      (t.match(/%% agent-memory ingest (claude-code|codex) /g) ?? []).length === 2;
    while (running && !both(journal(root))) await new Promise((r) => setTimeout(r, 20));
    child.kill("SIGKILL");
    expect(await exited).toBe("SIGKILL");
  });
}

describe("ingest killed between its journal write and its extraction", () => {
  it("leaves the sections unextracted, and the next ingest extracts them", async () => {
    const root = newVault();
    await ingestKilledBeforeExtraction(root);
    const killed = parseNote(journal(root), JOURNAL);
    expect(killed.data?.extraction_hash).toBeUndefined();
    expect(readFileSync(join(root, TASKS), "utf8")).not.toContain(TASK);

    const again = cliRunWith(
      { env: { AGENT_MEMORY_LOCK_STALE_MS: "2000" } },
      "ingest",
      root,
      ...FILES,
      "--agent",
      "claude",
    );
    expect(again.stderr).toBe("");
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("already in the journal");
    expect(again.stdout).toContain(`extracted ${JOURNAL}`);
    expect(readFileSync(join(root, TASKS), "utf8")).toContain(TASK);
    expect(typeof parseNote(journal(root), JOURNAL).data?.extraction_hash).toBe("string");

    // Caught up: a third run extracts nothing and changes no note.
    const tasks = readFileSync(join(root, TASKS), "utf8");
    const text = journal(root);
    const third = cliRun("ingest", root, ...FILES, "--agent", "claude");
    expect(third.code).toBe(0);
    expect(third.stdout).not.toContain("extracted ");
    expect(readFileSync(join(root, TASKS), "utf8")).toBe(tasks);
    expect(journal(root)).toBe(text);
  }, 120_000);

  it("a Stop hook of the killed session catches the extraction up too", async () => {
    const root = newVault();
    await ingestKilledBeforeExtraction(root);
    const stop = JSON.stringify({ hook_event_name: "Stop", transcript_path: FILES[0] });
    const r = cliRunWith(
      { input: stop, env: { AGENT_MEMORY_SERVER: "off", AGENT_MEMORY_LOCK_STALE_MS: "2000" } },
      "hook",
      "claude-code",
      "--vault",
      root,
      "--agent",
      "claude",
    );
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(readFileSync(join(root, TASKS), "utf8")).toContain(TASK);
    expect(typeof parseNote(journal(root), JOURNAL).data?.extraction_hash).toBe("string");
  }, 120_000);
});
