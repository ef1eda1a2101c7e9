/**
 * Link and id rules (docs/architecture.md, "The health check"): `broken-link` (related_to entries,
 * `source` links in frontmatter and `Source:` lines of knowledge and library callouts that resolve
 * to no note, block or heading), `missing-source-block` (tracker items whose `[source:: …]` journal
 * block is gone) and
 * `duplicate-id` (a frontmatter id used by two notes; a block id ending two lines of one note).
 */
import { parseTracker } from "../trackers/format";
import { FIELD_KEYS, fieldValue } from "../trackers/fields";
import {
  findWikilinks,
  isAttachmentLink,
  type LinkResolver,
  type Wikilink,
} from "../markdown/wikilinks";
import { normalizeHeading, type NoteAnchors } from "../markdown/anchors";
import { fieldOf, type NoteInfo } from "./note-info";
import type { HealthProblem } from "./types";

/** What link rules need from the run: resolution and the anchors of any note (read on demand). */
export interface LinkContext {
  resolver: LinkResolver;
  /** Block ids and headings of a vault note, or `null` when it cannot be read. */
  anchorsOf(path: string): Promise<NoteAnchors | null>;
}

/**
 * Why a wikilink written in note `from` resolves to nothing, or `null` when it resolves. Links to
 * attachments (`.png`, `.pdf` …) are not checked: the vault port lists Markdown notes only.
 */
export async function brokenLinkReason(
  link: Wikilink,
  from: string,
  ctx: LinkContext,
): Promise<string | null> {
  if (isAttachmentLink(link.path)) return null;
  const target = ctx.resolver.resolve(link.path, from);
  if (target === null) return `no note "${link.path}"`;
  if (link.blockId === null && link.heading === null) return null;
  const anchors = await ctx.anchorsOf(target);
  if (anchors === null) return `cannot read ${target}`;
  if (link.blockId !== null && !anchors.blockIds.has(link.blockId.toLowerCase()))
    return `no block ^${link.blockId} in ${target}`;
  if (link.heading !== null && !anchors.headings.has(normalizeHeading(link.heading)))
    return `no heading "${link.heading}" in ${target}`;
  return null;
}

/** The 1-based frontmatter line that holds `raw`, else the line of `key`. */
function lineOf(note: NoteInfo, raw: string, key: string): number | undefined {
  return note.frontmatterLines.find((l) => l.text.includes(raw))?.line ?? note.keyLines.get(key);
}

function linksIn(value: unknown): Wikilink[] {
  if (typeof value === "string") return findWikilinks(value);
  if (Array.isArray(value))
    return value.flatMap((v) => (typeof v === "string" ? findWikilinks(v) : []));
  return [];
}

const SOURCE_LINE_RE = /^\s*(?:>\s*)*(?:source|sources|来源|出处)\s*[:：]/i;

/**
 * `broken-link` for one note: every wikilink in `related_to` and `source`, and in `Source:` lines of
 * knowledge and library notes (the callouts extraction appends,
 * docs/architecture.md, "Note formats").
 */
export async function checkBrokenLinks(note: NoteInfo, ctx: LinkContext): Promise<HealthProblem[]> {
  const out: HealthProblem[] = [];
  for (const key of ["related_to", "source"]) {
    for (const link of linksIn(fieldOf(note, key))) {
      const reason = await brokenLinkReason(link, note.path, ctx);
      if (reason === null) continue;
      const line = lineOf(note, link.raw, key);
      out.push({
        path: note.path,
        rule: "broken-link",
        severity: "error",
        message: `${key} ${link.raw} resolves to nothing: ${reason}.`,
        ...(line !== undefined ? { line } : {}),
      });
    }
  }
  if (note.collection === "knowledge" || note.collection === "library") {
    const lines = note.body.split("\n");
    for (let i = 0; i < lines.length; i++) {
      const text = lines[i] ?? "";
      if (!SOURCE_LINE_RE.test(text)) continue;
      for (const link of findWikilinks(text)) {
        const reason = await brokenLinkReason(link, note.path, ctx);
        if (reason === null) continue;
        out.push({
          path: note.path,
          rule: "broken-link",
          severity: "error",
          message: `Source ${link.raw} resolves to nothing: ${reason}.`,
          line: note.bodyLine + i,
        });
      }
    }
  }
  return out;
}

/** `missing-source-block`: tracker items whose `source` field links a journal note or block that is gone. */
export async function checkTrackerSources(
  note: NoteInfo,
  ctx: LinkContext,
): Promise<HealthProblem[]> {
  if (note.collection !== "tracker" || note.invalid) return [];
  const out: HealthProblem[] = [];
  for (const item of parseTracker(note.text).items) {
    const source = fieldValue(item.fields, FIELD_KEYS.source);
    if (source !== null) {
      for (const link of findWikilinks(source)) {
        const reason = await brokenLinkReason(link, note.path, ctx);
        if (reason === null) continue;
        const label = item.id ? `^${item.id}` : `"${item.text.slice(0, 40)}"`;
        out.push({
          path: note.path,
          rule: "missing-source-block",
          severity: "warning",
          message: `Item ${label} cites ${link.raw}: ${reason}.`,
          line: item.line + 1,
          ...(item.id ? { blockId: item.id } : {}),
        });
      }
    }
  }
  return out;
}

/** The id a note declares in frontmatter, as text, or `null`. */
export function noteId(note: NoteInfo): string | null {
  const v = fieldOf(note, "id");
  if (typeof v === "number") return String(v);
  if (typeof v === "string" && v.trim() !== "") return v.trim();
  return null;
}

/**
 * `duplicate-id` across notes: for each id used by several notes, every note but the first (by path)
 * is reported once, naming the first. Also a block id that ends two lines of the same note.
 */
export function checkDuplicateIds(notes: readonly NoteInfo[]): HealthProblem[] {
  const out: HealthProblem[] = [];
  const byId = new Map<string, NoteInfo[]>();
  for (const note of notes) {
    const id = noteId(note);
    if (id === null) continue;
    const list = byId.get(id);
    if (list) list.push(note);
    else byId.set(id, [note]);
  }
  for (const [id, list] of byId) {
    if (list.length < 2) continue;
    const sorted = [...list].sort((a, b) => (a.path < b.path ? -1 : 1));
    const first = sorted[0];
    if (!first) continue;
    for (const note of sorted.slice(1)) {
      const line = note.keyLines.get("id");
      out.push({
        path: note.path,
        rule: "duplicate-id",
        severity: "error",
        message: `id "${id}" is also the id of ${first.path}.`,
        ...(line !== undefined ? { line } : {}),
      });
    }
  }
  for (const note of notes) {
    // Most notes carry no block id at all; skip scanning them line by line.
    if (!note.body.includes("^")) continue;
    for (const [id, lines] of note.anchors().blockIds) {
      const [firstLine, ...rest] = lines;
      for (const line of rest) {
        out.push({
          path: note.path,
          rule: "duplicate-id",
          severity: "error",
          message: `Block id ^${id} already ends line ${firstLine ?? "?"}; links to it reach only the first.`,
          line,
          blockId: id,
        });
      }
    }
  }
  return out;
}
