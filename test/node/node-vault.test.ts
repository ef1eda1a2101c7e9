import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  statSync,
  symlinkSync,
} from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { VaultError, PathError } from "../../src/core/errors";
import { LIST_SLICE_EVERY, NodeVault } from "../../src/node/node-vault";
import { tempVault } from "../helpers/temp-vault";

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

describe("NodeVault", () => {
  it("creates missing folders and files through process", async () => {
    const t = tempVault();
    cleanup = t.cleanup;
    expect(
      await t.vault.process(
        "Memory/Agents/a/Trackers/Tasks.md",
        (cur) => (cur ?? "") + "- [ ] x\n",
      ),
    ).toBe(true);
    expect(readFileSync(join(t.root, "Memory/Agents/a/Trackers/Tasks.md"), "utf8")).toBe(
      "- [ ] x\n",
    );
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
    expect(readFileSync(join(t.root, "j.md"), "utf8")).toBe(
      "first line\n- [ ] call Person B\nadded by plugin ^am-0001\n",
    );
    expect(readdirSync(t.root).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("returns the decision of the edit's last run, the one the note holds (case 07)", async () => {
    const t = tempVault({ "j.md": "first line\n" });
    cleanup = t.cleanup;
    let interfered = false;
    t.vault.beforeCommit = async () => {
      if (interfered) return;
      interfered = true;
      t.write("j.md", "first line\nsecond line\n");
      await Promise.resolve();
    };
    // The decision depends on the content: the first run saw 1 line, the second 2.
    const done = await t.vault.process("j.md", (cur) => {
      const lines = (cur ?? "").split("\n").filter(Boolean).length;
      return { content: `${cur ?? ""}line ${lines + 1}\n`, result: lines };
    });
    expect(done).toEqual({ written: true, result: 2 });
    expect(readFileSync(join(t.root, "j.md"), "utf8")).toBe("first line\nsecond line\nline 3\n");
    // Nothing to write: written is false, the decision is still returned.
    expect(await t.vault.process("j.md", (cur) => ({ content: cur, result: "kept" }))).toEqual({
      written: false,
      result: "kept",
    });
    expect(await t.vault.process("missing.md", () => ({ content: null, result: 0 }))).toEqual({
      written: false,
      result: 0,
    });
    expect(existsSync(join(t.root, "missing.md"))).toBe(false);
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

  it("keeps the mode of the file it replaces (a private 600 note stays 600)", async () => {
    const t = tempVault({ "private.md": "secret\n", "shared.md": "open\n" });
    cleanup = t.cleanup;
    chmodSync(join(t.root, "private.md"), 0o600);
    chmodSync(join(t.root, "shared.md"), 0o664);
    expect(await t.vault.process("private.md", (cur) => `${cur ?? ""}more\n`)).toBe(true);
    expect(await t.vault.process("shared.md", (cur) => `${cur ?? ""}more\n`)).toBe(true);
    expect(statSync(join(t.root, "private.md")).mode & 0o777).toBe(0o600);
    expect(statSync(join(t.root, "shared.md")).mode & 0o777).toBe(0o664);
    expect(readFileSync(join(t.root, "private.md"), "utf8")).toBe("secret\nmore\n");
    if (process.getuid?.() === 0) {
      // Root editing a user's note gives it back to the user.
      chownSync(join(t.root, "shared.md"), 65534, 65534);
      expect(await t.vault.process("shared.md", (cur) => `${cur ?? ""}again\n`)).toBe(true);
      expect(statSync(join(t.root, "shared.md")).uid).toBe(65534);
    }
  });

  it("edits a symlinked note at its real target inside the vault and leaves the link a link", async () => {
    const t = tempVault({ "real/Tasks.md": "- [ ] a\n" });
    cleanup = t.cleanup;
    mkdirSync(join(t.root, "Memory"));
    symlinkSync("../real/Tasks.md", join(t.root, "Memory/Tasks.md"));
    // A link to a link: the edit lands on the last one's target.
    symlinkSync("Tasks.md", join(t.root, "Memory/Alias.md"));

    expect(await t.vault.process("Memory/Tasks.md", (cur) => `${cur ?? ""}- [ ] b\n`)).toBe(true);
    expect(await t.vault.process("Memory/Alias.md", (cur) => `${cur ?? ""}- [ ] c\n`)).toBe(true);

    expect(lstatSync(join(t.root, "Memory/Tasks.md")).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(t.root, "Memory/Tasks.md"))).toBe("../real/Tasks.md");
    expect(lstatSync(join(t.root, "Memory/Alias.md")).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(t.root, "real/Tasks.md"), "utf8")).toBe("- [ ] a\n- [ ] b\n- [ ] c\n");
    // The temporary file was written beside the real file and is gone.
    for (const dir of [join(t.root, "Memory"), join(t.root, "real")]) {
      expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    }
  });

  it("a dangling symlink gets its target created, and stays a link", async () => {
    const t = tempVault();
    cleanup = t.cleanup;
    symlinkSync("archive/Later.md", join(t.root, "Later.md"));
    expect(await t.vault.process("Later.md", (cur) => `${cur ?? "new"}\n`)).toBe(true);
    expect(lstatSync(join(t.root, "Later.md")).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(t.root, "archive/Later.md"), "utf8")).toBe("new\n");
  });

  it("a symlink loop is a VaultError naming the note", async () => {
    const t = tempVault();
    cleanup = t.cleanup;
    symlinkSync("b.md", join(t.root, "a.md"));
    symlinkSync("a.md", join(t.root, "b.md"));
    await expect(t.vault.process("a.md", () => "x")).rejects.toThrow(VaultError);
  });

  it("refuses to overwrite a note without its owner's write bit, also as root: VaultError 'permission denied' naming it", async () => {
    // The rename only needs a writable folder, so without a check a 444 note would be replaced;
    // root passes every access check, so the mode bits decide
    // (docs/write-safety.md, "Write permission").
    const t = tempVault({ "Memory/locked.md": "keep\n", "Memory/open.md": "edit\n" });
    cleanup = t.cleanup;
    const file = join(t.root, "Memory/locked.md");
    chmodSync(file, 0o444);
    chmodSync(join(t.root, "Memory/open.md"), 0o644);
    await expect(t.vault.process("Memory/locked.md", (cur) => `${cur ?? ""}x\n`)).rejects.toThrow(
      /^cannot write Memory\/locked\.md: permission denied \(it is read-only, mode 444/,
    );
    expect(readFileSync(file, "utf8")).toBe("keep\n");
    expect(statSync(file).mode & 0o777).toBe(0o444);
    // The other side of the boundary: the owner's write bit alone is enough.
    expect(await t.vault.process("Memory/open.md", (cur) => `${cur ?? ""}x\n`)).toBe(true);
    expect(readFileSync(join(t.root, "Memory/open.md"), "utf8")).toBe("edit\nx\n");
    expect(readdirSync(join(t.root, "Memory")).sort()).toEqual(["locked.md", "open.md"]);
  });
});

describe("NodeVault with a time slicer (a long-lived host's vault)", () => {
  it("lists exactly what it lists without one, and yields every LIST_SLICE_EVERY entries and before each read", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 150; i++)
      files[`Memory/Agents/a/Journal/2026-01-${String(i).padStart(3, "0")}.md`] = `# ${i}\n`;
    for (let i = 0; i < 20; i++) files[`Memory/Library/Topic ${i}/Note.md`] = `# t${i}\n`;
    files["Memory/Library/.hidden/Skip.md"] = "x";
    files["Memory/Library/not-a-note.txt"] = "x";
    const t = tempVault(files);
    cleanup = t.cleanup;
    symlinkSync("/", join(t.root, "Memory", "Library", "out"));
    let yields = 0;
    const sliced = new NodeVault(t.root, {
      slice: () => {
        yields++;
        return Promise.resolve();
      },
    });
    const plain = new NodeVault(t.root);
    for (const folder of ["", "Memory/Library", "Memory/Agents/a", "Memory/Nothing"]) {
      yields = 0;
      const [a, b] = [await sliced.list(folder), await plain.list(folder)];
      expect(a, folder).toEqual(b);
      // Every entry walked counts, folders and skipped ones included.
      if (folder === "") expect(yields).toBeGreaterThanOrEqual(Math.floor(170 / LIST_SLICE_EVERY));
      if (folder === "Memory/Nothing") expect(yields).toBe(0);
    }
    expect((await plain.list("")).length).toBe(170);
    await expect(sliced.list("Memory/Library/out")).rejects.toBeInstanceOf(PathError);
    yields = 0;
    expect(await sliced.read("Memory/Library/Topic 3/Note.md")).toBe("# t3\n");
    expect(yields).toBe(1);
    yields = 0;
    expect(await plain.read("Memory/Library/Topic 3/Note.md")).toBe("# t3\n");
    expect(yields).toBe(0);
  });
});
