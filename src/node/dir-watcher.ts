/**
 * A file watcher for the MCP server's index (docs/mcp.md, "Following the disk"): one non-recursive
 * `fs.watch` per folder (inotify on Linux, FSEvents on macOS, ReadDirectoryChangesW on Windows),
 * none per file.
 *
 * Why not chokidar, the maintained library: chokidar 4 (the last major for Node 20) keeps an
 * `fs.watch` handle and a stat for every file: watching 10k synthetic notes in 66 folders took it
 * 1.0 s and 22 MB, growing with the number of notes (measured for docs/mcp.md). Nor Node's
 * recursive `fs.watch`: on Linux, Node 20 implements it in JavaScript by watching every file too.
 *
 * Hidden entries (`.agent-memory`, `.obsidian`, `.trash`, editors' `.x.tmp` files) and symbolic
 * links are never followed, as `NodeVault.list` skips them.
 */
import { lstatSync, readdirSync, watch, type FSWatcher } from "node:fs";
import * as nodePath from "node:path";
import { errorMessage } from "../core/errors";

/** What the watcher reports, by absolute path. */
export interface DirWatcherEvents {
  /** A Markdown file may have been created, changed or removed: its path, to be checked. */
  file: (abs: string) => void;
  /** A watched folder is gone (removed or renamed away): every note known under it is to be checked. */
  folderGone: (abs: string) => void;
  /** A folder could not be watched (one line for the log). */
  error: (line: string) => void;
  /**
   * A symbolic link that is not a note appeared (it may be a folder linked out of the vault, which
   * `NodeVault.list` skips and tells of): its path, to be checked. Optional.
   */
  link?: (abs: string) => void;
}

export class DirWatcher {
  private readonly watchers = new Map<string, FSWatcher>();

  constructor(
    private readonly root: string,
    private readonly on: DirWatcherEvents,
  ) {}

  /** Watches `root` and every folder under it. Synchronous: events after it returns are seen. */
  start(): void {
    this.addTree(this.root, false);
  }

  /** Folders watched now. */
  get folders(): number {
    return this.watchers.size;
  }

  /** Stops every watcher. */
  close(): void {
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
  }

  /** Watches `dir` and the folders below it; with `announce`, reports the Markdown files found (a new folder). */
  private addTree(dir: string, announce: boolean): void {
    if (this.watchers.has(dir)) return;
    let w: FSWatcher;
    try {
      w = watch(dir, { persistent: true }, (_event, name) => this.event(dir, name));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT")
        this.on.error(`mcp: cannot watch ${dir}: ${errorMessage(err)}`);
      return;
    }
    w.on("error", () => this.drop(dir));
    this.watchers.set(dir, w);
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      // The folder went away meanwhile: nothing to watch under it.
      return;
    }
    for (const e of entries) {
      if (e.name.startsWith(".")) continue;
      const abs = nodePath.join(dir, e.name);
      if (e.isDirectory()) this.addTree(abs, announce);
      else if (announce && e.isFile() && /\.md$/i.test(e.name)) this.on.file(abs);
      else if (announce && e.isSymbolicLink() && !/\.md$/i.test(e.name)) this.on.link?.(abs);
    }
  }

  private event(dir: string, name: string | Buffer | null): void {
    if (name === null) {
      // The platform did not say which entry changed: look at the whole folder again.
      this.rescan(dir);
      return;
    }
    const entry = name.toString();
    if (entry.split(/[\\/]/).some((s) => s.startsWith("."))) return;
    const abs = nodePath.join(dir, entry);
    let st;
    try {
      st = lstatSync(abs);
    } catch {
      // Deleted meanwhile: handled as a removal below.
      st = null;
    }
    if (st?.isDirectory()) {
      this.addTree(abs, true);
      return;
    }
    if (st === null && this.watchers.has(abs)) {
      this.dropTree(abs);
      this.on.folderGone(abs);
      return;
    }
    // Another kind of entry is not a note; a symbolic link is announced too, since a note
    // replaced by one (its removal and the link seen as one event) must leave the index.
    if (st !== null && !st.isFile() && !st.isSymbolicLink()) return;
    if (/\.md$/i.test(entry)) this.on.file(abs);
    else if (st?.isSymbolicLink()) this.on.link?.(abs);
  }

  private rescan(dir: string): void {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      // The folder went away meanwhile: its removal is seen by its parent.
      return;
    }
    for (const e of entries) {
      if (e.name.startsWith(".")) continue;
      const abs = nodePath.join(dir, e.name);
      if (e.isDirectory()) this.addTree(abs, true);
      else if (e.isFile() && /\.md$/i.test(e.name)) this.on.file(abs);
      else if (e.isSymbolicLink() && !/\.md$/i.test(e.name)) this.on.link?.(abs);
    }
  }

  private drop(dir: string): void {
    this.watchers.get(dir)?.close();
    this.watchers.delete(dir);
  }

  private dropTree(dir: string): void {
    const prefix = `${dir}${nodePath.sep}`;
    for (const d of [...this.watchers.keys()]) if (d === dir || d.startsWith(prefix)) this.drop(d);
  }
}
