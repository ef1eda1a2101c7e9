// A long-lived host's vault yields to its event loop (docs/decisions.md, "Long reads in a server
// yield"): `openVault` gives the vault the slicer it is handed (a server's own, or a served run's
// through `WarmSearch.slice`), and only the servers ask for one.
import { afterEach, describe, expect, it } from "vitest";
import { mcpCommand } from "../../src/cli/commands/mcp";
import { serveCommand } from "../../src/cli/commands/serve";
import { commands } from "../../src/cli/commands/registry";
import { openVault, type WarmSearch } from "../../src/node/context";
import { tempVault } from "../helpers/temp-vault";

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

const io = { out: () => undefined, err: () => undefined, env: {} };

describe("openVault and the time slicer", () => {
  it("the vault awaits the slicer it is given, its own or a served run's, and none otherwise", async () => {
    const t = tempVault({ "Memory/Library/A.md": "# A\n" });
    cleanup = t.cleanup;
    let calls = 0;
    const slice = () => {
      calls++;
      return Promise.resolve();
    };
    const warm: WarmSearch = { open: () => Promise.reject(new Error("not used")), slice };
    for (const [given, expected] of [
      [{ slice }, 1],
      [{ warm }, 1],
      [{}, 0],
    ] as const) {
      calls = 0;
      const ctx = await openVault(t.root, { ...io, ...given });
      expect(await ctx.vault.read("Memory/Library/A.md")).toBe("# A\n");
      expect(calls).toBe(expected);
    }
  });

  it("only the servers are long-lived commands", () => {
    expect(mcpCommand.longLived).toBe(true);
    expect(serveCommand.longLived).toBe(true);
    const others = commands.filter((c) => c.longLived && c !== mcpCommand && c !== serveCommand);
    expect(others.map((c) => c.name)).toEqual([]);
  });
});
