/**
 * Passage search (docs/architecture.md, "Passages"): the best blocks of a search, ranked together
 * across notes rather than grouped by note. The notes are chosen as `search` chooses them (query
 * language, scope, filters, expiry, phrases: {@link chooseNotes}); every block of the best {@link
 * PASSAGE_NOTES} of them is scored with BM25 against the blocks of all of them ({@link
 * weightedBlockScores}), and the best blocks win whichever note holds them. See docs/decisions.md,
 * "Passage search".
 */
import type { BlockScorer, RankedBlock } from "./block-rank";
import type { NoteMeta } from "./note-document";
import type { ParsedQuery } from "./query";
import {
  chooseNotes,
  round,
  weightedBlockScores,
  type ChosenNote,
  type RunContext,
} from "./query-runner";
import type { Settings } from "../settings";
import type { Passage, PassageResponse } from "./search-types";
import { textContainsPhrase } from "./engine/tokenizer";
import { formatWikilink } from "../markdown/wikilinks";

/**
 * Notes whose blocks compete for the passages of one search, by default (never fewer than the
 * passages asked for). A block inherits (note score / best note score)², so blocks of notes ranked
 * far down rarely win; on LoCoMo the best 10 notes gave turn R@10 75.6 and the best 50 75.7
 * (bench/results/locomo.md). 50 bounds what one search reads and scores in a large vault.
 */
export const PASSAGE_NOTES = 50;

/**
 * Share of its better neighbour's score a block receives (the block just before or after it in
 * the same note, the heading above it included, never the next section's heading): a reply that lacks the query's words gets some of the
 * question just before it, a list item some of its lead-in. Chosen on LoCoMo, so in-sample
 * (docs/decisions.md, "Passage search"): turn R@10 71.1 without, 74.2 at 0.1, 75.0 at 0.2, 75.7 at
 * 0.3, 75.9 at 0.5 (neighbours within a section); 0.3 is where the gain levels off, and a block's
 * own words still count more than three times its neighbour's. Letting a section's first block
 * lean on its heading as well gave 76.0.
 */
export const NEIGHBOUR_SHARE = 0.3;

/** Options of {@link rankPassages}. */
export interface PassageRunOptions {
  /** Passages wanted (≥ 0). */
  limit: number;
  /** Notes whose blocks compete (≥ limit). */
  notes: number;
  search: Settings["search"];
  nowMs: number;
  blocks: BlockScorer;
}

/** A heading block's text without its `#` marks and trailing `#`s. */
function headingText(text: string): string {
  return text
    .replace(/^#{1,6}\s+/, "")
    .replace(/\s+#+\s*$/, "")
    .trim();
}

/**
 * The Obsidian link to a block: by block id when it has one, else by the heading it sits under
 * (Obsidian drops `[]|#^` and `:` from a heading link's text, as we do), else the note itself.
 */
export function passageLink(path: string, blockId: string | null, heading: string | null): string {
  if (blockId) return formatWikilink({ path, blockId });
  const section = heading
    ?.replace(/[[\]|#^:]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return formatWikilink({ path, heading: section || null });
}

/** The passage of block `k` of a chosen note. */
export function passageOf(
  chosen: ChosenNote,
  blocks: readonly RankedBlock[],
  k: number,
  headings: readonly (string | null)[],
  score: number,
): Passage {
  const meta: NoteMeta = chosen.meta;
  const block = blocks[k]?.block;
  const id = block?.id ?? null;
  const heading = headings[k] ?? null;
  return {
    path: meta.path,
    title: meta.title,
    blockId: id,
    line: (chosen.note?.bodyLine ?? 0) + (block?.line ?? 0) + 1,
    heading,
    text: block?.text ?? "",
    score: round(score),
    agent: meta.agent,
    collection: meta.collection,
    link: passageLink(meta.path, id, heading),
  };
}

/** For each block, the text of the nearest heading above it (a heading's own text for a heading). */
export function headingsOf(blocks: readonly RankedBlock[]): (string | null)[] {
  let current: string | null = null;
  return blocks.map((b) => {
    if (b.block.heading) current = headingText(b.block.text);
    return current;
  });
}

/**
 * Ranks the blocks of the best notes together and keeps the best `limit` (docs/architecture.md,
 * "Passages"). With quoted phrases only blocks holding every phrase are passages. Heading blocks
 * are never passages (a heading alone says little; it is each passage's `heading`). Ties keep the
 * better note first, then the block's order in its note. Sets `response.total` as
 * `search` does (matching notes).
 * @param terms query terms (query tokenizer, stop words dropped)
 * @param required terms every note holding the phrases has; each is also in `terms`
 */
export async function rankPassages(
  ctx: RunContext,
  parsed: ParsedQuery,
  terms: string[],
  required: string[],
  opts: PassageRunOptions,
  response: PassageResponse,
): Promise<void> {
  const chosen = await chooseNotes(
    ctx,
    parsed,
    terms,
    required,
    { limit: opts.notes, search: opts.search, nowMs: opts.nowMs },
    response,
  );
  if (opts.limit === 0) return;
  const { blocks, scores } = weightedBlockScores(chosen, terms, opts.blocks);
  // With quoted phrases, a passage must hold them all, as `search` lists only such blocks.
  const holdsPhrases = (text: string): boolean =>
    parsed.phrases.every((p) => textContainsPhrase(text, p));
  const ranked: { note: number; block: number; score: number }[] = [];
  chosen.forEach((_, i) => {
    const own = scores[i] ?? [];
    const noteBlocks = blocks[i] ?? [];
    for (let k = 0; k < noteBlocks.length; k++) {
      const block = noteBlocks[k]?.block;
      if (!block || block.heading || !holdsPhrases(block.text)) continue;
      let score = own[k] ?? 0;
      if (NEIGHBOUR_SHARE > 0) {
        // The block above may be the heading of this block's section (its lead-in); the block
        // below is never a heading (that begins another section).
        const prev = own[k - 1] ?? 0;
        const next = noteBlocks[k + 1]?.block.heading ? 0 : (own[k + 1] ?? 0);
        score += NEIGHBOUR_SHARE * Math.max(prev, next);
      }
      if (score > 0) ranked.push({ note: i, block: k, score });
    }
  });
  ranked.sort((a, b) => b.score - a.score || a.note - b.note || a.block - b.block);
  const headings = new Map<number, (string | null)[]>();
  for (const r of ranked.slice(0, opts.limit)) {
    const noteBlocks = blocks[r.note] ?? [];
    let h = headings.get(r.note);
    if (!h) headings.set(r.note, (h = headingsOf(noteBlocks)));
    const chosenNote = chosen[r.note];
    if (chosenNote) response.results.push(passageOf(chosenNote, noteBlocks, r.block, h, r.score));
  }
}

/**
 * Passages of a query of filters alone (no words to rank by): the first block that is not a
 * heading of each listed note, newest note first (as `search` lists them), score 0.
 * @param listed the notes `listByDate` would list, in its order, with their text
 */
export function firstPassages(
  listed: readonly ChosenNote[],
  limit: number,
  response: PassageResponse,
): void {
  for (const chosen of listed) {
    if (response.results.length >= limit) break;
    const blocks = chosen.note?.blocks() ?? [];
    const k = blocks.findIndex((b) => !b.block.heading);
    if (k < 0) continue;
    response.results.push(passageOf(chosen, blocks, k, headingsOf(blocks), 0));
  }
}
