/**
 * Sets up an agent's memory (docs/architecture.md, "The five layers"): the six tracker notes,
 * today's journal and the library index, each created only when missing.
 */
import { UsageError } from "./errors";
import { setFrontmatter } from "./frontmatter";
import { newJournalNote } from "./journal/append";
import type { MemoryLayout } from "./layout";
import { TRACKER_KINDS } from "./settings";
import type { VaultPort } from "./vault";

/** One line per tracker kind saying what the note holds (shown under its heading). */
const TRACKER_PURPOSE: Record<(typeof TRACKER_KINDS)[number], string> = {
  tasks: "Things to be done soon. Tick to close; items are never deleted.",
  goals: "Aims that run for weeks; progress notes go under each goal.",
  reviews: "Periodic self-review loops: `[every:: weekly]` `[next:: YYYY-MM-DD]`.",
  proposals: "Proposed changes of process, for this agent or another.",
  questions: "What needs another agent's or a person's input.",
  decisions: "Decision log, oldest first.",
};

function note(fields: Record<string, unknown>, body: string): string {
  return setFrontmatter(body, fields, "new note");
}

/**
 * Creates what is missing for `agent`. `today` is `YYYY-MM-DD`.
 * @returns vault paths of the notes created (empty when everything existed).
 */
export async function initAgent(
  vault: VaultPort,
  layout: MemoryLayout,
  agent: string,
  today: string,
): Promise<string[]> {
  const created: string[] = [];
  const create = async (path: string, text: string) => {
    if (await vault.process(path, (current) => current ?? text)) created.push(path);
  };
  for (const kind of TRACKER_KINDS) {
    const title = layout.settings.trackerFiles[kind];
    await create(
      layout.trackerPath(agent, kind),
      note(
        {
          id: `tracker-${agent}-${kind}`,
          type: "tracker",
          kind,
          agent,
          status: "active",
          created_at: today,
        },
        `# ${title}\n\n${TRACKER_PURPOSE[kind]}\n\n`,
      ),
    );
  }
  await create(layout.journalPath(agent, today), newJournalNote(agent, today));
  await create(
    `${layout.libraryRoot}/Library.md`,
    note(
      { id: "library-index", type: "library", status: "active", created_at: today },
      "# Library\n\nShared knowledge every agent may use. One note per topic, in a folder per area.\n",
    ),
  );
  return created;
}

/**
 * The agents that exist: those with a folder holding at least one note under the agents root.
 * One rule for every door that must not create an agent by accident (`extract`, the MCP server).
 * @returns agent names, sorted as listed
 */
export async function knownAgents(vault: VaultPort, layout: MemoryLayout): Promise<string[]> {
  return layout.agentsIn((await vault.list(layout.agentsRoot)).map((f) => f.path));
}

/**
 * True when `agent` exists by the rule of {@link knownAgents} (its folder under the agents root
 * holds at least one note), found in that one folder rather than every agent's, and there by its
 * first note when the vault can stop at one (`VaultPort.firstNote`).
 * Throws `PathError` for a name that is not a plain folder name.
 */
export async function isKnownAgent(
  vault: VaultPort,
  layout: MemoryLayout,
  agent: string,
): Promise<boolean> {
  const root = layout.agentRoot(agent);
  const paths = vault.firstNote
    ? [(await vault.firstNote(root))?.path].filter((p) => p !== undefined)
    : (await vault.list(root)).map((f) => f.path);
  return layout.agentsIn(paths).includes(agent);
}

/**
 * The usage error for an agent that does not exist, naming the known ones and how to create it.
 * @param how what the caller may do instead, e.g. `pass --agent with a known agent`
 */
export function unknownAgentError(
  agent: string,
  known: readonly string[],
  how: string,
): UsageError {
  return new UsageError(
    `unknown agent "${agent}" (known: ${known.join(", ") || "none"}); ${how}, or create it with: agent-memory init <vault> --agent ${agent}`,
    agent,
  );
}
