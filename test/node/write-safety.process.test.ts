// The write path's promises, one example each (docs/write-safety.md): links out of the
// vault, encodings, notes caught mid-save, saves around our rename, read-only notes — on
// NodeVault and through the built CLI. Each test fails on the adapter as it was before these
// promises.
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  closeSync,
  ftruncateSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { EncodingError, PathError, TruncatedNoteError } from "../../src/core/errors";
import { decodeUtf8 } from "../../src/core/encoding";
import { tempVault } from "../helpers/temp-vault";

const root = fileURLToPath(new URL("../..", import.meta.url));
const cli = join(root, "dist", "cli.js");
const env = {
  ...process.env,
  AGENT_MEMORY_LLM_BASE_URL: "",
  AGENT_MEMORY_LLM_API_KEY: "",
  OPENAI_BASE_URL: "",
  OPENAI_API_KEY: "",
};

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function vault(files: Record<string, string> = {}) {
  const t = tempVault(files);
  cleanups.push(t.cleanup);
  return t;
}

function outsideDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "am-outside-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function cliRun(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: "utf8", env });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Every file under `dir` (links not followed) with its bytes, for "nothing changed" checks. */
function bytesOf(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.set(p.slice(dir.length), readFileSync(p).toString("base64"));
    }
  };
  walk(dir);
  return out;
}

const J = "Memory/Agents/a/Journal/2026-11-27.md";
const journal =
  "---\ntype: journal\nagent: a\n---\n# 2026-11-27\n\n- [ ] Renew the certificate before Friday\nDecision: ship the audit first\n";

describe("real paths stay inside the vault", () => {
  it("symlinks: a tracker linked to a file outside the vault is refused, naming the link and its target; the file is untouched", async () => {
    const out = outsideDir();
    writeFileSync(join(out, "victim.txt"), "not a note\n");
    const t = vault({ "Memory/Agents/a/Trackers/.keep.md": "" });
    symlinkSync(join(out, "victim.txt"), join(t.root, "Memory/Agents/a/Trackers/Tasks.md"));
    const err = await t.vault
      .process("Memory/Agents/a/Trackers/Tasks.md", (cur) => `${cur ?? ""}- [ ] x\n`)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PathError);
    expect((err as Error).message).toBe(
      `Memory/Agents/a/Trackers/Tasks.md is a symbolic link to ${join(out, "victim.txt")}, outside the vault (${join(out, "victim.txt")}); refused: nothing is read or written outside the vault`,
    );
    await expect(t.vault.read("Memory/Agents/a/Trackers/Tasks.md")).rejects.toThrow(PathError);
    expect(readFileSync(join(out, "victim.txt"), "utf8")).toBe("not a note\n");
  });

  it("a folder linked out of the vault, a dangling link out of it and a lock folder out of it are refused too", async () => {
    const out = outsideDir();
    const t = vault({ "Memory/x.md": "x\n" });
    symlinkSync(out, join(t.root, "Memory/Agents"));
    await expect(
      t.vault.process("Memory/Agents/a/Trackers/Tasks.md", () => "new\n"),
    ).rejects.toThrow(/^Memory\/Agents is a symbolic link to .*outside the vault/);
    symlinkSync(join(out, "made.md"), join(t.root, "Memory/Later.md"));
    await expect(t.vault.process("Memory/Later.md", () => "new\n")).rejects.toThrow(PathError);
    expect(readdirSync(out)).toEqual([]);
    // The lock folder is in the vault too: .agent-memory linked out makes every edit refuse.
    const u = vault({ "Memory/x.md": "x\n" });
    symlinkSync(out, join(u.root, ".agent-memory"));
    await expect(u.vault.process("Memory/x.md", (cur) => `${cur ?? ""}y\n`)).rejects.toThrow(
      /^\.agent-memory is a symbolic link/,
    );
    expect(readdirSync(out)).toEqual([]);
    expect(readFileSync(join(u.root, "Memory/x.md"), "utf8")).toBe("x\n");
  });

  it("index, search and health say once, on stderr, that they skip a folder linked out of the vault", () => {
    const out = outsideDir();
    writeFileSync(join(out, "Outside.md"), "# Outside\n\nzanzibar outside\n");
    const t = vault({
      "Memory/Agents/a/Journal/2026-11-27.md": "# 2026-11-27\n\nzanzibar inside\n",
    });
    mkdirSync(join(t.root, "Memory/Agents/a/Knowledge"), { recursive: true });
    symlinkSync(out, join(t.root, "Memory/Agents/a/Knowledge/learning"));
    const skipped = new RegExp(
      `^warning: skipped Memory/Agents/a/Knowledge/learning/: Memory/Agents/a/Knowledge/learning is a symbolic link to ${out.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}, outside the vault .*; its notes are not read$`,
    );
    for (const args of [
      ["index", t.root],
      ["search", t.root, "zanzibar"],
      ["health", t.root],
    ]) {
      const r = cliRun(...(args as [string, ...string[]]));
      expect(r.code, `${args[0]}: ${r.stderr}`).toBe(0);
      const lines = r.stderr
        .trim()
        .split("\n")
        .filter((l) => l.includes("skipped"));
      expect(lines, args[0]).toHaveLength(1);
      expect(lines[0]).toMatch(skipped);
      if (args[0] === "search") {
        expect(r.stdout).toContain("2026-11-27");
        expect(r.stdout).not.toContain("Outside");
      }
    }
    expect(readdirSync(out)).toEqual(["Outside.md"]);
  });

  it("case 14: CLI extract with a tracker linked out of the vault exits 2 naming the link; nothing in the vault or outside changes", () => {
    const out = outsideDir();
    writeFileSync(join(out, "victim.md"), "outside\n");
    const t = vault({ [J]: journal });
    mkdirSync(join(t.root, "Memory/Agents/a/Trackers"), { recursive: true });
    symlinkSync(join(out, "victim.md"), join(t.root, "Memory/Agents/a/Trackers/Tasks.md"));
    const before = bytesOf(t.root);
    const r = cliRun("extract", t.root, J);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^agent-memory extract: Memory\/Agents\/a\/Trackers\/Tasks\.md is a symbolic link to .*victim\.md, outside the vault/,
    );
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(bytesOf(t.root)).toEqual(before);
    expect(readFileSync(join(out, "victim.md"), "utf8")).toBe("outside\n");
  });

  it("CLI: a journal linked out of the vault is refused like the same path given on the command line", () => {
    const out = outsideDir();
    writeFileSync(join(out, "2026-11-27.md"), journal);
    const t = vault({ "Memory/Agents/a/Journal/.keep.md": "" });
    symlinkSync(join(out, "2026-11-27.md"), join(t.root, J));
    const r = cliRun("extract", t.root, J);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is a symbolic link to .*outside the vault/);
    expect(readFileSync(join(out, "2026-11-27.md"), "utf8")).toBe(journal);
    const direct = cliRun("extract", t.root, join(out, "2026-11-27.md"));
    expect(direct.code).toBe(2);
  });

  it("a note replaced by a link out of the vault after it was listed is refused when read", async () => {
    const out = outsideDir();
    writeFileSync(join(out, "secret.md"), "outside\n");
    const t = vault({ "Memory/a.md": "a\n", "Memory/b.md": "b\n" });
    expect((await t.vault.list()).map((f) => f.path)).toEqual(["Memory/a.md", "Memory/b.md"]);
    expect(await t.vault.read("Memory/a.md")).toBe("a\n");
    rmSync(join(t.root, "Memory/b.md"));
    symlinkSync(join(out, "secret.md"), join(t.root, "Memory/b.md"));
    await expect(t.vault.read("Memory/b.md")).rejects.toThrow(
      /^Memory\/b\.md is a symbolic link to .*secret\.md, outside the vault/,
    );
  });

  it("a note linked out of the vault is listed so that health reports it unreadable and search names it; a link inside is not listed twice", () => {
    const out = outsideDir();
    writeFileSync(join(out, "outside.md"), "# outside\n");
    const t = vault({ "Memory/Library/a/Real.md": "# Real\n\nthe pricing page\n" });
    symlinkSync(join(out, "outside.md"), join(t.root, "Memory/Library/a/Out.md"));
    symlinkSync("Real.md", join(t.root, "Memory/Library/a/Alias.md"));
    const health = cliRun("health", t.root, "--json");
    const report = JSON.parse(health.stdout) as {
      checked: number;
      errors: { path: string; rule: string; message: string }[];
    };
    expect(report.errors.filter((e) => e.rule === "unreadable")).toEqual([
      expect.objectContaining({
        path: "Memory/Library/a/Out.md",
        message: expect.stringMatching(
          /is a symbolic link to .*outside\.md, outside the vault/,
        ) as unknown,
      }),
    ]);
    expect(report.checked).toBe(2);
    const search = cliRun("search", t.root, "pricing");
    expect(search.stdout).toMatch(/Real/);
    expect(search.stderr).toMatch(
      /index: left out Memory\/Library\/a\/Out\.md: .*outside the vault/,
    );
    expect(readFileSync(join(out, "outside.md"), "utf8")).toBe("# outside\n");
  });

  it("a link to a note inside the vault is followed (the other side of the rule)", async () => {
    const t = vault({ "Shared/Tasks.md": "- [ ] a\n" });
    mkdirSync(join(t.root, "Memory"));
    symlinkSync("../Shared/Tasks.md", join(t.root, "Memory/Tasks.md"));
    expect(await t.vault.process("Memory/Tasks.md", (cur) => `${cur ?? ""}- [ ] b\n`)).toBe(true);
    expect(readFileSync(join(t.root, "Shared/Tasks.md"), "utf8")).toBe("- [ ] a\n- [ ] b\n");
  });
});

describe("UTF-8 or nothing", () => {
  const latin1 = Buffer.from("# Café\n\n- [ ] Réserver la salle\n", "latin1");

  it("case 15: a Latin-1 note is refused with the file and the first bad byte's offset; its bytes stay as they were", async () => {
    const t = vault();
    mkdirSync(join(t.root, "Memory"));
    writeFileSync(join(t.root, "Memory/fr.md"), latin1);
    const err = await t.vault.read("Memory/fr.md").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EncodingError);
    expect((err as Error).message).toBe(
      "Memory/fr.md is not valid UTF-8 (first bad byte 0xe9 at offset 5); convert it to UTF-8 to use it",
    );
    // An edit that is refused says so; a read only says what the note is.
    const refused = await t.vault
      .process("Memory/fr.md", (cur) => `${cur ?? ""}x\n`)
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(EncodingError);
    expect((refused as Error).message).toBe(
      "Memory/fr.md is not valid UTF-8 (first bad byte 0xe9 at offset 5); convert it to UTF-8 to use it; nothing was written",
    );
    expect(readFileSync(join(t.root, "Memory/fr.md")).equals(latin1)).toBe(true);
  });

  it("offsets: bad bytes anywhere, a sequence cut at the end, UTF-16 with a BOM; a UTF-8 BOM is kept byte for byte", async () => {
    expect(() => decodeUtf8(Buffer.from([0x61, 0xff]), "a.md")).toThrow(/0xff at offset 1/);
    expect(() => decodeUtf8(Buffer.from([0x61, 0xc3, 0xa9, 0xe9, 0x62]), "a.md")).toThrow(
      /0xe9 at offset 3/,
    );
    expect(() => decodeUtf8(Buffer.from([0x61, 0xe6, 0x97]), "a.md")).toThrow(/0xe6 at offset 1/);
    expect(() => decodeUtf8(Buffer.from("\ufeffhi", "utf16le"), "w.md")).toThrow(
      /^w\.md is UTF-16/,
    );
    expect(decodeUtf8(Buffer.from("日本語 é", "utf8"), "ok.md")).toBe("日本語 é");
    const t = vault();
    writeFileSync(join(t.root, "bom.md"), Buffer.from("\ufeff# Title\n", "utf8"));
    await t.vault.process("bom.md", (cur) => `${cur ?? ""}more\n`);
    expect(
      readFileSync(join(t.root, "bom.md")).equals(Buffer.from("\ufeff# Title\nmore\n", "utf8")),
    ).toBe(true);
  });

  it("CLI: extract on a Latin-1 journal exits 2 naming it; search indexes the rest and names it", () => {
    const t = vault({
      "Memory/Agents/a/Journal/2026-11-26.md":
        "---\ntype: journal\n---\nthe pricing page is slow\n",
    });
    const bad = "Memory/Agents/a/Journal/2026-11-27.md";
    writeFileSync(
      join(t.root, bad),
      Buffer.concat([Buffer.from("---\ntype: journal\n---\n- [ ] "), latin1]),
    );
    const before = bytesOf(t.root);
    const r = cliRun("extract", t.root, bad);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^agent-memory extract: Memory\/Agents\/a\/Journal\/2026-11-27\.md is not valid UTF-8 \(first bad byte 0xe9 at offset \d+\)/,
    );
    expect(bytesOf(t.root)).toEqual(before);
    const s = cliRun("search", t.root, "pricing");
    expect(s.stdout).toMatch(/2026-11-26/);
    expect(s.stderr).toMatch(/2026-11-27\.md.*not valid UTF-8/);
  });
});

describe("a note caught mid-save is never rebuilt", () => {
  it("in-place save: a note that reads as just emptied is refused after the retries; nothing is written", async () => {
    const t = vault({ "Memory/Tasks.md": "" });
    await expect(
      t.vault.process("Memory/Tasks.md", () => "# Tasks (rebuilt from a template)\n"),
    ).rejects.toThrow(TruncatedNoteError);
    expect(readFileSync(join(t.root, "Memory/Tasks.md"), "utf8")).toBe("");
  });

  it("an empty note left so for a while is a blank note and is filled (the other side of the boundary)", async () => {
    const t = vault({ "Memory/Topic.md": "" });
    const old = new Date(Date.now() - 60_000);
    utimesSync(join(t.root, "Memory/Topic.md"), old, old);
    expect(await t.vault.process("Memory/Topic.md", (cur) => `${cur ?? ""}# Topic\n`)).toBe(true);
    expect(readFileSync(join(t.root, "Memory/Topic.md"), "utf8")).toBe("# Topic\n");
  });

  it("a save caught between its truncate and its write is waited for, and the edit applies to what it wrote", async () => {
    const hand = Array.from({ length: 980 }, (_, i) => `hand-written line ${i}`).join("\n") + "\n";
    const t = vault({ "Memory/Tasks.md": hand });
    expect(await t.vault.read("Memory/Tasks.md")).toBe(hand);
    const file = join(t.root, "Memory/Tasks.md");
    writeFileSync(file, ""); // the truncate of an in-place save…
    const finish = setTimeout(() => writeFileSync(file, hand), 25); // …and its write, a moment later
    try {
      expect(
        await t.vault.process("Memory/Tasks.md", (cur) => `${cur ?? ""}- [ ] extracted\n`),
      ).toBe(true);
    } finally {
      clearTimeout(finish);
    }
    expect(readFileSync(file, "utf8")).toBe(`${hand}- [ ] extracted\n`);
  });

  it("a save into the old file just before our rename is read back and kept with the edit", async () => {
    const t = vault({ "Memory/Tasks.md": "- [ ] a\n" });
    const file = join(t.root, "Memory/Tasks.md");
    let fd = -1;
    // An editor opened the note to save it before our rename, and writes just after it.
    t.vault.beforeCommit = () => {
      if (fd < 0) fd = openSync(file, "r+");
      return Promise.resolve();
    };
    t.vault.afterRename = () => {
      if (fd >= 0) {
        ftruncateSync(fd, 0);
        writeSync(fd, "- [ ] a\n- [ ] typed by a person\n", 0);
        closeSync(fd);
        fd = -2;
      }
      return Promise.resolve();
    };
    expect(
      await t.vault.process("Memory/Tasks.md", (cur) =>
        cur?.includes("- [ ] extracted") ? cur : `${cur ?? ""}- [ ] extracted\n`,
      ),
    ).toBe(true);
    expect(readFileSync(file, "utf8")).toBe("- [ ] a\n- [ ] typed by a person\n- [ ] extracted\n");
  });

  it("a save into the old file around our rename, then a second save from the new note, keeps both saves' lines", async () => {
    const t = vault({ "Memory/Tasks.md": "- [ ] a\n" });
    const file = join(t.root, "Memory/Tasks.md");
    let fd = -1;
    t.vault.beforeCommit = () => {
      if (fd < 0) fd = openSync(file, "r+"); // an editor opens the note to save it…
      return Promise.resolve();
    };
    t.vault.afterRename = () => {
      if (fd >= 0) {
        // …writes its first save into the old file after our rename…
        ftruncateSync(fd, 0);
        writeSync(fd, "- [ ] a\n- [ ] first save\n", 0);
        closeSync(fd);
        fd = -2;
        // …and saves again from the note it now sees (ours), before we put the first save back.
        writeFileSync(file, `${readFileSync(file, "utf8")}- [ ] second save\n`);
      }
      return Promise.resolve();
    };
    await t.vault.process("Memory/Tasks.md", (cur) =>
      cur?.includes("- [ ] extracted") ? cur : `${cur ?? ""}- [ ] extracted\n`,
    );
    const text = readFileSync(file, "utf8");
    expect(text).toContain("- [ ] first save\n");
    expect(text).toContain("- [ ] second save\n");
    expect(text.match(/- \[ \] extracted/g)).toHaveLength(1);
  });

  it.each([
    [12, true],
    [Number.POSITIVE_INFINITY, false],
  ])(
    "a save into the old file, then a note that keeps changing through more than 8 rounds (%s more saves): the save's line is put back, or the refusal says to check the note",
    async (saves, kept) => {
      const t = vault({ "Memory/Tasks.md": "- [ ] a\n" });
      const file = join(t.root, "Memory/Tasks.md");
      let fd = -1;
      let commits = 0;
      t.vault.beforeCommit = () => {
        commits++;
        if (fd === -1)
          fd = openSync(file, "r+"); // an editor opens the note to save it…
        // …and, once our rename hid its save, a program saves in place just before each of our
        // next 12 renames (more than the 8 rounds a note that keeps changing is given).
        else if (fd === -2 && commits <= saves + 1)
          writeFileSync(file, `${readFileSync(file, "utf8")}- [ ] in-place save ${commits}\n`);
        return Promise.resolve();
      };
      t.vault.afterRename = () => {
        if (fd >= 0) {
          ftruncateSync(fd, 0);
          writeSync(fd, "- [ ] a\n- [ ] typed by a person\n", 0);
          closeSync(fd);
          fd = -2;
        }
        return Promise.resolve();
      };
      const run = t.vault.process("Memory/Tasks.md", (cur) =>
        cur?.includes("- [ ] extracted") ? cur : `${cur ?? ""}- [ ] extracted\n`,
      );
      if (!kept) {
        await expect(run).rejects.toThrow(
          /kept changing during 64 attempts, and what another program saved into it during our write could not be put back; check the note/,
        );
        return;
      }
      expect(await run).toBe(true);
      const text = readFileSync(file, "utf8");
      expect(text).toContain("- [ ] typed by a person\n");
      expect(text.match(/- \[ \] extracted/g)).toHaveLength(1);
      for (let i = 2; i <= saves + 1; i++) expect(text).toContain(`- [ ] in-place save ${i}\n`);
    },
  );

  it("a save over our note right after the rename, from what was read before it, gets the edit again", async () => {
    const t = vault({ "Memory/Tasks.md": "- [ ] a\n" });
    const file = join(t.root, "Memory/Tasks.md");
    let saved = false;
    t.vault.afterRename = () => {
      if (!saved) writeFileSync(file, "- [ ] a\n- [ ] typed by a person\n"); // based on the old text
      saved = true;
      return Promise.resolve();
    };
    await t.vault.process("Memory/Tasks.md", (cur) =>
      cur?.includes("- [ ] extracted") ? cur : `${cur ?? ""}- [ ] extracted\n`,
    );
    expect(readFileSync(file, "utf8")).toBe("- [ ] a\n- [ ] typed by a person\n- [ ] extracted\n");
  });
});

describe("write permission is respected, also as root", () => {
  it("case 16: extract with a read-only tracker rejects its items with the reason and leaves the journal unmarked; once writable, a re-run writes them", () => {
    const t = vault({
      [J]: journal,
      "Memory/Agents/a/Trackers/Tasks.md":
        "---\ntype: tracker\nagent: a\nkind: tasks\n---\n# Tasks\n\n",
    });
    const tasks = join(t.root, "Memory/Agents/a/Trackers/Tasks.md");
    chmodSync(tasks, 0o444);
    const before = readFileSync(tasks, "utf8");
    const r = cliRun("extract", t.root, J);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /rejected: could not write Memory\/Agents\/a\/Trackers\/Tasks\.md: .*read-only, mode 444/,
    );
    expect(readFileSync(tasks, "utf8")).toBe(before);
    expect(statSync(tasks).mode & 0o777).toBe(0o444);
    expect(readFileSync(join(t.root, J), "utf8")).not.toMatch(/extraction_hash/);
    chmodSync(tasks, 0o644);
    const again = cliRun("extract", t.root, J);
    expect(again.code).toBe(0);
    expect(readFileSync(tasks, "utf8")).toMatch(/Renew the certificate before Friday/);
    expect(readFileSync(join(t.root, J), "utf8")).toMatch(/extraction_hash/);
  });
});
