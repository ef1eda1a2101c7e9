/**
 * `unresolved-contradiction` and `possible-change` (docs/contradictions.md): two current entries
 * of one note — decision lines of a tracker, or callouts of one kind in a topic or library note —
 * that the statement rule (`compareStatements`, src/core/extraction/statements.ts) calls a change
 * (the same subject, another value or the opposite polarity), or a possible change it cannot
 * decide, while neither supersedes the other. Extraction marks the older one when it writes a
 * change; this finds what a person wrote by hand, what a journal extracted out of order added, and
 * the possible changes extraction left for a person.
 */
import { compareStatements } from "../extraction/statements";
import { listTopicEntries } from "../knowledge/callouts";
import { isSuperseded } from "../knowledge/supersede";
import { parseTracker } from "../trackers/format";
import type { NoteInfo } from "./note-info";
import type { HealthProblem } from "./types";

/** An entry as the rule compares them. */
interface Entry {
  label: string;
  text: string;
  /** 0-based line in the note. */
  line: number;
  id: string | null;
  group: string;
}

const WORDS = { polarity: "says the opposite of", value: "gives another value than" } as const;

/**
 * One warning per pair that is a change or a possible change, on the later entry, naming both.
 * @returns `[]` for notes other than trackers, knowledge and library notes, and for a note whose frontmatter does not parse
 */
export function checkContradictions(note: NoteInfo): HealthProblem[] {
  if (note.invalid) return [];
  let entries: Entry[];
  if (note.collection === "tracker") {
    entries = parseTracker(note.text)
      .items.filter(
        (it) => it.prefix === "d" && it.status !== "abandoned" && !isSuperseded(it.fields),
      )
      .map((it) => ({
        label: it.id ? `item ^${it.id}` : `the item on line ${it.line + 1}`,
        text: it.text,
        line: it.line,
        id: it.id,
        group: "decision",
      }));
  } else if (note.collection === "knowledge" || note.collection === "library") {
    entries = listTopicEntries(note.text)
      .filter((e) => !isSuperseded(e.fields) && e.text !== "")
      .map((e) => ({
        label: e.id ? `^${e.id}` : `the ${e.kind} callout on line ${e.line + 1}`,
        text: e.text,
        line: e.line,
        id: e.id,
        group: e.kind,
      }));
  } else return [];
  const out: HealthProblem[] = [];
  for (let j = 1; j < entries.length; j++) {
    const later = entries[j];
    if (!later) continue;
    for (let i = 0; i < j; i++) {
      const earlier = entries[i];
      if (!earlier || earlier.group !== later.group) continue;
      const c = compareStatements(later.text, earlier.text);
      if (c.outcome !== "change" && c.outcome !== "possible-change") continue;
      const other = `${earlier.label.replace(/^item /, "")} "${earlier.text}"`;
      out.push({
        path: note.path,
        rule: c.outcome === "change" ? "unresolved-contradiction" : "possible-change",
        severity: "warning",
        message:
          c.outcome === "change"
            ? `${cap(later.label)} "${later.text}" ${WORDS[c.reason ?? "value"]} ${other}, and neither supersedes the other.`
            : `${cap(later.label)} "${later.text}" may change ${other}: if it replaces it, mark the supersession; if both are true, leave them.`,
        line: later.line + 1,
        ...(later.id ? { blockId: later.id } : {}),
      });
    }
  }
  return out;
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
