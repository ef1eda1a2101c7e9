/**
 * `read_note` (docs/mcp.md, "Tools"): finds a note by vault path, frontmatter `id`, title or
 * wikilink (`[[Note]]`, `[[Note#Heading]]`, `[[Note#^block]]`), and returns its text, or the
 * heading's section or the block, a page at a time. Every candidate must be readable by the
 * server's {@link MemoryAccess} (memory root, zones, real path).
 */
import { PathError, UsageError } from "../core/errors";
import { parseNote } from "../core/frontmatter";
import { sectionUnder } from "../core/markdown/anchors";
import { parseWikilinkTarget, unwrapWikilink, noteName } from "../core/markdown/wikilinks";
import { splitBlocks } from "../core/journal/split";
import type { MemoryAccess } from "./access";
import type { LiveIndex } from "../node/live-index";

/** A page of a note (sizes in UTF-16 code units, as JavaScript strings count characters). */
export interface NotePage {
  path: string;
  title: string;
  /** `#Heading` or `#^block` when only that part was asked for, else `null`. */
  anchor: string | null;
  /** Characters of the note (or of its section or block). */
  total_chars: number;
  offset: number;
  /** Offset of the next page, or `null` when this page reaches the end. */
  next_offset: number | null;
  text: string;
}

/** Where a note was found: its vault path and the part of it asked for. */
interface Target {
  path: string;
  heading: string | null;
  blockId: string | null;
}

/**
 * Finds the note `ref` names. Order: a vault path (holding `/` or ending in `.md`); a frontmatter
 * `id`; a link or file name as Obsidian resolves it (preferring the agent's own folder); a title.
 * @throws `PathError` for a path the server may not read, {@link UsageError} when no note matches
 */
export async function findNote(
  ref: string,
  access: MemoryAccess,
  live: LiveIndex,
): Promise<Target> {
  const raw = ref.trim();
  const inner = unwrapWikilink(raw.replace(/^!(?=\[\[)/, ""));
  const link = parseWikilinkTarget(inner);
  const name = link.path;
  if (name === "") throw new UsageError(`no note named in ${JSON.stringify(ref)}`);
  const at = (path: string): Target => ({
    path: access.readable(path),
    heading: link.heading,
    blockId: link.blockId,
  });
  // A name with a slash is a path, unless it is an id with a slash (`claude/api`, as extraction and
  // promotion write ids): a path the guard refuses is reported only when no note has that id.
  let refused: PathError | null = null;
  if (name.includes("/") || /\.md$/i.test(name)) {
    try {
      const direct = at(name);
      if (await access.vault.exists(direct.path)) return direct;
    } catch (err) {
      if (!(err instanceof PathError)) throw err;
      refused = err;
    }
  }
  const byId = await findById(name, access, live);
  if (byId) return at(byId);
  if (refused) throw refused;
  const from = `${access.writeRoot}/_`;
  const linked = live.links().resolve(name, from);
  if (linked && access.visible(linked)) return at(linked);
  const wanted = name.toLowerCase();
  const titled: string[] = [];
  for (const path of live.notePaths()) {
    if (access.visible(path) && live.service.meta(path)?.title.toLowerCase() === wanted)
      titled.push(path);
  }
  const own = (p: string): number => (p.startsWith(`${access.writeRoot}/`) ? 0 : 1);
  titled.sort((a, b) => own(a) - own(b) || a.length - b.length);
  if (titled[0]) return at(titled[0]);
  throw new UsageError(`no note found for ${JSON.stringify(ref)} (by path, id, link or title)`);
}

/** The note whose frontmatter `id` is `id`: candidates from the index, confirmed by reading their frontmatter. */
async function findById(id: string, access: MemoryAccess, live: LiveIndex): Promise<string | null> {
  if (!/^[\p{L}\p{N}_.-]+(?:\/[\p{L}\p{N}_.-]+)*$/u.test(id) || id.split("/").includes(".."))
    return null;
  for (const scope of ["all", ...access.zones]) {
    const found = await live.service.search(id, {
      scope,
      limit: 25,
      blocksPerResult: 0,
      includeExpired: true,
      freeText: true,
    });
    if (!found.ok) continue;
    for (const hit of found.value.results) {
      if (!access.visible(hit.path)) continue;
      try {
        const data = parseNote(await access.vault.read(hit.path), hit.path).data;
        const found = data?.id;
        if ((typeof found === "string" || typeof found === "number") && String(found) === id)
          return hit.path;
      } catch {
        // unreadable: not this one
      }
    }
  }
  return null;
}

/**
 * Reads a page of the note, or of its heading's section or its block.
 * @param offset first character (UTF-16 code units) of the page
 * @param limit most characters in the page; a page never ends inside a surrogate pair
 * @throws {@link UsageError} for a heading or block the note does not have, or an offset past the end
 */
export async function readNotePage(
  target: Target,
  access: MemoryAccess,
  live: LiveIndex,
  offset: number,
  limit: number,
): Promise<NotePage> {
  const text = await access.vault.read(target.path);
  let part = text;
  let anchor: string | null = null;
  if (target.blockId !== null) {
    anchor = `#^${target.blockId}`;
    part = blockText(text, target.blockId) ?? "";
    if (part === "") throw new UsageError(`${target.path} has no block ^${target.blockId}`);
  } else if (target.heading !== null) {
    anchor = `#${target.heading}`;
    part = sectionUnder(text, target.heading) ?? "";
    if (part === "") throw new UsageError(`${target.path} has no heading "${target.heading}"`);
  }
  if (offset > part.length)
    throw new UsageError(`offset ${offset} is past the end (${part.length} characters)`);
  let end = Math.min(part.length, offset + limit);
  // Never cut a character in two: a high surrogate at the end of the page goes to the next one.
  if (end < part.length && end > offset && /[\uD800-\uDBFF]/.test(part[end - 1] ?? "")) end--;
  const title = live.service.meta(target.path)?.title ?? noteName(target.path);
  return {
    path: target.path,
    title,
    anchor,
    total_chars: part.length,
    offset,
    next_offset: end < part.length ? end : null,
    text: part.slice(offset, end),
  };
}

/** The block carrying `^id` (case-insensitive, as Obsidian matches), its id line included. */
function blockText(text: string, id: string): string | null {
  const note = parseNote(text);
  const body = note.body;
  const lines = body.split("\n");
  const block = splitBlocks(body).find((b) => b.blockId?.toLowerCase() === id.toLowerCase());
  if (!block) return null;
  const end = Math.max(block.endLine, (block.idLine ?? -1) + 1);
  return lines.slice(block.startLine, end).join("\n").replace(/\r/g, "").trimEnd();
}
