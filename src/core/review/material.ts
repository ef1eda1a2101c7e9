/**
 * What a review note gathers for its period (docs/architecture.md, "Review loops"): the agent's
 * journals since the last review, the knowledge notes updated in that span, the open tasks and
 * goals with their latest progress, the decisions made, and the knowledge that may be stale
 * (docs/compaction.md).
 */
import { parseNote } from "../frontmatter";
import type { MemoryLayout } from "../layout";
import type { VaultPort } from "../vault";
import { addDays, dateInName, datePart, dayNumber, type IsoDate } from "../util/dates";
import { lastUpdated } from "../knowledge/last-updated";
import { textAfterFrontmatter } from "../markdown/frontmatter-block";
import { listItems, type TrackerItem, type TrackerStatus } from "../trackers/format";
import { isOpenStatus, latestProgressText } from "../trackers/status";
import { staleTopicsOf, type StaleTopic } from "../health/stale-rules";
import { itemDate } from "../trackers/fields";
import { subtractInterval, type ReviewSchedule } from "../trackers/reviews";
import { REVIEW_NOTE_TYPE, isDigestNote } from "../note-types";
import { noteName } from "../markdown/wikilinks";

/** Frontmatter `type` of a review note. */
export { REVIEW_NOTE_TYPE };

/** The days a review covers, both ends included. */
export interface ReviewPeriod {
  start: IsoDate;
  end: IsoDate;
}

/**
 * The period of a review done on `today`: from the day after the last review (the latest dated line
 * under the item); without one, from one period before `next`; without a schedule, the last 7 days.
 * Never starts after `today`.
 */
export function reviewPeriod(schedule: ReviewSchedule, today: IsoDate): ReviewPeriod {
  let start: IsoDate | null = null;
  if (schedule.last !== null) start = addDays(schedule.last, 1);
  else if (schedule.next !== null && schedule.every !== null)
    start = subtractInterval(schedule.next, schedule.every);
  start ??= addDays(today, -6) ?? today;
  if (start > today) start = today;
  return { start, end: today };
}

/** A note listed in a review. */
export interface ReviewNoteRef {
  path: string;
  /** The journal's date, or the knowledge note's last update. */
  date: IsoDate;
  /** The note's first `#` heading, or its file name. */
  title: string;
}

/** A tracker item listed in a review. */
export interface ReviewItemRef {
  /** Tracker note path. */
  path: string;
  id: string | null;
  text: string;
  status: TrackerStatus;
  /** The latest dated progress line under the item (`2026-11-05: rubric drafted …`), or `null`. */
  latest: string | null;
  /** For decisions: the decision's date (`decided`, else `created` or `date` field). */
  date?: IsoDate;
}

/** Everything {@link renderReviewNote} lists. */
export interface ReviewMaterial {
  agent: string;
  period: ReviewPeriod;
  journals: ReviewNoteRef[];
  knowledge: ReviewNoteRef[];
  tasks: ReviewItemRef[];
  goals: ReviewItemRef[];
  decisions: ReviewItemRef[];
  /**
   * Knowledge and library notes that journal blocks newer than their last update mention, as of the
   * period's end (`may-be-stale` of src/core/health/stale-rules.ts, docs/compaction.md).
   */
  stale: StaleTopic[];
}

function titleOf(body: string, path: string): string {
  const h = /^#[ \t]+(.+?)[ \t#]*$/m.exec(body);
  return h?.[1]?.trim() ?? noteName(path);
}

async function readIfExists(vault: VaultPort, path: string): Promise<string | null> {
  return (await vault.exists(path)) ? vault.read(path) : null;
}

function inPeriod(date: IsoDate, period: ReviewPeriod): boolean {
  return date >= period.start && date <= period.end;
}

function isOpen(item: TrackerItem): boolean {
  return isOpenStatus(item.status);
}

function itemRef(path: string, item: TrackerItem): ReviewItemRef {
  return {
    path,
    id: item.id,
    text: item.text,
    status: item.status,
    latest: latestProgressText(item),
  };
}

/**
 * Collects the material of a review of `agent` over `period`. Journals are the notes of the agent's
 * journal folder dated in the period (by the `YYYY-MM-DD` in the file name, else `created_at`),
 * review notes excepted; knowledge notes count when their last update falls in the period.
 * Notes whose frontmatter does not parse are listed by file name, never rewritten.
 * Throws {@link VaultError} when a note cannot be read.
 */
export async function collectReviewMaterial(
  vault: VaultPort,
  layout: MemoryLayout,
  agent: string,
  period: ReviewPeriod,
): Promise<ReviewMaterial> {
  const journals: ReviewNoteRef[] = [];
  for (const f of await vault.list(layout.journalFolder(agent))) {
    const stem = noteName(f.path);
    let data: Record<string, unknown> | null = null;
    let body = "";
    const text = await vault.read(f.path);
    try {
      const parsed = parseNote(text, f.path);
      data = parsed.data;
      body = parsed.body;
    } catch {
      // Frontmatter that does not parse: the note is listed without its body (the health check reports it).
      body = "";
    }
    if (data?.type === REVIEW_NOTE_TYPE || isDigestNote(data)) continue;
    const date = dateInName(stem) ?? datePart(data?.created_at);
    if (date === null || !inPeriod(date, period)) continue;
    journals.push({ path: f.path, date, title: titleOf(body, f.path) });
  }
  journals.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.path < b.path ? -1 : 1));

  const knowledge: ReviewNoteRef[] = [];
  for (const f of await vault.list(layout.knowledgeFolder(agent))) {
    const text = await vault.read(f.path);
    let data: Record<string, unknown> | null = null;
    let body: string;
    try {
      ({ data, body } = parseNote(text, f.path));
    } catch {
      body = textAfterFrontmatter(text); // unparsable frontmatter: no fields, the body still dates it
    }
    const date = lastUpdated({ data, body, collection: "knowledge", mtime: f.mtime });
    if (inPeriod(date, period))
      knowledge.push({ path: f.path, date, title: titleOf(body, f.path) });
  }
  knowledge.sort((a, b) => (a.date > b.date ? -1 : a.date < b.date ? 1 : a.path < b.path ? -1 : 1));

  const tasksPath = layout.trackerPath(agent, "tasks");
  const goalsPath = layout.trackerPath(agent, "goals");
  const decisionsPath = layout.trackerPath(agent, "decisions");
  const tasksText = await readIfExists(vault, tasksPath);
  const goalsText = await readIfExists(vault, goalsPath);
  const decisionsText = await readIfExists(vault, decisionsPath);
  const tasks =
    tasksText === null
      ? []
      : listItems(tasksText)
          .filter(isOpen)
          .map((i) => itemRef(tasksPath, i));
  const goals =
    goalsText === null
      ? []
      : listItems(goalsText)
          .filter(isOpen)
          .map((i) => itemRef(goalsPath, i));
  const decisions: ReviewItemRef[] = [];
  if (decisionsText !== null) {
    for (const item of listItems(decisionsText)) {
      if (item.status === "abandoned") continue;
      const raw = itemDate(item);
      const date = raw !== null && dayNumber(raw.trim()) !== null ? raw.trim() : null;
      if (date !== null && inPeriod(date, period))
        decisions.push({ ...itemRef(decisionsPath, item), date });
    }
  }
  const stale = await staleTopicsOf(vault, layout, agent, period.end);
  return { agent, period, journals, knowledge, tasks, goals, decisions, stale };
}
