import { closesFence, fenceOpener } from "../markdown/fences";
/**
 * Blocks of a note body for block-level search hits (docs/architecture.md, "The index"): the units
 * an Obsidian block id can point at — a paragraph, a list item with the lines indented under it, a
 * heading, a blockquote or callout, a table, a fenced code block. A block id is `^id` at the end of
 * the block's last line, alone on the line right after the block (Obsidian's form for lists, quotes
 * and tables; for a quote, callout or table also after one blank line), or — for a list item with
 * lines indented under it, as in trackers — at the end of
 * the item's own line. See https://help.obsidian.md/links#Link+to+a+block+in+a+note
 *
 * This is a reader for search only: it never rewrites a note, so it keeps no byte offsets.
 */

/** A block of a note body. */
export interface SearchBlock {
  /** Block id without `^`, or `null` when the block has none. */
  id: string | null;
  /** The block's text, without its block id marker; lines joined with `\n`. */
  text: string;
  /** 0-based line of the block's first line in the body. */
  line: number;
  /** True for a heading line. */
  heading: boolean;
}

const BLOCK_ID_AT_END = /\s\^([A-Za-z0-9-]+)\s*$/;
const BLOCK_ID_LINE = /^\s*\^([A-Za-z0-9-]+)\s*$/;
const HEADING = /^#{1,6}\s/;
const LIST_ITEM = /^(\s*)([-*+]|\d+[.)])\s/;

function indentOf(line: string): number {
  let n = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 32) n += 1;
    else if (c === 9) n += 4;
    else break;
  }
  return n;
}

// Line kinds, as small integers (an array of them costs the garbage collector nothing to scan).
const BLANK = 0;
const ID = 1;
const FENCE_LINE = 2;
const HEADING_LINE = 3;
const LIST = 4;
const QUOTE = 5;
const TABLE = 6;
const TEXT = 7;

/** What a line is, from its first non-space character (one regular expression at most). */
function kindOf(line: string): number {
  let i = 0;
  let c = line.charCodeAt(0);
  while (c === 32 || c === 9) c = line.charCodeAt(++i);
  if (Number.isNaN(c)) return BLANK;
  switch (c) {
    case 94: // ^
      return BLOCK_ID_LINE.test(line) ? ID : TEXT;
    case 96: // `
    case 126: // ~
      return fenceOpener(line.trimStart()) !== null ? FENCE_LINE : TEXT;
    case 35: // #
      return i === 0 && HEADING.test(line) ? HEADING_LINE : TEXT;
    case 62: // >
      return QUOTE;
    case 124: // |
      return TABLE;
    case 45: // -
    case 42: // *
    case 43: // +
      return LIST_ITEM.test(line) ? LIST : TEXT;
    default:
      return c >= 48 && c <= 57 && LIST_ITEM.test(line) ? LIST : TEXT;
  }
}

/** The lines of a body being split, their kinds, and the blocks found so far. */
interface Split {
  lines: string[];
  kinds: Uint8Array;
  blocks: SearchBlock[];
}

/** The block id at the end of line `k` (see {@link BLOCK_ID_AT_END}), or `null`. */
function idAt(lines: string[], k: number): RegExpExecArray | null {
  return BLOCK_ID_AT_END.exec(lines[k] ?? "");
}

/** Adds the block of lines `start` to `end - 1` (unless it is blank) with its block id. */
function pushBlock(
  s: Split,
  start: number,
  end: number,
  heading: boolean,
  listItem: boolean,
  idLine?: number,
): void {
  const { lines } = s;
  let id: string | null = null;
  let cut = -1;
  let cutAt = 0;
  if (s.kinds[end] === ID) {
    id = BLOCK_ID_LINE.exec(lines[end] ?? "")?.[1] ?? null;
  } else if (idLine !== undefined) {
    id = BLOCK_ID_LINE.exec(lines[idLine] ?? "")?.[1] ?? null;
  } else {
    let m = idAt(lines, end - 1);
    if (m) cut = end - 1;
    // A list item's id sits at the end of its own line, above the lines indented under it.
    else if (listItem) {
      m = idAt(lines, start);
      if (m) cut = start;
    }
    if (m) {
      id = m[1] ?? null;
      cutAt = m.index;
    }
  }
  let joined: string;
  if (end - start === 1)
    joined = cut < 0 ? (lines[start] ?? "") : (lines[start] ?? "").slice(0, cutAt);
  else {
    const chunk = lines.slice(start, end);
    if (cut >= 0) chunk[cut - start] = (chunk[cut - start] ?? "").slice(0, cutAt);
    joined = chunk.join("\n");
  }
  const text = joined.trim();
  if (text !== "") s.blocks.push({ id, text, line: start, heading });
}

/** Splits a note body (frontmatter removed) into blocks, in order. Never throws. */
export function splitSearchBlocks(body: string): SearchBlock[] {
  const lines = body.split(/\r?\n/);
  const kinds = new Uint8Array(lines.length + 1);
  for (let k = 0; k < lines.length; k++) kinds[k] = kindOf(lines[k] ?? "");
  // Past the last line: blank (as `kinds[end]` of the last block was undefined before).
  kinds[lines.length] = BLANK;
  const s: Split = { lines, kinds, blocks: [] };
  let i = 0;
  while (i < lines.length) {
    const kind = kinds[i];
    if (kind === BLANK || kind === ID) {
      i++;
      continue;
    }
    const start = i;
    if (kind === FENCE_LINE) {
      const fence = fenceOpener((lines[i] ?? "").trimStart()) ?? "```";
      i++;
      while (i < lines.length && !closesFence((lines[i] ?? "").trimStart(), fence)) i++;
      pushBlock(s, start, Math.min(i + 1, lines.length), false, false);
      i++;
    } else if (kind === HEADING_LINE) {
      pushBlock(s, start, start + 1, true, false);
      i++;
    } else if (kind === LIST) {
      const indent = indentOf(lines[i] ?? "");
      i++;
      while (i < lines.length) {
        const k = kinds[i];
        if (k === BLANK || k === HEADING_LINE || k === ID) break;
        if (k === LIST && indentOf(lines[i] ?? "") <= indent) break;
        i++;
      }
      pushBlock(s, start, i, false, true);
    } else if (kind === QUOTE || kind === TABLE) {
      while (i < lines.length && kinds[i] === kind) i++;
      // Obsidian's other form for a callout or table: the id alone after one blank line.
      pushBlock(
        s,
        start,
        i,
        false,
        false,
        kinds[i] === BLANK && kinds[i + 1] === ID ? i + 1 : undefined,
      );
    } else {
      i++;
      while (i < lines.length && kinds[i] === TEXT) i++;
      pushBlock(s, start, i, false, false);
    }
  }
  return s.blocks;
}
