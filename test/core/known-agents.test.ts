// isKnownAgent (src/core/init.ts): the rule of knownAgents, by one agent's folder (its first note).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isKnownAgent, knownAgents } from "../../src/core/init";
import { MemoryLayout } from "../../src/core/layout";
import { PathError } from "../../src/core/errors";
import { defaultSettings } from "../../src/core/settings";
import { NodeVault } from "../../src/node/node-vault";

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

function vaultWith(files: string[], folders: string[] = []): NodeVault {
  const root = mkdtempSync(join(tmpdir(), "am-known-agents-"));
  roots.push(root);
  for (const f of files) {
    mkdirSync(dirname(join(root, f)), { recursive: true });
    writeFileSync(join(root, f), "# note\n");
  }
  for (const d of folders) mkdirSync(join(root, d), { recursive: true });
  return new NodeVault(root);
}

describe("isKnownAgent", () => {
  const layout = new MemoryLayout(defaultSettings());

  it("agrees with knownAgents: a folder with a note is an agent, an empty one or none is not", async () => {
    const vault = vaultWith(
      ["Memory/Agents/ada/Journal/2026-12-01.md", "Memory/Agents/bo/Trackers/Tasks.md"],
      ["Memory/Agents/empty/Journal"],
    );
    expect(await knownAgents(vault, layout)).toEqual(["ada", "bo"]);
    for (const agent of ["ada", "bo", "empty", "nobody"])
      expect(await isKnownAgent(vault, layout, agent), agent).toBe(
        (await knownAgents(vault, layout)).includes(agent),
      );
  });

  it("answers the same through a vault that can only list (no firstNote), for folders only of dot-folders, other files or notes deep down", async () => {
    const vault = vaultWith(
      [
        "Memory/Agents/ada/Journal/2026-12-01.md",
        "Memory/Agents/dot/.hidden/x.md",
        "Memory/Agents/txt/Journal/notes.txt",
        "Memory/Agents/deep/a/b/c/d.md",
      ],
      ["Memory/Agents/empty/Journal"],
    );
    const listing = {
      read: vault.read.bind(vault),
      exists: vault.exists.bind(vault),
      list: vault.list.bind(vault),
      process: vault.process.bind(vault),
    };
    for (const agent of ["ada", "dot", "txt", "deep", "empty", "nobody"]) {
      const expected = (await knownAgents(vault, layout)).includes(agent);
      expect(await isKnownAgent(vault, layout, agent), agent).toBe(expected);
      expect(await isKnownAgent(listing, layout, agent), agent).toBe(expected);
    }
    expect((await vault.firstNote("Memory/Agents/deep"))?.path).toBe(
      "Memory/Agents/deep/a/b/c/d.md",
    );
    expect(await vault.firstNote("Memory/Agents/dot")).toBeNull();
    expect(await vault.firstNote("Memory/Agents/missing")).toBeNull();
  });

  it("a name one letter off an agent is not that agent", async () => {
    const vault = vaultWith(["Memory/Agents/ada/Journal/2026-12-01.md"]);
    expect(await isKnownAgent(vault, layout, "ad")).toBe(false);
    expect(await isKnownAgent(vault, layout, "ada2")).toBe(false);
    expect(await isKnownAgent(vault, layout, "ada ")).toBe(false);
  });

  it("throws PathError for a name that is not a plain folder name", async () => {
    const vault = vaultWith(["Memory/Agents/ada/Journal/2026-12-01.md"]);
    await expect(isKnownAgent(vault, layout, "../ada")).rejects.toBeInstanceOf(PathError);
  });
});
