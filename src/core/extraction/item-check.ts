/**
 * Turns a validated reply item into an extracted item, or rejects it with a reason: an echo of the
 * prompt's examples or definitions (docs/architecture.md, "The checklist") or evidence not found in
 * the journal (docs/architecture.md, "Items and evidence"). The item's block comes from where its
 * evidence is found.
 */
import type { JournalBlock } from "../journal/blocks";
import { buildEvidenceIndex, locateEvidence, type EvidenceIndex } from "./evidence";
import {
  DUPLICATE_THRESHOLD as SAME_TEXT,
  similarity as textSimilarity,
  wordSimilarity,
} from "./dedupe";
import { CATEGORY_DEFINITIONS, PROMPT_EXAMPLES, type PromptExample } from "./prompt";
import type { ReplyItem } from "./reply";
import type { ExtractedItem, RejectedItem } from "./types";

/** Confidence of a model item that gave none. */
export const DEFAULT_CONFIDENCE = 0.7;

/** What the check needs about one journal; built once per run by {@link prepareItemCheck}. */
export interface ItemCheck {
  readonly blocks: readonly JournalBlock[];
  readonly index: EvidenceIndex;
  /** Prompt examples whose evidence is not in this journal: an item resembling one is an echo. */
  readonly foreignExamples: readonly PromptExample[];
  /** Ids of the open tracker items given to the model. */
  readonly openIds: ReadonlySet<string>;
}

/** Prepares the evidence index and the example filter for one journal. */
export function prepareItemCheck(
  blocks: readonly JournalBlock[],
  openIds: Iterable<string>,
): ItemCheck {
  const index = buildEvidenceIndex(blocks);
  return {
    blocks,
    index,
    foreignExamples: PROMPT_EXAMPLES.filter((e) => !locateEvidence(index, e.evidence).found),
    openIds: new Set([...openIds].map((id) => id.toLowerCase())),
  };
}

/** Below this, an item's evidence is about something else than the example it resembles. */
const RELATED_EVIDENCE = 0.6;

/**
 * An echo of the prompt: a category definition as the item's text; an example's evidence; or an
 * example's text backed by evidence unrelated to that example's (a journal that says much the same
 * thing as an example keeps its item).
 */
function echoes(item: ReplyItem, check: ItemCheck): boolean {
  if (Object.values(CATEGORY_DEFINITIONS).some((d) => textSimilarity(item.text, d) >= SAME_TEXT))
    return true;
  return check.foreignExamples.some((e) => {
    // Evidence is compared by its words alone: "barely convert" and "almost never convert" are
    // the same passage reworded, though one holds a negation.
    const evidence = wordSimilarity(item.evidence, e.evidence);
    if (evidence >= SAME_TEXT) return !locateEvidence(check.index, item.evidence).found;
    return textSimilarity(item.text, e.text) >= SAME_TEXT && evidence < RELATED_EVIDENCE;
  });
}

/**
 * Checks one reply item against the journal.
 * @returns the extracted item (origin `llm`, block from its evidence), or the rejection with the
 *   evidence shown.
 */
export function checkReplyItem(
  item: ReplyItem,
  check: ItemCheck,
): { item: ExtractedItem } | { rejected: RejectedItem } {
  const rejected = (reason: string) => ({
    rejected: { reason, category: item.category, text: item.text, evidence: item.evidence },
  });
  if (echoes(item, check))
    return rejected("copied from the prompt's examples or instructions, not from the journal");
  const match = locateEvidence(check.index, item.evidence);
  if (!match.found) return rejected(match.reason);
  const block = check.blocks[match.blockIndex];
  const out: ExtractedItem = {
    category: item.category,
    text: item.text,
    evidence: item.evidence,
    blockId: block?.blockId ?? null,
    blockIndex: match.blockIndex,
    confidence: item.confidence ?? DEFAULT_CONFIDENCE,
    origin: "llm",
  };
  if (item.topic) out.topic = item.topic;
  if (item.target) out.target = item.target;
  if (item.due) out.due = item.due;
  // A ref is kept only when it names an open item given to the model, or is written in the block.
  if (
    item.ref &&
    (check.openIds.has(item.ref) || (block?.text.toLowerCase().includes(item.ref) ?? false))
  )
    out.ref = item.ref;
  if (item.progress && item.category === "goal") out.progress = true;
  return { item: out };
}
