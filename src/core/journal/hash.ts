/**
 * Content hashes for journals (docs/architecture.md, "Journals": `extraction_hash`) and block id
 * seeds. Pure JavaScript so the core runs on Obsidian mobile (no `node:crypto`).
 */
import { stripBlockIds } from "./split";
import { cyrb53Hex } from "../util/hash";

/**
 * The text a journal's extraction hash is taken over: block ids removed, line endings as LF,
 * trailing whitespace and blank lines dropped — so the ids that extraction adds (and the blank lines
 * around a standalone `^id`) never change the hash, while any edit of the words does.
 */
export function hashableText(body: string): string {
  return stripBlockIds(body)
    .split("\n")
    .map((line) => line.replace(/\s+$/, ""))
    .filter((line) => line !== "")
    .join("\n");
}

/**
 * Hash of a journal body for `extraction_hash` (docs/architecture.md, "Journals"): 28 lowercase hex
 * digits (two cyrb53 runs). Unchanged by block ids added or kept, by CRLF versus LF, trailing
 * whitespace and blank lines.
 */
export function extractionHash(body: string): string {
  const text = hashableText(body);
  return cyrb53Hex(text, [0, 0x9e3779b9]);
}

/**
 * True when a journal is extracted as it now reads: its frontmatter's `extraction_hash` is the
 * {@link extractionHash} of its body. False with no hash (never extracted, or a run that wrote the
 * journal and died before extracting it) or a hash of other words (edited since).
 * @param hash the body's {@link extractionHash} when the caller has it already
 */
export function extractedAsIs(
  note: { data: Record<string, unknown> | null; body: string },
  hash: string = extractionHash(note.body),
): boolean {
  return note.data?.extraction_hash === hash;
}
