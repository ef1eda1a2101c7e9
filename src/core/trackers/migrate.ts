/**
 * One-time rewrite of tracker lines written before the Tasks order
 * (docs/decisions.md, "Tracker line order follows Tasks' reader") into the line format every writer
 * now uses (README "Tracker line format"): our fields first, then Tasks' fields in Tasks' order,
 * then the block id; priorities in Tasks' words (`2` → `medium`); `status::` as our `state::`; a
 * source link fragment that Dataview's completion tracking moved to the end of the line put back in
 * the link. Only item lines that need it change; every other byte of the note stays as it is.
 */
import { FrontmatterError } from "../errors";
import type { MemoryLayout } from "../layout";
import { TRACKER_KINDS } from "../settings";
import type { VaultPort } from "../vault";
import { FIELD_KEYS, fieldValue, isTasksField, orderFields } from "./fields";
import { parseTracker, scanItemLine, serializeTracker, type FieldSpan } from "./format";
import { normalizedField } from "./store";

/** One line {@link migrateTracker} changed (or would change). */
export interface LineChange {
  /** 1-based line in the note. */
  line: number;
  before: string;
  after: string;
}

/** What {@link migrateTracker} did to one note. */
export interface TrackerMigration {
  text: string;
  changes: LineChange[];
  /**
   * 1-based lines of items with no block id of their own but a journal block id at the end: a
   * Dataview completion rewrite removed the item's id, which cannot be known from the line. Give
   * it back by hand (the note's history has it).
   */
  lostIds: number[];
}

/**
 * The line in the current format, or the line unchanged when it already is (or is not an item).
 * See the module comment for what changes; the item's text, its other fields' values, the bracket
 * style of each field and everything after the content (the block id) are kept.
 */
export function migrateItemLine(line: string): string {
  let scan = scanItemLine(line);
  if (!scan) return line;
  let text = restoreDisplaced(line);
  if (text !== line) scan = scanItemLine(text) ?? scan;
  const bracketed = scan.fields.filter((f) => f.open !== "emoji");
  const normalized = bracketed.map((f) => ({ span: f, ...normalizedField(f.key, f.value) }));
  const ordered = orderFields(normalized);
  const emoji = scan.fields.filter((f) => f.open === "emoji");
  const needsOrder =
    ordered.some((f, i) => f !== normalized[i]) || !cleanTail(text, scan.fields, scan.contentEnd);
  if (!needsOrder) {
    // Values and keys in place, right to left so offsets stay valid.
    for (const f of [...normalized].reverse()) {
      if (f.key !== f.span.key || f.value !== f.span.value)
        text =
          text.slice(0, f.span.start) + written(f.span, f.key, f.value) + text.slice(f.span.end);
    }
    return text;
  }
  let content = text.slice(0, scan.contentEnd);
  for (const f of [...scan.fields].reverse()) {
    let start = f.start;
    while (start > 0 && /[ \t]/.test(content[start - 1] ?? "")) start--;
    if (content[start - 1] === ",") start--;
    content = content.slice(0, start) + content.slice(f.end);
  }
  // Tasks' emoji signifiers (its default format) stay last, as Tasks writes them.
  const fields = [
    ...ordered.map((f) => written(f.span, f.key, f.value)),
    ...emoji.map((f) => text.slice(f.start, f.end)),
  ].join(" ");
  return `${content.trimEnd()}${fields ? ` ${fields}` : ""}${text.slice(scan.contentEnd)}`;
}

/** `[key:: value]` (or with the field's own parentheses). */
function written(span: FieldSpan, key: string, value: string): string {
  return span.open === "(" ? `(${key}:: ${value})` : `[${key}:: ${value}]`;
}

/**
 * True when nothing but whitespace, commas and fields follows the first Tasks field (or emoji
 * signifier) up to the content's end, and no bracketed field follows an emoji signifier.
 */
function cleanTail(line: string, fields: readonly FieldSpan[], contentEnd: number): boolean {
  const firstEmoji = fields.findIndex((f) => f.open === "emoji");
  if (firstEmoji >= 0 && fields.slice(firstEmoji).some((f) => f.open !== "emoji")) return false;
  const first = fields.find((f) => isTasksField(f.key) || f.open === "emoji");
  if (!first) return true;
  let at = first.start;
  for (const f of fields) {
    if (f.start < first.start) continue;
    if (!/^[\s,]*$/.test(line.slice(at, f.start))) return false;
    at = f.end;
  }
  return /^[\s,]*$/.test(line.slice(at, contentEnd));
}

/**
 * Puts a journal block id that was moved to the end of the line back into the source link whose
 * fragment was emptied (`[[J#]]` → `[[J#^am-k3f9]]`), and drops it from the end. Lines without
 * such a pair are returned unchanged.
 */
function restoreDisplaced(line: string): string {
  const scan = scanItemLine(line);
  if (!scan || scan.displaced.length === 0) return line;
  let content = line.slice(0, scan.contentEnd);
  let tail = line.slice(scan.contentEnd);
  for (const id of scan.displaced) {
    const empty = /\[\[([^\]|#]*)#(\||\]\])/.exec(content);
    if (!empty) break;
    const at = empty.index + 2 + (empty[1]?.length ?? 0) + 1;
    content = `${content.slice(0, at)}^${id}${content.slice(at)}`;
    tail = tail.replace(new RegExp(`[ \\t]\\^${id}(?=[ \\t]|$)`), "");
  }
  return content + tail;
}

/**
 * Migrates every item line of a tracker note (see {@link migrateItemLine}). Lines in code fences,
 * frontmatter and non-item lines are never touched, nor are line endings. Throws
 * {@link FrontmatterError} naming `path` when the frontmatter does not parse (never rewritten).
 */
export function migrateTracker(text: string, path = "tracker note"): TrackerMigration {
  const note = parseTracker(text);
  if (note.frontmatterError !== null) {
    throw new FrontmatterError(
      `${path}: frontmatter does not parse, the note is left as it is (${note.frontmatterError})`,
      path,
    );
  }
  const changes: LineChange[] = [];
  const lostIds: number[] = [];
  for (const item of note.items) {
    const line = note.lines[item.line];
    if (!line) continue;
    if (item.id === null && item.displaced.length > 0) lostIds.push(item.line + 1);
    const after = migrateItemLine(line.text);
    if (after !== line.text) {
      changes.push({ line: item.line + 1, before: line.text, after });
      line.text = after;
    }
  }
  return { text: changes.length > 0 ? serializeTracker(note) : text, changes, lostIds };
}

/** One tracker note in a {@link migrateTrackers} run. */
export interface NoteMigration {
  path: string;
  changes: LineChange[];
  lostIds: number[];
  /** Why the note was left as it is (its frontmatter does not parse), or `null`. */
  skipped: string | null;
}

/**
 * Migrates the tracker notes of every agent (`apply: false`: a dry run that only reads). With
 * `apply`, each note is rewritten through `VaultPort.process` (on the CLI a locked, atomic
 * read-modify-write of the note's current text), only when a line changes. Notes whose frontmatter
 * does not parse are listed as skipped, never rewritten.
 */
export async function migrateTrackers(
  vault: VaultPort,
  layout: MemoryLayout,
  options: { apply: boolean },
): Promise<NoteMigration[]> {
  const agents = layout.agentsIn((await vault.list(layout.agentsRoot)).map((f) => f.path));
  const out: NoteMigration[] = [];
  for (const agent of agents) {
    for (const kind of TRACKER_KINDS) {
      const path = layout.trackerPath(agent, kind);
      if (!(await vault.exists(path))) continue;
      const run = (current: string): { content: string; result: NoteMigration } => {
        try {
          const m = migrateTracker(current, path);
          return {
            content: m.text,
            result: { path, changes: m.changes, lostIds: m.lostIds, skipped: null },
          };
        } catch (err) {
          if (!(err instanceof FrontmatterError)) throw err;
          return {
            content: current,
            result: { path, changes: [], lostIds: [], skipped: err.message },
          };
        }
      };
      const unchanged: NoteMigration = { path, changes: [], lostIds: [], skipped: null };
      if (options.apply)
        out.push(
          (
            await vault.process(path, (current) =>
              current === null ? { content: null, result: unchanged } : run(current),
            )
          ).result,
        );
      else out.push(run(await vault.read(path)).result);
    }
  }
  return out;
}

/**
 * Gives back the block ids a Dataview completion rewrite removed (its task view takes every `^…`
 * off the line and puts back only the first, a source link's `^am-…`; see {@link migrateItemLine}).
 * For each item of `current` without an id of its own but with a journal block id at its end,
 * the item of `previous` (the note as last seen) with the same text that cited that block gives its
 * id: the source fragments go back into the links (all of them, from `previous`) and the id to the
 * end of the line. Everything else
 * stays byte for byte. Returns the text and the ids given back.
 */
export function restoreLostIds(
  previous: string,
  current: string,
): { text: string; restored: string[] } {
  const note = parseTracker(current);
  if (note.frontmatterError !== null) return { text: current, restored: [] };
  const before = parseTracker(previous).items.filter((it) => it.id !== null);
  const taken = new Set(note.items.map((it) => it.id).filter((id): id is string => id !== null));
  const restored: string[] = [];
  for (const item of note.items) {
    if (item.id !== null || item.displaced.length === 0) continue;
    const line = note.lines[item.line];
    if (!line) continue;
    const cites = (it: { fields: { key: string; value: string }[] }): boolean =>
      item.displaced.some((d) =>
        (fieldValue(it.fields, FIELD_KEYS.source) ?? "").includes(`#^${d}`),
      );
    const match = before.find(
      (it) => it.id !== null && !taken.has(it.id) && it.text === item.text && cites(it),
    );
    if (!match?.id) continue;
    let repaired = migrateItemLine(line.text);
    // Every link fragment was taken out, only the first put back: the source as last seen, when it
    // is the same links.
    const now = fieldValue(scanItemLine(repaired)?.fields ?? [], "source");
    const was = fieldValue(match.fields, FIELD_KEYS.source);
    const strip = (v: string): string => v.replace(/\^[A-Za-z0-9-]+/g, "");
    if (now !== null && was !== null && now !== was && strip(now) === strip(was))
      repaired = repaired.replace(now, () => was);
    line.text = `${repaired.trimEnd()} ^${match.id}`;
    taken.add(match.id);
    restored.push(match.id);
  }
  return { text: restored.length > 0 ? serializeTracker(note) : current, restored };
}
