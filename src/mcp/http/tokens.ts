/**
 * Bearer tokens of the HTTP server (docs/mcp.md, "Tokens"): each gives one client its agent, zones,
 * read-only and tool allowlist ({@link McpRights}). A token is printed once, when it is made; the
 * vault keeps only its SHA-256 and its metadata, in `.agent-memory/tokens.json`, written through
 * the locked, atomic write path (`VaultPort.process`). Nothing is ever removed from that file: a
 * revoked token keeps its entry, marked with the time it was revoked. Keys the file has that this
 * version does not know are kept.
 */
import { createHash, randomBytes } from "node:crypto";
import { chmodSync, statSync } from "node:fs";
import { UsageError, VaultError, errorMessage } from "../../core/errors";
import { isExpired, isIso8601, isIsoDate, today } from "../../core/util/dates";
import { randomId } from "../../core/util/ids";
import type { VaultPort } from "../../core/vault";
import type { NodeVault } from "../../node/node-vault";
import type { McpRights } from "../rights";

/** Vault path of the token file. */
export const TOKENS_PATH = ".agent-memory/tokens.json";

/** Prefix of every token, so a secret scanner (and a person) can tell one. */
export const TOKEN_PREFIX = "amt_";

/** Random bytes in a token: 256 bits, base64url-encoded after {@link TOKEN_PREFIX}. */
export const TOKEN_BYTES = 32;

/** How often, at most, a token's `last_used` is written (ms): not at every request. */
export const LAST_USED_EVERY_MS = 60_000;

/** One token's entry, as the server and `token list` see it. */
export interface TokenEntry extends McpRights {
  /** `tk-` and ten base32 characters; public, named in the access log. */
  id: string;
  /** SHA-256 of the token, lowercase hex. */
  sha256: string;
  /** When it was made (ISO 8601, UTC). */
  created: string;
  /** Last day (`YYYY-MM-DD`, local) or instant (ISO 8601) it is valid, or `null`: no end. */
  expires: string | null;
  /** When a request last used it (ISO 8601; written at most every {@link LAST_USED_EVERY_MS}). */
  lastUsed: string | null;
  /** When it was revoked (ISO 8601), or `null`. */
  revoked: string | null;
}

type Raw = Record<string, unknown>;

/** The file's parsed JSON: `{ "version": 1, "tokens": [ … ] }`, unknown keys kept. */
interface TokenFile {
  doc: Raw;
  tokens: Raw[];
}

/** The new token's secret: {@link TOKEN_PREFIX} and {@link TOKEN_BYTES} random bytes (`node:crypto`). */
export function newTokenSecret(): string {
  return TOKEN_PREFIX + randomBytes(TOKEN_BYTES).toString("base64url");
}

/** SHA-256 of `secret` (UTF-8), lowercase hex. */
export function tokenHash(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

function parseFile(text: string | null): TokenFile {
  if (text === null || text.trim() === "") {
    const doc: Raw = { version: 1, tokens: [] };
    return { doc, tokens: doc.tokens as Raw[] };
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new VaultError(`${TOKENS_PATH} is not valid JSON: ${errorMessage(err)}`, TOKENS_PATH);
  }
  if (doc === null || typeof doc !== "object" || Array.isArray(doc))
    throw new VaultError(`${TOKENS_PATH} is not a JSON object`, TOKENS_PATH);
  const raw = doc as Raw;
  raw.tokens ??= [];
  if (!Array.isArray(raw.tokens) || raw.tokens.some((t) => t === null || typeof t !== "object"))
    throw new VaultError(`${TOKENS_PATH}: "tokens" is not a list of objects`, TOKENS_PATH);
  return { doc: raw, tokens: raw.tokens as Raw[] };
}

const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

/** The entry of one raw token object, or `null` when it lacks an id, a hash or an agent. */
function entryOf(t: Raw): TokenEntry | null {
  const id = str(t.id);
  const sha256 = str(t.sha256);
  const agent = str(t.agent);
  if (!id || !sha256 || !agent) return null;
  const list = (v: unknown): string[] | null =>
    Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : null;
  return {
    id,
    sha256: sha256.toLowerCase(),
    agent,
    readOnly: t.read_only === true,
    tools: list(t.tools),
    zones: list(t.zones) ?? [],
    created: str(t.created) ?? "",
    expires: str(t.expires),
    lastUsed: str(t.last_used),
    revoked: str(t.revoked),
  };
}

function format(file: TokenFile): string {
  return `${JSON.stringify(file.doc, null, 2)}\n`;
}

/**
 * Every token of the vault, in the order they were made (an entry without an id, a hash or an
 * agent is left out).
 * @throws {@link VaultError} naming `.agent-memory/tokens.json` when it is not the JSON it should be
 */
export async function listTokens(vault: VaultPort): Promise<TokenEntry[]> {
  const text = (await vault.exists(TOKENS_PATH)) ? await vault.read(TOKENS_PATH) : null;
  return parseFile(text)
    .tokens.map(entryOf)
    .filter((e): e is TokenEntry => e !== null);
}

/**
 * Checks an `--expires` value: a date `YYYY-MM-DD` (valid through that local day) or an ISO 8601
 * instant, not already past.
 * @throws {@link UsageError} naming the value
 */
export function checkExpiry(value: string, nowMs: number): string {
  const v = value.trim();
  if (!isIsoDate(v) && !isIso8601(v))
    throw new UsageError(`--expires ${value}: not a date YYYY-MM-DD or an ISO 8601 time`, value);
  if (isExpired(v, today(nowMs), nowMs))
    throw new UsageError(`--expires ${value} is already past`, value);
  return v;
}

/**
 * Makes a token with `rights` and stores its hash (the caller has checked the rights, see
 * `accessFor`). Returns its id and the secret, which nothing keeps: print it once.
 * @param expires checked by {@link checkExpiry}, or `null`
 * @throws {@link VaultError} when the token file is not valid (it is left as it was)
 */
export async function addToken(
  vault: NodeVault,
  rights: McpRights,
  expires: string | null,
  nowMs: number,
): Promise<{ id: string; secret: string }> {
  const secret = newTokenSecret();
  const sha256 = tokenHash(secret);
  const done = await vault.process(TOKENS_PATH, (text) => {
    const file = parseFile(text);
    const taken = new Set(file.tokens.map((t) => String(t.id)));
    const id = randomId("tk-", taken);
    file.tokens.push({
      id,
      sha256,
      agent: rights.agent,
      read_only: rights.readOnly,
      tools: rights.tools,
      zones: rights.zones,
      created: new Date(nowMs).toISOString(),
      expires,
      last_used: null,
      revoked: null,
    });
    return { content: format(file), result: id };
  });
  // Hashes only, but no one else's business either: the owner alone reads it (later writes keep
  // the mode, docs/write-safety.md).
  chmodSync(vault.resolve(TOKENS_PATH), 0o600);
  return { id: done.result, secret };
}

/**
 * Revokes token `id`: its entry stays, with `revoked` set to now. Returns `false` when it was
 * already revoked (nothing written).
 * @throws {@link UsageError} for an unknown id, naming the known ones
 */
export async function revokeToken(vault: VaultPort, id: string, nowMs: number): Promise<boolean> {
  const done = await vault.process(TOKENS_PATH, (text) => {
    const file = parseFile(text);
    const t = file.tokens.find((x) => x.id === id);
    if (!t) {
      const known = file.tokens.map((x) => String(x.id)).join(", ") || "none";
      throw new UsageError(`no token ${id} in ${TOKENS_PATH} (tokens: ${known})`, id);
    }
    if (str(t.revoked)) return { content: null, result: false };
    t.revoked = new Date(nowMs).toISOString();
    return { content: format(file), result: true };
  });
  return done.result;
}

/** Why a request's credentials were refused, for the 401's `WWW-Authenticate` and the log. */
export type AuthOutcome =
  | { ok: true; token: TokenEntry }
  | { ok: false; error: "invalid_request" | "invalid_token"; reason: string; id: string | null };

/**
 * The server's view of the token file: re-read when the file changed, judged by one `stat` per
 * request (inode, size, modification time), so that `token revoke` holds for the next request of
 * a running server.
 */
export class TokenRegistry {
  private byHash = new Map<string, TokenEntry>();
  private seen: string | null = null;
  private readonly written = new Map<string, number>();

  /**
   * @param now clock (ms since the epoch)
   * @param log one line to stderr (a token file that cannot be read keeps the last good one)
   */
  constructor(
    private readonly vault: NodeVault,
    private readonly now: () => number,
    private readonly log: (line: string) => void,
  ) {}

  /** Reads the token file when it changed since the last call. */
  async refresh(): Promise<void> {
    let stamp: string;
    try {
      const st = statSync(this.vault.resolve(TOKENS_PATH), { bigint: true });
      stamp = `${st.ino}:${st.size}:${st.mtimeNs}`;
    } catch {
      stamp = "none";
    }
    if (stamp === this.seen) return;
    try {
      const entries = stamp === "none" ? [] : await listTokens(this.vault);
      this.byHash = new Map(entries.map((e) => [e.sha256, e]));
      this.seen = stamp;
    } catch (err) {
      // A half-edited file by hand: keep the last good list and say so once per change.
      this.log(`mcp: ${errorMessage(err)}; the tokens read before stay in force`);
      this.seen = stamp;
    }
  }

  /** Every token entry known now. */
  entries(): TokenEntry[] {
    return [...this.byHash.values()];
  }

  /** Judges an `Authorization` header (after {@link refresh}). */
  authenticate(header: string | undefined): AuthOutcome {
    if (!header)
      return { ok: false, error: "invalid_request", reason: "no bearer token", id: null };
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!m?.[1])
      return {
        ok: false,
        error: "invalid_request",
        reason: "Authorization is not a Bearer token",
        id: null,
      };
    const token = this.byHash.get(tokenHash(m[1]));
    if (!token) return { ok: false, error: "invalid_token", reason: "unknown token", id: null };
    if (token.revoked)
      return { ok: false, error: "invalid_token", reason: "token revoked", id: token.id };
    const nowMs = this.now();
    if (isExpired(token.expires, today(nowMs), nowMs))
      return { ok: false, error: "invalid_token", reason: "token expired", id: token.id };
    return { ok: true, token };
  }

  /** True when `token` may not be used now (revoked, expired, or no longer in the file). */
  void(token: TokenEntry): boolean {
    const now = this.byHash.get(token.sha256);
    const nowMs = this.now();
    return !now || now.revoked !== null || isExpired(now.expires, today(nowMs), nowMs);
  }

  /**
   * Writes `last_used` of `token` when it was not written in the last {@link LAST_USED_EVERY_MS}
   * (through the locked write path, so a `token revoke` at the same moment is kept). A failure is
   * logged, never the request's.
   */
  async touch(token: TokenEntry): Promise<void> {
    const nowMs = this.now();
    const last = this.written.get(token.id);
    if (last !== undefined && nowMs - last < LAST_USED_EVERY_MS) return;
    this.written.set(token.id, nowMs);
    try {
      await this.vault.process(TOKENS_PATH, (text) => {
        const file = parseFile(text);
        const t = file.tokens.find((x) => x.id === token.id);
        if (!t) return null;
        t.last_used = new Date(nowMs).toISOString();
        return format(file);
      });
    } catch (err) {
      this.log(`mcp: last use of ${token.id} not written: ${errorMessage(err)}`);
    }
  }
}
