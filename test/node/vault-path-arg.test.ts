// A note argument (extract's journal, promote's note) names a note inside the vault: relative to
// it, absolute, or `~/…` as the vault argument may be (src/node/context.ts, toVaultPath).
import { homedir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { toVaultPath, type CliContext } from "../../src/node/context";

describe("a note argument", () => {
  const ctx = { vaultRoot: join(homedir(), "vault") } as CliContext;

  it("relative to the vault, absolute inside it, or under ~ inside it: the same vault path", () => {
    expect(toVaultPath(ctx, "Memory/a.md")).toBe("Memory/a.md");
    expect(toVaultPath(ctx, join(homedir(), "vault", "Memory", "a.md"))).toBe("Memory/a.md");
    expect(toVaultPath(ctx, "~/vault/Memory/a.md")).toBe("Memory/a.md");
  });

  it("outside the vault, through ~ or .., is refused naming the argument", () => {
    expect(() => toVaultPath(ctx, "~/other/a.md")).toThrow(/not inside the vault: ~\/other\/a\.md/);
    expect(() => toVaultPath(ctx, "../a.md")).toThrow(/not inside the vault/);
    // `~user` is not the home folder: a folder of that name in the vault.
    expect(toVaultPath(ctx, "~ana/a.md")).toBe("~ana/a.md");
  });
});
