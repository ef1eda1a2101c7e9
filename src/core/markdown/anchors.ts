import { closesFence, fenceOpener } from "./fences";
/**
 * What a link can point at inside a note: its block ids (`^id` ending a line, as Obsidian writes
 * them) and its headings, outside fenced code (https://help.obsidian.md/links). The health check
 * checks `#^id` and `#Heading` links against them; the MCP `read_note` tool reads a heading.
 */

const BLOCK_ID_RE = /(?:^|\s)\^([A-Za-z0-9-]+)\s*$/;

/** The block id (without `^`) a line ends with as Obsidian reads it (`text ^t-003`), or `null`. */
export function trailingBlockId(line: string): string | null {
  return BLOCK_ID_RE.exec(line)?.[1] ?? null;
}
const HEADING_RE = /^ {0,3}#{1,6}[ \t]+(.*?)[ \t#]*$/;

/** Block ids and headings of a note, for checking `#^id` and `#Heading` links. */
export interface NoteAnchors {
  /** Lower-cased block id → 1-based lines where it ends a line (more than one is a duplicate). */
  blockIds: Map<string, number[]>;
  /** Headings, normalised by {@link normalizeHeading}. */
  headings: Set<string>;
}

/** Obsidian matches heading links ignoring case and the characters a link cannot hold. */
export function normalizeHeading(h: string): string {
  return h
    .replace(/[#^[\]|:\\]/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();
}

/**
 * Finds the block ids (a `^id` ending a line, as Obsidian writes them) and headings of a note,
 * outside fenced code. `firstLine` is the 1-based line of `body`'s first line in the note.
 */
export function scanAnchors(body: string, firstLine = 1): NoteAnchors {
  const blockIds = new Map<string, number[]>();
  const headings = new Set<string>();
  let fence: string | null = null;
  const lines = body.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? "").replace(/\r$/, "");
    if (fence !== null) {
      if (closesFence(line, fence)) fence = null;
      continue;
    }
    fence = fenceOpener(line);
    if (fence !== null) continue;
    const h = HEADING_RE.exec(line);
    if (h) headings.add(normalizeHeading(h[1] ?? ""));
    const b = BLOCK_ID_RE.exec(line);
    if (b?.[1]) {
      const id = b[1].toLowerCase();
      const at = blockIds.get(id);
      if (at) at.push(firstLine + i);
      else blockIds.set(id, [firstLine + i]);
    }
  }
  return { blockIds, headings };
}
