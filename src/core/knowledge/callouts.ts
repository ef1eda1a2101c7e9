/**
 * Callouts of topic notes (docs/architecture.md, "Topic notes"): one entry is
 * ```
 * > [!insight] 2026-03-27 · confidence 0.8
 * > Creating tickets faster than review can absorb them looks productive but changes nothing.
 * > Source: [[Agents/link/Journal/2026-03-27#^am-9k2f]]
 * ```
 * This file reads and formats them, and finds the sections (headings) they live under.
 */
import { locateFrontmatter, splitLines, type NoteLine } from "../markdown/lines";
import { linkTarget, toWikilink, wikilinkTargets } from "../markdown/wikilinks";

/** Kinds of entry the pipeline writes (each has its own look in `styles.css`). */
export type EntryKind = "insight" | "decision" | "pattern";

/** A callout found in a topic note, for dedupe (see {@link listTopicEntries}). */
export interface TopicEntry {
  /** Callout type as written, lower case (`insight`, `decision`, `pattern`, or another type a person used). */
  kind: string;
  /** Text of the nearest heading above the callout, or `null`. */
  heading: string | null;
  /** `YYYY-MM-DD` from the callout's title line, or `null`. */
  date: string | null;
  /** Confidence from the title line (`· confidence 0.8`), or `null`. */
  confidence: number | null;
  /** Body lines without `> ` and without `Source:` lines, joined with `\n`. */
  text: string;
  /** Targets of the `Source:` wikilinks, in order (no brackets, no alias). */
  sources: string[];
  /** 0-based index of the callout's first line (a BOM does not count). */
  line: number;
  /** 0-based index one past its last line. */
  endLine: number;
}

/** A heading of the body. */
export interface Heading {
  line: number;
  level: number;
  text: string;
}

const HEADING = /^(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const CALLOUT_HEAD = /^>[ \t]*\[!([^\]\s]+)\][+-]?[ \t]*(.*)$/;
const SOURCE_LINE = /^source:/i;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** Headings and callouts of a note's body (outside frontmatter and code fences). */
export function scanTopicBody(lines: readonly NoteLine[], bodyStart: number): { headings: Heading[]; entries: TopicEntry[] } {
  const headings: Heading[] = [];
  const entries: TopicEntry[] = [];
  let fence: string | null = null;
  let i = bodyStart;
  while (i < lines.length) {
    const raw = lines[i]?.text ?? "";
    const fm = FENCE.exec(raw);
    if (fence !== null) {
      if (fm?.[1] && fm[1][0] === fence[0] && fm[1].length >= fence.length && raw.trim() === fm[1]) fence = null;
      i++;
      continue;
    }
    if (fm?.[1]) {
      fence = fm[1];
      i++;
      continue;
    }
    const h = HEADING.exec(raw);
    if (h?.[1] && h[2] !== undefined) {
      headings.push({ line: i, level: h[1].length, text: h[2].trim() });
      i++;
      continue;
    }
    const c = CALLOUT_HEAD.exec(raw);
    if (!c?.[1]) {
      i++;
      continue;
    }
    let end = i + 1;
    while (end < lines.length) {
      const t = lines[end]?.text ?? "";
      if (!t.startsWith(">") || CALLOUT_HEAD.test(t)) break;
      end++;
    }
    entries.push(readEntry(lines, i, end, c[1], c[2] ?? "", headings[headings.length - 1]?.text ?? null));
    i = end;
  }
  return { headings, entries };
}

function readEntry(lines: readonly NoteLine[], start: number, end: number, kind: string, title: string, heading: string | null): TopicEntry {
  const text: string[] = [];
  const sources: string[] = [];
  for (let j = start + 1; j < end; j++) {
    const content = (lines[j]?.text ?? "").replace(/^>[ \t]?/, "");
    if (SOURCE_LINE.test(content.trim())) sources.push(...wikilinkTargets(content));
    else text.push(content.trimEnd());
  }
  const date = /\b(\d{4}-\d{2}-\d{2})\b/.exec(title)?.[1] ?? null;
  const conf = /confidence[ \t]*:?[ \t]*(\d*\.?\d+)/i.exec(title)?.[1];
  return {
    kind: kind.toLowerCase(),
    heading,
    date,
    confidence: conf === undefined ? null : Number(conf),
    text: text.join("\n").trim(),
    sources,
    line: start,
    endLine: end,
  };
}

/**
 * Callouts found in a topic note, in note order, each with its heading, date, confidence, text and
 * source targets. Never throws (a frontmatter block that does not parse is skipped as frontmatter).
 */
export function listTopicEntries(text: string): TopicEntry[] {
  const { lines } = splitLines(text);
  return scanTopicBody(lines, locateFrontmatter(text, lines).bodyStart).entries;
}

/** Confidence as written in a callout title: clamped to 0–1, at most two decimals (`0.8`, `1`). */
export function formatConfidence(confidence: number): string {
  const c = Number.isFinite(confidence) ? Math.min(1, Math.max(0, confidence)) : 0;
  return String(Math.round(c * 100) / 100);
}

/**
 * The lines of a callout in the docs/architecture.md, "Note formats" form: title line, each text
 * line prefixed `> ` (a blank line becomes `>`), then `> Source: [[target]]`. `source` is a link
 * target or a wikilink.
 */
export function formatCallout(entry: { kind: string; date: string; confidence: number; text: string; source: string }): string[] {
  const head = `> [!${entry.kind}] ${entry.date.replace(/\s+/g, " ").trim()} · confidence ${formatConfidence(entry.confidence)}`;
  const body = entry.text
    .trim()
    .split(/\r\n|\n|\r/)
    .map((l) => (l.trim() === "" ? ">" : `> ${l.trimEnd()}`));
  const lines = [head, ...body];
  if (entry.source.trim()) lines.push(`> Source: ${toWikilink(entry.source.replace(/\s+/g, " "))}`);
  return lines;
}

/** Text of an entry for comparison: NFKC, lower case, whitespace collapsed. */
export function entryTextKey(text: string): string {
  return text.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
}

/**
 * Adds a source link to the callout's last `Source:` line (comma-separated), or a new
 * `> Source: [[…]]` line at the callout's end. `link` is a wikilink or its target.
 * Edits the split lines in place; returns false when the link is already there.
 */
export function addSourceToEntry(lines: NoteLine[], entry: TopicEntry, link: string, eol: "\n" | "\r\n"): boolean {
  const target = linkTarget(link);
  // No source to add (an entry written without one): nothing changes, never a `[[]]`.
  if (target === "" || entry.sources.includes(target)) return false;
  const wikilink = toWikilink(link);
  for (let j = entry.endLine - 1; j > entry.line; j--) {
    const line = lines[j];
    if (line && SOURCE_LINE.test(line.text.replace(/^>[ \t]?/, "").trim())) {
      line.text = `${line.text.trimEnd()}, ${wikilink}`;
      return true;
    }
  }
  const next: NoteLine = { text: `> Source: ${wikilink}`, eol };
  const last = lines[entry.endLine - 1];
  if (last && last.eol === "") last.eol = eol;
  lines.splice(entry.endLine, 0, next);
  return true;
}
