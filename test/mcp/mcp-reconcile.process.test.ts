// The MCP server reconciles what it sees change under it (docs/sync.md, "Reconcile"): a sync
// tool's conflict copy is merged into its note and moved to .agent-memory/conflict-copies/, and
// tracker lines that came to share an id are folded into one item. Waits are bounded polls.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { listItems } from "../../src/core/trackers/format";
import { buildCli, pollUntil, startMcp, type McpSession } from "../helpers/mcp-client";
import { tempVault } from "../helpers/temp-vault";

beforeAll(() => buildCli(), 60_000);

const TASKS = "Memory/Agents/link/Trackers/Tasks.md";
const NOTE = "# Tasks\n\n- [ ] Send the draft ^t-k3f9x2m7qa\n- [ ] Book the room ^t-m2n4p6q8rs\n";

let session: McpSession | null = null;
let cleanup: (() => void) | null = null;
afterEach(async () => {
  await session?.close();
  cleanup?.();
  session = null;
  cleanup = null;
});

async function start(args: string[] = []): Promise<string> {
  const t = tempVault({
    [TASKS]: NOTE,
    "Memory/Agents/link/Journal/2026-12-01.md": "# 2026-12-01\n",
  });
  cleanup = t.cleanup;
  session = await startMcp(t.root, ["--agent", "link", ...args]);
  return t.root;
}

describe("mcp server reconciles on change", () => {
  it("merges a conflict copy that appears into its note and keeps the copy out of the notes", async () => {
    const root = await start();
    const copy = "Memory/Agents/link/Trackers/Tasks.sync-conflict-20261201-101500-ABCDEFG.md";
    writeFileSync(
      join(root, copy),
      NOTE.replace("- [ ] Send the draft", "- [x] Send the draft").concat(
        "- [ ] New on the laptop ^t-v7w8x9y0za\n",
      ),
    );
    const kept = join(root, ".agent-memory/conflict-copies", copy);
    await pollUntil(async () => (existsSync(kept) ? true : undefined));
    expect(existsSync(join(root, copy))).toBe(false);
    expect(listItems(readFileSync(join(root, TASKS), "utf8")).map((i) => [i.id, i.status])).toEqual(
      [
        ["t-k3f9x2m7qa", "done"],
        ["t-m2n4p6q8rs", "open"],
        ["t-v7w8x9y0za", "open"],
      ],
    );
    await pollUntil(async () =>
      /reconciled: merged/.test(session?.stderr() ?? "") ? true : undefined,
    );
  });

  it("folds tracker lines that share an id when a sync tool leaves them so", async () => {
    const root = await start();
    writeFileSync(join(root, TASKS), `${NOTE}- [x] Send the draft ^t-k3f9x2m7qa\n`);
    const items = await pollUntil(async () => {
      const list = listItems(readFileSync(join(root, TASKS), "utf8"));
      return list.length === 2 ? list : undefined;
    });
    expect(items.map((i) => [i.id, i.status])).toEqual([
      ["t-k3f9x2m7qa", "done"],
      ["t-m2n4p6q8rs", "open"],
    ]);
  });

  it("a read-only server leaves both alone", async () => {
    const root = await start(["--read-only"]);
    const copy = "Memory/Agents/link/Trackers/Tasks (conflicted copy 2026-12-01).md";
    writeFileSync(join(root, copy), NOTE);
    writeFileSync(join(root, TASKS), `${NOTE}- [x] Send the draft ^t-k3f9x2m7qa\n`);
    // Both changes indexed (the last one seen is the tracker's, none pending): each was handled.
    await pollUntil(async () => {
      const s = (await session?.call("status"))?.structuredContent as
        { pending: number; last_change?: { path: string } | null } | undefined;
      return s?.pending === 0 && s.last_change?.path === TASKS ? true : undefined;
    });
    expect(existsSync(join(root, copy))).toBe(true);
    expect(listItems(readFileSync(join(root, TASKS), "utf8"))).toHaveLength(3);
  });
});
