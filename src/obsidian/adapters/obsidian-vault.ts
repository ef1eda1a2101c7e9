/**
 * ObsidianVault: {@link VaultPort} over `app.vault`
 * (docs/architecture.md, "Core, ports and hosts").
 *
 * - Every write of an existing note goes through `Vault.process`, Obsidian's atomic
 *   read-modify-write (https://docs.obsidian.md/Reference/TypeScript+API/Vault/process), so an edit
 *   a person makes in the editor meanwhile is kept (test/obsidian/plugin-vault.test.ts, "case 07: …").
 * - A missing note is created with `Vault.create` after its missing folders (`createFolder`, one
 *   level at a time, because `create` fails when the parent folder does not exist).
 * - Files are looked up with `getFileByPath` and checked with `instanceof TFile`; every path built
 *   here goes through `normalizePath`.
 * - Renames made by the plugin itself use `FileManager.renameFile`, which updates links.
 * - Notes are read from their bytes and decoded as UTF-8 or refused (docs/write-safety.md).
 */
import { normalizePath, TFile, TFolder, type App } from "obsidian";
import { decodeUtf8, decodeUtf8ForEdit } from "../../core/encoding";
import { MemoryError, VaultError, errorMessage } from "../../core/errors";
import { normalizeVaultPath } from "../../core/layout";
import {
  EditRun,
  type DecideFn,
  type Decided,
  type FileStat,
  type ProcessFn,
  type VaultPort,
} from "../../core/vault";

export class ObsidianVault implements VaultPort {
  constructor(private readonly app: App) {}

  /**
   * The vault path in Obsidian's form; throws PathError for `..` or absolute paths
   * (test/obsidian/plugin-vault.test.ts, "case 12: …").
   */
  private toPath(path: string): string {
    return normalizePath(normalizeVaultPath(path));
  }

  /** The file at `path`, or `null` when there is none (a folder at `path` is not a file). */
  fileAt(path: string): TFile | null {
    const file = this.app.vault.getFileByPath(this.toPath(path));
    return file instanceof TFile ? file : null;
  }

  /**
   * Reads a note as UTF-8 from its bytes (`Vault.readBinary`), so a note that is not UTF-8 is
   * refused with {@link EncodingError} rather than read with replacement characters
   * (docs/write-safety.md). Throws {@link VaultError} when it is missing or unreadable.
   */
  async read(path: string): Promise<string> {
    const file = this.fileAt(path);
    if (!file) throw new VaultError(`cannot read ${path}: no such file`, path);
    return this.readText(file, path);
  }

  private async readText(file: TFile, path: string, forEdit = false): Promise<string> {
    let bytes: ArrayBuffer;
    try {
      bytes = await this.app.vault.readBinary(file);
    } catch (err) {
      throw new VaultError(`cannot read ${path}: ${errorMessage(err)}`, path, { cause: err });
    }
    return (forEdit ? decodeUtf8ForEdit : decodeUtf8)(new Uint8Array(bytes), path);
  }

  exists(path: string): Promise<boolean> {
    return Promise.resolve(this.fileAt(path) !== null);
  }

  /**
   * Markdown files under `folder` (the whole vault when omitted), sorted by path. Uses
   * `getMarkdownFiles()`, which Obsidian keeps in memory, with each file's `stat`.
   */
  list(folder?: string): Promise<FileStat[]> {
    const prefix = folder ? `${this.toPath(folder)}/` : "";
    const out: FileStat[] = [];
    for (const file of this.app.vault.getMarkdownFiles()) {
      if (prefix && !file.path.startsWith(prefix)) continue;
      out.push({ path: file.path, mtime: file.stat.mtime, size: file.stat.size });
    }
    out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return Promise.resolve(out);
  }

  /**
   * VaultPort.process over `Vault.create` (missing note) and `Vault.process` (existing note). With
   * a {@link DecideFn}, returns `{ written, result }`, `result` being the last run's.
   */
  process(path: string, fn: ProcessFn): Promise<boolean>;
  process<T>(path: string, fn: DecideFn<T>): Promise<Decided<T>>;
  process<T>(path: string, fn: ProcessFn | DecideFn<T>): Promise<boolean | Decided<T>>;
  async process<T>(path: string, fn: ProcessFn | DecideFn<T>): Promise<boolean | Decided<T>> {
    const edit = new EditRun(fn);
    return edit.outcome(await this.processRun(path, edit));
  }

  private async processRun<T>(path: string, edit: EditRun<T>): Promise<boolean> {
    const target = this.toPath(path);
    const existing = this.fileAt(target);
    if (existing) return this.processExisting(existing, path, edit);
    const text = edit.apply(null);
    if (text === null) return false;
    try {
      await this.ensureFolder(parentFolder(target));
      await this.app.vault.create(target, text);
      return true;
    } catch (err) {
      // Someone created the note between our lookup and `create`: edit what they wrote instead.
      const created = this.fileAt(target);
      if (created) return this.processExisting(created, path, edit);
      throw new VaultError(`cannot create ${path}: ${errorMessage(err)}`, path, { cause: err });
    }
  }

  /**
   * Runs the edit inside `Vault.process`. A first read decides whether anything would change, so an
   * unchanged note is not rewritten (re-running writes nothing; test/obsidian/plugin-vault.test.ts,
   * "edits an existing note through Vault.process and skips unchanged content (case 10)"); the edit
   * itself is then re-applied by `Vault.process` on the note's content at write time.
   */
  private async processExisting<T>(file: TFile, path: string, edit: EditRun<T>): Promise<boolean> {
    try {
      // Read from the bytes first: a note that is not UTF-8 is refused before any edit.
      const before = await this.readText(file, path, true);
      const preview = edit.apply(before);
      if (preview === null || preview === before) return false;
      let changed = false;
      await this.app.vault.process(file, (data) => {
        const next = edit.apply(data);
        if (next === null || next === data) return data;
        changed = true;
        return next;
      });
      return changed;
    } catch (err) {
      if (err instanceof MemoryError) throw err;
      throw new VaultError(`cannot write ${path}: ${errorMessage(err)}`, path, { cause: err });
    }
  }

  /** Creates `folder` and its missing ancestors. Throws when a file is in the way. */
  private async ensureFolder(folder: string): Promise<void> {
    if (folder === "" || folder === "/") return;
    const found = this.app.vault.getAbstractFileByPath(folder);
    if (found instanceof TFolder) return;
    if (found) throw new VaultError(`cannot create folder ${folder}: a file has that name`, folder);
    await this.ensureFolder(parentFolder(folder));
    try {
      await this.app.vault.createFolder(folder);
    } catch (err) {
      // Created meanwhile (e.g. by a sync client): that is what we wanted.
      if (!(this.app.vault.getAbstractFileByPath(folder) instanceof TFolder)) throw err;
    }
  }

  /**
   * {@link VaultPort.move}, for `reconcile` (docs/sync.md, "Reconcile"): moves a file through
   * {@link rename} (`FileManager.renameFile`), creating the destination folder; nothing is deleted.
   * Throws {@link VaultError} naming the path when `from` is missing or `to` exists.
   */
  move(from: string, to: string): Promise<void> {
    return this.rename(from, to);
  }

  /**
   * Renames or moves a note the plugin owns, through `FileManager.renameFile` so links to it follow
   * the user's link settings. Creates the destination folder. Throws {@link VaultError} when the
   * source is missing or the destination exists.
   */
  async rename(from: string, to: string): Promise<void> {
    const file = this.fileAt(from);
    if (!file) throw new VaultError(`cannot rename ${from}: no such file`, from);
    const target = this.toPath(to);
    if (this.app.vault.getAbstractFileByPath(target))
      throw new VaultError(`cannot rename ${from}: ${to} exists`, to);
    try {
      await this.ensureFolder(parentFolder(target));
      await this.app.fileManager.renameFile(file, target);
    } catch (err) {
      if (err instanceof VaultError) throw err;
      throw new VaultError(`cannot rename ${from} to ${to}: ${errorMessage(err)}`, from, {
        cause: err,
      });
    }
  }
}

function parentFolder(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}
