// The offline extractor reads a long journal in slices with the run's checkpoint between them
// (src/core/extraction/offline.ts, READ_SLICE_BLOCKS): the items are those of one pass, and a
// cancel seen at a checkpoint stops the run before anything is written.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CancelledError } from "../../../src/core/errors";
import { planExtraction, type Checkpoint } from "../../../src/core/extraction/pipeline";
import {
  extractConventions,
  OfflineExtractor,
  READ_SLICE_BLOCKS,
} from "../../../src/core/extraction/offline";
import { splitBlocks } from "../../../src/core/journal/split";
import { MemoryLayout } from "../../../src/core/layout";
import { defaultSettings } from "../../../src/core/settings";
import { tempVault } from "../../helpers/temp-vault";

const settings = defaultSettings();
const layout = new MemoryLayout(settings);
const J = "Memory/Agents/link/Journal/2026-11-24.md";

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

const CONTEXT = { agent: "link", topics: [], openItems: [], agents: [] };

/** A journal of `n` blocks: tasks, decisions and a section heading whose list items count. */
function journal(n: number): string {
  const lines = ["# 2026-11-24", ""];
  for (let i = 0; i < n; i++) {
    if (i % 500 === 0) lines.push("## Next steps", "");
    else if (i % 3 === 0) lines.push(`- [ ] ship part ${i} of the release`, "");
    else if (i % 3 === 1) lines.push(`Decision: part ${i} goes out with a feature flag.`, "");
    else lines.push(`- follow up on item ${i} with the team`, "");
  }
  return lines.join("\n");
}

/** Every file under `root`, by vault path. */
function files(root: string, dir = root): Map<string, string> {
  const out = new Map<string, string>();
  for (const name of readdirSync(dir)) {
    const abs = join(dir, name);
    if (statSync(abs).isDirectory()) for (const [p, t] of files(root, abs)) out.set(p, t);
    else out.set(relative(root, abs), readFileSync(abs, "utf8"));
  }
  return out;
}

describe("the offline extractor on a long journal", () => {
  it("finds in slices what one pass finds, with a checkpoint between slices", async () => {
    const text = journal(READ_SLICE_BLOCKS * 2 + 50);
    const blocks = splitBlocks(text);
    expect(blocks.length).toBeGreaterThan(READ_SLICE_BLOCKS * 2);
    const seen: { phase: string; done: number; total: number }[] = [];
    const result = await new OfflineExtractor().extract({
      path: J,
      title: "2026-11-24",
      body: text,
      blocks,
      context: CONTEXT,
      checkpoint: (at) => {
        seen.push(at);
      },
    });
    expect(result.items).toEqual(extractConventions(blocks, [], { date: "2026-11-24" }));
    expect(result.items.length).toBeGreaterThan(READ_SLICE_BLOCKS);
    expect(seen).toEqual([
      { phase: "read", done: READ_SLICE_BLOCKS, total: blocks.length },
      { phase: "read", done: READ_SLICE_BLOCKS * 2, total: blocks.length },
    ]);
  });

  it("a journal of one slice or less passes no checkpoint", async () => {
    const text = journal(READ_SLICE_BLOCKS - 10);
    const blocks = splitBlocks(text);
    expect(blocks.length).toBeLessThanOrEqual(READ_SLICE_BLOCKS);
    let calls = 0;
    await new OfflineExtractor().extract({
      path: J,
      title: "2026-11-24",
      body: text,
      blocks,
      context: CONTEXT,
      checkpoint: () => {
        calls++;
      },
    });
    expect(calls).toBe(0);
  });

  it("a cancel seen at a reading checkpoint stops the run; no file changes", async () => {
    const t = tempVault({ [J]: journal(READ_SLICE_BLOCKS + 100) });
    cleanup = t.cleanup;
    const before = files(t.root);
    const stop = new AbortController();
    const phases: string[] = [];
    const checkpoint: Checkpoint = ({ phase }) => {
      phases.push(phase);
      stop.abort();
    };
    const run = planExtraction({
      vault: t.vault,
      settings,
      layout,
      journalPath: J,
      extractor: new OfflineExtractor(),
      signal: stop.signal,
      checkpoint,
    });
    await expect(run).rejects.toBeInstanceOf(CancelledError);
    await expect(run).rejects.toThrow(/cancelled while reading the journal; nothing was written/);
    expect(phases).toEqual(["read"]);
    expect(files(t.root)).toEqual(before);
  });
});
