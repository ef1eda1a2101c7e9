/**
 * Tracker store (docs/architecture.md, "Trackers"): pure text operations on a tracker note, each
 * `(text, …) => result`, meant to run inside `VaultPort.process` so they always see the current
 * content (test/core/extraction/extraction-pipeline.test.ts, "case 07: …").
 *
 * Every operation edits only the lines it concerns and keeps the rest byte for byte; items are never
 * removed or renumbered (docs/architecture.md, "Invariants";
 * test/core/trackers/trackers-store.test.ts, "case 10: …").
 *
 * A missing id is not an error: operations return an {@link EditResult} failure with
 * `found: false` (the text is left as it was), so the caller decides what to report. A note whose frontmatter does not parse is
 * never rewritten: mutating operations throw {@link FrontmatterError} naming `path`
 * (docs/architecture.md, "The health check").
 */
import type { TrackerKind } from "../settings";
import { setFrontmatter } from "../frontmatter";
import { err, ok, type Result } from "../util/result";
import {
  FIELD_KEYS,
  OLD_STATE_KEY,
  STATE_KEY,
  fieldIndex,
  isTasksField,
  orderFields,
  priorityWord,
  tasksFieldRank,
} from "./fields";
import {
  KIND_PREFIX,
  STATUS_CHAR,
  blockIdsOf,
  itemAt,
  newItemId,
  parseTracker,
  scanItemLine,
  serializeTracker,
  type FieldSpan,
  type ItemLineScan,
  type TrackerItem,
  type TrackerNote,
  type TrackerStatus,
} from "./format";
import { appendLines, assertWritable, insertLines, splitLines } from "../markdown/lines";
import { linkTarget, toWikilink, wikilinkTargets } from "../markdown/wikilinks";
import { collapseWhitespace } from "../markdown/text";
import { cryptoRandom, type RandomSource } from "../util/ids";

/** An edit that found its item: the new text, and whether it had to change for the requested state. */
export interface Edited {
  text: string;
  changed: boolean;
}

/** Why an edit did nothing: no item with that id (`found: false`), or a value that would break the line. */
export interface EditFailure {
  found: boolean;
  message: string;
}

/**
 * Result of an edit: {@link Edited} when the item was found and now has the requested state, an
 * {@link EditFailure} when nothing was done (the text is then the caller's input, unchanged).
 */
export type EditResult = Result<Edited, EditFailure>;

/** A new tracker item for {@link addTrackerItem}. */
export interface NewTrackerItem {
  /** One line of text; line breaks become spaces. */
  text: string;
  /** Default `open`. */
  status?: TrackerStatus;
  /**
   * Inline fields, e.g. `[["source", "[[2026-03-24#^am-k3f9]]"], ["created", "2026-03-24"]]`. They are
   * written in the tracker line order (`orderFields`: ours as given, then Tasks' in its order); a
   * priority is written as Tasks' word (`1` → `high`), and `status` as our `state`.
   */
  fields: [string, string][];
  /**
   * Lines under the item. Each is written as an indented list line `    - <child>`; a child that
   * already starts with whitespace is written as given.
   */
  children?: string[];
  /**
   * The id to give it (without `^`), e.g. the one a plan showed; used only when no line of the note
   * has it, else a new one is drawn.
   */
  id?: string;
}

/** Frontmatter facts for a tracker note created by {@link addTrackerItem}. */
export interface TrackerMeta {
  agent: string;
  /** Heading of a new note, e.g. `Tasks`. */
  title: string;
  /** ISO 8601 timestamp, written as `created_at` as given. */
  createdAt: string;
}

/** The item with block id `id` (without `^`), or `null`. Items without an id are never matched. */
export function findItem(text: string, id: string): TrackerItem | null {
  return parseTracker(text).items.find((item) => item.id === id) ?? null;
}

/**
 * Adds a new item with a new random id of its kind (`t-k3f9x2m7qa`, drawn from `random`; docs/decisions.md,
 * "Random item ids across clones") after the last item of the note (at the end when it has none).
 * When `current` is `null` (or blank: an empty note a person just made) the note is created with frontmatter (`id`, `type: tracker`, `agent`,
 * `kind`, `status: active`, `created_at`) and a `# <title>` heading. The file's line ending is kept;
 * a file without a final newline gets one before the new line, and the new lines end with one.
 * Throws {@link FrontmatterError} when the existing frontmatter does not parse.
 * @returns the new text and the new item's id.
 */
export function addTrackerItem(
  current: string | null,
  kind: TrackerKind,
  item: NewTrackerItem,
  meta: TrackerMeta,
  path = "tracker note",
  random: RandomSource = cryptoRandom,
): { text: string; id: string } {
  const base =
    current !== null && current.trim() !== "" ? current : newTrackerNote(kind, meta, path);
  const note = parseTracker(base);
  assertWritable(note, path);
  const id = pickId(item.id, KIND_PREFIX[kind], blockIdsOf(note.lines), random);
  const lines = newItemLines(item, id);
  // After the last item (and its children), so a person's sections and notes below the list
  // ("## Someday", a closing paragraph) stay below it; at the end when there is no item yet.
  const last = note.items[note.items.length - 1];
  if (last) insertLines(note.lines, last.endLine, lines, note.eol);
  else appendLines(note.lines, lines, note.eol);
  return { text: serializeTracker(note), id };
}

/** `wanted` when it is free in `taken`, else a new random id of `prefix`. */
function pickId(
  wanted: string | undefined,
  prefix: string,
  taken: ReadonlySet<string>,
  random: RandomSource,
): string {
  const id = wanted?.replace(/^\^/, "");
  return id && /^[A-Za-z0-9-]+$/.test(id) && !taken.has(id) ? id : newItemId(prefix, taken, random);
}

/** The line of a new item with block id `id`, and its children's lines. */
function newItemLines(item: NewTrackerItem, id: string): string[] {
  const fields = orderFields(
    item.fields.map(([key, value]) =>
      normalizedField(collapseWhitespace(key), collapseWhitespace(value)),
    ),
  )
    .map(({ key, value }) => ` [${key}:: ${value}]`)
    .join("");
  const text = collapseWhitespace(item.text).replace(/[ \t]\^[A-Za-z0-9-]+$/, "");
  const line = `- [${STATUS_CHAR[item.status ?? "open"]}] ${text}${fields} ^${id}`;
  const children = (item.children ?? []).map((c) =>
    /^[ \t]/.test(c) ? c.replace(/[\r\n]+/g, " ") : `    - ${collapseWhitespace(c)}`,
  );
  return [line, ...children];
}

/**
 * A tracker note parsed once for many edits (docs/decisions.md, "Applying parses each note
 * once"): extraction adds a whole plan's items to one note, and parsing it again for each item
 * made a run quadratic in its items. {@link add} and {@link addSource} change the parsed note in
 * place exactly as {@link addTrackerItem} and {@link addItemSource} change its text, so
 * {@link text} after any sequence of them is what that sequence of calls gives
 * (test/core/trackers/trackers-store.test.ts, "TrackerEditor …").
 */
export class TrackerEditor {
  private readonly note: TrackerNote;
  private taken: Set<string> | null = null;

  /**
   * `text` must be a note that already has an item ({@link hasItems}); else use {@link addTrackerItem}.
   * New ids are drawn from `random`.
   */
  constructor(
    text: string,
    private readonly path = "tracker note",
    private readonly random: RandomSource = cryptoRandom,
  ) {
    this.note = parseTracker(text);
  }

  get items(): readonly TrackerItem[] {
    return this.note.items;
  }

  hasItems(): boolean {
    return this.note.items.length > 0;
  }

  /** As {@link addTrackerItem} on {@link text}. @returns the new item and its id. */
  add(kind: TrackerKind, item: NewTrackerItem): { id: string; item: TrackerItem } {
    const { note } = this;
    assertWritable(note, this.path);
    const last = note.items[note.items.length - 1];
    if (!last) throw new Error("TrackerEditor.add needs a note with an item");
    this.taken ??= blockIdsOf(note.lines);
    const id = pickId(item.id, KIND_PREFIX[kind], this.taken, this.random);
    const lines = newItemLines(item, id);
    const at = last.endLine;
    insertLines(note.lines, at, lines, note.eol);
    for (const added of blockIdsOf(note.lines.slice(at, at + lines.length))) this.taken.add(added);
    const parsed = itemAt(note.lines, at);
    if (!parsed)
      throw new Error(`TrackerEditor.add: the new line is not an item: ${lines[0] ?? ""}`);
    note.items.push(parsed);
    return { id, item: parsed };
  }

  /**
   * As {@link addItemSource} on {@link text} for the item at `index` of {@link items} (the first
   * with its id). @returns the item as it is now.
   */
  addSource(index: number, link: string): TrackerItem {
    const { note } = this;
    const item = note.items[index];
    if (!item) throw new Error(`TrackerEditor.addSource: no item ${index}`);
    assertWritable(note, this.path);
    if (!sourceEdit(link)(note, item)) return item;
    const parsed = itemAt(note.lines, item.line);
    if (!parsed || parsed.endLine !== item.endLine)
      throw new Error("TrackerEditor.addSource: the item changed shape");
    note.items[index] = parsed;
    return parsed;
  }

  text(): string {
    return serializeTracker(this.note);
  }
}

/** Frontmatter and title of a new tracker note (docs/architecture.md, "Frontmatter"). */
function newTrackerNote(kind: TrackerKind, meta: TrackerMeta, path: string): string {
  const fields = {
    id: `${meta.agent}-${kind}`,
    type: "tracker",
    agent: meta.agent,
    kind,
    status: "active",
    created_at: meta.createdAt,
  };
  return setFrontmatter(`# ${collapseWhitespace(meta.title)}\n\n`, fields, path);
}

/**
 * Sets an item's status character (`x` for done) and the Tasks date fields that go with it
 * (docs/architecture.md, "Trackers"): done gets `[completion:: date]`, abandoned `[cancelled::
 * date]` (each replacing the other), open and in progress lose both. `date` is the day of the
 * change, `YYYY-MM-DD`; without it no date field is added (the old ones are still removed). Already
 * in that status (`X` counts as done): unchanged.
 */
export function setItemStatus(
  text: string,
  id: string,
  status: TrackerStatus,
  path = "tracker note",
  date?: string,
): EditResult {
  return editItem(text, id, path, (note, item) => {
    if (item.status === status) return false;
    const line = note.lines[item.line];
    const scan = line ? scanItemLine(line.text) : null;
    if (!line || !scan) return false;
    let t =
      line.text.slice(0, scan.statusIndex) +
      STATUS_CHAR[status] +
      line.text.slice(scan.statusIndex + 1);
    t = removeFields(t, [FIELD_KEYS.completion, FIELD_KEYS.cancelled]);
    const dateKey =
      status === "done"
        ? FIELD_KEYS.completion
        : status === "abandoned"
          ? FIELD_KEYS.cancelled
          : null;
    if (dateKey && date) t = withField(t, dateKey, collapseWhitespace(date));
    line.text = t;
    return true;
  });
}

/**
 * Adds a progress note `    - YYYY-MM-DD: note` under the item, after its existing children
 * (docs/architecture.md, "Trackers"). The indentation of an existing child list line is reused. The
 * same line already under the item: unchanged (re-running extraction adds nothing;
 * test/core/trackers/trackers-store.test.ts, "case 10: …").
 */
export function addProgressNote(
  text: string,
  id: string,
  note: string,
  date: string,
  path = "tracker note",
): EditResult {
  return editItem(text, id, path, (parsed, item) => {
    const body = `- ${collapseWhitespace(date)}: ${collapseWhitespace(note)}`;
    if (item.children.some((c) => c.trim() === body)) return false;
    const indent =
      item.children.map((c) => /^([ \t]+)[-*+][ \t]/.exec(c)?.[1]).find((x) => x !== undefined) ??
      "    ";
    insertLines(parsed.lines, item.endLine, [indent + body], parsed.eol);
    return true;
  });
}

/**
 * Adds a source link to the item's `[source:: …]` field (several are comma-separated:
 * `[source:: [[a#^x]], [[b#^y]]]`), or adds the field before the block id. `link` is a wikilink or
 * its target (`2026-03-24#^am-k3f9`). A link already there (same target, alias ignored): unchanged
 * (test/core/trackers/trackers-store.test.ts, "case 10: …").
 */
export function addItemSource(
  text: string,
  id: string,
  link: string,
  path = "tracker note",
): EditResult {
  return editItem(text, id, path, sourceEdit(link));
}

/** {@link addItemSource}'s change of a parsed note's item line; true when it changed. */
function sourceEdit(link: string): (note: TrackerNote, item: TrackerItem) => boolean {
  const wikilink = toWikilink(link);
  const target = linkTarget(wikilink);
  return (note, item) => {
    const line = note.lines[item.line];
    const scan = line ? scanItemLine(line.text) : null;
    if (!line || !scan) return false;
    const field = scan.fields[fieldIndex(scan.fields, FIELD_KEYS.source)];
    if (!field) {
      line.text = insertField(line.text, scan, FIELD_KEYS.source, wikilink);
      return true;
    }
    if (wikilinkTargets(field.value).includes(target)) return false;
    line.text = replaceField(
      line.text,
      field,
      field.value ? `${field.value}, ${wikilink}` : wikilink,
    );
    return true;
  };
}

/**
 * Sets an inline field's value (the field `fieldValue` reads: the last with that key, compared
 * without case), or adds the field at its place in the line order (a key of ours before the first
 * Tasks field, a Tasks key among Tasks' fields in their order). Used for a review's `next` date. Line breaks in `value` become spaces;
 * a value with unbalanced brackets is refused (`reason`), since it would end the field early.
 */
export function setItemField(
  text: string,
  id: string,
  key: string,
  value: string,
  path = "tracker note",
): EditResult {
  const v = collapseWhitespace(value);
  const k = collapseWhitespace(key);
  if (!balanced(v) || !k || /[[\]():]/.test(k)) {
    const found = findItem(text, id) !== null;
    const reason = found
      ? `^${id}: cannot write field ${JSON.stringify(k)} with value ${JSON.stringify(v)} (brackets would break the line)`
      : `no item ^${id}`;
    return err({ found, message: reason });
  }
  return editItem(text, id, path, (note, item) => {
    const line = note.lines[item.line];
    const scan = line ? scanItemLine(line.text) : null;
    if (!line || !scan) return false;
    const field = scan.fields[fieldIndex(scan.fields, k)];
    if (!field) {
      line.text = insertField(line.text, scan, k, v);
      return true;
    }
    if (field.value === v) return false;
    line.text = replaceField(line.text, field, v);
    return true;
  });
}

/** Parses, finds the item, lets `edit` change lines in place (returning whether it did), serialises. */
function editItem(
  text: string,
  id: string,
  path: string,
  edit: (note: TrackerNote, item: TrackerItem) => boolean,
): EditResult {
  const note = parseTracker(text);
  const item = note.items.find((it) => it.id === id);
  if (!item) return err({ found: false, message: `no item ^${id}` });
  assertWritable(note, path);
  if (!edit(note, item)) return ok({ text, changed: false });
  const out = serializeTracker(note);
  return ok({ text: out, changed: out !== text });
}

/**
 * Where a new field `key` goes in a scanned line: a key of ours before the first Tasks field (so
 * Tasks, reading from the end, still reaches all of its own), a Tasks key before the first Tasks
 * field that comes after it in `TASKS_FIELD_ORDER`; else at the end of the content.
 */
function insertionPoint(scan: ItemLineScan, key: string): number {
  const rank = tasksFieldRank(key);
  const later = scan.fields.find(
    (f) => f.open !== "emoji" && isTasksField(f.key) && (rank < 0 || tasksFieldRank(f.key) > rank),
  );
  return later ? later.start : scan.contentEnd;
}

function insertField(line: string, scan: ItemLineScan, key: string, value: string): string {
  const at = insertionPoint(scan, key);
  if (at < scan.contentEnd) return `${line.slice(0, at)}[${key}:: ${value}] ${line.slice(at)}`;
  return `${line.slice(0, at)} [${key}:: ${value}]${line.slice(at)}`;
}

/** The line with field `key` set to `value` (the field read, else a new one at its place). */
function withField(line: string, key: string, value: string): string {
  const scan = scanItemLine(line);
  if (!scan) return line;
  const field = scan.fields[fieldIndex(scan.fields, key)];
  return field ? replaceField(line, field, value) : insertField(line, scan, key, value);
}

/** The line without any field whose key is one of `keys` (case ignored), nor the whitespace before each. */
function removeFields(line: string, keys: readonly string[]): string {
  const scan = scanItemLine(line);
  if (!scan) return line;
  const wanted = new Set(keys.map((k) => k.toLowerCase()));
  let out = line;
  for (const f of [...scan.fields].reverse()) {
    if (!wanted.has(f.key.toLowerCase())) continue;
    let start = f.start;
    while (start > 0 && (out[start - 1] === " " || out[start - 1] === "\t")) start--;
    if (out[start - 1] === ",") start--;
    out = out.slice(0, start) + out.slice(f.end);
  }
  return out;
}

function replaceField(line: string, field: FieldSpan, value: string): string {
  if (field.open === "emoji")
    return `${line.slice(0, field.start)}[${field.key}:: ${value}]${line.slice(field.end)}`;
  const close = field.open === "[" ? "]" : ")";
  return `${line.slice(0, field.start)}${field.open}${field.key}:: ${value}${close}${line.slice(field.end)}`;
}

/**
 * A field as written today: a priority in Tasks' words, `status` as our `state` (docs/decisions.md,
 * "Tracker line order follows Tasks' reader").
 */
export function normalizedField(key: string, value: string): { key: string; value: string } {
  const lower = key.toLowerCase();
  if (lower === FIELD_KEYS.priority) return { key, value: priorityWord(value) ?? value };
  if (lower === OLD_STATE_KEY) return { key: STATE_KEY, value };
  return { key, value };
}

function balanced(s: string): boolean {
  let depth = 0;
  for (const ch of s) {
    if (ch === "[") depth++;
    else if (ch === "]" && --depth < 0) return false;
  }
  return depth === 0;
}
