/**
 * The shape of an MCP tool (docs/mcp.md): what a handler gets, what it returns, its annotations.
 * Apart from the tool lists (`tools.ts`, `tools-inbox.ts`) so that both import it and neither
 * imports the other.
 */
import type { z } from "zod";
import type { CliContext } from "../node/context";
import type { LiveIndex } from "../node/live-index";
import type { MemoryAccess } from "./access";
import type { SemanticSource } from "../core/semantic/hybrid";

/** What every tool handler gets. */
export interface ToolDeps {
  ctx: CliContext;
  access: MemoryAccess;
  live: LiveIndex;
  /** Scope of `search` when none is given: `agent:<name>` for a server started with `--agent`, else `all`. */
  defaultScope: string;
  /** Clock (ms since the epoch). */
  now: () => number;
  /**
   * The embeddings for hybrid search (docs/architecture.md, "Semantic recall"), or none: `search`
   * and the brief are BM25 alone.
   */
  semantic?: () => Promise<SemanticSource | null>;
}

/** A tool's result before it is put in MCP's shape. */
export interface ToolOutput {
  text: string;
  data: Record<string, unknown>;
}

/** MCP tool annotations (https://modelcontextprotocol.io/specification/2025-06-18/server/tools). */
export interface Hints {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** One tool of the server. */
export interface ToolSpec {
  name: string;
  description: string;
  input: z.ZodRawShape;
  output: z.ZodRawShape;
  hints: Hints;
  run(args: Record<string, unknown>, deps: ToolDeps): Promise<ToolOutput>;
}
