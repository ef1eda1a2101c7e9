/**
 * Wikilinks and their resolution, as Obsidian resolves them (https://help.obsidian.md/links):
 * `[[path#heading|alias]]`, `[[path#^blockid]]`; the path may be the full vault path, a path
 * relative to the linking note (`./`, `../`), or any trailing part of a path (usually the bare
 * file name), matched without regard to case. The one wikilink parser ({@link findWikilinks},
 * {@link parseWikilinkTarget}) and formatter ({@link formatWikilink}) of the project: the health
 * check's link rules, tracker sources, topic notes, review notes, the CLI and the MCP tools all use
 * them. Block ids and headings a link can point at are src/core/markdown/anchors.ts.
 */

/** A wikilink taken apart. */
export interface Wikilink {
  /** The link as written, brackets included. */
  raw: string;
  /** Path part (may be empty for a link into the same note, `[[#^id]]`). */
  path: string;
  /** Block id after `#^`, or `null`. */
  blockId: string | null;
  /** Heading after `#` (not a block id), or `null`. */
  heading: string | null;
}

const WIKILINK_RE = /!?\[\[([^[\]\r\n]+?)\]\]/g;

/** Splits the inside of `[[…]]` into path, heading and block id (alias dropped). */
export function parseWikilinkTarget(inner: string, raw = `[[${inner}]]`): Wikilink {
  const target = (inner.split("|")[0] ?? "").trim();
  const hash = target.indexOf("#");
  const path = (hash < 0 ? target : target.slice(0, hash)).trim();
  const anchor = hash < 0 ? "" : target.slice(hash + 1).trim();
  if (anchor.startsWith("^")) return { raw, path, blockId: anchor.slice(1), heading: null };
  // A nested heading link `#A#B` names the last heading.
  const heading = anchor ? (anchor.split("#").filter(Boolean).pop() ?? null) : null;
  return { raw, path, blockId: null, heading };
}

/** Every wikilink (and embed) in a text, in order. */
export function findWikilinks(text: string): Wikilink[] {
  const out: Wikilink[] = [];
  for (const m of text.matchAll(WIKILINK_RE)) out.push(parseWikilinkTarget(m[1] ?? "", m[0]));
  return out;
}

/**
 * A text with each wikilink (and embed) replaced by what `render` returns for it, given the link
 * taken apart, its inside as written (`path#anchor|alias`) and its alias (`null` when none).
 */
export function replaceWikilinks(
  text: string,
  render: (link: Wikilink, inner: string, alias: string | null) => string,
): string {
  return text.replace(WIKILINK_RE, (raw, inner: string) => {
    const bar = inner.indexOf("|");
    return render(parseWikilinkTarget(inner, raw), inner, bar < 0 ? null : inner.slice(bar + 1));
  });
}

/** What a wikilink is made of, for {@link formatWikilink}. */
export interface WikilinkParts {
  /** The note: a vault path or a name; a trailing `.md` is dropped, as Obsidian writes links. */
  path: string;
  /** A block id (without `^`); wins over `heading`. */
  blockId?: string | null;
  /** A heading (without `#`). */
  heading?: string | null;
  /** Text shown instead of the target. */
  alias?: string | null;
}

/** `[[path#^blockId|alias]]` or `[[path#heading|alias]]`, each part only when given. */
export function formatWikilink(parts: WikilinkParts): string {
  const path = parts.path.replace(/\.md$/i, "");
  const anchor = parts.blockId ? `#^${parts.blockId}` : parts.heading ? `#${parts.heading}` : "";
  const alias = parts.alias ? `|${parts.alias}` : "";
  return `[[${path}${anchor}${alias}]]`;
}

/**
 * The inside of a wikilink written with or without its brackets: the text trimmed, then a leading
 * `[[` and a trailing `]]` removed, each when present (`[[Note|alias]]` → `Note|alias`).
 */
export function unwrapWikilink(link: string): string {
  return link.trim().replace(/^\[\[/, "").replace(/\]\]$/, "");
}

/** `[[target]]` for a target or a wikilink (its inside kept as written, see {@link unwrapWikilink}). */
export function toWikilink(link: string): string {
  return `[[${unwrapWikilink(link)}]]`;
}

/** Target of a wikilink or bare target (`path#anchor`): brackets and `|alias` removed, trimmed. */
export function linkTarget(link: string): string {
  const l = unwrapWikilink(link);
  const bar = l.indexOf("|");
  return (bar < 0 ? l : l.slice(0, bar)).trim();
}

/** Targets (`path#anchor`, see {@link linkTarget}) of the wikilinks in a field value or source line, in order. */
export function wikilinkTargets(value: string): string[] {
  return findWikilinks(value).map((l) => linkTarget(l.raw.replace(/^!/, "")));
}

/**
 * A text with the brackets of its wikilinks taken away, each `[[` and `]]` replaced by
 * `replacement`: how titles, topic keys and duplicate checks read a link as its words.
 */
export function stripWikilinkBrackets(text: string, replacement = ""): string {
  return text.replace(/\[\[|\]\]/g, replacement);
}

/**
 * A text with its wikilinks as Obsidian shows them
 * (test/core/health/health-rules.test.ts, "shows wikilinks as Obsidian does …"): `[[target|alias]]` is the
 * alias, `[[Folder/Note]]` the note's name,
 * `[[Note#Heading]]` `Note > Heading`, `[[Note#^id]]` the note's name; an embed `![[…]]` the same.
 */
export function wikilinkDisplayText(text: string): string {
  return replaceWikilinks(text, (link, inner, alias) => {
    if (alias?.trim()) return alias.trim();
    const name = link.path.split("/").pop() ?? link.path;
    if (link.heading) return name ? `${name} > ${link.heading}` : link.heading;
    return name || (link.blockId ? `^${link.blockId}` : inner);
  });
}

/**
 * Reads one frontmatter value that should be a single wikilink: `"[[Topic]]"` (quoted in YAML, so a
 * string here). Returns `null` for anything else.
 */
export function asWikilink(value: unknown): Wikilink | null {
  if (typeof value !== "string") return null;
  const m = /^\s*!?\[\[([^[\]\r\n]+?)\]\]\s*$/.exec(value);
  return m ? parseWikilinkTarget(m[1] ?? "", value.trim()) : null;
}

function stripMd(p: string): string {
  return p.toLowerCase().endsWith(".md") ? p.slice(0, -3) : p;
}

/**
 * The note name of a vault path, as Obsidian shows it and a bare wikilink names it: the file name
 * without its folder and without a trailing `.md` (any case); another extension stays
 * (`Memory/Agents/a/Journal/2026-11-24.md` → `2026-11-24`, `Library/SEO.MD` → `SEO`,
 * `files/chart.png` → `chart.png`). A path ending in `/` gives `""`. The one home of this rule
 * (test/core/markdown/markdown-wikilinks.test.ts, "note names").
 */
export function noteName(path: string): string {
  return stripMd(path.slice(path.lastIndexOf("/") + 1));
}

function folderOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}

/** True when a link path names a file other than a Markdown note (`image.png`, `doc.pdf`). */
export function isAttachmentLink(linkPath: string): boolean {
  const base = linkPath.split("/").pop() ?? "";
  const dot = base.lastIndexOf(".");
  if (dot <= 0) return false;
  const ext = base.slice(dot + 1).toLowerCase();
  return ext !== "md" && /^[a-z0-9]{1,5}$/.test(ext);
}

/**
 * Resolves link paths to the vault's Markdown notes. Built once from the vault's list of notes;
 * each lookup is a hash-map access, so a 10k-note vault checks fast.
 */
export class LinkResolver {
  /** Lower-cased path without `.md` → the real path. */
  private readonly byPath = new Map<string, string>();
  /** Lower-cased file name without `.md` → real paths, shortest first. */
  private readonly byName = new Map<string, string[]>();

  constructor(paths: Iterable<string>) {
    for (const p of paths) {
      this.byPath.set(stripMd(p).toLowerCase(), p);
      const name = noteName(p).toLowerCase();
      const list = this.byName.get(name);
      if (list) list.push(p);
      else this.byName.set(name, [p]);
    }
    for (const list of this.byName.values())
      list.sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
  }

  /**
   * The note a link path points to from the note at `from`, or `null`. An empty link path is the
   * linking note itself. Order: a relative path (`./`, `../`); the exact vault path; among the notes
   * whose path ends with the link path, the one sharing the most folders with the linking note, then
   * the shortest. So `[[2026-03-24#^am-k3f9]]` in an agent's tracker reaches that agent's journal
   * when several agents have a journal of that day (Obsidian prefers the linking note's own folder,
   * then the shortest path; with the name in two agents' folders, such a short link is ambiguous).
   */
  resolve(linkPath: string, from: string): string | null {
    const lp = stripMd(linkPath.trim().replace(/\\/g, "/").replace(/^\/+/, ""));
    if (lp === "") return from;
    if (lp.startsWith("./") || lp.startsWith("../")) {
      const parts = folderOf(from).split("/").filter(Boolean);
      for (const seg of lp.split("/")) {
        if (seg === "..") parts.pop();
        else if (seg !== "." && seg !== "") parts.push(seg);
      }
      return this.byPath.get(parts.join("/").toLowerCase()) ?? null;
    }
    const key = lp.toLowerCase();
    const exact = this.byPath.get(key);
    if (exact) return exact;
    const name = key.slice(key.lastIndexOf("/") + 1);
    const all = this.byName.get(name);
    if (!all) return null;
    const candidates = key.includes("/")
      ? all.filter((c) => stripMd(c).toLowerCase().endsWith(`/${key}`))
      : all;
    if (candidates.length <= 1) return candidates[0] ?? null;
    const fromFolders = folderOf(from).toLowerCase().split("/");
    let best: string | null = null;
    let bestShared = -1;
    for (const c of candidates) {
      const folders = folderOf(c).toLowerCase().split("/");
      let shared = 0;
      while (
        shared < folders.length &&
        shared < fromFolders.length &&
        folders[shared] === fromFolders[shared]
      )
        shared++;
      // Candidates are sorted shortest first, so a tie keeps the shorter path.
      if (shared > bestShared) {
        best = c;
        bestShared = shared;
      }
    }
    return best;
  }
}

/** Characters a wikilink cannot hold in a note's name: they end the target (`#`, `^`, `|`) or the link (`[`, `]`). */
const LINK_BREAKING = /[#^|[\]]/g;

/**
 * The characters of a vault path's file name that no wikilink to it can hold (`#`, `^`, `|`, `[`,
 * `]`: Obsidian, too, refuses them in new file names), in order of appearance and without repeats;
 * empty when every link to the note works.
 */
export function linkBreakingCharacters(path: string): string[] {
  const name = noteName(path);
  return [...new Set(name.match(LINK_BREAKING) ?? [])];
}
