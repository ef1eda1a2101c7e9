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
import { readOrLeaveOut, type VaultPort } from "../vault";
import type { UnreadableNote } from "../errors";
import { mentionIndex, mentionText } from "./mentions";
import { readNoteInfo, type NoteInfo } from "./note-info";
import { lastUpdated } from "../knowledge/last-updated";
import { RETIRED_STATUSES, journalDate, statusOf, topicTerms } from "./time-rules";
import { dateInName } from "../util/dates";
import type { HealthProblem } from "./types";
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

function isJournal(note: NoteInfo): boolean {
  return note.collection === "journal" && !note.invalid && !isNotJournal(note.data);
}

/**
 * Knowledge and library notes among `notes` that newer journal blocks (also among `notes`) mention,
 * sorted by path; each with every such block, oldest first. Reads nothing; never throws.
 */
export function findStaleTopics(notes: readonly NoteInfo[], today: IsoDate): StaleTopic[] {
  const candidates = candidatesOf(notes);
  if (candidates.length === 0) return [];
  const { matcher, owners, oldest } = mentionIndex(candidates, (c) => topicTerms(c.note), today);
  const journals = notes.filter(isJournal).map((j) => ({ j, date: journalDate(j) }));
  journals.sort((a, b) =>
    a.date < b.date ? -1 : a.date > b.date ? 1 : a.j.path < b.j.path ? -1 : 1,
  );
  for (const { j, date } of journals) {
    if (date <= oldest || date > today) continue;
    // One pass over the whole journal first: most journals mention no topic at all.
    const concerned = (hits: Iterable<number>) => {
      const out = new Set<(typeof candidates)[number]>();
      for (const i of hits) {
        for (const c of owners[i] ?? []) {
          if (date <= c.last || (c.note.collection === "knowledge" && c.agent !== j.agent))
            continue;
          out.add(c);
        }
      }
      return out;
    };
    if (concerned(matcher.find(mentionText(j.body))).size === 0) continue;
    const stem = noteName(j.path);
    for (const block of splitBlocks(j.body)) {
      if (!CONTENT_KINDS.has(block.kind)) continue;
      const hit = concerned(matcher.find(mentionText(block.text)));
      if (hit.size === 0) continue;
      const link = blockLink(j.path, block);
      const text = block.text.replace(/\s+/g, " ").trim();
      for (const c of hit) {
        // A block the note already cites is what the note was updated from.
        if (block.blockId && c.note.text.includes(`${stem}#^${block.blockId}`)) continue;
        c.blocks.push({ journal: j.path, date, link, text });
      }
    }
  }
  return candidates
    .filter((c) => c.blocks.length > 0)
    .map(({ path, title, last, agent, blocks }) => ({ path, title, last, agent, blocks }))
    .sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** The knowledge and library notes among `notes` that may be stale (not invalid, not retired). */
function candidatesOf(notes: readonly NoteInfo[]): (StaleTopic & { note: NoteInfo })[] {
  const candidates: (StaleTopic & { note: NoteInfo })[] = [];
  for (const note of notes) {
    if (note.invalid || (note.collection !== "knowledge" && note.collection !== "library"))
      continue;
    if (RETIRED_STATUSES.has(statusOf(note))) continue;
    const title = noteName(note.path);
    candidates.push({
      note,
      path: note.path,
      title,
      last: lastUpdated(note),
      agent: note.agent,
      blocks: [],
    });
  }
  return candidates;
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

/**
 * The notes that may be stale for one agent's brief or review: its knowledge notes and the library,
 * against its own journals (the health check also counts other agents' journals for the library).
 * Reads those notes through `vault`; of the journals, not those whose name dates them on or before
 * the oldest last update of a topic, or after `today`, which {@link findStaleTopics} passes over.
 * With `unreadable`, a note that is not UTF-8 or is a link out
 * of the vault is left out and added to it ({@link readOrLeaveOut}); without, it throws.
 * @throws VaultError when a note cannot be read.
 */
export async function staleTopicsOf(
  vault: VaultPort,
  layout: MemoryLayout,
  agent: string,
  today: IsoDate,
  unreadable?: UnreadableNote[],
): Promise<StaleTopic[]> {
  const folders: [string, NoteInfo["collection"]][] = [
    [layout.knowledgeFolder(agent), "knowledge"],
    [layout.libraryRoot, "library"],
    [layout.journalFolder(agent), "journal"],
  ];
  const notes: NoteInfo[] = [];
  let oldest: IsoDate | null = null;
  for (const [folder, collection] of folders) {
    // The journals come last: by then the topics' oldest update is known.
    if (collection === "journal") {
      oldest = today;
      for (const c of candidatesOf(notes)) if (c.last < oldest) oldest = c.last;
    }
    for (const f of await vault.list(folder)) {
      if (layout.zoneOf(f.path)) continue;
      const named = oldest === null ? null : dateInName(noteName(f.path));
      if (named !== null && oldest !== null && (named <= oldest || named > today)) continue;
      const text = unreadable
        ? await readOrLeaveOut(vault, f.path, unreadable)
        : await vault.read(f.path);
      if (text === null) continue;
      notes.push(
        readNoteInfo(f.path, text, f, {
          collection,
          agent: collection === "library" ? null : agent,
        }),
      );
    }
  }
  return findStaleTopics(notes, today);
}
