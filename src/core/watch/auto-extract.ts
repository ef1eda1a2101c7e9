/**
 * Watch and extract (docs/compaction.md): what happens to a journal once it has been left unchanged
 * (see {@link QuietTimers}). It is planned as `extract` plans it; with auto-apply the plan is
 * written, otherwise it is queued for a person ({@link appendQueueEntry}) and nothing else is
 * written. Off by default (settings `watch.extractAfterMinutes` 0; the MCP server's
 * `--watch-extract MINUTES`).
 */
import { MemoryError, errorMessage } from "../errors";
import { reportActionWords } from "../extraction/action-words";
import { applyPlan, planExtraction } from "../extraction/pipeline";
import type { Extractor } from "../extraction/types";
import { DIGESTS_FOLDER, isNotJournal } from "../note-types";
import { parseNote } from "../frontmatter";
import { joinPath, type MemoryLayout } from "../layout";
import { localTimestamp } from "../util/dates";
import type { Settings } from "../settings";
import type { VaultPort } from "../vault";
import { appendQueueEntry, reviewQueuePath } from "./review-queue";

/** What became of one quiet journal. */
export type QuietOutcome =
  | { kind: "ignored"; reason: string }
  | { kind: "unchanged" }
  | { kind: "nothing-new"; items: number }
  | { kind: "applied"; writes: string[]; failed: number }
  | { kind: "queued"; queuePath: string; written: boolean; items: number };

/** Options of {@link extractQuietJournal}. */
export interface QuietExtractOptions {
  vault: VaultPort;
  layout: MemoryLayout;
  settings: Settings;
  journalPath: string;
  extractor: Extractor;
  /** Write the plan at once instead of queueing it. */
  autoApply: boolean;
  /** Agent the journal belongs to (the MCP server's); default: its folder's. */
  agent?: string;
  now?: () => Date;
}

/**
 * True for a note watch-and-extract may extract: a journal (by folder) that is not a digest, its
 * Digests folder or another generated note (src/core/note-types.ts). `data` is its frontmatter
 * and `text` its whole text, when already read.
 */
export function isWatchedJournal(
  layout: MemoryLayout,
  path: string,
  data?: Record<string, unknown> | null,
  text?: string,
): boolean {
  if (layout.collectionOf(path) !== "journal") return false;
  const agent = layout.agentOf(path);
  if (
    agent !== null &&
    path.startsWith(`${joinPath(layout.journalFolder(agent), DIGESTS_FOLDER)}/`)
  )
    return false;
  return !isNotJournal(data, text);
}

/**
 * Plans the journal and applies the plan (`autoApply`) or queues it in the agent's review queue.
 * A journal unchanged since its last extraction writes nothing; so does a plan with nothing a
 * person would have to accept (every item already recorded, nothing rejected).
 * @throws whatever {@link planExtraction} and {@link applyPlan} throw (a journal that does not
 *   parse, a model that fails); the caller logs it and the journal is tried at its next change.
 */
export async function extractQuietJournal(options: QuietExtractOptions): Promise<QuietOutcome> {
  const { vault, layout, settings, journalPath } = options;
  const now = options.now ?? (() => new Date());
  if (!(await vault.exists(journalPath))) return { kind: "ignored", reason: "gone" };
  let data: Record<string, unknown> | null;
  let text: string;
  try {
    text = await vault.read(journalPath);
    data = parseNote(text, journalPath).data;
  } catch (err) {
    if (err instanceof MemoryError) return { kind: "ignored", reason: errorMessage(err) };
    throw err;
  }
  if (!isWatchedJournal(layout, journalPath, data, text))
    return { kind: "ignored", reason: "not a journal" };
  const plan = await planExtraction({
    vault,
    settings,
    layout,
    journalPath,
    extractor: options.extractor,
    newAgent: "refuse",
    now,
    ...(options.agent !== undefined ? { agent: options.agent } : {}),
  });
  if (plan.skipped) return { kind: "unchanged" };
  const toReview = plan.items.filter((p) => p.action !== "skip");
  if (options.autoApply) {
    const applied = await applyPlan(vault, layout, plan, now);
    return { kind: "applied", writes: applied.writes, failed: applied.failed.length };
  }
  if (toReview.length === 0 && plan.rejected.length === 0)
    return { kind: "nothing-new", items: plan.items.length };
  const queuePath = reviewQueuePath(layout, plan.agent);
  const words = reportActionWords(toReview);
  const items = [
    ...toReview.map(
      (p, i) => `${p.item.category}: ${p.item.text} → ${p.destination} (${words[i] ?? ""})`,
    ),
    ...plan.rejected.map((r) => `rejected: ${r.reason}${r.text ? ` — ${r.text}` : ""}`),
  ];
  const entry = {
    journal: plan.journal,
    hash: plan.extractionHash,
    queued: localTimestamp(now()),
    extractor: plan.extractor,
    items,
  };
  const written = await vault.process(queuePath, (current) =>
    appendQueueEntry(current, entry, { agent: plan.agent, path: queuePath }),
  );
  return { kind: "queued", queuePath, written, items: toReview.length };
}
