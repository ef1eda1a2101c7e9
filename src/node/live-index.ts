/**
 * The MCP server's warm search index (docs/mcp.md, "Following the disk"): the saved index is opened
 * once, then every change made on disk by anyone (Obsidian, git, an editor, another process, this
 * server) is followed through a file watcher and re-indexed one note at a time with
 * {@link SearchService.update} / {@link SearchService.remove}, so a note saved elsewhere is
 * searchable within a second. The index is saved again a while after the last change and when
 * the server stops, so the next `agent-memory search` starts from it.
 *
 * The watcher ({@link DirWatcher}) watches each folder under the memory root, never a hidden one
 * (`.agent-memory`, `.obsidian`, `.trash`), and bursts of events are coalesced per note
 * ({@link DEBOUNCE_MS}); a search asks {@link LiveIndex.settled} first, so it indexes what the
 * watcher has already seen instead of waiting for the quiet time.
 */
import { lstatSync } from "node:fs";
import * as nodePath from "node:path";
import { errorMessage, isUnreadableNote, unreadableLine } from "../core/errors";
import { LinkResolver } from "../core/markdown/wikilinks";
import type { MemoryLayout } from "../core/layout";
import type { SearchService } from "../core/search/search-service";
import type { NodeVault } from "./node-vault";
import { DirWatcher } from "./dir-watcher";
import { Foreground } from "./event-loop";

/** Quiet time (ms) after a note's last event before it is re-indexed: an editor's save is several events. */
export const DEBOUNCE_MS = 40;
/** Longest (ms) a note that keeps changing waits before it is re-indexed anyway. */
const MAX_WAIT_MS = 200;
/** Quiet time (ms) after the last change before the index is saved to `.agent-memory/`. */
const SAVE_AFTER_MS = 15_000;

/** What `status` reports about the index (times are ms since the epoch). */
export interface LiveStatus {
  notes: number;
  /** Changes seen on disk and not yet in the index. */
  pending: number;
  /** The last change seen, or `null` when none since the server started. */
  lastChange: { path: string; at: number } | null;
  /** When the index was opened, and whether it came from the saved file or was built. */
  openedAt: number;
  source: "saved" | "built";
  /** When the index was last saved to disk (`null`: not since it was opened). */
  savedAt: number | null;
  /** True when the index holds changes that are not saved yet. */
  unsaved: boolean;
  /** False once the watcher is closed; the index then only follows this server's own writes. */
  watching: boolean;
}

export class LiveIndex {
  /**
   * The requests answered over this index (MCP tool calls, served commands): the server's
   * background work waits for them (docs/decisions.md, "Background work waits for requests").
   */
  readonly foreground = new Foreground();
  private watcher: DirWatcher | null = null;
  private readonly pending = new Map<string, { first: number }>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private saveTimer: ReturnType<typeof setTimeout> | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private readonly paths = new Set<string>();
  private resolver: LinkResolver | null = null;
  private lastChange: LiveStatus["lastChange"] = null;
  private savedAt: number | null = null;
  private watching = false;
  private closed = false;
  private readonly listeners: ((path: string) => void)[] = [];
  /** Notes that could not be read, with the reason, as a cold open would report them now. */
  private readonly unreadableNotes = new Map<string, string>();
  private changes = 0;

  /**
   * @param log writes one line to stderr (never stdout: it carries the protocol)
   */
  constructor(
    readonly service: SearchService,
    private readonly vault: NodeVault,
    private readonly layout: MemoryLayout,
    private readonly opened: {
      at: number;
      source: "saved" | "built";
      unreadable?: readonly { path: string; error: string }[];
    },
    private readonly log: (line: string) => void,
  ) {
    for (const u of opened.unreadable ?? []) this.unreadableNotes.set(u.path, u.error);
  }

  /**
   * The notes left out because they could not be read (not UTF-8, a link out of the vault), with
   * the reason: those of the open, then those the watcher met, less those read since.
   */
  unreadable(): { path: string; error: string }[] {
    return [...this.unreadableNotes].map(([path, error]) => ({ path, error }));
  }

  /**
   * Lists the notes under the memory root (for `read_note` by title and link) and starts the
   * watcher. Resolves once the watcher is ready, so a change made after it is seen.
   * @param listed the vault paths the index's open just listed (`OpenReport.listed`), so the vault
   *   is not listed a second time; without it the vault is listed here
   */
  async start(listed?: readonly string[]): Promise<void> {
    const paths =
      listed ?? (await this.vault.list(this.layout.root || undefined)).map((f) => f.path);
    for (const p of paths) this.paths.add(p);
    const rootAbs = this.layout.root ? this.vault.abs(this.layout.root) : this.vault.root;
    this.watcher = new DirWatcher(rootAbs, {
      file: (abs) => this.changed(abs),
      folderGone: (abs) => {
        const prefix = `${this.relative(abs)}/`;
        for (const p of this.paths) if (p.startsWith(prefix)) this.changed(this.vault.abs(p));
      },
      error: (line) => this.log(line),
      // A folder linked out of the vault made since the list: told of as the list tells of one.
      link: (abs) => this.vault.seeLink(this.relative(abs)),
    });
    this.watcher.start();
    this.watching = true;
  }

  /**
   * Calls `listener` with the vault path of each Markdown file the watcher saw change, once it is
   * re-indexed (the server's reconcile, docs/sync.md "Reconcile"). Never for the server's own
   * {@link wrote} calls; the watcher reports those writes too.
   */
  onChange(listener: (path: string) => void): void {
    this.listeners.push(listener);
  }

  /**
   * A counter bumped by every change the watcher sees and every {@link wrote}, before the change
   * is indexed: a value computed from the vault while it stayed the same is still current (the
   * server's reply cache, src/serve/socket-server.ts).
   */
  get generation(): number {
    return this.changes;
  }

  /** Every note path known under the memory root (hidden folders excluded), unsorted. */
  notePaths(): Iterable<string> {
    return this.paths;
  }

  /** A link resolver over the known notes (rebuilt after a note is added or removed). */
  links(): LinkResolver {
    this.resolver ??= new LinkResolver(this.paths);
    return this.resolver;
  }

  /**
   * Re-indexes a note this server just wrote, without waiting for the watcher, so the next
   * search sees it. Never throws (a failure is logged; the watcher will try again).
   */
  async wrote(path: string): Promise<void> {
    this.changes++;
    await this.index(path);
  }

  /** Resolves when every change seen so far is in the index. */
  async settled(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
      this.flushing = this.flushing.then(() => this.flush());
    }
    await this.flushing;
  }

  /** The figures of the `status` tool. */
  status(): LiveStatus {
    return {
      notes: this.service.size,
      pending: this.pending.size,
      lastChange: this.lastChange,
      openedAt: this.opened.at,
      source: this.opened.source,
      savedAt: this.savedAt,
      unsaved: this.service.dirty,
      watching: this.watching,
    };
  }

  /** Stops the watcher and saves the index when it changed. Never throws. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.watcher?.close();
    this.watching = false;
    await this.flushing;
    await this.saveNow();
  }

  private changed(abs: string): void {
    if (this.closed) return;
    const rel = this.relative(abs);
    if (!rel.toLowerCase().endsWith(".md")) return;
    this.changes++;
    const now = Date.now();
    this.lastChange = { path: rel, at: now };
    const first = this.pending.get(rel)?.first ?? now;
    this.pending.set(rel, { first });
    if (this.timer) clearTimeout(this.timer);
    let oldest = now;
    for (const p of this.pending.values()) oldest = Math.min(oldest, p.first);
    const wait = Math.max(0, Math.min(DEBOUNCE_MS, oldest + MAX_WAIT_MS - now));
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flushing = this.flushing.then(() => this.flush());
    }, wait);
  }

  private relative(abs: string): string {
    return nodePath.relative(this.vault.root, abs).split(nodePath.sep).join("/");
  }

  private async flush(): Promise<void> {
    const paths = [...this.pending.keys()];
    this.pending.clear();
    for (const path of paths) await this.index(path);
    for (const path of paths) for (const l of this.listeners) l(path);
  }

  private async index(path: string): Promise<void> {
    let stat: { mtime: number; size: number } | undefined;
    try {
      // As NodeVault.list sees notes: a symbolic link is not one, unless it leads out of the
      // vault (listed so that its read is refused by name: left out, as a run of its own says).
      const st = lstatSync(this.vault.abs(path));
      const note = st.isFile() || (st.isSymbolicLink() && this.vault.leavesVault(path));
      stat = note ? { mtime: st.mtimeMs, size: st.size } : undefined;
    } catch {
      // Deleted meanwhile: removed from the index.
      stat = undefined;
    }
    try {
      const outcome = stat
        ? await this.service.update(path, stat)
        : (await this.service.remove(path))
          ? "removed"
          : "ignored";
      const known = this.paths.has(path);
      const hidden = path.split("/").some((s) => s.startsWith("."));
      if (stat && !known && !hidden && this.layout.isInside(path)) {
        this.paths.add(path);
        this.resolver = null;
      } else if (!stat && known) {
        this.paths.delete(path);
        this.resolver = null;
      }
      this.unreadableNotes.delete(path);
      if (outcome !== "ignored") this.scheduleSave();
    } catch (err) {
      // A note that can no longer be read for what it is (not UTF-8, a link out of the vault,
      // no read permission) is dropped from the index, so its old text is not served; one caught
      // mid-save is left as indexed before (its next change is seen). Either is named once, on
      // the change that made it so, not on each change after.
      if (cannotRead(err)) await this.service.remove(path).catch(() => false);
      const known = this.unreadableNotes.has(path);
      this.unreadableNotes.set(path, errorMessage(err));
      if (!known) this.log(`index: left out ${unreadableLine({ path, error: errorMessage(err) })}`);
    }
  }

  private scheduleSave(): void {
    if (this.closed) return;
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => {
      this.saveTimer = null;
      void this.saveNow();
    }, SAVE_AFTER_MS);
    this.saveTimer.unref();
  }

  private async saveNow(): Promise<void> {
    if (!this.service.dirty) return;
    try {
      await this.service.save();
      this.savedAt = Date.now();
    } catch (err) {
      this.log(`index: not saved (${errorMessage(err)}); the index in memory is complete`);
    }
  }
}

/**
 * True for a read failure that lasts until someone fixes the note: not UTF-8 or a link out of the
 * vault ({@link isUnreadableNote}), or no permission to read it (EACCES, EPERM); false for one
 * that passes (a note caught mid-save).
 */
function cannotRead(err: unknown): boolean {
  if (isUnreadableNote(err)) return true;
  const code = ((err as { cause?: unknown } | null)?.cause as NodeJS.ErrnoException | undefined)
    ?.code;
  return code === "EACCES" || code === "EPERM";
}
