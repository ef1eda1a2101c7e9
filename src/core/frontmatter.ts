/**
 * Frontmatter: parse, edit, serialise (DESIGN §2, cases 01–04). TO BE IMPLEMENTED (helper A).
 */
import { FrontmatterError } from "./errors";

/** Result of splitting a note into frontmatter and body. */
export interface ParsedNote {
  /** The YAML mapping, or `null` when the note has no frontmatter (case 03: anything but a mapping is body). */
  data: Record<string, unknown> | null;
  /** Body text (everything after the closing `---` line, or the whole text without BOM when no frontmatter). */
  body: string;
  /** Character offset in the original text where the body starts. */
  bodyOffset: number;
  /** 1-based line number in the original text where the body starts. */
  bodyLine: number;
  /** True when the text starts with a UTF-8 BOM. */
  bom: boolean;
  /** The note's line ending. */
  eol: "\n" | "\r\n";
}

/**
 * Splits and parses a note (YAML 1.2 core schema: dates stay strings, `0123` stays a string "0123"…).
 * Throws {@link FrontmatterError} naming `path`, with the line, when the YAML does not parse.
 */
export function parseNote(text: string, path = "note"): ParsedNote {
  void text;
  throw new FrontmatterError("not implemented", path);
}

/**
 * Sets (or adds, at the end of the frontmatter) the given keys, rewriting only their lines; creates
 * frontmatter when the note has none. Values are written as YAML with wikilinks quoted (case 04).
 * Throws {@link FrontmatterError} when the existing frontmatter does not parse (the note is never rewritten).
 */
export function setFrontmatter(text: string, fields: Record<string, unknown>, path = "note"): string {
  void fields;
  void text;
  throw new FrontmatterError("not implemented", path);
}
