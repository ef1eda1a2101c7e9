/**
 * Notes in a journal folder that are not journals (docs/compaction.md): weekly digests written by
 * `compact` and review notes written by `review start`. Extraction, the staleness rules, the review
 * loop and watch-and-extract all ask here, so the rule has one home.
 */

/** Frontmatter `type` of a digest note. */
export const DIGEST_NOTE_TYPE = "digest";

/** Folder of the digests under an agent's journal folder. */
export const DIGESTS_FOLDER = "Digests";

/** Frontmatter `type` of a review note (docs/architecture.md, "Review loops"). */
export const REVIEW_NOTE_TYPE = "review";

function typeOf(data: Record<string, unknown> | null | undefined): string {
  return typeof data?.type === "string" ? data.type.trim().toLowerCase() : "";
}

/** True for the frontmatter of a digest note (`type: digest`): not a journal to extract, scan or review. */
export function isDigestNote(data: Record<string, unknown> | null | undefined): boolean {
  return typeOf(data) === DIGEST_NOTE_TYPE;
}

/** True for the frontmatter of a digest or a review note: a note of a journal folder that is not a journal. */
export function isNotJournal(data: Record<string, unknown> | null | undefined): boolean {
  return isDigestNote(data) || data?.type === REVIEW_NOTE_TYPE;
}
