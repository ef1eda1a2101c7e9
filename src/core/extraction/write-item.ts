/**
 * Writing of planned items (docs/architecture.md, "An extraction run"): `writeItem` applies one
 * planned item to a note's current text, checking duplicates again so re-application is harmless;
 * `writeItems` applies a note's items in order.
 */
import { MemoryError } from "../errors";
import type { MemoryLayout } from "../layout";
import type { Category, TrackerKind } from "../settings";
import { listItems, type TrackerItem } from "../trackers/format";
import { newItemFields } from "../trackers/new-item";
import { FIELD_KEYS } from "../trackers/fields";
import {
  TrackerEditor,
  addItemSource,
  addProgressNote,
  addTrackerItem,
  type EditResult,
} from "../trackers/store";
import {
  formatWikilink,
  toWikilink,
  unwrapWikilink,
  wikilinkTargets,
  noteName,
} from "../markdown/wikilinks";
import {
  TopicEditor,
  type EntryChanges,
  type TopicEntry,
  type TopicEntryInput,
  type TopicMeta,
} from "../knowledge/topic";
import {
  SUPERSEDES_KEY,
  calloutBlockId,
  isSuperseded,
  supersedeTrackerItem,
} from "../knowledge/supersede";
import {
  EntryMatcher,
  citesBlock,
  matchTrackerItem,
  sourceLink,
  sourcesOf,
  topicMatcher,
  trackerMatcher,
} from "./destination-match";
import { supersededCallout } from "./supersession";
import { findRestatement } from "./contradiction";
import { calloutKind } from "./route-topic";
import type { ExtractedItem, PlannedItem } from "./types";

/**
 * The tracker kind whose rules ({@link newItemFields}) an item of each category follows, whichever
 * tracker it is placed in; insights and patterns have none.
 */
const CATEGORY_KIND: Readonly<Record<Category, TrackerKind | null>> = {
  task: "tasks",
  goal: "goals",
  improvement: "proposals",
  decision: "decisions",
  question: "questions",
  knowledge: null,
  pattern: null,
};

/**
 * Fields of a new tracker line for an extracted item ({@link newItemFields}, by the kind its
 * category follows): `link` is its source, `supersedes` a wikilink to the item it supersedes; an
 * improvement is written `proposed`.
 */
export function trackerFields(
  item: ExtractedItem,
  date: string,
  link: string,
  supersedes?: string,
): [string, string][] {
  const carried = item.fields ?? [];
  const fields = newItemFields(CATEGORY_KIND[item.category], {
    date,
    source: link,
    state: item.category === "improvement" ? "proposed" : undefined,
    to: item.target ? toWikilink(item.target) : undefined,
    owner: item.owner,
    due: item.due,
    priority: carried.find(([key]) => key === FIELD_KEYS.priority)?.[1],
    topic: item.topic ? toWikilink(item.topic) : undefined,
    supersedes,
  });
  // The journal line's own fields, as written; never a second value for a key written above.
  const written = new Set(fields.map(([key]) => key));
  for (const [key, value] of carried) if (!written.has(key)) fields.push([key, value]);
  return fields;
}

/** The edited text, or an error naming the note when the edit could not be made (never a silent no-op). */
function edited(result: EditResult, path: string, what: string): string {
  if (!result.ok) throw new MemoryError(`cannot ${what} in ${path}: ${result.error.message}`, path);
  return result.value.text;
}

export interface WriteContext {
  agent: string;
  journal: string;
  /** The journal's date, `YYYY-MM-DD`: `created` fields and callout dates. */
  date: string;
  /** Time of the write, ISO 8601 with offset: `created_at` / `updated_at` of notes. */
  timestamp: string;
  layout: MemoryLayout;
  /**
   * Ids given to new tracker items in this write, by the id the plan expected them to get
   * ({@link PlannedItem.newId}); progress on a goal of the same run goes to the id it got.
   */
  created?: Map<string, string>;
}

/**
 * Applies one planned item to a note's current text (`null`: the note does not exist yet) and
 * returns the new text. Duplicates are checked again on the current text
 * (test/core/extraction/extraction-pipeline.test.ts, "case 07: …" and "case 10: …").
 */
export function writeItem(
  current: string | null,
  planned: PlannedItem,
  ctx: WriteContext,
): string | null {
  const { item } = planned;
  const link = sourceLink(ctx.journal, item.blockId);
  if (planned.tracker) {
    const kind = planned.tracker;
    const items = current === null ? [] : listItems(current);
    const existingId =
      planned.sameRun && planned.existingId
        ? (ctx.created?.get(planned.existingId) ?? planned.existingId)
        : planned.existingId;
    const byId = existingId ? items.find((it) => it.id === existingId) : undefined;
    if (planned.action === "progress" && byId?.id && current !== null) {
      if (byId.children.some((c) => citesBlock(wikilinkTargets(c), link))) return current;
      return edited(
        addProgressNote(current, byId.id, `${item.text} (${link})`, ctx.date, planned.destination),
        planned.destination,
        "add a progress note",
      );
    }
    const match = byId
      ? { item: byId, recorded: citesBlock(wikilinkTargets(sourcesOf(byId)), link) }
      : matchTrackerItem(items, item.text, kind, link);
    // A reworded block's item supersedes the entry it reads as a duplicate of (rewordedEntry).
    const rewording =
      planned.supersedes?.reason === "reworded" && match?.item.id === planned.supersedes.id;
    if (match && current !== null && !rewording) {
      if (match.recorded || !match.item.id) return current;
      return edited(
        addItemSource(current, match.item.id, link, planned.destination),
        planned.destination,
        "add a source",
      );
    }
    // The item it supersedes, if it is still there and current (a person may have settled it meanwhile).
    const old =
      planned.action === "supersede" && planned.supersedes
        ? items.find((it) => it.id === planned.supersedes?.id && !isSuperseded(it.fields))
        : undefined;
    const oldLink = old?.id
      ? formatWikilink({ path: planned.destination, blockId: old.id })
      : undefined;
    const status = item.category === "decision" ? "done" : (item.status ?? "open");
    const added = addTrackerItem(
      current,
      kind,
      {
        text: item.text,
        status,
        fields: trackerFields(item, ctx.date, link, oldLink),
        ...(planned.newId ? { id: planned.newId } : {}),
      },
      {
        agent: ctx.agent,
        title: noteName(planned.destination),
        createdAt: ctx.timestamp,
      },
    );
    if (planned.newId) ctx.created?.set(planned.newId, added.id);
    if (!old?.id) return added.text;
    const cancel = planned.supersedes?.reason === "reworded" && kind !== "decisions";
    return edited(
      supersedeTrackerItem(
        added.text,
        old.id,
        formatWikilink({ path: planned.destination, blockId: added.id }),
        ctx.date,
        planned.destination,
        cancel,
      ),
      planned.destination,
      "mark as superseded",
    );
  }
  if (planned.topic) {
    const topic = new TopicWriter(current);
    topic.write(planned, ctx);
    return topic.text();
  }
  return current;
}

/**
 * Applies a note's planned items in order to its current text, as `writeItem` one after the other
 * would (docs/decisions.md, "Applying parses each note once"): new tracker items and sources
 * added to tracker items are written to a note parsed once ({@link TrackerEditor}) and checked
 * for duplicates through an index ({@link trackerMatcher}); every other item goes through
 * {@link writeItem} on the text so far.
 */
export function writeItems(
  current: string | null,
  group: readonly PlannedItem[],
  ctx: WriteContext,
): string | null {
  let text = current;
  let fast: FastTracker | null = null;
  let topic: TopicWriter | null = null;
  for (const planned of group) {
    if (planned.topic && !planned.tracker) {
      if (fast) {
        text = fast.text();
        fast = null;
      }
      topic ??= new TopicWriter(text);
      topic.write(planned, ctx);
      continue;
    }
    if (topic) {
      text = topic.text();
      topic = null;
    }
    if (fast?.write(planned, ctx)) continue;
    if (
      !fast &&
      planned.tracker &&
      (planned.action === "add" || planned.action === "add-source") &&
      text !== null &&
      text.trim() !== ""
    ) {
      const editor: FastTracker = new FastTracker(text, planned.tracker, planned.destination);
      if (editor.write(planned, ctx)) {
        fast = editor;
        continue;
      }
    }
    if (fast) {
      text = fast.text();
      fast = null;
    }
    text = writeItem(text, planned, ctx);
  }
  return fast ? fast.text() : topic ? topic.text() : text;
}

/**
 * {@link writeItem}'s topic branch on a note parsed once ({@link TopicEditor}), its callouts
 * checked for duplicates through an index ({@link topicMatcher}) kept up to date with every edit.
 */
class TopicWriter {
  private readonly editor: TopicEditor;
  private matcher: EntryMatcher<TopicEntry> | null = null;
  /** Index in {@link matcher} of each callout. */
  private readonly slots = new Map<TopicEntry, number>();

  constructor(current: string | null) {
    this.editor = new TopicEditor(current);
    this.editor.onReset = () => (this.matcher = null);
    this.editor.onEdit = (changes) => this.track(changes);
  }

  text(): string | null {
    return this.editor.text();
  }

  /** Writes a planned topic item as {@link writeItem} does. */
  write(planned: PlannedItem, ctx: WriteContext): void {
    const { item } = planned;
    const topic = planned.topic;
    if (!topic) return;
    const { editor } = this;
    const link = sourceLink(ctx.journal, item.blockId);
    const kind = calloutKind(item);
    let dup = this.duplicate(item.text, link);
    if (
      planned.action === "supersede" &&
      planned.supersedes?.reason === "reworded" &&
      dup !== undefined &&
      dup === supersededCallout(editor.entries, planned.supersedes, kind)
    )
      dup = undefined; // a reworded block's item supersedes the callout it reads as a duplicate of
    // A planned restatement (docs/contradictions.md, "The rule"), checked again on the current text.
    if (dup === undefined && planned.action === "add-source")
      dup = restatedCallout(editor.entries, item);
    if (dup && citesBlock(dup.sources, link)) return;
    if (dup && editor.exists()) {
      editor.addSource(dup, unwrapWikilink(link), planned.destination);
      return;
    }
    const category = planned.destination.split("/").slice(-2, -1)[0];
    const old =
      planned.action === "supersede" && editor.exists()
        ? supersededCallout(editor.entries, planned.supersedes, kind)
        : undefined;
    // The other current facts it contradicts, still there and current, are superseded by it too.
    const others = old
      ? (planned.supersedes?.also ?? []).flatMap((other) => {
          const e = supersededCallout(editor.entries, { ...other, reason: "value" }, kind);
          return e ? [e] : [];
        })
      : [];
    appendCalloutTo(
      editor,
      {
        title: topic.title,
        agent: ctx.agent,
        ...(category ? { category } : {}),
        type: ctx.layout.collectionOf(planned.destination) === "library" ? "library" : "knowledge",
        createdAt: ctx.timestamp,
        path: planned.destination,
      },
      {
        kind,
        heading: topic.heading,
        date: ctx.date,
        confidence: item.confidence,
        text: item.text,
        source: unwrapWikilink(link),
      },
      old,
      others,
    );
  }

  /** The callout `text` duplicates ({@link topicDuplicate}), or `undefined`. */
  private duplicate(text: string, link: string): TopicEntry | undefined {
    let { matcher } = this;
    if (!matcher) {
      const entries = [...this.editor.entries];
      this.slots.clear();
      entries.forEach((e, i) => this.slots.set(e, i));
      matcher = this.matcher = topicMatcher(entries, true);
    }
    const found = matcher.match(text, link);
    return found ? matcher.entries[found.index] : undefined;
  }

  /** Brings {@link matcher} up to date with an edit (or drops it, to be made again, when callouts went or lost sources). */
  private track(changes: EntryChanges): void {
    const { matcher } = this;
    if (!matcher) return;
    const kept = changes.replaced.every(
      ([old, now]) => this.slots.has(old) && old.sources.every((s) => now.sources.includes(s)),
    );
    if (changes.removed.length > 0 || !kept) {
      this.matcher = null;
      return;
    }
    for (const [old, now] of changes.replaced) {
      const i = this.slots.get(old) ?? -1;
      this.slots.delete(old);
      this.slots.set(now, i);
      matcher.replace(i, now);
    }
    for (const added of changes.added) {
      this.slots.set(added, matcher.entries.length);
      matcher.push(added);
    }
  }
}

/** {@link writeItem}'s tracker branch for new items and added sources, on a note parsed once. */
class FastTracker {
  private readonly editor: TrackerEditor;
  private readonly matcher: EntryMatcher<TrackerItem>;
  /** Index of the first item with each id. */
  private readonly byId = new Map<string, number>();

  constructor(
    text: string,
    private readonly kind: TrackerKind,
    private readonly path: string,
  ) {
    this.editor = new TrackerEditor(text, path);
    this.matcher = trackerMatcher([...this.editor.items], kind);
    this.editor.items.forEach((it, i) => this.noteId(it, i));
  }

  /** Writes `planned` as {@link writeItem} would and returns true, or returns false having changed nothing. */
  write(planned: PlannedItem, ctx: WriteContext): boolean {
    if (planned.tracker !== this.kind || planned.destination !== this.path || planned.sameRun)
      return false;
    if (planned.action !== "add" && planned.action !== "add-source") return false;
    if (!this.editor.hasItems()) return false;
    const { item } = planned;
    const link = sourceLink(ctx.journal, item.blockId);
    const at = planned.existingId ? this.byId.get(planned.existingId) : undefined;
    const byId = at === undefined ? undefined : this.matcher.entries[at];
    const match =
      byId && at !== undefined
        ? { index: at, recorded: citesBlock(wikilinkTargets(sourcesOf(byId)), link) }
        : this.matcher.match(item.text, link);
    if (match) {
      const found = this.matcher.entries[match.index];
      if (match.recorded || !found?.id) return true;
      // addItemSource edits the first item with the id, as writeItem does.
      const first = this.byId.get(found.id) ?? match.index;
      this.matcher.replace(first, this.editor.addSource(first, link));
      return true;
    }
    const status = item.category === "decision" ? "done" : (item.status ?? "open");
    const added = this.editor.add(this.kind, {
      text: item.text,
      status,
      fields: trackerFields(item, ctx.date, link),
      ...(planned.newId ? { id: planned.newId } : {}),
    });
    const index = this.matcher.entries.length;
    this.matcher.push(added.item);
    this.noteId(added.item, index);
    if (planned.newId) ctx.created?.set(planned.newId, added.id);
    return true;
  }

  text(): string {
    return this.editor.text();
  }

  private noteId(item: TrackerItem, index: number): void {
    if (item.id !== null && !this.byId.has(item.id)) this.byId.set(item.id, index);
  }
}

/**
 * The current callout of the item's kind that the item restates (the statement rule's
 * `restatement`), or `undefined`.
 */
function restatedCallout(
  entries: readonly TopicEntry[],
  item: ExtractedItem,
): TopicEntry | undefined {
  const kind = calloutKind(item);
  const live = entries.filter((e) => e.kind === kind && !isSuperseded(e.fields));
  return live[findRestatement(item.text, live, (e) => e.text)];
}

/**
 * Appends a callout to a topic note's current text (`appendTopicEntry`) and, when `old` is given
 * (a current callout of the note the new one supersedes), marks the supersession both ways
 * (docs/contradictions.md, "What is written"): the new callout gets `[supersedes:: …]` and a block
 * id, the old one `[valid_to:: entry.date] [superseded_by:: …]` (and a block id when it had none).
 * Throws {@link MemoryError} when `old` is no longer in the note.
 * @returns the new text, and with `old` the block ids of the old and the new callout
 */
export function appendCallout(
  current: string | null,
  meta: TopicMeta,
  entry: TopicEntryInput,
  old?: TopicEntry,
): { text: string; oldId?: string; newId?: string } {
  const editor = new TopicEditor(current);
  const ids = appendCalloutTo(editor, meta, entry, old);
  return { text: editor.text() ?? "", ...ids };
}

/**
 * {@link appendCallout} on a note being edited, superseding `old` and then each of `others` (the
 * other current callouts the new one contradicts; one no longer there or no longer current is
 * left out): the new callout's `[supersedes:: …]` names every one it superseded, and each of them
 * gets `[superseded_by:: …]`. @returns with `old` the block ids of the old and the new callout
 * @throws MemoryError when `old` is no longer in the note
 */
function appendCalloutTo(
  editor: TopicEditor,
  meta: TopicMeta,
  entry: TopicEntryInput,
  old?: TopicEntry,
  others: readonly TopicEntry[] = [],
): { oldId?: string; newId?: string } {
  const path = meta.path ?? "";
  if (!old || !editor.exists()) {
    editor.append(meta, entry);
    return {};
  }
  const taken = new Set(editor.blockIds());
  const newId = calloutBlockId(`${path}\n${entry.text}`, taken);
  taken.add(newId);
  const replaced = [old, ...others.filter((o) => o !== old)].map((e) => {
    const oldId = e.id ?? calloutBlockId(`${path}\n${e.text}`, taken);
    taken.add(oldId);
    return { entry: e, oldId };
  });
  const links = replaced.map((r) => formatWikilink({ path, blockId: r.oldId })).join(", ");
  editor.append(meta, {
    ...entry,
    fields: [[SUPERSEDES_KEY, links]] as [string, string][],
    id: newId,
  });
  let first: string | undefined;
  for (const r of replaced) {
    const marked = editor.supersede(
      { ...(r.entry.id ? { id: r.entry.id } : {}), text: r.entry.text },
      path,
      { newId, oldId: r.oldId },
      entry.date,
    );
    if (!marked)
      throw new MemoryError(
        `cannot mark as superseded in ${path}: the callout is no longer there`,
        path,
      );
    first ??= marked.oldId;
  }
  return { oldId: first ?? replaced[0]?.oldId ?? "", newId };
}
