/**
 * MemoryLayout: where each layer lives (docs/architecture.md, "The five layers") and path safety
 * (docs/architecture.md, "Invariants"; test/core/layout.test.ts, "case 12: …"). Every folder name comes
 * from {@link Settings}. All returned paths are vault-relative with `/`.
 */
import { PathError } from "./errors";
import { stripWikilinkBrackets } from "./markdown/wikilinks";
import type { Settings, TrackerKind } from "./settings";

/** What part of memory a note belongs to (docs/architecture.md, "The index" `collection`). */
export type Collection = "journal" | "tracker" | "knowledge" | "library" | "isolated" | "other";

/** Characters no file system allows in a name: `\ / : * ? " < > |` and C0/DEL control characters. */
function isUnsafeChar(ch: string): boolean {
  const code = ch.codePointAt(0) ?? 0;
  return code < 0x20 || code === 0x7f || '\\/:*?"<>|'.includes(ch);
}

/**
 * Device names Windows reserves whatever the case or extension (`CON`, `con.md`, `Com1.txt`):
 * such a file cannot be created or opened there, so a vault synced to Windows would break.
 * See https://learn.microsoft.com/en-us/windows/win32/fileio/naming-a-file#naming-conventions
 */
const WINDOWS_RESERVED =
  /^(con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])(?=\s*(\.|$))/i;

/**
 * Turns a title chosen by a person or a model into a safe file name stem (test/core/layout.test.ts,
 * "case 11: …"): Unicode kept, only characters no file system allows (`\ / : * ? " < > |`, control
 * characters) become `-`, a leading dot is removed, whitespace collapsed, and the result capped at
 * 120 characters (code points, so a character is never cut in half). Trailing dots and spaces,
 * which Windows drops, are removed, and a Windows device name (`CON`, `NUL`, `COM1`, `LPT1`…, any
 * case, with or without an extension) gets a `_` after it (`CON_`, `con_.txt`).
 * Also strips `[[ ]]` and `#` heading/block suffixes that Obsidian would misread in a wikilink.
 * @returns the stem, or `null` when nothing usable is left (the caller must reject the item).
 */
export function sanitizeFileName(title: string): string | null {
  let name = stripWikilinkBrackets(title.normalize("NFC")).replace(/[#^[\]]/g, " ");
  name = Array.from(name, (ch) => (isUnsafeChar(ch) ? "-" : ch))
    .join("")
    .replace(/\s+/g, " ")
    .trim();
  name = name.replace(/^[.\s-]+/, "");
  const chars = Array.from(name);
  if (chars.length > 120) name = chars.slice(0, 120).join("");
  name = name.replace(/[.\s]+$/, "");
  if (!name || /^-+$/.test(name)) return null;
  return name.replace(WINDOWS_RESERVED, "$1_");
}

/**
 * Normalises a vault-relative path: `\` → `/`, duplicate and trailing slashes removed.
 * Throws {@link PathError} for absolute paths or `..` / `.` segments
 * (test/core/layout.test.ts, "case 12: …").
 */
export function normalizeVaultPath(path: string): string {
  const p = path.replace(/\\/g, "/").replace(/\/+/g, "/").replace(/^\.\//, "").replace(/\/$/, "");
  if (p.startsWith("/") || /^[A-Za-z]:/.test(p))
    throw new PathError(`absolute path not allowed: ${path}`, path);
  if (p.split("/").some((seg) => seg === ".." || seg === ".")) {
    throw new PathError(`path leaves its folder: ${path}`, path);
  }
  return p;
}

/** Joins path segments with `/`, skipping empty ones. */
export function joinPath(...parts: string[]): string {
  return parts.filter((p) => p !== "").join("/");
}

/**
 * What an agent name may be, for messages
 * (test/cli/cli.process.test.ts, "… a bad agent name says what is allowed"): it is a folder name, so what
 * {@link sanitizeFileName} keeps as it is.
 */
export const AGENT_NAME_RULE =
  "an agent name is its folder's name: letters, digits, spaces and - _ . are fine; not / \\ : * ? \" < > | # ^ [ ], not a leading . or -, at most 120 characters";

export class MemoryLayout {
  constructor(readonly settings: Settings) {}

  /** The memory root folder (`""` = the whole vault). */
  get root(): string {
    return this.settings.memoryRoot.replace(/^\/+|\/+$/g, "");
  }

  /** `Memory/Agents`. */
  get agentsRoot(): string {
    return joinPath(this.root, this.settings.agentsFolder);
  }

  /** `Memory/Library`. */
  get libraryRoot(): string {
    return joinPath(this.root, this.settings.libraryFolder);
  }

  /** `Memory/Agents/<agent>`. Throws {@link PathError} for an unsafe agent name, saying what is allowed ({@link AGENT_NAME_RULE}). */
  agentRoot(agent: string): string {
    const safe = sanitizeFileName(agent);
    if (!safe || safe !== agent.trim())
      throw new PathError(`invalid agent name: ${agent} (${AGENT_NAME_RULE})`, agent);
    return joinPath(this.agentsRoot, safe);
  }

  journalFolder(agent: string): string {
    return joinPath(this.agentRoot(agent), this.settings.journalFolder);
  }

  /** Journal note for a date (`YYYY-MM-DD`) using the journal pattern. */
  journalPath(agent: string, date: string): string {
    const [y = "", m = "", d = ""] = date.split("-");
    const name = this.settings.journalPattern
      .replace(/YYYY/g, y)
      .replace(/MM/g, m)
      .replace(/DD/g, d);
    return this.under(joinPath(this.journalFolder(agent), `${name}.md`));
  }

  trackersFolder(agent: string): string {
    return joinPath(this.agentRoot(agent), this.settings.trackersFolder);
  }

  /** `Memory/Agents/<agent>/Trackers/Tasks.md` etc. */
  trackerPath(agent: string, kind: TrackerKind): string {
    return joinPath(this.trackersFolder(agent), `${this.settings.trackerFiles[kind]}.md`);
  }

  knowledgeFolder(agent: string): string {
    return joinPath(this.agentRoot(agent), this.settings.knowledgeFolder);
  }

  /**
   * Topic note path under the agent's knowledge folder (test/core/layout.test.ts, "case 11: …";
   * test/core/layout.test.ts, "case 12: …"). The topic is sanitised; an unknown category falls back to
   * the first configured one. Throws {@link PathError} when the topic leaves no usable name.
   */
  topicPath(agent: string, topic: string, category?: string): string {
    const stem = sanitizeFileName(topic);
    if (!stem)
      throw new PathError(
        `topic name is empty after removing unsafe characters: ${JSON.stringify(topic)}`,
        topic,
      );
    const cats = this.settings.knowledgeCategories;
    const cat = category && cats.includes(category) ? category : (cats[0] ?? "learning");
    return this.under(joinPath(this.knowledgeFolder(agent), cat, `${stem}.md`));
  }

  /** Library topic note path (`Memory/Library/<area>/<Topic>.md`). */
  libraryPath(area: string, topic: string): string {
    const a = sanitizeFileName(area);
    const stem = sanitizeFileName(topic);
    if (!a || !stem) throw new PathError(`invalid library area or topic: ${area}/${topic}`, topic);
    return this.under(joinPath(this.libraryRoot, a, `${stem}.md`));
  }

  /** Folder of an isolated zone (`Memory/Restricted`). */
  zoneRoot(zone: string): string {
    return joinPath(this.root, zone);
  }

  /** True when `path` is inside the memory root. */
  isInside(path: string): boolean {
    const root = this.root;
    return root === "" || path === root || path.startsWith(`${root}/`);
  }

  /**
   * Returns `path` normalised when it stays under the memory root; throws {@link PathError}
   * otherwise (docs/architecture.md, "Invariants"; test/core/layout.test.ts, "case 12: …").
   */
  under(path: string): string {
    const p = normalizeVaultPath(path);
    if (!this.isInside(p))
      throw new PathError(`path is outside the memory root "${this.root}": ${path}`, path);
    return p;
  }

  /** The agent owning a path (`Memory/Agents/<agent>/…`), or `null`. */
  agentOf(path: string): string | null {
    const prefix = `${this.agentsRoot}/`;
    if (!path.startsWith(prefix)) return null;
    // The first folder under the agents root, when the path goes on below it.
    const slash = path.indexOf("/", prefix.length);
    return slash > prefix.length ? path.slice(prefix.length, slash) : null;
  }

  /** The isolated zone a path is in, or `null`. */
  zoneOf(path: string): string | null {
    for (const zone of this.settings.isolatedZones) {
      const root = this.zoneRoot(zone);
      if (path === root || path.startsWith(`${root}/`)) return zone;
    }
    return null;
  }

  /** Which layer a note belongs to, from its path. */
  collectionOf(path: string): Collection {
    if (!this.isInside(path)) return "other";
    if (this.zoneOf(path)) return "isolated";
    if (path.startsWith(`${this.libraryRoot}/`)) return "library";
    const agent = this.agentOf(path);
    if (!agent) return "other";
    const rest = path.slice(this.agentRoot(agent).length + 1);
    const top = rest.split("/")[0];
    if (top === this.settings.journalFolder) return "journal";
    if (top === this.settings.trackersFolder) return "tracker";
    if (top === this.settings.knowledgeFolder) return "knowledge";
    return "other";
  }

  /** Agents found under the agents folder, from a list of note paths. Sorted. */
  agentsIn(paths: Iterable<string>): string[] {
    const agents = new Set<string>();
    for (const p of paths) {
      const a = this.agentOf(p);
      if (a) agents.add(a);
    }
    return [...agents].sort();
  }
}
