/**
 * Health rules for what syncing a vault can leave behind (docs/sync.md): git conflict markers in
 * a note, a sync tool's conflict copy, and the choices a merge made for a person to look at.
 */
import { findConflictMarkers } from "../markdown/conflict-markers";
import { MERGE_NOTE_PREFIX } from "../sync/merge";
import { conflictCopyTarget } from "../sync/reconcile";
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

/** `conflict-copy`: a note whose name is a sync tool's conflict copy of another note. */
export function checkConflictCopy(note: NoteInfo): HealthProblem[] {
  const target = conflictCopyTarget(note.path);
  if (!target) return [];
  return [
    {
      path: note.path,
      rule: "conflict-copy",
      severity: "error",
      message: `conflict copy of ${target} left by a sync tool: run agent-memory reconcile to merge it.`,
    },
  ];
}

/** `merge-choice`: each `Merge: kept … over …` child line, one warning at its line. */
export function checkMergeChoices(note: NoteInfo): HealthProblem[] {
  if (!note.text.includes(MERGE_NOTE_PREFIX)) return [];
  const out: HealthProblem[] = [];
  note.text.split(/\r?\n/).forEach((line, i) => {
    const m = /^[ \t]+[-*+] (Merge: kept .*)$/.exec(line);
    if (m?.[1])
      out.push({
        path: note.path,
        rule: "merge-choice",
        severity: "warning",
        message: `${m[1]}: a value changed two ways; check the item.`,
        line: i + 1,
      });
  });
  return out;
}
