/**
 * NodeVault: {@link VaultPort} over the file system, for the CLI and tests (docs/write-safety.md).
 *
 * `process` is a locked, atomic read-modify-write of the note's current content:
 * - **one writer at a time**: the note's lock ({@link NoteLocks}, across processes) is held from
 *   the read to the rename;
 * - **atomic**: the new text is written to a temporary file beside the note, flushed, and renamed
 *   over it, so a reader sees the old note or the new one, never half of one;
 * - **a person's edit survives**: a program that saves without our lock (an editor, Obsidian, a
 *   script) is watched for — a change between the read and the rename makes the edit start again
 *   on what they wrote (test/node/node-vault.test.ts, "case 07: …"), a save into the old file just
 * before the rename is read back and
 *   the edit re-applied on it, and after the rename the note is read back and the edit re-applied
 *   when another writer's save replaced it;
 * - **never rebuilt**: a note that exists but reads as just emptied, or shorter than it was read a
 *   moment ago, is read again; one still just emptied is refused ({@link TruncatedNoteError});
 * - **inside the vault**: every path is resolved to its real path ({@link VaultPaths}); a link
 *   out of the vault is refused (`PathError`);
 * - **UTF-8 or nothing**: a note that is not UTF-8 is refused (`EncodingError`, see `decodeUtf8`);
 * - **write permission is respected, also as root**: a note whose owner has no write bit is never
 *   replaced. The replaced note keeps its mode and, where the process may, its owner; a symlinked
 *   note is edited at its target and the link stays a link.
 *
 * `read`, `exists` and `list` use the synchronous file-system calls: a CLI has nothing else to do
 * while it waits, and for small notes they are 2–4× faster than `fs.promises` (10k notes on this
 * machine: read 0.46 s against 0.88 s 16 at a time, stat 0.09 s against 0.38 s all at once).
 */
import {
  accessSync,
  closeSync,
  constants as fsConstants,
  fstatSync,
  lstatSync,
  openSync,
  promises as fs,
  readSync,
  readdirSync,
  renameSync,
  statSync,
  type BigIntStats,
  type Dirent,
  type Stats,
} from "node:fs";
import * as nodePath from "node:path";
import { randomBytes } from "node:crypto";
import { decodeUtf8, decodeUtf8ForEdit } from "../core/encoding";
import { restoreLostLines } from "../core/merge-lines";
import {
  MemoryError,
  PathError,
  TruncatedNoteError,
  VaultError,
  errorMessage,
} from "../core/errors";
import { normalizeVaultPath } from "../core/layout";
import {
  EditRun,
  type DecideFn,
  type Decided,
  type FileStat,
  type ProcessFn,
  type VaultPort,
} from "../core/vault";
import {
  DEFAULT_STALE_MS,
  DEFAULT_WAIT_MS,
  LOCK_DIR,
  NoteLocks,
  type HeldLock,
  type LockOptions,
} from "./note-lock";
import { VaultPaths } from "./vault-paths";

/** Rounds of the read–apply–rename loop before giving up on a note that keeps changing. */
const MAX_ATTEMPTS = 8;
/**
 * Rounds allowed once a save into the old file is waiting to be put back (see `hidden` in
 * `processLocked`): our rename already replaced that file, so giving up then would lose the
 * person's lines (test/node/write-safety.process.test.ts, "a save into the old file, then a note
 * that keeps changing …"). Between these rounds the loop waits a little longer each time.
 */
const MAX_ATTEMPTS_HIDDEN = 64;
/**
 * Waits (ms) between reads of a note that looks truncated: empty, or shorter than it was read a
 * moment ago. An in-place save (truncate, then write) is over in well under the sum (630 ms).
 */
const TRUNCATION_WAITS_MS = [10, 20, 40, 80, 160, 320];
/**
 * An empty note last written more than this long ago (ms) is a blank note, not a save in progress:
 * an in-place save writes within milliseconds of truncating.
 */
const BLANK_AGE_MS = 2_000;
/** A note rewritten in place is read back once it has not changed for this long (ms). */
const SETTLE_MS = 15;

/** Options of a {@link NodeVault}: lock timings (tests shorten the stale time). */
export interface NodeVaultOptions {
  lock?: Partial<LockOptions>;
  /**
   * Told once per link, in one line naming it and its target, when listing meets a folder that is
   * a symbolic link out of the vault: it is skipped, its notes neither read nor listed (the CLI
   * prints the line on stderr). Without it the folder is skipped silently.
   */
  onSkippedLink?: (message: string) => void;
  /**
   * For a long-lived host (the MCP server, `serve`): awaited before each read and every
   * {@link LIST_SLICE_EVERY} entries a list walks, a `timeSlicer` (src/core/util/slices.ts) that
   * yields to the event loop once its slice is used up, so a long run of reads (a brief at 50k
   * notes) lets the host's searches in between (docs/decisions.md, "Long reads in a server yield").
   * Without it reads and lists never yield, as before.
   */
  slice?: () => Promise<void>;
}

/** Entries a list walks between two calls of {@link NodeVaultOptions.slice}. */
export const LIST_SLICE_EVERY = 64;

/** What a read for an edit saw: the text, and the file's identity to compare around the rename. */
interface Snapshot {
  text: string | null;
  /** Identity of the file read (`null`: it did not exist). */
  ident: Ident | null;
  /** The open file that was read, kept to notice a save into it during the rename. */
  fd: number | null;
  /** The file looked truncated on every try: it may only be kept as it is, never edited. */
  suspect: boolean;
  /** Mode and owner of the file read. */
  stat: BigIntStats | null;
}

/** What tells two versions of a file apart without reading it. */
interface Ident {
  ino: bigint;
  size: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
}

export class NodeVault implements VaultPort {
  /** Absolute path of the vault folder. */
  readonly root: string;
  /** Real-path rules of this vault. */
  readonly paths: VaultPaths;
  /** Called between the read and the rename; tests use it to simulate a concurrent writer. */
  beforeCommit: ((path: string) => Promise<void>) | null = null;
  /** Called right after the rename; tests use it to simulate a save that lands just after it. */
  afterRename: ((path: string) => Promise<void>) | null = null;
  private locksCache: NoteLocks | null = null;
  private readonly lockOptions: LockOptions;
  private readonly onSkippedLink: ((message: string) => void) | undefined;
  private readonly slice: (() => Promise<void>) | undefined;
  /** Folder links out of the vault already told of ({@link NodeVaultOptions.onSkippedLink}), with their line. */
  private readonly skippedLinks = new Map<string, string>();
  /**
   * Folders {@link list} walked: real folders inside the vault, reached without a link (a link
   * to a folder is not walked). Reads of notes in them skip resolving each path.
   */
  private readonly listedFolders = new Set<string>();
  /** Size in bytes of each note when this vault last read or wrote it: a shorter read is suspect. */
  private readonly seenSize = new Map<string, number>();

  constructor(root: string, options: NodeVaultOptions = {}) {
    this.onSkippedLink = options.onSkippedLink;
    this.slice = options.slice;
    this.paths = new VaultPaths(root);
    this.root = this.paths.root;
    this.lockOptions = {
      staleMs: options.lock?.staleMs ?? DEFAULT_STALE_MS,
      waitMs: options.lock?.waitMs ?? DEFAULT_WAIT_MS,
    };
  }

  /** Absolute file-system path of a vault path (links not resolved). Throws PathError for `..` or absolute paths. */
  abs(path: string): string {
    return this.paths.abs(path);
  }

  /**
   * Absolute real path of a vault path, for files the CLI keeps in the vault itself (the search
   * index). Throws {@link PathError} when it would be outside the vault.
   */
  resolve(path: string): string {
    return this.paths.resolve(path);
  }

  /**
   * The vault path (`/`-separated, relative to the vault's real root) of where `path` really is,
   * symbolic links followed: what the MCP server's zone rules and promotion judge. Throws
   * {@link PathError} when it would be outside the vault.
   */
  realVaultPath(path: string): string {
    return nodePath.relative(this.paths.realRoot, this.resolve(path)).split(nodePath.sep).join("/");
  }

  /**
   * Reads a note as UTF-8. Throws {@link VaultError} naming the path when it is missing or
   * unreadable, {@link PathError} when its real path leaves the vault, {@link EncodingError} when it
   * is not UTF-8.
   */
  read(path: string): Promise<string> {
    if (this.slice) return this.slice().then(() => this.readNow(path));
    return this.readNow(path);
  }

  private readNow(path: string): Promise<string> {
    try {
      const bytes = this.readBytes(path);
      this.seenSize.set(path, bytes.length);
      return Promise.resolve(decodeUtf8(bytes, path));
    } catch (err) {
      if (err instanceof MemoryError) return Promise.reject(err);
      return Promise.reject(
        new VaultError(`cannot read ${path}: ${describeFsError(err)}`, path, { cause: err }),
      );
    }
  }

  /**
   * The bytes of a note, its real path checked. A note in a folder that {@link list} walked a
   * moment ago (a real folder inside the vault, not a link) is opened directly, refusing a link in
   * its place (`O_NOFOLLOW`); any other is resolved link by link first. The shortcut halves the
   * cost of reading 10k notes for the index (docs/write-safety.md, "Inside the vault").
   */
  private readBytes(path: string): Buffer {
    const abs = this.paths.abs(path);
    if (fsConstants.O_NOFOLLOW !== undefined && this.listedFolders.has(nodePath.dirname(abs))) {
      try {
        return readAll(abs, path, true);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "ELOOP") throw err;
        // A link where a note was listed: resolved (and refused if it leaves the vault) below.
      }
    }
    return readAll(this.paths.resolve(path), path, false);
  }

  exists(path: string): Promise<boolean> {
    try {
      return Promise.resolve(statSync(this.abs(path)).isFile());
    } catch {
      // Missing, a folder, or not reachable: not an existing note (VaultPort.exists).
      return Promise.resolve(false);
    }
  }

  /**
   * The mtime (ms) and size (bytes) {@link list} gives for the note at `path` (links followed), or
   * `null` when it is gone or not a file. Throws PathError for `..` or absolute paths.
   */
  stat(path: string): FileStat | null {
    const st = statOrNull(this.abs(path));
    return st?.isFile() ? { path, mtime: st.mtimeMs, size: st.size } : null;
  }

  /**
   * Markdown files under `folder`, sorted by path. Dot-folders are skipped, and so are symbolic
   * links to folders and to notes inside the vault (their targets are listed); a link to a folder
   * outside the vault is skipped and told of ({@link NodeVaultOptions.onSkippedLink}). A link to a
   * note outside the vault is listed, so that reading it fails with a `PathError` naming it.
   */
  async list(folder = ""): Promise<FileStat[]> {
    const out: FileStat[] = [];
    await this.walk(folder, out, false);
    out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return out;
  }

  /**
   * The first note {@link list} would give for `folder`, in no set order, or `null` when it gives
   * none: the walk stops at the first one, so an agent's folder of a thousand notes costs one stat
   * (VaultPort.firstNote). Throws as {@link list} does.
   */
  async firstNote(folder = ""): Promise<FileStat | null> {
    const out: FileStat[] = [];
    await this.walk(folder, out, true);
    return out[0] ?? null;
  }

  /** {@link list}'s walk of `folder` into `out` (not sorted); with `one`, ended by the first note. */
  private async walk(folder: string, out: FileStat[], one: boolean): Promise<void> {
    const start = folder ? normalizeVaultPath(folder) : "";
    if (start) this.paths.resolve(start); // a listed folder that is a link out of the vault is refused
    const folders = [start];
    let walked = 0;
    while (folders.length > 0) {
      const rel = folders.pop() ?? "";
      const entries = this.entriesOf(rel);
      if (entries === null) continue;
      const dir = rel ? this.abs(rel) : this.root;
      for (const entry of entries) {
        this.visit(rel, dir, entry, out, folders);
        if (one && out.length > 0) return;
        // A long-lived host's slicer, every LIST_SLICE_EVERY entries; none otherwise.
        if (this.slice && ++walked % LIST_SLICE_EVERY === 0) await this.slice();
      }
    }
  }

  /**
   * The entries of the vault folder `rel` ("" for the root), or `null` when it is gone. Throws
   * {@link VaultError} when it cannot be listed.
   */
  private entriesOf(rel: string): Dirent[] | null {
    const dir = rel ? this.abs(rel) : this.root;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw new VaultError(`cannot list ${rel || "."}: ${describeFsError(err)}`, rel, {
        cause: err,
      });
    }
    this.listedFolders.add(dir);
    return entries;
  }

  /**
   * One entry of folder `rel` (absolute path `dir`) as {@link list} takes it: a note into `out`, a
   * folder into `folders`.
   */
  private visit(rel: string, dir: string, entry: Dirent, out: FileStat[], folders: string[]): void {
    if (entry.name.startsWith(".")) return;
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) folders.push(child);
    else if (entry.isFile() && entry.name.toLowerCase().endsWith(".md")) {
      // `abs(child)` is the folder's path and the name, unless the name holds a `\\` (read as `/`).
      const abs = entry.name.includes("\\") ? this.abs(child) : nodePath.join(dir, entry.name);
      const st = statOrNull(abs); // deleted meanwhile: not listed
      if (st) out.push({ path: child, mtime: st.mtimeMs, size: st.size });
    } else if (entry.isSymbolicLink() && !entry.name.toLowerCase().endsWith(".md")) {
      this.seeLink(child);
    } else if (
      entry.isSymbolicLink() &&
      entry.name.toLowerCase().endsWith(".md") &&
      this.leavesVault(child)
    ) {
      // Listed so that readers refuse it by name (search names it, the health check reports
      // it as unreadable) instead of not seeing it; a link inside the vault is not listed,
      // its target is.
      const st = lstatOrNull(this.abs(child));
      if (st) out.push({ path: child, mtime: st.mtimeMs, size: st.size });
    }
  }

  /**
   * Tells {@link NodeVaultOptions.onSkippedLink}, once per link, of the link at vault path `path`
   * when it is a folder link out of the vault: {@link list} calls it for each link it meets, and a
   * long-lived host's watcher for links made after its list.
   */
  seeLink(path: string): void {
    if (!this.onSkippedLink || this.skippedLinks.has(path)) return;
    const message = this.skippedLinkLine(path);
    if (message !== null) this.tellSkippedLinks([{ path, message }]);
  }

  /** The line told of the link at vault path `path` when it is a folder link out of the vault, else `null`. */
  private skippedLinkLine(path: string): string | null {
    let message: string;
    try {
      this.paths.resolve(path);
      return null; // a link inside the vault: its target is listed where it is
    } catch (err) {
      if (!(err instanceof PathError)) return null;
      message = err.message;
    }
    if (!statOrNull(this.abs(path))?.isDirectory()) return null;
    return `skipped ${path}/: ${message.replace(/; refused: .*$/, "")}; its notes are not read`;
  }

  /**
   * The folder links out of the vault that {@link list} skipped and told of, with their lines, as
   * they are now: one removed or pointed back inside the vault since is dropped (and told again
   * if a later list meets it). A server hands them to a served run ({@link tellSkippedLinks}),
   * which does not list the vault itself.
   */
  linksSkipped(): { path: string; message: string }[] {
    const out: { path: string; message: string }[] = [];
    for (const path of [...this.skippedLinks.keys()]) {
      const message = this.skippedLinkLine(path);
      if (message === null) this.skippedLinks.delete(path);
      else out.push({ path, message });
    }
    return out;
  }

  /**
   * Tells {@link NodeVaultOptions.onSkippedLink} of folder links out of the vault, each once: of
   * the one {@link seeLink} met, or those another vault of the same folder skipped
   * ({@link linksSkipped}: a server's), as a list of this vault would: a served run prints what
   * the CLI's own run prints.
   */
  tellSkippedLinks(links: readonly { path: string; message: string }[]): void {
    if (!this.onSkippedLink) return;
    for (const { path, message } of links) {
      if (this.skippedLinks.has(path)) continue;
      this.skippedLinks.set(path, message);
      this.onSkippedLink(message);
    }
  }

  /**
   * True when the link at vault path `path` resolves outside the vault: {@link list} lists such a
   * link as a note, so that reading it is refused by name.
   */
  leavesVault(path: string): boolean {
    try {
      this.paths.resolve(path);
      return false;
    } catch (err) {
      return err instanceof PathError;
    }
  }

  /** The locks of this vault, made on first use under its `.agent-memory/locks` (inside the vault). */
  private get locks(): NoteLocks {
    this.locksCache ??= new NoteLocks(this.paths.resolve(LOCK_DIR), this.lockOptions);
    return this.locksCache;
  }

  /**
   * Locked, atomic read–modify–write (VaultPort.process; docs/write-safety.md). Returns true when
   * the note was written.
   * @throws {@link PathError} when the note's real path leaves the vault
   * @throws {@link EncodingError} when the note is not UTF-8
   * @throws {@link TruncatedNoteError} when the note exists but reads as empty and `fn` would write
   * @throws {@link VaultError} naming `path` when it cannot be read or written ("permission denied"
   *   for a note the user may not write, or whose owner has no write bit), when its lock could not be
   *   had in time, or when it kept changing for {@link MAX_ATTEMPTS} rounds
   * On every error, the note is as it was (or as another writer left it).
   * With a {@link DecideFn}, returns `{ written, result }`: the edit may run several times (a
   * concurrent save, a save into the old file re-applied); `result` is its last run's, the run
   * whose content the note now holds (or, when nothing was written, the run that decided so).
   */
  process(path: string, fn: ProcessFn): Promise<boolean>;
  process<T>(path: string, fn: DecideFn<T>): Promise<Decided<T>>;
  process<T>(path: string, fn: ProcessFn | DecideFn<T>): Promise<boolean | Decided<T>>;
  async process<T>(path: string, fn: ProcessFn | DecideFn<T>): Promise<boolean | Decided<T>> {
    const real = this.paths.resolve(path);
    const edit = new EditRun(fn);
    const written = await this.locks.withLock(real, path, async (held) => {
      await removeLeftTemps(real);
      return this.processLocked(real, path, edit, held);
    });
    return edit.outcome(written);
  }

  /**
   * Moves `from` to `to` under `from`'s lock (see {@link VaultPort.move}): parent folders created,
   * an existing `to` refused, nothing deleted. Both real paths must stay in the vault.
   */
  async move(from: string, to: string): Promise<void> {
    const realFrom = this.paths.resolve(from);
    const realTo = this.paths.resolve(to);
    await this.locks.withLock(realFrom, from, async () => {
      const exists = async (p: string) =>
        fs.lstat(p).then(
          () => true,
          () => false,
        );
      if (!(await exists(realFrom))) throw new VaultError(`cannot move ${from}: not found`, from);
      if (await exists(realTo))
        throw new VaultError(`cannot move ${from} to ${to}: ${to} already exists`, to);
      try {
        await fs.mkdir(nodePath.dirname(realTo), { recursive: true });
        await fs.rename(realFrom, realTo);
      } catch (err) {
        throw new VaultError(`cannot move ${from} to ${to}: ${describeFsError(err)}`, from, {
          cause: err,
        });
      }
      return true;
    });
  }

  private async processLocked<T>(
    real: string,
    path: string,
    edit: EditRun<T>,
    held: HeldLock,
  ): Promise<boolean> {
    let written = false;
    // Saves into the old file that our rename hid (a program that opened the note before the rename
    // and wrote after it): each is put back into the note as it is now, with restoreLostLines.
    const hidden: { base: string; theirs: string }[] = [];
    for (
      let attempt = 0;
      attempt < (hidden.length > 0 ? MAX_ATTEMPTS_HIDDEN : MAX_ATTEMPTS);
      attempt++
    ) {
      // Past the usual rounds, a program saving every few milliseconds is given room to finish.
      if (attempt >= MAX_ATTEMPTS) await sleep(Math.min(5 * (attempt - MAX_ATTEMPTS + 1), 100));
      const snap = await readForEdit(real, path, this.seenSize.get(path));
      let tmp: string | null = null;
      try {
        let current = snap.text;
        if (current !== null)
          for (const h of hidden) current = restoreLostLines(h.base, h.theirs, current);
        let next = edit.apply(current);
        if (next === null) next = current;
        if (next === null || next === snap.text) return written;
        if (snap.suspect) {
          throw new TruncatedNoteError(
            `${path} exists but reads as empty, as when a program is saving it in place; an existing note is never rebuilt, so nothing was written; try again (delete the empty file if it should be made anew)`,
            path,
          );
        }
        if (snap.stat) assertWritable(real, path, snap.stat);
        await fs.mkdir(nodePath.dirname(real), { recursive: true }).catch((err: unknown) => {
          throw new VaultError(`cannot create folder for ${path}: ${describeFsError(err)}`, path, {
            cause: err,
          });
        });
        tmp = nodePath.join(
          nodePath.dirname(real),
          `.${nodePath.basename(real)}.${randomBytes(4).toString("hex")}.tmp`,
        );
        await writeDurably(tmp, next);
        if (snap.stat) await keepOwnership(tmp, snap.stat);
        if (this.beforeCommit) await this.beforeCommit(path);
        if (!sameIdent(snap.ident, currentIdent(real, path))) continue; // someone wrote meanwhile: start again on their text
        held.assertHeld();
        // Synchronous, so nothing runs between the check above and the rename.
        renameSync(tmp, real);
        tmp = null;
        written = true;
        const ours = currentIdent(real, path);
        this.seenSize.set(path, Buffer.byteLength(next, "utf8"));
        if (this.afterRename) await this.afterRename(path);
        // A program that opened the old file before the rename may have saved into it since we read
        // it: its text is in the old file only. Read it back and put its lines into the note.
        if (
          snap.fd !== null &&
          snap.ident &&
          snap.text !== null &&
          !sameContentIdent(snap.ident, fdIdent(snap.fd))
        ) {
          const theirs = await settledText(snap.fd, path);
          if (theirs !== null && theirs !== snap.text) {
            hidden.push({ base: snap.text, theirs });
            continue;
          }
        }
        // Another program may have replaced or rewritten the note after the rename.
        if (sameIdent(ours, currentIdent(real, path))) return true;
      } catch (err) {
        if (err instanceof MemoryError) throw err;
        throw new VaultError(`cannot write ${path}: ${describeFsError(err)}`, path, { cause: err });
      } finally {
        if (snap.fd !== null) closeSync(snap.fd);
        if (tmp !== null) await fs.rm(tmp, { force: true });
      }
    }
    if (hidden.length > 0) {
      throw new VaultError(
        `cannot write ${path}: it kept changing during ${MAX_ATTEMPTS_HIDDEN} attempts, and what another program saved into it during our write could not be put back; check the note`,
        path,
      );
    }
    throw new VaultError(
      `cannot write ${path}: it kept changing during ${MAX_ATTEMPTS} attempts; try again`,
      path,
    );
  }
}

/**
 * Reads a whole file by its real path (links already resolved). With `rawLoop`, a link in its
 * place is an `ELOOP` error for the caller to handle rather than a {@link VaultError}.
 */
function readAll(real: string, path: string, rawLoop: boolean): Buffer {
  const fd = rawLoop
    ? openSync(real, fsConstants.O_RDONLY | (fsConstants.O_NOFOLLOW ?? 0))
    : openNoFollow(real, path);
  try {
    return readFd(fd);
  } finally {
    closeSync(fd);
  }
}

/** Opens a resolved path for reading, refusing to follow a link put there since it was resolved. */
function openNoFollow(real: string, path: string): number {
  const noFollow = fsConstants.O_NOFOLLOW ?? 0;
  try {
    return openSync(real, fsConstants.O_RDONLY | noFollow);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ELOOP")
      throw new VaultError(
        `cannot read ${path}: it became a symbolic link while it was read; try again`,
        path,
        { cause: err },
      );
    throw err;
  }
}

/** The whole content of an open file from its start. */
function readFd(fd: number): Buffer {
  const size = fstatSync(fd).size;
  let buf = Buffer.allocUnsafe(Math.max(size, 4096));
  let length = 0;
  for (;;) {
    if (length === buf.length) {
      const bigger = Buffer.allocUnsafe(buf.length * 2);
      buf.copy(bigger, 0, 0, length);
      buf = bigger;
    }
    const n = readSync(fd, buf, length, buf.length - length, length);
    if (n === 0) break;
    length += n;
  }
  return buf.subarray(0, length);
}

/**
 * Reads a note for an edit, keeping it open. A note that reads as empty and was written in the
 * last {@link BLANK_AGE_MS}, or shorter than `seenSize` (its size when last read), is read again
 * after each of {@link TRUNCATION_WAITS_MS}: an in-place save shows as such a read for a moment. A
 * note still shorter after the waits is taken as a person's edit; one still freshly emptied is
 * marked `suspect` and is never edited.
 */
async function readForEdit(
  real: string,
  path: string,
  seenSize: number | undefined,
): Promise<Snapshot> {
  for (let i = 0; ; i++) {
    let fd: number;
    try {
      fd = openNoFollow(real, path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT")
        return { text: null, ident: null, fd: null, suspect: false, stat: null };
      if (err instanceof MemoryError) throw err;
      throw new VaultError(`cannot read ${path}: ${describeFsError(err)}`, path, { cause: err });
    }
    let keep = false;
    try {
      const stat = fstatSync(fd, { bigint: true });
      const ident = toIdent(stat);
      const bytes = readFd(fd);
      // An empty file written to within the last moments is what an in-place save looks like
      // between its truncate and its write; one left empty for longer is a blank note (a person
      // created it from a link) and is filled like a new one.
      const freshlyEmptied = bytes.length === 0 && Date.now() - Number(stat.mtimeMs) < BLANK_AGE_MS;
      const looksCut = freshlyEmptied || (seenSize !== undefined && bytes.length < seenSize);
      const wait = TRUNCATION_WAITS_MS[i];
      if (looksCut && wait !== undefined) {
        await sleep(wait);
        continue;
      }
      const text = decodeUtf8ForEdit(bytes, path);
      keep = true;
      return { text, ident, fd, suspect: freshlyEmptied, stat };
    } catch (err) {
      if (err instanceof MemoryError) throw err;
      throw new VaultError(`cannot read ${path}: ${describeFsError(err)}`, path, { cause: err });
    } finally {
      if (!keep) closeSync(fd);
    }
  }
}

/**
 * The text of the old, replaced file once a program saving into it is done: read when two looks
 * {@link SETTLE_MS} apart agree (at most about a second). `null` when it stays empty.
 */
async function settledText(fd: number, path: string): Promise<string | null> {
  let last = fdIdent(fd);
  for (let i = 0; i < 64; i++) {
    await sleep(SETTLE_MS);
    const now = fdIdent(fd);
    if (sameContentIdent(last, now) && now.size > 0n) break;
    last = now;
  }
  const bytes = readFd(fd);
  return bytes.length === 0 ? null : decodeUtf8ForEdit(bytes, path);
}

function toIdent(st: BigIntStats): Ident {
  return { ino: st.ino, size: st.size, mtimeNs: st.mtimeNs, ctimeNs: st.ctimeNs };
}

function fdIdent(fd: number): Ident {
  return toIdent(fstatSync(fd, { bigint: true }));
}

/** Identity of the file now at `real`, `null` when there is none. */
function currentIdent(real: string, path: string): Ident | null {
  try {
    return toIdent(statSync(real, { bigint: true }));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new VaultError(`cannot read ${path}: ${describeFsError(err)}`, path, { cause: err });
  }
}

/**
 * True when an open file was not written to: size and modification time agree. (Its change time
 * moves when the rename unlinks it, so it is left out.)
 */
function sameContentIdent(a: Ident, b: Ident): boolean {
  return a.size === b.size && a.mtimeNs === b.mtimeNs;
}

function sameIdent(a: Ident | null, b: Ident | null): boolean {
  if (a === null || b === null) return a === b;
  return a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;
}

/** Writes a new file and flushes it to disk, so the rename never publishes an empty file after a crash. */
async function writeDurably(file: string, text: string): Promise<void> {
  const handle = await fs.open(file, "wx");
  try {
    await handle.writeFile(text, "utf8");
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Removes temporary files a killed run of ours left beside the note (`.<name>.<8 hex>.tmp`).
 * Called with the note's lock held, so no live writer of ours is writing one.
 */
async function removeLeftTemps(real: string): Promise<void> {
  const dir = nodePath.dirname(real);
  const prefix = `.${nodePath.basename(real)}.`;
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    // The note's folder is not there yet: no temporary file to remove.
    return;
  }
  for (const name of names) {
    if (name.startsWith(prefix) && /^\.[0-9a-f]{8}\.tmp$/.test(name.slice(prefix.length - 1))) {
      await fs.rm(nodePath.join(dir, name), { force: true });
    }
  }
}

/**
 * Refuses to replace a note the user may not write. The rename only needs the folder to be
 * writable, so without this check a read-only (444) note would silently be replaced. The owner's
 * write bit decides, also for root (who passes every access check): a note made read-only is
 * meant to stay as it is. Other users also need the access check to pass.
 */
function assertWritable(real: string, path: string, st: BigIntStats): void {
  const mode = Number(st.mode);
  if ((mode & 0o200) === 0) {
    throw new VaultError(
      `cannot write ${path}: permission denied (it is read-only, mode ${(mode & 0o777).toString(8)}; make it writable to let Agent Memory edit it)`,
      path,
    );
  }
  if (process.getuid?.() === 0) return;
  try {
    accessSync(real, fsConstants.W_OK);
  } catch (err) {
    throw new VaultError(`cannot write ${path}: ${describeFsError(err)}`, path, { cause: err });
  }
}

/**
 * Gives the temporary file the replaced file's permission bits and, when the process may (root),
 * its owner, so the rename leaves both as they were. A failed chown is not an error: an ordinary
 * user can only own the files they write, as with any editor that saves by rename.
 */
async function keepOwnership(tmp: string, original: BigIntStats): Promise<void> {
  await fs.chmod(tmp, Number(original.mode) & 0o7777);
  const uid = process.getuid?.();
  const gid = process.getgid?.();
  const ownerUid = Number(original.uid);
  const ownerGid = Number(original.gid);
  if (uid === undefined || (uid === ownerUid && gid === ownerGid)) return;
  await fs.chown(tmp, ownerUid, ownerGid).catch(() => undefined);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function describeFsError(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case "ENOENT":
      return "no such file";
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "EISDIR":
      return "it is a folder";
    default:
      return errorMessage(err);
  }
}

/** `lstatSync` (the link itself), or `null` when it is gone. */
function lstatOrNull(abs: string): Stats | null {
  try {
    return lstatSync(abs);
  } catch {
    return null;
  }
}

/** `statSync`, or `null` when the file cannot be stat'ed (deleted meanwhile, no permission). */
function statOrNull(abs: string): Stats | null {
  try {
    return statSync(abs);
  } catch {
    return null;
  }
}
