/**
 * Superseding an entry, both kept (docs/contradictions.md): the old topic callout or
 * tracker line gets `[valid_to:: YYYY-MM-DD]` and `[superseded_by:: [[note#^id]]]`, the new one
 * `[supersedes:: [[note#^id]]]`. Pure text operations meant to run inside `VaultPort.process`
 * on the note's current content; every other line is kept byte for byte and nothing is removed.
 *
 * A callout gets a block id (`^c-xxxx`) when it first takes part in a supersession: on its own
 * line after the callout, one blank line between, as Obsidian reads a callout's id.
 */
import { FrontmatterError } from "../errors";
import { err, ok } from "../util/result";
import { formatWikilink } from "../markdown/wikilinks";
import { deriveShortId } from "../util/hash";
import { FIELD_KEYS, isSuperseded } from "../trackers/fields";

export { isSuperseded };
import { insertLines, type NoteLine } from "../markdown/lines";
import { setItemField, setItemStatus, type EditResult } from "../trackers/store";
import { findItem } from "../trackers/store";
import { isOpenStatus } from "../trackers/status";
import { TopicBody, blockIdsIn, entryTextKey, type TopicEntry } from "./callouts";

export { blockIdsIn };

/** Key of the day an entry stopped being current (`YYYY-MM-DD`). */
export const VALID_TO_KEY = FIELD_KEYS.validTo;
/** Key of the link from a superseded entry to the one that replaced it. */
export const SUPERSEDED_BY_KEY = FIELD_KEYS.supersededBy;
/** Key of the link from an entry to the one it replaced. */
export const SUPERSEDES_KEY = FIELD_KEYS.supersedes;

/** Prefix of the block ids given to topic callouts (`^c-1a2b`). */
export const CALLOUT_ID_PREFIX = "c-";

/**
 * A deterministic callout block id `c-xxxxxxxxxx` (ten base32 characters of a hash of `seed`), the
 * next derivation when it is in `taken` (ids without `^`).
 */
export function calloutBlockId(seed: string, taken: ReadonlySet<string>): string {
  return deriveShortId(CALLOUT_ID_PREFIX, seed, taken);
}

/**
 * Marks a tracker item superseded: `[valid_to:: date]` and `[superseded_by:: link]` at their place
 * in the line (ours, before the Tasks fields: `orderFields`). `cancel: true` (an open task whose
 * journal wording changed) also abandons it with Tasks' `[cancelled:: date]`. An item already
 * superseded is left as it is (`changed: false`); no such item is an error (`found: false`).
 * @param link wikilink to the new item, `[[…#^d-005]]`
 * @param date `YYYY-MM-DD`
 */
export function supersedeTrackerItem(
  text: string,
  id: string,
  link: string,
  date: string,
  path = "tracker note",
  cancel = false,
): EditResult {
  const item = findItem(text, id);
  if (!item) return err({ found: false, message: `no item ^${id} in ${path}` });
  if (isSuperseded(item.fields)) return ok({ text, changed: false });
  let out = text;
  if (cancel && isOpenStatus(item.status)) {
    const r = setItemStatus(out, id, "abandoned", path, date);
    if (!r.ok) return r;
    out = r.value.text;
  }
  for (const [key, value] of [
    [VALID_TO_KEY, date],
    [SUPERSEDED_BY_KEY, link],
  ] as const) {
    const r = setItemField(out, id, key, value, path);
    if (!r.ok) return r;
    out = r.value.text;
  }
  return ok({ text: out, changed: out !== text });
}

/**
 * Gives a callout a block id when it has none: `^c-xxxx` on its own line after it, a blank line
 * before it (and after it when text follows). Edits `lines` in place.
 * @returns the callout's id
 */
function ensureCalloutId(
  lines: NoteLine[],
  entry: TopicEntry,
  wanted: string,
  taken: Set<string>,
  eol: "\n" | "\r\n",
): string {
  if (entry.id) return entry.id;
  const id = taken.has(wanted) ? calloutBlockId(wanted, taken) : wanted;
  taken.add(id);
  const last = lines[entry.endLine - 1];
  if (last && last.eol === "") last.eol = eol;
  const after = lines[entry.endLine];
  const block = after && after.text.trim() === "" ? [`^${id}`] : ["", `^${id}`];
  const at = after && after.text.trim() === "" ? entry.endLine + 1 : entry.endLine;
  const next = lines[at];
  if (next && next.text.trim() !== "") block.push("");
  insertLines(lines, at, block, eol);
  return id;
}

/** What {@link supersedeCallout} did. */
export interface SupersedeCalloutResult {
  text: string;
  /** Whether the text changed. */
  changed: boolean;
  /** The old callout's block id (given now when it had none). */
  oldId: string;
}

/**
 * Marks a topic callout superseded by the callout `newId` of the same note: a line
 * `> [valid_to:: date] [superseded_by:: [[note#^newId]]]` at the callout's end, and a block id when
 * it had none (`oldId`, see {@link calloutBlockId}; another when that one is taken). `match` is the
 * old callout's block id or its text (compared as `entryTextKey`).
 * A callout already superseded is left as it is. Frontmatter is never touched.
 * Throws {@link FrontmatterError} when the note's frontmatter does not parse.
 * @returns `null` when no such callout is in the note
 */
export function supersedeCallout(
  text: string,
  match: { id?: string; text: string },
  path: string,
  ids: { newId: string; oldId: string },
  date: string,
): SupersedeCalloutResult | null {
  const note = new TopicBody(text);
  const marked = supersedeIn(note, match, path, ids, date);
  if (!marked) return null;
  const out = note.text();
  return { text: out, changed: out !== text, oldId: marked.oldId };
}

/**
 * {@link supersedeCallout} on a parsed note, in place. @returns the old callout's block id and
 * whether the note changed, or `null` when no such callout is in the note.
 */
export function supersedeIn(
  note: TopicBody,
  match: { id?: string; text: string },
  path: string,
  ids: { newId: string; oldId: string },
  date: string,
): { oldId: string; changed: boolean } | null {
  if (note.error !== null)
    throw new FrontmatterError(
      `${path}: frontmatter does not parse, the note is left as it is (${note.error})`,
      path,
    );
  const { entries, lines, eol } = note;
  const key = entryTextKey(match.text);
  const entry =
    (match.id ? entries.find((e) => e.id === match.id) : undefined) ??
    entries.find((e) => isCurrentEntry(e) && entryTextKey(e.text) === key);
  if (!entry) return null;
  const taken = new Set(note.blockIds());
  let oldId = "";
  let changed = false;
  // The id line and the fields line go right after the callout (and a blank line after it).
  note.edit(entry.line, Math.min(lines.length, entry.endLine + 2), () => {
    const length = lines.length;
    const last = lines[entry.endLine - 1];
    const lastEol = last?.eol;
    oldId = ensureCalloutId(lines, entry, ids.oldId, taken, eol);
    if (!isSuperseded(entry.fields)) {
      const end = lines[entry.endLine - 1];
      if (end && end.eol === "") end.eol = eol;
      insertLines(
        lines,
        entry.endLine,
        [
          `> [${VALID_TO_KEY}:: ${date}] [${SUPERSEDED_BY_KEY}:: ${formatWikilink({ path, blockId: ids.newId })}]`,
        ],
        eol,
      );
    }
    changed = lines.length !== length || last?.eol !== lastEol;
    return changed;
  });
  return { oldId, changed };
}

/** True for a callout not superseded: found by its text, the current one is the one superseded. */
function isCurrentEntry(e: TopicEntry): boolean {
  return !isSuperseded(e.fields);
}
