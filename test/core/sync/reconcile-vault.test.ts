// reconcileVault on a real temporary folder (docs/sync.md, "Reconcile"): a conflict copy read while
// a sync tool was still writing it is merged again as it reads once written, before it is moved.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MemoryLayout } from "../../../src/core/layout";
import { defaultSettings } from "../../../src/core/settings";
import { reconcileVault } from "../../../src/core/sync/reconcile-vault";
import { listItems } from "../../../src/core/trackers/format";
import type { VaultPort } from "../../../src/core/vault";
import { tempVault } from "../../helpers/temp-vault";

const TASKS = "Memory/Agents/link/Trackers/Tasks.md";
const COPY = "Memory/Agents/link/Trackers/Tasks.sync-conflict-20261201-101500-ABCDEFG.md";
const NOTE = "# Tasks\n\n- [ ] Send the draft ^t-k3f9x2m7qa\n- [ ] Book the room ^t-m2n4p6q8rs\n";
const THEIRS = NOTE.replace("- [ ] Send the draft", "- [x] Send the draft").concat(
  "- [ ] New on the laptop ^t-v7w8x9y0za\n",
);

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

/** The vault, with the copy's first `early` reads giving what a copy mid-write gives. */
function vaultWith(early: string[]) {
  const t = tempVault({ [TASKS]: NOTE, [COPY]: THEIRS });
  cleanup = t.cleanup;
  const reads = [...early];
  const vault: VaultPort = {
    read: (path) =>
      path === COPY && reads.length > 0 ? Promise.resolve(reads.shift()!) : t.vault.read(path),
    exists: (path) => t.vault.exists(path),
    list: (folder) => t.vault.list(folder),
    process: ((path: string, fn: never) => t.vault.process(path, fn)) as VaultPort["process"],
    move: (from, to) => t.vault.move(from, to),
  };
  return { t, vault };
}

describe("reconcileVault", () => {
  it.each([
    ["read whole", []],
    ["read empty, then whole", [""]],
  ])("a conflict copy %s is merged as it reads once written, then moved", async (_, early) => {
    const { t, vault } = vaultWith(early);
    const report = await reconcileVault(vault, new MemoryLayout(defaultSettings()));
    expect(report.copies.map((c) => c.copy)).toEqual([COPY]);
    expect(existsSync(join(t.root, COPY))).toBe(false);
    expect(
      listItems(readFileSync(join(t.root, TASKS), "utf8")).map((i) => [i.id, i.status]),
    ).toEqual([
      ["t-k3f9x2m7qa", "done"],
      ["t-m2n4p6q8rs", "open"],
      ["t-v7w8x9y0za", "open"],
    ]);
    expect(readFileSync(join(t.root, ".agent-memory/conflict-copies", COPY), "utf8")).toBe(THEIRS);
  });

  it("a conflict copy read cut mid-line, then whole: every line of the whole copy is merged, and the cut line is kept as read", async () => {
    const { t, vault } = vaultWith([THEIRS.slice(0, 40)]);
    await reconcileVault(vault, new MemoryLayout(defaultSettings()));
    const text = readFileSync(join(t.root, TASKS), "utf8");
    const items = listItems(text).map((i) => [i.id, i.status]);
    expect(items).toContainEqual(["t-k3f9x2m7qa", "done"]);
    expect(items).toContainEqual(["t-m2n4p6q8rs", "open"]);
    expect(items).toContainEqual(["t-v7w8x9y0za", "open"]);
    // A line is never dropped, the one a cut read gave included (docs/sync.md, "Reconcile").
    expect(text).toContain(THEIRS.slice(0, 40).split("\n").at(-1));
  });
});
