/**
 * Routing and writing of single items (docs/architecture.md, "The checklist"; the table is a
 * setting).
 * `resolveRoute` decides, from the notes as they are now, where an item goes and whether it is new,
 * a duplicate (new source on the existing item) or progress on a goal. `writeItem` applies one
 * planned item to a note's current text, checking duplicates again so re-application is harmless.
 */
import { MemoryError, PathError, errorMessage } from "../errors";
import {
  DUPLICATE_THRESHOLD,
  SimilarityIndex,
  similarity,
  findDuplicate,
  sameItemText,
} from "./dedupe";
import { foldForMatch } from "../markdown/text";
import { SAME_SUBJECT_THRESHOLD, contradiction, findContradiction } from "./contradiction";
import { sameModelItem } from "./merge";
import type { MemoryLayout } from "../layout";
import type { Settings, TrackerKind } from "../settings";
import { TRACKER_KINDS } from "../settings";
import type { FileStat, VaultPort } from "../vault";
import {
  KIND_PREFIX,
  formatBlockId,
  listItems,
  maxBlockNumber,
  type TrackerItem,
} from "../trackers/format";
import { splitLines } from "../markdown/lines";
import { STATE_KEY, fieldValue } from "../trackers/fields";
import {
  TrackerEditor,
  addItemSource,
  addProgressNote,
  addTrackerItem,
  type EditResult,
} from "../trackers/store";
import { isOpenStatus } from "../trackers/status";
import {
  formatWikilink,
  linkTarget,
  toWikilink,
  unwrapWikilink,
  wikilinkTargets,
} from "../markdown/wikilinks";
import {
  addEntrySource,
  appendTopicEntry,
  listTopicEntries,
  topicKey,
  type EntryKind,
  type TopicEntry,
} from "../knowledge/topic";
import {
  SUPERSEDES_KEY,
  blockIdsIn,
  calloutBlockId,
  isSuperseded,
  supersedeCallout,
  supersedeTrackerItem,
} from "../knowledge/supersede";
import type { ExtractedItem, PlannedItem, RejectedItem, Supersession } from "./types";

/**
 * Progress that names no goal id joins the most similar goal when at least this similar
 * (multiset Jaccard, 0–1): a progress note words its goal loosely ("rubric drafted" under "Draft
 * the grading rubric"), so the bar is far below the duplicate threshold.
 */
const GOAL_MATCH_SIMILARITY = 0.3;
/** A progress note at least this similar to one already under the goal is the same note again (a re-run). */
const SAME_PROGRESS_SIMILARITY = 0.9;

/**
 * Callout kind for a topic entry of each category (docs/architecture.md, "Note formats": insight,
 * decision, pattern).
 */
const CALLOUT_KIND = { knowledge: "insight", decision: "decision", pattern: "pattern" } as const;

/** Wikilink to the journal block an item came from: `[[Memory/Agents/a/Journal/2026-11-24#^am-k3f9]]`. */
export function sourceLink(journal: string, blockId: string | null): string {
  return formatWikilink({ path: journal, blockId });
}

/**
 * The note name and block of a link target: `Memory/Agents/a/Journal/2026-11-24#^am-k3f9` and
 * `2026-11-24#^am-k3f9` point at the same block (Obsidian resolves a bare name to the note).
 */
function sourceKey(linkOrTarget: string): string {
  const [note = "", sub = ""] = linkTarget(linkOrTarget).split("#");
  return `${(note.split("/").pop() ?? note).replace(/\.md$/i, "").toLowerCase()}#${sub}`;
}

/** True when one of the link `targets` (as {@link wikilinkTargets} gives them) points at the same block as `link`. */
export function citesBlock(targets: readonly string[], link: string): boolean {
  const key = sourceKey(link);
  return targets.some((t) => sourceKey(t) === key);
}

/**
 * The read cache of one plan: each destination note is read once per plan (later reads of the same
 * path share the first), and the items planned as new are remembered for dedupe within the batch.
 * Made for one plan and dropped with it; applying the plan reads every note afresh.
 */
export class PlanReadCache {
  private readonly texts = new Map<string, Promise<string | null>>();
  /** Items planned as new in this batch, per destination path. */
  readonly planned = new Map<string, PlannedItem[]>();
  private topicIndex: Promise<Map<string, string>> | null = null;
  /** What each note read is parsed into, once per plan (docs/decisions.md, "A plan parses each note once"). */
  private readonly parsed = new Map<string, Promise<unknown>>();
  private readonly memo = new Map<string, unknown>();
  /** {@link planned} indexed for {@link inBatch}, per destination. */
  private readonly batches = new Map<string, BatchIndex>();
  /** Ids that items of {@link planned} supersede, per destination. */
  private readonly superseding = new Map<string, Set<string>>();

  constructor(private readonly vault: VaultPort) {}

  /** Current text of a note, or `null` when it does not exist. */
  text(path: string): Promise<string | null> {
    let t = this.texts.get(path);
    if (!t) {
      t = this.vault.exists(path).then((exists) => (exists ? this.vault.read(path) : null));
      this.texts.set(path, t);
    }
    return t;
  }

  /** The note's tracker items as read; the same array on every call (do not change it). */
  trackerItems(path: string): Promise<TrackerItem[]> {
    return this.parse(`items\u0000${path}`, async () => {
      const text = await this.text(path);
      return text === null ? [] : listItems(text);
    });
  }

  /** The note's topic entries as read; the same array on every call (do not change it). */
  topicEntries(path: string): Promise<TopicEntry[]> {
    return this.parse(`entries\u0000${path}`, async () => {
      const text = await this.text(path);
      return text === null ? [] : listTopicEntries(text);
    });
  }

  /** Highest number of a `^<prefix>-<n>` block id in the note as read ({@link maxBlockNumber}). */
  maxBlockNumber(path: string, prefix: string): Promise<number> {
    return this.parse(`max\u0000${prefix}\u0000${path}`, async () => {
      const text = await this.text(path);
      return maxBlockNumber(text === null ? [] : splitLines(text).lines, prefix);
    });
  }

  /** A value computed once per plan under `key` from what the plan read. */
  once<T>(key: string, make: () => T): T {
    if (this.memo.has(key)) return this.memo.get(key) as T;
    const value = make();
    this.memo.set(key, value);
    return value;
  }

  private parse<T>(key: string, make: () => Promise<T>): Promise<T> {
    let p = this.parsed.get(key) as Promise<T> | undefined;
    if (!p) {
      p = make();
      this.parsed.set(key, p);
    }
    return p;
  }

  /**
   * True when this run already plans `item` for the note
   * (docs/decisions.md, "Batch dedupe uses the merge rule"): the same text, or the same category and
   * evidence with related text, as one run's
   * model items are merged (merge.ts). An extractor that reads one block two ways (a keyword line
   * under a heading that names a category) then adds one item, not two with the same evidence and
   * block.
   */
  inBatch(destination: string, item: ExtractedItem): boolean {
    return this.batches.get(destination)?.has(item) ?? false;
  }

  /** Ids this run already supersedes in `destination` (do not change the set). */
  supersededIn(destination: string): ReadonlySet<string> {
    return this.superseding.get(destination) ?? EMPTY_SET;
  }

  /**
   * Existing topic notes of the agent by dedupe key (test/topic-notes.test.ts, "case 11: …") →
   * path. `listed` is a listing the caller already made that covers the knowledge folder (the
   * pipeline's context listing), so the folder is not listed twice.
   */
  topics(
    layout: MemoryLayout,
    agent: string,
    listed?: readonly FileStat[],
  ): Promise<Map<string, string>> {
    const prefix = `${layout.knowledgeFolder(agent)}/`;
    const files = listed
      ? Promise.resolve(listed.filter((f) => f.path.startsWith(prefix)))
      : this.vault.list(prefix.slice(0, -1));
    this.topicIndex ??= files.then((found) => {
      const map = new Map<string, string>();
      for (const f of found)
        map.set(topicKey((f.path.split("/").pop() ?? "").replace(/\.md$/i, "")), f.path);
      return map;
    });
    return this.topicIndex;
  }

  plan(planned: PlannedItem): PlannedItem {
    if (planned.action === "add") {
      const list = this.planned.get(planned.destination) ?? [];
      list.push(planned);
      this.planned.set(planned.destination, list);
      let batch = this.batches.get(planned.destination);
      if (!batch) {
        batch = new BatchIndex();
        this.batches.set(planned.destination, batch);
      }
      batch.add(planned);
      if (planned.supersedes) {
        const ids = this.superseding.get(planned.destination) ?? new Set<string>();
        ids.add(planned.supersedes.id);
        this.superseding.set(planned.destination, ids);
      }
    }
    return planned;
  }
}

const EMPTY_SET: ReadonlySet<string> = new Set();

/**
 * The items planned as new for one note, indexed so that {@link PlanReadCache.inBatch}'s question (does one of
 * them say the same as this item, by the merge rule {@link sameModelItem}) is asked of the few that
 * can: those sharing a token with its text (the same text: similarity ≥ {@link DUPLICATE_THRESHOLD})
 * and those with its category and evidence.
 */
class BatchIndex {
  private readonly items: PlannedItem[] = [];
  private readonly texts = new SimilarityIndex();
  private readonly byEvidence = new Map<string, PlannedItem[]>();

  add(planned: PlannedItem): void {
    this.items.push(planned);
    this.texts.add(planned.item.text);
    const key = evidenceKey(planned.item);
    const list = this.byEvidence.get(key);
    if (list) list.push(planned);
    else this.byEvidence.set(key, [planned]);
  }

  has(item: ExtractedItem): boolean {
    // sameModelItem is the same text, or the same category and evidence with related text: the
    // first can only hold for a text candidate, the second only in the evidence's bucket.
    for (const i of this.texts.candidates(item.text, DUPLICATE_THRESHOLD)) {
      const p = this.items[i];
      if (p && sameItemText(p.item.text, item.text)) return true;
    }
    return (this.byEvidence.get(evidenceKey(item)) ?? []).some((p) => sameModelItem(p.item, item));
  }
}

function evidenceKey(item: ExtractedItem): string {
  return `${item.category}\u0000${foldForMatch(item.evidence)}`;
}

/**
 * The duplicate rule of {@link matchTrackerItem} and {@link topicDuplicate} over a list of entries
 * that only grows, with the entries indexed by the journal blocks they cite and by their text's
 * tokens, so a run of many items compares each with the few entries that can match it. Gives
 * exactly what those functions give on the same list (test/dedupe-index.test.ts).
 */
export class EntryMatcher<T> {
  private readonly cited = new Map<string, number[]>();
  private live: { index: SimilarityIndex; ids: number[] } | null = null;

  constructor(
    readonly entries: T[],
    private readonly textOf: (e: T) => string,
    private readonly sourcesOf: (e: T) => readonly string[],
    private readonly isLive: (e: T) => boolean,
  ) {
    entries.forEach((e, i) => this.indexSources(e, i));
  }

  /**
   * The entry `text` duplicates: one citing `link`'s block with the same text (`recorded`), else a
   * live one with the same text; `null` when none.
   */
  match(text: string, link: string): { index: number; recorded: boolean } | null {
    const cited = this.cited.get(sourceKey(link)) ?? [];
    const same = cited[findDuplicate(text, cited, (i) => this.textOf(this.entries[i] as T))];
    if (same !== undefined) return { index: same, recorded: true };
    const live = this.liveIndex();
    const ids = live.index.candidates(text, DUPLICATE_THRESHOLD).map((j) => live.ids[j] ?? -1);
    const dup = ids[findDuplicate(text, ids, (i) => this.textOf(this.entries[i] as T))];
    return dup === undefined ? null : { index: dup, recorded: false };
  }

  /** Adds an entry at the end of the list. */
  push(entry: T): void {
    const i = this.entries.length;
    this.entries.push(entry);
    this.indexSources(entry, i);
    if (this.live && this.isLive(entry)) {
      this.live.ids.push(i);
      this.live.index.add(this.textOf(entry));
    }
  }

  /** Replaces entry `i` with what it became after an edit that only added sources. */
  replace(i: number, entry: T): void {
    const old = this.entries[i] as T;
    this.entries[i] = entry;
    this.indexSources(entry, i);
    if (this.textOf(old) !== this.textOf(entry) || this.isLive(old) !== this.isLive(entry))
      this.live = null;
  }

  private indexSources(entry: T, i: number): void {
    for (const key of new Set(this.sourcesOf(entry).map(sourceKey))) {
      const list = this.cited.get(key);
      if (!list) this.cited.set(key, [i]);
      else if (!list.includes(i)) {
        list.push(i);
        list.sort((a, b) => a - b);
      }
    }
  }

  private liveIndex(): { index: SimilarityIndex; ids: number[] } {
    if (!this.live) {
      const index = new SimilarityIndex();
      const ids: number[] = [];
      this.entries.forEach((e, i) => {
        if (!this.isLive(e)) return;
        ids.push(i);
        index.add(this.textOf(e));
      });
      this.live = { index, ids };
    }
    return this.live;
  }
}

/** {@link matchTrackerItem}'s rule over a tracker's items, for many lookups. */
export function trackerMatcher(items: TrackerItem[], kind: TrackerKind): EntryMatcher<TrackerItem> {
  return new EntryMatcher(
    items,
    (it) => it.text,
    (it) => wikilinkTargets(sourcesOf(it)),
    (it) => (kind === "decisions" || isOpenStatus(it.status)) && !isSuperseded(it.fields),
  );
}

/** {@link topicDuplicate}'s rule over a topic note's entries, for many lookups. */
export function topicMatcher(entries: TopicEntry[]): EntryMatcher<TopicEntry> {
  return new EntryMatcher(
    entries,
    (e) => e.text,
    (e) => e.sources,
    (e) => !isSuperseded(e.fields),
  );
}

/** The `source` field of a tracker item as `fieldValue` reads it (the last one), or `""`. */
function sourcesOf(item: TrackerItem): string {
  return fieldValue(item.fields, "source") ?? "";
}

/**
 * The tracker item an extracted item duplicates (test/extraction-pipeline.test.ts, "case 10: …" and
 * "case 07: …"):
 * - an item of any status that already cites this block is the same item, already recorded;
 * - otherwise an open or in-progress item with the same text (any status in the decision log,
 *   whose entries are all closed): the new source is added to it. A task that was done or abandoned
 *   and is written down again is a new task, not a source on the closed one.
 * An item without a block id can only be recognised, not cited: the caller writes nothing for it.
 */
export function matchTrackerItem(
  items: readonly TrackerItem[],
  text: string,
  kind: TrackerKind,
  link: string,
): { item: TrackerItem; recorded: boolean } | null {
  const cited = items.filter((it) => citesBlock(wikilinkTargets(sourcesOf(it)), link));
  const same = cited[findDuplicate(text, cited, (it) => it.text)];
  if (same) return { item: same, recorded: true };
  // A superseded entry is history: the same text again is a new entry (which supersedes the current one).
  const live = (
    kind === "decisions" ? items : items.filter((it) => isOpenStatus(it.status))
  ).filter((it) => !isSuperseded(it.fields));
  const dup = live[findDuplicate(text, live, (it) => it.text)];
  return dup ? { item: dup, recorded: false } : null;
}

export interface RouteContext {
  settings: Settings;
  layout: MemoryLayout;
  agent: string;
  journal: string;
  /**
   * The journal's date, `YYYY-MM-DD`: an entry dated after it is newer than the item, which never
   * supersedes it (docs/contradictions.md, "Out of order"). Absent: no entry is too new.
   */
  date?: string;
  fallbackTopic: string;
  state: PlanReadCache;
  /**
   * Texts of every item this run extracted from a journal block, by block id: an entry citing the
   * block whose text none of them says any more was reworded in the journal (docs/contradictions.md).
   */
  blockTexts?: ReadonlyMap<string, readonly string[]>;
}

/** Categories whose new items may supersede a contradicted one (docs/contradictions.md). */
const CONTRADICTABLE = new Set<string>(["knowledge", "decision"]);

/**
 * What a new item supersedes among a note's entries (docs/contradictions.md), or `null`:
 * - an entry citing the item's journal block whose text no item of this run from that block says
 *   (the block was reworded after extraction), still current;
 * - for knowledge and decisions, the current entry it contradicts (`contradiction.ts`).
 * Entries already superseded, and (`live`) closed tasks, are never chosen. Entries another item of
 * this run already supersedes are left to it.
 */
function supersessionFor(
  item: ExtractedItem,
  entries: EntryViews,
  link: string,
  ctx: RouteContext,
  taken: ReadonlySet<string>,
): Supersession | null {
  const { views } = entries;
  const isCurrent = (i: number): boolean => {
    const e = views[i];
    return e !== undefined && e.current && !taken.has(e.id);
  };
  const siblings = item.blockId ? (ctx.blockTexts?.get(item.blockId) ?? [item.text]) : [];
  const reworded = item.blockId
    ? entries
        .citing(link)
        .filter(isCurrent)
        .map((i) => views[i] as EntryView)
        .filter((e) => !siblings.some((t) => sameItemText(t, e.text)))
    : [];
  const best = reworded[findDuplicate(item.text, reworded, (e) => e.text, 0)] ?? reworded[0];
  if (best) return { id: best.id, text: best.text, reason: "reworded" };
  if (!CONTRADICTABLE.has(item.category)) return null;
  // Only entries about the same subject can be contradicted: the others are passed over unread.
  const current = entries
    .sameSubject(item.text)
    .filter(isCurrent)
    .map((i) => views[i] as EntryView)
    // A journal extracted after a newer one never overrides what the newer one recorded: the pair
    // stays current, and the health check lists it as an unresolved contradiction.
    .filter((e) => !ctx.date || !e.date || e.date <= ctx.date);
  const hit = current[findContradiction(item.text, current, (e) => e.text)];
  if (!hit) return null;
  return { id: hit.id, text: hit.text, reason: contradiction(item.text, hit.text) ?? "value" };
}

/** An entry as {@link supersessionFor} sees it. */
interface EntryView {
  id: string;
  text: string;
  sources: readonly string[];
  current: boolean;
  /** The entry's date (`decided`/`created`, or the callout's), `YYYY-MM-DD`, when it has one. */
  date?: string | null;
}

/**
 * A note's entries as {@link supersessionFor} sees them, made once per plan and note, indexed by
 * the journal blocks they cite and by their subject's tokens.
 */
class EntryViews {
  private readonly cited = new Map<string, number[]>();
  private subjects: SimilarityIndex | null = null;

  constructor(readonly views: readonly EntryView[]) {
    views.forEach((v, i) => {
      for (const key of new Set(v.sources.map(sourceKey))) {
        const list = this.cited.get(key);
        if (list) list.push(i);
        else this.cited.set(key, [i]);
      }
    });
  }

  /** Entries citing `link`'s block, in note order. */
  citing(link: string): readonly number[] {
    return this.cited.get(sourceKey(link)) ?? [];
  }

  /** Entries whose subject may be `text`'s ({@link SAME_SUBJECT_THRESHOLD}), in note order. */
  sameSubject(text: string): number[] {
    if (!this.subjects) {
      const index = new SimilarityIndex(true);
      for (const v of this.views) index.add(v.text);
      this.subjects = index;
    }
    return this.subjects.candidates(text, SAME_SUBJECT_THRESHOLD);
  }
}

function trackerKindOf(spec: string): TrackerKind | null {
  const name = spec.slice("tracker:".length);
  return (TRACKER_KINDS as readonly string[]).includes(name) ? (name as TrackerKind) : null;
}

/** A tracker item as {@link supersessionFor} sees it: current unless superseded (or, for a task, closed). */
function trackerView(kind: TrackerKind): (it: TrackerItem) => {
  id: string;
  text: string;
  sources: string[];
  current: boolean;
  date: string | null;
} {
  return (it) => ({
    id: it.id ?? "",
    text: it.text,
    sources: wikilinkTargets(sourcesOf(it)),
    current:
      it.id !== null &&
      !isSuperseded(it.fields) &&
      (kind === "decisions" || isOpenStatus(it.status)),
    date: fieldValue(it.fields, "decided") ?? fieldValue(it.fields, "created"),
  });
}

/** A callout as {@link supersessionFor} sees it: its id (block id, else `callout N`), current unless superseded. */
function calloutView(
  kind: string,
): (
  e: TopicEntry,
  i: number,
) => { id: string; text: string; sources: string[]; current: boolean; date: string | null } {
  return (e, i) => ({
    id: e.id ?? `callout ${i + 1}`,
    text: e.text,
    sources: e.sources,
    current: e.kind === kind && !isSuperseded(e.fields),
    date: e.date,
  });
}

async function routeToTracker(
  item: ExtractedItem,
  kind: TrackerKind,
  ctx: RouteContext,
): Promise<PlannedItem | RejectedItem> {
  const destination = ctx.layout.trackerPath(ctx.agent, kind);
  const existing = await ctx.state.trackerItems(destination);
  const link = sourceLink(ctx.journal, item.blockId);
  const base = { item, destination, tracker: kind };
  const matcher = ctx.state.once(`matcher\u0000${kind}\u0000${destination}`, () =>
    trackerMatcher([...existing], kind),
  );
  if (item.ref || item.progress) {
    const goal = item.ref
      ? existing.find((it) => it.id === item.ref)
      : existing[findDuplicate(item.text, existing, (it) => it.text, GOAL_MATCH_SIMILARITY)];
    if (!goal?.id) {
      // A goal this same run adds is known by the id it is expected to get
      // (docs/decisions.md, "Ids planned in the same run").
      const planned = item.ref
        ? ctx.state.planned.get(destination)?.find((p) => p.newId === item.ref)
        : undefined;
      if (planned)
        return ctx.state.plan({ ...base, action: "progress", existingId: item.ref, sameRun: true });
      if (item.ref)
        return {
          reason: `refers to ${item.ref}, which is not in ${destination}`,
          category: item.category,
          text: item.text,
          evidence: item.evidence,
          retry: true,
        };
      // Progress we cannot place becomes a plain item of its category rather than being lost.
    } else {
      const already = goal.children.some(
        (c) =>
          citesBlock(wikilinkTargets(c), link) ||
          similarity(c.replace(/^\s*-\s*\d{4}-\d{2}-\d{2}:\s*/, ""), item.text) >=
            SAME_PROGRESS_SIMILARITY,
      );
      return ctx.state.plan({
        ...base,
        action: already ? "skip" : "progress",
        existingId: goal.id,
      });
    }
  }
  const found = matcher.match(item.text, link);
  const match = found
    ? { item: matcher.entries[found.index] as TrackerItem, recorded: found.recorded }
    : null;
  if (match) {
    const action = match.recorded || !match.item.id ? "skip" : "add-source";
    return ctx.state.plan({
      ...base,
      action,
      ...(match.item.id ? { existingId: match.item.id } : {}),
    });
  }
  const batch = ctx.state.planned.get(destination) ?? [];
  if (ctx.state.inBatch(destination, item)) return ctx.state.plan({ ...base, action: "skip" });
  const prefix = KIND_PREFIX[kind];
  const newId = formatBlockId(
    prefix,
    (await ctx.state.maxBlockNumber(destination, prefix)) + 1 + batch.length,
  );
  const views = ctx.state.once(
    `tviews\u0000${kind}\u0000${destination}`,
    () => new EntryViews(existing.map(trackerView(kind))),
  );
  const supersedes = supersessionFor(item, views, link, ctx, ctx.state.supersededIn(destination));
  if (supersedes) return ctx.state.plan({ ...base, action: "supersede", newId, supersedes });
  return ctx.state.plan({ ...base, action: "add", newId });
}

async function routeToTopic(
  item: ExtractedItem,
  heading: string,
  ctx: RouteContext,
): Promise<PlannedItem | RejectedItem> {
  const title = (item.topic ?? ctx.fallbackTopic).trim();
  let destination: string;
  try {
    const known = (await ctx.state.topics(ctx.layout, ctx.agent)).get(topicKey(title));
    destination = known ?? ctx.layout.topicPath(ctx.agent, title);
  } catch (err) {
    if (err instanceof PathError) {
      return {
        reason: `unusable topic name: ${errorMessage(err)}`,
        category: item.category,
        text: item.text,
        evidence: item.evidence,
      };
    }
    throw err;
  }
  const topicTitle = (destination.split("/").pop() ?? title).replace(/\.md$/i, "");
  const base = { item, destination, topic: { title: topicTitle, heading } };
  const entries = await ctx.state.topicEntries(destination);
  const link = sourceLink(ctx.journal, item.blockId);
  const matched = ctx.state
    .once(`matcher\u0000topic\u0000${destination}`, () => topicMatcher([...entries]))
    .match(item.text, link);
  const dup = matched ? matched.index : -1;
  const found = dup >= 0 ? entries[dup] : undefined;
  if (found)
    return ctx.state.plan({
      ...base,
      action: citesBlock(found.sources, link) ? "skip" : "add-source",
      existingId: found.id ?? `callout ${dup + 1}`,
    });
  if (ctx.state.inBatch(destination, item)) return ctx.state.plan({ ...base, action: "skip" });
  const kind = calloutKind(item);
  const views = ctx.state.once(
    `cviews\u0000${kind}\u0000${destination}`,
    () => new EntryViews(entries.map(calloutView(kind))),
  );
  const supersedes = supersessionFor(item, views, link, ctx, ctx.state.supersededIn(destination));
  if (supersedes) return ctx.state.plan({ ...base, action: "supersede", supersedes });
  return ctx.state.plan({ ...base, action: "add" });
}

/** Callout kind of an item's topic entry. */
function calloutKind(item: ExtractedItem): EntryKind {
  return item.category === "decision"
    ? "decision"
    : item.category === "pattern"
      ? "pattern"
      : CALLOUT_KIND.knowledge;
}

/**
 * The callout an item duplicates: one citing the item's block with the same text (already
 * recorded), else a current one with the same text. A superseded callout is history, never a
 * duplicate of a new item. @returns its index, or -1
 */
function topicDuplicate(text: string, entries: readonly TopicEntry[], link: string): number {
  const cited = entries.map((e, i) => ({ e, i })).filter((x) => citesBlock(x.e.sources, link));
  const same = cited[findDuplicate(text, cited, (x) => x.e.text)];
  if (same) return same.i;
  const live = entries.map((e, i) => ({ e, i })).filter((x) => !isSuperseded(x.e.fields));
  return live[findDuplicate(text, live, (x) => x.e.text)]?.i ?? -1;
}

/**
 * Where an item goes, per the destination setting of its category. A decision goes to the
 * Decisions tracker and, when it names a topic, also to that topic's `## Decisions`
 * (docs/architecture.md, "An extraction run").
 * @returns the planned item(s), or a rejection with its reason (e.g. an unusable topic;
 * test/topic-notes.test.ts, "case 12: …").
 */
export async function resolveRoute(
  item: ExtractedItem,
  ctx: RouteContext,
): Promise<PlannedItem[] | RejectedItem> {
  const spec = ctx.settings.destinations[item.category];
  const out: PlannedItem[] = [];
  if (spec.startsWith("tracker:")) {
    const kind = trackerKindOf(spec);
    if (!kind)
      return {
        reason: `destination setting for ${item.category} names no tracker: ${spec}`,
        category: item.category,
        text: item.text,
        retry: true,
      };
    const routed = await routeToTracker(item, kind, ctx);
    if ("reason" in routed) return routed;
    out.push(routed);
    if (item.category === "decision" && item.topic) {
      const topical = await routeToTopic(item, "Decisions", ctx);
      if (!("reason" in topical)) out.push(topical);
    }
    return out;
  }
  if (spec.startsWith("topic:")) {
    const routed = await routeToTopic(item, spec.slice("topic:".length) || "Insights", ctx);
    return "reason" in routed ? routed : [routed];
  }
  return {
    reason: `unknown destination setting for ${item.category}: ${spec}`,
    category: item.category,
    text: item.text,
    retry: true,
  };
}

/**
 * Fields of a new tracker line for an item (README "Tracker line format"): ours first, the source
 * last of them (after `supersedes`, a wikilink to the item this one supersedes), then Tasks'
 * fields; `addTrackerItem` puts them in that order. A decision is written
 * done, so it also gets Tasks' `completion` date (the day it was decided).
 */
export function trackerFields(
  item: ExtractedItem,
  date: string,
  link: string,
  supersedes?: string,
): [string, string][] {
  const fields: [string, string][] = [];
  if (item.category === "improvement") fields.push([STATE_KEY, "proposed"]);
  if (item.target) fields.push(["to", toWikilink(item.target)]);
  if (item.owner && item.category === "task") fields.push(["owner", item.owner]);
  if (item.due && item.category === "goal") fields.push(["target", item.due]);
  if (item.category === "decision") fields.push(["decided", date]);
  if (item.category === "decision" && item.topic) fields.push(["topic", toWikilink(item.topic)]);
  if (supersedes) fields.push([SUPERSEDES_KEY, supersedes]);
  fields.push(["source", link]);
  if (item.category !== "decision") fields.push(["created", date]);
  if (item.due && item.category !== "goal") fields.push(["due", item.due]);
  if (item.category === "decision") fields.push(["completion", date]);
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
 * (test/extraction-pipeline.test.ts, "case 07: …" and "case 10: …").
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
    if (match && current !== null) {
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
    const status = item.category === "decision" ? "done" : "open";
    const added = addTrackerItem(
      current,
      kind,
      { text: item.text, status, fields: trackerFields(item, ctx.date, link, oldLink) },
      {
        agent: ctx.agent,
        title: (planned.destination.split("/").pop() ?? kind).replace(/\.md$/i, ""),
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
    const entries = current === null ? [] : listTopicEntries(current);
    const dup = topicDuplicate(item.text, entries, link);
    const same = entries[dup];
    if (same && citesBlock(same.sources, link)) return current;
    if (dup >= 0 && current !== null)
      return edited(
        addEntrySource(current, dup, unwrapWikilink(link), planned.destination),
        planned.destination,
        "add a source",
      );
    const kind = calloutKind(item);
    const category = planned.destination.split("/").slice(-2, -1)[0];
    const old =
      planned.action === "supersede" && current !== null
        ? supersededCallout(entries, planned.supersedes, kind)
        : undefined;
    let ids: { newId: string; oldId: string } | undefined;
    if (old && current !== null) {
      const taken = blockIdsIn(current);
      const newId = calloutBlockId(`${planned.destination}\n${item.text}`, taken);
      taken.add(newId);
      ids = {
        newId,
        oldId: old.id ?? calloutBlockId(`${planned.destination}\n${old.text}`, taken),
      };
    }
    const appended = appendTopicEntry(
      current,
      {
        title: planned.topic.title,
        agent: ctx.agent,
        ...(category ? { category } : {}),
        type: ctx.layout.collectionOf(planned.destination) === "library" ? "library" : "knowledge",
        createdAt: ctx.timestamp,
        path: planned.destination,
      },
      {
        kind,
        heading: planned.topic.heading,
        date: ctx.date,
        confidence: item.confidence,
        text: item.text,
        source: unwrapWikilink(link),
        ...(ids
          ? {
              fields: [
                [SUPERSEDES_KEY, formatWikilink({ path: planned.destination, blockId: ids.oldId })],
              ] as [string, string][],
              id: ids.newId,
            }
          : {}),
      },
    );
    if (!old || !ids) return appended;
    const marked = supersedeCallout(
      appended,
      { ...(old.id ? { id: old.id } : {}), text: old.text },
      planned.destination,
      ids,
      ctx.date,
    );
    if (!marked)
      throw new MemoryError(
        `cannot mark as superseded in ${planned.destination}: the callout is no longer there`,
        planned.destination,
      );
    return marked.text;
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
  for (const planned of group) {
    if (fast?.write(planned, ctx)) continue;
    if (
      !fast &&
      planned.tracker &&
      (planned.action === "add" || planned.action === "add-source") &&
      text !== null &&
      text.trim() !== ""
    ) {
      const editor = new FastTracker(text, planned.tracker, planned.destination);
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
  return fast ? fast.text() : text;
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
    const status = item.category === "decision" ? "done" : "open";
    const added = this.editor.add(this.kind, {
      text: item.text,
      status,
      fields: trackerFields(item, ctx.date, link),
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

/** The current callout of `kind` a planned supersession names, on the note's current content (by block id, else by text). */
function supersededCallout(
  entries: readonly TopicEntry[],
  supersedes: Supersession | undefined,
  kind: string,
): TopicEntry | undefined {
  if (!supersedes) return undefined;
  const live = entries.filter((e) => e.kind === kind && !isSuperseded(e.fields));
  return (
    live.find((e) => e.id !== null && e.id === supersedes.id) ??
    live.find((e) => sameItemText(e.text, supersedes.text))
  );
}
