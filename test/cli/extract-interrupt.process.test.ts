import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseNote } from "../../src/core/frontmatter";
import { listItems } from "../../src/core/trackers/format";
import { listTopicEntries } from "../../src/core/knowledge/callouts";
import { scaleJournal } from "../../bench/lib/scale-journal";
import { CancelledError } from "../../src/core/errors";
import { applyPlan, planExtraction } from "../../src/core/extraction/pipeline";
import { OfflineExtractor } from "../../src/core/extraction/offline";
import { MemoryLayout } from "../../src/core/layout";
import { defaultSettings } from "../../src/core/settings";
import { NodeVault } from "../../src/node/node-vault";
import { leftovers, runCli } from "../helpers/stress-harness";
import { maskRandomIds } from "../helpers/seeded-random";

// Ctrl-C during a long extraction (src/cli/commands/extract.ts): the run stops between notes with
// exit 130 and one line, every note is complete, and running again ends as an uninterrupted run.
// No timing: SIGINT is sent when the CLI prints its first progress line.

const JOURNAL = "Memory/Agents/link/Journal/2026-12-01.md";
const SAMPLE = join(import.meta.dirname, "..", "..", "examples", "vault");
const roots: string[] = [];

function vault(): string {
  const root = mkdtempSync(join(tmpdir(), "am-interrupt-"));
  roots.push(root);
  cpSync(SAMPLE, root, { recursive: true });
  writeFileSync(join(root, JOURNAL), scaleJournal(2000));
  return root;
}

/** Every file under the vault's memory, timestamps and random item ids blanked (each run has its own). */
function snapshot(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else
        out.set(
          p.slice(root.length + 1),
          maskRandomIds(readFileSync(p, "utf8")).replace(
            /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}/g,
            "TIME",
          ),
        );
    }
  };
  walk(join(root, "Memory"));
  return out;
}

afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

describe("extract and Ctrl-C", () => {
  it("stops at SIGINT with exit 130 and complete notes; a re-run ends as an uninterrupted run", async () => {
    const root = vault();
    const before = snapshot(root);
    const stopped = await runCli(["extract", root, JOURNAL], (child) => {
      let seen = "";
      let sent = false;
      child.stderr?.on("data", (d: Buffer) => {
        seen += d.toString();
        // One Ctrl-C: a second one sent on a later line (the "interrupted" line itself) could land
        // after the command took its handler away, and kill it by the signal (exit code null).
        if (!sent && seen.includes("planned 500 of")) {
          sent = true;
          child.kill("SIGINT");
        }
      });
    });
    expect(stopped.stderr).toMatch(/agent-memory extract: planned 500 of 2000 items/);
    expect(stopped.code).toBe(130);
    const last = stopped.stderr.trim().split("\n").at(-1) ?? "";
    expect(last).toMatch(
      /^agent-memory extract: interrupted; wrote \d+ note\(s\), each complete; .* is not marked as extracted, so running the same command again continues$/,
    );
    expect(leftovers(join(root, "Memory"))).toEqual([]);
    // Each note is as it was or complete: it parses, and a tracker's and topic's entries are whole.
    const after = snapshot(root);
    for (const [path, text] of after) {
      const note = parseNote(readFileSync(join(root, path), "utf8"), path);
      if (before.get(path) === text) continue;
      if (path.includes("/Trackers/"))
        for (const it of listItems(text))
          expect(it.id, `${path}: ${it.text}`).toMatch(/^[a-z]+-\d{3,}$/);
      if (path.includes("/Knowledge/"))
        for (const e of listTopicEntries(text))
          expect(e.sources.length, `${path}: ${e.text}`).toBeGreaterThan(0);
      if (path === JOURNAL) expect(note.data?.extraction_hash).toBeUndefined();
    }
    // Running again continues, and ends where a run that was never interrupted ends.
    const again = await runCli(["extract", root, JOURNAL]);
    expect(again.code, again.stderr).toBe(0);
    const whole = vault();
    expect((await runCli(["extract", whole, JOURNAL])).code).toBe(0);
    expect(snapshot(root)).toEqual(snapshot(whole));
  }, 120_000);

  /** A vault whose journal of 200 items is planned, offline, not applied. */
  async function planned() {
    const root = vault();
    writeFileSync(join(root, JOURNAL), scaleJournal(200));
    const settings = defaultSettings();
    const layout = new MemoryLayout(settings);
    const vaultPort = new NodeVault(root);
    const plan = await planExtraction({
      vault: vaultPort,
      settings,
      layout,
      journalPath: JOURNAL,
      extractor: new OfflineExtractor(),
    });
    return { root, layout, vaultPort, plan };
  }

  it("applyPlan stops between notes when cancelled, gives the journal its ids and leaves it unmarked", async () => {
    const { root, layout, vaultPort, plan } = await planned();
    const stop = new AbortController();
    const err = await applyPlan(vaultPort, layout, plan, undefined, {
      signal: stop.signal,
      checkpoint: ({ phase, done }) => {
        if (phase === "apply" && done === 2) stop.abort();
      },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CancelledError);
    expect((err as CancelledError).writes).toHaveLength(3);
    expect((err as CancelledError).writes.at(-1)).toBe(JOURNAL);
    const journal = readFileSync(join(root, JOURNAL), "utf8");
    expect(parseNote(journal, JOURNAL).data?.extraction_hash).toBeUndefined();
    for (const b of plan.newBlockIds) expect(journal).toContain(`^${b.id}`);
  });

  it("applyPlan: a cancel that comes while the last note is written leaves the journal unmarked", async () => {
    const { root, layout, vaultPort, plan } = await planned();
    const stop = new AbortController();
    const seen: number[] = [];
    const err = await applyPlan(vaultPort, layout, plan, undefined, {
      signal: stop.signal,
      // Every note is written by the time `done` reaches `total`: the cancel comes after the last.
      checkpoint: ({ phase, done, total }) => {
        if (phase !== "apply") return;
        seen.push(done);
        if (done === total) stop.abort();
      },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CancelledError);
    const notes = new Set(plan.items.map((p) => p.destination)).size;
    expect(seen.at(-1)).toBe(notes);
    expect((err as CancelledError).writes).toHaveLength(notes + 1);
    const journal = readFileSync(join(root, JOURNAL), "utf8");
    expect(parseNote(journal, JOURNAL).data?.extraction_hash).toBeUndefined();
  });
});
