import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { CliCommand } from "../command";
import { cachedSemanticSource } from "../../node/embeddings-env";
import { UsageError, errorMessage } from "../../core/errors";
import { knownAgents, unknownAgentError } from "../../core/init";
import { MemoryAccess } from "../../mcp/access";
import { LiveIndex } from "../../node/live-index";
import { ReconcileOnChange } from "../../core/sync/reconcile-vault";
import { createMcpServer, readOnlyToolNames, toolNames } from "../../mcp/server";
import { SearchSocket } from "../../serve/socket-server";
import { SERVER_ENV } from "../../serve/socket-path";
import { openSearch } from "../shared";
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
 */
export const mcpCommand: CliCommand = {
  name: "mcp",
  usage:
    "mcp <vault> [--agent NAME] [--read-only] [--tools a,b,…] [--zone Z] [--watch-extract MINUTES [--watch-auto-apply]]",
  options: {
    agent: { type: "string" },
    "read-only": { type: "boolean" },
    tools: { type: "string" },
    zone: { type: "string", multiple: true },
    "watch-extract": { type: "string" },
    "watch-auto-apply": { type: "boolean" },
  },
  positionals: { min: 0, max: 0 },
  async run(ctx, _args, options, dispatch) {
    const known = toolNames();
    let only: Set<string> | null = null;
    if (typeof options.tools === "string") {
      const names = options.tools
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
      const unknown = names.filter((n) => !known.includes(n));
      if (unknown.length > 0 || names.length === 0) {
        throw new UsageError(
          `--tools: unknown tool ${unknown.map((n) => `"${n}"`).join(", ") || "list (empty)"} (tools: ${known.join(", ")})`,
        );
      }
      only = new Set(names);
      if (options["read-only"] === true) {
        const reads = readOnlyToolNames();
        const writes = names.filter((n) => !reads.includes(n));
        // A server with no tool at all would start and offer nothing: say so instead.
        if (writes.length === names.length)
          throw new UsageError(
            `--tools names only tools that write (${writes.join(", ")}), which --read-only leaves out: the server would have no tools (read tools: ${reads.join(", ")})`,
          );
      }
    }
    const watchMinutes =
      typeof options["watch-extract"] === "string"
        ? parseWatchMinutes(options["watch-extract"])
        : null;
    if (options["watch-auto-apply"] === true && watchMinutes === null)
      throw new UsageError("--watch-auto-apply needs --watch-extract MINUTES");
    if (watchMinutes !== null && options["read-only"] === true)
      throw new UsageError(
        "--watch-extract writes the review queue; it cannot be used with --read-only",
      );
    const agent = typeof options.agent === "string" ? options.agent : ctx.settings.defaultAgent;
    // The server never creates an agent: a typo in a client's configuration would split memory.
    const agents = await knownAgents(ctx.vault, ctx.layout);
    if (!agents.includes(agent)) {
      throw unknownAgentError(
        agent,
        agents,
        typeof options.agent === "string" ? "pass --agent with a known agent" : "pass --agent NAME",
      );
    }
    const zones = Array.isArray(options.zone) ? options.zone : [];
    let access: MemoryAccess;
    try {
      access = new MemoryAccess(ctx.vault, ctx.layout, agent, zones);
    } catch (err) {
      throw new UsageError(errorMessage(err));
    }
    const log = (line: string) => ctx.err(line);
    const t0 = Date.now();
    const { service, report } = await openSearch(ctx);
    const live = new LiveIndex(
      service,
      ctx.vault,
      ctx.layout,
      { at: Date.now(), source: report.source, unreadable: report.unreadable },
      log,
    );
    await live.start();
    // A note changed under the server with duplicated ids, or a sync tool's conflict copy: reconcile
    // (docs/sync.md, "Reconcile"); a read-only server only reads.
    const reconciler =
      options["read-only"] === true
        ? null
        : new ReconcileOnChange(
            ctx.vault,
            ctx.layout,
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
          });
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
      {
        ctx,
        access,
        live,
        defaultScope,
        now: () => Date.now(),
        semantic: cachedSemanticSource(ctx, ctx.err),
      },
      { readOnly: options["read-only"] === true, only },
      log,
    );
    log(
      `mcp: ${report.notes} notes indexed (${report.source}, ${Date.now() - t0} ms); agent ${agent}${access.zones.length ? `, zones ${access.zones.join(", ")}` : ""}; tools: ${tools.join(", ")}; ${socket instanceof SearchSocket ? `CLI searches answered on ${socket.path}` : `no socket for CLI searches (${socket.none})`}${watch ? `; watch and extract: journals quiet for ${watchMinutes} min ${options["watch-auto-apply"] === true ? "are applied" : "go to the review queue"}` : ""}`,
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
            const closing = socket instanceof SearchSocket ? socket.close() : Promise.resolve();
            void closing
              .then(() => watch?.close())
              .then(() => reconciler?.idle())
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
  },
};
