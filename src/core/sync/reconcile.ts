/**
 * What `agent-memory reconcile` does after a line-union merge or a file-sync tool (docs/sync.md,
 * "Reconcile"): pure text logic; the CLI does the file handling through the vault port.
 * - {@link foldDuplicateItems}: tracker lines that share a block id become one item, merged by the
 *   merge driver's own item rule ({@link mergeItem}, no common ancestor): the further state wins,
 *   a differing text or field stays visible as a `Merge: kept … over …` child line. The item keeps
 *   its place (the first line) and its id, so links to it keep working.
 * - {@link conflictCopyTarget}: the note a sync tool's conflict copy belongs to.
 */
import { itemAt } from "../trackers/format";
import type { MemoryLayout } from "../layout";
import { mergeItem, type MergeChoice, type NoteShape } from "./merge";

/** What {@link foldDuplicateItems} returns. */
export interface FoldResult {
  /** The note's text with each duplicated id folded into one item (the input when none). */
  text: string;
  /** Each id that was folded and how many lines it had. */
  folded: { id: string; lines: number }[];
  /** Values that differed, as the merge driver reports them. */
  choices: MergeChoice[];
}

/**
 * Folds the tracker items of `text` that share a block id into the first of them (later ones are
 * merged into it in note order and their lines removed). Lines outside items, and items with a
 * unique id, are kept byte for byte. Never throws.
 */
export function foldDuplicateItems(text: string): FoldResult {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const lines = text.split(/\r?\n/);
  const items = itemSpans(lines);
  const groups = new Map<string, { start: number; end: number }[]>();
  for (const it of items) groups.set(it.id, [...(groups.get(it.id) ?? []), it]);
  const replace = new Map<number, { end: number; lines: string[] }>();
  const folded: FoldResult["folded"] = [];
  const choices: MergeChoice[] = [];
  for (const [id, group] of groups) {
    if (group.length < 2) continue;
    const [first, ...rest] = group;
    if (!first) continue;
    let acc = lines.slice(first.start, first.end);
    for (const g of rest) {
      acc = mergeItem(null, acc, trimBlankEnd(lines.slice(g.start, g.end)), choices);
      replace.set(g.start, { end: g.end, lines: [] });
    }
    replace.set(first.start, { end: first.end, lines: acc });
    folded.push({ id, lines: group.length });
  }
  if (!folded.length) return { text, folded, choices };
  const out: string[] = [];
  for (let i = 0; i < lines.length;) {
    const r = replace.get(i);
    if (r) {
      out.push(...r.lines);
      i = r.end;
      continue;
    }
    out.push(lines[i] ?? "");
    i++;
  }
  return { text: out.join(eol), folded, choices };
}

/** The tracker items of `lines` that have a block id: the id and the item's lines `[start, end)`. */
function itemSpans(lines: readonly string[]): { id: string; start: number; end: number }[] {
  const noteLines = lines.map((t) => ({ text: t, eol: "" as const }));
  const items: { id: string; start: number; end: number }[] = [];
  for (let i = 0; i < lines.length;) {
    const item = itemAt(noteLines, i);
    if (!item) {
      i++;
      continue;
    }
    if (item.id) items.push({ id: item.id, start: item.line, end: item.endLine });
    i = Math.max(item.endLine, i + 1);
  }
  return items;
}

/** True when two tracker items of `text` share a block id (what {@link foldDuplicateItems} folds). */
export function hasDuplicateItemIds(text: string): boolean {
  const seen = new Set<string>();
  for (const { id } of itemSpans(text.split(/\r?\n/))) {
    if (seen.has(id)) return true;
    seen.add(id);
  }
  return false;
}

function trimBlankEnd(lines: string[]): string[] {
  const out = [...lines];
  while (out.length > 1 && (out[out.length - 1] ?? "").trim() === "") out.pop();
  return out;
}

/**
 * Names sync tools give the loser of a simultaneous change: Syncthing
 * (`X.sync-conflict-20261201-101500-ABCDEFG.md`), Dropbox (`X (conflicted copy 2026-12-01).md`,
 * `X (Ana's conflicted copy …).md`), Nextcloud and others (`X (Conflict …).md`,
 * `X (Conflicted …).md`, `X (conflict copy …).md`).
 */
const COPY_PATTERNS: readonly RegExp[] = [
  /^(.+)\.sync-conflict-\d{8}-\d{6}(?:-[A-Za-z0-9]+)?(\.md)$/i,
  /^(.+?) \((?:[^()]*'s )?conflict(?:ed)? copy[^()]*\)(\.md)$/i,
  /^(.+?) \(conflict(?:ed)?(?: [^()]*)?\)(\.md)$/i,
];

/**
 * The vault path of the note a conflict copy belongs to (same folder, the name without the sync
 * tool's suffix), or `null` when `path` is not a conflict copy's name.
 */
export function conflictCopyTarget(path: string): string | null {
  const slash = path.lastIndexOf("/");
  const dir = path.slice(0, slash + 1);
  const name = path.slice(slash + 1);
  for (const re of COPY_PATTERNS) {
    const m = re.exec(name);
    if (m?.[1] && m[2]) return `${dir}${m[1]}${m[2]}`;
  }
  return null;
}

/** Where `reconcile` keeps a conflict copy once merged: out of the notes, never deleted. */
export const CONFLICT_COPY_DIR = ".agent-memory/conflict-copies";

/** How a memory note is merged: tracker notes item by item, everything else by block. */
export function noteShape(layout: MemoryLayout | null, path: string): NoteShape {
  const collection = layout?.collectionOf(path);
  if (collection === "tracker") return "tracker";
  if (collection === undefined && /(^|\/)Trackers\/[^/]+\.md$/.test(path)) return "tracker";
  return "text";
}
