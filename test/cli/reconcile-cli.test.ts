// `agent-memory reconcile` through the CLI entry (docs/sync.md, "Reconcile").
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main";
import { listItems } from "../../src/core/trackers/format";

let root = "";
const TASKS = "Memory/Agents/a1/Trackers/Tasks.md";
const COPY = "Memory/Agents/a1/Trackers/Tasks.sync-conflict-20261201-101500-ABCDEFG.md";

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, {
    out: (l) => void out.push(l),
    err: (l) => void err.push(l),
    env: {},
  });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), "am-reconcile-cli-"));
  expect((await run("init", root, "--agent", "a1")).code).toBe(0);
  const head = readFileSync(join(root, TASKS), "utf8");
  // After a line-union merge: one item twice (ticked on one side, edited on the other).
  writeFileSync(
    join(root, TASKS),
    `${head}\n- [ ] Send the signed draft [created:: 2026-11-27] ^t-k3f9x2m7qa\n` +
      `- [x] Send the draft [created:: 2026-11-27] [completion:: 2026-12-01] ^t-k3f9x2m7qa\n`,
  );
  // A Syncthing copy holding one more item.
  writeFileSync(
    join(root, COPY),
    `${head}\n- [ ] Send the draft [created:: 2026-11-27] ^t-k3f9x2m7qa\n` +
      `- [ ] Book the room [created:: 2026-11-30] ^t-bbbbbbbbbb\n`,
  );
  writeFileSync(
    join(root, "Memory/Agents/a1/Links.md"),
    "---\ntype: note\n---\nSee [[Tasks#^t-k3f9x2m7qa]].\n",
  );
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("agent-memory reconcile", () => {
  it("health names the duplicated id and the conflict copy; reconcile folds, merges and keeps the copy", async () => {
    const before = await run("health", root, "--json");
    const rules = (JSON.parse(before.out) as { errors: { rule: string; path: string }[] }).errors;
    expect(rules).toContainEqual(expect.objectContaining({ rule: "duplicate-id", path: TASKS }));
    expect(rules).toContainEqual(expect.objectContaining({ rule: "conflict-copy", path: COPY }));

    const tasksBefore = readFileSync(join(root, TASKS), "utf8");
    const dry = await run("reconcile", root, "--dry-run");
    expect(dry.code).toBe(0);
    expect(dry.out).toContain(`would merge ${COPY} into ${TASKS}`);
    expect(dry.out).toContain(`would fold`);
    expect(readFileSync(join(root, TASKS), "utf8")).toBe(tasksBefore);
    expect(existsSync(join(root, COPY))).toBe(true);

    const r = await run("reconcile", root, "--json");
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out) as { copies: { kept_at: string }[]; folded: unknown[] };
    expect(report.copies[0]?.kept_at).toBe(`.agent-memory/conflict-copies/${COPY}`);
    const text = readFileSync(join(root, TASKS), "utf8");
    const items = listItems(text);
    expect(items.map((i) => [i.id, i.status, i.text])).toEqual([
      ["t-k3f9x2m7qa", "done", "Send the signed draft"],
      ["t-bbbbbbbbbb", "open", "Book the room"],
    ]);
    expect(text).toContain('Merge: kept "Send the signed draft" over "Send the draft" (text)');
    // The copy is kept, out of the notes.
    expect(existsSync(join(root, COPY))).toBe(false);
    expect(readFileSync(join(root, ".agent-memory/conflict-copies", COPY), "utf8")).toContain(
      "Book the room",
    );

    const after = await run("health", root, "--json");
    const j = JSON.parse(after.out) as {
      errors: { rule: string }[];
      warnings: { rule: string; message: string }[];
    };
    expect(j.errors.map((e) => e.rule)).not.toContain("duplicate-id");
    expect(j.errors.map((e) => e.rule)).not.toContain("conflict-copy");
    expect(j.errors.map((e) => e.rule)).not.toContain("broken-link");
    const choice = j.warnings.find((w) => w.rule === "merge-choice");
    expect(choice?.message).toContain('Merge: kept "Send the signed draft" over "Send the draft"');

    const again = await run("reconcile", root);
    expect(again.out).toBe("nothing to reconcile: no duplicated id, no conflict copy");
    expect(readFileSync(join(root, TASKS), "utf8")).toBe(text);
  });

  it("is listed in --help with git", async () => {
    const r = await run("--help");
    expect(r.out).toContain("agent-memory reconcile <vault> [--dry-run] [--json]");
    expect(r.out).toContain("agent-memory git setup <vault>");
  });
});
