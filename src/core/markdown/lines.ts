/**
 * Lines of a note as written (docs/architecture.md, "Note formats": "a line the parser does not
 * understand is kept byte for byte"): split with each line's own ending, joined back to the same
 * bytes, edited by inserting whole lines; and where the body starts after the frontmatter. Shared
 * by tracker and topic notes.
 */
import { FrontmatterError, errorMessage } from "../errors";
import { parseNote } from "../frontmatter";
import { locateFrontmatterBlock } from "./frontmatter-block";
import { simpleFrontmatterNote } from "./fast-frontmatter";

/** Line ending of one line; `""` only for a last line without a final newline. */
export type LineEnding = "" | "\n" | "\r\n";

/** One line as written: its text (without the line ending) and its line ending. */
export interface NoteLine {
  text: string;
  eol: LineEnding;
}

/**
 * Splits text into lines keeping each line's ending (`\n` or `\r\n`; a lone `\r` stays in the
 * text). A final newline does not make an extra empty line; `""` gives no lines.
 */
export function splitLines(text: string): { bom: boolean; lines: NoteLine[] } {
  const bom = text.startsWith("\uFEFF");
  const body = bom ? text.slice(1) : text;
  const lines: NoteLine[] = [];
  let start = 0;
  while (start < body.length) {
    const nl = body.indexOf("\n", start);
    if (nl < 0) {
      lines.push({ text: body.slice(start), eol: "" });
      break;
    }
    const crlf = nl > start && body.charCodeAt(nl - 1) === 13;
    lines.push({ text: body.slice(start, crlf ? nl - 1 : nl), eol: crlf ? "\r\n" : "\n" });
    start = nl + 1;
  }
  return { bom, lines };
}

/** Inverse of {@link splitLines}. */
export function joinLines(bom: boolean, lines: readonly NoteLine[]): string {
  let out = bom ? "\uFEFF" : "";
  for (const line of lines) out += line.text + line.eol;
  return out;
}

/** The line ending to use for new lines: the first one in the note, else `\n`. */
export function detectEol(lines: readonly NoteLine[]): "\n" | "\r\n" {
  for (const line of lines) if (line.eol) return line.eol;
  return "\n";
}

/**
 * Appends lines at the end of `lines` (in place). A last line without a line ending gets one first,
 * and every appended line ends with `eol`, so the note ends with a newline afterwards.
 */
export function appendLines(lines: NoteLine[], texts: readonly string[], eol: "\n" | "\r\n"): void {
  const last = lines[lines.length - 1];
  if (last && last.eol === "") last.eol = eol;
  for (const text of texts) lines.push({ text, eol });
}

/**
 * Inserts lines before index `at` (in place), each ending with `eol`; inserting after a last line
 * without a line ending gives that line one.
 */
export function insertLines(
  lines: NoteLine[],
  at: number,
  texts: readonly string[],
  eol: "\n" | "\r\n",
): void {
  if (at >= lines.length) {
    appendLines(lines, texts, eol);
    return;
  }
  lines.splice(at, 0, ...texts.map((text) => ({ text, eol })));
}

/**
 * Finds where the body of a split note starts, using {@link parseNote} so that trackers and topic
 * notes agree with the rest of the plugin on what frontmatter is (a YAML mapping between `---`
 * lines; anything else is body, test/core/frontmatter.test.ts, "case 03: …"). When the YAML does not
 * parse, the block up to the closing
 * `---` is skipped and `error` says why: such a note must not be rewritten (docs/architecture.md,
 * "The health check").
 * @returns the 0-based index of the first body line, and the parse error if any.
 */
export function locateFrontmatter(
  text: string,
  lines: readonly NoteLine[],
): { bodyStart: number; error: string | null } {
  // Plain frontmatter: the fast reader gives what parseNote gives (src/core/markdown/fast-frontmatter.ts).
  const simple = simpleFrontmatterNote(text);
  if (simple)
    return { bodyStart: Math.min(lines.length, Math.max(0, simple.bodyLine - 1)), error: null };
  try {
    const parsed = parseNote(text);
    return {
      bodyStart:
        parsed.data === null ? 0 : Math.min(lines.length, Math.max(0, parsed.bodyLine - 1)),
      error: null,
    };
  } catch (err) {
    const close = locateFrontmatterBlock(text).block?.closeLine ?? lines.length;
    // The reason alone: the caller names the note (parseNote's message starts with the path given).
    const reason = errorMessage(err).replace(/^note: /, "");
    return { bodyStart: Math.min(lines.length, close + 1), error: reason };
  }
}

/** Throws {@link FrontmatterError} naming `path` when a parsed note's frontmatter does not parse. */
export function assertWritable(note: { frontmatterError: string | null }, path: string): void {
  if (note.frontmatterError !== null) {
    throw new FrontmatterError(
      `${path}: frontmatter does not parse, the note is left as it is (${note.frontmatterError})`,
      path,
    );
  }
}
