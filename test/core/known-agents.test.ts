// isKnownAgent (src/core/init.ts): the rule of knownAgents, by listing one agent's folder.
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
