/**
 * Which inline fields a new tracker item gets (README "Tracker line format"), for every writer of
 * new items: extraction and the MCP `add_tracker_item` tool.
 */
import type { TrackerKind } from "../settings";
import { FIELD_KEYS } from "./fields";

/** What is known of a new tracker item; every value is written as given (wikilinks already formatted). */
export interface NewItemFacts {
  /** The day the item is written for, `YYYY-MM-DD`: `created`, or a decision's `decided` and `completion`. */
  date: string;
  /** Wikilink(s) to where the item came from. */
  source?: string | undefined;
  /** Wikilink(s) to whom the item is addressed. */
  to?: string | undefined;
  /** Who does it; written on tasks only. */
  owner?: string | undefined;
  /** The date it is due, `YYYY-MM-DD`: a goal's `target`, else `due`. */
  due?: string | undefined;
  /** Tasks' priority word. */
  priority?: string | undefined;
  /** Wikilink to the topic note; written on decisions only. */
  topic?: string | undefined;
  /** Wikilink to the item this one supersedes. */
  supersedes?: string | undefined;
  /** A proposal's state (`proposed`). */
  state?: string | undefined;
}

/**
 * The fields of a new tracker line of `kind`, as `[key, value]` pairs: ours first, the source last
 * of them (after `supersedes`), then Tasks' fields; `addTrackerItem` puts them in that order
 * (docs/decisions.md, "Tracker line order follows Tasks' reader"). A goal's due date is its
 * `target`; a decision is written done, so it gets `decided` and Tasks' `completion` (the day it
 * was decided) instead of `created`. `kind` is `null` for an item of a category no tracker is made
 * for (an insight or pattern a person placed in a tracker): none of the kinds' own rules apply.
 */
export function newItemFields(kind: TrackerKind | null, facts: NewItemFacts): [string, string][] {
  const fields: [string, string][] = [];
  const decision = kind === "decisions";
  if (facts.state) fields.push([FIELD_KEYS.state, facts.state]);
  if (facts.to) fields.push([FIELD_KEYS.to, facts.to]);
  if (facts.owner && kind === "tasks") fields.push([FIELD_KEYS.owner, facts.owner]);
  if (facts.due && kind === "goals") fields.push([FIELD_KEYS.target, facts.due]);
  if (decision) fields.push([FIELD_KEYS.decided, facts.date]);
  if (decision && facts.topic) fields.push([FIELD_KEYS.topic, facts.topic]);
  if (facts.supersedes) fields.push([FIELD_KEYS.supersedes, facts.supersedes]);
  if (facts.source) fields.push([FIELD_KEYS.source, facts.source]);
  if (facts.priority) fields.push([FIELD_KEYS.priority, facts.priority]);
  if (!decision) fields.push([FIELD_KEYS.created, facts.date]);
  if (facts.due && kind !== "goals") fields.push([FIELD_KEYS.due, facts.due]);
  if (decision) fields.push([FIELD_KEYS.completion, facts.date]);
  return fields;
}
