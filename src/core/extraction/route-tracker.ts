/**
 * Routing of an item to a tracker: progress on a goal (by id, else the most similar goal), a
 * duplicate of an existing line, or a new line (which may supersede one).
 */
import { similarity } from "./dedupe";
import { matchGoal, type GoalMatch } from "./goal-match";
import { isOpenStatus } from "../trackers/status";
import type { TrackerKind } from "../settings";
import { KIND_PREFIX, newItemId, type TrackerItem } from "../trackers/format";
import { wikilinkTargets } from "../markdown/wikilinks";
import { citesBlock, sourceLink, trackerMatcher } from "./destination-match";
import {
  EntryViews,
  restatementFor,
  rewordedEntry,
  supersessionFor,
  trackerView,
} from "./supersession";
import type { RouteContext } from "./plan-cache";
import type { ExtractedItem, PlannedItem, RejectedItem } from "./types";

/** A progress note at least this similar to one already under the goal is the same note again (a re-run). */
const SAME_PROGRESS_SIMILARITY = 0.9;

/**
 * Plans an item for the tracker of `kind`: progress under a goal (its `ref`, else the open goal
 * whose text shares the most meaning with it, `matchGoal` of goal-match.ts), a skip or an added
 * source for a duplicate, or a new line with the next id (`add`, or `supersede`). @returns the
 * planned item, or a rejection when its `ref` names a goal that is not there or, without a `ref`,
 * no goal fits it (the plan says which and why; never a new goal made of the progress note)
 */
export async function routeToTracker(
  item: ExtractedItem,
  kind: TrackerKind,
  ctx: RouteContext,
): Promise<PlannedItem | RejectedItem> {
  const destination = ctx.layout.trackerPath(ctx.agent, kind);
  const existing = await ctx.state.trackerItems(destination);
  const link = sourceLink(ctx.journal, item.blockId);
  const base = { item, destination, tracker: kind };
  const matcher = ctx.state.once(`matcher\u0000${kind}\u0000${destination}`, () =>
    trackerMatcher([...existing], kind),
  );
  if (item.ref || item.progress) {
    // A goal this same run adds is known by the id it is expected to get
    // (docs/decisions.md, "Ids planned in the same run").
    const plannedGoals = (ctx.state.planned.get(destination) ?? []).filter(
      (p): p is PlannedItem & { newId: string } => p.newId !== undefined,
    );
    let goal: TrackerItem | undefined;
    if (item.ref) goal = existing.find((it) => it.id === item.ref);
    else {
      // No id: the open goal that shares the most meaning with the note, or none (goal-match.ts).
      const open = existing.filter((it) => it.id && isOpenStatus(it.status));
      const found = matchGoal(item.text, [
        ...open.map((it) => ({ id: it.id as string, text: it.text })),
        ...plannedGoals.map((p) => ({ id: p.newId, text: p.item.text })),
      ]);
      if (!found.goal) return noGoalFound(item, destination, found);
      goal = open.find((it) => it.id === found.goal.id);
      if (!goal)
        return ctx.state.plan({
          ...base,
          action: "progress",
          existingId: found.goal.id,
          sameRun: true,
        });
    }
    if (!goal?.id) {
      const planned = plannedGoals.find((p) => p.newId === item.ref);
      if (planned)
        return ctx.state.plan({ ...base, action: "progress", existingId: item.ref, sameRun: true });
      return {
        reason: `refers to ${item.ref}, which is not in ${destination}`,
        category: item.category,
        text: item.text,
        evidence: item.evidence,
        retry: true,
      };
    } else {
      const already = goal.children.some(
        (c) =>
          citesBlock(wikilinkTargets(c), link) ||
          similarity(c.replace(/^\s*-\s*\d{4}-\d{2}-\d{2}:\s*/, ""), item.text) >=
            SAME_PROGRESS_SIMILARITY,
      );
      return ctx.state.plan({
        ...base,
        action: already ? "skip" : "progress",
        existingId: goal.id,
      });
    }
  }
  // The block is as it was when its item was recorded: the entry citing it is that item, however
  // a person edited it since (docs/decisions.md, "An unchanged journal block's entry is its item").
  const own = matcher.unchangedBlockEntry(item.text, item.blockId, link, ctx)?.entry;
  if (own)
    return ctx.state.plan({ ...base, action: "skip", ...(own.id ? { existingId: own.id } : {}) });
  const found = matcher.match(item.text, link);
  const match = found
    ? { item: matcher.entries[found.index] as TrackerItem, recorded: found.recorded }
    : null;
  const prefix = KIND_PREFIX[kind];
  const nextId = async (): Promise<string> =>
    newItemId(prefix, await ctx.state.takenIds(destination), ctx.state.random);
  if (match?.recorded) {
    const reworded = rewordedEntry(
      item,
      trackerView(kind)(match.item),
      ctx.state.supersededIn(destination),
    );
    if (reworded)
      return ctx.state.plan({
        ...base,
        action: "supersede",
        newId: await nextId(),
        supersedes: reworded,
      });
  }
  if (match) {
    const action = match.recorded || !match.item.id ? "skip" : "add-source";
    return ctx.state.plan({
      ...base,
      action,
      ...(match.item.id ? { existingId: match.item.id } : {}),
    });
  }
  if (ctx.state.inBatch(destination, item)) return ctx.state.plan({ ...base, action: "skip" });
  const newId = await nextId();
  const views = ctx.state.once(
    `tviews\u0000${kind}\u0000${destination}`,
    () => new EntryViews(existing.map(trackerView(kind))),
  );
  // A restatement of a current decision adds its source there (docs/contradictions.md, "The rule").
  const restated = restatementFor(item, views, ctx.state.supersededIn(destination));
  if (restated)
    return ctx.state.plan({
      ...base,
      action: citesBlock(restated.sources, link) ? "skip" : "add-source",
      existingId: restated.id,
    });
  const supersedes = supersessionFor(item, views, link, ctx, ctx.state.supersededIn(destination));
  if (supersedes) return ctx.state.plan({ ...base, action: "supersede", newId, supersedes });
  return ctx.state.plan({ ...base, action: "add", newId });
}

/** The rejection of progress that names no goal and fits none (or two equally). */
function noGoalFound(
  item: ExtractedItem,
  destination: string,
  found: Extract<GoalMatch, { goal: null }>,
): RejectedItem {
  const fix = "add [goal:: g-…] to the line";
  const why =
    found.why === "no-goals"
      ? `${destination} has no open goal`
      : found.why === "tie"
        ? `it fits ${(found.tied ?? []).map((g) => g.id).join(" and ")} equally`
        : `it shares no words with an open goal in ${destination}`;
  return {
    reason: `progress names no goal, and ${why}; ${fix}`,
    category: item.category,
    text: item.text,
    evidence: item.evidence,
  };
}
