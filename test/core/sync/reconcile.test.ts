// Reconcile after a line-union merge or a sync tool (docs/sync.md, "Reconcile").
import { describe, expect, it } from "vitest";
import { listItems } from "../../../src/core/trackers/format";
import { conflictCopyTarget, foldDuplicateItems } from "../../../src/core/sync/reconcile";

const HEAD = "---\ntype: tracker\nkind: tasks\n---\n# Tasks\n\n";

describe("foldDuplicateItems", () => {
  it("folds an open and a done line of one id into one done item, the differing text kept as a child line", () => {
    const text =
      `${HEAD}- [ ] Send the signed draft [created:: 2026-11-27] ^t-k3f9x2m7qa\n` +
      `- [ ] Other [created:: 2026-11-27] ^t-aaaaaaaaaa\n` +
      `- [x] Send the draft [created:: 2026-11-27] [completion:: 2026-12-01] ^t-k3f9x2m7qa\n` +
      `    - progress: asked Ana\n`;
    const r = foldDuplicateItems(text);
    expect(r.folded).toEqual([{ id: "t-k3f9x2m7qa", lines: 2 }]);
    const items = listItems(r.text);
    expect(items.map((i) => i.id)).toEqual(["t-k3f9x2m7qa", "t-aaaaaaaaaa"]);
    expect(items[0]).toMatchObject({ status: "done", text: "Send the signed draft" });
    expect(r.text).toContain("[completion:: 2026-12-01]");
    expect(r.text).toContain("    - progress: asked Ana");
    expect(r.text).toContain('Merge: kept "Send the signed draft" over "Send the draft" (text)');
    expect(r.choices).toHaveLength(1);
    // Folding again changes nothing.
    expect(foldDuplicateItems(r.text).text).toBe(r.text);
  });

  it("leaves a note without duplicated ids byte for byte", () => {
    const text = `${HEAD}- [ ] A ^t-001\r\n- [x] B ^t-002\r\nfree text\r\n`;
    const r = foldDuplicateItems(text);
    expect(r.text).toBe(text);
    expect(r.folded).toEqual([]);
  });

  it("two identical lines become one with no Merge line", () => {
    const text = `${HEAD}- [ ] A ^t-001\n- [ ] A ^t-001\n`;
    const r = foldDuplicateItems(text);
    expect(listItems(r.text)).toHaveLength(1);
    expect(r.text).not.toContain("Merge:");
  });
});

describe("conflictCopyTarget", () => {
  it.each([
    [
      "Memory/Agents/a1/Trackers/Tasks.sync-conflict-20261201-101500-ABCDEFG.md",
      "Memory/Agents/a1/Trackers/Tasks.md",
    ],
    ["Memory/T/Tasks (conflicted copy 2026-12-01).md", "Memory/T/Tasks.md"],
    ["Memory/T/Tasks (Ana's conflicted copy 2026-12-01).md", "Memory/T/Tasks.md"],
    ["Memory/T/Tasks (Conflict 2026-12-01 101500).md", "Memory/T/Tasks.md"],
    ["Memory/T/Tasks (Conflicted copy laptop).md", "Memory/T/Tasks.md"],
  ])("%s belongs to %s", (copy, note) => {
    expect(conflictCopyTarget(copy)).toBe(note);
  });

  it.each(["Memory/T/Tasks.md", "Memory/T/Conflict notes.md", "Memory/T/Tasks (draft).md"])(
    "%s is not a conflict copy",
    (p) => expect(conflictCopyTarget(p)).toBeNull(),
  );
});
