/**
 * `agent-memory token add|list|revoke <vault> …` (docs/mcp.md, "Tokens"): the bearer tokens of the
 * HTTP server. `add` prints a new token once and stores only its SHA-256 and rights; `list` prints
 * one line per token, its id first, never the token; `revoke` marks a token revoked (its entry
 * stays), which a running server honours from its next request. Exit 0 done; 2 bad usage, an
 * unknown agent, zone, tool or token id, or a token file that is not valid (left as it was).
 */
import { parseArgs } from "node:util";
import { UsageError, errorMessage } from "../../core/errors";
import { isExpired, today } from "../../core/util/dates";
import { openVault, requireMemoryRoot } from "../../node/context";
import { oneLine } from "../../node/one-line";
import {
  addToken,
  checkExpiry,
  listTokens,
  revokeToken,
  type TokenEntry,
} from "../../mcp/http/tokens";
import { accessFor, parseToolList, type McpRights } from "../../mcp/rights";
import type { CliCommand, DirectIo } from "../command";

const USAGE =
  "token add <vault> --agent NAME [--read-only] [--zone Z]... [--tools a,b,…] [--expires DATE] [--json] | token list <vault> [--json] | token revoke <vault> <id> [--json]";

/**
 * One line of `token list`: id first, then agent, rights, tools (`all`, or `all-read` for a
 * read-only token without a list: it is offered the read tools only), zones, created, last used,
 * expiry, and its state at `nowMs` (ms since the epoch): `revoked=…`, `expired` (by the rule the
 * server refuses it with, {@link isExpired}) or `active`.
 */
export function tokenLine(t: TokenEntry, nowMs: number): string {
  const state = t.revoked
    ? `revoked=${t.revoked}`
    : isExpired(t.expires, today(nowMs), nowMs)
      ? "expired"
      : "active";
  return [
    t.id,
    `agent=${t.agent}`,
    `rights=${t.readOnly ? "read-only" : "read-write"}`,
    `tools=${t.tools ? t.tools.join(",") : t.readOnly ? "all-read" : "all"}`,
    `zones=${t.zones.length ? t.zones.join(",") : "-"}`,
    `created=${t.created || "-"}`,
    `last_used=${t.lastUsed ?? "never"}`,
    `expires=${t.expires ?? "never"}`,
    state,
  ].join(" ");
}

function entryJson(t: TokenEntry): Record<string, unknown> {
  return {
    id: t.id,
    agent: t.agent,
    read_only: t.readOnly,
    tools: t.tools,
    zones: t.zones,
    created: t.created,
    last_used: t.lastUsed,
    expires: t.expires,
    revoked: t.revoked,
  };
}

async function run(argv: string[], io: DirectIo): Promise<number> {
  const fail = (message: string): number => {
    io.err(oneLine(`agent-memory token: ${message}`));
    return 2;
  };
  const [sub, ...rest] = argv;
  if (sub === "--help" || sub === "-h") {
    io.out(`usage: agent-memory ${USAGE}`);
    return 0;
  }
  if (sub !== "add" && sub !== "list" && sub !== "revoke")
    return fail(`the first argument must be add, list or revoke (usage: agent-memory ${USAGE})`);
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      allowPositionals: true,
      strict: true,
      options: {
        agent: { type: "string" },
        "read-only": { type: "boolean" },
        zone: { type: "string", multiple: true },
        tools: { type: "string" },
        expires: { type: "string" },
        json: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (err) {
    return fail(`${errorMessage(err)} (usage: agent-memory ${USAGE})`);
  }
  const o = parsed.values;
  if (o.help) {
    io.out(`usage: agent-memory ${USAGE}`);
    return 0;
  }
  const [vaultArg, ...args] = parsed.positionals;
  const wanted = sub === "revoke" ? 1 : 0;
  if (!vaultArg || args.length !== wanted)
    return fail(`${sub}: wrong number of arguments (usage: agent-memory ${USAGE})`);
  const onlyFor = (name: string, value: unknown) => {
    if (value !== undefined && sub !== "add")
      throw new UsageError(`--${name} is an option of token add`);
  };
  try {
    onlyFor("agent", o.agent);
    onlyFor("read-only", o["read-only"]);
    onlyFor("zone", o.zone);
    onlyFor("tools", o.tools);
    onlyFor("expires", o.expires);
    const ctx = await openVault(vaultArg, { ...io, err: (line) => io.err(oneLine(line)) });
    await requireMemoryRoot(ctx);
    if (sub === "list") {
      const tokens = await listTokens(ctx.vault);
      if (o.json) io.out(JSON.stringify({ tokens: tokens.map(entryJson) }, null, 2));
      else if (tokens.length === 0) io.out("no tokens (make one with: agent-memory token add)");
      else for (const t of tokens) io.out(tokenLine(t, Date.now()));
      return 0;
    }
    if (sub === "revoke") {
      const id = args[0] ?? "";
      const done = await revokeToken(ctx.vault, id, Date.now());
      if (o.json) io.out(JSON.stringify({ id, revoked: true, already: !done }, null, 2));
      else
        io.out(
          done
            ? `revoked ${id}: a running server refuses it from its next request`
            : `${id} was already revoked`,
        );
      return 0;
    }
    if (typeof o.agent !== "string") throw new UsageError("token add needs --agent NAME");
    const readOnly = o["read-only"] === true;
    const rights: McpRights = {
      agent: o.agent,
      readOnly,
      tools: typeof o.tools === "string" ? parseToolList(o.tools, readOnly) : null,
      zones: o.zone ?? [],
    };
    // The zones as the settings spell them, and the agent checked, as the stdio server does.
    const access = await accessFor(ctx, rights, "pass --agent with a known agent");
    rights.zones = [...access.zones];
    const nowMs = Date.now();
    const expires = typeof o.expires === "string" ? checkExpiry(o.expires, nowMs) : null;
    const { id, secret } = await addToken(ctx.vault, rights, expires, nowMs);
    if (o.json) {
      io.out(JSON.stringify({ id, token: secret, agent: rights.agent, expires }, null, 2));
    } else {
      io.out(`${id} for agent ${rights.agent}: keep this token now, it is not shown again`);
      io.out(secret);
    }
    return 0;
  } catch (err) {
    return fail(`${sub}: ${errorMessage(err)}`);
  }
}

export const tokenCommand: CliCommand = {
  name: "token",
  usage: USAGE,
  options: {},
  positionals: { min: 0, max: 2 },
  direct: run,
  run: () => Promise.reject(new UsageError("token runs directly")),
};
