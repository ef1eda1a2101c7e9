/**
 * Supersession planning (docs/contradictions.md): which current entry of a note a new item
 * supersedes — one whose journal block was reworded, or one it contradicts.
 */
import { findDuplicate, restates, sameItemText } from "./dedupe";
import { StatementIndex } from "./statements";
import { contradiction, findContradiction, findRestatement } from "./contradiction";
import type { TrackerKind } from "../settings";
import type { TrackerItem } from "../trackers/format";
import { itemDate } from "../trackers/fields";
import { isOpenStatus } from "../trackers/status";
import { wikilinkTargets } from "../markdown/wikilinks";
import type { TopicEntry } from "../knowledge/topic";
import { isSuperseded } from "../knowledge/supersede";
import { sourceKey, sourcesOf } from "./destination-match";
import type { RouteContext } from "./plan-cache";
import type { ExtractedItem, Supersession } from "./types";

/** Categories whose new items may supersede a contradicted one (docs/contradictions.md). */
const CONTRADICTABLE = new Set<string>(["knowledge", "decision"]);

/**
 * The current entry a new knowledge item or decision restates (the statement rule's
 * `restatement`: "no deploys on Fridays" after "we do not deploy on Fridays"), or `null`: the item
 * then adds its source to that entry instead of a new entry (docs/contradictions.md, "The rule").
 * Entries another item of this run supersedes are left out.
 */
export function restatementFor(
  item: ExtractedItem,
  entries: EntryViews,
  taken: ReadonlySet<string>,
): EntryView | null {
  if (!CONTRADICTABLE.has(item.category)) return null;
  const { views } = entries;
  const current = entries
    .sameSubject(item.text)
    .map((i) => views[i] as EntryView)
    .filter((e) => e.current && e.id !== "" && !taken.has(e.id));
  return current[findRestatement(item.text, current, (e) => e.text)] ?? null;
}

/**
 * What a new item supersedes among a note's entries (docs/contradictions.md), or `null`:
 * - an entry citing the item's journal block whose text no item of this run from that block says
 *   (the block was reworded after extraction), still current;
 * - for knowledge and decisions, the current entry it contradicts (`contradiction.ts`).
 * Entries already superseded, and (`live`) closed tasks, are never chosen. Entries another item of
 * this run already supersedes are left to it. With `all` (topic notes), the other current entries
 * it contradicts are in `also` (docs/decisions.md, "A new fact supersedes every current fact it
 * contradicts").
 */
export function supersessionFor(
  item: ExtractedItem,
  entries: EntryViews,
  link: string,
  ctx: RouteContext,
  taken: ReadonlySet<string>,
  options: { all?: boolean } = {},
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
  const reason = contradiction(item.text, hit.text) ?? "value";
  if (!options.all) return { id: hit.id, text: hit.text, reason };
  const also = current
    .filter((e) => e !== hit && contradiction(item.text, e.text) !== null)
    .map((e) => ({ id: e.id, text: e.text }));
  return { id: hit.id, text: hit.text, reason, ...(also.length ? { also } : {}) };
}

/**
 * The supersession of an entry that already cites the item's journal block and reads as its
 * duplicate, when the block was reworded all the same (docs/decisions.md, "A reworded journal line
 * supersedes even when it reads as a duplicate"): the offline extractor gives a block's words as
 * written, so its item not {@link restates restating} the entry means the block now says something
 * else. A model's item is its own wording of the block, so a duplicate of it is the entry again
 * (`null`). `null` too when the entry is no longer current (superseded, or a task closed: a
 * reworded line never reopens it) or another item of this run supersedes it.
 */
export function rewordedEntry(
  item: ExtractedItem,
  entry: EntryView,
  taken: ReadonlySet<string>,
): Supersession | null {
  if (item.origin !== "offline" || !entry.current || !entry.id || taken.has(entry.id)) return null;
  if (restates(item.text, entry.text)) return null;
  return { id: entry.id, text: entry.text, reason: "reworded" };
}

/** An entry as {@link supersessionFor} sees it. */
export interface EntryView {
  id: string;
  text: string;
  sources: readonly string[];
  current: boolean;
  /** The entry's date ({@link itemDate} of a tracker item, or the callout's), `YYYY-MM-DD`, when it has one. */
  date?: string | null;
}

/**
 * A note's entries as {@link supersessionFor} sees them, made once per plan and note, indexed by
 * the journal blocks they cite and by their subject's tokens.
 */
export class EntryViews {
  private readonly cited = new Map<string, number[]>();
  private subjects: StatementIndex | null = null;

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

  /**
   * Entries the statement rule may call other than separate facts to `text`
   * ({@link StatementIndex}), in note order.
   */
  sameSubject(text: string): number[] {
    if (!this.subjects) {
      const index = new StatementIndex();
      for (const v of this.views) index.add(v.text);
      this.subjects = index;
    }
    return this.subjects.candidates(text);
  }
}

/** A tracker item as {@link supersessionFor} sees it: current unless superseded (or, for a task, closed). */
export function trackerView(kind: TrackerKind): (it: TrackerItem) => {
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
    date: itemDate(it),
  });
}

/** A callout as {@link supersessionFor} sees it: its id (block id, else `callout N`), current unless superseded. */
export function calloutView(
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

/** The current callout of `kind` a planned supersession names, on the note's current content (by block id, else by text). */
export function supersededCallout(
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
