// @vitest-environment happy-dom
import "../setup-dom";
import { describe, expect, it } from "vitest";
import { App, TFile } from "../stubs/obsidian";
import { realApp } from "../stubs/obsidian-fixtures";
import { EncodingError, PathError, VaultError } from "../../src/core/errors";
import { ObsidianVault } from "../../src/obsidian/adapters/obsidian-vault";

function setup() {
  const app = new App();
  return { app, vault: new ObsidianVault(realApp(app)) };
}

describe("ObsidianVault", () => {
  it("creates a missing note and its missing folders through vault.create", async () => {
    const { app, vault } = setup();
    const written = await vault.process(
      "Memory/Agents/me/Trackers/Tasks.md",
      (cur) => cur ?? "# Tasks\n",
    );
    expect(written).toBe(true);
    expect(app.vault.getFolderByPath("Memory/Agents/me/Trackers")).not.toBeNull();
    expect(app.vault.getFileByPath("Memory/Agents/me/Trackers/Tasks.md")).toBeInstanceOf(TFile);
    expect(app.vault.text("Memory/Agents/me/Trackers/Tasks.md")).toBe("# Tasks\n");
  });

  it("writes nothing when the edit function returns null for a missing note", async () => {
    const { app, vault } = setup();
    expect(await vault.process("Memory/x.md", () => null)).toBe(false);
    expect(app.vault.getFolderByPath("Memory")).toBeNull();
  });

  it("edits an existing note through Vault.process and skips unchanged content (case 10)", async () => {
    const { app, vault } = setup();
    await app.vault.seed("Memory/a.md", "one\n");
    const before = app.vault.writes;
    expect(await vault.process("Memory/a.md", (cur) => cur)).toBe(false);
    expect(app.vault.writes).toBe(before);
    expect(await vault.process("Memory/a.md", (cur) => `${cur ?? ""}two\n`)).toBe(true);
    expect(app.vault.text("Memory/a.md")).toBe("one\ntwo\n");
  });

  it("case 07: an edit made while the plugin works survives its write", async () => {
    const { app, vault } = setup();
    const file = await app.vault.seed("Memory/Agents/me/Journal/2026-03-27.md", "- met Person A\n");
    // The person types a line after our first read, just before Obsidian's atomic process runs.
    app.vault.onProcess = (f) => {
      app.vault.onProcess = null;
      app.vault.setContent(f, `${app.vault.text(f.path) ?? ""}- [ ] call Person B\n`);
    };
    await vault.process(file.path, (cur) =>
      (cur ?? "").replace("- met Person A", "- met Person A ^am-1a2b"),
    );
    expect(app.vault.text(file.path)).toBe("- met Person A ^am-1a2b\n- [ ] call Person B\n");
  });

  it("returns the decision of the edit's last run: the one inside Vault.process (case 07)", async () => {
    const { app, vault } = setup();
    const file = await app.vault.seed("Memory/a.md", "one\n");
    app.vault.onProcess = (f) => {
      app.vault.onProcess = null;
      app.vault.setContent(f, `${app.vault.text(f.path) ?? ""}two\n`);
    };
    const count = (cur: string | null) => (cur ?? "").split("\n").filter(Boolean).length;
    expect(
      await vault.process(file.path, (cur) => ({
        content: `${cur ?? ""}more\n`,
        result: count(cur),
      })),
    ).toEqual({ written: true, result: 2 });
    expect(app.vault.text(file.path)).toBe("one\ntwo\nmore\n");
    expect(await vault.process(file.path, (cur) => ({ content: cur, result: "same" }))).toEqual({
      written: false,
      result: "same",
    });
    expect(
      await vault.process("Memory/new.md", (cur) => ({ content: "x\n", result: cur === null })),
    ).toEqual({ written: true, result: true });
    expect(await vault.process("Memory/none.md", () => ({ content: null, result: 0 }))).toEqual({
      written: false,
      result: 0,
    });
    expect(app.vault.getFileByPath("Memory/none.md")).toBeNull();
  });

  it("reads, checks existence, and names the file when it is missing", async () => {
    const { app, vault } = setup();
    await app.vault.seed("Memory/b.md", "bee");
    await app.vault.createFolder("Memory/folder.md");
    expect(await vault.read("Memory/b.md")).toBe("bee");
    expect(await vault.exists("Memory/b.md")).toBe(true);
    expect(await vault.exists("Memory/folder.md")).toBe(false);
    await expect(vault.read("Memory/none.md")).rejects.toThrow(VaultError);
    await expect(vault.read("Memory/none.md")).rejects.toThrow(/Memory\/none\.md/);
  });

  it("lists Markdown files under a folder with mtime and size", async () => {
    const { app, vault } = setup();
    await app.vault.seed("Memory/Agents/me/Journal/2026-03-27.md", "héllo");
    await app.vault.seed("Memory/Library/x.md", "x");
    await app.vault.seed("Other/y.md", "y");
    await app.vault.seed("Memory/Library/pic.png", "png");
    const all = await vault.list();
    expect(all.map((f) => f.path)).toEqual([
      "Memory/Agents/me/Journal/2026-03-27.md",
      "Memory/Library/x.md",
      "Other/y.md",
    ]);
    const lib = await vault.list("Memory/Library");
    expect(lib).toHaveLength(1);
    expect(lib[0]?.size).toBe(1);
    expect(all[0]?.size).toBe(6);
    expect(all[0]?.mtime).toBeGreaterThan(0);
  });

  it("case 12: refuses paths that leave the vault", async () => {
    const { vault } = setup();
    await expect(vault.process("../outside.md", () => "x")).rejects.toThrow(PathError);
    await expect(vault.process("Memory/../../x.md", () => "x")).rejects.toThrow(PathError);
  });

  it("renames through FileManager.renameFile, creating the destination folder", async () => {
    const { app, vault } = setup();
    await app.vault.seed("Memory/old.md", "text");
    const renamed: string[] = [];
    app.vault.on("rename", (f: TFile, old: string) => renamed.push(`${old} -> ${f.path}`));
    await vault.rename("Memory/old.md", "Memory/Archive/new.md");
    expect(app.vault.text("Memory/Archive/new.md")).toBe("text");
    expect(renamed).toEqual(["Memory/old.md -> Memory/Archive/new.md"]);
    await expect(vault.rename("Memory/missing.md", "Memory/z.md")).rejects.toThrow(VaultError);
  });
  it("encodings: a note that is not UTF-8 is refused by read and process, and left as it was", async () => {
    const { app, vault } = setup();
    const latin1 = new Uint8Array([0x23, 0x20, 0x43, 0x61, 0x66, 0xe9, 0x0a]); // "# Café\n" in Latin-1
    await app.vault.seedBytes("Memory/fr.md", latin1);
    await expect(vault.read("Memory/fr.md")).rejects.toThrow(EncodingError);
    await expect(vault.read("Memory/fr.md")).rejects.toThrow(
      /Memory\/fr\.md is not valid UTF-8 \(first bad byte 0xe9 at offset 5\); convert it to UTF-8 to use it$/,
    );
    const before = app.vault.writes;
    await expect(vault.process("Memory/fr.md", (cur) => `${cur ?? ""}x\n`)).rejects.toThrow(
      EncodingError,
    );
    await expect(vault.process("Memory/fr.md", (cur) => `${cur ?? ""}x\n`)).rejects.toThrow(
      /to use it; nothing was written$/,
    );
    expect(app.vault.writes).toBe(before);
    // The other side: UTF-8 text with accents reads and edits as before.
    await app.vault.seed("Memory/ok.md", "# Café\n");
    expect(await vault.read("Memory/ok.md")).toBe("# Café\n");
    expect(await vault.process("Memory/ok.md", (cur) => `${cur ?? ""}x\n`)).toBe(true);
  });
});
