/**
 * Block ids in journals (docs/architecture.md, "Journals";
 * test/core/journal/journal-blocks.test.ts, "case 07: …"): extraction reuses a block's own
 * `^id` or adds a deterministic `^am-xxxx`, locating blocks in the journal's CURRENT text by their
 * content so that a person's edits made meanwhile survive.
 */
import { deriveShortId, isDerivedShortId } from "../util/hash";
import { idMarkers, splitBlocks } from "./split";
import type { JournalBlock } from "./split";
import { trimLineEnds } from "../markdown/text";

/** A block that should carry `id`, named by its {@link JournalBlock.text} as seen when planning. */
export interface WantedBlockId {
  text: string;
  id: string;
  /**
   * Where the block stood when planned ({@link blockPlace}): its kind and the texts of the blocks
   * before and after it (`null`: none). A block no longer found by its text is the one of this kind
   * between those two, when exactly one is (a line reworded meanwhile; docs/decisions.md, "A journal
   * line reworded during extraction keeps its item's block id").
   */
  place?: BlockPlace;
}

/** A block's kind and neighbours when planned: see {@link WantedBlockId.place}. */
export interface BlockPlace {
  kind: JournalBlock["kind"];
  before: string | null;
  after: string | null;
}

/** The {@link BlockPlace} of `blocks[index]` (neighbours compared without trailing whitespace). */
export function blockPlace(blocks: readonly JournalBlock[], index: number): BlockPlace {
  const near = (i: number) => {
    const b = blocks[i];
    return b ? trimLineEnds(b.text) : null;
  };
  return { kind: blocks[index]?.kind ?? "other", before: near(index - 1), after: near(index + 1) };
}

/** What {@link addBlockIds} did. */
export interface AddBlockIdsResult {
  /** The body with the ids added (the input itself when nothing was added). */
  body: string;
  /** Ids written, in the order wanted. */
  added: string[];
  /** Wanted ids whose block is no longer in the body (edited or removed meanwhile); nothing written for them. */
  missing: string[];
  /**
   * Wanted ids whose block already carries another id, which it keeps (a block never gets two ids);
   * links should use `existingId`.
   */
  kept: { id: string; existingId: string }[];
}

/**
 * A deterministic block id `am-xxxxxxxxxx` (ten base32 characters of a hash of `seed`), so
 * re-runs on the same journal give the same ids. When the id is in `taken`, another is derived
 * from the seed until one is free. `taken` holds ids without `^`; `tried` as for `deriveShortId`
 * (a loop giving ids to many blocks, some of the same text).
 */
export function newBlockId(
  seed: string,
  taken: ReadonlySet<string> | readonly string[] = [],
  tried?: Map<string, number>,
): string {
  // A set is used as it is: copying it per id made a loop over many new blocks quadratic.
  return deriveShortId("am-", seed, taken instanceof Set ? taken : new Set<string>(taken), tried);
}

/**
 * The seed of the id extraction derives for a journal block ({@link newBlockId}): the journal's
 * vault path and the block's text as {@link splitBlocks} gives it (without its `^id`).
 */
export function blockIdSeed(journalPath: string, blockText: string): string {
  return `${journalPath}\n${blockText}`;
}

/**
 * True when `block`'s id is the one extraction derived from the text the block still has
 * ({@link blockIdSeed}): the block is unchanged since its id was given. False when it has no id,
 * was reworded in place since (its id kept), or carries an id not derived so (by hand, the old
 * four-character form, an id given by a journal append).
 */
export function blockUnchangedSinceId(journalPath: string, block: JournalBlock): boolean {
  return (
    block.blockId !== null &&
    isDerivedShortId("am-", blockIdSeed(journalPath, block.text), block.blockId)
  );
}

/** Every block id in a body (inline and standalone, outside fenced code). */
export function existingBlockIds(body: string): Set<string> {
  return new Set(idMarkers(body).map((m) => m.id));
}

/**
 * Index of the block whose text is `text` (compared without trailing whitespace), skipping indices
 * in `claimed`; -1 when there is none. When no text matches exactly, a list item or paragraph whose
 * first line matches — and only one does — is taken (a child line added under an item meanwhile).
 */
export function findBlock(
  blocks: readonly JournalBlock[],
  text: string,
  claimed: ReadonlySet<number> = new Set(),
): number {
  return blockFinder(blocks)(text, claimed);
}

/**
 * {@link findBlock} over `blocks`, with their texts compared once: each call looks its text up in
 * a map, so finding every block of a body is linear, not quadratic. Across calls of one finder,
 * `claimed` may only grow (as in {@link addBlockIds}). `preferWithoutId`: of blocks with the same
 * text, an unclaimed one without an id comes first.
 */
function blockFinder(
  blocks: readonly JournalBlock[],
  preferWithoutId = false,
): (text: string, claimed: ReadonlySet<number>, place?: BlockPlace) => number {
  const byText = new Map<string, { at: number; indices: number[] }>();
  const byFirstLine = new Map<string, number[]>();
  let byPlace: Map<string, number[]> | null = null;
  const placeKey = (p: BlockPlace) =>
    `${p.kind}\u0000${p.before ?? "\u0001"}\u0000${p.after ?? "\u0001"}`;
  blocks.forEach((b, i) => {
    const trimmed = trimLineEnds(b.text);
    const same = byText.get(trimmed);
    if (same) same.indices.push(i);
    else byText.set(trimmed, { at: 0, indices: [i] });
    if (b.kind !== "list-item" && b.kind !== "paragraph") return;
    const first = trimmed.split("\n")[0] ?? "";
    const list = byFirstLine.get(first);
    if (list) list.push(i);
    else byFirstLine.set(first, [i]);
  });
  return (text, claimed, place) => {
    const wanted = trimLineEnds(text);
    const same = byText.get(wanted);
    if (same) {
      while (same.at < same.indices.length && claimed.has(same.indices[same.at] ?? -1)) same.at++;
      // A block wanting a new id had none when planned: of blocks with the same text, one without.
      const free = preferWithoutId
        ? same.indices.slice(same.at).find((i) => !claimed.has(i) && blocks[i]?.blockId === null)
        : undefined;
      const exact = free ?? same.indices[same.at];
      if (exact !== undefined) return exact;
    }
    const firstLine = wanted.split("\n")[0] ?? "";
    if (firstLine === "") return -1;
    const candidates = (byFirstLine.get(firstLine) ?? []).filter((i) => !claimed.has(i));
    if (candidates.length === 1) return candidates[0] ?? -1;
    if (!place) return -1;
    // Reworded in place: the one block of its kind still between the same two neighbours.
    if (!byPlace) {
      byPlace = new Map();
      for (let i = 0; i < blocks.length; i++) {
        const key = placeKey(blockPlace(blocks, i));
        const list = byPlace.get(key);
        if (list) list.push(i);
        else byPlace.set(key, [i]);
      }
    }
    const there = (byPlace.get(placeKey(place)) ?? []).filter((i) => !claimed.has(i));
    return there.length === 1 ? (there[0] ?? -1) : -1;
  };
}

/** The id of the block with this text in `body`, or `null` (no such block, or it has no id). */
export function blockIdAt(body: string, blockText: string): string | null {
  const blocks = splitBlocks(body);
  return blocks[findBlock(blocks, blockText)]?.blockId ?? null;
}

interface Row {
  text: string;
  /** The row's line ending as written: `\n`, `\r\n`, or `""` for the last row. */
  end: string;
}

interface Edit {
  /** `inline`: ` ^id` at the end of `line`; `after`: a `^id` line after `line`. */
  kind: "inline" | "after";
  line: number;
  id: string;
}

/** Where a block's id goes (Obsidian's rules): on its first line, its last line, or a line after it. */
function editFor(block: JournalBlock, id: string): Edit {
  switch (block.kind) {
    case "list-item":
      return { kind: "inline", line: block.startLine, id };
    case "paragraph":
      return { kind: "inline", line: block.endLine - 1, id };
    case "heading":
      // A setext heading's text is the line above its underline.
      return {
        kind: "inline",
        line: block.endLine - block.startLine > 1 ? block.endLine - 2 : block.startLine,
        id,
      };
    default:
      return { kind: "after", line: block.endLine - 1, id };
  }
}

function applyEdit(rows: Row[], edit: Edit, eol: string): void {
  const row = rows[edit.line];
  if (!row) return;
  if (edit.kind === "inline") {
    row.text = `${row.text.replace(/[ \t]+$/, "")} ^${edit.id}`;
    return;
  }
  // Structured blocks: `^id` on its own line with a blank line before and after (Obsidian help).
  const inserted: Row[] = [
    { text: "", end: eol },
    { text: `^${edit.id}`, end: eol },
  ];
  const next = rows[edit.line + 1];
  if (next && next.text.trim() !== "") inserted.push({ text: "", end: eol });
  if (row.end === "") {
    row.end = eol;
    const last = inserted.at(-1);
    if (last) last.end = "";
  }
  rows.splice(edit.line + 1, 0, ...inserted);
}

/**
 * Adds each wanted block's id to `body`, finding the block in the CURRENT text by its content, not
 * by line number, so lines a person added or moved meanwhile survive (test/core/journal/journal-blocks.test.ts,
 * "case 07: …"); a block reworded meanwhile is found by its {@link WantedBlockId.place} and keeps
 * the person's words: a paragraph gets
 * ` ^id` at the end of its last line, a list item at the end of its first line, a quote, callout,
 * table or code block a `^id` line after it. Of blocks with the same text, one without an id is
 * taken first (the wanted id was derived for a block that had none: a paragraph written again
 * later in the journal). A block that already has an id keeps it (reported in `kept`); a block no longer found, or an id already used elsewhere in the body, is skipped and
 * reported in `missing`. Line endings (CRLF) are preserved. Never throws.
 */
export function addBlockIds(body: string, wanted: readonly WantedBlockId[]): AddBlockIdsResult {
  const result: AddBlockIdsResult = { body, added: [], missing: [], kept: [] };
  if (wanted.length === 0) return result;
  const eol = body.includes("\r\n") ? "\r\n" : "\n";
  const blocks = splitBlocks(body);
  const rows: Row[] = body.split("\n").map((raw, i, all) => {
    const last = i === all.length - 1;
    return raw.endsWith("\r") && !last
      ? { text: raw.slice(0, -1), end: "\r\n" }
      : { text: raw, end: last ? "" : "\n" };
  });
  const present = existingBlockIds(body);
  const claimed = new Set<number>();
  const edits: Edit[] = [];
  const find = blockFinder(blocks, true);
  for (const { text, id, place } of wanted) {
    const index = find(text, claimed, place);
    const block = blocks[index];
    if (!block) {
      result.missing.push(id);
      continue;
    }
    claimed.add(index);
    if (block.blockId !== null) {
      if (block.blockId !== id) result.kept.push({ id, existingId: block.blockId });
      continue;
    }
    if (present.has(id)) {
      result.missing.push(id);
      continue;
    }
    present.add(id);
    edits.push(editFor(block, id));
    result.added.push(id);
  }
  if (edits.length === 0) return result;
  for (const edit of edits.sort((a, b) => b.line - a.line)) applyEdit(rows, edit, eol);
  result.body = rows.map((row) => row.text + row.end).join("");
  return result;
}
