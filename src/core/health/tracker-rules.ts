/**
 * Tracker line rules (docs/decisions.md, "Tracker line order follows Tasks' reader"):
 * `duplicate-field`, a tracker item with the same inline field key twice. Every reader takes the
 * last one (`fieldValue`, as the Tasks plugin's edit means when it appends a second `due` or
 * `priority`), so the first is dead text worth removing.
 */
import { duplicateKeys, fieldValue } from "../trackers/fields";
import { parseTracker } from "../trackers/format";
import type { NoteInfo } from "./note-info";
import type { HealthProblem } from "./types";

/** `duplicate-field` for one tracker note: one warning per item, naming each key written twice and the value read. */
export function checkDuplicateFields(note: NoteInfo): HealthProblem[] {
  if (note.collection !== "tracker" || note.invalid) return [];
  const out: HealthProblem[] = [];
  for (const item of parseTracker(note.text).items) {
    const keys = duplicateKeys(item.fields);
    if (keys.length === 0) continue;
    const label = item.id ? `^${item.id}` : `"${item.text.slice(0, 40)}"`;
    const read = keys
      .map((k) => `${k} (read as ${JSON.stringify(fieldValue(item.fields, k))})`)
      .join(", ");
    out.push({
      path: note.path,
      rule: "duplicate-field",
      severity: "warning",
      message: `Item ${label} has the field${keys.length === 1 ? "" : "s"} ${read} more than once; the last one is read.`,
      line: item.line + 1,
      ...(item.id ? { blockId: item.id } : {}),
    });
  }
  return out;
}
