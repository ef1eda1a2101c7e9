/**
 * The self-check gate (docs/architecture.md, "The self-check gate"): deterministic checks after a
 * pass that decide whether to rescan. Four checks ask for a rescan:
 * - `rich-without-knowledge`: a rich document with no knowledge item;
 * - `review-without-decision`: a review or retrospective (复盘, 回顾, retro, review in the title or
 *   headings) with no decision;
 * - `single-category`: a document of three or more sections whose items all fall in one category;
 * - `below-band`: fewer items than the band expected for the document's length.
 * A fifth, `above-band`, fires when the count is far above the band and asks for a merge instead.
 * Thresholds come from settings `gate`. Pure.
 */
import type { Settings } from "../settings";
import type { JournalBlock } from "../journal/blocks";
import { countCjk } from "../llm/tokens";
import type { Category } from "./types";

export type GateSettings = Settings["gate"];

/** Names of the checks, as shown in reports and `--json` (`gate.fired`). */
export type GateCheckName =
  | "rich-without-knowledge"
  | "review-without-decision"
  | "single-category"
  | "below-band"
  | "above-band";

/** What the gate looks at. */
export interface GateInput {
  /** Journal title (file name without `.md`). */
  title: string;
  /** The text measured: the journal body, or one window of it. */
  text: string;
  /** Heading texts of the document (or window), without the `#` marks. */
  headings: readonly string[];
  /** Number of sections (see {@link countSections}). */
  sections: number;
  items: readonly { category: Category }[];
}

export interface GateCheck {
  name: GateCheckName;
  fired: boolean;
  /** Why it fired, in words put into the rescan prompt and the report. */
  reason: string;
}

export interface GateOutcome {
  checks: GateCheck[];
  /** Names of the checks that fired, in check order. */
  fired: GateCheckName[];
  /** `rescan` when a rescan check fired; `merge` when the count is far above the band. */
  action: "none" | "rescan" | "merge";
  /** Length measured, characters with CJK counted double. */
  length: number;
  /** Expected item count for that length. */
  band: { min: number; max: number };
  count: number;
  categories: number;
}

/**
 * A merge is asked for only from this many items on, so a short note with a handful of items is
 * never asked to merge (the band of a 200-character note is about 0–1).
 */
export const MERGE_MIN_ITEMS = 12;

/**
 * Words that mark a review or retrospective in a title or heading
 * (docs/architecture.md, "An extraction run").
 */
const REVIEW_WORDS = /\b(?:retro|retros|retrospective|review|post-?mortem)\b|复盘|回顾/iu;

/**
 * Length of a text for the gate: characters after collapsing whitespace runs to one, CJK
 * characters counted double (settings `gate.richDocChars`: "CJK characters count double").
 */
export function gateLength(text: string): number {
  const collapsed = text.replace(/\s+/g, " ").trim();
  return [...collapsed].length + countCjk(collapsed);
}

/** Heading texts of blocks, without `#` marks or trailing `#`s. */
export function headingTexts(blocks: readonly JournalBlock[]): string[] {
  return blocks
    .filter((b) => b.kind === "heading")
    .map((b) =>
      b.text
        .replace(/^\s*#+\s*/, "")
        .replace(/\s+#+\s*$/, "")
        .trim(),
    );
}

/**
 * Sections of a document: its headings, except a single level-1 heading above other headings,
 * which is the document's title rather than a section.
 */
export function countSections(blocks: readonly JournalBlock[]): number {
  const levels = blocks
    .filter((b) => b.kind === "heading")
    .map((b) => /^\s*(#+)/.exec(b.text)?.[1]?.length ?? 1);
  const h1 = levels.filter((l) => l === 1).length;
  return h1 === 1 && levels.length > 1 ? levels.length - 1 : levels.length;
}

/** Expected item band for a gate length (settings `gate.min/maxItemsPer1000Chars`). */
export function expectedBand(length: number, settings: GateSettings): { min: number; max: number } {
  return {
    min: Math.floor((length / 1000) * settings.minItemsPer1000Chars),
    max: Math.max(1, Math.ceil((length / 1000) * settings.maxItemsPer1000Chars)),
  };
}

/**
 * Runs the checks. With `settings.enabled` false nothing fires.
 * @returns every check with whether it fired and why, and the action to take.
 */
export function runGate(input: GateInput, settings: GateSettings): GateOutcome {
  const length = gateLength(input.text);
  const band = expectedBand(length, settings);
  const count = input.items.length;
  const cats = new Set(input.items.map((i) => i.category));
  const has = (c: Category) => cats.has(c);
  const reviewWhere = [input.title, ...input.headings].find((h) => REVIEW_WORDS.test(h));
  const onlyCategory = cats.size === 1 ? [...cats][0] : undefined;

  const checks: GateCheck[] = [
    {
      name: "rich-without-knowledge",
      fired: length >= settings.richDocChars && !has("knowledge"),
      reason: `the journal is rich (${length} characters) but no knowledge item (a fact, metric or principle worth keeping) was found`,
    },
    {
      name: "review-without-decision",
      fired: reviewWhere !== undefined && !has("decision"),
      reason: `this is a review or retrospective ("${reviewWhere ?? ""}") but no decision (a direction that was settled) was found`,
    },
    {
      name: "single-category",
      fired:
        input.sections >= settings.minSectionsForSpread && count > 0 && onlyCategory !== undefined,
      reason: `the journal has ${input.sections} sections but every item found is a ${onlyCategory ?? "?"}; look at the other categories`,
    },
    {
      name: "below-band",
      fired: count < band.min,
      reason: `only ${count} item${count === 1 ? "" : "s"} found; a journal of this length usually gives about ${band.min}–${band.max}`,
    },
    {
      name: "above-band",
      fired: count >= MERGE_MIN_ITEMS && count > band.max * settings.mergeFactor,
      reason: `${count} items found; a journal of this length usually gives about ${band.min}–${band.max}, so duplicates and fragments should be merged`,
    },
  ];
  if (!settings.enabled) for (const c of checks) c.fired = false;
  const fired = checks.filter((c) => c.fired).map((c) => c.name);
  const action = fired.includes("above-band") ? "merge" : fired.length > 0 ? "rescan" : "none";
  return { checks, fired, action, length, band, count, categories: cats.size };
}
