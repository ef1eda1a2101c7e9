// Ctrl-C (SIGINT) during `ingest` (src/cli/commands/ingest.ts): it stops after the write under
// way, prints what it did so far, says so in one stderr line and exits 130; nothing is half-written
// and the same command again continues. No timing: the test holds the lock of the second
// session's journal, sends SIGINT once the first session is on disk, and only then lets go.
import { spawn } from "node:child_process";
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { parseNote } from "../../src/core/frontmatter";
import { LOCK_DIR, NoteLocks } from "../../src/node/note-lock";
import { CLI_PATH, cliRun, offlineEnv } from "../helpers/cli-run";
import { leftovers } from "../helpers/stress-harness";

const FIXTURES = fileURLToPath(new URL("../fixtures/transcripts/", import.meta.url));
const FIRST = "Memory/Agents/claude/Journal/2026-11-30.md";
const SECOND = "Memory/Agents/claude/Journal/2026-11-29.md";
const TASKS = "Memory/Agents/claude/Trackers/Tasks.md";

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

function tempDir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

const read = (root: string, path: string): string =>
  existsSync(join(root, path)) ? readFileSync(join(root, path), "utf8") : "";

describe("ingest and Ctrl-C", () => {
  it("stops after the write under way with exit 130, says what it did; a re-run continues", async () => {
    const root = tempDir("am-ingest-int-");
    expect(cliRun("init", root, "--agent", "claude").code).toBe(0);
    // The Codex session a day earlier, so that it goes into a journal of its own.
    const codex = join(tempDir("am-ingest-int-t-"), "codex-29.jsonl");
    writeFileSync(
      codex,
      readFileSync(join(FIXTURES, "codex-rollout.jsonl"), "utf8").replaceAll(
        "2026-11-30",
        "2026-11-29",
      ),
    );
    const files = [join(FIXTURES, "claude-code-session.jsonl"), codex];
    const tasksBefore = read(root, TASKS);

    let stdout = "";
    let stderr = "";
    let exited!: Promise<number | null>;
    const locks = new NoteLocks(join(realpathSync(root), LOCK_DIR));
    await locks.withLock(join(realpathSync(root), SECOND), SECOND, async () => {
      const child = spawn(
        process.execPath,
        [CLI_PATH, "ingest", root, ...files, "--agent", "claude"],
        {
          env: { ...offlineEnv(), AGENT_MEMORY_LOCK_WAIT_MS: "120000" },
        },
      );
      child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      exited = new Promise((resolve) => child.once("close", (code) => resolve(code)));
      let running = true;
      void exited.then(() => (running = false));
      // The first session is written; the second waits for the lock held here.
      while (running && !read(root, FIRST).includes("%% agent-memory ingest claude-code "))
        await new Promise((r) => setTimeout(r, 20));
      expect(running, stderr).toBe(true);
      child.kill("SIGINT");
    });
    expect(await exited, stderr).toBe(130);
    // The signal comes while the second session waits for its journal's lock (that write is then
    // finished) or, on a slow machine, just before it starts (then it is not begun): either way
    // each journal holds its session whole or not at all, and nothing was extracted.
    const second = read(root, SECOND).includes("%% agent-memory ingest codex ");
    const wrote = second ? [FIRST, SECOND] : [FIRST];
    expect(stdout).toContain(`→ ${FIRST}: `);
    if (second) expect(stdout).toContain(`→ ${SECOND}: `);
    else expect(read(root, SECOND)).toBe("");
    expect(stdout).not.toContain("extracted ");
    expect(stdout).toContain(`wrote ${wrote.join(", ")}`);
    expect(stderr.trim().split("\n")).toEqual([
      `agent-memory ingest: interrupted; wrote ${wrote.length} note(s), each complete; running the same command again continues (a journal written and not extracted is extracted then)`,
    ]);
    expect(leftovers(join(root, "Memory"))).toEqual([]);
    for (const j of wrote) {
      expect(read(root, j)).toMatch(/%% agent-memory ingest (claude-code|codex) /);
      expect(parseNote(read(root, j), j).data?.extraction_hash).toBeUndefined();
    }
    expect(read(root, TASKS)).toBe(tasksBefore);

    // The same command again adds no turn and extracts both journals.
    const again = cliRun("ingest", root, ...files, "--agent", "claude");
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout.match(/already in the journal/g)).toHaveLength(wrote.length);
    expect(again.stdout).toContain(`extracted ${FIRST}`);
    expect(again.stdout).toContain(`extracted ${SECOND}`);
    for (const j of [FIRST, SECOND])
      expect(typeof parseNote(read(root, j), j).data?.extraction_hash).toBe("string");
  }, 120_000);
});
