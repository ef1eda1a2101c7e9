/**
 * What one extraction plan reads and remembers (docs/decisions.md, "A plan parses each note once"):
 * the {@link PlanReadCache} of destination notes and items planned so far, and the
 * {@link RouteContext} an item's route is resolved in.
 */
import { DUPLICATE_THRESHOLD, SimilarityIndex, sameItemText } from "./dedupe";
import { foldForMatch } from "../markdown/text";
import { sameModelItem } from "./merge";
import type { MemoryLayout } from "../layout";
import type { Settings } from "../settings";
import type { FileStat, VaultPort } from "../vault";
import { blockIdsOf, listItems, type TrackerItem } from "../trackers/format";
import { cryptoRandom, type RandomSource } from "../util/ids";
import { splitLines } from "../markdown/lines";
import { listTopicEntries, topicKey, type TopicEntry } from "../knowledge/topic";
import type { ExtractedItem, PlannedItem } from "./types";
import { noteName } from "../markdown/wikilinks";

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
  /** The new ids of {@link planned}, per destination (kept as items are planned, not rebuilt). */
  private readonly newIds = new Map<string, Set<string>>();

  /** `random` draws the ids of new tracker items (`newItemId`). */
  constructor(
    private readonly vault: VaultPort,
    readonly random: RandomSource = cryptoRandom,
  ) {}

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

  /** Every block id of the note as read ({@link blockIdsOf}); the same set on every call. */
  blockIds(path: string): Promise<ReadonlySet<string>> {
    return this.parse(`ids\u0000${path}`, async () => {
      const text = await this.text(path);
      return blockIdsOf(text === null ? [] : splitLines(text).lines);
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

  /**
   * The block ids a new item of `destination` must not take: those of the note as read and the
   * new ids of the items this run already plans for it. One lookup each, nothing copied, so
   * planning n items stays linear in n (a 4000-item journal spent a quarter of its time copying
   * them per item).
   */
  async takenIds(destination: string): Promise<Pick<ReadonlySet<string>, "has">> {
    const read = await this.blockIds(destination);
    const planned = this.newIds.get(destination) ?? EMPTY_SET;
    return { has: (id) => read.has(id) || planned.has(id) };
  }

  /** Ids this run already supersedes in `destination` (do not change the set). */
  supersededIn(destination: string): ReadonlySet<string> {
    return this.superseding.get(destination) ?? EMPTY_SET;
  }

  /**
   * Existing topic notes of the agent by dedupe key (test/core/knowledge/topic-notes.test.ts, "case 11: …") →
   * path. `listed` is a listing the caller already made that covers the knowledge folder (the
   * pipeline's context listing), so the folder is not listed twice.
   */
  topics(
    layout: MemoryLayout,
    agent: string,
    listed?: readonly FileStat[],
  ): Promise<Map<string, string>> {
    if (this.topicIndex) return this.topicIndex;
    const prefix = `${layout.knowledgeFolder(agent)}/`;
    // Listed only on the first call: a listing started and dropped on a later call would reject
    // unobserved (a knowledge folder linked out of the vault) and end the process
    // (test/cli/out-of-vault.process.test.ts).
    const files = listed
      ? Promise.resolve(listed.filter((f) => f.path.startsWith(prefix)))
      : this.vault.list(prefix.slice(0, -1));
    this.topicIndex = files.then((found) => {
      const map = new Map<string, string>();
      for (const f of found) map.set(topicKey(noteName(f.path)), f.path);
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
      if (planned.newId) {
        const ids = this.newIds.get(planned.destination) ?? new Set<string>();
        ids.add(planned.newId);
        this.newIds.set(planned.destination, ids);
      }
      if (planned.supersedes) {
        const ids = this.superseding.get(planned.destination) ?? new Set<string>();
        ids.add(planned.supersedes.id);
        for (const other of planned.supersedes.also ?? []) ids.add(other.id);
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
  /**
   * Ids of the journal blocks whose text still derives their id (`blockUnchangedSinceId`): an
   * entry citing one is that block's item whatever its text now is, and the item is skipped
   * (docs/decisions.md, "An unchanged journal block's entry is its item").
   */
  unchangedBlocks?: ReadonlySet<string>;
}
