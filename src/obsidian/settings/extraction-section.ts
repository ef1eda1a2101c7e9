/**
 * Settings: how a run ends (review or apply), the self-check gate
 * (docs/architecture.md, "An extraction run"), and destinations.
 */
import { TRACKER_KINDS } from "../../core/settings";
import { CATEGORIES } from "../../core/extraction/types";
import {
  dropdownSetting,
  heading,
  listSetting,
  numberSetting,
  toggleSetting,
  type SectionContext,
} from "./controls";
import { TOPIC_HEADINGS } from "../../core/knowledge/callouts";

/** Review mode, the headings the offline extractor reads, and gate thresholds. */
export function extractionSection(sc: SectionContext): void {
  heading(sc, "Extraction");
  dropdownSetting(sc, {
    name: "After extraction",
    desc: "Review each run's items before they are written, or write them at once.",
    options: { review: "Review each run", apply: "Apply at once" },
    get: (s) => s.reviewMode,
    set: (s, v) => (s.reviewMode = v === "apply" ? "apply" : "review"),
  });
  // The `sectionHeadings` table
  // (docs/decisions.md, "Offline extraction reads headings and phrasings, not meaning"): one
  // comma-separated list per category.
  for (const category of CATEGORIES) {
    listSetting(sc, {
      name: `Headings read as ${category === "knowledge" ? "knowledge" : `${category === "improvement" ? "improvements" : `${category}s`}`}`,
      desc: `Without a language model, list items and paragraphs under these headings become ${category} items. Comma-separated; empty turns them off.`,
      get: (s) => s.sectionHeadings[category],
      set: (s, v) => (s.sectionHeadings[category] = v),
    });
  }
  toggleSetting(sc, {
    name: "Self-check gate",
    desc: "Ask the model to look again when a pass looks thin (no knowledge in a rich note, one category only, too few items).",
    redisplay: true,
    get: (s) => s.gate.enabled,
    set: (s, v) => (s.gate.enabled = v),
  });
  if (!sc.settings().gate.enabled) return;
  numberSetting(sc, {
    name: "Maximum rescans",
    desc: "Extra passes the gate may ask for (0–3).",
    get: (s) => s.gate.maxRescans,
    set: (s, v) => (s.gate.maxRescans = v),
  });
  numberSetting(sc, {
    name: "Rich note length",
    desc: "Characters (CJK characters count double) from which a note should yield knowledge.",
    get: (s) => s.gate.richDocChars,
    set: (s, v) => (s.gate.richDocChars = v),
  });
  numberSetting(sc, {
    name: "Expected items per 1000 characters, low",
    desc: "Fewer items than this triggers a rescan.",
    get: (s) => s.gate.minItemsPer1000Chars,
    set: (s, v) => (s.gate.minItemsPer1000Chars = v),
  });
  numberSetting(sc, {
    name: "Expected items per 1000 characters, high",
    desc: "Far more items than this asks the model to merge.",
    get: (s) => s.gate.maxItemsPer1000Chars,
    set: (s, v) => (s.gate.maxItemsPer1000Chars = v),
  });
}

/** Where each category goes (docs/architecture.md, "The checklist", a setting). */
export function destinationsSection(sc: SectionContext): void {
  heading(sc, "Destinations", "Where each category of item is written.");
  const options: Record<string, string> = {};
  for (const kind of TRACKER_KINDS) options[`tracker:${kind}`] = `Tracker: ${kind}`;
  for (const h of Object.values(TOPIC_HEADINGS)) options[`topic:${h}`] = `Topic note, ${h} section`;
  for (const category of CATEGORIES) {
    dropdownSetting(sc, {
      name: `${category.charAt(0).toUpperCase()}${category.slice(1)}`,
      desc: "",
      options,
      get: (s) => s.destinations[category],
      set: (s, v) => (s.destinations[category] = v),
    });
  }
}
