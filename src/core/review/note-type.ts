/** Frontmatter `type` of a review note (docs/architecture.md, "Review loops"); a leaf module so that any rule can name it without importing the review loop. */
export const REVIEW_NOTE_TYPE = "review";
