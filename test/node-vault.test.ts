import { readFileSync, existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { VaultError, PathError } from "../src/core/errors";
import { tempVault } from "./helpers/temp-vault";

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

describe("NodeVault", () => {
  it("creates missing folders and files through process", async () => {
    const t = tempVault();
    cleanup = t.cleanup;
    expect(await t.vault.process("Memory/Agents/a/Trackers/Tasks.md", (cur) => (cur ?? "") + "- [ ] x\n")).toBe(true);
    expect(readFileSync(join(t.root, "Memory/Agents/a/Trackers/Tasks.md"), "utf8")).toBe("- [ ] x\n");
  });

  it("does not write when the function returns the current content", async () => {
    const t = tempVault({ "a.md": "same" });
    cleanup = t.cleanup;
    expect(await t.vault.process("a.md", (cur) => cur)).toBe(false);
    expect(await t.vault.process("missing.md", () => null)).toBe(false);
    expect(existsSync(join(t.root, "missing.md"))).toBe(false);
  });

  it("case 07: a concurrent writer's change between read and rename is kept", async () => {
    const t = tempVault({ "j.md": "first line\n" });
    cleanup = t.cleanup;
    let interfered = false;
    t.vault.beforeCommit = async () => {
      if (interfered) return;
      interfered = true;
      t.write("j.md", "first line\n- [ ] call Person B\n");
      await Promise.resolve();
    };
    let calls = 0;
    await t.vault.process("j.md", (cur) => {
      calls++;
      return `${cur ?? ""}added by plugin ^am-0001\n`;
    });
    expect(calls).toBe(2);
    expect(readFileSync(join(t.root, "j.md"), "utf8")).toBe("first line\n- [ ] call Person B\nadded by plugin ^am-0001\n");
    expect(readdirSync(t.root).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("names the file when it cannot be read", async () => {
    const t = tempVault();
    cleanup = t.cleanup;
    await expect(t.vault.read("nope.md")).rejects.toThrow(VaultError);
    await expect(t.vault.read("nope.md")).rejects.toThrow(/nope\.md/);
  });

  it("refuses paths that leave the vault (case 12)", async () => {
    const t = tempVault();
    cleanup = t.cleanup;
    await expect(t.vault.process("../outside.md", () => "x")).rejects.toThrow(PathError);
  });

  it("lists Markdown files with size and mtime, skipping dot-folders", async () => {
    const t = tempVault({ "a/b.md": "hello", "a/c.txt": "no", ".obsidian/x.md": "hidden" });
    cleanup = t.cleanup;
    const files = await t.vault.list();
    expect(files.map((f) => f.path)).toEqual(["a/b.md"]);
    expect(files[0]?.size).toBe(5);
    expect(files[0]?.mtime).toBeGreaterThan(0);
  });
});
