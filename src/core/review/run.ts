/**
 * `review start` and `review done` (docs/architecture.md, "Review loops") over the {@link
 * VaultPort}: start writes the review note for the period (never overwriting one that exists); done
 * advances the review's `next` by its
 * `every`, records the day under the item, and marks the review note done.
 */
import { FrontmatterError, errorMessage } from "../errors";
import { parseNote, setFrontmatter } from "../frontmatter";
import type { MemoryLayout } from "../layout";
import type { Decision, VaultPort } from "../vault";
import { err, ok, type Result } from "../util/result";
import { isIsoDate, type IsoDate } from "../util/dates";
import { formatWikilink, noteName } from "../markdown/wikilinks";
import { findItem } from "../trackers/store";
import {
  advanceReview,
  isReviewItem,
  readSchedule,
  type AdvanceResult,
  type ReviewSchedule,
} from "../trackers/reviews";
import {
  collectReviewMaterial,
  reviewPeriod,
  REVIEW_NOTE_TYPE,
  type ReviewMaterial,
} from "./material";
import { isReviewNoteOf, renderReviewNote, reviewNotePath } from "./note";

/** Result of {@link startReview}. */
export type StartReviewResult = Result<{
  path: string;
  created: boolean;
  material: ReviewMaterial;
  review: ReviewSchedule;
}>;

/** Result of {@link finishReview}. */
export type FinishReviewResult = Result<{
  reviewsPath: string;
  /** False when the review was already recorded as done that day. */
  changed: boolean;
  previous: IsoDate;
  next: IsoDate;
  /** The review note marked done, or `null` when none was found (or it could not be edited: see `notice`). */
  note: string | null;
  notice?: string;
}>;

async function readReview(
  vault: VaultPort,
  layout: MemoryLayout,
  agent: string,
  id: string,
): Promise<Result<{ reviewsPath: string; review: ReviewSchedule & { id: string } }>> {
  const reviewsPath = layout.trackerPath(agent, "reviews");
  if (!(await vault.exists(reviewsPath))) return err(`no reviews tracker at ${reviewsPath}`);
  const item = findItem(await vault.read(reviewsPath), id);
  if (!item) return err(`no item ^${id} in ${reviewsPath}`);
  if (!isReviewItem(item))
    return err(`^${id} in ${reviewsPath} has no [every:: …] or [next:: …]: it is not a review`);
  return ok({ reviewsPath, review: { ...readSchedule(item), id } });
}

/**
 * Creates the review note of review `id` of `agent` for the period ending `today` (see
 * {@link reviewPeriod}). A note already there (started earlier the same day) is kept as it is and
 * reported with `created: false`. Returns a reason when the tracker or the item is missing.
 * Throws {@link PathError} for an unsafe agent name, {@link VaultError} on I/O failure.
 */
export async function startReview(
  vault: VaultPort,
  layout: MemoryLayout,
  agent: string,
  id: string,
  today: IsoDate,
): Promise<StartReviewResult> {
  if (!isIsoDate(today)) return err(`"${today}" is not a date YYYY-MM-DD`);
  const found = await readReview(vault, layout, agent, id);
  if (!found.ok) return found;
  const period = reviewPeriod(found.value.review, today);
  const material = await collectReviewMaterial(vault, layout, agent, period);
  const path = reviewNotePath(layout, agent, id, today);
  const text = renderReviewNote(material, {
    reviewsPath: found.value.reviewsPath,
    review: found.value.review,
    date: today,
  });
  const created = await vault.process(path, (current) => current ?? text);
  return ok({ path, created, material, review: found.value.review });
}

/**
 * Finishes review `id` of `agent` on `today`: advances `next` and records the day in the Reviews
 * tracker ({@link advanceReview}), then sets `status: done` and `updated_at` on the latest draft
 * review note of that review. A tracker whose frontmatter does not parse is never rewritten: the
 * reason is returned. Throws {@link VaultError} on I/O failure.
 */
export async function finishReview(
  vault: VaultPort,
  layout: MemoryLayout,
  agent: string,
  id: string,
  today: IsoDate,
): Promise<FinishReviewResult> {
  if (!isIsoDate(today)) return err(`"${today}" is not a date YYYY-MM-DD`);
  const found = await readReview(vault, layout, agent, id);
  if (!found.ok) return found;
  const { reviewsPath } = found.value;
  const notePath = await latestDraftNote(vault, layout, agent, id);
  const noteLink = notePath ? formatWikilink({ path: noteName(notePath) }) : "";
  let result: AdvanceResult;
  try {
    ({ result } = await vault.process(reviewsPath, (current): Decision<AdvanceResult> => {
      if (current === null)
        return { content: null, result: err(`no reviews tracker at ${reviewsPath}`) };
      const outcome = advanceReview(current, id, today, reviewsPath, noteLink);
      return { content: outcome.ok ? outcome.value.text : current, result: outcome };
    }));
  } catch (e) {
    if (e instanceof FrontmatterError) return err(errorMessage(e));
    throw e;
  }
  if (!result.ok) return result;
  let notice: string | undefined;
  if (notePath) {
    try {
      await vault.process(notePath, (current) =>
        current === null
          ? null
          : setFrontmatter(current, { status: "done", updated_at: today }, notePath),
      );
    } catch (e) {
      if (!(e instanceof FrontmatterError)) throw e;
      notice = `${notePath} left as it is: ${errorMessage(e)}`;
    }
  }
  return ok({
    reviewsPath,
    changed: result.value.changed,
    previous: result.value.previous,
    next: result.value.next,
    note: notice ? null : notePath,
    ...(notice ? { notice } : {}),
  });
}

/** The newest review note of review `id` still in `status: draft`, or `null`. */
async function latestDraftNote(
  vault: VaultPort,
  layout: MemoryLayout,
  agent: string,
  id: string,
): Promise<string | null> {
  const candidates = (await vault.list(layout.journalFolder(agent)))
    .map((f) => f.path)
    .filter((p) => isReviewNoteOf(p, id))
    .sort()
    .reverse();
  for (const path of candidates) {
    try {
      const data = parseNote(await vault.read(path), path).data;
      if (data?.type === REVIEW_NOTE_TYPE && data.status === "draft") return path;
    } catch {
      // A review note whose frontmatter does not parse is never rewritten.
    }
  }
  return null;
}
