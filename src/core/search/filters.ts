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

function matchesOne(meta: NoteMeta, name: FilterName, raw: string): boolean {
  const value = raw.toLowerCase();
  switch (name) {
    case "agent":
      return (
        (meta.agent ?? "").toLowerCase() === value ||
        (meta.agentField ?? "").toLowerCase() === value
      );
    case "type":
      return typeOf(meta).toLowerCase() === value;
    case "status":
      return (meta.status ?? "").toLowerCase() === value;
    case "domain":
      return (meta.domain ?? "").toLowerCase() === value;
    case "tag": {
      const tag = value.replace(/^#/, "");
      return (meta.tags ?? []).some((t) => t === tag || t.startsWith(`${tag}/`));
    }
    case "path":
      return meta.path.toLowerCase().includes(value);
    case "after":
      return meta.date !== undefined && meta.date >= raw;
    case "before":
      return meta.date !== undefined && meta.date < raw;
  }
}

/**
 * True when a note passes every filter: for each filter name, at least one of its plain values
 * matches (when there are any) and none of its negated values does; date bounds must all hold.
 */
export function matchesFilters(meta: NoteMeta, filters: readonly QueryFilter[]): boolean {
  if (filters.length === 0) return true;
  // Asked once per candidate note and query: no allocation here (a Map per call was a tenth of a
  // filtered query's garbage).
  let missed = false;
  for (const f of filters) {
    const hit = matchesOne(meta, f.name, f.value);
    if (f.negated) {
      if (hit) return false;
    } else if (f.name === "after" || f.name === "before") {
      // Date bounds narrow each other: `after:A before:B` is a range.
      if (!hit) return false;
    } else if (!hit) missed = true;
  }
  if (!missed) return true;
  // Other filters of one name are alternatives: each name needs one of its values to match.
  for (const f of filters) {
    if (f.negated || f.name === "after" || f.name === "before") continue;
    let any = false;
    for (const g of filters) {
      if (!g.negated && g.name === f.name && matchesOne(meta, g.name, g.value)) {
        any = true;
        break;
      }
    }
    if (!any) return false;
  }
  return true;
}
