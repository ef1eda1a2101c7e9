/**
 * What an MCP client may do (docs/mcp.md, "The MCP server"): its agent, whether it only reads, its
 * tool allowlist and the isolated zones it may reach. The stdio server takes them from its flags
 * (`--agent`, `--read-only`, `--tools`, `--zone`), the HTTP server from the caller's token
 * (docs/mcp.md, "Remote use"); both check them here, with the same rules and the same messages.
 */
import { UsageError, errorMessage } from "../core/errors";
import { knownAgents, unknownAgentError } from "../core/init";
import type { CliContext } from "../node/context";
import { MemoryAccess } from "./access";
import { readOnlyToolNames, toolNames } from "./server";

/** The rights of one client: what a token stores and what the stdio flags give. */
export interface McpRights {
  /** The agent the client works for; it writes only in `Memory/Agents/<agent>/`. */
  agent: string;
  /** Only the read tools (`readOnlyHint`) are offered. */
  readOnly: boolean;
  /** The tools offered, by name, or `null` for every tool (less the writes when `readOnly`). */
  tools: string[] | null;
  /** Isolated zones the client may reach, as the settings spell them. */
  zones: string[];
}

/**
 * Parses a `--tools a,b,…` list against the server's tools.
 * @throws {@link UsageError} for an unknown or empty list, or (with `readOnly`) a list of write
 *   tools only, which would leave the server with no tool
 */
export function parseToolList(value: string, readOnly: boolean): string[] {
  const known = toolNames();
  const names = value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !known.includes(n));
  if (unknown.length > 0 || names.length === 0) {
    throw new UsageError(
      `--tools: unknown tool ${unknown.map((n) => `"${n}"`).join(", ") || "list (empty)"} (tools: ${known.join(", ")})`,
    );
  }
  if (readOnly) {
    const reads = readOnlyToolNames();
    const writes = names.filter((n) => !reads.includes(n));
    // A server with no tool at all would start and offer nothing: say so instead.
    if (writes.length === names.length)
      throw new UsageError(
        `--tools names only tools that write (${writes.join(", ")}), which --read-only leaves out: the server would have no tools (read tools: ${reads.join(", ")})`,
      );
  }
  return names;
}

/**
 * Checks `rights` against the vault: the agent must exist (a server never creates one: a typo in a
 * client's configuration would split memory) and every zone must be an isolated zone of the
 * settings. Returns the {@link MemoryAccess} that holds the client to them.
 * @param how what the caller may do about an unknown agent, e.g. `pass --agent with a known agent`
 * @param notes the vault paths of the notes under the memory root when the caller keeps them (a
 *   server's `LiveIndex`), so the vault is not listed again; otherwise it is listed
 * @throws {@link UsageError} naming the agent or the zone
 */
export async function accessFor(
  ctx: CliContext,
  rights: McpRights,
  how: string,
  notes?: Iterable<string>,
): Promise<MemoryAccess> {
  const agents = notes ? ctx.layout.agentsIn(notes) : await knownAgents(ctx.vault, ctx.layout);
  if (!agents.includes(rights.agent)) throw unknownAgentError(rights.agent, agents, how);
  try {
    return new MemoryAccess(ctx.vault, ctx.layout, rights.agent, rights.zones);
  } catch (err) {
    throw new UsageError(errorMessage(err));
  }
}
