/**
 * Review notes and due reviews (docs/architecture.md, "Review loops"): the public API for the CLI
 * and the plugin.
 */
export { listDueReviews, type AgentDueReview } from "./due";
export {
  collectReviewMaterial,
  reviewPeriod,
  REVIEW_NOTE_TYPE,
  type ReviewItemRef,
  type ReviewMaterial,
  type ReviewNoteRef,
  type ReviewPeriod,
} from "./material";
export { isReviewNoteOf, renderReviewNote, reviewNotePath, type ReviewNoteMeta } from "./note";
export { finishReview, startReview, type FinishReviewResult, type StartReviewResult } from "./run";
