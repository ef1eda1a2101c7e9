/**
 * Text normalisation, one function per rule, each named after what it does. Before adding one,
 * look here: two functions with one name that did different things (and three more with vaguer
 * names) are what this module replaced.
 *
 * - {@link collapseWhitespace}: one line for a tracker line, a heading, a brief entry.
 * - {@link truncateLine}: the same, cut to a length with `…`.
 * - {@link trimLineEnds}: a block's text compared across edits (trailing blanks do not count).
 * - {@link foldForMatch}: evidence compared with a journal (case, width, spacing, punctuation and
 *   Markdown markup do not count).
 * - {@link inertMarkdown}: text from another tool shown in a heading (a transcript's title), its
 *   links, embeds and tags escaped so that Obsidian shows them as written.
 * - {@link wordsForSimilarity}: an item's words for duplicate checks (inline fields and wikilink
 *   brackets dropped, punctuation to spaces).
 *
 * Search has its own case fold for the index (src/core/search/tokenizer.ts) and headings have
 * theirs (src/core/markdown/anchors.ts for links, src/core/extraction/section-headings.ts for the
 * section table).
 */
import { stripWikilinkBrackets } from "./wikilinks";

/** Line breaks and runs of whitespace become one space; trimmed. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** {@link collapseWhitespace}, then cut to `max` characters (UTF-16 units) ending in `…` when longer. */
export function truncateLine(text: string, max: number): string {
  const t = collapseWhitespace(text);
  return t.length > max ? `${t.slice(0, max - 1).trimEnd()}…` : t;
}

/** Spaces, tabs and `\r` at the end of each line removed, then the whole trimmed. */
export function trimLineEnds(text: string): string {
  return text
    .split("\n")
    .map((line) => line.replace(/[ \t\r]+$/, ""))
    .join("\n")
    .trim();
}

const NOT_TEXT = /[\s\p{P}\p{S}]+/gu;

/**
 * Normal form for matching quoted evidence: Unicode NFKC (full-width letters, digits and
 * punctuation become half-width), lower case, and every whitespace, punctuation and symbol
 * character removed (Markdown markup such as `**`, `[[`, `>` and `-` included).
 */
export function foldForMatch(text: string): string {
  return text.normalize("NFKC").toLowerCase().replace(NOT_TEXT, "");
}

/**
 * An item's words for similarity: NFKC, lower case, inline fields (`[due:: …]`) and wikilink
 * brackets removed, every run of characters that are not letters or digits one space; trimmed.
 */
export function wordsForSimilarity(text: string): string {
  return stripWikilinkBrackets(
    text
      .normalize("NFKC")
      .toLowerCase()
      .replace(/\[[\p{L}\p{N}_-]+::[^\]]*\]/gu, " "),
    " ",
  )
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/**
 * `text` with what would act in Obsidian escaped by a backslash: wikilinks and embeds (`[[` →
 * `\[\[`), tags (`#tag` → `\#tag`, where a `#` starts a word) and block ids (` ^id` → ` \^id`),
 * so text from another tool (a transcript's title) is shown as written and adds no link, tag or
 * block id to the vault. Other text is unchanged.
 */
export function inertMarkdown(text: string): string {
  return text
    .replace(/\[\[/g, "\\[\\[")
    .replace(/(^|\s)#(?=[\p{L}\p{N}_/-])/gu, "$1\\#")
    .replace(/(^|\s)\^(?=[A-Za-z0-9-]+\s*$)/g, "$1\\^");
}
