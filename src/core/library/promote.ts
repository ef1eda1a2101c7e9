/**
 * Promotion to the shared library (docs/inbox.md): a whole note, or one callout
 * of a note (`note#^block`), is copied into `<library folder>/<area>/<note name>.md` with where it
 * came from, and the source gets a link to the copy. Only a person promotes (the CLI's
 * `promote --yes`, the plugin after its review modal, or accepting an agent's promotion proposal);
 * an agent can only propose one ({@link promotionProposal}). Content of an isolated zone is never
 * promoted, whoever asks.
 *
 * - A note's copy keeps the source's text and frontmatter, with `id: library-<id>`, `type:
 *   library`, `promoted_from: "[[source]]"` and `promoted_at: YYYY-MM-DD`; the source gets
 *   `promoted_to: "[[copy]]"` in its frontmatter.
 * - A callout's copy is appended to the library note (created when missing) with a line
 *   `> [promoted_from:: [[source#^id]]] [promoted_at:: YYYY-MM-DD]` and its own block id, and the
 *   library note's frontmatter records it too, as a whole note's copy does: `promoted_from` lists
 *   the source callouts (`["[[source#^id]]"]`), `promoted_at` is the latest day; the source callout
 *   gets a line `> [promoted_to:: [[copy#^id]]]`.
 *
 * Promoting the same thing again changes nothing. Every write is one `VaultPort.process` of the
 * note's current content; the rest of each note is kept byte for byte.
 */
import { PathError, UsageError } from "../errors";
import { parseNote, setFrontmatter } from "../frontmatter";
import { normalizeVaultPath, sanitizeFileName, type MemoryLayout } from "../layout";
import type { VaultPort } from "../vault";
import { scanTopicBody, type TopicEntry } from "../knowledge/callouts";
import { topicId } from "../knowledge/topic-key";
import {
  appendLines,
  detectEol,
  joinLines,
  locateFrontmatter,
  splitLines,
  type NoteLine,
} from "../markdown/lines";
import { formatWikilink, linkTarget, noteName } from "../markdown/wikilinks";
import { FIELD_KEYS, STATE_KEY } from "../trackers/fields";

/** Fields of a promotion proposal (docs/inbox.md): what to promote and where. */
export const PROMOTE_KEY = "promote";
export const AREA_KEY = "area";
/** Field written on an accepted promotion proposal: the library copy. */
export const PROMOTED_TO_KEY = "promoted_to";

/** A note, or a block of it, to promote. */
export interface PromotionSource {
  /** Vault path of the note (`.md` added when missing). */
  path: string;
  /** The callout's block id (without `^`), or `null` for the whole note. */
  blockId: string | null;
}

/** What a promotion will write; shown as it is by the CLI (without `--yes`) and the plugin's modal. */
export interface PromotionPlan {
  source: PromotionSource;
  /** `[[source]]` or `[[source#^id]]`. */
  sourceLink: string;
  area: string;
  /** Vault path of the library note. */
  destination: string;
  /** `[[copy]]` or `[[copy#^id]]`. */
  destinationLink: string;
  /** The whole note (for a note) or the callout lines appended (for a callout), exactly as written. */
  content: string;
  /** What the source gets: its frontmatter field, or the callout line. */
  sourceAddition: string;
  /** `YYYY-MM-DD` written as `promoted_at`. */
  date: string;
  /** True when it was promoted before: applying writes nothing (or only a missing source link). */
  already: boolean;
}

/** What {@link planPromotion} needs. */
export interface PromotionRequest {
  /** `path`, `path#^block`, or a wikilink to either. */
  target: string;
  area: string;
  /** Day of the promotion, `YYYY-MM-DD`. */
  date: string;
  /** ISO 8601 timestamp for `created_at` of a new library note. */
  timestamp: string;
  /**
   * The vault path a path really leads to (symbolic links followed), when the vault can tell
   * (`NodeVault.resolve`): a link into an isolated zone is refused as the zone itself is.
   */
  realPath?: (path: string) => string;
}

/**
 * Reads a promotion target: `Memory/…/Note.md`, `Memory/…/Note#^block`, or `[[…]]` around either.
 * The path goes through the layout's guard (no absolute path, no `..`, inside the memory root).
 * @throws PathError for a path the guard refuses; UsageError for an empty one or a heading link
 */
export function parsePromotionTarget(layout: MemoryLayout, target: string): PromotionSource {
  const raw = linkTarget(target.trim());
  const hash = raw.indexOf("#");
  const note = (hash < 0 ? raw : raw.slice(0, hash)).trim();
  const sub = hash < 0 ? "" : raw.slice(hash + 1).trim();
  if (note === "") throw new UsageError(`no note to promote in ${JSON.stringify(target)}`);
  if (sub !== "" && !/^\^[A-Za-z0-9-]+$/.test(sub))
    throw new UsageError(`promote a note or a callout (note#^block), not a heading: ${target}`);
  let path = normalizeVaultPath(note);
  if (!/\.md$/i.test(path)) path = `${path}.md`;
  return { path: layout.under(path), blockId: sub === "" ? null : sub.slice(1) };
}

/**
 * Checks a library area name: a single folder name, as {@link sanitizeFileName} keeps it (no `/`,
 * `\`, `..`, leading dot or reserved characters).
 * @returns the area, trimmed
 * @throws PathError naming the area otherwise
 */
export function checkArea(area: string): string {
  const a = area.trim();
  if (a === "" || sanitizeFileName(a) !== a || a.includes("..")) {
    throw new PathError(
      `invalid library area ${JSON.stringify(area)}: one folder name, without / \\ .. or : * ? " < > | # ^ [ ]`,
      area,
    );
  }
  return a;
}

/**
 * Refuses a source that may not be promoted: in an isolated zone (also through a link), already in
 * the library, or outside the memory root.
 * @throws PathError with the reason
 */
export function checkPromotable(
  layout: MemoryLayout,
  path: string,
  realPath?: (path: string) => string,
): void {
  const paths = [path, ...(realPath ? [realPath(path)] : [])];
  for (const p of paths) {
    const zone = layout.zoneOf(p);
    if (zone !== null) {
      const via = p === path ? "" : ` (it leads to ${p})`;
      throw new PathError(
        `${path} is in the isolated zone ${zone}${via}: content of an isolated zone is never promoted to the library`,
        path,
      );
    }
    if (!layout.isInside(p))
      throw new PathError(`${path} leads outside the memory root; refused`, path);
  }
  if (layout.collectionOf(path) === "library")
    throw new UsageError(`${path} is already in the library`, path);
}

const BLOCK_AT_END = /[ \t]\^([A-Za-z0-9-]+)[ \t]*$/;
const STANDALONE = /^[ \t]*\^([A-Za-z0-9-]+)[ \t]*$/;

/** A callout of a note with its block id: on its last line (`… ^id`), or on the line after it (`^id`), or after one blank line. */
interface IdCallout {
  entry: TopicEntry;
  id: string;
  /** True when the id is on the callout's last line. */
  inline: boolean;
}

function calloutsWithIds(lines: readonly NoteLine[], text: string): IdCallout[] {
  const { entries } = scanTopicBody(lines, locateFrontmatter(text, lines).bodyStart);
  const out: IdCallout[] = [];
  for (const entry of entries) {
    const last = lines[entry.endLine - 1]?.text ?? "";
    const inline = BLOCK_AT_END.exec(last)?.[1];
    // On the next line, or after one blank line: the form supersession writes and Obsidian reads
    // as the callout's id (docs/contradictions.md, "What is written").
    const next = lines[entry.endLine]?.text ?? "";
    const after =
      STANDALONE.exec(next)?.[1] ??
      (next.trim() === "" ? STANDALONE.exec(lines[entry.endLine + 1]?.text ?? "")?.[1] : undefined);
    if (inline) out.push({ entry, id: inline, inline: true });
    else if (after) out.push({ entry, id: after, inline: false });
  }
  return out;
}

const link = (path: string, id?: string | null) => formatWikilink({ path, blockId: id });
const quoted = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The promoted copy of `sourceLink` in a library note's lines: its block id, or `undefined`. */
function copyIn(lines: readonly NoteLine[], text: string, sourceLink: string): string | undefined {
  const re = new RegExp(`\\[promoted_from::\\s*${quoted(sourceLink)}\\s*\\]`);
  for (const c of calloutsWithIds(lines, text)) {
    for (let j = c.entry.line; j < c.entry.endLine; j++)
      if (re.test(lines[j]?.text ?? "")) return c.id;
  }
  return undefined;
}

/** All block ids used in a note's lines. */
function usedIds(lines: readonly NoteLine[]): Set<string> {
  const ids = new Set<string>();
  for (const l of lines) {
    const m = BLOCK_AT_END.exec(l.text) ?? STANDALONE.exec(l.text);
    if (m?.[1]) ids.add(m[1]);
  }
  return ids;
}

/**
 * Plans a promotion (reads only). Throws, changing nothing, for: a target the layout's guard
 * refuses, an invalid area ({@link checkArea}), a source in an isolated zone or already in the
 * library ({@link checkPromotable}), a missing note, no callout with that block id, a note whose
 * frontmatter does not parse, or a library note of that name that is not a promoted copy of this
 * source (a note) — each a {@link UsageError}, {@link PathError} or `FrontmatterError` naming it.
 */
export async function planPromotion(
  vault: Pick<VaultPort, "exists" | "read">,
  layout: MemoryLayout,
  req: PromotionRequest,
): Promise<PromotionPlan> {
  const area = checkArea(req.area);
  const source = parsePromotionTarget(layout, req.target);
  checkPromotable(layout, source.path, req.realPath);
  if (!(await vault.exists(source.path)))
    throw new UsageError(`no note ${source.path} to promote`, source.path);
  const text = await vault.read(source.path);
  const stem = noteName(source.path);
  const destination = layout.libraryPath(area, stem);
  const sourceLink = link(source.path, source.blockId);
  const existing = (await vault.exists(destination)) ? await vault.read(destination) : null;
  if (source.blockId === null)
    return planNote(text, source, sourceLink, area, destination, existing, req);
  return planCallout(text, source, source.blockId, sourceLink, area, destination, existing, req);
}

function planNote(
  text: string,
  source: PromotionSource,
  sourceLink: string,
  area: string,
  destination: string,
  existing: string | null,
  req: PromotionRequest,
): PromotionPlan {
  const destinationLink = link(destination);
  const sourceAddition = `promoted_to: "${destinationLink}"`;
  if (existing !== null) {
    const from = promotedFrom(parseNote(existing, destination).data)[0];
    if (from === undefined || linkTarget(from) !== linkTarget(sourceLink)) {
      throw new UsageError(
        `${destination} already exists and is not a promoted copy of ${source.path}; choose another area or rename one of them`,
        destination,
      );
    }
    return {
      source,
      sourceLink,
      area,
      destination,
      destinationLink,
      content: existing,
      sourceAddition,
      date: req.date,
      already: true,
    };
  }
  const data = parseNote(text, source.path).data ?? {};
  const id =
    typeof data.id === "string" && data.id.trim() ? data.id.trim() : topicId(noteName(source.path));
  const content = setFrontmatter(
    text,
    {
      id: `library-${id.replace(/^library-/, "")}`,
      type: "library",
      status: typeof data.status === "string" ? undefined : "active",
      created_at: data.created_at === undefined ? req.timestamp : undefined,
      promoted_from: sourceLink,
      promoted_at: req.date,
    },
    source.path,
  );
  return {
    source,
    sourceLink,
    area,
    destination,
    destinationLink,
    content,
    sourceAddition,
    date: req.date,
    already: false,
  };
}

function planCallout(
  text: string,
  source: PromotionSource,
  blockId: string,
  sourceLink: string,
  area: string,
  destination: string,
  existing: string | null,
  req: PromotionRequest,
): PromotionPlan {
  const { lines } = splitLines(text);
  const callout = calloutsWithIds(lines, text).find((c) => c.id === blockId);
  if (!callout)
    throw new UsageError(
      `no callout with ^${blockId} in ${source.path} (a whole note or one callout is promoted)`,
      source.path,
    );
  const destLines = existing === null ? [] : splitLines(existing).lines;
  const before = existing === null ? undefined : copyIn(destLines, existing, sourceLink);
  if (before !== undefined) {
    const destinationLink = link(destination, before);
    return {
      source,
      sourceLink,
      area,
      destination,
      destinationLink,
      content: "",
      sourceAddition: `> [promoted_to:: ${destinationLink}]`,
      date: req.date,
      already: true,
    };
  }
  const taken = usedIds(destLines);
  let id = blockId;
  for (let n = 2; taken.has(id); n++) id = `${blockId}-${n}`;
  const body = lines
    .slice(callout.entry.line, callout.entry.endLine)
    .map((l) => l.text)
    .filter((t) => !/\[promoted_to::/.test(t));
  const lastIndex = body.length - 1;
  if (callout.inline && lastIndex >= 0)
    body[lastIndex] = (body[lastIndex] ?? "").replace(BLOCK_AT_END, "");
  const copy = [...body, `> [promoted_from:: ${sourceLink}] [promoted_at:: ${req.date}]`, `^${id}`];
  const destinationLink = link(destination, id);
  return {
    source,
    sourceLink,
    area,
    destination,
    destinationLink,
    content: copy.join("\n"),
    sourceAddition: `> [promoted_to:: ${destinationLink}]`,
    date: req.date,
    already: false,
  };
}

/**
 * The links of a library note's `promoted_from`: one for a whole note's copy (the first is the note
 * it copies), one per callout copied in; `[]` when it has none.
 */
function promotedFrom(data: Record<string, unknown> | null | undefined): string[] {
  const v = data?.promoted_from;
  return (Array.isArray(v) ? v : [v]).filter((l): l is string => typeof l === "string");
}

/**
 * The library note's frontmatter after a callout's copy is appended, as a whole note's copy records
 * it: `promoted_from` lists every source callout copied in (a list of quoted wikilinks, oldest
 * first; a single link written before is kept as the first), `promoted_at` is the latest day.
 */
function recordCalloutSource(text: string, plan: PromotionPlan, destination: string): string {
  const links = promotedFrom(parseNote(text, destination).data);
  const known = links.some((l) => linkTarget(l) === linkTarget(plan.sourceLink));
  return setFrontmatter(
    text,
    { promoted_from: known ? links : [...links, plan.sourceLink], promoted_at: plan.date },
    destination,
  );
}

/** Frontmatter and heading of a new library note for a callout's copy. */
function newLibraryNote(destination: string, area: string, timestamp: string): string {
  const title = noteName(destination);
  return setFrontmatter(
    `# ${title}\n`,
    {
      id: `library-${topicId(`${area} ${title}`)}`,
      type: "library",
      status: "active",
      created_at: timestamp,
    },
    destination,
  );
}

/**
 * Writes a plan: the library copy, then the link in the source, each one `vault.process` that
 * re-reads the note's current content (a copy already there, or a link already there, is not
 * written again).
 * @param timestamp `created_at` of a library note created for a callout
 * @returns vault paths written (empty when everything was there)
 * @throws UsageError when the source no longer has the callout, or the library note became
 *   something else meanwhile; VaultError / FrontmatterError from the writes
 */
export async function applyPromotion(
  vault: VaultPort,
  plan: PromotionPlan,
  timestamp: string,
): Promise<string[]> {
  const writes: string[] = [];
  const { destination, source } = plan;
  if (!plan.already) {
    const wrote = await vault.process(destination, (current) => {
      if (source.blockId === null) {
        if (current === null) return plan.content;
        const from = promotedFrom(parseNote(current, destination).data)[0];
        if (from !== undefined && linkTarget(from) === linkTarget(plan.sourceLink)) return current;
        throw new UsageError(
          `${destination} appeared meanwhile and is not a copy of ${source.path}; nothing promoted`,
          destination,
        );
      }
      const base = current ?? newLibraryNote(destination, plan.area, timestamp);
      const { bom, lines } = splitLines(base);
      if (copyIn(lines, base, plan.sourceLink) !== undefined) return current;
      const eol = detectEol(lines);
      const tail = lines[lines.length - 1];
      appendLines(
        lines,
        [...(tail && tail.text.trim() !== "" ? [""] : []), ...plan.content.split("\n")],
        eol,
      );
      return recordCalloutSource(joinLines(bom, lines), plan, destination);
    });
    if (wrote) writes.push(destination);
  }
  const linked = await vault.process(source.path, (current) => {
    if (current === null)
      throw new UsageError(
        `${source.path} is gone; the library copy ${destination} stays`,
        source.path,
      );
    if (source.blockId === null)
      return setFrontmatter(current, { promoted_to: plan.destinationLink }, source.path);
    const { bom, lines } = splitLines(current);
    const c = calloutsWithIds(lines, current).find((x) => x.id === source.blockId);
    if (!c)
      throw new UsageError(
        `no callout with ^${source.blockId} in ${source.path} any more; the library copy ${destination} stays`,
        source.path,
      );
    for (let j = c.entry.line; j < c.entry.endLine; j++)
      if ((lines[j]?.text ?? "").includes(plan.sourceAddition.slice(2))) return current;
    const at = c.inline ? c.entry.endLine - 1 : c.entry.endLine;
    const eol = detectEol(lines);
    if (at >= lines.length) appendLines(lines, [plan.sourceAddition], eol);
    else {
      const prev = lines[at - 1];
      if (prev && prev.eol === "") prev.eol = eol;
      lines.splice(at, 0, { text: plan.sourceAddition, eol });
    }
    return joinLines(bom, lines);
  });
  if (linked) writes.push(source.path);
  return writes;
}

/**
 * The plan as lines, as `promote` without `--yes` prints it and the plugin's review modal shows it:
 * source, destination, what the source gets, and every line that will be written (`  | …`).
 */
export function promotionPlanLines(plan: PromotionPlan): string[] {
  if (plan.already)
    return [`already promoted: ${plan.sourceLink} → ${plan.destinationLink}; nothing to write`];
  return [
    `source:      ${plan.sourceLink}`,
    `destination: ${plan.destination}${plan.source.blockId ? " (the callout is appended)" : " (a new note)"}`,
    `the source gets: ${plan.sourceAddition}`,
    "will write:",
    ...plan.content
      .replace(/\n$/, "")
      .split("\n")
      .map((l) => `  | ${l}`),
  ];
}

/** The person's address: `[to:: [[<person>]]]` on a promotion proposal (docs/inbox.md). */
export interface ProposalMeta {
  person: string;
  /** `YYYY-MM-DD`. */
  date: string;
}

/**
 * The tracker item an agent writes in its own `Trackers/Proposals.md` to propose a promotion
 * (the plan is checked first, so a refused promotion is never proposed): addressed to the person,
 * with the source and area as fields that accepting it reads.
 */
export function promotionProposal(
  plan: PromotionPlan,
  meta: ProposalMeta,
): { text: string; fields: [string, string][] } {
  return {
    text: `Promote ${plan.sourceLink} to the library (area ${plan.area})`,
    fields: [
      [STATE_KEY, "proposed"],
      [FIELD_KEYS.to, formatWikilink({ path: meta.person })],
      [PROMOTE_KEY, plan.sourceLink],
      [AREA_KEY, plan.area],
      [FIELD_KEYS.created, meta.date],
    ],
  };
}
