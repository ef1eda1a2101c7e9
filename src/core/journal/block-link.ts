/**
 * The wikilink to one journal block (docs/compaction.md): `[[journal#^id]]` when the block has
 * an id, else `[[journal#Heading]]` under its nearest heading, else `[[journal]]`. Never writes an
 * id: digests and staleness findings only read journals.
 */
import { sourceLink } from "../extraction/route";
import type { JournalBlock } from "./split";

/** Wikilink to `block` of the journal at vault path `journal` (see the module comment). */
export function blockLink(journal: string, block: Pick<JournalBlock, "blockId" | "headings">): string {
  if (block.blockId) return sourceLink(journal, block.blockId);
  const heading = block.headings.at(-1)?.trim();
  const target = journal.replace(/\.md$/i, "");
  // A heading holding link syntax cannot be named in a link; the note stands for it.
  return heading && !/[[\]|#^]/.test(heading) ? `[[${target}#${heading}]]` : `[[${target}]]`;
}
