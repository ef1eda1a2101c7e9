/**
 * `may-be-stale` (docs/compaction.md): a knowledge or library note whose topic is mentioned in journal
 * blocks newer than its last update. Unlike `stale-knowledge` (time-rules.ts), which waits
 * `health.staleDays` days, this fires on the first newer mention and names the blocks, so a person
 * (or the review loop, the brief) can read exactly what may have changed.
 *
 * "Mentioned": one of the note's {@link topicTerms} (file name, title, first heading, aliases, as
 * topic keys) occurs in the block, whole words for Latin text ({@link TermMatcher}). "Newer": the
 * journal's date ({@link journalDate}) is after the note's {@link lastUpdated} day and not after
 * today. An agent's knowledge counts its own journals, the library everyone's; digests and review
 * notes are not journals here; a block the note already cites as a source does not count.
 */
import type { IsoDate } from "../util/dates";
import { blockLink } from "../markdown/block-link";
import { splitBlocks } from "../journal/blocks";
import type { MemoryLayout } from "../layout";
import { isNotJournal } from "../note-types";
import { readOrLeaveOut, type FileStat, type VaultPort } from "../vault";
import type { UnreadableNote } from "../errors";
import { TermMatcher, mentionIndex, mentionText } from "./mentions";
import {
  emptyStaleCache,
  isUnchanged,
  offsetAt,
  parseStaleCache,
  sameEntries,
  serializeStaleCache,
  type JournalScan,
  type StaleCacheStore,
  type TopicFacts,
} from "./stale-cache";
import { readNoteInfo, type NoteInfo } from "./note-info";
export type { StaleCacheStore } from "./stale-cache";
import { lastUpdated } from "../knowledge/last-updated";
import { RETIRED_STATUSES, journalDate, statusOf, topicTerms } from "./time-rules";
import { dateInName } from "../util/dates";
import type { HealthProblem } from "./types";

export type { JournalScan, TopicFacts } from "./stale-cache";
import { noteName } from "../markdown/wikilinks";

/** A journal block newer than a note's last update that mentions its topic. */
export interface StaleBlock {
  /** Vault path of the journal. */
  journal: string;
  date: IsoDate;
  /** `[[journal#^id]]`, else `[[journal#Heading]]`, else `[[journal]]` ({@link blockLink}). */
  link: string;
  /** The block's text, whitespace collapsed. */
  text: string;
}

/** A note that may be stale, with the newer blocks that mention its topic (oldest first). */
export interface StaleTopic {
  path: string;
  /** File name without `.md`. */
  title: string;
  /** The note's last update ({@link lastUpdated}). */
  last: IsoDate;
  agent: string | null;
  blocks: StaleBlock[];
}

/** Links named in a finding's message; the rest are counted. */
export const STALE_LINKS_SHOWN = 5;

const CONTENT_KINDS = new Set(["paragraph", "list-item", "callout", "table", "code"]);

/**
 * Characters kept before each `#^` of a topic note in {@link TopicFacts.refs}: a journal's name
 * (the part before `#^` in a link to its block) is a file name, at most 255 UTF-16 units on every
 * file system (NAME_MAX 255 bytes), so a link to a block is found in the refs as in the whole text.
 */
const REF_BEFORE = 256;
const ID_CHAR = /[A-Za-z0-9-]/;

function isJournal(note: NoteInfo): boolean {
  return note.collection === "journal" && !note.invalid && !isNotJournal(note.data);
}

/** {@link TopicFacts.refs} of `text`. */
function refsOf(text: string): string[] {
  const refs: string[] = [];
  for (let p = text.indexOf("#^"); p >= 0; p = text.indexOf("#^", p + 2)) {
    let end = p + 2;
    while (end < text.length && ID_CHAR.test(text.charAt(end))) end++;
    refs.push(text.slice(Math.max(0, p - REF_BEFORE), end));
  }
  return refs;
}

/**
 * The {@link TopicFacts} of a knowledge or library note, or `null` when it is no candidate: not
 * knowledge or library, frontmatter that does not parse, or a retired status.
 */
export function topicFactsOf(note: NoteInfo): TopicFacts | null {
  if (note.invalid || (note.collection !== "knowledge" && note.collection !== "library"))
    return null;
  if (RETIRED_STATUSES.has(statusOf(note))) return null;
  return {
    collection: note.collection,
    agent: note.agent,
    last: lastUpdated(note),
    terms: topicTerms(note),
    refs: refsOf(note.text),
  };
}

/**
 * Scans journal `j` with `matcher` (over `terms`): the terms of its whole body, and, when
 * `wantBlocks` says so of those, of each of its content blocks. Reads nothing.
 */
export function scanJournal(
  j: NoteInfo,
  matcher: TermMatcher,
  terms: readonly string[],
  wantBlocks: (found: Set<number>, date: IsoDate) => boolean = (found) => found.size > 0,
): JournalScan {
  const date = journalDate(j);
  const named = (found: Set<number>) => [...found].map((i) => terms[i] ?? "");
  const found = matcher.find(mentionText(j.body));
  const scan: JournalScan = { path: j.path, date, agent: j.agent, terms: named(found), blocks: [] };
  if (!wantBlocks(found, date)) return scan;
  for (const block of splitBlocks(j.body)) {
    if (!CONTENT_KINDS.has(block.kind)) continue;
    const hit = matcher.find(mentionText(block.text));
    if (hit.size === 0) continue;
    scan.blocks.push({
      link: blockLink(j.path, block),
      text: block.text.replace(/\s+/g, " ").trim(),
      blockId: block.blockId,
      terms: named(hit),
    });
  }
  return scan;
}

/** A candidate of {@link staleOf}: a note's facts, with the blocks found so far. */
type Candidate = TopicFacts & { path: string; blocks: StaleBlock[] };

/**
 * The one rule of "may be stale" over facts already gathered: each topic with every block of
 * `journals` dated after its last update and not after `today` that mentions one of its terms
 * (its agent's own journals for knowledge, everyone's for the library; a block the note cites is
 * not counted), oldest first; topics with none left out; sorted by path. The journals must have
 * been scanned against every term of `topics` (more terms do no harm).
 */
export function staleOf(
  topics: readonly { path: string; facts: TopicFacts }[],
  journals: readonly JournalScan[],
  today: IsoDate,
): StaleTopic[] {
  const candidates: Candidate[] = topics.map(({ path, facts }) => ({ ...facts, path, blocks: [] }));
  const owners = new Map<string, Candidate[]>();
  let oldest = today;
  for (const c of candidates) {
    if (c.last < oldest) oldest = c.last;
    for (const term of c.terms) {
      const list = owners.get(term);
      if (list) list.push(c);
      else owners.set(term, [c]);
    }
  }
  const sorted = [...journals].sort((a, b) =>
    a.date < b.date ? -1 : a.date > b.date ? 1 : a.path < b.path ? -1 : 1,
  );
  for (const j of sorted) {
    const date = j.date;
    if (date <= oldest || date > today) continue;
    const concerned = (terms: readonly string[]) => {
      const out = new Set<Candidate>();
      for (const term of terms)
        for (const c of owners.get(term) ?? []) {
          if (date <= c.last || (c.collection === "knowledge" && c.agent !== j.agent)) continue;
          out.add(c);
        }
      return out;
    };
    // Most journals mention no topic at all.
    if (concerned(j.terms).size === 0) continue;
    const stem = noteName(j.path);
    for (const block of j.blocks) {
      const hit = concerned(block.terms);
      if (hit.size === 0) continue;
      for (const c of hit) {
        // A block the note already cites is what the note was updated from.
        const cite = block.blockId ? `${stem}#^${block.blockId}` : null;
        if (cite !== null && c.refs.some((r) => r.includes(cite))) continue;
        c.blocks.push({ journal: j.path, date, link: block.link, text: block.text });
      }
    }
  }
  return candidates
    .filter((c) => c.blocks.length > 0)
    .map(({ path, last, agent, blocks }) => ({ path, title: noteName(path), last, agent, blocks }))
    .sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** The candidates among `notes` with their facts. */
function topicsOf(
  notes: readonly NoteInfo[],
): { path: string; facts: TopicFacts; last: IsoDate }[] {
  const out: { path: string; facts: TopicFacts; last: IsoDate }[] = [];
  for (const note of notes) {
    const facts = topicFactsOf(note);
    if (facts) out.push({ path: note.path, facts, last: facts.last });
  }
  return out;
}

/**
 * Knowledge and library notes among `notes` that newer journal blocks (also among `notes`) mention,
 * sorted by path; each with every such block, oldest first. Reads nothing; never throws.
 */
export function findStaleTopics(notes: readonly NoteInfo[], today: IsoDate): StaleTopic[] {
  const topics = topicsOf(notes);
  if (topics.length === 0) return [];
  const { matcher, terms, owners, oldest } = mentionIndex(topics, (t) => t.facts.terms, today);
  const journals: JournalScan[] = [];
  for (const j of notes) {
    if (!isJournal(j)) continue;
    // Blocks only of a journal whose body mentions a topic it can be newer than.
    journals.push(
      scanJournal(j, matcher, terms, (found, date) => {
        if (date <= oldest || date > today) return false;
        for (const i of found)
          for (const t of owners[i] ?? [])
            if (
              date > t.facts.last &&
              (t.facts.collection !== "knowledge" || t.facts.agent === j.agent)
            )
              return true;
        return false;
      }),
    );
  }
  return staleOf(topics, journals, today);
}

/** The `may-be-stale` warnings of {@link findStaleTopics}: the first {@link STALE_LINKS_SHOWN} blocks linked, the rest counted. */
export function checkMayBeStale(notes: readonly NoteInfo[], today: IsoDate): HealthProblem[] {
  return findStaleTopics(notes, today).map((t) => ({
    path: t.path,
    rule: "may-be-stale" as const,
    severity: "warning" as const,
    message: `May be stale: ${staleSummary(t)}.`,
  }));
}

/** `mentioned in 3 journal blocks newer than its last update (2026-11-10): [[…]], [[…]], [[…]]` (the rest counted). */
export function staleSummary(t: Pick<StaleTopic, "last" | "blocks">): string {
  const n = t.blocks.length;
  const shown = t.blocks.slice(0, STALE_LINKS_SHOWN).map((b) => b.link);
  const rest = n - shown.length;
  return `mentioned in ${n} journal block${n === 1 ? "" : "s"} newer than its last update (${t.last}): ${shown.join(", ")}${rest > 0 ? ` and ${rest} more` : ""}`;
}

/** A cache entry's stamp of the listed note `f` ({@link isUnchanged}). */
function entryOf(f: FileStat): { mtime: number; size: number; offset: number } {
  return { mtime: f.mtime, size: f.size, offset: offsetAt(f.mtime) };
}

/**
 * The notes that may be stale for one agent's brief or review: its knowledge notes and the library,
 * against its own journals (the health check also counts other agents' journals for the library).
 * Reads those notes through `vault`; of the journals, not those whose name dates them on or before
 * the oldest last update of a topic, or after `today`, which {@link findStaleTopics} passes over.
 * With `unreadable`, a note that is not UTF-8 or is a link out
 * of the vault is left out and added to it ({@link readOrLeaveOut}); without, it throws.
 * With `cache`, what each note gave ({@link TopicFacts}, {@link JournalScan}) is taken from the
 * cache while the note's listed mtime and size are those it was read at ({@link isUnchanged}; and, for a journal, the
 * topics' terms are among those it was scanned for), and the cache is saved again when anything
 * was read: the answer is the one without a cache (docs/decisions.md, "The brief keeps what each
 * note gave the staleness scan").
 * @throws VaultError when a note cannot be read.
 */
export async function staleTopicsOf(
  vault: VaultPort,
  layout: MemoryLayout,
  agent: string,
  today: IsoDate,
  unreadable?: UnreadableNote[],
  cache?: StaleCacheStore,
): Promise<StaleTopic[]> {
  const saved = cache ? parseStaleCache(await cache.load(), cache.key, agent) : null;
  const next = emptyStaleCache(cache?.key ?? "", agent);
  let changed = saved === null;
  const read = async (f: FileStat, collection: NoteInfo["collection"]) => {
    const text = unreadable
      ? await readOrLeaveOut(vault, f.path, unreadable)
      : await vault.read(f.path);
    if (text === null) return null;
    changed = true;
    return readNoteInfo(f.path, text, f, {
      collection,
      agent: collection === "library" ? null : agent,
    });
  };
  const topics: { path: string; facts: TopicFacts }[] = [];
  const topicFolders: [string, "knowledge" | "library"][] = [
    [layout.knowledgeFolder(agent), "knowledge"],
    [layout.libraryRoot, "library"],
  ];
  for (const [folder, collection] of topicFolders) {
    for (const f of await vault.list(folder)) {
      if (layout.zoneOf(f.path)) continue;
      const kept = saved?.topics.get(f.path);
      let facts: TopicFacts | null;
      if (isUnchanged(kept, f) && kept?.collection === collection) facts = kept.facts;
      else {
        const note = await read(f, collection);
        if (note === null) continue;
        facts = topicFactsOf(note);
      }
      next.topics.set(f.path, { ...entryOf(f), collection, facts });
      if (facts) topics.push({ path: f.path, facts });
    }
  }
  // The journals come last: by then the topics' oldest update and their terms are known.
  let oldest = today;
  const wanted = new Set<string>();
  for (const { facts } of topics) {
    if (facts.last < oldest) oldest = facts.last;
    for (const term of facts.terms) wanted.add(term);
  }
  // Scans kept are good for the terms they were made for: a topic's new term makes every
  // journal be scanned again.
  const keepScans = saved !== null && [...wanted].every((t) => saved.terms.has(t));
  const terms = keepScans ? [...saved.terms] : [...wanted];
  next.terms = new Set(terms);
  if (!keepScans) changed = true;
  let matcher: TermMatcher | null = null;
  const journals: JournalScan[] = [];
  for (const f of await vault.list(layout.journalFolder(agent))) {
    if (layout.zoneOf(f.path)) continue;
    const named = dateInName(noteName(f.path));
    if (named !== null && (named <= oldest || named > today)) continue;
    const kept = keepScans ? saved.journals.get(f.path) : undefined;
    let scan: JournalScan | null;
    if (kept && isUnchanged(kept, f)) scan = kept.scan;
    else {
      const note = await read(f, "journal");
      if (note === null) continue;
      matcher ??= new TermMatcher(terms);
      scan = isJournal(note) ? scanJournal(note, matcher, terms) : null;
    }
    next.journals.set(f.path, { ...entryOf(f), scan });
    if (scan) journals.push(scan);
  }
  if (cache && (changed || saved === null || !sameEntries(saved, next)))
    await cache.save(serializeStaleCache(next));
  return staleOf(topics, journals, today);
}
