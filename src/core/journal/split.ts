import { closesFence, fenceOpener } from "../markdown/fences";
/**
 * Splitting a journal body into blocks (docs/architecture.md, "Journals"): the units a block id
 * (`^id`) can be attached to, following Obsidian's rules
 * (https://help.obsidian.md/links#Link+to+a+block+in+a+note): a paragraph or list item carries its id
 * at the end of its line, a structured block (quote, callout, table, code) on its own line after it.
 */

/** A block of a journal body: what a block id can be attached to. */
export interface JournalBlock {
  /** `callout` covers plain `>` quotes too ({@link calloutType} absent); `other` is a thematic break. */
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
  /** 0-based line of a standalone `^id` line that follows the block (quotes, callouts, tables, code). */
  idLine?: number;
  /** For kind `callout`: the callout type (`decision` for `> [!decision]`); absent for a plain quote. */
  calloutType?: string;
}

/** Obsidian block id characters: letters, digits and dashes. */
export const BLOCK_ID_CHARS = "[A-Za-z0-9-]+";
/** A block id at the end of a line: `text ^id` (or a line that is only `^id`). */
export const INLINE_ID = new RegExp(`(?:^|[ \\t]+)\\^(${BLOCK_ID_CHARS})[ \\t]*$`);
/** A line holding nothing but a block id. */
export const STANDALONE_ID = new RegExp(`^[ \\t]*\\^(${BLOCK_ID_CHARS})[ \\t]*$`);

const BLANK = /^[ \t]*$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$/;
const QUOTE = /^ {0,3}>/;
const CALLOUT = /^ {0,3}>[ \t]*\[!([^\]]+)\]/;
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const LIST_ITEM = /^([ \t]*)(?:[-*+]|\d{1,9}[.)])(?:[ \t]+|$)/;
const TABLE_DELIMITER = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
const SETEXT_UNDERLINE = /^ {0,3}(?:=+|-{2,})[ \t]*$/;

/** Columns of leading whitespace, a tab advancing to the next multiple of 4 (CommonMark). */
export function indentWidth(line: string): number {
  let width = 0;
  for (const ch of line) {
    if (ch === " ") width++;
    else if (ch === "\t") width += 4 - (width % 4);
    else break;
  }
  return width;
}

function isTableStart(lines: string[], i: number): boolean {
  const line = lines[i] ?? "";
  const next = lines[i + 1] ?? "";
  return (
    line.includes("|") &&
    TABLE_DELIMITER.test(next) &&
    (next.includes("|") || line.trimStart().startsWith("|"))
  );
}

/** Whether a line starts a block of its own, interrupting a paragraph or ending a lazy list line. */
function startsBlock(lines: string[], i: number): boolean {
  const line = lines[i] ?? "";
  return (
    fenceOpener(line) !== null ||
    HEADING.test(line) ||
    QUOTE.test(line) ||
    THEMATIC_BREAK.test(line) ||
    LIST_ITEM.test(line) ||
    isTableStart(lines, i)
  );
}

/** End (exclusive) of a fenced code block opening at `start`; the end of the body when unclosed. */
function fenceEnd(lines: string[], start: number): number {
  const marker = fenceOpener(lines[start] ?? "") ?? "```";
  for (let j = start + 1; j < lines.length; j++)
    if (closesFence(lines[j] ?? "", marker)) return j + 1;
  return lines.length;
}

/** A block id marker found by {@link idMarkers}. */
export interface IdMarker {
  /** 0-based line index. */
  line: number;
  id: string;
  /** True for a line holding only `^id`. */
  standalone: boolean;
}

/** Every block id marker in a text, skipping fenced code (where `x ^y` is code, not an id). */
export function idMarkers(text: string): IdMarker[] {
  const markers: IdMarker[] = [];
  let fence: string | null = null;
  text.split("\n").forEach((raw, line) => {
    const content = raw.replace(/\r$/, "");
    if (fence !== null) {
      if (closesFence(content, fence)) fence = null;
      return;
    }
    fence = fenceOpener(content);
    if (fence !== null) return;
    const match = INLINE_ID.exec(content);
    if (match) markers.push({ line, id: match[1] ?? "", standalone: STANDALONE_ID.test(content) });
  });
  return markers;
}

/**
 * Removes block id markers: a trailing ` ^id` from its line, a standalone `^id` line entirely.
 * Fenced code is left as it is. Other bytes (CRLF included) are kept.
 */
export function stripBlockIds(text: string): string {
  const markers = new Map(idMarkers(text).map((m) => [m.line, m]));
  if (markers.size === 0) return text;
  const out: string[] = [];
  text.split("\n").forEach((raw, line) => {
    const marker = markers.get(line);
    if (!marker) out.push(raw);
    else if (!marker.standalone)
      out.push(raw.replace(/(\r?)$/, "").replace(INLINE_ID, "") + (raw.endsWith("\r") ? "\r" : ""));
  });
  return out.join("\n");
}

function isLazyLine(lines: string[], i: number): boolean {
  const line = lines[i] ?? "";
  return !BLANK.test(line) && !STANDALONE_ID.test(line) && !startsBlock(lines, i);
}

/** End (exclusive) of the list item starting at `start`: its indented children and lazy lines. */
function listItemEnd(lines: string[], start: number): number {
  const base = indentWidth(lines[start] ?? "");
  let j = start + 1;
  while (j < lines.length) {
    const line = lines[j] ?? "";
    if (BLANK.test(line)) {
      let k = j + 1;
      while (k < lines.length && BLANK.test(lines[k] ?? "")) k++;
      if (k < lines.length && indentWidth(lines[k] ?? "") > base) {
        j = k;
        continue;
      }
      break;
    }
    if (indentWidth(line) <= base && startsBlock(lines, j)) break;
    j++; // a child (indented deeper) or a lazy continuation line
  }
  return j;
}

function headingText(line: string): { level: number; text: string } | null {
  const match = HEADING.exec(line);
  if (!match) return null;
  const text = (match[2] ?? "")
    .replace(/(?:^|[ \t]+)#+$/, "")
    .replace(INLINE_ID, "")
    .trim();
  return { level: match[1]?.length ?? 1, text };
}

/** Removes an id marker from a line; `null` when the line held only the marker. */
function withoutId(line: string): string | null {
  if (STANDALONE_ID.test(line)) return null;
  return line.replace(INLINE_ID, "");
}

/**
 * Splits a journal body (frontmatter removed) into blocks: headings, paragraphs (a line ending in a
 * block id ends its paragraph's block, so lines written under an id'd line later are their own), top-level list
 * items with their indented children (a `- [ ] task` line is a list item), quotes and callouts,
 * fenced code, tables, thematic breaks (`other`). Every non-blank line belongs to exactly one block,
 * except standalone `^id` lines, which give the id of the block before them. Each block carries the
 * heading path above it. CRLF bodies work (`text` never holds `\r`). Never throws.
 */
export function splitBlocks(body: string): JournalBlock[] {
  const lines = body.split("\n").map((line) => line.replace(/\r$/, ""));
  const blocks: JournalBlock[] = [];
  const path: { level: number; text: string }[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? "";
    if (BLANK.test(line)) {
      i++;
      continue;
    }
    const idOnly = STANDALONE_ID.exec(line);
    if (idOnly) {
      attachStandaloneId(blocks, lines, i, idOnly[1] ?? "");
      i++;
      continue;
    }
    let headings = path.map((h) => h.text);
    let kind: JournalBlock["kind"];
    let end: number;
    let calloutType: string | undefined;
    const heading = headingText(line);
    if (fenceOpener(line) !== null) {
      kind = "code";
      end = fenceEnd(lines, i);
    } else if (heading) {
      kind = "heading";
      end = i + 1;
    } else if (QUOTE.test(line)) {
      kind = "callout";
      calloutType = CALLOUT.exec(line)?.[1]?.trim().toLowerCase();
      end = i + 1;
      // A non-blank line right after a quote continues it ("lazy" line, CommonMark), unless it is a `^id`.
      while (end < lines.length && (QUOTE.test(lines[end] ?? "") || isLazyLine(lines, end))) end++;
    } else if (THEMATIC_BREAK.test(line)) {
      kind = "other";
      end = i + 1;
    } else if (LIST_ITEM.test(line)) {
      kind = "list-item";
      end = listItemEnd(lines, i);
    } else if (isTableStart(lines, i)) {
      kind = "table";
      end = i + 2;
      while (
        end < lines.length &&
        !BLANK.test(lines[end] ?? "") &&
        (lines[end] ?? "").includes("|")
      )
        end++;
    } else {
      kind = "paragraph";
      end = i + 1;
      while (end < lines.length && !BLANK.test(lines[end] ?? "")) {
        // `Text` over `---` is a heading (setext), which CommonMark prefers to a thematic break.
        if (SETEXT_UNDERLINE.test(lines[end] ?? "")) {
          kind = "heading";
          end++;
          break;
        }
        if (startsBlock(lines, end)) break;
        // A line ending in a block id ends its block: the id names the lines up to it, and a line
        // written right after it later is a block of its own
        // (docs/decisions.md, "A block id ends its paragraph's block").
        if (INLINE_ID.test(lines[end - 1] ?? "")) break;
        end++;
      }
    }
    if (kind === "heading") {
      const level = heading?.level ?? (/^ {0,3}=/.test(lines[end - 1] ?? "") ? 1 : 2);
      const text =
        heading?.text ??
        lines
          .slice(i, end - 1)
          .map((l) => l.trim())
          .join(" ")
          .replace(INLINE_ID, "");
      while ((path.at(-1)?.level ?? 0) >= level) path.pop();
      headings = path.map((h) => h.text);
      path.push({ level, text });
    }
    const block = makeBlock(kind, lines, i, end, headings);
    if (calloutType) block.calloutType = calloutType;
    blocks.push(block);
    i = end;
  }
  return blocks;
}

function makeBlock(
  kind: JournalBlock["kind"],
  lines: string[],
  start: number,
  end: number,
  headings: string[],
): JournalBlock {
  const own = lines.slice(start, end);
  let blockId: string | null = null;
  let text: string[] = own;
  if (kind === "list-item") {
    // Obsidian puts a list item's id at the end of its first line; a lazy `^id` line also counts.
    const first = INLINE_ID.exec(own[0] ?? "");
    const lastLine = own.at(-1) ?? "";
    const lazy =
      own.length > 1 && indentWidth(lastLine) <= indentWidth(own[0] ?? "")
        ? STANDALONE_ID.exec(lastLine)
        : null;
    if (first && !STANDALONE_ID.test(own[0] ?? "")) {
      blockId = first[1] ?? null;
      text = [(own[0] ?? "").replace(INLINE_ID, ""), ...own.slice(1)];
    } else if (lazy) {
      blockId = lazy[1] ?? null;
      text = own.slice(0, -1);
    }
  } else if (kind === "paragraph" || kind === "heading" || kind === "other") {
    const match =
      kind === "heading" && own.length > 1
        ? INLINE_ID.exec(own.at(-2) ?? "")
        : INLINE_ID.exec(own.at(-1) ?? "");
    if (match) {
      blockId = match[1] ?? null;
      const at = kind === "heading" && own.length > 1 ? own.length - 2 : own.length - 1;
      const stripped = withoutId(own[at] ?? "");
      text = [...own.slice(0, at), ...(stripped === null ? [] : [stripped]), ...own.slice(at + 1)];
    }
  }
  return { kind, text: text.join("\n"), startLine: start, endLine: end, blockId, headings };
}

/**
 * A standalone `^id` line names the structured block just before it (at most one blank line
 * between, as Obsidian writes it). One that follows nothing it can name is left alone.
 */
function attachStandaloneId(blocks: JournalBlock[], lines: string[], at: number, id: string): void {
  const previous = blocks.at(-1);
  // After a list, a standalone id names the whole list, not its last item: not one of our blocks.
  if (
    !previous ||
    previous.blockId !== null ||
    !["callout", "table", "code"].includes(previous.kind)
  )
    return;
  const between = lines.slice(previous.endLine, at);
  if (between.length > 1 || !between.every((line) => BLANK.test(line))) return;
  previous.blockId = id;
  previous.idLine = at;
}
