/**
 * Rules about time and size (docs/architecture.md, "The health check";
 * docs/decisions.md, "One date rule, on the user's local calendar"): `stale-draft`,
 * `stale-knowledge`,
 * `expired`, `over-size-cap`. Days are calendar days relative to the run's `today`, the user's local
 * date (src/core/util/dates.ts).
 *
 * A note's last update is read from the note ({@link lastUpdated}, src/core/knowledge/last-updated.ts).
 */
import {
  dateInName,
  datePart,
  daysBetween,
  isExpired,
  localDate,
  type IsoDate,
} from "../util/dates";
import { lastUpdated } from "../knowledge/last-updated";
import { mentionIndex, mentionText } from "./mentions";
import { topicKey } from "../knowledge/topic-key";
import { isDigestNote } from "../note-types";
import { fieldOf, type NoteInfo } from "./note-info";
import type { HealthProblem } from "./types";
import { noteName } from "../markdown/wikilinks";

/** The status field, lower case, or `""`. */
export function statusOf(note: NoteInfo): string {
  const s = fieldOf(note, "status");
  return typeof s === "string" ? s.trim().toLowerCase() : "";
}

/** `stale-draft`: `status: draft` and not updated for more than `draftDays` days. */
export function checkStaleDraft(
  note: NoteInfo,
  today: IsoDate,
  draftDays: number,
): HealthProblem[] {
  if (statusOf(note) !== "draft") return [];
  const last = lastUpdated(note);
  const age = daysBetween(last, today);
  if (age === null || age <= draftDays) return [];
  const line = note.keyLines.get("status");
  return [
    {
      path: note.path,
      rule: "stale-draft",
      severity: "warning",
      message: `Draft not updated since ${last} (${age} days; limit ${draftDays}).`,
      ...(line !== undefined ? { line } : {}),
    },
  ];
}

/**
 * `expired`: `expires_at` is past by the rule search uses too ({@link isExpired}: a date after its
 * local day, a date-time at its instant). Nothing is deleted
 * (docs/decisions.md, "One date rule, on the user's local calendar").
 */
export function checkExpired(note: NoteInfo, today: IsoDate, nowMs: number): HealthProblem[] {
  const v = fieldOf(note, "expires_at");
  if (typeof v !== "string" || !isExpired(v, today, nowMs)) return [];
  const line = note.keyLines.get("expires_at");
  return [
    {
      path: note.path,
      rule: "expired",
      severity: "warning",
      message: `Expired on ${v.trim()}; search leaves it out unless asked.`,
      ...(line !== undefined ? { line } : {}),
    },
  ];
}

/** `over-size-cap`: a note larger than `search.sizeCapBytes` (search indexes only its frontmatter and headings). */
export function checkSize(note: NoteInfo, capBytes: number): HealthProblem[] {
  if (note.size <= capBytes) return [];
  const kib = (n: number): string => `${Math.round(n / 1024)} KiB`;
  return [
    {
      path: note.path,
      rule: "over-size-cap",
      severity: "warning",
      message: `${kib(note.size)} is over the size cap of ${kib(capBytes)}; only its frontmatter and headings are searchable.`,
    },
  ];
}

/** The date of a journal: the first `YYYY-MM-DD` in its file name, else `created_at`, else the file's mtime. */
export function journalDate(note: NoteInfo): IsoDate {
  return (
    dateInName(noteName(note.path)) ??
    datePart(fieldOf(note, "created_at")) ??
    localDate(note.mtime)
  );
}

/** Statuses that take a note out of the staleness checks: finished or replaced. */
export const RETIRED_STATUSES: ReadonlySet<string> = new Set([
  "archived",
  "superseded",
  "draft",
  "deprecated",
]);

interface Candidate {
  note: NoteInfo;
  last: IsoDate;
  age: number;
  title: string;
  latest: { date: IsoDate; path: string } | null;
  count: number;
}

/**
 * Terms a journal can mention a topic by: its file name, its frontmatter `title`, its first `#`
 * heading and its `aliases`, each as its {@link topicKey} (NFKC, lower case, whitespace collapsed),
 * at least 2 characters. One home for `stale-knowledge` and `may-be-stale` (stale-rules.ts).
 */
export function topicTerms(note: NoteInfo): string[] {
  const name = noteName(note.path);
  const aliases = fieldOf(note, "aliases");
  const heading = /^#[ \t]+(.+?)[ \t#]*$/m.exec(note.body)?.[1];
  const list: unknown[] = [
    name,
    fieldOf(note, "title"),
    heading,
    ...(Array.isArray(aliases)
      ? (aliases as unknown[])
      : typeof aliases === "string"
        ? [aliases]
        : []),
  ];
  const out = new Set<string>();
  for (const t of list) {
    if (typeof t !== "string") continue;
    const term = topicKey(t);
    if (term.length >= 2) out.add(term);
  }
  return [...out];
}

/**
 * `stale-knowledge`: knowledge and library notes not updated for more than `staleDays` days while a
 * newer journal mentions their topic (file name or alias, whole words for Latin text; CJK text has no
 * word spaces, so any occurrence counts). An agent's knowledge counts its own journals; the library
 * counts everyone's. Drafts (see `stale-draft`), archived and superseded notes are left out.
 * Each journal is scanned once for all titles ({@link TermMatcher}).
 */
export function checkStaleKnowledge(
  notes: readonly NoteInfo[],
  today: IsoDate,
  staleDays: number,
): HealthProblem[] {
  const candidates: Candidate[] = [];
  for (const note of notes) {
    if (note.invalid || (note.collection !== "knowledge" && note.collection !== "library"))
      continue;
    if (RETIRED_STATUSES.has(statusOf(note))) continue;
    const last = lastUpdated(note);
    const age = daysBetween(last, today);
    if (age === null || age <= staleDays) continue;
    candidates.push({
      note,
      last,
      age,
      title: noteName(note.path),
      latest: null,
      count: 0,
    });
  }
  if (candidates.length === 0) return [];
  const { matcher, owners, oldest } = mentionIndex(candidates, (c) => topicTerms(c.note), today);
  for (const journal of notes) {
    // A digest repeats its journals' words; it is not a newer mention (docs/compaction.md).
    if (journal.collection !== "journal" || isDigestNote(journal.data)) continue;
    const date = journalDate(journal);
    if (date <= oldest || date > today) continue;
    const seen = new Set<Candidate>();
    for (const index of matcher.find(mentionText(journal.body))) {
      for (const who of owners[index] ?? []) {
        if (seen.has(who) || date <= who.last) continue;
        if (who.note.collection === "knowledge" && who.note.agent !== journal.agent) continue;
        seen.add(who);
        who.count++;
        if (!who.latest || date > who.latest.date) who.latest = { date, path: journal.path };
      }
    }
  }
  const out: HealthProblem[] = [];
  for (const c of candidates) {
    if (!c.latest) continue;
    const journals =
      c.count === 1 ? "1 newer journal mentions" : `${c.count} newer journals mention`;
    out.push({
      path: c.note.path,
      rule: "stale-knowledge",
      severity: "warning",
      message: `Not updated since ${c.last} (${c.age} days; limit ${staleDays}) while ${journals} "${c.title}", latest ${c.latest.path} (${c.latest.date}).`,
    });
  }
  return out;
}
