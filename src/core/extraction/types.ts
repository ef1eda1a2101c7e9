/**
 * Types shared by the extraction pipeline (docs/architecture.md, "An extraction run"): items,
 * extractors, plans.
 */
import type { Category, TrackerKind } from "../settings";
import type { TrackerStatus } from "../trackers/format";
import type { JournalBlock } from "../journal/blocks";
import type { SectionHeadings } from "./section-headings";

export type { Category };

/**
 * The seven categories of the checklist, in checklist order
 * (docs/architecture.md, "An extraction run").
 */
export const CATEGORIES: readonly Category[] = [
  "task",
  "goal",
  "pattern",
  "improvement",
  "knowledge",
  "decision",
  "question",
];

/**
 * The label of each category where a person reads it: the plan review modal's groups and the
 * digest's sections (docs/glossary.md, "Extraction").
 */
export const CATEGORY_LABELS: Readonly<Record<Category, string>> = {
  task: "Tasks",
  goal: "Goals",
  pattern: "Patterns",
  improvement: "Improvements",
  knowledge: "Knowledge",
  decision: "Decisions",
  question: "Questions",
};

/** One extracted memory item (docs/architecture.md, "Items and evidence"). */
export interface ExtractedItem {
  category: Category;
  /** The item in one sentence, in the journal's language. */
  text: string;
  /** Verbatim quote from the journal supporting the item. */
  evidence: string;
  /** Block id (without `^`) of the journal block the evidence comes from; `null` until assigned. */
  blockId: string | null;
  /** Index into the journal's blocks (from {@link splitBlocks}) where the evidence was found. */
  blockIndex: number;
  /** 0–1. */
  confidence: number;
  /** Topic note title for pattern/knowledge/decision items. */
  topic?: string;
  /** Agent name an improvement or question is addressed to. */
  target?: string;
  /** ISO date `YYYY-MM-DD`. */
  due?: string;
  /**
   * Id of an existing tracker item this item updates (e.g. `g-006`): progress on a goal, an answer
   * to a question (docs/architecture.md, "The checklist"). The plan turns it into a progress note
   * instead of a new item.
   */
  ref?: string;
  /** True for progress on an existing goal whose id the journal did not give; the plan matches it by text. */
  progress?: boolean;
  /**
   * Who acts on a task when it is not the journal's author (`@dana`, `Dana:`, `(for Dana)`;
   * docs/decisions.md, "Owners only where the form assigns"), written as `[owner:: Dana]`. The name
   * is not repeated in `text`.
   */
  owner?: string;
  /**
   * The state of the journal line's checkbox when it is not open (`[/]` → `in-progress`): the
   * tracker line is written with it (test/core/extraction/journal-lines.test.ts).
   */
  status?: TrackerStatus;
  /**
   * Fields of the journal line the item carries as written, `[key, value]` with keys lower-cased:
   * the line's Dataview fields and Tasks' emoji (`⏫` → `priority` `high`, `⏳ 2026-11-30` →
   * `scheduled`) other than those read into the item itself (due, to, owner, topic, goal). Written
   * on the tracker line after ours, a key we write ourselves never twice.
   */
  fields?: [string, string][];
  /**
   * How the offline extractor inferred the item when no explicit convention marked it: from the
   * heading it sits under (`section`) or a phrasing (`phrasing`; docs/decisions.md,
   * "Offline extraction reads headings and phrasings, not meaning"). Absent for conventions
   * and model items. A model item that restates an inferred item replaces it (merge.ts).
   */
  cue?: "section" | "phrasing";
  /** Which extractor produced it. */
  origin: "offline" | "llm";
}

/**
 * An item the pipeline refused, with the reason shown in reports
 * (test/core/extraction/llm-reply.test.ts, "case 09 (a): …"; docs/architecture.md, "Items and evidence").
 */
export interface RejectedItem {
  reason: string;
  category?: string;
  text?: string;
  evidence?: string;
  /**
   * True when a later run could accept the item without the journal changing (an id that names
   * no item yet, a destination setting): the journal is then not marked as extracted
   * (docs/decisions.md, "Ids planned in the same run").
   */
  retry?: boolean;
}

/** Token usage and cost of a run (docs/architecture.md, "Plan and apply"). */
export interface Usage {
  calls: number;
  promptTokens: number;
  completionTokens: number;
  /** Wall time of all model calls, milliseconds. */
  wallMs: number;
  /** USD, when prices are set. */
  costUsd?: number;
}

/** What the self-check gate did (docs/architecture.md, "The self-check gate"). */
export interface GateReport {
  /** Names of the checks that fired on the first pass. */
  fired: string[];
  /** Item count before the rescan(s). */
  before: number;
  /** Item count after the rescan(s). */
  after: number;
  /** Category count before / after. */
  categoriesBefore: number;
  categoriesAfter: number;
}

/** Context given to an extractor about the destination (docs/architecture.md, "The checklist"). */
export interface ExtractionContext {
  agent: string;
  /** Existing topic note titles of the agent and the library. */
  topics: string[];
  /** Open tracker items (goals, questions…) as `{id, kind, text}`. */
  openItems: { id: string; kind: string; text: string }[];
  /** Other agents' names, for `target`. */
  agents: string[];
}

/** Input to an extractor: the journal as read. */
export interface ExtractionInput {
  /** Vault-relative path of the journal. */
  path: string;
  /** Journal title (file name without `.md`). */
  title: string;
  /** Body text without frontmatter. */
  body: string;
  blocks: JournalBlock[];
  context: ExtractionContext;
  /** Headings that name a category (the `sectionHeadings` setting), for the offline extractor. */
  sectionHeadings?: Readonly<SectionHeadings>;
  /** Cancels the run: an extractor stops at its next checkpoint with a `CancelledError`. */
  signal?: AbortSignal;
  /** Awaited by the extractor between parts of a long journal (phase `read`; see {@link Checkpoint}). */
  checkpoint?: Checkpoint;
}

/**
 * Where a long run stops for a moment: between slices of blocks while the extractor reads the
 * journal (`read`), every few items while planning (`plan`) and before each note while applying
 * (`apply`). A host may report progress there and let its event loop run (the CLI handles Ctrl-C
 * only then; a long run is otherwise one long synchronous stretch).
 */
export type Checkpoint = (at: {
  phase: "read" | "plan" | "apply";
  done: number;
  total: number;
}) => Promise<void> | void;

export interface ExtractionResult {
  items: ExtractedItem[];
  rejected: RejectedItem[];
  /** Number of passes over the journal (1 + rescans). */
  passes: number;
  gate?: GateReport;
  usage: Usage;
  /** Non-fatal notes for the report (e.g. "response_format not supported, fell back to plain JSON"). */
  notes: string[];
}

/** An extractor turns a journal into items (docs/architecture.md, "Extractors"). */
export interface Extractor {
  /** `offline` or `openai`; shown in every report. */
  readonly name: "offline" | "openai";
  extract(input: ExtractionInput): Promise<ExtractionResult>;
}

/** What the plan does with an item. */
export type ItemAction =
  /** A new tracker item or callout. */
  | "add"
  /** Duplicate of an existing item: its new source is added to the existing one. */
  | "add-source"
  /** Progress on an existing goal: a progress note under it. */
  | "progress"
  /** Already recorded with this source; nothing to write. */
  | "skip"
  /**
   * A new tracker item or callout that supersedes an existing one ({@link PlannedItem.supersedes}):
   * it contradicts it, or its journal block was reworded; the old one is marked, both stay.
   */
  | "supersede";

/** What a superseding item replaces (docs/contradictions.md). */
export interface Supersession {
  /** Tracker item id (`d-004`), or the callout's block id, else `callout N` (1-based, note order). */
  id: string;
  /** The old entry's text as planned, to find it again on the note's current content. */
  text: string;
  /**
   * `polarity`: the same subject negated; `value`: another number, date, weekday or limit;
   * `reworded`: the journal block it came from now says something else.
   */
  reason: "polarity" | "value" | "reworded";
  /**
   * Other current callouts of a topic note the new one contradicts as well (facts recorded at once
   * on other clones): they are superseded by it too (docs/decisions.md, "A new fact supersedes
   * every current fact it contradicts").
   */
  also?: { id: string; text: string }[];
}

export interface PlannedItem {
  item: ExtractedItem;
  /** Vault-relative path of the note the item goes to. */
  destination: string;
  action: ItemAction;
  /**
   * Existing tracker item id or callout it matched, when deduped. For progress on a goal this run
   * adds (`sameRun`), the id that goal is expected to get ({@link PlannedItem.newId}).
   */
  existingId?: string;
  /**
   * For a new tracker item: the id it is expected to get, numbered from the note as planned. The
   * note may gain items before the write, so the written id can differ; progress planned on it
   * follows the item to whatever id it gets.
   */
  newId?: string;
  /** For progress: the goal is one this same run adds (its `newId` is `existingId`). */
  sameRun?: boolean;
  /** For a tracker destination: which tracker. */
  tracker?: TrackerKind;
  /** For a topic-note destination: the topic's title and the `##` heading the callout goes under. */
  topic?: { title: string; heading: string };
  /** For `supersede`: the entry it replaces. */
  supersedes?: Supersession;
  /** For `add` and `supersede`: the destination note does not exist yet, and applying creates it. */
  newNote?: boolean;
}
