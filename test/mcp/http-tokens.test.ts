// Bearer tokens of the HTTP server (src/mcp/http/tokens.ts) on real temporary folders: only the
// hash is stored, nothing is removed, a bad token file is named and left as it was, and the
// server's registry sees a revoke and an expiry at its next refresh.
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { UsageError, VaultError } from "../../src/core/errors";
import {
  TOKENS_PATH,
  TOKEN_BYTES,
  TokenRegistry,
  addToken,
  checkExpiry,
  listTokens,
  revokeToken,
  tokenHash,
  type TokenEntry,
} from "../../src/mcp/http/tokens";
import { tokenLine } from "../../src/cli/commands/token";
import type { McpRights } from "../../src/mcp/rights";
import { tempVault } from "../helpers/temp-vault";

const ADA: McpRights = { agent: "ada", readOnly: false, tools: null, zones: [] };
const NOW = Date.parse("2026-12-01T12:00:00Z");

let v: ReturnType<typeof tempVault>;
afterEach(() => v?.cleanup());

const fileText = () => readFileSync(join(v.root, TOKENS_PATH), "utf8");

describe("token add, list, revoke", () => {
  it("prints a token of at least 128 random bits and stores only its SHA-256, owner-only", async () => {
    v = tempVault();
    const a = await addToken(v.vault, ADA, null, NOW);
    const b = await addToken(v.vault, { ...ADA, readOnly: true, tools: ["search"] }, null, NOW);
    expect(a.secret).toMatch(/^amt_[\w-]{43}$/);
    expect(TOKEN_BYTES * 8).toBeGreaterThanOrEqual(128);
    expect(a.secret).not.toBe(b.secret);
    expect(fileText()).not.toContain(a.secret.slice(4));
    expect(fileText()).toContain(tokenHash(a.secret));
    expect(statSync(join(v.root, TOKENS_PATH)).mode & 0o077).toBe(0);
    const list = await listTokens(v.vault);
    expect(list.map((t) => [t.id, t.agent, t.readOnly, t.tools])).toEqual([
      [a.id, "ada", false, null],
      [b.id, "ada", true, ["search"]],
    ]);
    expect(list[0]?.created).toBe("2026-12-01T12:00:00.000Z");
  });

  it("revokes by id, keeping the entry; a second revoke writes nothing", async () => {
    v = tempVault();
    const a = await addToken(v.vault, ADA, null, NOW);
    expect(await revokeToken(v.vault, a.id, NOW + 1000)).toBe(true);
    const after = fileText();
    expect(await revokeToken(v.vault, a.id, NOW + 2000)).toBe(false);
    expect(fileText()).toBe(after);
    const [t] = await listTokens(v.vault);
    expect(t?.revoked).toBe("2026-12-01T12:00:01.000Z");
    expect(t?.sha256).toBe(tokenHash(a.secret));
  });

  it("names the known ids for an unknown one", async () => {
    v = tempVault();
    const a = await addToken(v.vault, ADA, null, NOW);
    const failure = revokeToken(v.vault, "tk-nope", NOW);
    await expect(failure).rejects.toThrow(UsageError);
    await expect(revokeToken(v.vault, "tk-nope", NOW)).rejects.toThrow(
      `no token tk-nope in ${TOKENS_PATH} (tokens: ${a.id})`,
    );
  });

  it("keeps keys it does not know; a file that is not valid is named and left byte for byte", async () => {
    v = tempVault();
    v.write(
      TOKENS_PATH,
      '{"version":1,"note":"kept","tokens":[{"id":"tk-x","sha256":"ab","agent":"ada","team":"red"}]}',
    );
    await addToken(v.vault, ADA, null, NOW);
    const doc = JSON.parse(fileText()) as { note: string; tokens: { team?: string }[] };
    expect(doc.note).toBe("kept");
    expect(doc.tokens[0]?.team).toBe("red");
    const broken = '{"tokens": [';
    v.write(TOKENS_PATH, broken);
    await expect(addToken(v.vault, ADA, null, NOW)).rejects.toThrow(VaultError);
    await expect(revokeToken(v.vault, "tk-x", NOW)).rejects.toThrow(
      /tokens\.json is not valid JSON/,
    );
    expect(fileText()).toBe(broken);
  });

  it("takes an expiry of today or later, not of yesterday", () => {
    const now = new Date(2026, 11, 1, 12).getTime();
    expect(checkExpiry("2026-12-01", now)).toBe("2026-12-01");
    expect(() => checkExpiry("2026-11-30", now)).toThrow(/already past/);
    expect(() => checkExpiry("next week", now)).toThrow(/not a date/);
  });
});

describe("the server's registry", () => {
  it("answers a valid token, refuses a missing, malformed, unknown and revoked one", async () => {
    v = tempVault();
    const a = await addToken(v.vault, ADA, null, NOW);
    const reg = new TokenRegistry(
      v.vault,
      () => NOW,
      () => undefined,
    );
    await reg.refresh();
    expect(reg.authenticate(`Bearer ${a.secret}`)).toMatchObject({ ok: true, token: { id: a.id } });
    expect(reg.authenticate(undefined)).toMatchObject({ ok: false, error: "invalid_request" });
    expect(reg.authenticate(`Basic ${a.secret}`)).toMatchObject({ error: "invalid_request" });
    expect(reg.authenticate(`Bearer ${a.secret}x`)).toMatchObject({ reason: "unknown token" });
    await revokeToken(v.vault, a.id, NOW);
    // Without a refresh the registry holds what it read; the server refreshes at every request.
    expect(reg.authenticate(`Bearer ${a.secret}`).ok).toBe(true);
    await reg.refresh();
    expect(reg.authenticate(`Bearer ${a.secret}`)).toMatchObject({
      ok: false,
      reason: "token revoked",
      id: a.id,
    });
  });

  it("holds a token dated to expire valid through that local day, and not the day after", async () => {
    v = tempVault();
    const a = await addToken(v.vault, ADA, "2026-12-01", NOW);
    let now = new Date(2026, 11, 1, 23, 59).getTime();
    const reg = new TokenRegistry(
      v.vault,
      () => now,
      () => undefined,
    );
    await reg.refresh();
    expect(reg.authenticate(`Bearer ${a.secret}`).ok).toBe(true);
    now = new Date(2026, 11, 2, 0, 1).getTime();
    expect(reg.authenticate(`Bearer ${a.secret}`)).toMatchObject({ reason: "token expired" });
  });

  it("writes last_used at the first use and then at most once a minute", async () => {
    v = tempVault();
    const a = await addToken(v.vault, ADA, null, NOW);
    let now = NOW;
    const reg = new TokenRegistry(
      v.vault,
      () => now,
      () => undefined,
    );
    await reg.refresh();
    const token = reg.entries()[0]!;
    await reg.touch(token);
    expect((await listTokens(v.vault))[0]?.lastUsed).toBe("2026-12-01T12:00:00.000Z");
    now = NOW + 59_999;
    await reg.touch(token);
    expect((await listTokens(v.vault))[0]?.lastUsed).toBe("2026-12-01T12:00:00.000Z");
    now = NOW + 60_000;
    await reg.touch(token);
    expect((await listTokens(v.vault))[0]?.lastUsed).toBe("2026-12-01T12:01:00.000Z");
    expect(a.id).toBe(token.id);
  });

  it("keeps the last good list when the file is broken by hand, and says so", async () => {
    v = tempVault();
    const a = await addToken(v.vault, ADA, null, NOW);
    const lines: string[] = [];
    const reg = new TokenRegistry(
      v.vault,
      () => NOW,
      (l) => lines.push(l),
    );
    await reg.refresh();
    writeFileSync(join(v.root, TOKENS_PATH), "{ half");
    await reg.refresh();
    expect(reg.authenticate(`Bearer ${a.secret}`).ok).toBe(true);
    expect(lines).toEqual([expect.stringMatching(/tokens\.json is not valid JSON.*stay in force/)]);
  });
});

describe("token list's line", () => {
  const entry = (over: Partial<TokenEntry>): TokenEntry => ({
    id: "tk-a1",
    sha256: "0".repeat(64),
    agent: "ada",
    readOnly: false,
    tools: null,
    zones: [],
    created: "2026-12-01T00:00:00.000Z",
    expires: null,
    lastUsed: null,
    revoked: null,
    ...over,
  });
  const at = Date.parse("2026-12-05T07:43:33.000Z");

  it("says expired from the instant the server refuses the token, active until then", () => {
    const t = entry({ expires: "2026-12-05T07:43:33Z" });
    expect(tokenLine(t, at - 1)).toMatch(/ active$/);
    expect(tokenLine(t, at + 1)).toMatch(/ expired$/);
    expect(tokenLine(entry({ revoked: "2026-12-02T00:00:00.000Z" }), at)).toMatch(
      / revoked=2026-12-02T00:00:00.000Z$/,
    );
  });

  it("names the read tools of a read-only token with no list, the list when there is one", () => {
    expect(tokenLine(entry({ readOnly: true }), at)).toContain(" tools=all-read ");
    expect(tokenLine(entry({}), at)).toContain(" tools=all ");
    expect(tokenLine(entry({ readOnly: true, tools: ["search"] }), at)).toContain(" tools=search ");
  });
});
