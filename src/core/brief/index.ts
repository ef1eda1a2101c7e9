/**
 * The session brief (docs/agents.md, "The loop";
 * docs/decisions.md, "The brief cuts by value, not by section"): what an agent should read at the
 * start of a session, as Markdown cut to a budget, with every line linked to its note or block.
 * Used by
 * `agent-memory brief`, `agent-memory export-agents-md` and the MCP server's `brief` tool.
 */
import { UsageError, type UnreadableNote } from "../errors";
import {
  collectDecisions,
  collectExchanges,
  collectGoals,
  collectKnowledge,
  collectReviews,
  collectStale,
  collectTasks,
  knowledgeQuery,
  type Collected,
} from "./collect";
import { BYTE_METER, TOKEN_METER, fitBrief, omissionWhat, type SectionInput } from "./fit";
import { knownAgents } from "../init";
import {
  BRIEF_SECTIONS,
  DEFAULT_BUDGET_TOKENS,
  type Brief,
  type BriefOptions,
  type BriefSectionKind,
} from "./types";

export * from "./types";
export { TOKEN_METER, BYTE_METER, SECTION_WEIGHT } from "./fit";

/** Quotes a word for a POSIX shell when it needs it (`'a b'`, `'it'\''s'`); `<vault>` stays as written. */
export function shellWord(word: string): string {
  if (word === "<vault>" || /^[A-Za-z0-9_\-./:@=,+%^]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

function budgetOf(options: BriefOptions): { limit: number; bytes: boolean } {
  const check = (n: number, name: string): number => {
    if (!Number.isInteger(n) || n < 1)
      throw new UsageError(`${name} must be a positive whole number, got ${String(n)}`);
    return n;
  };
  if (options.budgetBytes !== undefined && options.budgetTokens !== undefined)
    throw new UsageError("give a budget in tokens or in bytes, not both");
  if (options.budgetBytes !== undefined)
    return { limit: check(options.budgetBytes, "the byte budget"), bytes: true };
  return {
    limit: check(options.budgetTokens ?? DEFAULT_BUDGET_TOKENS, "the token budget"),
    bytes: false,
  };
}

const TITLES: Readonly<Record<BriefSectionKind, string>> = {
  reviews: "Due reviews",
  tasks: "Open tasks",
  questions: "Open questions",
  goals: "Goals",
  proposals: "Open proposals",
  decisions: "Recent decisions",
  knowledge: "Knowledge",
  stale: "May be stale",
};

/**
 * Builds the session brief of `options.agent`:
 * - **Due reviews** (`next` today or earlier, most overdue first);
 * - **Open tasks** (open or in progress): overdue first, then priority 1 first, then due date;
 * - **Open questions** to the agent (another agent's, `[to:: …]` naming it) and from it;
 * - **Goals** that are open, nearest target first, each with its latest dated progress line;
 * - **Open proposals** to and from the agent;
 * - **Recent decisions** in force, newest first (the `decisionLimit` newest, default 10);
 * - **Knowledge**: the agent's knowledge notes and the library, ranked by the search service for
 *   `query` (its score already weighs recency and confidence, src/core/search/ranking.ts), or the
 *   newest without a query (`knowledgeLimit`, default 8);
 * - **May be stale**: the agent's knowledge notes and library notes that its journal blocks newer
 *   than their last update mention (`may-be-stale`, src/core/health/stale-rules.ts), most blocks first.
 *
 * Every line ends with a wikilink to its block (`[[path#^id]]`) or note. Lines are cut to the
 * budget (tokens by default, {@link DEFAULT_BUDGET_TOKENS}; or UTF-8 bytes) lowest value first (see
 * src/core/brief/fit.ts); each section that lost lines gets an entry in `omitted` and a line under
 * "Not shown" with a command that lists them. A note that is not UTF-8 or is a link out of the
 * vault is left out and listed in `unreadable`, for the host to name. Reads only; writes nothing.
 * @returns the brief; `budget.used` ≤ `budget.limit` always.
 * @throws UsageError for a budget that is not a positive whole number, both budgets given, a budget
 *   too small for the title and the omission notes, or a query the search refuses.
 * @throws PathError for an unsafe agent name; VaultError when a note cannot be read for another
 *   reason.
 */
export async function buildBrief(options: BriefOptions): Promise<Brief> {
  const { vault, layout, agent, today } = options;
  const budget = budgetOf(options);
  layout.agentRoot(agent); // throws PathError for a name that is not a plain folder name
  const v = shellWord(options.vaultLabel ?? "<vault>");
  const a = shellWord(agent);
  const query = options.query?.trim() ? options.query.trim() : undefined;
  const decisionLimit = options.decisionLimit ?? 10;
  const knowledgeLimit = options.knowledgeLimit ?? 8;

  // A note that cannot be read is left out and named, as `search` and `index` do.
  const unreadable: UnreadableNote[] = [];
  // Listed once for the three sections that read other agents' trackers.
  const agents = options.agents ?? (await knownAgents(vault, layout));
  const collected: Record<BriefSectionKind, Collected | null> = {
    reviews: await collectReviews(vault, layout, agent, today, unreadable),
    tasks: await collectTasks(vault, layout, agent, today, unreadable, agents),
    questions: await collectExchanges(vault, layout, agent, "questions", unreadable, agents),
    goals: await collectGoals(vault, layout, agent, unreadable),
    proposals: await collectExchanges(vault, layout, agent, "proposals", unreadable, agents),
    decisions: await collectDecisions(vault, layout, agent, decisionLimit, unreadable),
    knowledge: null,
    stale: await collectStale(vault, layout, agent, today, unreadable, options.staleCache),
  };
  const searchFn =
    typeof options.search === "function"
      ? options.search
      : options.search
        ? options.search.search.bind(options.search)
        : undefined;
  const kq = knowledgeQuery(layout, agent, query);
  const searchHow = (limit: number) =>
    `agent-memory search ${v} ${shellWord(kq)} --scope ${shellWord(`agent:${agent}`)} --limit ${limit}`;
  if (searchFn)
    collected.knowledge = await collectKnowledge(
      searchFn,
      vault,
      layout,
      agent,
      query,
      knowledgeLimit,
    );

  const sections: SectionInput[] = BRIEF_SECTIONS.map((kind) => {
    const c = collected[kind];
    const title = kind === "knowledge" && !query ? "Recent knowledge" : TITLES[kind];
    if (c === null)
      return {
        kind,
        title,
        items: [],
        total: 0,
        unavailable: {
          what: "relevant knowledge (no search index was given)",
          how: searchHow(knowledgeLimit),
        },
      };
    return { kind, title, items: c.items, total: c.total };
  });

  const brief = fitBrief(sections, {
    agent,
    today,
    query: query ?? null,
    header: options.header ?? [],
    limit: budget.limit,
    meter: budget.bytes ? BYTE_METER : TOKEN_METER,
    omission(section, count, shown) {
      const what = omissionWhat(section.kind, count, shown, query !== undefined);
      if (section.kind === "knowledge") return { what, how: searchHow(section.total) };
      if (section.kind === "stale") return { what, how: `agent-memory health ${v}` };
      // Items to the agent live in other agents' trackers: list every agent's.
      const elsewhere = section.items.slice(shown).some((i) => i.direction === "to");
      return {
        what,
        how: `agent-memory trackers ${v}${elsewhere ? "" : ` --agent ${a}`} --kind ${section.kind}`,
      };
    },
  });
  return { ...brief, unreadable };
}
