/**
 * The MCP server of `agent-memory mcp` (docs/mcp.md, "Following the disk"; docs/mcp.md, "Tools"):
 * an `McpServer` of the official SDK with the tools of tools/index.ts, over stdio. Only the protocol
 * goes to stdout; every log line goes to stderr.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CallToolRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { TOOLS, runTool, type McpTool, type ToolDeps } from "./tools/index";
import { toolError } from "./tools/common";

/** Name and version the server reports in `initialize`. */
export const SERVER_INFO = { name: "agent-memory", version: "0.1.0" };

/** Names of every tool, in list order. */
export function toolNames(): string[] {
  return TOOLS.map((t) => t.name);
}

/** Names of the tools that only read (`readOnlyHint`), the ones `--read-only` registers. */
export function readOnlyToolNames(): string[] {
  return TOOLS.filter((t) => t.hints.readOnlyHint).map((t) => t.name);
}

/**
 * Builds the server with the tools chosen: all of them, only the read-only ones (`readOnly`), or
 * only those named in `only` (`--tools`; the caller has checked the names).
 *
 * `tools/list` is the SDK's, from each tool's schemas, title and annotations. `tools/call` is this
 * server's own handler, set through the SDK's public `Server.setRequestHandler` (docs/decisions.md,
 * "MCP tool calls checked by the server's own handler"): it checks the arguments with the tool's
 * schema and words a refusal as one line naming every bad argument, where the SDK's handler gives a
 * line per zod issue.
 * @param log writes one line to stderr
 */
export function createMcpServer(
  deps: ToolDeps,
  choice: { readOnly: boolean; only: ReadonlySet<string> | null },
  log: (line: string) => void,
): { server: McpServer; tools: string[] } {
  const server = new McpServer(SERVER_INFO, {
    instructions:
      "Long-term memory in an Obsidian vault. At session start call brief (or search); while working append_journal; at the end extract. Links are [[note#^block]].",
  });
  const chosen = new Map<string, McpTool>();
  for (const tool of TOOLS) {
    if (choice.readOnly && !tool.hints.readOnlyHint) continue;
    if (choice.only && !choice.only.has(tool.name)) continue;
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema,
        ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
        annotations: tool.hints,
      },
      (args: unknown) => runTool(tool, args, deps, log),
    );
    chosen.set(tool.name, tool);
  }
  // Replaces the handler registerTool installed (the SDK documents that setRequestHandler does).
  server.server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const tool = chosen.get(request.params.name);
    if (!tool) return toolError(`Tool ${request.params.name} not found`);
    // The SDK aborts `extra.signal` when the client cancels the call (docs/mcp.md, "Cancelling").
    return runTool(tool, request.params.arguments ?? {}, { ...deps, signal: extra.signal }, log);
  });
  return { server, tools: [...chosen.keys()] };
}
