/**
 * Topic notes (docs/architecture.md, "Topic notes"): one note per topic, grown in
 * place by appending callouts under a heading for their kind. Pure text operations meant to run
 * inside `VaultPort.process` on the note's current content
 * (test/core/extraction/extraction-pipeline.test.ts, "case 07: …").
 *
 * Frontmatter is written only through {@link setFrontmatter} (quoted wikilinks in `related_to`,
 * test/core/frontmatter.test.ts, "case 04: …"; only changed keys rewritten, test/core/frontmatter.test.ts,
 * "case 02: …"). A note whose frontmatter does not parse is never rewritten: the operations throw
 * {@link FrontmatterError} naming the note.
 */
import { FrontmatterError } from "../errors";
import { parseNote, setFrontmatter } from "../frontmatter";
import {
  appendLines,
  detectEol,
  insertLines,
  joinLines,
  locateFrontmatter,
  splitLines,
  type NoteLine,
} from "../markdown/lines";
import type { EditResult } from "../trackers/store";
import { err, ok } from "../util/result";
import { linkTarget, toWikilink } from "../markdown/wikilinks";
import {
  addSourceToEntry,
  entryEnd,
  entryTextKey,
  formatCallout,
  scanTopicBody,
  type EntryKind,
  type Heading,
  type TopicEntry,
} from "./callouts";
import { topicId, topicKey } from "./topic-key";
import { collapseWhitespace } from "../markdown/text";
import { isSuperseded } from "./supersede";

export * from "./callouts";
export * from "./topic-key";

/** Facts about the topic note, for {@link appendTopicEntry}. */
export interface TopicMeta {
  /** Topic title: the note's `# heading`, and the base of its id. */
  title: string;
  /** Owning agent, written as `agent`; also the owner part of the id. */
  agent?: string;
  /** Knowledge category (`learning`…) or library area, written as `domain` and `category`. */
  category?: string;
  type: "knowledge" | "library";
  /** ISO 8601 time of this write: `created_at` of a new note, `updated_at` of every write. Kept as given. */
  createdAt: string;
  /** Related topics: note titles, vault paths (`.md` dropped) or wikilinks; merged into `related_to`. */
  related?: string[];
  /** Vault path of the note, named in errors. */
  path?: string;
}

/** One entry to append (docs/architecture.md, "Note formats" callout form). */
export interface TopicEntryInput {
  kind: EntryKind;
  /** Section heading, e.g. `Insights`, `Patterns`, `Decisions`. */
  heading: string;
  /** `YYYY-MM-DD`. */
  date: string;
  /** 0–1. */
  confidence: number;
  /** Entry text; several lines become several `> ` lines. */
  text: string;
  /** Link target of the journal block, e.g. `Agents/link/Journal/2026-03-27#^am-9k2f`, or a wikilink. */
  source: string;
  /** Inline fields on a line of their own at the callout's end, e.g. `[["supersedes", "[[T#^c-1a2b]]"]]`. */
  fields?: [string, string][];
  /** Block id of the callout, written on its own line after it (docs/contradictions.md). */
  id?: string;
}

/**
 * Appends a callout to a topic note, or creates the note when `current` is `null` (or blank: an
 * empty note a person just made).
 *
 * A new note gets frontmatter (`id`, `type`, `domain`, `category`, `status: active`, `created_at`,
 * `updated_at`, `related_to` as quoted wikilinks, `agent`), a `# <title>` heading, and the entry under
 * `## <heading>`. In an existing note the callout goes after the last callout of the section named
 * `heading` (matched without case), before the next heading, or at the end of the note under a new
 * `## <heading>` when there is none; one blank line separates it from its neighbours. Line endings
 * and BOM of the note are kept.
 *
 * An entry of the same kind with the same text (NFKC, case and whitespace ignored) already in the
 * note, and not superseded, is not added again: its source is added to it instead, and nothing
 * changes when the source is there too (test/core/knowledge/topic-notes.test.ts, "case 10: …"). `updated_at` is
 * set and `related_to` merged only when the note changes. Throws {@link FrontmatterError} when the
 * note's frontmatter does not parse.
 */
export function appendTopicEntry(
  current: string | null,
  meta: TopicMeta,
  entry: TopicEntryInput,
): string {
  const path = meta.path ?? meta.title;
  // A blank note (an empty file a person created) becomes a new topic note; only its BOM matters.
  if (current === null || current.trim() === "")
    return (current?.startsWith("\uFEFF") ? "\uFEFF" : "") + createTopicNote(meta, entry, path);

  const { bom, lines } = splitLines(current);
  const { bodyStart, error } = locateFrontmatter(current, lines);
  if (error !== null)
    throw new FrontmatterError(
      `${path}: frontmatter does not parse, the note is left as it is (${error})`,
      path,
    );
  const eol = detectEol(lines);
  const { headings, entries } = scanTopicBody(lines, bodyStart);

  const key = entryTextKey(entry.text);
  // A superseded callout is history: the same text again is a new entry (docs/contradictions.md).
  const same = entries.find(
    (e) => e.kind === entry.kind && entryTextKey(e.text) === key && !isSuperseded(e.fields),
  );
  if (same) addSourceToEntry(lines, same, entry.source, eol);
  else insertCallout(lines, bodyStart, headings, entries, entry, eol);

  const body = joinLines(bom, lines);
  const related = mergeRelated(current, meta.related ?? [], path);
  if (body === current && !related) return current;
  const fields: Record<string, unknown> = { updated_at: meta.createdAt };
  if (related) fields.related_to = related;
  return setFrontmatter(body, fields, path);
}

/**
 * Adds a `Source:` link to an existing callout: `match` is its index in {@link listTopicEntries} or
 * its text (compared as in {@link appendTopicEntry}). A link already there: unchanged (`ok: true`,
 * `changed: false`); no such callout: `ok: false` with a reason. Frontmatter is left alone.
 * Throws {@link FrontmatterError} when the note's frontmatter does not parse.
 */
export function addEntrySource(
  text: string,
  match: number | string,
  link: string,
  path = "topic note",
): EditResult {
  const { bom, lines } = splitLines(text);
  const { bodyStart, error } = locateFrontmatter(text, lines);
  const { entries } = scanTopicBody(lines, bodyStart);
  const entry =
    typeof match === "number"
      ? entries[match]
      : entries.find((e) => entryTextKey(e.text) === entryTextKey(match));
  if (!entry)
    return err({ found: false, message: `no callout ${JSON.stringify(match)} in ${path}` });
  if (error !== null)
    throw new FrontmatterError(
      `${path}: frontmatter does not parse, the note is left as it is (${error})`,
      path,
    );
  if (!addSourceToEntry(lines, entry, link, detectEol(lines))) return ok({ text, changed: false });
  const out = joinLines(bom, lines);
  return ok({ text: out, changed: out !== text });
}

function createTopicNote(meta: TopicMeta, entry: TopicEntryInput, path: string): string {
  const title = meta.title.replace(/\s+/g, " ").trim();
  const body = [
    `# ${title}`,
    "",
    `## ${collapseWhitespace(entry.heading)}`,
    "",
    ...formatCallout(entry),
    "",
  ].join("\n");
  const fields: Record<string, unknown> = {
    id: topicId(title, meta.agent ?? (meta.type === "library" ? "library" : undefined)),
    type: meta.type,
  };
  if (meta.category) {
    fields.domain = meta.category;
    fields.category = meta.category;
  }
  fields.status = "active";
  fields.created_at = meta.createdAt;
  fields.updated_at = meta.createdAt;
  fields.related_to = uniqueLinks(meta.related ?? []).map(toWikilink);
  if (meta.agent) fields.agent = meta.agent;
  return setFrontmatter(body, fields, path);
}

/** Inserts the callout into the section named `entry.heading`, creating the section at the end when missing. */
function insertCallout(
  lines: NoteLine[],
  bodyStart: number,
  headings: Heading[],
  entries: TopicEntry[],
  entry: TopicEntryInput,
  eol: "\n" | "\r\n",
): void {
  const callout = formatCallout(entry);
  const want = topicKey(entry.heading);
  const hIndex = headings.findIndex((h) => topicKey(h.text) === want);
  const h = headings[hIndex];
  if (!h) {
    const block = [`## ${collapseWhitespace(entry.heading)}`, "", ...callout];
    const lastLine = lines[lines.length - 1];
    if (lines.length > bodyStart && lastLine && lastLine.text.trim() !== "") block.unshift("");
    appendLines(lines, block, eol);
    return;
  }
  const next = headings.slice(hIndex + 1).find((x) => x.level <= h.level);
  const sectionEnd = next ? next.line : lines.length;
  const inSection = entries.filter((e) => e.line > h.line && e.line < sectionEnd);
  let at: number;
  const lastEntry = inSection[inSection.length - 1];
  if (lastEntry) at = entryEnd(lastEntry);
  else {
    at = h.line + 1;
    for (let j = sectionEnd - 1; j > h.line; j--) {
      if ((lines[j]?.text ?? "").trim() !== "") {
        at = j + 1;
        break;
      }
    }
  }
  const block = [...callout];
  const before = lines[at - 1];
  if (before && before.text.trim() !== "") block.unshift("");
  const after = lines[at];
  if (after && after.text.trim() !== "") block.push("");
  insertLines(lines, at, block, eol);
}

/**
 * Merges new related topics into the note's `related_to`. Returns the whole merged list as
 * wikilinks when something is new, else `null`. Entries a person wrote unquoted (`[[X]]` read by
 * YAML as a nested list; test/core/frontmatter.test.ts, "case 04: …") are understood and written back
 * quoted.
 */
function mergeRelated(text: string, related: string[], path: string): string[] | null {
  if (related.length === 0) return null;
  const data = parseNote(text, path).data;
  const raw = data?.related_to;
  const existing: string[] = [];
  const items: unknown[] = Array.isArray(raw)
    ? raw
    : raw === undefined || raw === null
      ? []
      : [raw];
  for (const v of items) {
    const flat =
      Array.isArray(v) && v.length === 1 && Array.isArray(v[0]) ? (v[0] as unknown[]) : v;
    const value: unknown = Array.isArray(flat) && flat.length === 1 ? flat[0] : flat;
    if (typeof value === "string" && value.trim()) existing.push(linkTarget(value));
  }
  const merged = uniqueLinks([...existing, ...related]);
  if (merged.length === uniqueLinks(existing).length) return null;
  return merged.map(toWikilink);
}

/** Link targets for titles, paths or wikilinks: `.md` dropped, duplicates (by {@link topicKey}) removed. */
function uniqueLinks(values: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const v of values) {
    const target = linkTarget(v).replace(/\.md$/i, "");
    const k = topicKey(target);
    if (!k || seen.has(k)) continue;
    seen.add(k);
    out.push(target);
  }
  return out;
}
