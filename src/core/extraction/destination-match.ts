/**
 * Dedupe against destinations: whether an item is already in its tracker or topic note (cited from
 * the same journal block, or the same text on a current entry), and the source links that decide it.
 */
import {
  DUPLICATE_THRESHOLD,
  SimilarityIndex,
  findDuplicate,
  sameItemText,
  wordSimilarity,
} from "./dedupe";
import type { TrackerKind } from "../settings";
import type { TrackerItem } from "../trackers/format";
import { FIELD_KEYS, fieldValue } from "../trackers/fields";
import { isOpenStatus } from "../trackers/status";
import { formatWikilink, linkTarget, wikilinkTargets, noteName } from "../markdown/wikilinks";
import type { TopicEntry } from "../knowledge/topic";
import { isSuperseded } from "../knowledge/supersede";

/** Wikilink to the journal block an item came from: `[[Memory/Agents/a/Journal/2026-11-24#^am-k3f9]]`. */
export function sourceLink(journal: string, blockId: string | null): string {
  return formatWikilink({ path: journal, blockId });
}

/**
 * The note name and block of a link target: `Memory/Agents/a/Journal/2026-11-24#^am-k3f9` and
 * `2026-11-24#^am-k3f9` point at the same block (Obsidian resolves a bare name to the note).
 */
export function sourceKey(linkOrTarget: string): string {
  const [note = "", sub = ""] = linkTarget(linkOrTarget).split("#");
  return `${noteName(note).toLowerCase()}#${sub}`;
}

/** True when one of the link `targets` (as {@link wikilinkTargets} gives them) points at the same block as `link`. */
export function citesBlock(targets: readonly string[], link: string): boolean {
  const key = sourceKey(link);
  return targets.some((t) => sourceKey(t) === key);
}

/**
 * The duplicate rule of {@link matchTrackerItem} and {@link topicDuplicate} over a list of entries
 * that only grows, with the entries indexed by the journal blocks they cite and by their text's
 * tokens, so a run of many items compares each with the few entries that can match it. Gives
 * exactly what those functions give on the same list (test/core/extraction/dedupe-index.test.ts).
 */
export class EntryMatcher<T> {
  private readonly cited = new Map<string, number[]>();
  private live: { index: SimilarityIndex; ids: number[] } | null = null;

  constructor(
    readonly entries: T[],
    private readonly textOf: (e: T) => string,
    private readonly sourcesOf: (e: T) => readonly string[],
    private readonly isLive: (e: T) => boolean,
    /**
     * The entries' order in their note, when it is not the order of the list (an entry added to
     * an earlier section of a topic note): a tie goes to the entry first in the note, as it does
     * for the functions on the note's entries.
     */
    private readonly order?: (e: T) => number,
  ) {
    entries.forEach((e, i) => this.indexSources(e, i));
  }

  /**
   * The entry `text` duplicates: one citing `link`'s block with the same text (`recorded`), else a
   * live one with the same text; `null` when none.
   */
  match(text: string, link: string): { index: number; recorded: boolean } | null {
    const cited = this.inOrder(this.cited.get(sourceKey(link)) ?? []);
    const same = cited[findDuplicate(text, cited, (i) => this.textOf(this.entries[i] as T))];
    if (same !== undefined) return { index: same, recorded: true };
    const live = this.liveIndex();
    const ids = this.inOrder(
      live.index.candidates(text, DUPLICATE_THRESHOLD).map((j) => live.ids[j] ?? -1),
    );
    const dup = ids[findDuplicate(text, ids, (i) => this.textOf(this.entries[i] as T))];
    return dup === undefined ? null : { index: dup, recorded: false };
  }

  /**
   * The entry that is the item of `link`'s journal block when the block is unchanged since its id
   * was given (docs/decisions.md, "An unchanged journal block's entry is its item"): among the
   * entries citing the block, leaving out those that another item of the block (`siblings`, the
   * texts of every item extracted from it, `text` among them) says, the one with the same text,
   * else the one whose words most resemble `text` (the first on a tie), whatever its text and
   * status now are. @returns its index, or -1 when no entry is left
   */
  blockEntry(text: string, link: string, siblings: readonly string[] = [text]): number {
    const textOf = (i: number) => this.textOf(this.entries[i] as T);
    const others = siblings.filter((s) => s !== text);
    const own = (this.cited.get(sourceKey(link)) ?? []).filter(
      (i) => !others.some((s) => sameItemText(s, textOf(i))),
    );
    const same = own[findDuplicate(text, own, textOf)];
    if (same !== undefined) return same;
    let best = -1;
    let bestScore = -1;
    for (const i of own) {
      const score = wordSimilarity(text, textOf(i));
      if (score > bestScore) [best, bestScore] = [i, score];
    }
    return best;
  }

  /**
   * {@link blockEntry} when `blockId` is among `blocks.unchangedBlocks` (the journal blocks whose
   * text still derives their id), else nothing: the entry an item of such a block is, to be
   * skipped whatever its text and status now are. `blocks` is the run's route context.
   * @returns the entry and its index, or `null`
   */
  unchangedBlockEntry(
    text: string,
    blockId: string | null | undefined,
    link: string,
    blocks: {
      unchangedBlocks?: ReadonlySet<string>;
      blockTexts?: ReadonlyMap<string, readonly string[]>;
    },
  ): { entry: T; index: number } | null {
    if (!blockId || !blocks.unchangedBlocks?.has(blockId)) return null;
    const index = this.blockEntry(text, link, blocks.blockTexts?.get(blockId));
    const entry = index >= 0 ? this.entries[index] : undefined;
    return entry === undefined ? null : { entry, index };
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

  /** Indices of entries in note order (see {@link order}). */
  private inOrder(indices: readonly number[]): readonly number[] {
    const { order } = this;
    if (!order || indices.length < 2) return indices;
    return [...indices].sort((a, b) => order(this.entries[a] as T) - order(this.entries[b] as T));
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

/**
 * {@link topicDuplicate}'s rule over a topic note's entries, for many lookups; `ordered`: entries
 * may be added out of note order, which their current `line` gives.
 */
export function topicMatcher(entries: TopicEntry[], ordered = false): EntryMatcher<TopicEntry> {
  return new EntryMatcher(
    entries,
    (e) => e.text,
    (e) => e.sources,
    (e) => !isSuperseded(e.fields),
    ordered ? (e) => e.line : undefined,
  );
}

/** The `source` field of a tracker item as `fieldValue` reads it (the last one), or `""`. */
export function sourcesOf(item: TrackerItem): string {
  return fieldValue(item.fields, FIELD_KEYS.source) ?? "";
}

/**
 * The tracker item an extracted item duplicates (test/core/extraction/extraction-pipeline.test.ts, "case 10: …" and
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

/**
 * The callout an item duplicates: one citing the item's block with the same text (already
 * recorded), else a current one with the same text. A superseded callout is history, never a
 * duplicate of a new item. @returns its index, or -1
 */
export function topicDuplicate(text: string, entries: readonly TopicEntry[], link: string): number {
  const cited = entries.map((e, i) => ({ e, i })).filter((x) => citesBlock(x.e.sources, link));
  const same = cited[findDuplicate(text, cited, (x) => x.e.text)];
  if (same) return same.i;
  const live = entries.map((e, i) => ({ e, i })).filter((x) => !isSuperseded(x.e.fields));
  return live[findDuplicate(text, live, (x) => x.e.text)]?.i ?? -1;
}
