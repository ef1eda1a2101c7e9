// The vault argument of every host (src/node/vault-arg.ts): `~` is the home folder, as a shell
// expands it, because `AGENT_MEMORY_VAULT=~/vault` set where no shell runs (Claude Code's `env`
// setting, `.mcp.json`) reaches the CLI, the hooks and the MCP server as the literal `~/vault`.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { openVault } from "../../src/node/context";
import { resolveVaultArg, shownVault } from "../../src/node/vault-arg";

let dirs: string[] = [];
afterEach(() => {
  vi.unstubAllEnvs();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

describe("resolveVaultArg", () => {
  it("takes `~` and `~/…` as the home folder, and anything else relative to the working folder", () => {
    const home = resolve("/home/someone");
    const cwd = resolve("/work/here");
    expect(resolveVaultArg("~", cwd, home)).toBe(home);
    expect(resolveVaultArg("~/", cwd, home)).toBe(home);
    expect(resolveVaultArg("~/vault", cwd, home)).toBe(join(home, "vault"));
    expect(resolveVaultArg("~/a/../vault", cwd, home)).toBe(join(home, "vault"));
    // Not a home folder: `~user`, a `~` inside a name, and relative or absolute paths.
    expect(resolveVaultArg("~other/vault", cwd, home)).toBe(join(cwd, "~other", "vault"));
    expect(resolveVaultArg("my~/vault", cwd, home)).toBe(join(cwd, "my~", "vault"));
    expect(resolveVaultArg("vault", cwd, home)).toBe(join(cwd, "vault"));
    expect(resolveVaultArg("/abs/vault", cwd, home)).toBe(resolve("/abs/vault"));
  });

  it("shows the vault as given with `~` expanded as the shell hook expands it, and nothing else changed", () => {
    expect(shownVault("~", "/home/someone")).toBe("/home/someone");
    expect(shownVault("~/", "/home/someone")).toBe("/home/someone/");
    expect(shownVault("~/my vault", "/home/someone")).toBe("/home/someone/my vault");
    for (const given of ["vault", ".", "../v", "/abs/vault", "~other/vault", "my~/vault"])
      expect(shownVault(given, "/home/someone")).toBe(given);
  });

  it("openVault opens `~/vault` in the home folder, not a `~` folder below the working folder", async () => {
    const home = mkdtempSync(join(tmpdir(), "am-home-"));
    const cwd = mkdtempSync(join(tmpdir(), "am-cwd-"));
    dirs.push(home, cwd);
    mkdirSync(join(home, "vault"));
    vi.stubEnv("HOME", home);
    const io = { out: () => undefined, err: () => undefined, env: {}, cwd };
    const ctx = await openVault("~/vault", io);
    expect(ctx.vaultRoot).toBe(join(home, "vault"));
    expect(ctx.vaultArg).toBe("~/vault");
    // `init` creates it there too, never a literal `~` in the working folder.
    const made = await openVault("~/new-vault", io, true);
    expect(made.vaultRoot).toBe(join(home, "new-vault"));
    await expect(openVault("~/missing", io)).rejects.toThrow("vault folder not found: ~/missing");
  });
});
