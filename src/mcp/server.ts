/**
 * The MCP server of `agent-memory mcp` (docs/mcp.md, "Following the disk"; docs/mcp.md, "Tools"):
 * an `McpServer` of the official SDK with the tools of tools.ts, over stdio. Only the protocol goes
 * to stdout; every log line goes to stderr.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { oneLine } from "../node/one-line";
import { runTool, TOOLS, type ToolDeps } from "./tools";

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
  // The SDK words a failed input validation with one line per zod issue; a tool error is one line
  // (docs/mcp.md, "Tools"). `createToolError` is the SDK's own (1.32.2, pinned) and builds every
  // tool error.
  const internal = server as unknown as { createToolError?: (message: string) => unknown };
  const sdkToolError = internal.createToolError?.bind(server);
  if (sdkToolError) internal.createToolError = (message: string) => sdkToolError(oneLine(message));
  const tools: string[] = [];
  for (const spec of TOOLS) {
    if (choice.readOnly && !spec.hints.readOnlyHint) continue;
    if (choice.only && !choice.only.has(spec.name)) continue;
    server.registerTool(
      spec.name,
      {
        description: spec.description,
        inputSchema: spec.input,
        outputSchema: z.looseObject(spec.output),
        annotations: spec.hints,
      },
      (args: Record<string, unknown>) => runTool(spec, args, deps, log),
    );
    tools.push(spec.name);
  }
  return { server, tools };
}
