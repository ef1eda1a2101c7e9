/**
 * What every MCP tool shares (docs/mcp.md, "Tools"): the shape of a tool ({@link defineTool}), the
 * annotations as the MCP specification means them, the argument check that gives a one-line
 * reason, the result put in MCP's shape ({@link runTool}), and the access helpers (writes through
 * {@link MemoryAccess.writeGuarded}, scopes held to the server's zones). One file per tool sits
 * beside this one; `index.ts` lists them.
 */
import { z } from "zod";
import { CancelledError, MemoryError, UsageError, errorMessage } from "../../core/errors";
import { formatWikilink } from "../../core/markdown/wikilinks";
import { parseScope } from "../../core/search/scope";
import type { EditResult } from "../../core/trackers/store";
import type { SemanticSource } from "../../core/semantic/hybrid";
import type { Result } from "../../core/util/result";
import type { DecideFn, Decided } from "../../core/vault";
import type { CliContext } from "../../node/context";
import type { LiveIndex } from "../../node/live-index";
import { oneLine } from "../../node/one-line";
import { zoneNotGiven, type MemoryAccess } from "../access";

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
  /**
   * This call's cancellation: aborted when the client sends `notifications/cancelled` for it or,
   * over HTTP, closes the connection before the answer (docs/mcp.md, "Cancelling"). A long tool
   * (`extract`) stops at its next checkpoint, between notes, and throws a `CancelledError`.
   */
  signal?: AbortSignal;
}

/**
 * MCP tool annotations (https://modelcontextprotocol.io/specification/2025-06-18/server/tools):
 * `readOnlyHint` the tool changes nothing; `destructiveHint` it may replace or overwrite what is
 * there (false: it only adds); `idempotentHint` a second call with the same arguments has no
 * further effect; `openWorldHint` it reaches entities outside the vault (false for every tool here:
 * a memory's domain is closed).
 */
export interface Hints {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** Reads only. */
export const READ: Hints = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
/** Only adds to notes; a second call with the same arguments adds again (a journal block). */
export const ADD: Hints = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};
/** Only adds, and finds what the first call added (a proposal is not made twice). */
export const ADD_ONCE: Hints = { ...ADD, idempotentHint: true };
/**
 * Replaces values (a status, a field, a state) or supersedes a current entry (it gets `valid_to`
 * and leaves the brief): destructive in the specification's sense. A second call finds what the
 * first wrote.
 */
export const REPLACE: Hints = { ...ADD, destructiveHint: true, idempotentHint: true };

/** The arguments a handler receives: the input schema's output type. */
export type ArgsOf<I extends z.ZodRawShape> = z.output<z.ZodObject<I>>;

/** The `structuredContent` of a tool: its output schema's type, or any object for a free-form result. */
export type DataOf<O> = O extends z.ZodRawShape
  ? z.output<z.ZodObject<O>>
  : Record<string, unknown>;

/** A tool's result before it is put in MCP's shape: a short text and the same facts as data. */
export interface ToolOutput<D = Record<string, unknown>> {
  text: string;
  data: D;
}

/** A tool as written in its file: schemas, labels, annotations and a typed handler. */
export interface ToolDefinition<I extends z.ZodRawShape, O extends z.ZodRawShape | undefined> {
  name: string;
  /** A human-readable name (`Tool.title` of the specification). */
  title: string;
  description: string;
  /** Every argument, each with a `.describe()` where a model could misread it. */
  input: I;
  /** Only for a result with a fixed shape; a free-form result has none. */
  output?: O;
  hints: Hints;
  run(args: ArgsOf<I>, deps: ToolDeps): Promise<ToolOutput<DataOf<O>>>;
}

/** A tool as the server registers it: its schemas as zod objects and a handler for raw arguments. */
export interface McpTool {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: z.ZodObject;
  readonly outputSchema: z.ZodObject | undefined;
  readonly hints: Hints;
  /**
   * Checks `args` against the input schema and runs the handler.
   * @throws {@link UsageError} with a one-line reason for arguments the schema refuses
   */
  call(args: unknown, deps: ToolDeps): Promise<ToolOutput<unknown>>;
}

/** One line naming every argument the schema refused and why (`limit: expected number, …; query: …`). */
export function argumentsError(error: z.ZodError): string {
  return error.issues
    .map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message))
    .join("; ");
}

/** Builds a tool from its definition; the handler gets the arguments typed by the input schema. */
export function defineTool<
  I extends z.ZodRawShape,
  O extends z.ZodRawShape | undefined = undefined,
>(def: ToolDefinition<I, O>): McpTool {
  const inputSchema = z.object(def.input);
  const outputSchema = def.output ? z.object(def.output) : undefined;
  return {
    name: def.name,
    title: def.title,
    description: def.description,
    inputSchema,
    outputSchema,
    hints: def.hints,
    async call(args, deps) {
      const parsed = inputSchema.safeParse(args ?? {});
      if (!parsed.success)
        throw new UsageError(`invalid arguments: ${argumentsError(parsed.error)}`);
      const out = await def.run(parsed.data, deps);
      const checked = outputSchema?.safeParse(out.data);
      // A result that breaks its own schema is a bug of this server, reported as such.
      if (checked && !checked.success)
        throw new Error(`result does not fit the output schema: ${argumentsError(checked.error)}`);
      return out;
    },
  };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A tool error result: one line, `isError: true` (docs/mcp.md, "Tools"). */
export function toolError(message: string) {
  return { content: [{ type: "text" as const, text: oneLine(message) }], isError: true };
}

/**
 * Runs a tool and puts its outcome in MCP's shape: text and `structuredContent`, or a tool error
 * with a one-line reason (a bug is also logged with its stack on stderr). Never throws.
 * @param log writes one line to stderr
 */
export async function runTool(
  tool: McpTool,
  args: unknown,
  deps: ToolDeps,
  log: (line: string) => void,
) {
  try {
    // Background work (the briefs a server computes ahead) waits while a tool call runs.
    const out = await deps.live.foreground.run(() => tool.call(args, deps));
    return {
      content: [{ type: "text" as const, text: out.text }],
      structuredContent: isRecord(out.data) ? out.data : {},
    };
  } catch (err) {
    // No answer goes out for a cancelled call (the SDK drops it); the log says what was done. An
    // error after the abort is the abort's (a chat completion cut off), whatever its type.
    if (deps.signal?.aborted) {
      const writes = err instanceof CancelledError ? err.writes.length : 0;
      log(`mcp: ${tool.name}: cancelled by the client; wrote ${writes} note(s), each complete`);
      return toolError(`${tool.name}: cancelled`);
    }
    if (!(err instanceof MemoryError))
      log(`mcp: ${tool.name}: ${oneLine(String(err instanceof Error ? err.stack : err))}`);
    return toolError(`${tool.name}: ${errorMessage(err)}`);
  }
}

/** `[[path-without-.md#^id]]`, or `[[path-without-.md]]` without an id. */
export function noteLink(path: string, blockId?: string | null): string {
  return formatWikilink({ path, blockId });
}

/**
 * Writes through the guard (the agent's own folder) and re-indexes at once (the watcher would too,
 * a moment later). Returns whether the note was written and what the edit decided.
 */
export async function write<T>(deps: ToolDeps, path: string, fn: DecideFn<T>): Promise<Decided<T>> {
  const done = await deps.access.writeGuarded().process(path, fn);
  if (done.written) await deps.live.wrote(path);
  return done;
}

/** The text of a tracker edit, or a {@link UsageError} with its reason. */
export function edited(r: EditResult, path: string, id: string): string {
  if (!r.ok) throw new UsageError(r.error.found ? r.error.message : `no item ^${id} in ${path}`);
  return r.value.text;
}

/** A scope argument checked against the settings and the server's zones; the default when blank. */
export function scopeFor(deps: ToolDeps, scope: string | undefined): string {
  const value = scope?.trim() || deps.defaultScope;
  const parsed = parseScope(value, deps.ctx.settings);
  if (!parsed.ok) throw new UsageError(parsed.error);
  if (parsed.value.kind === "zone" && !deps.access.zoneAllowed(parsed.value.zone)) {
    throw new UsageError(
      `scope ${parsed.value.zone} is an isolated zone ${zoneNotGiven(parsed.value.zone)}`,
    );
  }
  return value;
}

/** The value of a check of `src/core/trackers/validate.ts`, or a {@link UsageError} with its reason. */
export function valid<T>(r: Result<T>): T {
  if (!r.ok) throw new UsageError(r.error);
  return r.value;
}
