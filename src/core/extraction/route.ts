/**
 * Routing of single items (docs/architecture.md, "The checklist"; the table is a setting).
 * `resolveRoute` decides, from the notes as they are now, where an item goes and whether it is new,
 * a duplicate (new source on the existing item) or progress on a goal. Its parts: the plan's read
 * cache (`plan-cache.ts`), routing to a tracker (`route-tracker.ts`) or a topic note
 * (`route-topic.ts`), dedupe against destinations (`destination-match.ts`) and supersession
 * planning (`supersession.ts`); `write-item.ts` applies the planned items.
 */
import type { TrackerKind } from "../settings";
import { TRACKER_KINDS } from "../settings";
import type { RouteContext } from "./plan-cache";
import { routeToTracker } from "./route-tracker";
import { routeToTopic } from "./route-topic";
import type { ExtractedItem, PlannedItem, RejectedItem } from "./types";
import { TOPIC_HEADINGS } from "../knowledge/callouts";

function trackerKindOf(spec: string): TrackerKind | null {
  const name = spec.slice("tracker:".length);
  return (TRACKER_KINDS as readonly string[]).includes(name) ? (name as TrackerKind) : null;
}

/**
 * Where an item goes, per the destination setting of its category. A decision goes to the
 * Decisions tracker and, when it names a topic, also to that topic's `## Decisions`
 * (docs/architecture.md, "An extraction run").
 * @returns the planned item(s), or a rejection with its reason (e.g. an unusable topic;
 * test/core/knowledge/topic-notes.test.ts, "case 12: …").
 */
export async function resolveRoute(
  item: ExtractedItem,
  ctx: RouteContext,
): Promise<PlannedItem[] | RejectedItem> {
  const spec = ctx.settings.destinations[item.category];
  const out: PlannedItem[] = [];
  if (spec.startsWith("tracker:")) {
    const kind = trackerKindOf(spec);
    if (!kind)
      return {
        reason: `destination setting for ${item.category} names no tracker: ${spec}`,
        category: item.category,
        text: item.text,
        retry: true,
      };
    const routed = await routeToTracker(item, kind, ctx);
    if ("reason" in routed) return routed;
    out.push(routed);
    if (item.category === "decision" && item.topic) {
      const topical = await routeToTopic(item, TOPIC_HEADINGS.decision, ctx);
      if (!("reason" in topical)) out.push(topical);
    }
    return out;
  }
  if (spec.startsWith("topic:")) {
    const routed = await routeToTopic(
      item,
      spec.slice("topic:".length) || TOPIC_HEADINGS.insight,
      ctx,
    );
    return "reason" in routed ? routed : [routed];
  }
  return {
    reason: `unknown destination setting for ${item.category}: ${spec}`,
    category: item.category,
    text: item.text,
    retry: true,
  };
}
