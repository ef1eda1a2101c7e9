/**
 * What the health check knows about one note after reading it once: its frontmatter (or why it has
 * none), the lines of its keys, its block ids and headings. Every rule works from this, so each note
 * is read and parsed a single time (docs/architecture.md, "The health check";
 * bench/results/health.md).
 */
import { frontmatterProblems, parseNote, type FrontmatterProblem } from "../frontmatter";
import type { Collection } from "../layout";
import { locateFrontmatterBlock } from "../markdown/frontmatter-block";
import { scanAnchors, type NoteAnchors } from "../markdown/anchors";
import { simpleFrontmatterNote } from "../markdown/fast-frontmatter";

/** One note as the health check sees it. */
export interface NoteInfo {
  path: string;
  text: string;
  /** Size in bytes (from the vault listing). */
  size: number;
  /** Last modification, milliseconds since the epoch. */
  mtime: number;
  collection: Collection;
  /** The agent whose folder holds the note, or `null`. */
  agent: string | null;
  /** The frontmatter mapping; `null` when the note has none or it does not parse. */
  data: Record<string, unknown> | null;
  /** True when the frontmatter does not parse (the note is then never rewritten). */
  invalid: boolean;
  /**
   * Problems of the frontmatter block itself (test/core/health/health-rules.test.ts, "case 03: …" and "case 04:
   * …"), from {@link frontmatterProblems}; only asked for when the frontmatter does not parse or is
   * not a mapping.
   */
  frontmatterProblems: FrontmatterProblem[];
  /** Lines of the frontmatter (1-based line → text), empty when there is none. */
  frontmatterLines: { line: number; text: string }[];
  /** Top-level key → 1-based line of the key. */
  keyLines: Map<string, number>;
  /** Body text and the 1-based line it starts on. */
  body: string;
  bodyLine: number;
  /** Block ids and headings; computed on first use. */
  anchors(): NoteAnchors;
}

const KEY_RE = /^(["']?)([^\s"'#:][^:]*?)\1[ \t]*:(?:[ \t]|$)/;

/** Builds a {@link NoteInfo}. Never throws: a note that does not parse is described, not rejected. */
export function readNoteInfo(
  path: string,
  text: string,
  stat: { size: number; mtime: number },
  place: { collection: Collection; agent: string | null },
): NoteInfo {
  let data: Record<string, unknown> | null = null;
  let invalid = false;
  let body = text;
  let bodyLine = 1;
  // Plain `key: value` frontmatter takes the index's fast reader, which gives what parseNote gives
  // wherever it answers (test/core/search/search-frontmatter.test.ts); a note without frontmatter,
  // an empty one or anything the reader leaves to the full parser goes through parseNote.
  const simple = simpleFrontmatterNote(text);
  if (simple) {
    data = simple.data;
    body = simple.body;
    bodyLine = simple.bodyLine;
  } else {
    try {
      const parsed = parseNote(text, path);
      data = parsed.data;
      body = parsed.body;
      bodyLine = parsed.bodyLine;
    } catch {
      invalid = true;
    }
  }
  // frontmatterProblems parses the YAML again; a note that parsed into a mapping needs it only for
  // wikilinks read as nested lists, which checkFrontmatterSyntax finds line by line without parsing.
  const opens = locateFrontmatterBlock(text).opens;
  const problems = opens && (invalid || data === null) ? frontmatterProblems(text) : [];
  const frontmatterLines: { line: number; text: string }[] = [];
  const keyLines = new Map<string, number>();
  const fmEnd = invalid ? closingLine(text) : data !== null ? bodyLine - 1 : 0;
  if (fmEnd > 1) {
    const lines = text.split("\n", fmEnd);
    for (let i = 1; i < fmEnd - 1 && i < lines.length; i++) {
      const t = (lines[i] ?? "").replace(/\r$/, "");
      frontmatterLines.push({ line: i + 1, text: t });
      const key = KEY_RE.exec(t)?.[2];
      if (key !== undefined && !keyLines.has(key)) keyLines.set(key, i + 1);
    }
  }
  if (invalid) {
    // Block ids of a note that does not parse still count for links into it.
    const close = closingLine(text);
    if (close > 0) {
      const lines = text.split("\n");
      body = lines.slice(close).join("\n");
      bodyLine = close + 1;
    }
  }
  let anchors: NoteAnchors | null = null;
  return {
    path,
    text,
    size: stat.size,
    mtime: stat.mtime,
    collection: place.collection,
    agent: place.agent,
    data,
    invalid,
    frontmatterProblems: problems,
    frontmatterLines,
    keyLines,
    body,
    bodyLine,
    anchors() {
      anchors ??= scanAnchors(body, bodyLine);
      return anchors;
    },
  };
}

/** 1-based line of the closing `---` of a frontmatter block (src/core/markdown/frontmatter-block.ts), or 0. */
function closingLine(text: string): number {
  const block = locateFrontmatterBlock(text).block;
  return block ? block.closeLine + 1 : 0;
}

/** The frontmatter value of `key` when the note has frontmatter, else `undefined`. */
export function fieldOf(note: NoteInfo, key: string): unknown {
  return note.data && Object.hasOwn(note.data, key) ? note.data[key] : undefined;
}
