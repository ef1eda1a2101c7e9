/**
 * Applying query filters to a note's stored metadata (docs/architecture.md, "Query language").
 * Values compare case-insensitively; `tag:project` also matches nested tags (`project/alpha`), as
 * Obsidian's tag search does; `path:` matches a part of the path; `after:D` keeps notes dated D or
 * later and
 * `before:D` notes dated strictly before D (the note's date: see {@link NoteMeta.date}).
 * `type:` reads the frontmatter and, when it is silent, the collection the layout gives (a
 * hand-written journal is `type:journal`); `agent:` matches the agent whose folder holds the note
 * and the one its frontmatter names (a note in an isolated zone saying `agent: me` is `agent:me`)
 * (docs/decisions.md, "Saved index format 9").
 */
import { collectionNoteType } from "../note-types";
import type { NoteMeta } from "./note-document";
import type { FilterName, QueryFilter } from "./query";

/** The note's type for `type:`: its frontmatter `type`, else its collection's. */
function typeOf(meta: NoteMeta): string {
  return meta.type ?? collectionNoteType(meta.collection) ?? "";
}

/** One filter's test of a note, its value lowered (and a tag's `#` dropped) once per query. */
type NoteTest = (meta: NoteMeta) => boolean;

/**
 * True when `text` lowered is `lowered` (itself lowered). Metadata is mostly written as it is
 * searched for, so the equal and the differently long are decided without lowering `text`, which
 * makes a new string each time (about 0.1 µs, so 1 ms per filter over the 10k notes the vector
 * side may ask; docs/decisions.md, "The vector side keeps a visibility mask per scope and
 * filters"). Lowering keeps a string's length but for U+0130 (İ,
 * lowered to two code units; Unicode's SpecialCasing.txt).
 */
function equalsLowered(text: string | undefined, lowered: string): boolean {
  if (text === undefined) return lowered === "";
  if (text === lowered) return true;
  if (text.length !== lowered.length && !text.includes("\u0130")) return false;
  return text.toLowerCase() === lowered;
}

function testOf(name: FilterName, raw: string): NoteTest {
  const value = raw.toLowerCase();
  switch (name) {
    case "agent":
      return (meta) =>
        equalsLowered(meta.agent ?? undefined, value) || equalsLowered(meta.agentField, value);
    case "type":
      return (meta) => equalsLowered(typeOf(meta), value);
    case "status":
      return (meta) => equalsLowered(meta.status, value);
    case "domain":
      return (meta) => equalsLowered(meta.domain, value);
    case "tag": {
      const tag = value.replace(/^#/, "");
      const nested = `${tag}/`;
      return (meta) => {
        const tags = meta.tags;
        if (tags === undefined) return false;
        for (const t of tags) if (t === tag || t.startsWith(nested)) return true;
        return false;
      };
    }
    case "path":
      return (meta) => meta.path.toLowerCase().includes(value);
    case "after":
      return (meta) => meta.date !== undefined && meta.date >= raw;
    case "before":
      return (meta) => meta.date !== undefined && meta.date < raw;
  }
}

/**
 * The test of `filters` on a note, worked out once per query: for each filter name, at least one
 * of its plain values matches (when there are any) and none of its negated values does; date
 * bounds must all hold (`after:A before:B` is a range). A query asks it of every candidate note,
 * and the vector search of every note of the shard, so nothing is lowered, parsed or allocated
 * per note.
 */
export function filterTest(filters: readonly QueryFilter[]): (meta: NoteMeta) => boolean {
  if (filters.length === 0) return () => true;
  /** Every one must hold: negated filters (inverted) and date bounds. */
  const all: NoteTest[] = [];
  /** Per other filter name, its plain values: one of each group must hold. */
  const groups = new Map<FilterName, NoteTest[]>();
  for (const f of filters) {
    const test = testOf(f.name, f.value);
    if (f.negated) all.push((meta) => !test(meta));
    else if (f.name === "after" || f.name === "before") all.push(test);
    else {
      const group = groups.get(f.name);
      if (group) group.push(test);
      else groups.set(f.name, [test]);
    }
  }
  const anyOf = [...groups.values()];
  return (meta) => {
    for (const test of all) if (!test(meta)) return false;
    for (const group of anyOf) {
      let hit = false;
      for (const test of group)
        if (test(meta)) {
          hit = true;
          break;
        }
      if (!hit) return false;
    }
    return true;
  };
}

/**
 * True when a note passes every filter (see {@link filterTest}, which a caller asking of many
 * notes should hold on to).
 */
export function matchesFilters(meta: NoteMeta, filters: readonly QueryFilter[]): boolean {
  return filterTest(filters)(meta);
}
