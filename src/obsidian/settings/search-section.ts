/**
 * Settings: search ranking and limits (docs/architecture.md, "A search") and the health check
 * (docs/architecture.md, "The health check").
 */
import {
  heading,
  listSetting,
  numberSetting,
  toggleSetting,
  type SectionContext,
} from "./controls";

/** Recency half-life, size cap and confidence weighting. */
export function searchSection(sc: SectionContext): void {
  heading(sc, "Search");
  numberSetting(sc, {
    name: "Recency half-life",
    desc: "Days after which a note's recency weight halves; 0 turns recency weighting off.",
    get: (s) => s.search.recencyHalfLifeDays,
    set: (s, v) => (s.search.recencyHalfLifeDays = v),
  });
  numberSetting(sc, {
    name: "Size cap",
    desc: "Kilobytes; larger notes are indexed by frontmatter and headings only.",
    scale: 1024,
    get: (s) => s.search.sizeCapBytes,
    set: (s, v) => (s.search.sizeCapBytes = Math.round(v)),
  });
  toggleSetting(sc, {
    name: "Weight by confidence",
    desc: "Rank notes with a higher frontmatter confidence first.",
    get: (s) => s.search.useConfidence,
    set: (s, v) => (s.search.useConfidence = v),
  });
}

/** Required fields and age limits of the health check. */
export function healthSection(sc: SectionContext): void {
  heading(sc, "Health check");
  listSetting(sc, {
    name: "Required fields",
    desc: "Frontmatter fields every memory note but a journal must have, comma-separated.",
    get: (s) => s.health.requiredFields,
    set: (s, v) => (s.health.requiredFields = v),
  });
  listSetting(sc, {
    name: "Required fields of journals",
    desc: "Frontmatter fields a journal must have, comma-separated; empty: none (journals are written by hand).",
    get: (s) => s.health.requiredFieldsBy.journal,
    set: (s, v) => (s.health.requiredFieldsBy.journal = v),
  });
  numberSetting(sc, {
    name: "Draft age",
    desc: "Days after which a draft not updated is reported.",
    get: (s) => s.health.draftDays,
    set: (s, v) => (s.health.draftDays = v),
  });
  numberSetting(sc, {
    name: "Stale knowledge",
    desc: "Days after which knowledge not updated is reported as stale.",
    get: (s) => s.health.staleDays,
    set: (s, v) => (s.health.staleDays = v),
  });
}
