/**
 * What the staleness scan of one agent ({@link staleTopicsOf}) keeps between runs
 * (docs/decisions.md, "The brief keeps what each note gave the staleness scan"): for each knowledge
 * and library note its {@link TopicFacts}, for each journal its {@link JournalScan}, with the mtime
 * and size the note was read at (and the host's UTC offset at that mtime: a note without dates is
 * dated by its mtime's local day), and the terms the journals were scanned for. The host decides
 * where the text lives ({@link StaleCacheStore}); a cache that does not parse, is of another
 * format, key or agent, or holds anything of the wrong shape is not used.
 */
import type { IsoDate } from "../util/dates";

/**
 * What the staleness scan needs of one knowledge or library note (a candidate): derived from its
 * text once, so a cache ({@link StaleCacheStore}) can keep it while the file is unchanged.
 */
export interface TopicFacts {
  collection: "knowledge" | "library";
  /** The agent whose knowledge it is; `null` for the library. */
  agent: string | null;
  /** `lastUpdated` (knowledge/last-updated.ts). */
  last: IsoDate;
  /** `topicTerms` (time-rules.ts). */
  terms: string[];
  /**
   * Each `#^` of the note's text with the `REF_BEFORE` (stale-rules.ts) characters before it and the block id
   * characters after it: `refs.some((r) => r.includes(link))` is `text.includes(link)` for a
   * link `<journal name>#^<id>`.
   */
  refs: string[];
}

/** One journal as the staleness scan found it against a set of topic terms. */
export interface JournalScan {
  path: string;
  /** `journalDate` (time-rules.ts). */
  date: IsoDate;
  agent: string | null;
  /** The terms found anywhere in the journal's body. */
  terms: string[];
  /** The content blocks holding at least one term, in note order, with those terms. */
  blocks: { link: string; text: string; blockId: string | null; terms: string[] }[];
}

/** Format of the cache's text; a change of shape or meaning is a new number. */
export const STALE_CACHE_FORMAT = 2;

/** Where a host keeps the staleness cache of one agent. */
export interface StaleCacheStore {
  /**
   * What else the scan's answer depends on besides the notes and the time zone, as one string: the
   * code that computed it (a build id). A cache saved under another key is not used.
   */
  readonly key: string;
  /** The text saved last, or `null` when there is none or it cannot be read. Never throws. */
  load(): Promise<string | null>;
  /** Saves `text` in place of the old one, whole or not at all. Never throws. */
  save(text: string): Promise<void>;
}

/** A note's entry: the mtime (ms) and size (bytes) it was read at, and what it gave. */
interface Entry {
  mtime: number;
  size: number;
  /** `Date.getTimezoneOffset()` at `mtime` when it was read (minutes). */
  offset: number;
}

/**
 * True when the note `f` is as `kept` was read: the same mtime and size, and the host's UTC offset
 * at that mtime the same (so the local day of the mtime is too).
 */
export function isUnchanged(kept: Entry | undefined, f: { mtime: number; size: number }): boolean {
  return (
    kept !== undefined &&
    kept.mtime === f.mtime &&
    kept.size === f.size &&
    kept.offset === offsetAt(f.mtime)
  );
}

/** The host's UTC offset (minutes, `Date.getTimezoneOffset`) at `mtime` (ms). */
export function offsetAt(mtime: number): number {
  return new Date(mtime).getTimezoneOffset();
}

/** The cache of one agent, in memory. */
export interface StaleCache {
  key: string;
  agent: string;
  /** The terms every journal of {@link journals} was scanned for. */
  terms: Set<string>;
  /** Knowledge and library notes by path; `facts` is `null` for a note that is no candidate. */
  topics: Map<string, Entry & { collection: "knowledge" | "library"; facts: TopicFacts | null }>;
  /** Journals by path; `scan` is `null` for a note of the journal folder that is no journal. */
  journals: Map<string, Entry & { scan: JournalScan | null }>;
}

/** An empty cache for `key` and `agent`. */
export function emptyStaleCache(key: string, agent: string): StaleCache {
  return { key, agent, terms: new Set(), topics: new Map(), journals: new Map() };
}

/** True when `next` has an entry for exactly the paths of `saved` (entries are only ever added or kept). */
export function sameEntries(saved: StaleCache, next: StaleCache): boolean {
  return saved.topics.size === next.topics.size && saved.journals.size === next.journals.size;
}

/** The cache as text for {@link StaleCacheStore.save}. */
export function serializeStaleCache(cache: StaleCache): string {
  return JSON.stringify({
    format: STALE_CACHE_FORMAT,
    key: cache.key,
    agent: cache.agent,
    terms: [...cache.terms],
    topics: [...cache.topics].map(([path, e]) => [
      path,
      e.mtime,
      e.size,
      e.offset,
      e.collection,
      e.facts,
    ]),
    journals: [...cache.journals].map(([path, e]) => [path, e.mtime, e.size, e.offset, e.scan]),
  });
}

const isString = (v: unknown): v is string => typeof v === "string";
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);
const isNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function isFacts(v: unknown): v is TopicFacts {
  return (
    isObject(v) &&
    (v.collection === "knowledge" || v.collection === "library") &&
    (v.agent === null || isString(v.agent)) &&
    isString(v.last) &&
    isStrings(v.terms) &&
    isStrings(v.refs)
  );
}

function isScan(v: unknown, path: string): v is JournalScan {
  return (
    isObject(v) &&
    v.path === path &&
    isString(v.date) &&
    (v.agent === null || isString(v.agent)) &&
    isStrings(v.terms) &&
    Array.isArray(v.blocks) &&
    v.blocks.every(
      (b) =>
        isObject(b) &&
        isString(b.link) &&
        isString(b.text) &&
        (b.blockId === null || isString(b.blockId)) &&
        isStrings(b.terms),
    )
  );
}

/**
 * The cache in `text` when it is one of {@link STALE_CACHE_FORMAT} for `key` and `agent`, every
 * entry of the right shape; else `null`. Never throws.
 */
export function parseStaleCache(
  text: string | null,
  key: string,
  agent: string,
): StaleCache | null {
  if (text === null) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  if (
    !isObject(raw) ||
    raw.format !== STALE_CACHE_FORMAT ||
    raw.key !== key ||
    raw.agent !== agent ||
    !isStrings(raw.terms) ||
    !Array.isArray(raw.topics) ||
    !Array.isArray(raw.journals)
  )
    return null;
  const cache = emptyStaleCache(key, agent);
  cache.terms = new Set(raw.terms);
  for (const e of raw.topics as unknown[]) {
    if (!Array.isArray(e) || e.length !== 6) return null;
    const [path, mtime, size, offset, collection, facts] = e as unknown[];
    if (!isString(path) || !isNumber(mtime) || !isNumber(size) || !isNumber(offset)) return null;
    if (collection !== "knowledge" && collection !== "library") return null;
    if (facts !== null && !isFacts(facts)) return null;
    cache.topics.set(path, { mtime, size, offset, collection, facts });
  }
  for (const e of raw.journals as unknown[]) {
    if (!Array.isArray(e) || e.length !== 5) return null;
    const [path, mtime, size, offset, scan] = e as unknown[];
    if (!isString(path) || !isNumber(mtime) || !isNumber(size) || !isNumber(offset)) return null;
    if (scan !== null && !isScan(scan, path)) return null;
    cache.journals.set(path, { mtime, size, offset, scan });
  }
  return cache;
}
