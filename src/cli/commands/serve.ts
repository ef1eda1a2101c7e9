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
 * saves the index if it changed. Exit 2 when it cannot listen (another server answers on the
 * vault, a socket path too long, Windows, `AGENT_MEMORY_SERVER=off`).
 */
export const serveCommand: CliCommand = {
  name: "serve",
  longLived: true,
  usage: "serve <vault>",
  options: {},
  positionals: { min: 0, max: 0 },
  async run(ctx, _args, _options, dispatch) {
    if (ctx.env[SERVER_ENV] === "off")
      throw new UsageError(`${SERVER_ENV}=off: no server is started`);
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
        const stop = () => {
          process.off("SIGINT", stop);
          process.off("SIGTERM", stop);
          resolve();
        };
        process.on("SIGINT", stop);
        process.on("SIGTERM", stop);
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
