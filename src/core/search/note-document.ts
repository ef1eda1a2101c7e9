/**
 * From a note's text to what the index holds (docs/architecture.md, "A search"): the searchable
 * fields (title, aliases, tags, headings, properties, body) and the stored metadata used by
 * filters, scopes and ranking. A note whose frontmatter does not parse is still indexed by its body
 * and flagged (docs/architecture.md, "The index"). A note above the size cap is indexed by its
 * frontmatter and headings only (docs/architecture.md, "The saved index").
 */
import { isIso8601, localDate } from "../util/dates";
import { parseNote } from "../frontmatter";
import { textAfterFrontmatter } from "../markdown/frontmatter-block";
import { readSimpleFrontmatter } from "../markdown/fast-frontmatter";
import { errorMessage } from "../errors";
import type { Collection, MemoryLayout } from "../layout";
import { pairFilterOf } from "./engine/phrase-filter";
import { noteName } from "../markdown/wikilinks";

/** The document given to MiniSearch; every field is plain text. */
export interface IndexDoc {
  /** The note's vault path (MiniSearch id). */
  id: string;
  title: string;
  aliases: string;
  tags: string;
  headings: string;
  /** Other frontmatter values (id, domain, category, source…), so a note is found by them too. */
  properties: string;
  body: string;
}

/** The indexed fields, in the order MiniSearch stores them. */
export const INDEX_FIELDS = ["title", "aliases", "tags", "headings", "properties", "body"] as const;

/**
 * Stored per note (docs/architecture.md, "The index"); saved with the index. Absent optional fields
 * mean "none".
 */
export interface NoteMeta {
  path: string;
  /** Modification time (ms since epoch) when indexed; -1 when the caller did not know it. */
  mtime: number;
  /** Size in bytes when indexed. */
  size: number;
  title: string;
  /** The agent whose folder holds the note (the layout's), or `null`. */
  agent: string | null;
  /**
   * Frontmatter `agent` when it names another agent than {@link agent} (a note in the library or
   * an isolated zone says whose it is); absent otherwise. The `agent:` filter matches either.
   */
  agentField?: string;
  collection: Collection;
  /** Isolated zone name, or `null`. */
  zone: string | null;
  type?: string;
  status?: string;
  domain?: string;
  /** Tags without `#`, lower case, from frontmatter and inline `#tags`. */
  tags?: string[];
  /** The note's date (`YYYY-MM-DD`): `updated_at`, `created_at`, `date`, a date in the file name, else the mtime's local date. */
  date?: string;
  /** 0–1 from frontmatter `confidence`. */
  confidence?: number;
  /** Frontmatter `expires_at` as written (trimmed) when it is an ISO 8601 date or date-time; judged by `isExpired` (src/core/util/dates.ts). */
  expiresAt?: string;
  /** True when the note was over the size cap and its body was not indexed. */
  capped?: true;
  /** Why the frontmatter did not parse (the body was indexed anyway). */
  frontmatterError?: string;
}

const DATE_IN_TEXT = /(\d{4})-(\d{2})-(\d{2})/;
const HEADING_LINE = /^#{1,6}\s+(.*?)\s*#*\s*$/;
const INLINE_TAG = /(?:^|\s)#([\p{L}\p{N}_/-]*[\p{L}_/-][\p{L}\p{N}_/-]*)/gu;
const FENCE = /^\s*(```|~~~)/;
const PROPERTY_SKIP = new Set([
  "title",
  "aliases",
  "alias",
  "tags",
  "tag",
  "related_to",
  "extraction_hash",
  "extracted_at",
  "created_at",
  "updated_at",
  "expires_at",
  "confidence",
]);

/** `YYYY-MM-DD` of a date-like value, or `undefined`. Keeps the date as written (no UTC shift). */
function dayOf(value: unknown): string | undefined {
  if (typeof value !== "string" && typeof value !== "number") return undefined;
  const m = DATE_IN_TEXT.exec(String(value));
  return m ? `${m[1]}-${m[2]}-${m[3]}` : undefined;
}

function stringsOf(value: unknown): string[] {
  if (typeof value === "string") return value.split(/[,\s]+/).filter((s) => s !== "");
  if (Array.isArray(value))
    return value.flatMap((v) =>
      typeof v === "string" || typeof v === "number" ? [String(v)] : [],
    );
  return [];
}

function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return value.map(textOf).join(" ");
  return "";
}

function firstString(data: Record<string, unknown>, key: string): string | undefined {
  const raw: unknown = data[key];
  const v: unknown = Array.isArray(raw) ? raw[0] : raw;
  if (typeof v === "number") return String(v);
  if (typeof v === "string" && v.trim() !== "") return v.trim();
  return undefined;
}

/**
 * The note's body and frontmatter, never throwing: a parse error is returned with the body.
 * Plain frontmatter takes the fast path ({@link readSimpleFrontmatter}); the rest {@link parseNote}.
 */
export function readNote(
  text: string,
  path: string,
): { data: Record<string, unknown>; body: string; error?: string } {
  const simple = readSimpleFrontmatter(text);
  if (simple) return simple;
  try {
    const parsed = parseNote(text, path);
    return { data: parsed.data ?? {}, body: parsed.body };
  } catch (err) {
    return { data: {}, body: textAfterFrontmatter(text), error: errorMessage(err) };
  }
}

/**
 * The title a phrase check reads with the body: the file name, and the frontmatter title on a line
 * of its own when there is a different one (both are indexed as the note's title).
 */
export function phraseTitle(meta: Pick<NoteMeta, "path" | "title">): string {
  const stem = noteName(meta.path);
  return meta.title !== stem ? `${stem}\n${meta.title}` : stem;
}

/** The frontmatter values the index holds besides the title: aliases, tags as written, other properties. */
function indexedFrontmatter(data: Record<string, unknown>): {
  aliases: string[];
  tags: string[];
  properties: string[];
} {
  const properties: string[] = [];
  for (const [key, value] of Object.entries(data))
    if (!PROPERTY_SKIP.has(key)) properties.push(textOf(value));
  return {
    aliases: stringsOf(data.aliases ?? data.alias),
    tags: stringsOf(data.tags ?? data.tag),
    properties,
  };
}

/**
 * The frontmatter a phrase check reads besides the title and body: aliases, tags and the other
 * indexed property values, one per line (what the index holds of the frontmatter, so that a phrase
 * finds a note by its `aliases` as the same words unquoted do).
 */
export function phraseFields(data: Record<string, unknown>): string {
  return fieldLines(indexedFrontmatter(data));
}

function fieldLines(fields: ReturnType<typeof indexedFrontmatter>): string {
  return [...fields.aliases, ...fields.tags, ...fields.properties]
    .filter((line) => line !== "")
    .join("\n");
}

/**
 * Builds the index document, the metadata and the phrase filter of one note.
 * @param stat modification time (ms) and size (bytes); a size over `sizeCapBytes` leaves the body out
 * @returns `pairs`: the word-pair filter of the text a phrase check reads ({@link phraseTitle},
 *   {@link phraseFields} and the body, on lines of their own, as the note cache gives them to
 *   `textContainsPhrase`); none for a note over the size cap, whose phrases are checked by reading
 *   its headings
 */
export function buildNoteDocument(
  path: string,
  text: string,
  stat: { mtime: number; size: number },
  layout: MemoryLayout,
): { doc: IndexDoc; meta: NoteMeta; pairs?: Uint32Array } {
  const { data, body, error } = readNote(text, path);
  const capped = stat.size > layout.settings.search.sizeCapBytes;
  const stem = noteName(path);
  const fmTitle = firstString(data, "title");
  const title = fmTitle && fmTitle !== stem ? `${stem} ${fmTitle}` : stem;

  const headings: string[] = [];
  const bodyLines: string[] = [];
  const fields = indexedFrontmatter(data);
  const tags = new Set(fields.tags.map((t) => t.replace(/^#/, "").toLowerCase()));
  let inFence = false;
  for (const line of body.split(/\r?\n/)) {
    if (FENCE.test(line)) inFence = !inFence;
    const h = inFence ? null : HEADING_LINE.exec(line);
    if (h) {
      headings.push(h[1] ?? "");
      continue;
    }
    if (capped) continue;
    bodyLines.push(line);
    if (!inFence && line.includes("#")) {
      for (const m of line.matchAll(INLINE_TAG)) tags.add((m[1] ?? "").toLowerCase());
    }
  }

  const date =
    dayOf(data.updated_at) ??
    dayOf(data.created_at) ??
    dayOf(data.date) ??
    dayOf(stem) ??
    (stat.mtime > 0 ? localDate(stat.mtime) : undefined);
  const confidence =
    typeof data.confidence === "number"
      ? data.confidence
      : Number.parseFloat(String(data.confidence));

  const meta: NoteMeta = {
    path,
    mtime: stat.mtime,
    size: stat.size,
    title: fmTitle ?? stem,
    agent: layout.agentOf(path),
    collection: layout.collectionOf(path),
    zone: layout.zoneOf(path),
  };
  const type = firstString(data, "type");
  const agentField = firstString(data, "agent");
  const status = firstString(data, "status");
  const domain = firstString(data, "domain");
  const expiresAt =
    typeof data.expires_at === "string" && isIso8601(data.expires_at.trim())
      ? data.expires_at.trim()
      : undefined;
  if (type) meta.type = type;
  if (agentField && agentField !== meta.agent) meta.agentField = agentField;
  if (status) meta.status = status;
  if (domain) meta.domain = domain;
  if (tags.size > 0) meta.tags = [...tags];
  if (date) meta.date = date;
  if (Number.isFinite(confidence) && confidence >= 0 && confidence <= 1)
    meta.confidence = confidence;
  if (expiresAt) meta.expiresAt = expiresAt;
  if (capped) meta.capped = true;
  if (error) meta.frontmatterError = error;

  const doc: IndexDoc = {
    id: path,
    title,
    aliases: fields.aliases.join(" "),
    tags: [...tags].join(" "),
    headings: headings.join("\n"),
    properties: fields.properties.join(" "),
    body: bodyLines.join("\n"),
  };
  return capped
    ? { doc, meta }
    : { doc, meta, pairs: pairFilterOf(phraseTitle(meta), fieldLines(fields), body) };
}
