import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { CliCommand } from "../command";
import { cachedSemanticSource } from "../../node/embeddings-env";
import { UsageError, errorMessage } from "../../core/errors";
import type { LiveIndex } from "../../node/live-index";
import { ReconcileOnChange } from "../../core/sync/reconcile-vault";
import { createMcpServer } from "../../mcp/server";
import { accessFor, parseToolList } from "../../mcp/rights";
import type { MemoryAccess } from "../../mcp/access";
import {
  DEFAULT_IDLE_MS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_RATE_PER_MINUTE,
  McpHttpServer,
} from "../../mcp/http/http-server";
import { parseListen, type ListenAddress } from "../../mcp/http/limits";
import { TokenRegistry, type TokenEntry } from "../../mcp/http/tokens";
import type { CliContext } from "../../node/context";
import { SearchSocket } from "../../serve/socket-server";
import { SERVER_ENV } from "../../serve/socket-path";
import { keepServingOnRejection, openLiveIndex } from "../shared";
import { parseWatchMinutes, startWatchExtract } from "../../mcp/watch-extract";

/**
 * `agent-memory mcp <vault> [--agent NAME] [--read-only] [--tools a,b,…] [--zone Z]` (docs/mcp.md,
 * "Following the disk"): an MCP server over stdio that stays up until its client closes stdin (or
 * SIGINT/SIGTERM), with the search index open and following the disk. Writes only inside the
 * agent's folder (the settings' default agent without `--agent`); isolated zones only when named
 * with `--zone` (repeatable). `--read-only` registers only the read tools, `--tools` only those
 * named; an unknown tool name is a usage error (exit 2) before anything starts. It also answers
 * one-shot
 * `agent-memory search` runs on the vault's socket, as `agent-memory serve` does. See docs/mcp.md.
 * `--watch-extract MINUTES` extracts the agent's journals once left unchanged that long, into its
 * review queue (or applied, with `--watch-auto-apply`); see docs/compaction.md.
 *
 * `--http [HOST:]PORT` serves Streamable HTTP at `/mcp` instead of stdio, each client's agent and
 * rights taken from its bearer token (`agent-memory token add`); loopback unless `--allow-remote`,
 * `--allow-origin` for browser origins, `--rate` requests a minute per token (docs/mcp.md, "Remote
 * use").
 */
export const mcpCommand: CliCommand = {
  name: "mcp",
  longLived: true,
  json: false,
  usage:
    "mcp <vault> [--agent NAME] [--read-only] [--tools a,b,…] [--zone Z] [--watch-extract MINUTES [--watch-auto-apply]] | mcp <vault> --http [HOST:]PORT [--allow-remote] [--allow-origin URL]... [--rate N]",
  options: {
    agent: { type: "string" },
    "read-only": { type: "boolean" },
    tools: { type: "string" },
    zone: { type: "string", multiple: true },
    "watch-extract": { type: "string" },
    "watch-auto-apply": { type: "boolean" },
    http: { type: "string" },
    "allow-remote": { type: "boolean" },
    "allow-origin": { type: "string", multiple: true },
    rate: { type: "string" },
  },
  positionals: { min: 0, max: 0 },
  async run(ctx, _args, options, dispatch) {
    const http = typeof options.http === "string" ? options.http : null;
    if (http === null) {
      for (const name of ["allow-remote", "allow-origin", "rate"])
        if (options[name] !== undefined) throw new UsageError(`--${name} needs --http [HOST:]PORT`);
    } else {
      // Over HTTP the caller's token decides the agent and its rights (docs/mcp.md, "Tokens").
      for (const name of ["agent", "read-only", "tools", "zone", "watch-extract"])
        if (options[name] !== undefined)
          throw new UsageError(
            `--${name} does not go with --http: each client's token sets its agent and rights (agent-memory token add)`,
          );
    }
    const listen = http === null ? null : parseListen(http, options["allow-remote"] === true);
    const rate =
      typeof options.rate === "string"
        ? positiveInt(options.rate, "rate")
        : DEFAULT_RATE_PER_MINUTE;
    const readOnly = options["read-only"] === true;
    const only =
      typeof options.tools === "string" ? new Set(parseToolList(options.tools, readOnly)) : null;
    const watchMinutes =
      typeof options["watch-extract"] === "string"
        ? parseWatchMinutes(options["watch-extract"])
        : null;
    if (options["watch-auto-apply"] === true && watchMinutes === null)
      throw new UsageError("--watch-auto-apply needs --watch-extract MINUTES");
    if (watchMinutes !== null && readOnly)
      throw new UsageError(
        "--watch-extract writes the review queue; it cannot be used with --read-only",
      );
    const agent = typeof options.agent === "string" ? options.agent : ctx.settings.defaultAgent;
    const zones = Array.isArray(options.zone) ? options.zone : [];
    const log = (line: string) => ctx.err(line);
    const release = keepServingOnRejection("mcp", log);
    try {
      const t0 = Date.now();
      const { live, report } = await openLiveIndex(ctx, log);
      // Over stdio the flags give the one client's rights; over HTTP each token does. The agents
      // are those of the notes the open just listed: a start lists the vault once.
      let mode: { access: MemoryAccess } | { http: ListenAddress };
      try {
        mode =
          listen === null
            ? {
                access: await accessFor(
                  ctx,
                  { agent, readOnly, tools: only ? [...only] : null, zones },
                  typeof options.agent === "string"
                    ? "pass --agent with a known agent"
                    : "pass --agent NAME",
                  live.notePaths(),
                ),
              }
            : { http: listen };
      } catch (err) {
        await live.close();
        throw err;
      }
      // A note changed under the server with duplicated ids, or a sync tool's conflict copy: reconcile
      // (docs/sync.md, "Reconcile"); a read-only server only reads.
      const reconciler = readOnly
        ? null
        : new ReconcileOnChange(
            ctx.vault,
            () => ctx.layout,
            (summary) => log(`mcp: ${summary}`),
            (err) => log(`mcp: reconcile failed: ${errorMessage(err)}`),
          );
      if (reconciler) live.onChange((path) => void reconciler.changed(path));
      // One-shot `agent-memory search` runs in this process when it can (docs/mcp.md).
      const socket =
        ctx.env[SERVER_ENV] === "off"
          ? { none: `${SERVER_ENV}=off` }
          : await SearchSocket.listen({
              vault: ctx.vault,
              settings: ctx.settings,
              live,
              log,
              dispatch,
              vaultArg: ctx.vaultArg,
            });
      const socketNote =
        socket instanceof SearchSocket
          ? `CLI searches answered on ${socket.path}`
          : `no socket for CLI searches (${socket.none})`;
      const closeRest = async () => {
        if (socket instanceof SearchSocket) await socket.close();
        await reconciler?.idle();
      };
      const semantic = cachedSemanticSource(ctx, ctx.err);
      if ("http" in mode) {
        const origins = Array.isArray(options["allow-origin"]) ? options["allow-origin"] : [];
        return serveHttp(ctx, live, semantic, { listen: mode.http, origins, rate }, log, {
          started: `mcp: ${report.notes} notes indexed (${report.source}, ${Date.now() - t0} ms); ${socketNote}`,
          closeRest,
        });
      }
      const access = mode.access;
      const watch =
        watchMinutes === null
          ? null
          : startWatchExtract({
              ctx,
              access,
              live,
              minutes: watchMinutes,
              autoApply: options["watch-auto-apply"] === true,
              log,
            });
      const defaultScope = typeof options.agent === "string" ? `agent:${agent}` : "all";
      const { server, tools } = createMcpServer(
        { ctx, access, live, defaultScope, now: () => Date.now(), semantic },
        { readOnly, only },
        log,
      );
      log(
        `mcp: ${report.notes} notes indexed (${report.source}, ${Date.now() - t0} ms); agent ${agent}${access.zones.length ? `, zones ${access.zones.join(", ")}` : ""}; tools: ${tools.join(", ")}; ${socketNote}${watch ? `; watch and extract: journals quiet for ${watchMinutes} min ${options["watch-auto-apply"] === true ? "are applied" : "go to the review queue"}` : ""}`,
      );
      const transport = new StdioServerTransport();
      await new Promise<void>((resolve, reject) => {
        let done = false;
        const stop = () => {
          if (done) return;
          done = true;
          // Closing on a signal: a transport already closed has nothing left to close.
          server
            .close()
            .catch(() => undefined)
            .finally(() => {
              void closeRest()
                .then(() => watch?.close())
                .then(() => live.close())
                .then(resolve, reject);
            });
        };
        process.stdin.once("end", stop);
        process.stdin.once("close", stop);
        process.once("SIGINT", stop);
        process.once("SIGTERM", stop);
        transport.onclose = stop;
        server.connect(transport).catch(reject);
      });
      return 0;
    } finally {
      release();
    }
  },
};

/** A whole number ≥ 1 from option `--name`; {@link UsageError} otherwise. */
function positiveInt(value: string, name: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < 1)
    throw new UsageError(`--${name} ${value}: not a whole number of at least 1`);
  return n;
}

/**
 * `mcp --http`: the Streamable HTTP server (docs/mcp.md, "Remote use") until SIGINT or SIGTERM,
 * then the requests in flight are answered, the sessions closed and the index saved.
 */
async function serveHttp(
  ctx: CliContext,
  live: LiveIndex,
  semantic: ReturnType<typeof cachedSemanticSource>,
  how: { listen: ListenAddress; origins: string[]; rate: number },
  log: (line: string) => void,
  around: { started: string; closeRest: () => Promise<void> },
): Promise<number> {
  const tokens = new TokenRegistry(ctx.vault, () => Date.now(), log);
  await tokens.refresh();
  const serverFor = async (token: TokenEntry) => {
    const access = await accessFor(ctx, token, "make a token for a known agent", live.notePaths());
    return createMcpServer(
      { ctx, access, live, defaultScope: `agent:${token.agent}`, now: () => Date.now(), semantic },
      { readOnly: token.readOnly, only: token.tools ? new Set(token.tools) : null },
      log,
    ).server;
  };
  let http: McpHttpServer;
  try {
    http = await McpHttpServer.listen({
      host: how.listen.host,
      port: how.listen.port,
      loopback: how.listen.loopback,
      allowedOrigins: how.origins,
      maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
      ratePerMinute: how.rate,
      idleMs: DEFAULT_IDLE_MS,
      tokens,
      serverFor,
      log,
      now: () => Date.now(),
    });
  } catch (err) {
    await around.closeRest();
    await live.close();
    throw new UsageError(
      `cannot listen on ${how.listen.host}:${how.listen.port}: ${errorMessage(err)}`,
    );
  }
  const active = tokens.entries().filter((t) => !tokens.void(t)).length;
  log(
    `${around.started}; listening on ${http.url} (${how.listen.loopback ? "loopback only" : "remote allowed"}; ${active} token${active === 1 ? "" : "s"} valid; ${how.rate} requests a minute per token)`,
  );
  await new Promise<void>((resolve, reject) => {
    let done = false;
    const stop = () => {
      if (done) return;
      done = true;
      log("mcp: stopping: answering the requests in flight");
      void http
        .close()
        .then(() => around.closeRest())
        .then(() => live.close())
        .then(resolve, reject);
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  return 0;
}
