/**
 * Journal blocks and block ids (docs/architecture.md, "Journals"): the public face of
 * `src/core/journal/` — splitting ({@link splitBlocks}), ids ({@link addBlockIds},
 * {@link newBlockId}, {@link blockUnchangedSinceId}, {@link stripBlockIds}) and the extraction hash ({@link extractionHash}).
 */
export type { JournalBlock } from "./split";
export type { IdMarker } from "./split";
export { BLOCK_ID_CHARS, idMarkers, splitBlocks, stripBlockIds } from "./split";
export type { AddBlockIdsResult, BlockPlace, WantedBlockId } from "./block-ids";
export {
  addBlockIds,
  blockIdAt,
  blockIdSeed,
  blockPlace,
  blockUnchangedSinceId,
  existingBlockIds,
  findBlock,
  newBlockId,
} from "./block-ids";
export { extractedAsIs, extractionHash, hashableText } from "./hash";
