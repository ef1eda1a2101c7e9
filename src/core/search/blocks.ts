/**
 * Blocks of a note body for block-level search hits (issue 4 §2): the units an Obsidian block id
 * can point at — a paragraph, a list item with the lines indented under it, a heading, a
 * blockquote or callout, a table, a fenced code block. A block id is `^id` at the end of the
 * block's last line, alone on the line right after the block (Obsidian's form for lists, quotes
 * and tables), or — for a list item with lines indented under it, as in trackers — at the end of
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
const FENCE = /^\s*(```|~~~)/;
const LIST_ITEM = /^(\s*)([-*+]|\d+[.)])\s/;
const QUOTE = /^\s*>/;
const TABLE = /^\s*\|/;

function indentOf(line: string): number {
  let n = 0;
  for (const ch of line) {
    if (ch === " ") n += 1;
    else if (ch === "\t") n += 4;
    else break;
  }
  return n;
}

/** Splits a note body (frontmatter removed) into blocks, in order. Never throws. */
export function splitSearchBlocks(body: string): SearchBlock[] {
  const lines = body.split(/\r?\n/);
  const blocks: SearchBlock[] = [];
  let i = 0;
  const push = (start: number, end: number, heading = false, listItem = false): void => {
    const chunk = lines.slice(start, end);
    let id: string | null = null;
    const next = lines[end];
    const takeIdAt = (i: number): void => {
      const line = chunk[i] ?? "";
      const m = BLOCK_ID_AT_END.exec(line);
      if (m) {
        id = m[1] ?? null;
        chunk[i] = line.slice(0, m.index);
      }
    };
    if (next !== undefined && BLOCK_ID_LINE.test(next)) {
      id = BLOCK_ID_LINE.exec(next)?.[1] ?? null;
    } else {
      takeIdAt(chunk.length - 1);
      // A list item's id sits at the end of its own line, above the lines indented under it.
      if (id === null && listItem) takeIdAt(0);
    }
    const text = chunk.join("\n").trim();
    if (text !== "") blocks.push({ id, text, line: start, heading });
  };
  while (i < lines.length) {
    const line = lines[i] ?? "";
    if (line.trim() === "" || BLOCK_ID_LINE.test(line)) {
      i++;
      continue;
    }
    const start = i;
    if (FENCE.test(line)) {
      const fence = FENCE.exec(line)?.[1] ?? "```";
      i++;
      while (i < lines.length && !(lines[i] ?? "").trimStart().startsWith(fence)) i++;
      push(start, Math.min(i + 1, lines.length));
      i++;
    } else if (HEADING.test(line)) {
      push(start, start + 1, true);
      i++;
    } else if (LIST_ITEM.test(line)) {
      const indent = indentOf(line);
      i++;
      while (i < lines.length) {
        const l = lines[i] ?? "";
        if (l.trim() === "") break;
        if (LIST_ITEM.test(l) && indentOf(l) <= indent) break;
        if (HEADING.test(l) || BLOCK_ID_LINE.test(l)) break;
        i++;
      }
      push(start, i, false, true);
    } else if (QUOTE.test(line) || TABLE.test(line)) {
      const re = QUOTE.test(line) ? QUOTE : TABLE;
      while (i < lines.length && re.test(lines[i] ?? "")) i++;
      push(start, i);
    } else {
      i++;
      while (i < lines.length) {
        const l = lines[i] ?? "";
        if (l.trim() === "" || HEADING.test(l) || FENCE.test(l) || LIST_ITEM.test(l) || BLOCK_ID_LINE.test(l)) break;
        i++;
      }
      push(start, i);
    }
  }
  return blocks;
}
