/**
 * The wikilink to one journal block (docs/compaction.md): `[[journal#^id]]` when the block has an
 * id, else `[[journal#Heading]]` under its nearest heading, else `[[journal]]`. Never writes an id:
 * digests and staleness findings only read journals.
 */
import { formatWikilink } from "./wikilinks";

/**
 * Wikilink to a block of the journal at vault path `journal`. `block` is a journal block
 * (`JournalBlock` of src/core/journal/split.ts): its id (without `^`) or `null`, and the headings
 * above it, outermost first.
 */
export function blockLink(
  journal: string,
  block: { blockId: string | null; headings: readonly string[] },
): string {
  if (block.blockId) return formatWikilink({ path: journal, blockId: block.blockId });
  const heading = block.headings.at(-1)?.trim();
  // A heading holding link syntax cannot be named in a link; the note stands for it.
  return formatWikilink({
    path: journal,
    heading: heading && !/[[\]|#^]/.test(heading) ? heading : null,
  });
}
