/**
 * Edits a person makes to a plan in the review modal (docs/plugin.md, "An extraction run"): drop an
 * item, change its text, send it to another destination. Pure functions over the plan's plain data
 * (docs/architecture.md, "An extraction run" "Plan and apply"); `applyPlan` re-checks duplicates on
 * each note's current content, so an edited plan is applied as safely as an untouched one.
 */
import type { ExtractionPlan } from "./pipeline";
import type { Category, PlannedItem } from "./types";
import type { MemoryLayout } from "../layout";
import { TRACKER_KINDS, type Settings, type TrackerKind } from "../settings";
import { TOPIC_HEADINGS } from "../knowledge/callouts";
import { calloutKind } from "./route-topic";

/** A place an item can be sent to. */
export type DestinationChoice =
  | { kind: "tracker"; tracker: TrackerKind }
  | { kind: "topic"; title: string; heading: string; path: string };

/** One option of the destination picker. */
export interface DestinationOption {
  /** Stable key for a `<select>` value. */
  key: string;
  label: string;
  choice: DestinationChoice;
}

/** What the person decided for one planned item. */
export interface ItemDecision {
  accept: boolean;
  /** New text, when edited. */
  text?: string;
  /** New destination key (one of {@link destinationOptions}), when changed. */
  destination?: string;
}

/** The `## Heading` a category's callout goes under in a topic note (from the destination setting). */
export function topicHeading(settings: Settings, category: Category): string {
  const spec = settings.destinations[category];
  return spec.startsWith("topic:") && spec.length > 6
    ? spec.slice(6)
    : TOPIC_HEADINGS[calloutKind({ category })];
}

function trackerLabel(settings: Settings, kind: TrackerKind): string {
  return `${settings.trackerFiles[kind]} tracker`;
}

/** Key of the planned item's current destination among {@link destinationOptions}. */
export function currentDestinationKey(planned: PlannedItem): string {
  if (planned.tracker) return `tracker:${planned.tracker}`;
  return `topic:${planned.destination}`;
}

/**
 * The destinations offered for an item: the agent's six trackers and its topic note (the planned
 * one, or the note for the item's topic). Topic paths are built by the layout, so they stay under
 * the memory root (test/core/knowledge/topic-notes.test.ts, "case 12: …"); a topic that leaves no usable name
 * offers no topic option.
 */
export function destinationOptions(
  planned: PlannedItem,
  plan: ExtractionPlan,
  layout: MemoryLayout,
): DestinationOption[] {
  const settings = layout.settings;
  const out: DestinationOption[] = TRACKER_KINDS.map((kind) => ({
    key: `tracker:${kind}`,
    label: trackerLabel(settings, kind),
    choice: { kind: "tracker", tracker: kind },
  }));
  const heading = planned.topic?.heading ?? topicHeading(settings, planned.item.category);
  let topic: { title: string; path: string } | null = null;
  if (planned.topic) topic = { title: planned.topic.title, path: planned.destination };
  else {
    const title = planned.item.topic ?? null;
    if (title) {
      try {
        topic = { title, path: layout.topicPath(plan.agent, title) };
      } catch {
        // An unusable topic name (test/core/knowledge/topic-notes.test.ts, "case 12: …") offers no topic option.
        topic = null;
      }
    }
  }
  if (topic) {
    out.push({
      key: `topic:${topic.path}`,
      label: `Topic: ${topic.title} (${heading})`,
      choice: { kind: "topic", title: topic.title, heading, path: topic.path },
    });
  }
  return out;
}

/** The planned item sent to `choice`: a new entry there (dedupe runs again when applied). */
export function retarget(
  planned: PlannedItem,
  choice: DestinationChoice,
  plan: ExtractionPlan,
  layout: MemoryLayout,
): PlannedItem {
  const item = { ...planned.item };
  if (choice.kind === "tracker") {
    if (planned.tracker === choice.tracker) return { ...planned, item };
    return {
      item,
      destination: layout.trackerPath(plan.agent, choice.tracker),
      action: "add",
      tracker: choice.tracker,
    };
  }
  if (planned.topic && planned.destination === choice.path) return { ...planned, item };
  return {
    item,
    destination: layout.under(choice.path),
    action: "add",
    topic: { title: choice.title, heading: choice.heading },
  };
}

/**
 * The plan with the person's decisions applied: only accepted items are kept, with their edited
 * text and destination. `decisions[i]` belongs to `plan.items[i]`; a missing decision keeps the item.
 * Items already recorded (`skip`) stay in the plan so their journal block ids are still written.
 */
export function editPlan(
  plan: ExtractionPlan,
  decisions: readonly (ItemDecision | undefined)[],
  layout: MemoryLayout,
): ExtractionPlan {
  const items: PlannedItem[] = [];
  plan.items.forEach((planned, i) => {
    const decision = decisions[i];
    if (planned.action === "skip") {
      items.push(planned);
      return;
    }
    if (decision && !decision.accept) return;
    let next: PlannedItem = { ...planned, item: { ...planned.item } };
    const text = decision?.text?.replace(/\s+/g, " ").trim();
    if (text && text !== planned.item.text) next.item.text = text;
    if (decision?.destination && decision.destination !== currentDestinationKey(planned)) {
      const option = destinationOptions(planned, plan, layout).find(
        (o) => o.key === decision.destination,
      );
      if (option) next = retarget(next, option.choice, plan, layout);
    }
    items.push(next);
  });
  return { ...plan, items };
}

/** Counts of a plan's items by what applying them does. */
export function planCounts(plan: ExtractionPlan): { add: number; update: number; skip: number } {
  let add = 0;
  let update = 0;
  let skip = 0;
  for (const p of plan.items) {
    if (p.action === "add" || p.action === "supersede") add++;
    else if (p.action === "skip") skip++;
    else update++;
  }
  return { add, update, skip };
}
