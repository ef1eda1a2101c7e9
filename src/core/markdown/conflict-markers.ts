import { closesFence, fenceOpener } from "./fences";
/**
 * Git's conflict markers in a note (docs/sync.md, "Without the driver"): a merge that stopped
 * leaves `<<<<<<< ours`, `=======` and `>>>>>>> theirs` lines (and `||||||| base` in diff3 style)
 * at the start of lines. Such a note is no longer what either side wrote, so `health` reports it
 * and `extract` refuses it. Lines inside fenced code are text, not markers; a `=======` outside a
 * `<<<<<<<` … `>>>>>>>` region is a setext heading's underline, not a marker.
 */

/** One conflict marker line. */
export interface ConflictMarker {
  /** 1-based line in the text given. */
  line: number;
  /** The marker itself: `<<<<<<<`, `|||||||`, `=======` or `>>>>>>>`. */
  marker: "<<<<<<<" | "|||||||" | "=======" | ">>>>>>>";
}

const MARKER = /^(<{7}|\|{7}|={7}|>{7})(?:[ \t]|$)/;

/**
 * The conflict markers of `text`, in order. A `<<<<<<<` or `>>>>>>>` line counts wherever it is
 * (outside fenced code); `|||||||` and `=======` only between a `<<<<<<<` and its `>>>>>>>`.
 */
export function findConflictMarkers(text: string): ConflictMarker[] {
  const out: ConflictMarker[] = [];
  let fence: string | null = null;
  let open = false;
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] ?? "";
    if (fence !== null) {
      if (closesFence(raw, fence)) fence = null;
      continue;
    }
    const m = MARKER.exec(raw)?.[1];
    if (m === undefined) {
      fence = fenceOpener(raw);
      continue;
    }
    const marker = m as ConflictMarker["marker"];
    if (marker === "<<<<<<<") open = true;
    else if (marker === ">>>>>>>") open = false;
    else if (!open) continue;
    out.push({ line: i + 1, marker });
  }
  return out;
}

/** True when `text` holds a conflict marker ({@link findConflictMarkers}). */
export function hasConflictMarkers(text: string): boolean {
  return text.includes("<<<<<<<") || text.includes(">>>>>>>")
    ? findConflictMarkers(text).length > 0
    : false;
}
