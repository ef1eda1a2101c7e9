/**
 * Compaction (docs/compaction.md): weekly digest notes of an agent's journals, nothing deleted.
 *
 * {@link compactJournals} groups the agent's journals by ISO week ({@link isoWeekOf}), keeps the
 * weeks that end before `before`, and for each writes `<journal folder>/Digests/YYYY-Www.md`
 * ({@link mergeDigest}): the week's journals, what their blocks produced by category (each line
 * linked to its source block), and the blocks nothing was extracted from. Journals are only read.
 * A digest is written through one `VaultPort.process` call; a re-run on unchanged memory writes
 * nothing. With a {@link Summarizer}, a short generated summary goes on top, asked for only when
 * the listing changed (or the digest has none), so a re-run makes no model call.
 */
import { CATEGORIES, type Category, CATEGORY_LABELS } from "../extraction/types";
import { sourceLink } from "../extraction/destination-match";
import { truncateLine } from "../markdown/text";
import { MemoryError, UsageError, errorMessage } from "../errors";
import { extractionHash, splitBlocks, type JournalBlock } from "../journal/blocks";
import { blockLink } from "../markdown/block-link";
import { findWikilinks, formatWikilink, noteName } from "../markdown/wikilinks";
import { readNoteInfo } from "../health/note-info";
import { journalDate } from "../health/time-rules";
import { knownAgents, unknownAgentError } from "../init";
import { joinPath, type MemoryLayout } from "../layout";
import { isIsoDate, localTimestamp, type IsoDate } from "../util/dates";
import type { Settings } from "../settings";
import type { VaultPort } from "../vault";
import { DIGESTS_FOLDER, isNotJournal } from "../note-types";
import { digestState, listingHash, mergeDigest } from "./digest-note";
import { blockKey, indexProducedItems, type ProducedIndex, type ProducedItem } from "./produced";
import { isoWeekOf, type IsoWeek } from "../util/dates";

/** Writes the short summary on top of a digest: a language model in the CLI and the plugin. */
export interface Summarizer {
  /** Model name, written in the summary's title. */
  readonly model: string;
  /**
   * A few plain sentences summing up the digest `listing` (Markdown lines) of `week`.
   * @throws whatever the model client throws (e.g. {@link LlmError}); the digest is then written without a new summary.
   */
  summarize(
    input: { agent: string; week: string; listing: string },
    signal?: AbortSignal,
  ): Promise<string>;
}

/** Options of {@link compactJournals}. */
export interface CompactOptions {
  vault: VaultPort;
  layout: MemoryLayout;
  settings: Settings;
  /** An existing agent. */
  agent: string;
  /** `YYYY-MM-DD`: only weeks whose Sunday is before this day are digested. */
  before: IsoDate;
  /** Plan only: report what would be written, write nothing (and ask no model). */
  dryRun?: boolean;
  summarizer?: Summarizer;
  /** Clock, for tests (`created_at` / `updated_at` of digests). */
  now?: () => Date;
  signal?: AbortSignal;
}

/** What happened to one week's digest. */
export interface DigestReport {
  week: string;
  start: IsoDate;
  end: IsoDate;
  /** Vault path of the digest. */
  path: string;
  /** Vault paths of the week's journals, by date. */
  journals: string[];
  /** Items linked from the week's blocks, per category (every category present, 0 when none). */
  items: Record<Category, number>;
  /** Blocks nothing was extracted from. */
  notExtracted: number;
  /** `create`/`update`: written (or would be, in a dry run); `unchanged`: nothing to write; `refused`: see `reason`. */
  action: "create" | "update" | "unchanged" | "refused";
  /** `generated`: a new summary; `kept`: the digest's own; `failed`: the model failed (see `reason`); `none`: no model. */
  summary: "generated" | "kept" | "failed" | "none";
  reason?: string;
}

/** The result of a run (the shape of `agent-memory compact --json`). */
export interface CompactReport {
  agent: string;
  before: IsoDate;
  dryRun: boolean;
  /** Journals read, and those dated on or after the week of `before` (left for a later run). */
  journals: number;
  laterJournals: number;
  digests: DigestReport[];
  /** Vault paths written. */
  writes: string[];
}

/** A journal of the agent, read once. */
interface JournalRead {
  path: string;
  date: IsoDate;
  blocks: JournalBlock[];
  /** `extracted`: its `extraction_hash` matches; `changed`: it has one that no longer matches; `never`: none. */
  extraction: "extracted" | "changed" | "never";
}

/** Block kinds worth listing when nothing came of them (headings and thematic breaks are not content). */
const CONTENT_KINDS = new Set<JournalBlock["kind"]>([
  "paragraph",
  "list-item",
  "callout",
  "table",
  "code",
]);

/** Longest item text in a digest line, in characters. */
const MAX_ITEM_CHARS = 240;

/** Longest excerpt of a block nothing was extracted from, in characters. */
const EXCERPT_CHARS = 160;

/** Vault path of the digest of `week` for `agent`: `<journal folder>/Digests/YYYY-Www.md`. */
export function digestPath(
  layout: MemoryLayout,
  agent: string,
  week: Pick<IsoWeek, "label">,
): string {
  return layout.under(joinPath(layout.journalFolder(agent), DIGESTS_FOLDER, `${week.label}.md`));
}

const STATUS_WORD: Readonly<Record<string, string>> = {
  open: "open",
  "in-progress": "in progress",
  done: "done",
  abandoned: "abandoned",
};

function itemLine(item: ProducedItem): string {
  // The item's own link, shown by its id (`t-005`) or its note's name (`Content quality`).
  const own = findWikilinks(item.itemLink)[0];
  const where = own
    ? formatWikilink({ ...own, alias: own.blockId ?? noteName(item.itemPath) })
    : item.itemLink;
  const status = item.status !== undefined ? ` (${STATUS_WORD[item.status] ?? item.status})` : "";
  return `- ${truncateLine(item.text, MAX_ITEM_CHARS)}${status} — ${where} · from ${sourceLink(item.journal, item.blockId)}`;
}

/** The listing of one week: journals, items by category, blocks nothing was extracted from. */
function renderListing(
  journals: readonly JournalRead[],
  produced: ProducedIndex,
): { lines: string[]; items: Record<Category, number>; notExtracted: number } {
  const items = Object.fromEntries(CATEGORIES.map((c) => [c, 0])) as Record<Category, number>;
  const byCategory = new Map<Category, string[]>();
  const idle: string[] = [];
  const journalLines: string[] = [];
  for (const j of journals) {
    let count = 0;
    let unused = 0;
    for (const block of j.blocks) {
      if (!CONTENT_KINDS.has(block.kind) || block.text.trim() === "") continue;
      const found = block.blockId ? (produced.get(blockKey(j.path, block.blockId)) ?? []) : [];
      if (found.length === 0) {
        unused++;
        idle.push(`- ${truncateLine(block.text, EXCERPT_CHARS)} ${blockLink(j.path, block)}`);
        continue;
      }
      for (const item of found) {
        count++;
        items[item.category]++;
        const list = byCategory.get(item.category) ?? [];
        list.push(itemLine(item));
        byCategory.set(item.category, list);
      }
    }
    const state =
      j.extraction === "never"
        ? "not extracted yet"
        : j.extraction === "changed"
          ? "changed since it was extracted"
          : `${count} item${count === 1 ? "" : "s"}`;
    journalLines.push(
      `- ${sourceLink(j.path, null)} (${j.date}): ${state}; ${unused} block${unused === 1 ? "" : "s"} with nothing extracted`,
    );
  }
  const lines = ["## Journals", "", ...journalLines];
  for (const c of CATEGORIES) {
    const list = byCategory.get(c);
    if (!list) continue;
    lines.push("", `## ${CATEGORY_LABELS[c]} (${list.length})`, "", ...list);
  }
  lines.push("", `## Nothing extracted (${idle.length})`, "");
  lines.push(...(idle.length > 0 ? idle : ["- every block of the week produced an item"]));
  return { lines, items, notExtracted: idle.length };
}

/**
 * The agent's journals (its journal folder, digests and review notes left out), each read once
 * and dated by {@link journalDate}.
 */
async function readJournals(
  vault: VaultPort,
  layout: MemoryLayout,
  agent: string,
): Promise<JournalRead[]> {
  const folder = layout.journalFolder(agent);
  const digests = `${joinPath(folder, DIGESTS_FOLDER)}/`;
  const out: JournalRead[] = [];
  for (const f of await vault.list(folder)) {
    if (f.path.startsWith(digests)) continue;
    const note = readNoteInfo(f.path, await vault.read(f.path), f, {
      collection: "journal",
      agent,
    });
    if (isNotJournal(note.data)) continue;
    const recorded = note.data?.extraction_hash;
    const extraction =
      typeof recorded !== "string"
        ? "never"
        : recorded === extractionHash(note.body)
          ? "extracted"
          : "changed";
    out.push({ path: f.path, date: journalDate(note), blocks: splitBlocks(note.body), extraction });
  }
  return out.sort((a, b) =>
    a.date < b.date ? -1 : a.date > b.date ? 1 : a.path < b.path ? -1 : 1,
  );
}

/**
 * Writes (or, with `dryRun`, plans) the weekly digests of `agent` for the weeks ending before
 * `before`. Journals are never written. A digest whose markers are gone is refused and reported,
 * not rewritten; a model that fails leaves the digest without a new summary and says so.
 * @returns one {@link DigestReport} per week that has journals, oldest first.
 * @throws UsageError for a `before` that is not a date or an agent that does not exist;
 *   PathError for an unsafe agent name; VaultError when a note cannot be read or written.
 */
export async function compactJournals(options: CompactOptions): Promise<CompactReport> {
  const { vault, layout, settings, agent, before } = options;
  if (!isIsoDate(before))
    throw new UsageError(
      `--before must be a date YYYY-MM-DD, got ${JSON.stringify(before)}`,
      "--before",
    );
  layout.agentRoot(agent); // PathError for an unsafe name
  const known = await knownAgents(vault, layout);
  if (!known.includes(agent))
    throw unknownAgentError(agent, known, "pass --agent with a known agent");
  const journals = await readJournals(vault, layout, agent);
  const weeks = new Map<string, { week: IsoWeek; journals: JournalRead[] }>();
  let later = 0;
  for (const j of journals) {
    const week = isoWeekOf(j.date);
    if (week.end >= before) {
      later++;
      continue;
    }
    const entry = weeks.get(week.label) ?? { week, journals: [] };
    entry.journals.push(j);
    weeks.set(week.label, entry);
  }
  const report: CompactReport = {
    agent,
    before,
    dryRun: options.dryRun === true,
    journals: journals.length,
    laterJournals: later,
    digests: [],
    writes: [],
  };
  if (weeks.size === 0) return report;
  const produced = await indexProducedItems(
    vault,
    layout,
    settings,
    agent,
    (await vault.list()).map((f) => f.path),
  );
  const timestamp = localTimestamp((options.now ?? (() => new Date()))());
  for (const { week, journals: group } of [...weeks.values()].sort((a, b) =>
    a.week.start < b.week.start ? -1 : 1,
  )) {
    const path = digestPath(layout, agent, week);
    const { lines, items, notExtracted } = renderListing(group, produced);
    const row: DigestReport = {
      week: week.label,
      start: week.start,
      end: week.end,
      path,
      journals: group.map((j) => j.path),
      items,
      notExtracted,
      action: "unchanged",
      summary: "none",
    };
    report.digests.push(row);
    const current = (await vault.exists(path)) ? await vault.read(path) : null;
    const content = {
      agent,
      week: week.label,
      start: week.start,
      end: week.end,
      listing: lines,
      summary: null,
      timestamp,
    };
    let merged: string;
    try {
      const state = digestState(current, path);
      if (state?.hasSummary) row.summary = "kept";
      merged = mergeDigest(current, content, path);
      row.action =
        current === null || current.trim() === ""
          ? "create"
          : merged === current
            ? "unchanged"
            : "update";
      const wantsSummary =
        options.summarizer !== undefined &&
        (state === null || !state.hasSummary || state.hash !== listingHash(lines));
      if (options.dryRun) continue;
      let summary: { text: string; model: string } | null = null;
      if (wantsSummary && options.summarizer) {
        try {
          const text = await options.summarizer.summarize(
            { agent, week: week.label, listing: lines.join("\n") },
            options.signal,
          );
          if (text.trim() !== "") summary = { text, model: options.summarizer.model };
          row.summary = summary ? "generated" : row.summary;
        } catch (err) {
          row.summary = "failed";
          row.reason = `the summary was not written: ${errorMessage(err)}`;
        }
      }
      const written = await vault.process(path, (now) =>
        mergeDigest(now, { ...content, summary }, path),
      );
      if (written) {
        report.writes.push(path);
        if (row.action === "unchanged") row.action = "update";
      }
    } catch (err) {
      if (!(err instanceof MemoryError)) throw err;
      row.action = "refused";
      row.reason = errorMessage(err);
    }
  }
  return report;
}
