/**
 * Stub of the types-only `obsidian` package, holding only what the tests use (the rule
 * obsidian-git keeps). Behaviour follows `node_modules/obsidian/obsidian.d.ts` 1.13.1 where the
 * tests depend on it: `Vault.create` needs the parent folder, `createFolder` throws when the folder
 * exists, `Vault.process` is atomic, `vault.on("create")` fires for files created later, and
 * `workspace.onLayoutReady` queues callbacks until {@link Workspace.triggerLayoutReady}.
 *
 * Each imitated class follows its page of the API reference,
 * https://docs.obsidian.md/Reference/TypeScript+API/<Class> (and /<Class>/<member> for a member;
 * an inherited member's page is under the class that declares it, e.g. SettingTab/display). Every
 * export and public member says in its TSDoc which behaviour it imitates ("Imitates Vault.process:
 * …", quoting or paraphrasing obsidian.d.ts, with the fake's simplifications) and links its page;
 * a member the fake adds for tests says `Test helper` instead. `test/obsidian/obsidian-stub-names.test.ts`
 * checks the names against obsidian.d.ts and that each has its link or mark. Members no test, no
 * file under src/ and not `scripts/screenshots.mjs` used (measured with coverage) were removed.
 *
 * DOM-building parts (views, modals, settings) need a DOM: use them from tests running under
 * happy-dom with `test/setup-dom.ts` imported.
 */

import { request as httpRequest } from "node:http";

/* ------------------------------------------------------------------ events */

/** Imitates EventRef: the handle {@link Events.on} returns, for {@link Events.offref} (https://docs.obsidian.md/Reference/TypeScript+API/EventRef). */
export interface EventRef {
  e: Events;
  name: string;
  fn: (...data: unknown[]) => unknown;
  ctx?: unknown;
}

/** Imitates Events: named events and their handlers; handlers run synchronously, in the order they subscribed (https://docs.obsidian.md/Reference/TypeScript+API/Events). */
export class Events {
  private readonly handlers = new Map<string, EventRef[]>();

  /** Imitates Events.on: subscribes `callback` to `name`, called with `ctx` as `this` (https://docs.obsidian.md/Reference/TypeScript+API/Events/on). */
  on(name: string, callback: (...data: never[]) => unknown, ctx?: unknown): EventRef {
    const ref: EventRef = { e: this, name, fn: callback as (...data: unknown[]) => unknown, ctx };
    const list = this.handlers.get(name) ?? [];
    list.push(ref);
    this.handlers.set(name, list);
    return ref;
  }

  /** Imitates Events.offref: removes the handler an {@link EventRef} stands for (https://docs.obsidian.md/Reference/TypeScript+API/Events/offref). */
  offref(ref: EventRef): void {
    const list = this.handlers.get(ref.name);
    if (list)
      this.handlers.set(
        ref.name,
        list.filter((r) => r !== ref),
      );
  }

  /** Imitates Events.trigger: calls every handler of `name` with `data`, synchronously (https://docs.obsidian.md/Reference/TypeScript+API/Events/trigger). */
  trigger(name: string, ...data: unknown[]): void {
    for (const ref of [...(this.handlers.get(name) ?? [])]) ref.fn.apply(ref.ctx, data);
  }

  /** Test helper: handlers currently subscribed (all names, or one). */
  listenerCount(name?: string): number {
    if (name !== undefined) return this.handlers.get(name)?.length ?? 0;
    let n = 0;
    for (const list of this.handlers.values()) n += list.length;
    return n;
  }
}

/* --------------------------------------------------------------- component */

/** Imitates Component: loads and unloads itself and its children, running registered callbacks on unload (https://docs.obsidian.md/Reference/TypeScript+API/Component). */
export class Component {
  private loaded = false;
  private readonly children: Component[] = [];
  private cleanups: (() => unknown)[] = [];

  /** Test helper: resolves when the last `load()`'s `onload` has finished (Obsidian awaits an async `onload`). */
  loading: Promise<void> = Promise.resolve();

  /** Imitates Component.load: "Load this component and its children"; an async `onload` is not awaited, see {@link loading} (https://docs.obsidian.md/Reference/TypeScript+API/Component/load). */
  load(): void {
    if (this.loaded) return;
    this.loaded = true;
    this.loading = Promise.resolve(this.onload());
    for (const child of this.children) child.load();
  }

  /** Imitates Component.onload: "Override this to load your component" (https://docs.obsidian.md/Reference/TypeScript+API/Component/onload). */
  onload(): void | Promise<void> {}

  /** Imitates Component.unload: "Unload this component and its children", then runs the registered callbacks, newest first (https://docs.obsidian.md/Reference/TypeScript+API/Component/unload). */
  unload(): void {
    if (!this.loaded) return;
    this.loaded = false;
    for (const child of this.children.splice(0)) child.unload();
    for (const cleanup of this.cleanups.splice(0).reverse()) cleanup();
    this.onunload();
  }

  /** Imitates Component.onunload: "Override this to unload your component" (https://docs.obsidian.md/Reference/TypeScript+API/Component/onunload). */
  onunload(): void {}

  /** Imitates Component.addChild: "Adds a child component, loading it if this component is loaded" (https://docs.obsidian.md/Reference/TypeScript+API/Component/addChild). */
  addChild<T extends Component>(component: T): T {
    this.children.push(component);
    if (this.loaded) component.load();
    return component;
  }

  /** Imitates Component.register: "Registers a callback to be called when unloading" (https://docs.obsidian.md/Reference/TypeScript+API/Component/register). */
  register(cb: () => unknown): void {
    this.cleanups.push(cb);
  }

  /** Imitates Component.registerEvent: "Registers an event to be detached when unloading" (https://docs.obsidian.md/Reference/TypeScript+API/Component/registerEvent). */
  registerEvent(eventRef: EventRef): void {
    this.register(() => eventRef.e.offref(eventRef));
  }
}

/* ------------------------------------------------------------------- files */

/** Imitates FileStats: a file's creation and modification times (ms) and its size in bytes (https://docs.obsidian.md/Reference/TypeScript+API/FileStats). */
export interface FileStats {
  ctime: number;
  mtime: number;
  size: number;
}

/** Imitates TAbstractFile: "either a `TFile` or a `TFolder`" (https://docs.obsidian.md/Reference/TypeScript+API/TAbstractFile). */
export abstract class TAbstractFile {
  /** Imitates TAbstractFile.path: the vault path, `/` for the root (https://docs.obsidian.md/Reference/TypeScript+API/TAbstractFile/path). */
  path = "";
  /** Imitates TAbstractFile.name: the last segment of the path, with the extension (https://docs.obsidian.md/Reference/TypeScript+API/TAbstractFile/name). */
  name = "";
  /** Imitates TAbstractFile.parent: the folder holding it, `null` for the root (https://docs.obsidian.md/Reference/TypeScript+API/TAbstractFile/parent). */
  parent: TFolder | null = null;
}

/** Imitates TFile: a file in the vault (https://docs.obsidian.md/Reference/TypeScript+API/TFile). */
export class TFile extends TAbstractFile {
  /** Imitates TFile.stat: ctime and mtime from a fake clock (one second per write), size in UTF-8 bytes (https://docs.obsidian.md/Reference/TypeScript+API/TFile/stat). */
  stat: FileStats = { ctime: 0, mtime: 0, size: 0 };
  /** Imitates TFile.basename: the name without its extension (https://docs.obsidian.md/Reference/TypeScript+API/TFile/basename). */
  basename = "";
  /** Imitates TFile.extension: what follows the last dot of the name (https://docs.obsidian.md/Reference/TypeScript+API/TFile/extension). */
  extension = "";
}

/** Imitates TFolder: a folder in the vault (https://docs.obsidian.md/Reference/TypeScript+API/TFolder). */
export class TFolder extends TAbstractFile {
  /** Imitates TFolder.children: the files and folders directly inside (https://docs.obsidian.md/Reference/TypeScript+API/TFolder/children). */
  children: TAbstractFile[] = [];
}

/** Imitates normalizePath: `/` separators, no duplicate, leading or trailing slash, non-breaking spaces as spaces, NFC (https://docs.obsidian.md/Reference/TypeScript+API/normalizePath). */
export function normalizePath(path: string): string {
  let p = path.replace(/[\\/]+/g, "/").replace(/\u00a0|\u202f/g, " ");
  p = p.replace(/^\/+|\/+$/g, "");
  return p === "" ? "/" : p.normalize("NFC");
}

function parentOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "/" : path.slice(0, i);
}

function byteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** Imitates DataAdapter in memory ("work directly with files and folders"), for files under the config folder: plugin data, the search index; only the methods the plugin calls (https://docs.obsidian.md/Reference/TypeScript+API/DataAdapter). */
export class StubAdapter {
  /** Test helper: the adapter's files, by path (what `write` and {@link Plugin.saveData} stored). */
  readonly files = new Map<string, string>();
  /** Test helper: the adapter's binary files, by path (what `writeBinary` and `appendBinary` stored). */
  readonly binaries = new Map<string, Uint8Array>();
  /** Test helper: the folders `mkdir` made. */
  readonly folders = new Set<string>();

  /** Imitates DataAdapter.exists: whether a file or folder is at `path` (https://docs.obsidian.md/Reference/TypeScript+API/DataAdapter/exists). */
  exists(path: string): Promise<boolean> {
    return Promise.resolve(
      this.files.has(path) || this.binaries.has(path) || this.folders.has(path),
    );
  }
  /** Imitates DataAdapter.readBinary: the bytes at `path`; rejects when there are none (https://docs.obsidian.md/Reference/TypeScript+API/DataAdapter/readBinary). */
  readBinary(path: string): Promise<ArrayBuffer> {
    const bytes = this.binaries.get(path);
    return bytes === undefined
      ? Promise.reject(new Error(`ENOENT: ${path}`))
      : Promise.resolve(bytes.slice().buffer);
  }
  /** Imitates DataAdapter.writeBinary: writes bytes at `path` (https://docs.obsidian.md/Reference/TypeScript+API/DataAdapter/writeBinary). */
  writeBinary(path: string, data: ArrayBuffer): Promise<void> {
    this.binaries.set(path, new Uint8Array(data.slice(0)));
    return Promise.resolve();
  }
  /** Imitates DataAdapter.remove: removes the file at `path` (https://docs.obsidian.md/Reference/TypeScript+API/DataAdapter/remove). */
  remove(path: string): Promise<void> {
    this.files.delete(path);
    this.binaries.delete(path);
    return Promise.resolve();
  }
  /** Imitates DataAdapter.appendBinary: adds bytes at the end of `path`, creating it (https://docs.obsidian.md/Reference/TypeScript+API/DataAdapter/appendBinary). */
  appendBinary(path: string, data: ArrayBuffer): Promise<void> {
    const old = this.binaries.get(path) ?? new Uint8Array(0);
    const next = new Uint8Array(old.length + data.byteLength);
    next.set(old, 0);
    next.set(new Uint8Array(data), old.length);
    this.binaries.set(path, next);
    return Promise.resolve();
  }
  /** Imitates DataAdapter.read: the text at `path`; rejects when there is none (https://docs.obsidian.md/Reference/TypeScript+API/DataAdapter/read). */
  read(path: string): Promise<string> {
    const text = this.files.get(path);
    return text === undefined
      ? Promise.reject(new Error(`ENOENT: ${path}`))
      : Promise.resolve(text);
  }
  /** Imitates DataAdapter.write: writes text at `path` (the fake needs no folder for it) (https://docs.obsidian.md/Reference/TypeScript+API/DataAdapter/write). */
  write(path: string, data: string): Promise<void> {
    this.files.set(path, data);
    return Promise.resolve();
  }
  /** Imitates DataAdapter.mkdir: makes a folder (https://docs.obsidian.md/Reference/TypeScript+API/DataAdapter/mkdir). */
  mkdir(path: string): Promise<void> {
    this.folders.add(path);
    return Promise.resolve();
  }
}

/** Imitates Vault: "Work with files and folders stored inside a vault", in memory; events fire synchronously, before the returned promise settles (https://docs.obsidian.md/Reference/TypeScript+API/Vault). */
export class Vault extends Events {
  /** Imitates Vault.configDir: "the path to the config folder", `.obsidian` here (https://docs.obsidian.md/Reference/TypeScript+API/Vault/configDir). */
  configDir = ".obsidian";
  /** Imitates Vault.adapter: the {@link StubAdapter} for files under the config folder (https://docs.obsidian.md/Reference/TypeScript+API/Vault/adapter). */
  adapter = new StubAdapter();
  private readonly entries = new Map<string, TAbstractFile>();
  private readonly contents = new Map<string, string>();
  /** Raw bytes of files seeded with {@link seedBytes} (not UTF-8), until they are written. */
  private readonly rawBytes = new Map<string, Uint8Array>();
  private clock = Date.UTC(2026, 2, 27, 9, 0, 0);
  /** Test helper: called inside `process` between the read and the write. */
  onProcess: ((file: TFile) => void) | null = null;
  /** Test helper: counts writes (create, modify, process, setContent), for "writes nothing" checks. */
  writes = 0;

  constructor() {
    super();
    const root = new TFolder();
    root.path = "/";
    root.name = "";
    this.entries.set("/", root);
  }

  private tick(): number {
    this.clock += 1000;
    return this.clock;
  }

  /** Imitates Vault.getAbstractFileByPath: the file or folder at a vault path (case-sensitive), or `null` (https://docs.obsidian.md/Reference/TypeScript+API/Vault/getAbstractFileByPath). */
  getAbstractFileByPath(path: string): TAbstractFile | null {
    return this.entries.get(path) ?? null;
  }
  /** Imitates Vault.getFileByPath: the file at `path`; `null` if there is none or it is a folder (https://docs.obsidian.md/Reference/TypeScript+API/Vault/getFileByPath). */
  getFileByPath(path: string): TFile | null {
    const f = this.entries.get(path);
    return f instanceof TFile ? f : null;
  }
  /** Imitates Vault.getFolderByPath: the folder at `path`; `null` if there is none or it is a file (https://docs.obsidian.md/Reference/TypeScript+API/Vault/getFolderByPath). */
  getFolderByPath(path: string): TFolder | null {
    const f = this.entries.get(path);
    return f instanceof TFolder ? f : null;
  }
  /** Imitates Vault.getMarkdownFiles: "all Markdown files in the vault" (https://docs.obsidian.md/Reference/TypeScript+API/Vault/getMarkdownFiles). */
  getMarkdownFiles(): TFile[] {
    return [...this.entries.values()].filter(
      (f): f is TFile => f instanceof TFile && f.extension === "md",
    );
  }

  private attach(entry: TAbstractFile, path: string): void {
    const parent = this.getFolderByPath(parentOf(path));
    if (!parent) throw new Error(`ENOENT: no such folder ${parentOf(path)} for ${path}`);
    entry.path = path;
    entry.name = path.slice(path.lastIndexOf("/") + 1);
    entry.parent = parent;
    parent.children.push(entry);
    this.entries.set(path, entry);
  }

  /** Imitates Vault.createFolder: rejects "if folder already exists"; the fake also needs the parent folder to exist (https://docs.obsidian.md/Reference/TypeScript+API/Vault/createFolder). */
  createFolder(path: string): Promise<TFolder> {
    if (this.entries.has(path)) return Promise.reject(new Error("Folder already exists."));
    try {
      const folder = new TFolder();
      this.attach(folder, path);
      this.trigger("create", folder);
      return Promise.resolve(folder);
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
  }

  /** Imitates Vault.create: "Create a new plaintext file", firing `create`; rejects if the file exists or its folder does not (https://docs.obsidian.md/Reference/TypeScript+API/Vault/create). */
  create(path: string, data: string): Promise<TFile> {
    if (this.entries.has(path)) return Promise.reject(new Error("File already exists."));
    try {
      const file = new TFile();
      this.attach(file, path);
      const dot = file.name.lastIndexOf(".");
      file.basename = dot > 0 ? file.name.slice(0, dot) : file.name;
      file.extension = dot > 0 ? file.name.slice(dot + 1) : "";
      const now = this.tick();
      file.stat = { ctime: now, mtime: now, size: byteLength(data) };
      this.contents.set(path, data);
      this.writes++;
      this.trigger("create", file);
      return Promise.resolve(file);
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
  }

  /** Imitates Vault.read: "Read a plaintext file" (rejects for a missing one) (https://docs.obsidian.md/Reference/TypeScript+API/Vault/read). */
  read(file: TFile): Promise<string> {
    const text = this.contents.get(file.path);
    return text === undefined
      ? Promise.reject(new Error(`ENOENT: ${file.path}`))
      : Promise.resolve(text);
  }

  /** Imitates Vault.readBinary: "the content of a binary file": the bytes given to {@link seedBytes}, else the text as UTF-8 (https://docs.obsidian.md/Reference/TypeScript+API/Vault/readBinary). */
  readBinary(file: TFile): Promise<ArrayBuffer> {
    const raw = this.rawBytes.get(file.path);
    const text = this.contents.get(file.path);
    if (text === undefined) return Promise.reject(new Error(`ENOENT: ${file.path}`));
    const bytes = raw ?? new TextEncoder().encode(text);
    return Promise.resolve(bytes.slice().buffer);
  }

  /** Test helper: a person's edit in the editor: writes synchronously and fires `modify`. */
  setContent(file: TFile, data: string): void {
    this.rawBytes.delete(file.path);
    this.contents.set(file.path, data);
    file.stat = { ...file.stat, mtime: this.tick(), size: byteLength(data) };
    this.writes++;
    this.trigger("modify", file);
  }

  /** Imitates Vault.modify: "Modify the contents of a plaintext file", firing `modify` (https://docs.obsidian.md/Reference/TypeScript+API/Vault/modify). */
  modify(file: TFile, data: string): Promise<void> {
    this.setContent(file, data);
    return Promise.resolve();
  }

  /** Imitates Vault.process: "Atomically read, modify, and save the contents of a note"; resolves to the text written (https://docs.obsidian.md/Reference/TypeScript+API/Vault/process). */
  process(file: TFile, fn: (data: string) => string): Promise<string> {
    this.onProcess?.(file);
    const current = this.contents.get(file.path);
    if (current === undefined) return Promise.reject(new Error(`ENOENT: ${file.path}`));
    const next = fn(current);
    this.setContent(file, next);
    return Promise.resolve(next);
  }

  /** Imitates Vault.rename: "Rename or move a file", firing `rename` with the old path; rejects if the destination exists (https://docs.obsidian.md/Reference/TypeScript+API/Vault/rename). */
  rename(file: TAbstractFile, newPath: string): Promise<void> {
    const oldPath = file.path;
    if (this.entries.has(newPath))
      return Promise.reject(new Error("Destination file already exists!"));
    this.entries.delete(oldPath);
    file.parent?.children.splice(file.parent.children.indexOf(file), 1);
    this.attach(file, newPath);
    if (file instanceof TFile) {
      const text = this.contents.get(oldPath) ?? "";
      this.contents.delete(oldPath);
      this.contents.set(newPath, text);
      const dot = file.name.lastIndexOf(".");
      file.basename = dot > 0 ? file.name.slice(0, dot) : file.name;
    }
    this.trigger("rename", file, oldPath);
    return Promise.resolve();
  }

  /** Imitates Vault.delete: "Deletes the file completely", firing `delete`; a folder's children stay listed (https://docs.obsidian.md/Reference/TypeScript+API/Vault/delete). */
  delete(file: TAbstractFile): Promise<void> {
    this.entries.delete(file.path);
    this.contents.delete(file.path);
    file.parent?.children.splice(file.parent.children.indexOf(file), 1);
    this.trigger("delete", file);
    return Promise.resolve();
  }

  /** Test helper: creates a file and its folders without going through the plugin. */
  async seed(path: string, data: string): Promise<TFile> {
    const parts = path.split("/");
    for (let i = 1; i < parts.length; i++) {
      const folder = parts.slice(0, i).join("/");
      if (!this.entries.has(folder)) await this.createFolder(folder);
    }
    return this.create(path, data);
  }

  /**
   * Test helper: a file whose bytes are not UTF-8; `read` gives them decoded with replacement
   * characters, as Obsidian does, and `readBinary` the bytes.
   */
  async seedBytes(path: string, bytes: Uint8Array): Promise<TFile> {
    const file = await this.seed(path, new TextDecoder().decode(bytes));
    this.rawBytes.set(path, bytes);
    return file;
  }

  /** Test helper: the current text of a file, or `undefined`. */
  text(path: string): string | undefined {
    return this.contents.get(path);
  }
}

/** Imitates FileManager: "Manage the creation, deletion and renaming of files from the UI", over the vault (https://docs.obsidian.md/Reference/TypeScript+API/FileManager). */
export class FileManager {
  constructor(private readonly vault: Vault) {}
  /** Imitates FileManager.renameFile: "Rename or move a file safely, and update all links to it"; the fake renames, links are not rewritten (https://docs.obsidian.md/Reference/TypeScript+API/FileManager/renameFile). */
  renameFile(file: TAbstractFile, newPath: string): Promise<void> {
    return this.vault.rename(file, newPath);
  }
  /** Imitates FileManager.trashFile: removes a file "according the user's preferred 'trash' options"; the fake deletes it (https://docs.obsidian.md/Reference/TypeScript+API/FileManager/trashFile). */
  trashFile(file: TAbstractFile): Promise<void> {
    return this.vault.delete(file);
  }
}

/** Imitates MetadataCache: only as an event source the plugin subscribes to; the fake parses no notes and fires nothing (https://docs.obsidian.md/Reference/TypeScript+API/MetadataCache). */
export class MetadataCache extends Events {}

/* ----------------------------------------------------------------- secrets */

/** Imitates SecretStorage: secrets by id (1.11.4), in memory (https://docs.obsidian.md/Reference/TypeScript+API/SecretStorage). */
export class SecretStorage extends Events {
  private readonly secrets = new Map<string, string>();
  /** Imitates SecretStorage.setSecret: stores a secret; throws if the id is not lowercase alphanumeric with dashes (https://docs.obsidian.md/Reference/TypeScript+API/SecretStorage/setSecret). */
  setSecret(id: string, secret: string): void {
    if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(id)) throw new Error(`Invalid secret id: ${id}`);
    this.secrets.set(id, secret);
  }
  /** Imitates SecretStorage.getSecret: "The secret value or null if not found" (https://docs.obsidian.md/Reference/TypeScript+API/SecretStorage/getSecret). */
  getSecret(id: string): string | null {
    return this.secrets.get(id) ?? null;
  }
  /** Imitates SecretStorage.listSecrets: the ids of the stored secrets (https://docs.obsidian.md/Reference/TypeScript+API/SecretStorage/listSecrets). */
  listSecrets(): string[] {
    return [...this.secrets.keys()];
  }
}

/* --------------------------------------------------------------- workspace */

/** Imitates ViewCreator: makes the view of a leaf, as given to {@link Plugin.registerView} (https://docs.obsidian.md/Reference/TypeScript+API/ViewCreator). */
export type ViewCreator = (leaf: WorkspaceLeaf) => View;

/** Imitates WorkspaceLeaf: a place that holds one view; the fake has no layout, tabs or DOM placement (https://docs.obsidian.md/Reference/TypeScript+API/WorkspaceLeaf). */
export class WorkspaceLeaf extends Events {
  /** Imitates WorkspaceLeaf.view: "The view associated with this leaf"; `null` until {@link setViewState} (Obsidian shows an empty view) (https://docs.obsidian.md/Reference/TypeScript+API/WorkspaceLeaf/view). */
  view: View | null = null;
  constructor(
    /** Test helper: the workspace that made the leaf (Obsidian keeps it internally). */
    readonly workspace: Workspace,
  ) {
    super();
  }
  /** Imitates WorkspaceLeaf.setViewState: replaces the view by a new one of `state.type` and opens it; throws for a type no plugin registered (https://docs.obsidian.md/Reference/TypeScript+API/WorkspaceLeaf/setViewState). */
  async setViewState(state: { type: string; active?: boolean }): Promise<void> {
    const creator = this.workspace.app.viewRegistry.get(state.type);
    if (!creator) throw new Error(`no view registered for ${state.type}`);
    if (this.view) await this.detachView();
    const view = creator(this);
    this.view = view;
    view.load();
    await view.open();
  }
  private async detachView(): Promise<void> {
    const view = this.view;
    this.view = null;
    if (view) {
      await view.close();
      view.unload();
    }
  }
  /** Imitates WorkspaceLeaf.detach: closes the view and removes the leaf; the close is not awaited (https://docs.obsidian.md/Reference/TypeScript+API/WorkspaceLeaf/detach). */
  detach(): void {
    void this.detachView();
    this.workspace.leaves = this.workspace.leaves.filter((l) => l !== this);
  }
}

/** Test helper: one call of {@link Workspace.openLinkText}. */
export interface OpenedLink {
  linktext: string;
  sourcePath: string;
  newLeaf?: unknown;
  state?: unknown;
}

/** Imitates Workspace: its leaves, the active file and layout readiness; no real layout (https://docs.obsidian.md/Reference/TypeScript+API/Workspace). */
export class Workspace extends Events {
  private layoutReady = false;
  /** Test helper: the leaves made so far. */
  leaves: WorkspaceLeaf[] = [];
  /** Test helper: what {@link getActiveFile} returns. */
  activeFile: TFile | null = null;
  /** Test helper: links opened through {@link openLinkText}, for assertions. */
  opened: OpenedLink[] = [];
  private readyQueue: (() => unknown)[] = [];
  constructor(
    /** Test helper: the app the workspace belongs to. */
    readonly app: App,
  ) {
    super();
  }
  /** Imitates Workspace.onLayoutReady: "Runs the callback function right away if layout is already ready, or push it to a queue", flushed by {@link triggerLayoutReady} (https://docs.obsidian.md/Reference/TypeScript+API/Workspace/onLayoutReady). */
  onLayoutReady(callback: () => unknown): void {
    if (this.layoutReady) callback();
    else this.readyQueue.push(callback);
  }
  /** Test helper: Obsidian finished loading the layout. */
  triggerLayoutReady(): void {
    this.layoutReady = true;
    for (const cb of this.readyQueue.splice(0)) cb();
  }
  /** Imitates Workspace.getActiveFile: "the file for the current view"; here {@link activeFile} (https://docs.obsidian.md/Reference/TypeScript+API/Workspace/getActiveFile). */
  getActiveFile(): TFile | null {
    return this.activeFile;
  }
  /** Imitates Workspace.getLeavesOfType: "all leaves of a given type" (https://docs.obsidian.md/Reference/TypeScript+API/Workspace/getLeavesOfType). */
  getLeavesOfType(type: string): WorkspaceLeaf[] {
    return this.leaves.filter((l) => l.view?.getViewType() === type);
  }
  private newLeaf(): WorkspaceLeaf {
    const leaf = new WorkspaceLeaf(this);
    this.leaves.push(leaf);
    return leaf;
  }
  /** Imitates Workspace.getRightLeaf: "a new leaf inside the right sidebar"; `split` is ignored (https://docs.obsidian.md/Reference/TypeScript+API/Workspace/getRightLeaf). */
  getRightLeaf(split: boolean): WorkspaceLeaf | null {
    void split;
    return this.newLeaf();
  }
  /** Imitates Workspace.revealLeaf: "Bring a given leaf to the foreground"; there is no foreground here, it resolves at once (https://docs.obsidian.md/Reference/TypeScript+API/Workspace/revealLeaf). */
  revealLeaf(leaf: WorkspaceLeaf): Promise<void> {
    void leaf;
    return Promise.resolve();
  }
  /** Imitates Workspace.openLinkText: opens a link; the fake records it in {@link opened} (https://docs.obsidian.md/Reference/TypeScript+API/Workspace/openLinkText). */
  openLinkText(
    linktext: string,
    sourcePath: string,
    newLeaf?: unknown,
    state?: unknown,
  ): Promise<void> {
    this.opened.push({ linktext, sourcePath, newLeaf, state });
    return Promise.resolve();
  }
}

/* --------------------------------------------------------------------- app */

/** Test helper: shape of the internal plugin registry the Daily notes lookup reads (not part of the public API). */
export interface StubInternalPlugins {
  getPluginById(
    id: string,
  ): { enabled: boolean; instance?: { options?: Record<string, unknown> } } | null;
}

/** Imitates App: the vault, workspace, file manager, metadata cache and secret storage a plugin reaches as `this.app` (https://docs.obsidian.md/Reference/TypeScript+API/App). */
export class App {
  /** Imitates App.vault (https://docs.obsidian.md/Reference/TypeScript+API/App/vault). */
  vault = new Vault();
  /** Imitates App.workspace (https://docs.obsidian.md/Reference/TypeScript+API/App/workspace). */
  workspace: Workspace;
  /** Imitates App.fileManager (https://docs.obsidian.md/Reference/TypeScript+API/App/fileManager). */
  fileManager: FileManager;
  /** Imitates App.metadataCache (https://docs.obsidian.md/Reference/TypeScript+API/App/metadataCache). */
  metadataCache = new MetadataCache();
  /** Imitates App.secretStorage (https://docs.obsidian.md/Reference/TypeScript+API/App/secretStorage). */
  secretStorage = new SecretStorage();
  /** Test helper: the registered view creators, by view type (filled by {@link Plugin.registerView}; Obsidian keeps them internally). */
  viewRegistry = new Map<string, ViewCreator>();
  /** Test helper: the commands plugins added, by full id (`plugin-id:command-id`). */
  commands = new Map<string, Command>();
  /**
   * Test helper: Obsidian's internal plugins (not in obsidian.d.ts; the plugin reads them defensively,
   * src/obsidian/adapters/today-journal.ts); tests set the Daily notes plugin's options here.
   */
  internalPlugins: StubInternalPlugins;
  private dailyNotes: {
    enabled: boolean;
    instance?: { options?: Record<string, unknown> };
  } | null = null;

  constructor() {
    this.workspace = new Workspace(this);
    this.fileManager = new FileManager(this.vault);
    this.internalPlugins = {
      getPluginById: (id) => (id === "daily-notes" ? this.dailyNotes : null),
    };
  }

  /** Test helper: configures the Daily notes core plugin. */
  setDailyNotes(options: Record<string, unknown> | null, enabled = true): void {
    this.dailyNotes = options ? { enabled, instance: { options } } : null;
  }
}

/* ------------------------------------------------------------------ plugin */

/** Imitates Command: a command's id, name, icon, hotkeys and callbacks (https://docs.obsidian.md/Reference/TypeScript+API/Command). */
export interface Command {
  id: string;
  name: string;
  icon?: string;
  hotkeys?: unknown[];
  callback?: () => unknown;
  checkCallback?: (checking: boolean) => boolean | void;
  editorCallback?: (...args: unknown[]) => unknown;
  editorCheckCallback?: (...args: unknown[]) => unknown;
}

/** Imitates PluginManifest: "Metadata about a Community plugin", as in manifest.json (https://docs.obsidian.md/Reference/TypeScript+API/PluginManifest). */
export interface PluginManifest {
  id: string;
  name: string;
  version: string;
  minAppVersion: string;
  description: string;
  author: string;
  dir?: string;
  isDesktopOnly?: boolean;
}

function newEl(tag: keyof HTMLElementTagNameMap, cls?: string): HTMLElement {
  return createEl(tag, cls ? { cls } : undefined);
}

/** Imitates Plugin: a Component whose `onload` adds commands, views, ribbon icons, status bar items and settings tabs, each removed again on unload (https://docs.obsidian.md/Reference/TypeScript+API/Plugin). */
export abstract class Plugin extends Component {
  /** Test helper: the ribbon icons the plugin added. */
  readonly ribbonIcons: {
    icon: string;
    title: string;
    el: HTMLElement;
    callback: (evt: MouseEvent) => unknown;
  }[] = [];
  /** Test helper: the status bar items the plugin added. */
  readonly statusBarItems: HTMLElement[] = [];
  /** Test helper: the settings tabs the plugin added. */
  readonly settingTabs: PluginSettingTab[] = [];
  /** Test helper: the view types the plugin registered. */
  readonly registeredViews: string[] = [];
  /** Test helper: ids of the commands added, for assertions. */
  readonly commandIds: string[] = [];

  constructor(
    /** Imitates Plugin.app (https://docs.obsidian.md/Reference/TypeScript+API/Plugin/app). */
    public app: App,
    /** Imitates Plugin.manifest (https://docs.obsidian.md/Reference/TypeScript+API/Plugin/manifest). */
    public manifest: PluginManifest,
  ) {
    super();
  }

  /** Imitates Plugin.addRibbonIcon: "Adds a ribbon icon to the left bar"; the element is not placed in a document (https://docs.obsidian.md/Reference/TypeScript+API/Plugin/addRibbonIcon). */
  addRibbonIcon(icon: string, title: string, callback: (evt: MouseEvent) => unknown): HTMLElement {
    const el = newEl("div", "side-dock-ribbon-action");
    el.setAttribute("aria-label", title);
    el.addEventListener("click", callback as EventListener);
    const entry = { icon, title, el, callback };
    this.ribbonIcons.push(entry);
    this.register(() => {
      el.removeEventListener("click", callback as EventListener);
      el.remove();
      this.ribbonIcons.splice(this.ribbonIcons.indexOf(entry), 1);
    });
    return el;
  }

  /** Imitates Plugin.addStatusBarItem: an element for "the bottom of the app" (not placed in a document) (https://docs.obsidian.md/Reference/TypeScript+API/Plugin/addStatusBarItem). */
  addStatusBarItem(): HTMLElement {
    const el = newEl("div", "status-bar-item");
    this.statusBarItems.push(el);
    this.register(() => {
      el.remove();
      this.statusBarItems.splice(this.statusBarItems.indexOf(el), 1);
    });
    return el;
  }

  /** Imitates Plugin.addCommand: registers a command, its id and name "prefixed with this plugin's id and name" (https://docs.obsidian.md/Reference/TypeScript+API/Plugin/addCommand). */
  addCommand(command: Command): Command {
    const full = {
      ...command,
      id: `${this.manifest.id}:${command.id}`,
      name: `${this.manifest.name}: ${command.name}`,
    };
    this.app.commands.set(full.id, full);
    this.commandIds.push(command.id);
    this.register(() => {
      this.app.commands.delete(full.id);
      this.commandIds.splice(this.commandIds.indexOf(command.id), 1);
    });
    return full;
  }

  /** Imitates Plugin.addSettingTab: "Register a settings tab" (https://docs.obsidian.md/Reference/TypeScript+API/Plugin/addSettingTab). */
  addSettingTab(settingTab: PluginSettingTab): void {
    this.settingTabs.push(settingTab);
    this.register(() => this.settingTabs.splice(this.settingTabs.indexOf(settingTab), 1));
  }

  /** Imitates Plugin.registerView: registers the creator of a view type, until unload (https://docs.obsidian.md/Reference/TypeScript+API/Plugin/registerView). */
  registerView(type: string, viewCreator: ViewCreator): void {
    this.app.viewRegistry.set(type, viewCreator);
    this.registeredViews.push(type);
    this.register(() => {
      this.app.viewRegistry.delete(type);
      this.registeredViews.splice(this.registeredViews.indexOf(type), 1);
    });
  }

  /** `data.json` of the plugin, as Obsidian stores it: JSON text in the plugin folder. */
  private dataPath(): string {
    return `${this.app.vault.configDir}/plugins/${this.manifest.id}/data.json`;
  }

  /** Imitates Plugin.loadData: the parsed `data.json` of the plugin folder, or `null` (https://docs.obsidian.md/Reference/TypeScript+API/Plugin/loadData). */
  async loadData(): Promise<unknown> {
    const text = this.app.vault.adapter.files.get(this.dataPath());
    return Promise.resolve(text === undefined ? null : (JSON.parse(text) as unknown));
  }

  /** Imitates Plugin.saveData: writes `data` as the plugin folder's `data.json` (https://docs.obsidian.md/Reference/TypeScript+API/Plugin/saveData). */
  async saveData(data: unknown): Promise<void> {
    this.app.vault.adapter.files.set(this.dataPath(), JSON.stringify(data, null, 2));
    return Promise.resolve();
  }
}

/* ------------------------------------------------------------------ notice */

/** Imitates Notice: "Notification component"; the fake records notices in {@link Notice.shown} and never shows or times them out (https://docs.obsidian.md/Reference/TypeScript+API/Notice). */
export class Notice {
  /** Test helper: every notice shown since the last reset, newest last. */
  static shown: Notice[] = [];
  /** Imitates Notice.containerEl (https://docs.obsidian.md/Reference/TypeScript+API/Notice/containerEl). */
  containerEl: HTMLElement;
  /** Imitates Notice.messageEl: the element holding the message (https://docs.obsidian.md/Reference/TypeScript+API/Notice/messageEl). */
  messageEl: HTMLElement;
  /** Test helper: whether {@link hide} was called. */
  hidden = false;

  constructor(
    message: string | DocumentFragment,
    /** Test helper: the timeout given (ms; 0 keeps the notice until hidden). */
    public duration?: number,
  ) {
    this.containerEl = newEl("div", "notice");
    this.messageEl = newEl("div", "notice-message");
    this.containerEl.appendChild(this.messageEl);
    if (typeof message === "string") this.messageEl.textContent = message;
    else this.messageEl.appendChild(message);
    Notice.shown.push(this);
  }

  /** Imitates Notice.hide: hides the notice; here it only sets {@link hidden} (https://docs.obsidian.md/Reference/TypeScript+API/Notice/hide). */
  hide(): void {
    this.hidden = true;
  }

  /** Test helper: the notice's text. */
  get text(): string {
    return this.messageEl.textContent ?? "";
  }
}

/* ------------------------------------------------------------- views, modal */

/** Imitates View: what a leaf shows; opened and closed by {@link WorkspaceLeaf} (https://docs.obsidian.md/Reference/TypeScript+API/View). */
export abstract class View extends Component {
  /** Imitates View.app (https://docs.obsidian.md/Reference/TypeScript+API/View/app). */
  app: App;
  /** Imitates View.containerEl: the view's root element (https://docs.obsidian.md/Reference/TypeScript+API/View/containerEl). */
  containerEl: HTMLElement;
  constructor(
    /** Imitates View.leaf (https://docs.obsidian.md/Reference/TypeScript+API/View/leaf). */
    public leaf: WorkspaceLeaf,
  ) {
    super();
    this.app = leaf.workspace.app;
    this.containerEl = newEl("div", "workspace-leaf-content");
  }
  /** Imitates View.getViewType: the type the view was registered under (https://docs.obsidian.md/Reference/TypeScript+API/View/getViewType). */
  abstract getViewType(): string;
  /** Imitates View.getDisplayText: the view's title (https://docs.obsidian.md/Reference/TypeScript+API/View/getDisplayText). */
  abstract getDisplayText(): string;
  /** Imitates View.onOpen: override it to build the view (https://docs.obsidian.md/Reference/TypeScript+API/View/onOpen). */
  protected onOpen(): Promise<void> {
    return Promise.resolve();
  }
  /** Imitates View.onClose: override it to clean up (https://docs.obsidian.md/Reference/TypeScript+API/View/onClose). */
  protected onClose(): Promise<void> {
    return Promise.resolve();
  }
  /** Test helper: stub plumbing for {@link WorkspaceLeaf.setViewState}. */
  open(): Promise<void> {
    return this.onOpen();
  }
  /** Test helper: stub plumbing for {@link WorkspaceLeaf.detach}. */
  close(): Promise<void> {
    return this.onClose();
  }
}

/** Imitates ItemView: a view with a header and a `contentEl` below it (https://docs.obsidian.md/Reference/TypeScript+API/ItemView). */
export abstract class ItemView extends View {
  /** Imitates ItemView.contentEl: where the view renders (https://docs.obsidian.md/Reference/TypeScript+API/ItemView/contentEl). */
  contentEl: HTMLElement;
  constructor(leaf: WorkspaceLeaf) {
    super(leaf);
    this.containerEl.appendChild(newEl("div", "view-header"));
    this.contentEl = newEl("div", "view-content");
    this.containerEl.appendChild(this.contentEl);
  }
}

/** Imitates Modal: a dialog appended to `document.body` while open; no focus trap, animation or Escape key (https://docs.obsidian.md/Reference/TypeScript+API/Modal). */
export class Modal {
  /** Test helper: modals currently open, for assertions. */
  static openModals: Modal[] = [];
  /** Imitates Modal.containerEl (https://docs.obsidian.md/Reference/TypeScript+API/Modal/containerEl). */
  containerEl: HTMLElement;
  /** Imitates Modal.modalEl (https://docs.obsidian.md/Reference/TypeScript+API/Modal/modalEl). */
  modalEl: HTMLElement;
  /** Imitates Modal.titleEl (https://docs.obsidian.md/Reference/TypeScript+API/Modal/titleEl). */
  titleEl: HTMLElement;
  /** Imitates Modal.contentEl (https://docs.obsidian.md/Reference/TypeScript+API/Modal/contentEl). */
  contentEl: HTMLElement;
  constructor(
    /** Imitates Modal.app (https://docs.obsidian.md/Reference/TypeScript+API/Modal/app). */
    public app: App,
  ) {
    this.containerEl = newEl("div", "modal-container");
    this.modalEl = newEl("div", "modal");
    this.titleEl = newEl("div", "modal-title");
    this.contentEl = newEl("div", "modal-content");
    this.modalEl.append(this.titleEl, this.contentEl);
    this.containerEl.appendChild(this.modalEl);
  }
  /** Imitates Modal.open: "Show the modal": appends it to the document and calls {@link onOpen}, not awaited (https://docs.obsidian.md/Reference/TypeScript+API/Modal/open). */
  open(): void {
    Modal.openModals.push(this);
    document.body.appendChild(this.containerEl);
    void this.onOpen();
  }
  /** Imitates Modal.close: "Hide the modal": removes it and calls {@link onClose} (https://docs.obsidian.md/Reference/TypeScript+API/Modal/close). */
  close(): void {
    Modal.openModals = Modal.openModals.filter((m) => m !== this);
    this.containerEl.remove();
    this.onClose();
  }
  /** Imitates Modal.onOpen: override it to build the modal (https://docs.obsidian.md/Reference/TypeScript+API/Modal/onOpen). */
  onOpen(): Promise<void> | void {}
  /** Imitates Modal.onClose: override it to clean up (https://docs.obsidian.md/Reference/TypeScript+API/Modal/onClose). */
  onClose(): void {}
  /** Imitates Modal.setTitle: sets the title's text (https://docs.obsidian.md/Reference/TypeScript+API/Modal/setTitle). */
  setTitle(title: string): this {
    this.titleEl.textContent = title;
    return this;
  }
}

/* ---------------------------------------------------------------- settings */

/** Imitates BaseComponent: the base of the controls a {@link Setting} holds (https://docs.obsidian.md/Reference/TypeScript+API/BaseComponent). */
export abstract class BaseComponent {}

/** Imitates TextComponent: a text `<input>` (https://docs.obsidian.md/Reference/TypeScript+API/TextComponent). */
export class TextComponent extends BaseComponent {
  /** Imitates AbstractTextComponent.inputEl (https://docs.obsidian.md/Reference/TypeScript+API/AbstractTextComponent/inputEl). */
  inputEl: HTMLInputElement;
  constructor(containerEl: HTMLElement) {
    super();
    this.inputEl = createEl("input");
    this.inputEl.type = "text";
    containerEl.appendChild(this.inputEl);
  }
  /** Imitates AbstractTextComponent.setValue: sets the input's value, firing no event (https://docs.obsidian.md/Reference/TypeScript+API/AbstractTextComponent/setValue). */
  setValue(value: string): this {
    this.inputEl.value = value;
    return this;
  }
  /** Imitates AbstractTextComponent.setPlaceholder (https://docs.obsidian.md/Reference/TypeScript+API/AbstractTextComponent/setPlaceholder). */
  setPlaceholder(placeholder: string): this {
    this.inputEl.placeholder = placeholder;
    return this;
  }
  /** Imitates AbstractTextComponent.onChange: `callback` gets the value on each `input` event (https://docs.obsidian.md/Reference/TypeScript+API/AbstractTextComponent/onChange). */
  onChange(callback: (value: string) => unknown): this {
    this.inputEl.addEventListener("input", () => void callback(this.inputEl.value));
    return this;
  }
}

/** Imitates ToggleComponent: an on/off switch; a click flips it and calls the `onChange` callbacks (https://docs.obsidian.md/Reference/TypeScript+API/ToggleComponent). */
export class ToggleComponent extends BaseComponent {
  /** Imitates ToggleComponent.toggleEl (https://docs.obsidian.md/Reference/TypeScript+API/ToggleComponent/toggleEl). */
  toggleEl: HTMLElement;
  private value = false;
  private listeners: ((value: boolean) => unknown)[] = [];
  constructor(containerEl: HTMLElement) {
    super();
    this.toggleEl = newEl("div", "checkbox-container");
    this.toggleEl.addEventListener("click", () => {
      this.setValue(!this.value);
      for (const l of this.listeners) void l(this.value);
    });
    containerEl.appendChild(this.toggleEl);
  }
  /** Imitates ToggleComponent.setValue: sets the state (the `is-enabled` class); calls no callback (https://docs.obsidian.md/Reference/TypeScript+API/ToggleComponent/setValue). */
  setValue(on: boolean): this {
    this.value = on;
    this.toggleEl.classList.toggle("is-enabled", on);
    return this;
  }
  /** Imitates ToggleComponent.onChange: `callback` gets the state after each click (https://docs.obsidian.md/Reference/TypeScript+API/ToggleComponent/onChange). */
  onChange(callback: (value: boolean) => unknown): this {
    this.listeners.push(callback);
    return this;
  }
}

/** Imitates DropdownComponent: a `<select>` of options (https://docs.obsidian.md/Reference/TypeScript+API/DropdownComponent). */
export class DropdownComponent extends BaseComponent {
  /** Imitates DropdownComponent.selectEl (https://docs.obsidian.md/Reference/TypeScript+API/DropdownComponent/selectEl). */
  selectEl: HTMLSelectElement;
  constructor(containerEl: HTMLElement) {
    super();
    this.selectEl = createEl("select");
    containerEl.appendChild(this.selectEl);
  }
  /** Imitates DropdownComponent.addOption: appends an `<option>` (https://docs.obsidian.md/Reference/TypeScript+API/DropdownComponent/addOption). */
  addOption(value: string, display: string): this {
    const opt = createEl("option");
    opt.value = value;
    opt.textContent = display;
    this.selectEl.appendChild(opt);
    return this;
  }
  /** Imitates DropdownComponent.addOptions: appends an `<option>` per entry, value to display text (https://docs.obsidian.md/Reference/TypeScript+API/DropdownComponent/addOptions). */
  addOptions(options: Record<string, string>): this {
    for (const [v, d] of Object.entries(options)) this.addOption(v, d);
    return this;
  }
  /** Imitates DropdownComponent.setValue: selects an option, firing no event (https://docs.obsidian.md/Reference/TypeScript+API/DropdownComponent/setValue). */
  setValue(value: string): this {
    this.selectEl.value = value;
    return this;
  }
  /** Imitates DropdownComponent.onChange: `callback` gets the value on each `change` event (https://docs.obsidian.md/Reference/TypeScript+API/DropdownComponent/onChange). */
  onChange(callback: (value: string) => unknown): this {
    this.selectEl.addEventListener("change", () => void callback(this.selectEl.value));
    return this;
  }
}

/** Imitates ButtonComponent: a `<button>` (https://docs.obsidian.md/Reference/TypeScript+API/ButtonComponent). */
export class ButtonComponent extends BaseComponent {
  /** Imitates ButtonComponent.buttonEl (https://docs.obsidian.md/Reference/TypeScript+API/ButtonComponent/buttonEl). */
  buttonEl: HTMLButtonElement;
  constructor(containerEl: HTMLElement) {
    super();
    this.buttonEl = createEl("button");
    containerEl.appendChild(this.buttonEl);
  }
  /** Imitates ButtonComponent.setButtonText (https://docs.obsidian.md/Reference/TypeScript+API/ButtonComponent/setButtonText). */
  setButtonText(name: string): this {
    this.buttonEl.textContent = name;
    return this;
  }
  /** Imitates ButtonComponent.setDisabled: sets the button's `disabled` (https://docs.obsidian.md/Reference/TypeScript+API/ButtonComponent/setDisabled). */
  setDisabled(disabled: boolean): this {
    this.buttonEl.disabled = disabled;
    return this;
  }
  /** Imitates ButtonComponent.onClick: `callback` gets each `click` (https://docs.obsidian.md/Reference/TypeScript+API/ButtonComponent/onClick). */
  onClick(callback: (evt: MouseEvent) => unknown): this {
    this.buttonEl.addEventListener("click", (evt) => void callback(evt));
    return this;
  }
}

/**
 * Imitates SecretComponent: a picker over the secrets in `app.secretStorage` (1.11.4); its value is
 * the secret's id, never the secret. The fake renders a `<select>` of the ids stored when it is made
 * (https://docs.obsidian.md/Reference/TypeScript+API/SecretComponent).
 */
export class SecretComponent extends BaseComponent {
  /** Test helper: the element that stands in for the real component's secret picker. */
  selectEl: HTMLSelectElement;
  constructor(app: App, containerEl: HTMLElement) {
    super();
    this.selectEl = createEl("select");
    this.selectEl.className = "secret-component";
    const none = createEl("option");
    none.value = "";
    none.textContent = "None";
    this.selectEl.appendChild(none);
    for (const id of app.secretStorage.listSecrets()) {
      const opt = createEl("option");
      opt.value = id;
      opt.textContent = id;
      this.selectEl.appendChild(opt);
    }
    containerEl.appendChild(this.selectEl);
  }
  /** Imitates SecretComponent.setValue: selects a secret by id (https://docs.obsidian.md/Reference/TypeScript+API/SecretComponent/setValue). */
  setValue(value: string): this {
    this.selectEl.value = value;
    return this;
  }
  /** Imitates SecretComponent.onChange: `cb` gets the chosen id on each `change` event (https://docs.obsidian.md/Reference/TypeScript+API/SecretComponent/onChange). */
  onChange(cb: (value: string) => unknown): this {
    this.selectEl.addEventListener("change", () => void cb(this.selectEl.value));
    return this;
  }
}

/** Imitates Setting: one row of a settings tab, its name and description beside its controls (https://docs.obsidian.md/Reference/TypeScript+API/Setting). */
export class Setting {
  /** Imitates Setting.settingEl (https://docs.obsidian.md/Reference/TypeScript+API/Setting/settingEl). */
  settingEl: HTMLElement;
  /** Imitates Setting.infoEl (https://docs.obsidian.md/Reference/TypeScript+API/Setting/infoEl). */
  infoEl: HTMLElement;
  /** Imitates Setting.nameEl (https://docs.obsidian.md/Reference/TypeScript+API/Setting/nameEl). */
  nameEl: HTMLElement;
  /** Imitates Setting.descEl (https://docs.obsidian.md/Reference/TypeScript+API/Setting/descEl). */
  descEl: HTMLElement;
  /** Imitates Setting.controlEl (https://docs.obsidian.md/Reference/TypeScript+API/Setting/controlEl). */
  controlEl: HTMLElement;
  constructor(containerEl: HTMLElement) {
    this.settingEl = newEl("div", "setting-item");
    this.infoEl = newEl("div", "setting-item-info");
    this.nameEl = newEl("div", "setting-item-name");
    this.descEl = newEl("div", "setting-item-description");
    this.controlEl = newEl("div", "setting-item-control");
    this.infoEl.append(this.nameEl, this.descEl);
    this.settingEl.append(this.infoEl, this.controlEl);
    containerEl.appendChild(this.settingEl);
  }
  /** Imitates Setting.setName: replaces the name (text or fragment) (https://docs.obsidian.md/Reference/TypeScript+API/Setting/setName). */
  setName(name: string | DocumentFragment): this {
    this.nameEl.textContent = "";
    if (typeof name === "string") this.nameEl.textContent = name;
    else this.nameEl.appendChild(name);
    return this;
  }
  /** Imitates Setting.setDesc: replaces the description (text or fragment) (https://docs.obsidian.md/Reference/TypeScript+API/Setting/setDesc). */
  setDesc(desc: string | DocumentFragment): this {
    this.descEl.textContent = "";
    if (typeof desc === "string") this.descEl.textContent = desc;
    else this.descEl.appendChild(desc);
    return this;
  }
  /** Imitates Setting.setHeading: makes the row a heading (`setting-item-heading`) (https://docs.obsidian.md/Reference/TypeScript+API/Setting/setHeading). */
  setHeading(): this {
    this.settingEl.classList.add("setting-item-heading");
    return this;
  }
  private add<T extends BaseComponent>(component: T, cb: (component: T) => unknown): this {
    cb(component);
    return this;
  }
  /** Imitates Setting.addText: adds a {@link TextComponent} to the controls and hands it to `cb` (https://docs.obsidian.md/Reference/TypeScript+API/Setting/addText). */
  addText(cb: (component: TextComponent) => unknown): this {
    return this.add(new TextComponent(this.controlEl), cb);
  }
  /** Imitates Setting.addToggle: adds a {@link ToggleComponent} to the controls and hands it to `cb` (https://docs.obsidian.md/Reference/TypeScript+API/Setting/addToggle). */
  addToggle(cb: (component: ToggleComponent) => unknown): this {
    return this.add(new ToggleComponent(this.controlEl), cb);
  }
  /** Imitates Setting.addDropdown: adds a {@link DropdownComponent} to the controls and hands it to `cb` (https://docs.obsidian.md/Reference/TypeScript+API/Setting/addDropdown). */
  addDropdown(cb: (component: DropdownComponent) => unknown): this {
    return this.add(new DropdownComponent(this.controlEl), cb);
  }
  /** Imitates Setting.addButton: adds a {@link ButtonComponent} to the controls and hands it to `cb` (https://docs.obsidian.md/Reference/TypeScript+API/Setting/addButton). */
  addButton(cb: (component: ButtonComponent) => unknown): this {
    return this.add(new ButtonComponent(this.controlEl), cb);
  }
  /** Imitates Setting.addComponent: adds the component `cb` builds on the control element (1.11.0) (https://docs.obsidian.md/Reference/TypeScript+API/Setting/addComponent). */
  addComponent<T extends BaseComponent>(cb: (el: HTMLElement) => T): this {
    cb(this.controlEl);
    return this;
  }
}

/** Imitates PluginSettingTab: "a unified interface for users to configure the plugin"; the fake never opens the settings, tests call `display` (https://docs.obsidian.md/Reference/TypeScript+API/PluginSettingTab). */
export abstract class PluginSettingTab {
  /** Imitates SettingTab.containerEl: "HTML element for the setting tab content" (https://docs.obsidian.md/Reference/TypeScript+API/SettingTab/containerEl). */
  containerEl: HTMLElement;
  /** Imitates SettingTab.icon: "The icon to display in the settings sidebar" (https://docs.obsidian.md/Reference/TypeScript+API/SettingTab/icon). */
  icon = "";
  constructor(
    /** Imitates SettingTab.app (https://docs.obsidian.md/Reference/TypeScript+API/SettingTab/app). */
    public app: App,
    plugin: Plugin,
  ) {
    void plugin;
    this.containerEl = newEl("div", "vertical-tab-content");
  }
  /** Imitates SettingTab.display: "Override to render the tab" (https://docs.obsidian.md/Reference/TypeScript+API/SettingTab/display). */
  abstract display(): void;
}

/* ---------------------------------------------------------------- helpers */

/** Imitates Debouncer: the function {@link debounce} returns, with `cancel` (https://docs.obsidian.md/Reference/TypeScript+API/Debouncer). */
export interface Debouncer<T extends unknown[]> {
  (...args: T): this;
  cancel(): this;
}

/** Imitates debounce: "have a time-delayed function only be called once in a given timeframe", `resetTimer` restarting the wait on each call; over `window.setTimeout` (https://docs.obsidian.md/Reference/TypeScript+API/debounce). */
export function debounce<T extends unknown[], V>(
  cb: (...args: T) => V,
  timeout = 0,
  resetTimer = false,
): Debouncer<T> {
  let timer: number | null = null;
  let pending: T | null = null;
  const debounced = ((...args: T) => {
    pending = args;
    if (timer !== null && resetTimer) window.clearTimeout(timer);
    if (timer === null || resetTimer) {
      timer = window.setTimeout(() => {
        timer = null;
        const a = pending;
        pending = null;
        if (a) cb(...a);
      }, timeout);
    }
    return debounced;
  }) as Debouncer<T>;
  debounced.cancel = () => {
    if (timer !== null) window.clearTimeout(timer);
    timer = null;
    pending = null;
    return debounced;
  };
  return debounced;
}

/** Imitates RequestUrlParam: the URL, method, content type, body and headers of a request; `throw: false` keeps a status ≥ 400 from rejecting (https://docs.obsidian.md/Reference/TypeScript+API/RequestUrlParam). */
export interface RequestUrlParam {
  url: string;
  method?: string;
  contentType?: string;
  body?: string | ArrayBuffer;
  headers?: Record<string, string>;
  throw?: boolean;
}

/** Imitates RequestUrlResponse: status, headers and the body as bytes, JSON and text (https://docs.obsidian.md/Reference/TypeScript+API/RequestUrlResponse). */
export interface RequestUrlResponse {
  status: number;
  headers: Record<string, string>;
  arrayBuffer: ArrayBuffer;
  json: unknown;
  text: string;
}

/**
 * Imitates requestUrl: "Similar to `fetch()`, request a URL using HTTP/HTTPS, without any CORS
 * restrictions"; like Obsidian it rejects on status ≥ 400 unless `throw: false`. The fake goes over
 * Node's `http` module (plain http only), so plugin code can talk to a local test server on 127.0.0.1
 * (https://docs.obsidian.md/Reference/TypeScript+API/requestUrl).
 */
export function requestUrl(request: RequestUrlParam | string): Promise<RequestUrlResponse> {
  const req = typeof request === "string" ? { url: request } : request;
  const headers: Record<string, string> = { ...(req.headers ?? {}) };
  if (req.contentType) headers["content-type"] = req.contentType;
  const body =
    req.body === undefined
      ? undefined
      : typeof req.body === "string"
        ? Buffer.from(req.body)
        : Buffer.from(req.body);
  return new Promise((resolve, reject) => {
    const r = httpRequest(req.url, { method: req.method ?? "GET", headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const buf = Buffer.concat(chunks);
        const text = buf.toString("utf8");
        const status = res.statusCode ?? 0;
        const outHeaders: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers))
          if (typeof v === "string") outHeaders[k] = v;
        if (status >= 400 && req.throw !== false) {
          reject(new Error(`Request failed, status ${status}`));
          return;
        }
        let json: unknown = undefined;
        try {
          json = JSON.parse(text) as unknown;
        } catch {
          json = undefined;
        }
        const arrayBuffer = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
        resolve({ status, headers: outHeaders, arrayBuffer, json, text });
      });
      res.on("error", reject);
    });
    r.on("error", reject);
    if (body) r.write(body);
    r.end();
  });
}

/**
 * Imitates moment, the moment.js Obsidian bundles, for the Daily notes format only: `format` with
 * `YYYY`, `MM`, `DD`, `M`, `D` and `[literal]` (https://docs.obsidian.md/Reference/TypeScript+API/moment).
 */
export function moment(date?: Date): { format(fmt?: string): string } {
  const d = date ?? new Date();
  return {
    format(fmt = "YYYY-MM-DD"): string {
      const y = String(d.getFullYear());
      const m = String(d.getMonth() + 1);
      const day = String(d.getDate());
      return fmt.replace(/\[([^\]]*)\]|YYYY|MM|DD|M|D/g, (tok: string, lit: string | undefined) => {
        if (lit !== undefined) return lit;
        switch (tok) {
          case "YYYY":
            return y;
          case "MM":
            return m.padStart(2, "0");
          case "DD":
            return day.padStart(2, "0");
          case "M":
            return m;
          default:
            return day;
        }
      });
    },
  };
}
