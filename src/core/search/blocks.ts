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

function indentOf(line: string): number {
  let n = 0;
  for (const ch of line) {
    if (ch === " ") n += 1;
    else if (ch === "\t") n += 4;
    else break;
  }
  return n;
}

type LineKind = "blank" | "id" | "fence" | "heading" | "list" | "quote" | "table" | "text";

/** What a line is, from its first non-space character (one regular expression at most). */
function kindOf(line: string): LineKind {
  let i = 0;
  while (i < line.length && (line[i] === " " || line[i] === "\t")) i++;
  const ch = line[i];
  if (ch === undefined) return "blank";
  switch (ch) {
    case "^":
      return BLOCK_ID_LINE.test(line) ? "id" : "text";
    case "`":
    case "~":
      return FENCE.test(line) ? "fence" : "text";
    case "#":
      return i === 0 && HEADING.test(line) ? "heading" : "text";
    case ">":
      return "quote";
    case "|":
      return "table";
    case "-":
    case "*":
    case "+":
      return LIST_ITEM.test(line) ? "list" : "text";
    default:
      return ch >= "0" && ch <= "9" && LIST_ITEM.test(line) ? "list" : "text";
  }
}

/** Splits a note body (frontmatter removed) into blocks, in order. Never throws. */
export function splitSearchBlocks(body: string): SearchBlock[] {
  const lines = body.split(/\r?\n/);
  const kinds = lines.map(kindOf);
  const blocks: SearchBlock[] = [];
  let i = 0;
  const push = (start: number, end: number, heading = false, listItem = false): void => {
    const chunk = lines.slice(start, end);
    let id: string | null = null;
    const takeIdAt = (k: number): void => {
      const line = chunk[k] ?? "";
      const m = BLOCK_ID_AT_END.exec(line);
      if (m) {
        id = m[1] ?? null;
        chunk[k] = line.slice(0, m.index);
      }
    };
    if (kinds[end] === "id") {
      id = BLOCK_ID_LINE.exec(lines[end] ?? "")?.[1] ?? null;
    } else {
      takeIdAt(chunk.length - 1);
      // A list item's id sits at the end of its own line, above the lines indented under it.
      if (id === null && listItem) takeIdAt(0);
    }
    const text = chunk.join("\n").trim();
    if (text !== "") blocks.push({ id, text, line: start, heading });
  };
  while (i < lines.length) {
    const kind = kinds[i];
    if (kind === "blank" || kind === "id") {
      i++;
      continue;
    }
    const start = i;
    if (kind === "fence") {
      const fence = FENCE.exec(lines[i] ?? "")?.[1] ?? "```";
      i++;
      while (i < lines.length && !(lines[i] ?? "").trimStart().startsWith(fence)) i++;
      push(start, Math.min(i + 1, lines.length));
      i++;
    } else if (kind === "heading") {
      push(start, start + 1, true);
      i++;
    } else if (kind === "list") {
      const indent = indentOf(lines[i] ?? "");
      i++;
      while (i < lines.length) {
        const k = kinds[i];
        if (k === "blank" || k === "heading" || k === "id") break;
        if (k === "list" && indentOf(lines[i] ?? "") <= indent) break;
        i++;
      }
      push(start, i, false, true);
    } else if (kind === "quote" || kind === "table") {
      while (i < lines.length && kinds[i] === kind) i++;
      push(start, i);
    } else {
      i++;
      while (i < lines.length && kinds[i] === "text") i++;
      push(start, i);
    }
  }
  return blocks;
}
