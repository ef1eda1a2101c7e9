/**
 * Health rules for what syncing a vault can leave behind (docs/sync.md): git conflict markers in
 * a note.
 */
import { findConflictMarkers } from "../markdown/conflict-markers";
import type { NoteInfo } from "./note-info";
import type { HealthProblem } from "./types";

/**
 * `conflict-markers`: a note holding git conflict markers outside fenced code, one error per note
 * at its first marker's line (line numbers count the whole text, frontmatter included).
 */
export function checkConflictMarkers(note: NoteInfo): HealthProblem[] {
  if (!note.text.includes("<<<<<<<") && !note.text.includes(">>>>>>>")) return [];
  const markers = findConflictMarkers(note.text);
  const first = markers[0];
  if (!first) return [];
  const n = markers.length;
  return [
    {
      path: note.path,
      rule: "conflict-markers",
      severity: "error",
      message: `${n} git conflict marker${n === 1 ? "" : "s"} (first ${first.marker} at line ${first.line}): the note holds both sides of a merge that stopped.`,
      line: first.line,
    },
  ];
}
