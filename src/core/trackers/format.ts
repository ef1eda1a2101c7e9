/**
 * Tracker note format (docs/architecture.md, "Trackers";
 * docs/decisions.md, "Tracker line order follows Tasks' reader"): task-list items with a status
 * character, Dataview inline fields (ours first, then the Tasks plugin's, see `fields.ts`) and a
 * block id, e.g.
 * `- [ ] Get the top-10 pages [source:: [[2026-03-24#^am-k3f9]]] [priority:: medium] [created:: 2026-03-24] ^t-048`.
 * Lines the Tasks plugin rewrote in its emoji format (`✅ 2026-12-01`, `📅 …`, `⏫`) are read too:
 * each signifier is a field like the Dataview one it stands for.
 *
 * The parser keeps every line's raw text and line ending, so {@link serializeTracker} of an
 * untouched note returns the original bytes (BOM, CRLF, a missing final newline, unknown lines and
 * frontmatter included). Edits live in `store.ts` and touch only the lines concerned.
 */
import type { TrackerKind } from "../settings";
import {
  detectEol,
  locateFrontmatter,
  splitLines,
  joinLines,
  type NoteLine,
} from "../markdown/lines";
import { splitBlockIds, type PriorityWord } from "./fields";
import { ITEM_ID_RE, cryptoRandom, randomId, type RandomSource } from "../util/ids";

/** Item status, from the checkbox character (docs/architecture.md, "Note formats"). */
export type TrackerStatus = "open" | "in-progress" | "done" | "abandoned";

/**
 * Block id prefix of each tracker kind (docs/architecture.md, "Note formats": `t-` task, `g-` goal,
 * …).
 */
export const KIND_PREFIX: Readonly<Record<TrackerKind, string>> = {
  tasks: "t",
  goals: "g",
  reviews: "r",
  proposals: "p",
  questions: "q",
  decisions: "d",
};

/** Tracker kind of each block id prefix (inverse of {@link KIND_PREFIX}). */
export const PREFIX_KIND: Readonly<Record<string, TrackerKind>> = {
  t: "tasks",
  g: "goals",
  r: "reviews",
  p: "proposals",
  q: "questions",
  d: "decisions",
};

/** The checkbox character written for each status. */
export const STATUS_CHAR: Readonly<Record<TrackerStatus, string>> = {
  open: " ",
  "in-progress": "/",
  done: "x",
  abandoned: "-",
};

/** The checkbox of a status as written (`[x]` for `done`), or `[?]` for a status that is none of them. */
export function checkboxOf(status: string): string {
  const char = (STATUS_CHAR as Readonly<Record<string, string>>)[status];
  return char === undefined ? "[?]" : `[${char}]`;
}

/**
 * Status of each checkbox character the parser understands (`X` is read as done, as Obsidian and
 * the Tasks plugin do). A task line with any other character (`[>]`, `[!]`…) is not an item: it is
 * kept byte for byte and its block id is still taken ({@link blockIdsOf}).
 */
export const CHAR_STATUS: Readonly<Record<string, TrackerStatus>> = {
  " ": "open",
  "/": "in-progress",
  x: "done",
  X: "done",
  "-": "abandoned",
};

/**
 * A Dataview inline field (`[key:: value]` or `(key:: value)`) with its place in the line, or a
 * Tasks emoji signifier (`✅ 2026-12-01` is `completion`, `⏫` is `priority` `high`).
 */
export interface FieldSpan {
  /** Key as written, trimmed (for an emoji: the Dataview key it stands for). */
  key: string;
  /** Value as written, trimmed (for a priority emoji: the priority word). */
  value: string;
  /** `[` or `(`, or `emoji` for a Tasks emoji signifier. */
  open: "[" | "(" | "emoji";
  /** Offset of the opening bracket in the line (UTF-16 code units). */
  start: number;
  /** Offset one past the closing bracket. */
  end: number;
}

/** What {@link scanItemLine} finds in a task-list line, with offsets for surgical edits. */
export interface ItemLineScan {
  statusChar: string;
  status: TrackerStatus;
  /** Offset of the status character in the line. */
  statusIndex: number;
  /** Text without fields and block id, whitespace collapsed. */
  text: string;
  fields: FieldSpan[];
  /** Block id without `^`, or `null` (the rule: {@link splitBlockIds}). */
  id: string | null;
  /** Offset where the content ends: the whitespace before ` ^id`, or the end of the trimmed line. */
  contentEnd: number;
  /** Journal block ids found after the content, moved there from a source link (see {@link splitBlockIds}). */
  displaced: string[];
}

/** A tracker item (docs/architecture.md, "Note formats"). */
export interface TrackerItem {
  /** Block id without `^` (`t-048`), or `null` for an item a person wrote without one. */
  id: string | null;
  /** Kind prefix of the id (`t`, `g`, …), or `null` when the id has none. */
  prefix: string | null;
  status: TrackerStatus;
  /** The checkbox character as written (`x` and `X` are both done). */
  statusChar: string;
  /** Item text without fields and block id, whitespace collapsed. */
  text: string;
  /** Inline fields in line order (read a key with `fieldValue`: the last one wins). */
  fields: { key: string; value: string }[];
  /** Journal block ids moved after the content by another plugin (see {@link splitBlockIds}). */
  displaced: string[];
  /** Raw indented lines under the item (progress notes, observation…), blank lines between them included. */
  children: string[];
  /** 0-based index of the item's line among the note's lines (a BOM does not count). */
  line: number;
  /** 0-based index one past the item's last child line (trailing blank lines are not children). */
  endLine: number;
}

/** A parsed tracker note: every line kept as written, plus the items found. */
export interface TrackerNote {
  /** True when the text starts with a UTF-8 BOM (kept on serialisation). */
  bom: boolean;
  lines: NoteLine[];
  /** The note's line ending for new lines: the first one found, else `\n`. */
  eol: "\n" | "\r\n";
  /** 0-based index of the first line after the frontmatter (0 when there is none). */
  bodyStart: number;
  /**
   * Why the frontmatter does not parse, or `null`. Such a note must never be rewritten
   * (docs/architecture.md, "The health check").
   */
  frontmatterError: string | null;
  items: TrackerItem[];
}

/**
 * A task-list line: a `-`, `*` or `+` bullet, or a number (`1.`, `2)`) as Obsidian and Tasks read
 * one (test/cli/cli.process.test.ts, "trackers … lists numbered items …").
 */
const ITEM_LINE = /^(?:[-*+]|\d{1,9}[.)])[ \t]+\[([^\]])\](?=[ \t]|$)/u;
const FIELD_HEAD = /[[(]([^[\]()\r\n:]+)::/y;
const WIKILINK_AT = /\[\[[^[\]\r\n]+\]\]/y;

/**
 * Reads a task-list line at column 0 (`-`, `*` or `+` bullet, or `1.`). Returns `null` for any other line,
 * including a task line whose status character is not in {@link CHAR_STATUS}. Never throws.
 */
export function scanItemLine(line: string): ItemLineScan | null {
  const m = ITEM_LINE.exec(line);
  const statusChar = m?.[1];
  if (!m || statusChar === undefined) return null;
  const status = CHAR_STATUS[statusChar];
  if (!status) return null;
  const statusIndex = m[0].length - 2;
  const contentStart = m[0].length;
  const ids = splitBlockIds(line, contentStart);
  const id = ids.id;
  const contentEnd = Math.max(ids.contentEnd, contentStart);
  const bracketed = scanFields(line, contentStart, contentEnd);
  const fields = [...bracketed, ...scanEmojiFields(line, contentStart, contentEnd, bracketed)].sort(
    (a, b) => a.start - b.start,
  );
  let text = "";
  let at = contentStart;
  for (const f of fields) {
    text += `${line.slice(at, f.start)} `;
    at = f.end;
  }
  text += line.slice(at, contentEnd);
  return {
    statusChar,
    status,
    statusIndex,
    text: text.replace(/\s+/g, " ").trim(),
    fields,
    id,
    contentEnd,
    displaced: ids.displaced,
  };
}

/** Tasks' emoji signifiers of dates (its default format), and the Dataview key each stands for. */
const EMOJI_DATE = /(🛫|➕|⏳|⌛|📅|📆|🗓|⏰|✅|❌)\uFE0F? *(\d{4}-\d{2}-\d{2})/gu;
const EMOJI_DATE_KEY: Readonly<Record<string, string>> = {
  "🛫": "start",
  "➕": "created",
  "⏳": "scheduled",
  "⌛": "scheduled",
  "📅": "due",
  "📆": "due",
  "🗓": "due",
  "⏰": "reminder",
  "✅": "completion",
  "❌": "cancelled",
};
const EMOJI_PRIORITY = /(🔺|⏫|🔼|🔽|⏬)\uFE0F?/gu;
const EMOJI_PRIORITY_WORD: Readonly<Record<string, PriorityWord>> = {
  "🔺": "highest",
  "⏫": "high",
  "🔼": "medium",
  "🔽": "low",
  "⏬": "lowest",
};

/** Tasks emoji signifiers between `from` and `to`, outside the bracketed fields already found. */
function scanEmojiFields(
  line: string,
  from: number,
  to: number,
  bracketed: readonly FieldSpan[],
): FieldSpan[] {
  const part = line.slice(from, to);
  if (!/[\u2190-\u2BFF\u{1F300}-\u{1FAFF}]/u.test(part)) return [];
  const inside = (at: number): boolean => bracketed.some((f) => at >= f.start && at < f.end);
  const out: FieldSpan[] = [];
  for (const m of part.matchAll(EMOJI_DATE)) {
    const start = from + (m.index ?? 0);
    const key = EMOJI_DATE_KEY[m[1] ?? ""];
    if (key && m[2] && !inside(start))
      out.push({ key, value: m[2], open: "emoji", start, end: start + m[0].length });
  }
  for (const m of part.matchAll(EMOJI_PRIORITY)) {
    const start = from + (m.index ?? 0);
    const value = EMOJI_PRIORITY_WORD[m[1] ?? ""];
    if (value && !inside(start))
      out.push({ key: "priority", value, open: "emoji", start, end: start + m[0].length });
  }
  return out;
}

/** Dataview inline fields between `from` and `to`, with balanced brackets inside values (wikilinks). */
/**
 * The inline fields (`[key:: value]`, `(key:: value)`) of any text, e.g. a journal line, read by
 * the scanner of tracker lines: brackets nest, so a wikilink in a value stays whole
 * (`[to:: [[editor]]]` is `to` = `[[editor]]`; docs/decisions.md, "One inline-field scanner"), and
 * a wikilink in the text starts no field. Offsets are into `text`.
 */
export function scanInlineFields(text: string): FieldSpan[] {
  return scanFields(text, 0, text.length);
}

/** `text` without its inline fields ({@link scanInlineFields}); the spaces before each go too. */
export function withoutInlineFields(text: string): string {
  let out = "";
  let at = 0;
  for (const f of scanInlineFields(text)) {
    out += text.slice(at, f.start).replace(/[ \t]+$/, "");
    at = f.end;
  }
  return out + text.slice(at);
}

/**
 * Every field of any text, e.g. a journal line, as {@link scanItemLine} reads a tracker line's
 * content: the bracketed fields ({@link scanInlineFields}) and the Tasks plugin's emoji signifiers
 * outside them (`⏳ 2026-11-30` is `scheduled`, `⏫` is `priority` `high`), in the order written.
 */
export function scanLineFields(text: string): FieldSpan[] {
  const bracketed = scanFields(text, 0, text.length);
  return [...bracketed, ...scanEmojiFields(text, 0, text.length, bracketed)].sort(
    (a, b) => a.start - b.start,
  );
}

/** `text` without its fields of either form ({@link scanLineFields}); the spaces before each go too. */
export function withoutLineFields(text: string): string {
  let out = "";
  let at = 0;
  for (const f of scanLineFields(text)) {
    out += text.slice(at, f.start).replace(/[ \t]+$/, "");
    at = f.end;
  }
  return out + text.slice(at);
}

function scanFields(line: string, from: number, to: number): FieldSpan[] {
  const fields: FieldSpan[] = [];
  let p = from;
  while (p < to) {
    const ch = line[p];
    if (ch === "[" && line[p + 1] === "[") {
      // A wikilink in the text (as src/core/markdown/wikilinks.ts reads one: no bracket inside):
      // skip it whole so that its inner brackets start nothing. A half-typed `[[` that no `]]`
      // closes before the next bracket is two characters of text, so a field after it, such as
      // the item's `source`, stays whole.
      WIKILINK_AT.lastIndex = p;
      const link = WIKILINK_AT.exec(line);
      p = link && p + link[0].length <= to ? p + link[0].length : p + 2;
      continue;
    }
    if (ch !== "[" && ch !== "(") {
      p++;
      continue;
    }
    FIELD_HEAD.lastIndex = p;
    const head = FIELD_HEAD.exec(line);
    const key = head?.[1]?.trim();
    if (!head || !key) {
      p++;
      continue;
    }
    const open = ch;
    const close = open === "[" ? "]" : ")";
    let depth = 0;
    let end = -1;
    for (let q = p + head[0].length; q < to; q++) {
      const c = line[q];
      if (c === open) depth++;
      else if (c === close) {
        if (depth === 0) {
          end = q;
          break;
        }
        depth--;
      }
    }
    if (end < 0) {
      p++;
      continue;
    }
    fields.push({
      key,
      value: line.slice(p + head[0].length, end).trim(),
      open,
      start: p,
      end: end + 1,
    });
    p = end + 1;
  }
  return fields;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Parses a tracker note. Never throws: lines it does not understand are kept as they are, and a
 * frontmatter that does not parse is reported in {@link TrackerNote.frontmatterError}.
 * Items are task-list lines at column 0 outside frontmatter and code fences; the indented lines that
 * follow (blank lines between them included) are the item's children.
 */
export function parseTracker(text: string): TrackerNote {
  const { bom, lines } = splitLines(text);
  const { bodyStart, error } = locateFrontmatter(text, lines);
  const items: TrackerItem[] = [];
  let fence: string | null = null;
  let i = bodyStart;
  while (i < lines.length) {
    const raw = lines[i]?.text ?? "";
    if (fence !== null) {
      const m = FENCE.exec(raw);
      if (m?.[1] && m[1][0] === fence[0] && m[1].length >= fence.length && raw.trim() === m[1])
        fence = null;
      i++;
      continue;
    }
    const fm = FENCE.exec(raw);
    if (fm?.[1]) {
      fence = fm[1];
      i++;
      continue;
    }
    const item = itemAt(lines, i);
    if (!item) {
      i++;
      continue;
    }
    items.push(item);
    i = item.endLine;
  }
  return { bom, lines, eol: detectEol(lines), bodyStart, frontmatterError: error, items };
}

/**
 * The item whose line is `lines[i]`, with its children, as {@link parseTracker} reads it there
 * (outside frontmatter and code fences), or `null` when that line is not a task-list line.
 * `scanLine` is {@link scanItemLine} or a memo of it (the merge driver reads the same lines in
 * three versions of a note).
 */
export function itemAt(
  lines: readonly NoteLine[],
  i: number,
  scanLine: (line: string) => ItemLineScan | null = scanItemLine,
): TrackerItem | null {
  const scan = scanLine(lines[i]?.text ?? "");
  if (!scan) return null;
  let end = i + 1;
  for (let j = i + 1; j < lines.length; j++) {
    const t = lines[j]?.text ?? "";
    if (t.trim() === "") continue;
    if (t.startsWith(" ") || t.startsWith("\t")) {
      end = j + 1;
      continue;
    }
    break;
  }
  const prefix = scan.id ? (ITEM_ID_RE.exec(scan.id)?.[1] ?? null) : null;
  return {
    id: scan.id,
    prefix,
    status: scan.status,
    statusChar: scan.statusChar,
    text: scan.text,
    fields: scan.fields.map((f) => ({ key: f.key, value: f.value })),
    displaced: scan.displaced,
    children: lines.slice(i + 1, end).map((l) => l.text),
    line: i,
    endLine: end,
  };
}

/** Writes a parsed note back: the exact original bytes when the note was not changed. */
export function serializeTracker(note: TrackerNote): string {
  return joinLines(note.bom, note.lines);
}

/** The items of a tracker note, in note order (see {@link parseTracker}). */
export function listItems(text: string): TrackerItem[] {
  return parseTracker(text).items;
}

/**
 * Every block id (without `^`) that ends a line of the note, as {@link splitBlockIds} reads it:
 * items, children and lines the parser does not understand, so a new id never reuses one a person
 * wrote on an unusual line.
 */
export function blockIdsOf(lines: readonly NoteLine[]): Set<string> {
  const ids = new Set<string>();
  for (const line of lines) {
    if (!line.text.includes("^")) continue;
    const id = splitBlockIds(line.text, 0).id;
    if (id !== null) ids.add(id);
  }
  return ids;
}

/**
 * A new item id for `prefix` (`t`, `g` …) that is in none of `taken`: the prefix, a dash and ten
 * random base32 characters (`t-k3f9x2m7qa`; docs/decisions.md, "Random item ids across clones").
 * Old numbered ids (`t-004`) are never renumbered and stay valid beside the new ones.
 */
export function newItemId(
  prefix: string,
  taken: Pick<ReadonlySet<string>, "has">,
  random: RandomSource = cryptoRandom,
): string {
  return randomId(`${prefix}-`, taken, random);
}
