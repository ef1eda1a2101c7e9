/**
 * The review note (docs/architecture.md, "Review loops"): one note per review run, in the agent's
 * journal folder (`Journal/2026-11-29 review r-001.md`), since a review is the agent's own
 * reflective writing (layer 1). Extraction reads only the reflection under its last headings
 * (`personWrittenPart` of src/core/note-types.ts), never the goals, decisions and tasks it quotes;
 * its list lines are plain bullets too, never `- [ ]`.
 */
import type { MemoryLayout } from "../layout";
import { joinPath } from "../layout";
import type { IsoDate } from "../util/dates";
import { formatWikilink } from "../markdown/wikilinks";
import type { ReviewSchedule } from "../trackers/reviews";
import {
  REVIEW_NOTE_TYPE,
  type ReviewItemRef,
  type ReviewMaterial,
  type ReviewNoteRef,
} from "./material";
import { staleSummary, type StaleTopic } from "../health/stale-rules";
import { REVIEW_REFLECTION_HEADINGS } from "../note-types";

/** Vault path of the review note of review `id` started on `date`. Throws {@link PathError} for an unsafe agent or id. */
export function reviewNotePath(
  layout: MemoryLayout,
  agent: string,
  id: string,
  date: IsoDate,
): string {
  return layout.under(joinPath(layout.journalFolder(agent), `${date} review ${id}.md`));
}

/** True for a file name made by {@link reviewNotePath} for review `id`. */
export function isReviewNoteOf(path: string, id: string): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1);
  return name.endsWith(` review ${id}.md`) && /^\d{4}-\d{2}-\d{2} /.test(name);
}

/** A YAML scalar: plain when it is a simple word (and not a number or a YAML keyword), else double-quoted. */
function yamlText(value: string): string {
  const plain =
    /^[A-Za-z\p{L}][\p{L}\p{N}_.-]*$/u.test(value) &&
    !/^(true|false|null|yes|no|on|off|~)$/i.test(value);
  return plain ? value : JSON.stringify(value);
}

function link(path: string, label: string, blockId?: string | null): string {
  const safe = label
    .replace(/[[\]|#^]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return formatWikilink({ path, blockId, alias: safe });
}

function noteLine(ref: ReviewNoteRef, showDate: boolean): string {
  const label = showDate ? ref.date : ref.title;
  const extra = showDate
    ? ref.title !== ref.date
      ? `: ${ref.title}`
      : ""
    : ` (updated ${ref.date})`;
  return `- ${link(ref.path, label)}${extra}`;
}

const STATUS_WORD: Readonly<Record<ReviewItemRef["status"], string>> = {
  open: "open",
  "in-progress": "in progress",
  done: "done",
  abandoned: "abandoned",
};

function itemLine(ref: ReviewItemRef): string {
  const label = ref.id ?? "item";
  const parts = [`- ${link(ref.path, label, ref.id)} ${ref.text}`];
  if (ref.date) parts.push(` (${ref.date})`);
  else if (ref.status !== "open") parts.push(` (${STATUS_WORD[ref.status]})`);
  if (ref.latest) parts.push(`; latest: ${ref.latest}`);
  return parts.join("");
}

function staleLine(t: StaleTopic): string {
  return `- ${link(t.path, t.title)} ${staleSummary(t)}`;
}

function section(title: string, lines: string[], empty: string): string[] {
  return ["", `## ${title} (${lines.length})`, "", ...(lines.length > 0 ? lines : [empty])];
}

/** Facts about the run that the note's frontmatter and heading carry. */
export interface ReviewNoteMeta {
  /** Vault path of the Reviews tracker. */
  reviewsPath: string;
  review: ReviewSchedule & { id: string };
  /** The day the review was started, `YYYY-MM-DD`. */
  date: IsoDate;
}

/**
 * The review note's Markdown: frontmatter (`type: review`, `status: draft` until `review done`,
 * the period, a `source` link to the review item) and sections for journals, knowledge updated, open
 * tasks, goals, decisions and knowledge that may be stale with links to each, then headings for
 * the reflection itself.
 */
export function renderReviewNote(material: ReviewMaterial, meta: ReviewNoteMeta): string {
  const { review, date } = meta;
  const { start, end } = material.period;
  const schedule = [review.everyRaw, review.next ? `due ${review.next}` : null]
    .filter((s) => s !== null)
    .join("; ");
  const source = formatWikilink({ path: meta.reviewsPath, blockId: review.id });
  const lines = [
    "---",
    `id: ${yamlText(`review-${material.agent}-${review.id}-${date}`)}`,
    `type: ${REVIEW_NOTE_TYPE}`,
    `agent: ${yamlText(material.agent)}`,
    "status: draft",
    `created_at: ${date}`,
    `period_start: ${start}`,
    `period_end: ${end}`,
    `review: ${yamlText(review.id)}`,
    `source: ${JSON.stringify(source)}`,
    "---",
    `# Review: ${review.text}`,
    "",
    `Period ${start} to ${end}${schedule ? ` (${schedule})` : ""}.`,
    ...section(
      "Journals",
      material.journals.map((r) => noteLine(r, true)),
      "- No journal in this period.",
    ),
    ...section(
      "Knowledge updated",
      material.knowledge.map((r) => noteLine(r, false)),
      "- No knowledge note updated in this period.",
    ),
    ...section("Open tasks", material.tasks.map(itemLine), "- No open task."),
    ...section("Goals", material.goals.map(itemLine), "- No open goal."),
    ...section(
      "Decisions",
      material.decisions.map(itemLine),
      "- No decision recorded in this period.",
    ),
    ...section(
      "May be stale",
      material.stale.map(staleLine),
      "- No knowledge note is mentioned in journals newer than it.",
    ),
    // The reflection, the part a person writes and extraction reads (src/core/note-types.ts).
    ...REVIEW_REFLECTION_HEADINGS.flatMap((h) => ["", `## ${h}`]),
    "",
  ];
  return lines.join("\n");
}
