/**
 * Where a note's frontmatter block is: the one boundary rule that parsing (src/core/frontmatter.ts),
 * the search index's fast path (src/core/markdown/fast-frontmatter.ts), the health check's line
 * numbers (src/core/health/note-info.ts) and line-preserving edits (src/core/markdown/lines.ts)
 * all follow, so none of them can disagree on where the body starts.
 *
 * The rule is Obsidian's (https://help.obsidian.md/properties): the first line (after a UTF-8 BOM)
 * is `---`, and the block ends at the next line that is `---`. Trailing spaces or tabs and a
 * `\r` before the line break are allowed on both; `----`, `--- x` and YAML's `...` end marker are
 * not delimiters. Without a closing line there is no block. Whether the YAML in it parses is the
 * parser's business, not this module's. test/core/frontmatter.test.ts ("the frontmatter boundary").
 */

const BOM = "\uFEFF";
const DELIMITER = /^---[ \t]*$/;

/**
 * True when one line of a note (without its `\n`; a trailing `\r` is ignored) is a frontmatter
 * delimiter `---`.
 */
export function isFrontmatterDelimiter(line: string): boolean {
  return DELIMITER.test(line.endsWith("\r") ? line.slice(0, -1) : line);
}

/** Where the frontmatter block of a text is, as character offsets into the text as given. */
export interface FrontmatterBlockLocation {
  /** True when the text starts with a UTF-8 BOM. */
  bom: boolean;
  /** The line ending of the first line (`\n` when it has none). */
  eol: "\n" | "\r\n";
  /** Offset just past the BOM (0 or 1). */
  start: number;
  /** Whether the first line is a `---` delimiter (with or without a closing one). */
  opens: boolean;
  /** The block, or `null` when the text has none (no opening line, or no closing line). */
  block: null | {
    /** Offsets of the YAML source between the delimiter lines. */
    yamlStart: number;
    yamlEnd: number;
    /** Offset just past the closing delimiter line (the body's first character). */
    bodyStart: number;
    /** 0-based line index of the closing delimiter (the BOM is not a line). */
    closeLine: number;
  };
}

/** Finds the frontmatter block of a note's text by the rule of this module. Never throws. */
export function locateFrontmatterBlock(text: string): FrontmatterBlockLocation {
  const bom = text.startsWith(BOM);
  const start = bom ? 1 : 0;
  const firstBreak = text.indexOf("\n");
  const eol = firstBreak > 0 && text[firstBreak - 1] === "\r" ? "\r\n" : "\n";
  const opens = isFrontmatterDelimiter(
    text.slice(start, firstBreak === -1 ? text.length : firstBreak),
  );
  const located: FrontmatterBlockLocation = { bom, eol, start, opens, block: null };
  if (!opens || firstBreak === -1) return located;
  let pos = firstBreak + 1;
  for (let line = 1; pos < text.length; line++) {
    const brk = text.indexOf("\n", pos);
    const end = brk === -1 ? text.length : brk;
    if (isFrontmatterDelimiter(text.slice(pos, end))) {
      located.block = {
        yamlStart: firstBreak + 1,
        yamlEnd: pos,
        bodyStart: brk === -1 ? text.length : brk + 1,
        closeLine: line,
      };
      break;
    }
    if (brk === -1) break;
    pos = brk + 1;
  }
  return located;
}

/**
 * The text after a frontmatter block (BOM dropped), or the whole text without its BOM when there
 * is no block: the body, whether or not the YAML inside parses.
 */
export function textAfterFrontmatter(text: string): string {
  const loc = locateFrontmatterBlock(text);
  return text.slice(loc.block ? loc.block.bodyStart : loc.start);
}
