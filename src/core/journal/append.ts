/**
 * Writing to a journal (docs/architecture.md, "Journals"; docs/mcp.md, "Tools" `append_journal`):
 * the note a new journal starts as, and appending a block with its own block id. Pure text
 * functions, meant to run inside
 * `VaultPort.process` so they always see the journal's current content (docs/write-safety.md).
 */
import {
  notMappingError,
  parseNote,
  setFrontmatter,
  unclosedFrontmatterError,
} from "../frontmatter";
import {
  appendLines,
  assertWritable,
  detectEol,
  insertLines,
  joinLines,
  locateFrontmatter,
  splitLines,
} from "../markdown/lines";
import { fenceCloserAfter } from "../markdown/fences";
import { addBlockIds, existingBlockIds, newBlockId } from "./block-ids";
import { splitBlocks } from "./split";

/**
 * The text of a new journal note: frontmatter (`id: journal-<agent>-<date>`, `type: journal`,
 * `agent`, `status: active`, `created_at: <date>`) and a `# <title>` heading. One home for the
 * format that `agent-memory init`, the plugin's "Create journal" and the MCP server write.
 * @param date `YYYY-MM-DD`, the journal's day (`created_at` and the id)
 * @param title the heading; default the date (the plugin passes the note's name, which differs
 *   when the Daily notes core plugin names journals another way)
 */
export function newJournalNote(
  agent: string,
  date: string,
  title: string = date,
  path = "new note",
): string {
  return setFrontmatter(
    `# ${title}\n\n`,
    { id: `journal-${agent}-${date}`, type: "journal", agent, status: "active", created_at: date },
    path,
  );
}

/** What {@link appendJournalBlock} made. */
export interface AppendedBlocks {
  /** The journal's new text. */
  text: string;
  /** Block id (without `^`) of each block appended, in order; a block that came with its own `^id` keeps it. */
  ids: string[];
}

/**
 * Appends `block` (Markdown: a paragraph, a list item, a callout…; several blocks separated by
 * blank lines are allowed) at the end of a journal, after one blank line, and gives every block of
 * it a block id where Obsidian puts one: ` ^am-xxxx` at the end of a paragraph or list item's line,
 * a `^am-xxxx` line after a callout, table or code block ({@link addBlockIds}). Ids are
 * deterministic from the journal's path, the text and the ids already in the note
 * ({@link newBlockId}), so the function stays pure; the same text appended twice gets two ids.
 * A code fence the block leaves open is closed at its end, and one the journal leaves open is
 * closed before it (docs/decisions.md, "An appended block closes the fences left open"): else the
 * block's `^id` line, and everything appended later, would be code.
 * The note's line ending (CRLF) and byte order mark are kept; everything already there is kept byte
 * for byte. A missing note (`current === null`) or a blank one is started with {@link newJournalNote}.
 * @throws Error when `block` holds no text
 * @throws `FrontmatterError` naming the journal and the reason when its frontmatter does not
 *   parse, is a YAML list or a single value, or is never closed (the note is left as it is)
 */
export function appendJournalBlock(
  current: string | null,
  block: string,
  note: { agent: string; date: string; path: string },
): AppendedBlocks {
  return insertJournalBlock(current, block, note, Number.POSITIVE_INFINITY);
}

/**
 * {@link appendJournalBlock}, with the block put before line `beforeLine` (0-based, counted as
 * {@link splitLines} counts them, after the byte order mark) instead of at the end: between
 * blank lines, every other line kept byte for byte. A `beforeLine` at or past the end appends.
 * Used to add turns at the end of a session's section that is not the last in the journal
 * (src/core/ingest/section.ts).
 * @throws Error when `block` holds no text
 * @throws `FrontmatterError` as {@link appendJournalBlock}
 */
export function insertJournalBlock(
  current: string | null,
  block: string,
  note: { agent: string; date: string; path: string },
  beforeLine: number,
): AppendedBlocks {
  const text = block
    .replace(/\r\n?/g, "\n")
    .replace(/^\s*\n/, "")
    .trimEnd();
  if (text.trim() === "") throw new Error("the block to append is empty");
  const closer = fenceCloserAfter(text.split("\n"));
  const chunk = closer === null ? text : `${text}\n${closer}`;
  const base =
    current === null || current.trim() === ""
      ? (current?.startsWith("\uFEFF") ? "\uFEFF" : "") +
        newJournalNote(note.agent, note.date, note.date, note.path)
      : current;
  const taken = existingBlockIds(base);
  // Ids are added to the chunk alone, so a block equal to an earlier one in the journal is not confused with it.
  // Headings get no block id: Obsidian links a heading by its text (`[[note#Heading]]`), and a
  // `^id` on a heading line would show as part of the heading.
  const blocks = splitBlocks(chunk).filter((b) => b.kind !== "heading");
  if (blocks.length === 0)
    throw new Error(
      "the block to append is only headings; add a paragraph or a list item under them",
    );
  const wanted = blocks.map((b, i) => {
    const id = b.blockId ?? newBlockId(`${note.path}\n${i}\n${b.text}`, taken);
    taken.add(id);
    return { text: b.text, id };
  });
  const withIds = addBlockIds(
    chunk,
    wanted.filter((_, i) => blocks[i]?.blockId === null),
  ).body;
  const { bom, lines } = splitLines(base);
  // A journal whose frontmatter does not parse is not written: the block would land in a note that
  // extraction, the index and Obsidian cannot read as it was meant (test/core/journal/journal-append.test.ts).
  const { bodyStart, error } = locateFrontmatter(base, lines);
  assertWritable({ frontmatterError: error }, note.path);
  // Nor one whose frontmatter is a list, a single value or never closed: extraction could not mark
  // it afterwards (setFrontmatter refuses the same notes), so its section would never be read.
  const refused =
    notMappingError(parseNote(base, note.path), note.path) ??
    unclosedFrontmatterError(base, note.path);
  if (refused) throw refused;
  const eol = detectEol(lines);
  const texts = withIds.split("\n");
  if (beforeLine >= lines.length) {
    const last = lines[lines.length - 1];
    const open = fenceCloserAfter(lines.slice(bodyStart).map((l) => l.text));
    const lead = open !== null ? [open, ""] : last && last.text.trim() !== "" ? [""] : [];
    appendLines(lines, [...lead, ...texts], eol);
  } else {
    const at = Math.max(0, beforeLine);
    const before = lines[at - 1];
    const after = lines[at];
    insertLines(
      lines,
      at,
      [
        ...(before && before.text.trim() !== "" ? [""] : []),
        ...texts,
        ...(after && after.text.trim() !== "" ? [""] : []),
      ],
      eol,
    );
  }
  return { text: joinLines(bom, lines), ids: wanted.map((w) => w.id) };
}
