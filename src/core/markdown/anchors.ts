import { closesFence, fenceAfter, fenceOpener } from "./fences";
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
const HEADING_RE = /^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$/;

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
    if (h) headings.add(normalizeHeading(h[2] ?? ""));
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

/**
 * The section under a heading of `text` (a note or its body), as Obsidian's `#Heading` link
 * reads it: the first heading outside fenced code whose text, without a trailing `^id`, matches
 * `heading` by {@link normalizeHeading}, through the line before the next heading of the same or a
 * higher level (or the end). The heading line is included; trailing white space is cut and `\r`
 * line ends are kept as they are. `null` when no heading matches.
 * @example sectionUnder("# A\nx\n## B\ny\n# C", "b") // "## B\ny"
 */
export function sectionUnder(text: string, heading: string): string | null {
  const lines = text.split("\n");
  const want = normalizeHeading(heading);
  let start = -1;
  let level = 0;
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? "").replace(/\r$/, "");
    const before = fence;
    fence = fenceAfter(fence, line);
    if (before !== null || fence !== null) continue;
    const h = HEADING_RE.exec(line);
    if (!h) continue;
    const lv = h[1]?.length ?? 1;
    if (start >= 0 && lv <= level) return lines.slice(start, i).join("\n").trimEnd();
    if (start < 0 && normalizeHeading((h[2] ?? "").replace(/\s\^[A-Za-z0-9-]+$/, "")) === want) {
      start = i;
      level = lv;
    }
  }
  return start >= 0 ? lines.slice(start).join("\n").trimEnd() : null;
}
