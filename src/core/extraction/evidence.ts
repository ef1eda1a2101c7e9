/**
 * The evidence check (docs/architecture.md, "Items and evidence"): an item's evidence must occur in
 * the journal, compared after normalising whitespace, punctuation, case and full-/half-width forms.
 * Where it is found gives the item its block.
 */
import type { JournalBlock } from "../journal/blocks";
import { replaceWikilinks } from "../markdown/wikilinks";
import { foldForMatch } from "../markdown/text";

/** Shortest folded evidence accepted: shorter quotes would match almost any journal. */
const MIN_EVIDENCE_CHARS = 6;
/** Same, for evidence made of CJK characters (each carries a word's worth of meaning). */
const MIN_EVIDENCE_CJK = 2;

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** Markdown reduced to what a reader sees: link targets and aliases collapsed, block ids dropped. */
export function stripMarkup(text: string): string {
  return replaceWikilinks(
    text,
    (link, inner, alias) => `${link.raw.startsWith("!") ? "!" : ""}${alias ?? inner}`,
  )
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[[\p{L}\p{N}_-]+::\s*([^\]]*)\]/gu, "$1")
    .replace(/(^|\s)\^[A-Za-z0-9-]+(?=\s|$)/gm, "$1");
}

/** A journal prepared for evidence lookups. */
export interface EvidenceIndex {
  /** Per block: folded text as written, and with Markdown links collapsed. */
  readonly blocks: readonly { raw: string; plain: string }[];
  /** All blocks' folded texts joined, with the offset where each block starts. */
  readonly joined: string;
  readonly starts: readonly number[];
}

/** Prepares the blocks of one journal for {@link locateEvidence}. */
export function buildEvidenceIndex(blocks: readonly JournalBlock[]): EvidenceIndex {
  const folded = blocks.map((b) => ({
    raw: foldForMatch(b.text),
    plain: foldForMatch(stripMarkup(b.text)),
  }));
  const starts: number[] = [];
  let joined = "";
  for (const b of folded) {
    starts.push(joined.length);
    joined += b.raw;
  }
  return { blocks: folded, joined, starts };
}

export type EvidenceMatch = { found: true; blockIndex: number } | { found: false; reason: string };

/** Parts of a quote the model elided with `…` or `...`, each to be found in order. */
function quoteParts(evidence: string): string[] {
  return stripMarkup(evidence)
    .split(/\.{3,}|…+|⋯+/u)
    .map(foldForMatch)
    .filter((p) => p.length > 0);
}

function longEnough(part: string): boolean {
  return (
    part.length >= MIN_EVIDENCE_CHARS || (CJK.test(part) && [...part].length >= MIN_EVIDENCE_CJK)
  );
}

function partsInOrder(haystack: string, parts: readonly string[]): boolean {
  let from = 0;
  for (const part of parts) {
    const at = haystack.indexOf(part, from);
    if (at < 0) return false;
    from = at + part.length;
  }
  return true;
}

/**
 * Finds where `evidence` occurs in the journal.
 * A quote with an elision (`…`) matches when its parts occur in order within one block; a quote
 * without one may also run across adjacent blocks, in which case the first block is used.
 * @returns the index of the block holding the evidence, or the reason it is rejected.
 */
export function locateEvidence(index: EvidenceIndex, evidence: string): EvidenceMatch {
  const parts = quoteParts(evidence);
  const total = parts.join("");
  if (total.length === 0) return { found: false, reason: "evidence is empty" };
  if (!longEnough(total))
    return { found: false, reason: "evidence is too short to check against the journal" };
  for (let i = 0; i < index.blocks.length; i++) {
    const b = index.blocks[i];
    if (b && (partsInOrder(b.raw, parts) || partsInOrder(b.plain, parts)))
      return { found: true, blockIndex: i };
  }
  if (parts.length === 1) {
    const at = index.joined.indexOf(total);
    if (at >= 0) {
      const blockIndex = index.starts.findIndex(
        (start, i) => start <= at && at < start + (index.blocks[i]?.raw.length ?? 0),
      );
      if (blockIndex >= 0) return { found: true, blockIndex };
    }
  }
  return { found: false, reason: "evidence not found in the journal (unsupported)" };
}
