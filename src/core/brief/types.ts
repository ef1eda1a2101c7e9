/**
 * The public shapes of the session brief (docs/agents.md, "The loop"): what {@link buildBrief}
 * takes and returns. The CLI's `brief --json`, `export-agents-md` and the MCP server's `brief` tool
 * all use these.
 */
import type { MemoryLayout } from "../layout";
import type { Settings } from "../settings";
import type { VaultPort } from "../vault";
import type { IsoDate } from "../util/dates";
import type { UnreadableNote } from "../errors";
import type { StaleCacheStore } from "../health/stale-cache";
import type { TrackerStatus } from "../trackers/format";
import type { PriorityWord } from "../trackers/fields";
import type { Result } from "../util/result";
import type { SearchOptions, SearchResponse } from "../search/search-types";

/** The sections of a brief, in the order the Markdown shows them. */
export const BRIEF_SECTIONS = [
  "reviews",
  "tasks",
  "questions",
  "goals",
  "proposals",
  "decisions",
  "knowledge",
  "stale",
] as const;
export type BriefSectionKind = (typeof BRIEF_SECTIONS)[number];

/** A search function with the shape of {@link SearchService.search}. */
export type BriefSearchFn = (
  query: string,
  options: SearchOptions,
) => Promise<Result<SearchResponse>>;

/** Options of {@link buildBrief}. */
export interface BriefOptions {
  vault: VaultPort;
  layout: MemoryLayout;
  settings: Settings;
  /** The agent whose session starts (a folder under the agents folder). */
  agent: string;
  /** Today's date `YYYY-MM-DD`, the user's local day (`today()` of src/core/util/dates.ts): overdue tasks and due reviews. */
  today: IsoDate;
  /**
   * Budget in estimated tokens (`estimateTokens` of src/core/llm/tokens.ts: one per CJK character,
   * one per four other characters), counted over the whole Markdown. Default {@link DEFAULT_BUDGET_TOKENS}.
   */
  budgetTokens?: number;
  /** Budget in UTF-8 bytes instead of tokens (AGENTS.md export). Give this or `budgetTokens`, not both. */
  budgetBytes?: number;
  /** Free text (and filters) of the search for relevant knowledge; without it, the newest knowledge is listed. */
  query?: string;
  /**
   * Finds knowledge: a {@link SearchService} (already opened) or a function of the same shape.
   * Without it the knowledge section is left out, and `omitted` says so.
   */
  search?: { search: BriefSearchFn } | BriefSearchFn;
  /** How the vault is written in the commands of `omitted[].how` (default `<vault>`). */
  vaultLabel?: string;
  /**
   * The vault's agents by the rule of `knownAgents` (src/core/init.ts), when the caller already has its notes' paths
   * (a search index: `layout.agentsIn` of them); else the brief lists the agents' folders, a stat
   * per note of every agent (seconds at 50k notes).
   */
  agents?: readonly string[];
  /**
   * Where the "may be stale" scan keeps what each note gave it between briefs (src/core/health/stale-cache.ts);
   * without it every knowledge and library note and the agent's journals are read each time. The
   * brief is the same either way.
   */
  staleCache?: StaleCacheStore;
  /** Lines put before the title and counted in the budget (the export's "generated" mark). */
  header?: string[];
  /** Most recent decisions considered (default 10); older ones are named in `omitted`. */
  decisionLimit?: number;
  /** Most knowledge notes considered (default 8); the rest of the search's total is named in `omitted`. */
  knowledgeLimit?: number;
}

/** Default token budget of a brief. */
export const DEFAULT_BUDGET_TOKENS = 2000;

/** One line of a brief. Optional fields are present only when they apply. */
export interface BriefItem {
  kind: BriefSectionKind;
  /** The item's text, one line, whitespace collapsed, at most {@link MAX_ITEM_CHARS} characters. */
  text: string;
  /** Wikilink to the item's block (`[[Memory/Agents/link/Trackers/Tasks#^t-005]]`) or note (`[[…/Page speed]]`). */
  link: string;
  /** Vault path of the note holding the item. */
  path: string;
  /** Block id without `^`, or `null`. */
  id: string | null;
  /** Tracker status (tracker items only). */
  status?: TrackerStatus;
  /** `[due:: …]` of a task. */
  due?: string;
  /** An open task whose due date is before today. */
  overdue?: boolean;
  /** A task's priority as Tasks names it (`highest` … `lowest`; an old `1`/`2`/`3` is read as high/medium/low). */
  priority?: PriorityWord;
  /** `[target:: …]` of a goal. */
  target?: string;
  /** Latest dated progress line under a goal (`2026-11-27: …`). */
  latest?: string;
  /** A due review's `next` date and days since it. */
  next?: string;
  daysOverdue?: number;
  /**
   * Questions and proposals: `to` the agent (written by another) or `from` the agent. Tasks: `to`
   * for one another agent's tracker gives the agent (`[owner:: agent]`), `from` for one of the
   * agent's tracker that someone else owns.
   */
  direction?: "to" | "from";
  /**
   * The other side of a question or proposal (its `to`, or the agent that wrote it), or of a task
   * with an owner (the agent whose tracker holds it, or its owner), when known.
   */
  counterpart?: string;
  /** A task's owner (its `owner` field's names), when someone is named; the agent itself for a task given to it. */
  owner?: string;
  /** The item's date: `decided` / `created` of a tracker line, a callout's date, or the note's date. */
  date?: string;
  /** Knowledge: search score (see src/core/search/ranking.ts) and confidence 0–1 when written. */
  score?: number;
  confidence?: number;
  /**
   * A decision or callout that supersedes an earlier one: the wikilink to it, its history
   * (docs/contradictions.md). Superseded entries themselves are never listed.
   */
  supersedes?: string;
  /** The Markdown line as the brief shows it. */
  line: string;
}

/** A section: the items shown and how many there were. */
export interface BriefSection {
  kind: BriefSectionKind;
  title: string;
  /** Items shown, in display order. */
  items: BriefItem[];
  /** Items the section had before any cut (for knowledge: the search's total). */
  total: number;
}

/** What was left out of a section, and the command that lists it. */
export interface BriefOmission {
  section: BriefSectionKind;
  /** E.g. `9 older decisions`. */
  what: string;
  count: number;
  /** A command that lists them, e.g. `agent-memory trackers <vault> --agent link --kind decisions`. */
  how: string;
}

/** A session brief. */
export interface Brief {
  agent: string;
  today: IsoDate;
  query: string | null;
  budget: {
    unit: "tokens" | "bytes";
    limit: number;
    /** Size of {@link Brief.markdown} in that unit (≤ limit). */
    used: number;
    /** How the unit is counted, in words. */
    counting: string;
  };
  /** The brief, lines joined with `\n`, ending with a newline. */
  markdown: string;
  /** Every section in {@link BRIEF_SECTIONS} order, also those with nothing to show. */
  sections: BriefSection[];
  /** What was left out, one entry per section that lost items (never silent). */
  omitted: BriefOmission[];
  /**
   * Notes left out because they cannot be read (not UTF-8, a link out of the vault), each with
   * its reason, for the host to name as `search` and `index` do; empty when every note was read.
   */
  unreadable: UnreadableNote[];
}

/** Longest item text in characters; longer text is cut with `…`. */
export const MAX_ITEM_CHARS = 240;
