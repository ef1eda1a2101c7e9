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
import { appendLines, insertLines } from "../markdown/lines";
import type { EditResult } from "../trackers/store";
import { err, ok } from "../util/result";
import { linkTarget, toWikilink } from "../markdown/wikilinks";
import {
  addSourceToEntry,
  TopicBody,
  blockIdsIn,
  entryEnd,
  entryTextKey,
  firstAtOrAfter,
  formatCallout,
  type EntryChanges,
  type EntryKind,
  type TopicEntry,
} from "./callouts";
import { topicId, topicKey } from "./topic-key";
import { collapseWhitespace } from "../markdown/text";
import { isSuperseded, supersedeCallout, supersedeIn } from "./supersede";

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

  const note = new TopicBody(current);
  appendToBody(note, entry, path);
  const body = note.text();
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
  const note = new TopicBody(text);
  const entry =
    typeof match === "number"
      ? note.entries[match]
      : note.entries.find((e) => entryTextKey(e.text) === entryTextKey(match));
  if (!entry)
    return err({ found: false, message: `no callout ${JSON.stringify(match)} in ${path}` });
  if (!addSourceIn(note, entry, link, path)) return ok({ text, changed: false });
  const out = note.text();
  return ok({ text: out, changed: out !== text });
}

/**
 * {@link appendTopicEntry} without the frontmatter: adds the entry (or its source, to the same
 * entry) to a parsed note in place. @returns whether the note changed. Throws
 * {@link FrontmatterError} when the note's frontmatter does not parse.
 */
export function appendToBody(note: TopicBody, entry: TopicEntryInput, path: string): boolean {
  assertBody(note, path);
  // A superseded callout is history: the same text again is a new entry (docs/contradictions.md).
  const same = note.sameEntry(entry.kind, entry.text, (e) => !isSuperseded(e.fields));
  if (same) return addSourceToBody(note, same, entry.source);
  insertCallout(note, entry);
  return true;
}

/**
 * {@link addEntrySource} on a parsed note, for one of its {@link TopicBody.entries}: @returns
 * whether the note changed. Throws {@link FrontmatterError} when the note's frontmatter does not parse.
 */
export function addSourceIn(
  note: TopicBody,
  entry: TopicEntry,
  link: string,
  path: string,
): boolean {
  assertBody(note, path);
  return addSourceToBody(note, entry, link);
}

function addSourceToBody(note: TopicBody, entry: TopicEntry, link: string): boolean {
  let changed = false;
  note.edit(entry.line, entry.endLine, () => {
    changed = addSourceToEntry(note.lines, entry, link, note.eol);
    return changed;
  });
  return changed;
}

function assertBody(note: TopicBody, path: string): void {
  if (note.error !== null)
    throw new FrontmatterError(
      `${path}: frontmatter does not parse, the note is left as it is (${note.error})`,
      path,
    );
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
function insertCallout(note: TopicBody, entry: TopicEntryInput): void {
  const { lines, bodyStart, headings, entries, eol } = note;
  const callout = formatCallout(entry);
  const want = topicKey(entry.heading);
  const hIndex = headings.findIndex((h) => topicKey(h.text) === want);
  const h = headings[hIndex];
  if (!h) {
    const block = [`## ${collapseWhitespace(entry.heading)}`, "", ...callout];
    const lastLine = lines[lines.length - 1];
    if (lines.length > bodyStart && lastLine && lastLine.text.trim() !== "") block.unshift("");
    note.edit(Math.max(0, lines.length - 1), lines.length, () => {
      appendLines(lines, block, eol);
      return true;
    });
    return;
  }
  const next = headings.slice(hIndex + 1).find((x) => x.level <= h.level);
  const sectionEnd = next ? next.line : lines.length;
  // The section's last callout: the last one before its end, if it comes after its heading.
  const before = entries[firstAtOrAfter(entries, sectionEnd, (e) => e.line) - 1];
  const lastEntry = before && before.line > h.line ? before : undefined;
  let at: number;
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
  const above = lines[at - 1];
  if (above && above.text.trim() !== "") block.unshift("");
  const after = lines[at];
  if (after && after.text.trim() !== "") block.push("");
  note.edit(at - 1, at, () => {
    insertLines(lines, at, block, eol);
    return true;
  });
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

/**
 * A topic note's current text under many edits, parsed once (docs/decisions.md, "Applying parses
 * each note once"): {@link append}, {@link addSource} and {@link supersede} change it as
 * {@link appendTopicEntry}, {@link addEntrySource} and {@link supersedeCallout} one after the
 * other change its text, and {@link text} is what they give, with the same errors at the same
 * step. `updated_at` is written once, by {@link text}: setting it again to the same value changes
 * nothing, and it is set only in the frontmatter, which the other edits never touch.
 */
export class TopicEditor {
  private body: TopicBody | null = null;
  private changed = false;
  /** `updated_at` to write, and the note's path for errors, once an append changed the note. */
  private touched: { at: string; path: string } | null = null;
  /** Told when {@link entries} are read anew (a new note): what was known of them is gone. */
  onReset?: () => void;
  /** Told of every edit's changes to {@link entries}. */
  onEdit?: (changes: EntryChanges) => void;

  /** `current`: the note's text, `null` when it does not exist. */
  constructor(private readonly current: string | null) {
    if (current !== null && current.trim() !== "") this.parse(current);
  }

  /** Whether the note exists (it may be blank). */
  exists(): boolean {
    return this.current !== null || this.changed;
  }

  /** Callouts of the note in note order ({@link listTopicEntries}). */
  get entries(): readonly TopicEntry[] {
    return this.body?.entries ?? [];
  }

  /** {@link blockIdsIn} of the note. */
  blockIds(): ReadonlySet<string> {
    return this.body?.blockIds() ?? blockIdsIn(this.current ?? "");
  }

  /** As {@link appendTopicEntry}. */
  append(meta: TopicMeta, entry: TopicEntryInput): void {
    const { body } = this;
    if (!body || meta.related?.length) {
      const text = appendTopicEntry(body ? this.text() : this.current, meta, entry);
      if (text !== (body ? this.text() : this.current)) {
        this.parse(text);
        this.changed = true;
        this.touched = null;
      }
      return;
    }
    const path = meta.path ?? meta.title;
    if (!appendToBody(body, entry, path)) return;
    this.changed = true;
    // The frontmatter is checked where appendTopicEntry would write it, so a note whose
    // frontmatter cannot be written fails at the same item with the same error.
    if (!this.touched) setFrontmatter(body.text(), { updated_at: meta.createdAt }, path);
    this.touched = { at: meta.createdAt, path };
  }

  /** As {@link addEntrySource} for one of {@link entries}. @returns whether the note changed. */
  addSource(entry: TopicEntry, link: string, path: string): boolean {
    if (!this.body || !addSourceIn(this.body, entry, link, path)) return false;
    this.changed = true;
    return true;
  }

  /** As {@link supersedeCallout}. @returns the old callout's block id, or `null` when it is not in the note. */
  supersede(
    match: { id?: string; text: string },
    path: string,
    ids: { newId: string; oldId: string },
    date: string,
  ): { oldId: string } | null {
    if (!this.body) return supersedeCallout(this.current ?? "", match, path, ids, date);
    const marked = supersedeIn(this.body, match, path, ids, date);
    if (marked?.changed) this.changed = true;
    return marked;
  }

  /** The note's text now; `current` itself when nothing changed. */
  text(): string | null {
    if (!this.changed || !this.body) return this.current;
    const text = this.body.text();
    return this.touched
      ? setFrontmatter(text, { updated_at: this.touched.at }, this.touched.path)
      : text;
  }

  private parse(text: string): void {
    this.body = new TopicBody(text);
    this.body.onEdit = (changes) => this.onEdit?.(changes);
    this.onReset?.();
  }
}
