import type { CliCommand } from "../command";
import { UsageError } from "../../core/errors";
import { SearchSocket } from "../../serve/socket-server";
import { SERVER_ENV } from "../../serve/socket-path";
import { keepServingOnRejection, openLiveIndex } from "../shared";

/**
 * `agent-memory serve <vault>` (docs/mcp.md, "One-shot searches through a running server"): keeps
 * the vault's search index open and following the disk, as `agent-memory mcp` does, without MCP,
 * and answers the one-shot `agent-memory search` of the same user on the vault's socket
 * (`.agent-memory/serve.sock`, mode 600) until SIGINT or SIGTERM; then it removes the socket and
 * saves the index if it changed. `--idle-exit SECONDS` stops it the same way once no request has
 * arrived for that long (what a server started by a hook runs with, docs/agents.md, "A server
 * started for you"). Exit 2 when it cannot listen (another server answers on the vault, a socket
 * path too long, Windows, `AGENT_MEMORY_SERVER=off`).
 */
export const serveCommand: CliCommand = {
  name: "serve",
  longLived: true,
  json: false,
  usage: "serve <vault> [--idle-exit SECONDS]",
  options: { "idle-exit": { type: "string" } },
  positionals: { min: 0, max: 0 },
  async run(ctx, _args, options, dispatch) {
    if (ctx.env[SERVER_ENV] === "off")
      throw new UsageError(`${SERVER_ENV}=off: no server is started`);
    const idleSeconds =
      options["idle-exit"] === undefined ? null : parseIdleSeconds(options["idle-exit"]);
    const release = keepServingOnRejection("serve", ctx.err);
    try {
      const t0 = Date.now();
      const { live, report } = await openLiveIndex(ctx, ctx.err);
      const socket = await SearchSocket.listen({
        vault: ctx.vault,
        settings: ctx.settings,
        live,
        log: ctx.err,
        dispatch,
        vaultArg: ctx.vaultArg,
      });
      if (!(socket instanceof SearchSocket)) {
        await live.close();
        throw new UsageError(socket.none);
      }
      ctx.err(
        `serve: ${report.notes} notes indexed (${report.source}, ${Date.now() - t0} ms); listening on ${socket.path}${socket.hook ? ` (the plugin's shell hook on ${socket.hook.path})` : ""}`,
      );
      const t1 = Date.now();
      void socket.warmed.then((n) =>
        ctx.err(
          `serve: session briefs of ${n} agent${n === 1 ? "" : "s"} ready (${Date.now() - t1} ms)`,
        ),
      );
      await new Promise<void>((resolve) => {
        let idleTimer: ReturnType<typeof setInterval> | undefined;
        const stop = () => {
          process.off("SIGINT", stop);
          process.off("SIGTERM", stop);
          clearInterval(idleTimer);
          resolve();
        };
        process.on("SIGINT", stop);
        process.on("SIGTERM", stop);
        if (idleSeconds !== null) {
          const idleMs = idleSeconds * 1000;
          idleTimer = setInterval(
            () => {
              if (Date.now() - socket.lastRequestAt < idleMs) return;
              ctx.err(`serve: no request for ${idleSeconds} s; stopping (--idle-exit)`);
              stop();
            },
            Math.min(idleMs, IDLE_CHECK_MS),
          );
        }
      });
      await socket.close();
      await live.close();
      ctx.err(`serve: stopped after ${socket.answered} search${socket.answered === 1 ? "" : "es"}`);
      return 0;
    } finally {
      release();
    }
  },
};

/** How often an idle server looks at its last request, at most (ms). */
const IDLE_CHECK_MS = 15_000;
/** Longest `--idle-exit` accepted: a day, in seconds. */
const MAX_IDLE_SECONDS = 86_400;

/**
 * Reads `--idle-exit SECONDS`: a whole number from 1 to {@link MAX_IDLE_SECONDS}.
 * @throws UsageError naming the flag for anything else (leave it out to serve until a signal).
 */
export function parseIdleSeconds(raw: unknown): number {
  const n = typeof raw === "string" && /^\s*\d+\s*$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_IDLE_SECONDS)
    throw new UsageError(
      `--idle-exit must be a whole number of seconds from 1 to ${MAX_IDLE_SECONDS} (leave it out to serve until stopped), not "${String(raw)}"`,
      "--idle-exit",
    );
  return n;
}
