/**
 * Callouts of topic notes (docs/architecture.md, "Topic notes"): one entry is
 * ```
 * > [!insight] 2026-03-27 · confidence 0.8
 * > Creating tickets faster than review can absorb them looks productive but changes nothing.
 * > Source: [[Agents/link/Journal/2026-03-27#^am-9k2f]]
 * ```
 * This file reads and formats them, and finds the sections (headings) they live under.
 */
import {
  detectEol,
  joinLines,
  locateFrontmatter,
  splitLines,
  type NoteLine,
} from "../markdown/lines";
import { linkTarget, toWikilink, wikilinkTargets } from "../markdown/wikilinks";
import { scanInlineFields } from "../trackers/format";

/** Kinds of entry the pipeline writes (each has its own look in `styles.css`). */
export type EntryKind = "insight" | "decision" | "pattern";

/**
 * The topic heading of each entry kind: the `## Heading` of a topic note its entries go under
 * (docs/glossary.md, "Trackers and topics"), in the order the plugin offers them as destinations.
 */
export const TOPIC_HEADINGS: Readonly<Record<EntryKind, string>> = {
  insight: "Insights",
  pattern: "Patterns",
  decision: "Decisions",
};

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
  /**
   * Inline fields of the callout's lines that hold nothing else (`> [valid_to:: 2026-04-01]
   * [superseded_by:: [[T#^c-1a2b]]]`; docs/contradictions.md), in order; read a key with
   * `fieldValue` (the last one wins). Such lines are not part of {@link TopicEntry.text}.
   */
  fields: { key: string; value: string }[];
  /**
   * The callout's block id without `^`, or `null`: a `^id` line right after the callout (one blank
   * line between, as Obsidian wants for a callout) or at the end of its last line.
   */
  id: string | null;
  /** 0-based index of the callout's first line (a BOM does not count). */
  line: number;
  /** 0-based index one past its last line. */
  endLine: number;
  /** 0-based index of its `^id` line after the callout, or `null` (no id, or the id is on the last line). */
  idLine: number | null;
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
/** A line that is only a block id. */
const ID_LINE = /^\^([A-Za-z0-9-]+)[ \t]*$/;
/** A block id at the end of a callout line. */
const TRAILING_ID = /[ \t]\^([A-Za-z0-9-]+)[ \t]*$/;

/** The inline fields of a line that holds nothing but them, or `null`. */
function fieldsOnly(line: string): { key: string; value: string }[] | null {
  const spans = scanInlineFields(line);
  if (spans.length === 0) return null;
  let rest = "";
  let at = 0;
  for (const f of spans) {
    rest += line.slice(at, f.start);
    at = f.end;
  }
  rest += line.slice(at);
  return rest.trim() === "" ? spans.map((f) => ({ key: f.key, value: f.value })) : null;
}

/** Headings and callouts of a note's body (outside frontmatter and code fences). */
export function scanTopicBody(
  lines: readonly NoteLine[],
  bodyStart: number,
): { headings: Heading[]; entries: TopicEntry[] } {
  const { headings, entries } = scanFrom(lines, bodyStart, null);
  return { headings, entries };
}

/**
 * {@link scanTopicBody} from line `start`, a line it visits outside any code fence (the body's
 * start, a heading or a callout's first line), under the heading `heading` (the text of the last
 * heading above `start`, or `null`). `stop` is asked at each such line from there on, with the
 * text of the last heading above it; scanning ends at the first one it accepts (`end`), else at
 * the end of the note.
 */
function scanFrom(
  lines: readonly NoteLine[],
  start: number,
  heading: string | null,
  stop?: (i: number, heading: string | null) => boolean,
): { headings: Heading[]; entries: TopicEntry[]; end: number } {
  const headings: Heading[] = [];
  const entries: TopicEntry[] = [];
  let fence: string | null = null;
  let i = start;
  const under = (): string | null => headings[headings.length - 1]?.text ?? heading;
  while (i < lines.length) {
    if (fence === null && stop?.(i, under())) break;
    const raw = lines[i]?.text ?? "";
    const fm = FENCE.exec(raw);
    if (fence !== null) {
      if (fm?.[1] && fm[1][0] === fence[0] && fm[1].length >= fence.length && raw.trim() === fm[1])
        fence = null;
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
    const entry = readEntry(lines, i, end, c[1], c[2] ?? "", under());
    entries.push(entry);
    i = end;
    const idAt = (lines[end]?.text ?? "").trim() === "" ? end + 1 : end;
    const own = ID_LINE.exec(lines[idAt]?.text ?? "");
    if (own?.[1] && entry.id === null) {
      entry.id = own[1];
      entry.idLine = idAt;
      i = idAt + 1;
    }
  }
  return { headings, entries, end: Math.min(i, lines.length) };
}

function readEntry(
  lines: readonly NoteLine[],
  start: number,
  end: number,
  kind: string,
  title: string,
  heading: string | null,
): TopicEntry {
  const text: string[] = [];
  const sources: string[] = [];
  const fields: { key: string; value: string }[] = [];
  let id: string | null = null;
  for (let j = start + 1; j < end; j++) {
    let content = (lines[j]?.text ?? "").replace(/^>[ \t]?/, "");
    if (j === end - 1) {
      const trailing = TRAILING_ID.exec(content);
      if (trailing?.[1]) {
        id = trailing[1];
        content = content.slice(0, trailing.index);
      }
    }
    const only = fieldsOnly(content);
    if (only) fields.push(...only);
    else if (SOURCE_LINE.test(content.trim())) sources.push(...wikilinkTargets(content));
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
    fields,
    id,
    line: start,
    endLine: end,
    idLine: null,
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
 * line prefixed `> ` (a blank line becomes `>`), then `> Source: [[target]]`, then a line of inline
 * `fields` when given (`> [supersedes:: [[T#^c-1a2b]]]`), then, for an `id`, a blank line and
 * `^id`. `source` is a link target or a wikilink.
 */
export function formatCallout(entry: {
  kind: string;
  date: string;
  confidence: number;
  text: string;
  source: string;
  fields?: readonly (readonly [string, string])[];
  id?: string;
}): string[] {
  const head = `> [!${entry.kind}] ${entry.date.replace(/\s+/g, " ").trim()} · confidence ${formatConfidence(entry.confidence)}`;
  const body = entry.text
    .trim()
    .split(/\r\n|\n|\r/)
    .map((l) => (l.trim() === "" ? ">" : `> ${l.trimEnd()}`));
  const lines = [head, ...body];
  if (entry.source.trim()) lines.push(`> Source: ${toWikilink(entry.source.replace(/\s+/g, " "))}`);
  if (entry.fields?.length)
    lines.push(
      `> ${entry.fields.map(([k, v]) => `[${k}:: ${v.replace(/\s+/g, " ").trim()}]`).join(" ")}`,
    );
  if (entry.id) lines.push("", `^${entry.id}`);
  return lines;
}

/** 0-based index one past the entry with its `^id` line, if it has one after it. */
export function entryEnd(entry: Pick<TopicEntry, "endLine" | "idLine">): number {
  return entry.idLine === null ? entry.endLine : entry.idLine + 1;
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
export function addSourceToEntry(
  lines: NoteLine[],
  entry: TopicEntry,
  link: string,
  eol: "\n" | "\r\n",
): boolean {
  const target = linkTarget(link);
  // No source to add (an entry written without one): nothing changes, never a `[[]]`.
  if (target === "" || entry.sources.includes(target)) return false;
  const wikilink = toWikilink(link);
  for (let j = entry.endLine - 1; j > entry.line; j--) {
    const line = lines[j];
    if (line && SOURCE_LINE.test(line.text.replace(/^>[ \t]?/, "").trim())) {
      const trailing = j === entry.endLine - 1 ? TRAILING_ID.exec(line.text) : null;
      const head = trailing ? line.text.slice(0, trailing.index) : line.text;
      line.text = `${head.trimEnd()}, ${wikilink}${trailing ? trailing[0] : ""}`;
      return true;
    }
  }
  const next: NoteLine = { text: `> Source: ${wikilink}`, eol };
  const last = lines[entry.endLine - 1];
  if (last && last.eol === "") last.eol = eol;
  lines.splice(entry.endLine, 0, next);
  return true;
}

/** A `^id` at the end of a line or on a line of its own, as {@link blockIdsIn} reads it. */
const BLOCK_ID = /(?:^|[ \t])\^([A-Za-z0-9-]+)[ \t]*$/gm;

/** Every `^id` written in a note (line ends and lines of their own). */
export function blockIdsIn(text: string): Set<string> {
  return new Set([...text.matchAll(BLOCK_ID)].map((m) => m[1] ?? ""));
}

/** What an edit of a {@link TopicBody} did to its callouts. */
export interface EntryChanges {
  /** Callouts read again: each old entry with the entry that now stands for it. */
  replaced: [TopicEntry, TopicEntry][];
  /** Callouts that are new. */
  added: TopicEntry[];
  /** Callouts that are gone. */
  removed: TopicEntry[];
}

/**
 * A topic note parsed once for many edits (docs/decisions.md, "Applying parses each note once"):
 * its lines, where the body starts, and the headings and callouts {@link scanTopicBody} finds.
 * Every edit goes through {@link edit}, which reads again only the part of the note the edit can
 * change and moves the callouts after it, so that {@link headings} and {@link entries} are always
 * what {@link scanTopicBody} gives on {@link text} (test/core/extraction/topic-batch.test.ts).
 */
export class TopicBody {
  readonly bom: boolean;
  readonly lines: NoteLine[];
  readonly bodyStart: number;
  /** Why the frontmatter does not parse, or `null`: such a note must not be rewritten. */
  readonly error: string | null;
  /** Line ending of new lines. */
  readonly eol: "\n" | "\r\n";
  headings: Heading[];
  /** Callouts in note order. */
  entries: TopicEntry[];
  /** How many times each `^id` is written ({@link blockIdsIn}), once asked for. */
  private idCounts: Map<string, number> | null = null;
  private ids = new Set<string>();
  /** Callouts by kind and text key, in note order, once asked for. */
  private byText: Map<string, TopicEntry[]> | null = null;
  /** Told of every edit's changes to {@link entries}. */
  onEdit?: (changes: EntryChanges) => void;

  constructor(text: string) {
    const { bom, lines } = splitLines(text);
    const { bodyStart, error } = locateFrontmatter(text, lines);
    this.bom = bom;
    this.lines = lines;
    this.bodyStart = bodyStart;
    this.error = error;
    this.eol = detectEol(lines);
    const { headings, entries } = scanTopicBody(lines, bodyStart);
    this.headings = headings;
    this.entries = entries;
  }

  text(): string {
    return joinLines(this.bom, this.lines);
  }

  /** {@link blockIdsIn} of {@link text}. */
  blockIds(): ReadonlySet<string> {
    if (!this.idCounts) {
      this.idCounts = new Map();
      for (let i = 0; i < this.lines.length; i++) this.countIds(this.segment(i), 1);
    }
    return this.ids;
  }

  /** The first callout of `kind` that is not superseded and whose text has `text`'s {@link entryTextKey}. */
  sameEntry(
    kind: string,
    text: string,
    current: (e: TopicEntry) => boolean,
  ): TopicEntry | undefined {
    if (!this.byText) {
      this.byText = new Map();
      for (const e of this.entries) this.listed(e).push(e);
    }
    return this.byText.get(textKeyOf(kind, text))?.find(current);
  }

  /**
   * Runs `change`, which edits {@link lines} only from line `from` to before line `to`: it may
   * change those lines and insert lines at positions after `from` up to `to` (never remove any),
   * and returns whether it changed anything. Then brings the scan up to date.
   */
  edit(from: number, to: number, change: () => boolean): EntryChanges {
    const length = this.lines.length;
    const before: string[] = [];
    if (this.idCounts) for (let i = from; i < to; i++) before.push(this.segment(i));
    if (!change()) return { replaced: [], added: [], removed: [] };
    const delta = this.lines.length - length;
    if (this.idCounts) {
      for (const s of before) this.countIds(s, -1);
      for (let i = from; i < to + delta; i++) this.countIds(this.segment(i), 1);
    }
    const changes = this.rescan(from, to, delta);
    if (this.byText) {
      for (const e of [...changes.removed, ...changes.replaced.map(([old]) => old)]) {
        const list = this.listed(e);
        list.splice(list.indexOf(e), 1);
      }
      for (const e of [...changes.added, ...changes.replaced.map(([, now]) => now)]) {
        const list = this.listed(e);
        list.splice(
          firstAtOrAfter(list, e.line, (x) => x.line),
          0,
          e,
        );
      }
    }
    this.onEdit?.(changes);
    return changes;
  }

  /**
   * Scans again from the last heading or callout above line `from` (every line before it reads as
   * it did) until a line the old scan visited outside a code fence, under the same heading, at or
   * after the edit: from there on the old scan holds, moved by `delta` lines.
   */
  private rescan(from: number, to: number, delta: number): EntryChanges {
    const { entries, headings, lines } = this;
    const e = firstAtOrAfter(entries, from, (x) => x.line) - 1;
    const h = firstAtOrAfter(headings, from, (x) => x.line) - 1;
    const start = Math.max(
      this.bodyStart,
      entries[e]?.line ?? this.bodyStart,
      headings[h]?.line ?? this.bodyStart,
    );
    const firstHeading = firstAtOrAfter(headings, start, (x) => x.line);
    let nextEntry = firstAtOrAfter(entries, to, (x) => x.line);
    let nextHeading = firstAtOrAfter(headings, to, (x) => x.line);
    const scan = scanFrom(lines, start, headings[firstHeading - 1]?.text ?? null, (i, under) => {
      if (i < to + delta) return false;
      const old = i - delta;
      while ((entries[nextEntry]?.line ?? Infinity) < old) nextEntry++;
      while ((headings[nextHeading]?.line ?? Infinity) < old) nextHeading++;
      if (entries[nextEntry]?.line !== old && headings[nextHeading]?.line !== old) return false;
      return (headings[nextHeading - 1]?.text ?? null) === under;
    });
    const oldEnd = scan.end - delta;
    const firstEntry = firstAtOrAfter(entries, start, (x) => x.line);
    const lastEntry = firstAtOrAfter(entries, oldEnd, (x) => x.line);
    const lastHeading = firstAtOrAfter(headings, oldEnd, (x) => x.line);
    const moved = (line: number): number | undefined =>
      line <= from ? line : line >= to ? line + delta : undefined;
    const old = new Map<number, TopicEntry>();
    for (const x of entries.slice(firstEntry, lastEntry)) {
      const at = moved(x.line);
      if (at !== undefined) old.set(at, x);
    }
    const changes: EntryChanges = { replaced: [], added: [], removed: [] };
    for (const x of scan.entries) {
      const was = old.get(x.line);
      if (was) {
        old.delete(x.line);
        changes.replaced.push([was, x]);
      } else changes.added.push(x);
    }
    changes.removed = entries.slice(firstEntry, lastEntry).filter((x) => {
      const at = moved(x.line);
      return at === undefined || old.get(at) === x;
    });
    for (const x of entries.slice(lastEntry)) {
      x.line += delta;
      x.endLine += delta;
      if (x.idLine !== null) x.idLine += delta;
    }
    for (const x of headings.slice(lastHeading)) x.line += delta;
    entries.splice(firstEntry, lastEntry - firstEntry, ...scan.entries);
    headings.splice(firstHeading, lastHeading - firstHeading, ...scan.headings);
    return changes;
  }

  /** Line `i` with its ending as {@link blockIdsIn} sees it in the whole text. */
  private segment(i: number): string {
    const line = this.lines[i];
    if (!line) return "";
    return (i === 0 && this.bom ? "\uFEFF" : "") + line.text + line.eol;
  }

  private countIds(segment: string, by: 1 | -1): void {
    const counts = this.idCounts;
    if (!counts) return;
    for (const m of segment.matchAll(BLOCK_ID)) {
      const id = m[1] ?? "";
      const n = (counts.get(id) ?? 0) + by;
      if (n > 0) {
        counts.set(id, n);
        this.ids.add(id);
      } else {
        counts.delete(id);
        this.ids.delete(id);
      }
    }
  }

  private listed(e: TopicEntry): TopicEntry[] {
    const key = textKeyOf(e.kind, e.text);
    let list = this.byText?.get(key);
    if (!list) {
      list = [];
      this.byText?.set(key, list);
    }
    return list;
  }
}

function textKeyOf(kind: string, text: string): string {
  return `${kind}\u0000${entryTextKey(text)}`;
}

/** The index of the first of `sorted` (ascending by `at`) at or after `line`, or its length. */
export function firstAtOrAfter<T>(
  sorted: readonly T[],
  line: number,
  at: (x: T) => number,
): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (at(sorted[mid] as T) < line) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
