/**
 * Routing of an item to a topic note's callouts: the note (an existing one by dedupe key, else a
 * new path), a duplicate callout, or a new one (which may supersede one).
 */
import { PathError, errorMessage } from "../errors";
import { topicKey, type EntryKind } from "../knowledge/topic";
import { citesBlock, sourceLink, topicMatcher } from "./destination-match";
import {
  EntryViews,
  calloutView,
  restatementFor,
  rewordedEntry,
  supersessionFor,
} from "./supersession";
import type { RouteContext } from "./plan-cache";
import type { ExtractedItem, PlannedItem, RejectedItem } from "./types";
import { noteName } from "../markdown/wikilinks";

/**
 * Callout kind for a topic entry of each category (docs/architecture.md, "Note formats": insight,
 * decision, pattern).
 */
const CALLOUT_KIND = { knowledge: "insight", decision: "decision", pattern: "pattern" } as const;

/**
 * Plans an item as a callout under `heading` in its topic note (the item's topic, else the fallback
 * topic; an existing note by dedupe key): a skip or an added source for a duplicate, else a new
 * callout (`add`, or `supersede`). @returns the planned item, or a rejection for an unusable topic
 * name
 */
export async function routeToTopic(
  item: ExtractedItem,
  heading: string,
  ctx: RouteContext,
): Promise<PlannedItem | RejectedItem> {
  const title = (item.topic ?? ctx.fallbackTopic).trim();
  let destination: string;
  try {
    const known = (await ctx.state.topics(ctx.layout, ctx.agent)).get(topicKey(title));
    destination = known ?? ctx.layout.topicPath(ctx.agent, title);
  } catch (err) {
    if (err instanceof PathError) {
      return {
        reason: `unusable topic name: ${errorMessage(err)}`,
        category: item.category,
        text: item.text,
        evidence: item.evidence,
      };
    }
    throw err;
  }
  const topicTitle = noteName(destination);
  const base = { item, destination, topic: { title: topicTitle, heading } };
  const entries = await ctx.state.topicEntries(destination);
  const link = sourceLink(ctx.journal, item.blockId);
  const matcher = ctx.state.once(`matcher\u0000topic\u0000${destination}`, () =>
    topicMatcher([...entries]),
  );
  // The block is as it was when its callout was written: that callout is its item, however a
  // person edited it since (docs/decisions.md, "An unchanged journal block's entry is its item").
  const own = matcher.unchangedBlockEntry(item.text, item.blockId, link, ctx);
  if (own)
    return ctx.state.plan({
      ...base,
      action: "skip",
      existingId: own.entry.id ?? `callout ${own.index + 1}`,
    });
  const matched = matcher.match(item.text, link);
  const dup = matched ? matched.index : -1;
  const found = dup >= 0 ? entries[dup] : undefined;
  const kind = calloutKind(item);
  if (found && matched?.recorded) {
    const reworded = rewordedEntry(
      item,
      calloutView(kind)(found, dup),
      ctx.state.supersededIn(destination),
    );
    if (reworded) return ctx.state.plan({ ...base, action: "supersede", supersedes: reworded });
  }
  if (found)
    return ctx.state.plan({
      ...base,
      action: citesBlock(found.sources, link) ? "skip" : "add-source",
      existingId: found.id ?? `callout ${dup + 1}`,
    });
  if (ctx.state.inBatch(destination, item)) return ctx.state.plan({ ...base, action: "skip" });
  const views = ctx.state.once(
    `cviews\u0000${kind}\u0000${destination}`,
    () => new EntryViews(entries.map(calloutView(kind))),
  );
  // A restatement of a current callout adds its source there (docs/contradictions.md, "The rule").
  const restated = restatementFor(item, views, ctx.state.supersededIn(destination));
  if (restated)
    return ctx.state.plan({
      ...base,
      action: citesBlock(restated.sources, link) ? "skip" : "add-source",
      existingId: restated.id,
    });
  const supersedes = supersessionFor(item, views, link, ctx, ctx.state.supersededIn(destination), {
    all: true,
  });
  if (supersedes) return ctx.state.plan({ ...base, action: "supersede", supersedes });
  return ctx.state.plan({ ...base, action: "add" });
}

/** Callout kind of an item's topic entry. */
export function calloutKind(item: Pick<ExtractedItem, "category">): EntryKind {
  return item.category === "decision"
    ? "decision"
    : item.category === "pattern"
      ? "pattern"
      : CALLOUT_KIND.knowledge;
}
