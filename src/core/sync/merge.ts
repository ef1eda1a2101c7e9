/**
 * Three-way merge of memory notes (docs/sync.md, "The merge driver"): pure text in, text out, for
 * git's merge driver and `agent-memory git resolve`. A note is its frontmatter, merged key by key,
 * and its body as a list of keyed blocks: tracker items by their block id, any other block by its
 * text (without block ids). Blocks added on either side are kept (ours first, then theirs, after
 * the block they followed); a block deleted on one side and unchanged on the other is deleted; a
 * block both sides changed is merged by its kind's rule. The result never holds conflict markers.
 *
 * When one value was changed two ways, the rule is symmetric, so whichever clone merges gets the
 * same text (docs/decisions.md, "Merging what both sides changed"):
 * - an item's state: the further one wins (open < in progress < abandoned < done);
 * - a field or the text: the greater value (for ISO dates and timestamps, the later); the value
 *   set aside is kept in a child line `Merge: kept … over …`, which `health` lists for a person.
 * - frontmatter: the same, except that `extraction_hash` follows the `extracted_at` that won.
 */
import {
  STATUS_CHAR,
  itemAt,
  scanInlineFields,
  scanItemLine,
  type ItemLineScan,
  type TrackerStatus,
} from "../trackers/format";
import { fieldValue, orderFields, splitBlockIds } from "../trackers/fields";
import { fenceAfter } from "../markdown/fences";
import { wordsForSimilarity } from "../markdown/text";
import { isSuperseded } from "../knowledge/supersede";

/** How a note is split into blocks: tracker notes by item, others by paragraph. */
export type NoteShape = "tracker" | "text";

/** A value changed two ways and the choice made, for a person to look at. */
export interface MergeChoice {
  /** Block id of the item, or the frontmatter key (`frontmatter:updated_at`). */
  where: string;
  /** What was compared: `text`, `state`, a field key. */
  what: string;
  kept: string;
  setAside: string;
}

/** What {@link mergeNote} returns. */
export interface MergeResult {
  text: string;
  /** Values changed two ways, each resolved by the rule above. */
  choices: MergeChoice[];
}

/** Prefix of the child line that records a choice under a tracker item. */
export const MERGE_NOTE_PREFIX = "Merge: kept";

interface Block {
  key: string;
  lines: string[];
  /** Blank lines after the block. */
  blanks: string[];
}

interface Split {
  bom: boolean;
  eol: string;
  /** Frontmatter lines between the `---` lines, or `null`. */
  front: string[] | null;
  blocks: Block[];
  /** Blank lines before the first block. */
  lead: string[];
  finalNewline: boolean;
}

const BLANK = /^[ \t]*$/;
/** A line that is only a block id (`^c-1a2b`). */
const LONE_ID = /^\^[A-Za-z0-9-]+[ \t]*$/;

/**
 * Merges `ours` and `theirs`, both descended from `base` (`null`: the note was added on both sides),
 * as described above. `shape` says how to split the body. Never throws on any text.
 */
export function mergeNote(
  base: string | null,
  ours: string,
  theirs: string,
  shape: NoteShape,
): MergeResult {
  if (ours === theirs) return { text: ours, choices: [] };
  if (base !== null && ours === base) return { text: theirs, choices: [] };
  if (base !== null && theirs === base) return { text: ours, choices: [] };
  // Most lines are the same in all three versions: each is scanned once.
  const scans = new Map<string, ItemLineScan | null>();
  const scan = (line: string): ItemLineScan | null => {
    let s = scans.get(line);
    if (s === undefined) scans.set(line, (s = scanItemLine(line)));
    return s;
  };
  const b = split(base ?? "", shape, scan);
  const o = split(ours, shape, scan);
  const t = split(theirs, shape, scan);
  if (shape === "tracker") {
    keyEditedLines(b.blocks, o.blocks, scan);
    keyEditedLines(b.blocks, t.blocks, scan);
  }
  const choices: MergeChoice[] = [];
  const front = mergeFront(b.front, o.front, t.front, choices);
  const forks: Fork[] = [];
  const blocks = mergeBlocks(b.blocks, o.blocks, t.blocks, shape, choices, forks);
  settleForks(blocks, forks);
  const out: string[] = [];
  if (front) out.push("---", ...front, "---");
  out.push(...o.lead);
  blocks.forEach((block, i) => {
    out.push(...block.lines);
    const last = i === blocks.length - 1;
    if (block.blanks.length) out.push(...block.blanks);
    else if (!last && needsGap(block, blocks[i + 1], shape)) out.push("");
  });
  let text = out.join(o.eol);
  if (o.finalNewline || t.finalNewline) text += o.eol;
  return { text: (o.bom ? "\uFEFF" : "") + text, choices };
}

/** A paragraph block needs a blank line before the next, or the two would read as one. */
function needsGap(block: Block, next: Block | undefined, shape: NoteShape): boolean {
  if (!next) return false;
  if (shape === "tracker") return !block.key.startsWith("id:") || !next.key.startsWith("id:");
  return true;
}

function split(text: string, shape: NoteShape, scan: (line: string) => ItemLineScan | null): Split {
  const bom = text.startsWith("\uFEFF");
  const body0 = bom ? text.slice(1) : text;
  const eol = body0.includes("\r\n") ? "\r\n" : "\n";
  const finalNewline = body0.endsWith("\n");
  const lines = body0.split(/\r?\n/);
  if (finalNewline) lines.pop();
  let start = 0;
  let front: string[] | null = null;
  if (lines[0]?.trimEnd() === "---") {
    const close = lines.findIndex((l, i) => i > 0 && l.trimEnd() === "---");
    if (close > 0) {
      front = lines.slice(1, close);
      start = close + 1;
    }
  }
  const body = lines.slice(start);
  const noteLines = shape === "tracker" ? body.map((t) => ({ text: t, eol: "" as const })) : [];
  const lead: string[] = [];
  let i = 0;
  while (i < body.length && BLANK.test(body[i] ?? "")) lead.push(body[i++] ?? "");
  const blocks: Block[] = [];
  const seen = new Map<string, number>();
  const push = (raw: string[], key: string) => {
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    blocks.push({ key: n === 0 ? key : `${key}#${n}`, lines: raw, blanks: [] });
  };
  while (i < body.length) {
    const lineNo = i;
    const raw = body[i] ?? "";
    if (BLANK.test(raw)) {
      const last = blocks[blocks.length - 1];
      if (last) last.blanks.push(raw);
      else lead.push(raw);
      i++;
      continue;
    }
    if (shape === "tracker") {
      const item = itemAt(noteLines, lineNo, scan);
      if (item) {
        // Trailing blank lines inside the item's range belong to its children; blank lines after
        // its last child become separators.
        const own = body.slice(item.line, item.endLine);
        push(own, item.id ? `id:${item.id}` : `line:${raw.trimEnd()}`);
        i = item.endLine;
        continue;
      }
      push([raw], `line:${raw.trimEnd()}`);
      i++;
      continue;
    }
    // A paragraph: non-blank lines, a fenced code block whole.
    const own: string[] = [];
    let fence: string | null = null;
    while (i < body.length) {
      const t = body[i] ?? "";
      if (fence === null && BLANK.test(t)) break;
      fence = fenceAfter(fence, t);
      own.push(t);
      i++;
    }
    // A block id on a line of its own after a blank line names the paragraph before it (a callout's
    // `^c-…`, as the topic note writer puts it): it is part of that block, so the callout is keyed
    // by its id and never parted from it.
    let j = i;
    while (j < body.length && BLANK.test(body[j] ?? "")) j++;
    if (
      fence === null &&
      j > i &&
      LONE_ID.test(body[j] ?? "") &&
      (j + 1 >= body.length || BLANK.test(body[j + 1] ?? "")) &&
      !LONE_ID.test(own[own.length - 1] ?? "")
    ) {
      own.push(...body.slice(i, j + 1));
      i = j + 1;
    }
    push(own, `p:${textKey(own)}`);
  }
  return { bom, eol, front, blocks, lead, finalNewline };
}

/** A paragraph's key: its text without block ids and trailing blanks. */
function textKey(lines: readonly string[]): string {
  const id = blockIdOf(lines);
  if (id) return `^${id}`;
  return lines
    .map((l) => l.replace(/(?:[ \t]+\^[A-Za-z0-9-]+)+[ \t]*$/, "").trimEnd())
    .filter((l) => !/^\^[A-Za-z0-9-]+$/.test(l.trim()))
    .join("\n");
}

/** The id of a callout (a `^id` line of its own at its end) that names it, if any. */
function blockIdOf(lines: readonly string[]): string | null {
  const last = lines[lines.length - 1]?.trim() ?? "";
  const m = /^\^([A-Za-z0-9-]+)$/.exec(last);
  return m && lines.length > 1 && /^c-/.test(m[1] ?? "") ? (m[1] ?? null) : null;
}

/** Overlap of two lines' words that makes one side's new line the edit of a base line. */
const EDITED_LINE_OVERLAP = 0.5;

/**
 * A tracker item without an id is keyed by its text, so an edit on one side (a tick, a word) would
 * read as the line deleted and another added, and an edit on both sides would keep both lines.
 * Each base item without an id that `side` no longer has is matched to the line that took its
 * place there: of the item lines `side` added between the base line's nearest neighbours that it
 * kept, the first whose words overlap the base line's by half ({@link EDITED_LINE_OVERLAP}, of the
 * shorter's words), with an id of its own or not. That line is re-keyed as the base line, so the
 * item is merged three-way as one (docs/decisions.md, "A tracker line without an id is matched to
 * its edit"). Changes `side` in place.
 */
function keyEditedLines(
  base: readonly Block[],
  side: Block[],
  scan: (line: string) => ItemLineScan | null,
): void {
  const sideAt = new Map(side.map((x, i) => [x.key, i]));
  const baseKeys = new Set(base.map((x) => x.key));
  const added = new Set(side.map((x, i) => (baseKeys.has(x.key) ? -1 : i)).filter((i) => i >= 0));
  base.forEach((gone, i) => {
    if (!gone.key.startsWith("line:") || sideAt.has(gone.key)) return;
    const line = gone.lines[0] ?? "";
    const item = scan(line);
    if (!item || item.id) return;
    let from = -1;
    for (let j = i - 1; j >= 0 && from < 0; j--) from = sideAt.get(base[j]?.key ?? "") ?? -1;
    let to = side.length;
    for (let j = i + 1; j < base.length && to === side.length; j++)
      to = sideAt.get(base[j]?.key ?? "") ?? side.length;
    for (let k = from + 1; k < to; k++) {
      const next = side[k];
      const scanned = next && added.has(k) ? scan(next.lines[0] ?? "") : null;
      if (!next || !scanned || wordOverlap(item.text, scanned.text) < EDITED_LINE_OVERLAP) continue;
      added.delete(k);
      sideAt.delete(next.key);
      next.key = gone.key;
      sideAt.set(gone.key, k);
      return;
    }
  });
}

/** Shared words of two texts over the words of the shorter, 0–1 (0 when either has none). */
function wordOverlap(a: string, b: string): number {
  const x = new Set(wordsForSimilarity(a).split(" ").filter(Boolean));
  const y = new Set(wordsForSimilarity(b).split(" ").filter(Boolean));
  if (x.size === 0 || y.size === 0) return 0;
  let shared = 0;
  for (const w of x) if (y.has(w)) shared++;
  return shared / Math.min(x.size, y.size);
}

function same(a: Block | undefined, b: Block | undefined): boolean {
  if (!a || !b) return a === b;
  return a.lines.length === b.lines.length && a.lines.every((l, i) => l === b.lines[i]);
}

function mergeBlocks(
  base: readonly Block[],
  ours: readonly Block[],
  theirs: readonly Block[],
  shape: NoteShape,
  choices: MergeChoice[],
  forks: Fork[],
): Block[] {
  const inBase = new Map(base.map((b) => [b.key, b]));
  const inOurs = new Map(ours.map((b) => [b.key, b]));
  const inTheirs = new Map(theirs.map((b) => [b.key, b]));
  const out: Block[] = [];
  const addedByOurs = new Set<string>();
  for (const o of ours) {
    const b = inBase.get(o.key);
    const t = inTheirs.get(o.key);
    if (!b) addedByOurs.add(o.key);
    if (t === undefined) {
      // Deleted by theirs: gone unless ours changed it.
      if (b && same(b, o)) continue;
      out.push(o);
      continue;
    }
    out.push(mergeBlock(b, o, t, shape, choices, forks));
  }
  let prev: string | null = null;
  for (const t of theirs) {
    if (inOurs.has(t.key)) {
      prev = t.key;
      continue;
    }
    const b = inBase.get(t.key);
    if (b && same(b, t)) continue; // deleted by ours, unchanged by theirs
    // After the block it followed in theirs, past the blocks ours added there.
    let at = prev === null ? 0 : out.findIndex((x) => x.key === prev) + 1;
    if (prev === null && out.length > 0 && shape === "tracker") at = firstItemIndex(out);
    while (at < out.length && addedByOurs.has(out[at]?.key ?? "")) at++;
    const copy = { ...t, blanks: [...t.blanks] };
    out.splice(at, 0, copy);
    prev = t.key;
  }
  return out;
}

function firstItemIndex(blocks: readonly Block[]): number {
  const i = blocks.findIndex((b) => b.key.startsWith("id:"));
  return i < 0 ? blocks.length : i;
}

function mergeBlock(
  base: Block | undefined,
  ours: Block,
  theirs: Block,
  shape: NoteShape,
  choices: MergeChoice[],
  forks: Fork[],
): Block {
  if (same(ours, theirs)) return ours;
  if (base && same(base, ours)) return theirs;
  if (base && same(base, theirs)) return ours;
  if (shape === "tracker" && (ours.key.startsWith("id:") || scanItemLine(ours.lines[0] ?? ""))) {
    const lines = mergeItem(base?.lines ?? null, ours.lines, theirs.lines, choices);
    return { ...ours, lines };
  }
  if (shape === "text" && ours.key.startsWith("p:^")) {
    // A callout keyed by its id that both sides changed (a source added, marked superseded; or
    // given its id on both, when first superseded): its lines merged three-way, so neither side's
    // line is lost.
    const lines = mergeLinesInPlace(base?.lines ?? [], ours.lines, theirs.lines);
    return { ...ours, lines: settleSuccessor(lines, forks) };
  }
  // Two versions of one paragraph (it differs only in block ids): the one with more ids, else the
  // greater text; the lines of the other are never lost because they were the same text.
  const pick =
    ids(ours.lines) !== ids(theirs.lines)
      ? ids(ours.lines) > ids(theirs.lines)
        ? ours
        : theirs
      : ours.lines.join("\n") >= theirs.lines.join("\n")
        ? ours
        : theirs;
  return { ...pick, blanks: ours.blanks };
}

/**
 * Lines of `ours` without those `theirs` deleted, and each line `theirs` added at its place there:
 * after the line it followed, else before the next line kept, so a callout's id stays last.
 */
function mergeLinesInPlace(
  base: readonly string[],
  ours: readonly string[],
  theirs: readonly string[],
): string[] {
  const b = new Set(base);
  const t = new Set(theirs);
  const out = ours.filter((l) => l.trim() === "" || !b.has(l) || t.has(l));
  const o = new Set(out);
  const kept = (line: string | undefined): number =>
    line === undefined || line.trim() === "" ? -1 : out.indexOf(line);
  theirs.forEach((l, j) => {
    if (o.has(l) || b.has(l) || l.trim() === "") return;
    // Right after the line before it there; else before the next line of it that is kept (and the
    // blank lines before that); else after the nearest earlier one kept; else first.
    let at = kept(theirs[j - 1]) + 1;
    if (at === 0) {
      let k = j + 1;
      while (k < theirs.length && kept(theirs[k]) < 0) k++;
      at = k < theirs.length ? kept(theirs[k]) : -1;
      while (at > 0 && (out[at - 1] ?? "").trim() === "") at--;
    }
    for (let k = j - 2; at < 0 && k >= 0; k--) if (kept(theirs[k]) >= 0) at = kept(theirs[k]) + 1;
    out.splice(Math.max(at, 0), 0, l);
    o.add(l);
  });
  return out;
}

/** A callout superseded on two sides at once: the successor kept, and the line that names it. */
interface Fork {
  /** Block ids of the successors set aside. */
  losers: string[];
  /** The kept `> [valid_to:: …] [superseded_by:: …]` line. */
  line: string;
}

const SUCCESSOR_LINE = /^>.*\[superseded_by::[^\]]*\^(c-[A-Za-z0-9-]+)\]\]\]/;

/**
 * Two sides that each superseded one callout leave it two `superseded_by` lines: the greater is
 * kept, as for any value changed two ways, and each other successor is recorded in `forks`, to be
 * marked superseded by the kept one ({@link settleForks}; docs/decisions.md, "Two clones
 * superseding one fact: one successor stays current").
 */
function settleSuccessor(lines: string[], forks: Fork[]): string[] {
  const named = lines.filter((l) => SUCCESSOR_LINE.test(l));
  if (new Set(named).size < 2) return lines;
  const kept = named.reduce((a, l) => (l > a ? l : a));
  const losers = named
    .filter((l) => l !== kept)
    .map((l) => SUCCESSOR_LINE.exec(l)?.[1] ?? "")
    .filter(Boolean);
  forks.push({ losers, line: kept });
  return lines.filter((l) => !named.includes(l) || l === kept);
}

/**
 * Marks each successor a fork set aside as superseded by the kept one: the kept line is added at
 * the end of its quote lines, unless it is superseded already.
 */
function settleForks(blocks: Block[], forks: readonly Fork[]): void {
  for (const fork of forks)
    for (const loser of fork.losers) {
      const block = blocks.find((x) => x.key === `p:^${loser}`);
      if (!block || block.lines.some((l) => isSuperseded(scanInlineFields(l)))) continue;
      let end = block.lines.length;
      while (end > 0 && !(block.lines[end - 1] ?? "").startsWith(">")) end--;
      if (end === 0) continue;
      block.lines = [...block.lines.slice(0, end), fork.line, ...block.lines.slice(end)];
    }
}

function ids(lines: readonly string[]): number {
  return lines.join("\n").match(/\^[A-Za-z0-9-]+/g)?.length ?? 0;
}

const STATUS_RANK: Readonly<Record<TrackerStatus, number>> = {
  open: 0,
  "in-progress": 1,
  abandoned: 2,
  done: 3,
};

/**
 * Both sides changed one item (its line and child lines; `base` `null`: no common ancestor, as when
 * `reconcile` folds two lines sharing an id): state, text, fields and children merged one by one by
 * the rules above; a value set aside is kept as a `Merge: kept … over …` child line and in `choices`.
 */
export function mergeItem(
  base: readonly string[] | null,
  ours: readonly string[],
  theirs: readonly string[],
  choices: MergeChoice[],
): string[] {
  const [ol = "", ...oc] = ours;
  const [tl = "", ...tc] = theirs;
  const [bl, ...bc] = base ?? [];
  let line: string;
  const notes: string[] = [];
  if (ol === tl) line = ol;
  else if (bl !== undefined && bl === ol) line = tl;
  else if (bl !== undefined && bl === tl) line = ol;
  else line = mergeItemLine(bl ?? null, ol, tl, choices, notes);
  const children = mergeLists(base ? bc : [], oc, tc);
  const indent = /^([ \t]+)/.exec(children.find((c) => c.trim() !== "") ?? "")?.[1] ?? "    ";
  for (const n of notes) {
    const child = `${indent}- ${n}`;
    if (!children.includes(child)) children.push(child);
  }
  return [line, ...children];
}

interface ItemParts {
  statusChar: string;
  status: TrackerStatus;
  text: string;
  fields: { key: string; value: string }[];
  id: string | null;
  head: string;
}

function parts(line: string): ItemParts | null {
  const scan = scanItemLine(line);
  if (!scan) return null;
  return {
    statusChar: scan.statusChar,
    status: scan.status,
    text: scan.text,
    fields: scan.fields
      .filter((f) => f.open !== "emoji")
      .map((f) => ({ key: f.key, value: f.value })),
    id: scan.id,
    head: line.slice(0, scan.statusIndex - 1),
  };
}

function mergeItemLine(
  base: string | null,
  ours: string,
  theirs: string,
  choices: MergeChoice[],
  notes: string[],
): string {
  const o = parts(ours);
  const t = parts(theirs);
  if (!o || !t) return ours >= theirs ? ours : theirs;
  const b = base === null ? null : parts(base);
  const where = o.id ?? t.id ?? "item";
  // State: one side's change wins; two changes, the further.
  let status: TrackerStatus;
  if (o.status === t.status) status = o.status;
  else if (b && b.status === o.status) status = t.status;
  else if (b && b.status === t.status) status = o.status;
  else status = STATUS_RANK[o.status] >= STATUS_RANK[t.status] ? o.status : t.status;
  const text = pick3(b?.text ?? null, o.text, t.text, (kept, aside) => {
    choices.push({ where, what: "text", kept, setAside: aside });
    notes.push(`${MERGE_NOTE_PREFIX} "${kept}" over "${aside}" (text)`);
  });
  // Fields, key by key (the last of a key is its value, as every reader reads it).
  const keys: string[] = [];
  for (const f of [...o.fields, ...t.fields]) if (!keys.includes(f.key)) keys.push(f.key);
  const fields: { key: string; value: string }[] = [];
  for (const key of keys) {
    const bv = b ? fieldValue(b.fields, key) : null;
    const ov = fieldValue(o.fields, key);
    const tv = fieldValue(t.fields, key);
    let v: string | null;
    if (ov === tv) v = ov;
    else if (bv === ov) v = tv;
    else if (bv === tv) v = ov;
    else if (ov === null || tv === null) v = ov ?? tv;
    else
      v = pick3(bv, ov, tv, (kept, aside) => {
        choices.push({ where, what: key, kept, setAside: aside });
        notes.push(`${MERGE_NOTE_PREFIX} ${key} "${kept}" over "${aside}"`);
      });
    if (v !== null) fields.push({ key, value: v });
  }
  // A state the merge settled keeps only its own date field.
  const kept = fields.filter(
    (f) =>
      !(f.key === "completion" && status !== "done") &&
      !(f.key === "cancelled" && status !== "abandoned"),
  );
  const fieldText = orderFields(kept)
    .map((f) => ` [${f.key}:: ${f.value}]`)
    .join("");
  const id = o.id ?? t.id;
  const displaced = splitBlockIds(ours, 0)
    .displaced.map((d) => ` ^${d}`)
    .join("");
  return `${o.head}[${STATUS_CHAR[status]}] ${text}${fieldText}${id ? ` ^${id}` : ""}${displaced}`;
}

/** Three-way pick of one value; two changes: the greater, reported through `chose`. */
function pick3(
  base: string | null,
  ours: string,
  theirs: string,
  chose: (kept: string, aside: string) => void,
): string {
  if (ours === theirs) return ours;
  if (base === ours) return theirs;
  if (base === theirs) return ours;
  const kept = ours >= theirs ? ours : theirs;
  chose(kept, kept === ours ? theirs : ours);
  return kept;
}

/**
 * Lines of `ours` in order, without those `theirs` deleted, then the lines `theirs` added (each
 * once, in its order). Blank lines are kept where they are.
 */
export function mergeLists(
  base: readonly string[],
  ours: readonly string[],
  theirs: readonly string[],
): string[] {
  const b = new Set(base);
  const t = new Set(theirs);
  const o = new Set(ours);
  const out = ours.filter((l) => l.trim() === "" || !b.has(l) || t.has(l));
  for (const l of theirs) if (!o.has(l) && !b.has(l) && l.trim() !== "") out.push(l);
  while (out.length && (out[out.length - 1] ?? "").trim() === "") out.pop();
  return out;
}

interface FrontKey {
  key: string;
  lines: string[];
}

function frontKeys(lines: readonly string[]): FrontKey[] {
  const out: FrontKey[] = [];
  for (const l of lines) {
    const m = /^([^\s#:][^:]*):(?:\s|$)/.exec(l);
    if (m?.[1]) out.push({ key: m[1].trim(), lines: [l] });
    else if (out.length) out[out.length - 1]?.lines.push(l);
    else out.push({ key: "", lines: [l] });
  }
  return out;
}

const FOLLOWS: Readonly<Record<string, string>> = { extraction_hash: "extracted_at" };

function mergeFront(
  base: string[] | null,
  ours: string[] | null,
  theirs: string[] | null,
  choices: MergeChoice[],
): string[] | null {
  if (!ours && !theirs) return null;
  if (!ours || !theirs) return ours ?? theirs;
  const b = new Map(frontKeys(base ?? []).map((k) => [k.key, k.lines.join("\n")]));
  const o = frontKeys(ours);
  const t = frontKeys(theirs);
  const om = new Map(o.map((k) => [k.key, k.lines.join("\n")]));
  const tm = new Map(t.map((k) => [k.key, k.lines.join("\n")]));
  const winner = new Map<string, "ours" | "theirs">();
  const decide = (key: string): string | undefined => {
    const bv = b.get(key);
    const ov = om.get(key);
    const tv = tm.get(key);
    if (ov === tv) return ov;
    if (bv === ov) return tv;
    if (bv === tv) return ov;
    if (ov === undefined || tv === undefined) return ov ?? tv;
    const lead = FOLLOWS[key];
    const side = lead ? winner.get(lead) : undefined;
    const kept = side ? (side === "ours" ? ov : tv) : ov >= tv ? ov : tv;
    winner.set(key, kept === ov ? "ours" : "theirs");
    if (!side && !key.endsWith("_at"))
      choices.push({
        where: `frontmatter:${key}`,
        what: key,
        kept,
        setAside: kept === ov ? tv : ov,
      });
    return kept;
  };
  const order = [...o.map((k) => k.key)];
  for (const k of t) if (!order.includes(k.key)) order.push(k.key);
  // Keys that others follow are decided first.
  for (const lead of Object.values(FOLLOWS)) if (order.includes(lead)) decide(lead);
  const out: string[] = [];
  for (const key of order) {
    const v = decide(key);
    if (v !== undefined) out.push(...v.split("\n"));
  }
  return out;
}
