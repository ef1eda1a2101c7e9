/**
 * Journal blocks and block ids (DESIGN §2 "Journals", issue 2 §5). TO BE IMPLEMENTED (helper A).
 */

/** A block of a journal body: what a block id can be attached to. */
export interface JournalBlock {
  kind: "heading" | "paragraph" | "list-item" | "callout" | "code" | "table" | "other";
  /** The block's text as written, without its trailing ` ^id` marker; lines joined with `\n`. */
  text: string;
  /** 0-based index of the block's first line in the body. */
  startLine: number;
  /** 0-based index one past the block's last line in the body. */
  endLine: number;
  /** Existing block id (without `^`), or `null`. */
  blockId: string | null;
  /** Heading texts above the block, outermost first (headings as context). */
  headings: string[];
}

/** Splits a journal body (frontmatter removed) into blocks. Never throws. */
export function splitBlocks(body: string): JournalBlock[] {
  void body;
  return [];
}
