/**
 * The rules of a tracker line's inline fields, each in one place
 * (docs/decisions.md, "Tracker line order follows Tasks' reader"; README "Tracker line format"):
 * which keys belong to the Tasks
 * plugin and in which order they are written, how a value is read when a key is written twice,
 * priority words, and the block id at the end of the line.
 *
 * Tasks reads a line's fields from the end backwards and stops at the first field it does not know
 * (its "Dataview Format" documentation; test/helpers/tasks-dataview.ts encodes the rules), so every
 * writer puts our own fields first and Tasks' fields after them, in {@link TASKS_FIELD_ORDER}:
 * `- [ ] Text [to:: [[ming]]] [source:: [[J#^am-k3f9]]] [priority:: medium] [created:: D] [due:: D] ^t-006`.
 */
import { wikilinkTargets } from "../markdown/wikilinks";

/**
 * Keys the Tasks plugin reads in its Dataview format, in the order Tasks writes them (`id` and
 * `dependsOn` first, dates last). Every other key is ours and is written before these.
 */
export const TASKS_FIELD_ORDER: readonly string[] = [
  "id",
  "dependsOn",
  "priority",
  "repeat",
  "onCompletion",
  "created",
  "start",
  "scheduled",
  "due",
  "reminder",
  "cancelled",
  "completion",
];

const TASKS_RANK = new Map(TASKS_FIELD_ORDER.map((k, i) => [k.toLowerCase(), i]));

/** Position of `key` in {@link TASKS_FIELD_ORDER} (case ignored), or `-1` for a key of ours. */
export function tasksFieldRank(key: string): number {
  return TASKS_RANK.get(key.trim().toLowerCase()) ?? -1;
}

/** True for a key the Tasks plugin reads (see {@link TASKS_FIELD_ORDER}). */
export function isTasksField(key: string): boolean {
  return tasksFieldRank(key) >= 0;
}

/**
 * Puts fields in the written order: ours first, in the order given, then Tasks' fields in
 * {@link TASKS_FIELD_ORDER} (a key given twice keeps its given order). Stable; does not dedupe.
 */
export function orderFields<T extends { key: string }>(fields: readonly T[]): T[] {
  const ours = fields.filter((f) => !isTasksField(f.key));
  const tasks = fields
    .map((f, i) => ({ f, i, rank: tasksFieldRank(f.key) }))
    .filter((x) => x.rank >= 0)
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .map((x) => x.f);
  return [...ours, ...tasks];
}

/** True when the fields are in the written order of {@link orderFields}. */
export function inWrittenOrder(fields: readonly { key: string }[]): boolean {
  const ordered = orderFields(fields);
  return ordered.every((f, i) => f === fields[i]);
}

/**
 * The value of field `key` (case ignored): the **last** field with that key wins, as a second
 * field appended by Tasks' edit means (a due date or priority set in Tasks is appended after ours).
 * Every reader of fields uses this. Returns `null` when there is no such field.
 */
export function fieldValue(
  fields: readonly { key: string; value: string }[],
  key: string,
): string | null {
  const wanted = key.trim().toLowerCase();
  for (let i = fields.length - 1; i >= 0; i--) {
    const f = fields[i];
    if (f && f.key.toLowerCase() === wanted) return f.value;
  }
  return null;
}

/** Index in `fields` of the field {@link fieldValue} reads for `key`, or `-1`. */
export function fieldIndex(fields: readonly { key: string }[], key: string): number {
  const wanted = key.trim().toLowerCase();
  for (let i = fields.length - 1; i >= 0; i--)
    if (fields[i]?.key.toLowerCase() === wanted) return i;
  return -1;
}

/** The fields as one record, key as written by the winning field, value by {@link fieldValue}'s rule. */
export function fieldRecord(
  fields: readonly { key: string; value: string }[],
): Record<string, string> {
  const out: Record<string, string> = {};
  const seen = new Map<string, string>();
  for (const f of fields) {
    const lower = f.key.toLowerCase();
    const before = seen.get(lower);
    if (before !== undefined && before !== f.key) delete out[before];
    seen.set(lower, f.key);
    out[f.key] = f.value;
  }
  return out;
}

/** Keys written more than once on a line (case ignored), each once, as first written. */
export function duplicateKeys(fields: readonly { key: string }[]): string[] {
  const count = new Map<string, { key: string; n: number }>();
  for (const f of fields) {
    const lower = f.key.toLowerCase();
    const c = count.get(lower);
    if (c) c.n++;
    else count.set(lower, { key: f.key, n: 1 });
  }
  return [...count.values()].filter((c) => c.n > 1).map((c) => c.key);
}

/** Tasks' priority words, highest first. */
export const PRIORITY_WORDS = ["highest", "high", "medium", "low", "lowest"] as const;

/** A priority as Tasks names it. */
export type PriorityWord = (typeof PRIORITY_WORDS)[number];

/**
 * Old numeric priorities of tracker lines written before the Tasks order: 1 high, 2 medium, 3 low.
 */
const NUMERIC_PRIORITY: Readonly<Record<string, PriorityWord>> = {
  "1": "high",
  "2": "medium",
  "3": "low",
};

/**
 * Reads a priority value: one of Tasks' words (case ignored) or an old number (`1` → `high`,
 * `2` → `medium`, `3` → `low`). Returns `null` for anything else.
 */
export function priorityWord(value: string): PriorityWord | null {
  const v = value.trim().toLowerCase();
  if ((PRIORITY_WORDS as readonly string[]).includes(v)) return v as PriorityWord;
  return NUMERIC_PRIORITY[v] ?? null;
}

/**
 * The inline field keys of tracker lines and topic callouts, one home for each (README "Tracker
 * line format"; docs/contradictions.md for the supersession keys): ours, then the Tasks plugin's
 * that we write or read ({@link TASKS_FIELD_ORDER} lists all of Tasks'). Readers and writers name a
 * key through this table, never as a string of their own.
 */
export const FIELD_KEYS = {
  /** Wikilink(s) to the journal block(s) or note(s) an item came from. */
  source: "source",
  /** Whom a question or proposal is addressed to: wikilink(s) to agents or people. */
  to: "to",
  /** Who does a task. */
  owner: "owner",
  /** A goal's target date, `YYYY-MM-DD` (a goal has no `due`). */
  target: "target",
  /** The day a decision was made, `YYYY-MM-DD` (a decision has no `created`). */
  decided: "decided",
  /** Wikilink to the topic note a decision is about. */
  topic: "topic",
  /** A proposal's state (`proposed`, `accepted`, …). */
  state: "state",
  /** Wikilink to the entry this one supersedes. */
  supersedes: "supersedes",
  /** Wikilink to the entry that superseded this one. */
  supersededBy: "superseded_by",
  /** The last day a superseded entry held, `YYYY-MM-DD`. */
  validTo: "valid_to",
  /** A review loop's interval (`1w`, `2m`, …). */
  every: "every",
  /** A review loop's next date, `YYYY-MM-DD`. */
  next: "next",
  /** A review loop's last date, `YYYY-MM-DD`. */
  last: "last",
  /** Tasks' priority. */
  priority: "priority",
  /** Tasks' created date, `YYYY-MM-DD`. */
  created: "created",
  /** Tasks' due date, `YYYY-MM-DD`. */
  due: "due",
  /** Tasks' done date, `YYYY-MM-DD`. */
  completion: "completion",
  /** Tasks' cancelled date, `YYYY-MM-DD`. */
  cancelled: "cancelled",
  /** A date a person wrote on a line themselves (read by {@link itemDate}, never written). */
  date: "date",
} as const;

/**
 * An item's date, for every reader that orders or filters items by when they were made (the brief's
 * decisions, the review note's period, supersession's "Out of order" rule in docs/contradictions.md):
 * `decided`, else `created`, else a `date` a person wrote (docs/decisions.md, "One item date").
 * The value as written (not checked to be a `YYYY-MM-DD` day), or `null` when the item has none.
 */
export function itemDate(item: {
  fields: readonly { key: string; value: string }[];
}): string | null {
  return (
    fieldValue(item.fields, FIELD_KEYS.decided) ??
    fieldValue(item.fields, FIELD_KEYS.created) ??
    fieldValue(item.fields, FIELD_KEYS.date)
  );
}

/** Key of our own proposal state (`[state:: proposed]`); `status` is Dataview's task status. */
export const STATE_KEY = FIELD_KEYS.state;

/** The key written before the Tasks order for {@link STATE_KEY}, still read. */
export const OLD_STATE_KEY = "status";

/** A proposal's state: `[state:: …]`, else the old `[status:: …]`, else `null`. */
export function itemState(fields: readonly { key: string; value: string }[]): string | null {
  return fieldValue(fields, STATE_KEY) ?? fieldValue(fields, OLD_STATE_KEY);
}

/** Prefix of the block ids extraction writes on journal blocks (`^am-k3f9`), never an item's id. */
export const JOURNAL_ID_PREFIX = "am-";

/** True for a journal block id (`am-k3f9`), which on a tracker line is a source link's fragment. */
export function isJournalBlockId(id: string): boolean {
  return id.toLowerCase().startsWith(JOURNAL_ID_PREFIX);
}

/** What {@link splitBlockIds} finds at the end of a line. */
export interface LineIds {
  /** The item's block id (without `^`), or `null`. */
  id: string | null;
  /** Where the content ends: the whitespace before the first trailing `^id`, or the trimmed end. */
  contentEnd: number;
  /**
   * Journal block ids (`am-…`) found among the trailing ids: a source link's fragment moved there
   * by another plugin (Dataview's completion tracking moves the first `^…` of a line to its end).
   */
  displaced: string[];
}

const TRAILING_ID = /(?:^|[ \t])\^([A-Za-z0-9-]+)[ \t]*$/;

/**
 * The block id rule of a tracker line, for every reader and writer: the ids at the end of the line
 * (`… ^t-006`, or `… ^t-006 ^am-k3f9` after another plugin moved a link fragment) are read from the
 * end; the item's id is the last of them that is not a journal block id (`am-…`), and those are
 * reported as displaced source fragments. An `^am-…` inside a link (`[[J#^am-k3f9]]`) is never an id.
 * Only text at or after `from` (the end of the checkbox) is looked at.
 */
export function splitBlockIds(line: string, from: number): LineIds {
  let end = line.trimEnd().length;
  const found: string[] = [];
  let contentEnd = end;
  for (;;) {
    const m = TRAILING_ID.exec(line.slice(0, end));
    if (!m || m.index < from - 1 || m[1] === undefined) break;
    found.unshift(m[1]);
    contentEnd = m.index;
    end = m.index;
  }
  let id: string | null = null;
  const displaced: string[] = [];
  for (const f of found) {
    if (isJournalBlockId(f)) displaced.push(f);
    else id = f;
  }
  return { id, contentEnd, displaced };
}

/**
 * Names in a field that names people or agents (`to`, `owner`): wikilink targets (last path part,
 * without `#heading`), else comma- or semicolon-separated words; a leading `@` is dropped.
 * `undefined` or `null`: none. The inbox reads `to` with it (`recipients`), listings and the brief
 * read `owner`.
 * @example namesIn("[[Memory/Agents/ming]], [[me]]") // ["ming", "me"]
 */
export function namesIn(value: string | null | undefined): string[] {
  if (value === undefined || value === null) return [];
  const links = wikilinkTargets(value);
  const names = links.length > 0 ? links.map((t) => t.split("#")[0] ?? t) : value.split(/[,;]/);
  return names
    .map((n) => (n.split("/").pop() ?? n).trim().replace(/^@/, ""))
    .filter((n) => n !== "");
}

/**
 * Who owns an item other than `agent` (whose tracker holds it): its `owner` names
 * ({@link namesIn}) without `agent` (case ignored), joined by `, `; `null` when it has no owner or
 * only `agent` owns it.
 */
export function otherOwner(
  fields: readonly { key: string; value: string }[],
  agent: string,
): string | null {
  const me = agent.toLowerCase();
  const names = namesIn(fieldValue(fields, FIELD_KEYS.owner)).filter((n) => n.toLowerCase() !== me);
  return names.length > 0 ? names.join(", ") : null;
}

/**
 * True when fields (of a tracker item or a callout, read with {@link fieldValue}) mark the entry
 * as superseded: a `superseded_by` link or a `valid_to` date (docs/contradictions.md). Here, beside
 * the field keys, so every folder that reads fields can ask; knowledge/supersede.ts re-exports it.
 */
export function isSuperseded(fields: readonly { key: string; value: string }[]): boolean {
  return Boolean(
    fieldValue(fields, FIELD_KEYS.supersededBy)?.trim() ||
    fieldValue(fields, FIELD_KEYS.validTo)?.trim(),
  );
}
