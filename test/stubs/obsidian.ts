/**
 * Stub of the types-only `obsidian` package, holding only what the tests use (the rule
 * obsidian-git keeps). Behaviour follows `node_modules/obsidian/obsidian.d.ts` 1.13.1 where the
 * tests depend on it: `Vault.create` needs the parent folder, `createFolder` throws when the folder
 * exists, `Vault.process` is atomic, `vault.on("create")` fires for files created later, and
 * `workspace.onLayoutReady` queues callbacks until {@link Workspace.triggerLayoutReady}.
 *
 * Each imitated class follows its page of the API reference,
 * https://docs.obsidian.md/Reference/TypeScript+API/<Class> (and /<Class>/<member> for a member):
 * Vault/process, Vault/create, Vault/createFolder, Workspace/onLayoutReady, Plugin/addCommand, … .
 * `test/obsidian-stub-names.test.ts` checks every exported name and public member here against
 * obsidian.d.ts; a member the fake adds for tests says `Test helper` in its TSDoc. Members no test
 * or `scripts/screenshots.mjs` used (measured with coverage) were removed.
 *
 * DOM-building parts (views, modals, settings) need a DOM: use them from tests running under
 * happy-dom with `test/setup-dom.ts` imported.
 */

import { request as httpRequest } from "node:http";

/* ------------------------------------------------------------------ events */

/** Handle returned by {@link Events.on}. */
export interface EventRef {
  e: Events;
  name: string;
  fn: (...data: unknown[]) => unknown;
  ctx?: unknown;
}

export class Events {
  private readonly handlers = new Map<string, EventRef[]>();

  on(name: string, callback: (...data: never[]) => unknown, ctx?: unknown): EventRef {
    const ref: EventRef = { e: this, name, fn: callback as (...data: unknown[]) => unknown, ctx };
    const list = this.handlers.get(name) ?? [];
    list.push(ref);
    this.handlers.set(name, list);
    return ref;
  }

  offref(ref: EventRef): void {
    const list = this.handlers.get(ref.name);
    if (list) this.handlers.set(ref.name, list.filter((r) => r !== ref));
  }

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

export class Component {
  private loaded = false;
  private readonly children: Component[] = [];
  private cleanups: (() => unknown)[] = [];

  /** Test helper: resolves when the last `load()`'s `onload` has finished (Obsidian awaits an async `onload`). */
  loading: Promise<void> = Promise.resolve();

  load(): void {
    if (this.loaded) return;
    this.loaded = true;
    this.loading = Promise.resolve(this.onload());
    for (const child of this.children) child.load();
  }

  onload(): void | Promise<void> {}

  unload(): void {
    if (!this.loaded) return;
    this.loaded = false;
    for (const child of this.children.splice(0)) child.unload();
    for (const cleanup of this.cleanups.splice(0).reverse()) cleanup();
    this.onunload();
  }

  onunload(): void {}

  addChild<T extends Component>(component: T): T {
    this.children.push(component);
    if (this.loaded) component.load();
    return component;
  }

  register(cb: () => unknown): void {
    this.cleanups.push(cb);
  }

  registerEvent(eventRef: EventRef): void {
    this.register(() => eventRef.e.offref(eventRef));
  }
}

/* ------------------------------------------------------------------- files */

export interface FileStats {
  ctime: number;
  mtime: number;
  size: number;
}

export abstract class TAbstractFile {
  vault!: Vault;
  path = "";
  name = "";
  parent: TFolder | null = null;
}

export class TFile extends TAbstractFile {
  stat: FileStats = { ctime: 0, mtime: 0, size: 0 };
  basename = "";
  extension = "";
}

export class TFolder extends TAbstractFile {
  children: TAbstractFile[] = [];
}

/** Obsidian's `normalizePath`: `/` separators, no duplicate, leading or trailing slash, NFC. */
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

/** In-memory `DataAdapter` for files under the config folder (plugin data, the search index). */
export class StubAdapter {
  readonly files = new Map<string, string>();
  readonly folders = new Set<string>();

  exists(path: string): Promise<boolean> {
    return Promise.resolve(this.files.has(path) || this.folders.has(path));
  }
  read(path: string): Promise<string> {
    const text = this.files.get(path);
    return text === undefined ? Promise.reject(new Error(`ENOENT: ${path}`)) : Promise.resolve(text);
  }
  write(path: string, data: string): Promise<void> {
    this.files.set(path, data);
    return Promise.resolve();
  }
  mkdir(path: string): Promise<void> {
    this.folders.add(path);
    return Promise.resolve();
  }
}

/** In-memory vault following the documented behaviour of `Vault`. */
export class Vault extends Events {
  configDir = ".obsidian";
  adapter = new StubAdapter();
  private readonly entries = new Map<string, TAbstractFile>();
  private readonly contents = new Map<string, string>();
  /** Raw bytes of files seeded with {@link seedBytes} (not UTF-8), until they are written. */
  private readonly rawBytes = new Map<string, Uint8Array>();
  private clock = Date.UTC(2026, 2, 27, 9, 0, 0);
  /** Test helper: called inside `process` between the read and the write. */
  onProcess: ((file: TFile) => void) | null = null;
  /** Counts of write operations, for "writes nothing" checks. */
  writes = 0;

  constructor() {
    super();
    const root = new TFolder();
    root.vault = this;
    root.path = "/";
    root.name = "";
    this.entries.set("/", root);
  }

  private tick(): number {
    this.clock += 1000;
    return this.clock;
  }

  getAbstractFileByPath(path: string): TAbstractFile | null {
    return this.entries.get(path) ?? null;
  }
  getFileByPath(path: string): TFile | null {
    const f = this.entries.get(path);
    return f instanceof TFile ? f : null;
  }
  getFolderByPath(path: string): TFolder | null {
    const f = this.entries.get(path);
    return f instanceof TFolder ? f : null;
  }
  getMarkdownFiles(): TFile[] {
    return [...this.entries.values()].filter((f): f is TFile => f instanceof TFile && f.extension === "md");
  }

  private attach(entry: TAbstractFile, path: string): void {
    const parent = this.getFolderByPath(parentOf(path));
    if (!parent) throw new Error(`ENOENT: no such folder ${parentOf(path)} for ${path}`);
    entry.vault = this;
    entry.path = path;
    entry.name = path.slice(path.lastIndexOf("/") + 1);
    entry.parent = parent;
    parent.children.push(entry);
    this.entries.set(path, entry);
  }

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

  read(file: TFile): Promise<string> {
    const text = this.contents.get(file.path);
    return text === undefined ? Promise.reject(new Error(`ENOENT: ${file.path}`)) : Promise.resolve(text);
  }

  readBinary(file: TFile): Promise<ArrayBuffer> {
    const raw = this.rawBytes.get(file.path);
    const text = this.contents.get(file.path);
    if (text === undefined) return Promise.reject(new Error(`ENOENT: ${file.path}`));
    const bytes = raw ?? new TextEncoder().encode(text);
    return Promise.resolve(bytes.slice().buffer);
  }

  /** Writes synchronously and fires `modify` (test helper: a person's edit in the editor). */
  setContent(file: TFile, data: string): void {
    this.rawBytes.delete(file.path);
    this.contents.set(file.path, data);
    file.stat = { ...file.stat, mtime: this.tick(), size: byteLength(data) };
    this.writes++;
    this.trigger("modify", file);
  }

  modify(file: TFile, data: string): Promise<void> {
    this.setContent(file, data);
    return Promise.resolve();
  }

  process(file: TFile, fn: (data: string) => string): Promise<string> {
    this.onProcess?.(file);
    const current = this.contents.get(file.path);
    if (current === undefined) return Promise.reject(new Error(`ENOENT: ${file.path}`));
    const next = fn(current);
    this.setContent(file, next);
    return Promise.resolve(next);
  }

  rename(file: TAbstractFile, newPath: string): Promise<void> {
    const oldPath = file.path;
    if (this.entries.has(newPath)) return Promise.reject(new Error("Destination file already exists!"));
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

export class FileManager {
  constructor(private readonly vault: Vault) {}
  renameFile(file: TAbstractFile, newPath: string): Promise<void> {
    return this.vault.rename(file, newPath);
  }
  trashFile(file: TAbstractFile): Promise<void> {
    return this.vault.delete(file);
  }
}

export class MetadataCache extends Events {}

/* ----------------------------------------------------------------- secrets */

export class SecretStorage extends Events {
  private readonly secrets = new Map<string, string>();
  setSecret(id: string, secret: string): void {
    if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(id)) throw new Error(`Invalid secret id: ${id}`);
    this.secrets.set(id, secret);
  }
  getSecret(id: string): string | null {
    return this.secrets.get(id) ?? null;
  }
  listSecrets(): string[] {
    return [...this.secrets.keys()];
  }
}

/* --------------------------------------------------------------- workspace */

export type ViewCreator = (leaf: WorkspaceLeaf) => View;

export class WorkspaceLeaf extends Events {
  view: View | null = null;
  constructor(readonly workspace: Workspace) {
    super();
  }
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
  detach(): void {
    void this.detachView();
    this.workspace.leaves = this.workspace.leaves.filter((l) => l !== this);
  }
}

export interface OpenedLink {
  linktext: string;
  sourcePath: string;
  newLeaf?: unknown;
  state?: unknown;
}

export class Workspace extends Events {
  private layoutReady = false;
  /** Test helper: the leaves made so far. */
  leaves: WorkspaceLeaf[] = [];
  /** Test helper: what {@link getActiveFile} returns. */
  activeFile: TFile | null = null;
  /** Test helper: links opened through {@link openLinkText}, for assertions. */
  opened: OpenedLink[] = [];
  private readyQueue: (() => unknown)[] = [];
  constructor(readonly app: App) {
    super();
  }
  onLayoutReady(callback: () => unknown): void {
    if (this.layoutReady) callback();
    else this.readyQueue.push(callback);
  }
  /** Test helper: Obsidian finished loading the layout. */
  triggerLayoutReady(): void {
    this.layoutReady = true;
    for (const cb of this.readyQueue.splice(0)) cb();
  }
  getActiveFile(): TFile | null {
    return this.activeFile;
  }
  getLeavesOfType(type: string): WorkspaceLeaf[] {
    return this.leaves.filter((l) => l.view?.getViewType() === type);
  }
  private newLeaf(): WorkspaceLeaf {
    const leaf = new WorkspaceLeaf(this);
    this.leaves.push(leaf);
    return leaf;
  }
  getRightLeaf(split: boolean): WorkspaceLeaf | null {
    void split;
    return this.newLeaf();
  }
  revealLeaf(leaf: WorkspaceLeaf): Promise<void> {
    void leaf;
    return Promise.resolve();
  }
  openLinkText(linktext: string, sourcePath: string, newLeaf?: unknown, state?: unknown): Promise<void> {
    this.opened.push({ linktext, sourcePath, newLeaf, state });
    return Promise.resolve();
  }
}

/* --------------------------------------------------------------------- app */

/** Shape of the internal plugin registry the Daily notes lookup reads (not part of the public API). */
export interface StubInternalPlugins {
  getPluginById(id: string): { enabled: boolean; instance?: { options?: Record<string, unknown> } } | null;
}

export class App {
  vault = new Vault();
  workspace: Workspace;
  fileManager: FileManager;
  metadataCache = new MetadataCache();
  secretStorage = new SecretStorage();
  /** Registered view creators, by view type (filled by `Plugin.registerView`). */
  viewRegistry = new Map<string, ViewCreator>();
  /** Commands registered by plugins, by full id (`plugin-id:command-id`). */
  commands = new Map<string, Command>();
  /**
   * Test helper: Obsidian's internal plugins (not in obsidian.d.ts; the plugin reads them defensively,
   * src/obsidian/today-journal.ts); tests set the Daily notes plugin's options here.
   */
  internalPlugins: StubInternalPlugins;
  private dailyNotes: { enabled: boolean; instance?: { options?: Record<string, unknown> } } | null = null;

  constructor() {
    this.workspace = new Workspace(this);
    this.fileManager = new FileManager(this.vault);
    this.internalPlugins = { getPluginById: (id) => (id === "daily-notes" ? this.dailyNotes : null) };
  }

  /** Test helper: configures the Daily notes core plugin. */
  setDailyNotes(options: Record<string, unknown> | null, enabled = true): void {
    this.dailyNotes = options ? { enabled, instance: { options } } : null;
  }
}

/* ------------------------------------------------------------------ plugin */

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

export abstract class Plugin extends Component {
  /** Test helpers: what the plugin registered. */
  readonly ribbonIcons: { icon: string; title: string; el: HTMLElement; callback: (evt: MouseEvent) => unknown }[] = [];
  readonly statusBarItems: HTMLElement[] = [];
  readonly settingTabs: PluginSettingTab[] = [];
  readonly registeredViews: string[] = [];
  /** Test helper: ids of the commands added, for assertions. */
  readonly commandIds: string[] = [];

  constructor(
    public app: App,
    public manifest: PluginManifest,
  ) {
    super();
  }

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

  addStatusBarItem(): HTMLElement {
    const el = newEl("div", "status-bar-item");
    this.statusBarItems.push(el);
    this.register(() => {
      el.remove();
      this.statusBarItems.splice(this.statusBarItems.indexOf(el), 1);
    });
    return el;
  }

  addCommand(command: Command): Command {
    const full = { ...command, id: `${this.manifest.id}:${command.id}`, name: `${this.manifest.name}: ${command.name}` };
    this.app.commands.set(full.id, full);
    this.commandIds.push(command.id);
    this.register(() => {
      this.app.commands.delete(full.id);
      this.commandIds.splice(this.commandIds.indexOf(command.id), 1);
    });
    return full;
  }

  addSettingTab(settingTab: PluginSettingTab): void {
    this.settingTabs.push(settingTab);
    this.register(() => this.settingTabs.splice(this.settingTabs.indexOf(settingTab), 1));
  }

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

  async loadData(): Promise<unknown> {
    const text = this.app.vault.adapter.files.get(this.dataPath());
    return Promise.resolve(text === undefined ? null : (JSON.parse(text) as unknown));
  }

  async saveData(data: unknown): Promise<void> {
    this.app.vault.adapter.files.set(this.dataPath(), JSON.stringify(data, null, 2));
    return Promise.resolve();
  }
}

/* ------------------------------------------------------------------ notice */

export class Notice {
  /** Test helper: every notice shown since the last reset, newest last. */
  static shown: Notice[] = [];
  containerEl: HTMLElement;
  messageEl: HTMLElement;
  hidden = false;

  constructor(
    message: string | DocumentFragment,
    public duration?: number,
  ) {
    this.containerEl = newEl("div", "notice");
    this.messageEl = newEl("div", "notice-message");
    this.containerEl.appendChild(this.messageEl);
    if (typeof message === "string") this.messageEl.textContent = message;
    else this.messageEl.appendChild(message);
    Notice.shown.push(this);
  }

  hide(): void {
    this.hidden = true;
  }

  /** Test helper: the notice's text. */
  get text(): string {
    return this.messageEl.textContent ?? "";
  }
}

/* ------------------------------------------------------------- views, modal */

export abstract class View extends Component {
  app: App;
  containerEl: HTMLElement;
  constructor(public leaf: WorkspaceLeaf) {
    super();
    this.app = leaf.workspace.app;
    this.containerEl = newEl("div", "workspace-leaf-content");
  }
  abstract getViewType(): string;
  abstract getDisplayText(): string;
  protected onOpen(): Promise<void> {
    return Promise.resolve();
  }
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

export abstract class ItemView extends View {
  contentEl: HTMLElement;
  constructor(leaf: WorkspaceLeaf) {
    super(leaf);
    this.containerEl.appendChild(newEl("div", "view-header"));
    this.contentEl = newEl("div", "view-content");
    this.containerEl.appendChild(this.contentEl);
  }
}

export class Modal {
  /** Test helper: modals currently open, for assertions. */
  static openModals: Modal[] = [];
  containerEl: HTMLElement;
  modalEl: HTMLElement;
  titleEl: HTMLElement;
  contentEl: HTMLElement;
  constructor(public app: App) {
    this.containerEl = newEl("div", "modal-container");
    this.modalEl = newEl("div", "modal");
    this.titleEl = newEl("div", "modal-title");
    this.contentEl = newEl("div", "modal-content");
    this.modalEl.append(this.titleEl, this.contentEl);
    this.containerEl.appendChild(this.modalEl);
  }
  open(): void {
    Modal.openModals.push(this);
    document.body.appendChild(this.containerEl);
    void this.onOpen();
  }
  close(): void {
    Modal.openModals = Modal.openModals.filter((m) => m !== this);
    this.containerEl.remove();
    this.onClose();
  }
  onOpen(): Promise<void> | void {}
  onClose(): void {}
  setTitle(title: string): this {
    this.titleEl.textContent = title;
    return this;
  }
}

/* ---------------------------------------------------------------- settings */

export abstract class BaseComponent {}

export class TextComponent extends BaseComponent {
  inputEl: HTMLInputElement;
  constructor(containerEl: HTMLElement) {
    super();
    this.inputEl = createEl("input");
    this.inputEl.type = "text";
    containerEl.appendChild(this.inputEl);
  }
  setValue(value: string): this {
    this.inputEl.value = value;
    return this;
  }
  setPlaceholder(placeholder: string): this {
    this.inputEl.placeholder = placeholder;
    return this;
  }
  onChange(callback: (value: string) => unknown): this {
    this.inputEl.addEventListener("input", () => void callback(this.inputEl.value));
    return this;
  }
}

export class ToggleComponent extends BaseComponent {
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
  setValue(on: boolean): this {
    this.value = on;
    this.toggleEl.classList.toggle("is-enabled", on);
    return this;
  }
  onChange(callback: (value: boolean) => unknown): this {
    this.listeners.push(callback);
    return this;
  }
}

export class DropdownComponent extends BaseComponent {
  selectEl: HTMLSelectElement;
  constructor(containerEl: HTMLElement) {
    super();
    this.selectEl = createEl("select");
    containerEl.appendChild(this.selectEl);
  }
  addOption(value: string, display: string): this {
    const opt = createEl("option");
    opt.value = value;
    opt.textContent = display;
    this.selectEl.appendChild(opt);
    return this;
  }
  addOptions(options: Record<string, string>): this {
    for (const [v, d] of Object.entries(options)) this.addOption(v, d);
    return this;
  }
  setValue(value: string): this {
    this.selectEl.value = value;
    return this;
  }
  onChange(callback: (value: string) => unknown): this {
    this.selectEl.addEventListener("change", () => void callback(this.selectEl.value));
    return this;
  }
}

export class ButtonComponent extends BaseComponent {
  buttonEl: HTMLButtonElement;
  constructor(containerEl: HTMLElement) {
    super();
    this.buttonEl = createEl("button");
    containerEl.appendChild(this.buttonEl);
  }
  setButtonText(name: string): this {
    this.buttonEl.textContent = name;
    return this;
  }
  setDisabled(disabled: boolean): this {
    this.buttonEl.disabled = disabled;
    return this;
  }
  onClick(callback: (evt: MouseEvent) => unknown): this {
    this.buttonEl.addEventListener("click", (evt) => void callback(evt));
    return this;
  }
}

/**
 * `SecretComponent` (1.11.4): a picker over the secrets in `app.secretStorage`; its value is the
 * secret's id, never the secret itself. The stub renders a `<select>` of the stored ids.
 */
export class SecretComponent extends BaseComponent {
  /** Test helper: the element that stands in for the real component's secret picker. */
  selectEl: HTMLSelectElement;
  constructor(
    app: App,
    containerEl: HTMLElement,
  ) {
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
  setValue(value: string): this {
    this.selectEl.value = value;
    return this;
  }
  onChange(cb: (value: string) => unknown): this {
    this.selectEl.addEventListener("change", () => void cb(this.selectEl.value));
    return this;
  }
}

export class Setting {
  settingEl: HTMLElement;
  infoEl: HTMLElement;
  nameEl: HTMLElement;
  descEl: HTMLElement;
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
  setName(name: string | DocumentFragment): this {
    this.nameEl.textContent = "";
    if (typeof name === "string") this.nameEl.textContent = name;
    else this.nameEl.appendChild(name);
    return this;
  }
  setDesc(desc: string | DocumentFragment): this {
    this.descEl.textContent = "";
    if (typeof desc === "string") this.descEl.textContent = desc;
    else this.descEl.appendChild(desc);
    return this;
  }
  setHeading(): this {
    this.settingEl.classList.add("setting-item-heading");
    return this;
  }
  private add<T extends BaseComponent>(component: T, cb: (component: T) => unknown): this {
    cb(component);
    return this;
  }
  addText(cb: (component: TextComponent) => unknown): this {
    return this.add(new TextComponent(this.controlEl), cb);
  }
  addToggle(cb: (component: ToggleComponent) => unknown): this {
    return this.add(new ToggleComponent(this.controlEl), cb);
  }
  addDropdown(cb: (component: DropdownComponent) => unknown): this {
    return this.add(new DropdownComponent(this.controlEl), cb);
  }
  addButton(cb: (component: ButtonComponent) => unknown): this {
    return this.add(new ButtonComponent(this.controlEl), cb);
  }
  addComponent<T extends BaseComponent>(cb: (el: HTMLElement) => T): this {
    cb(this.controlEl);
    return this;
  }
}

export abstract class PluginSettingTab {
  containerEl: HTMLElement;
  icon = "";
  constructor(
    public app: App,
    plugin: Plugin,
  ) {
    void plugin;
    this.containerEl = newEl("div", "vertical-tab-content");
  }
  abstract display(): void;
}

/* ---------------------------------------------------------------- helpers */

export interface Debouncer<T extends unknown[]> {
  (...args: T): this;
  cancel(): this;
}

/** Obsidian's `debounce`: calls `cb` once `timeout` ms after the last call; `run()` flushes it. */
export function debounce<T extends unknown[], V>(cb: (...args: T) => V, timeout = 0, resetTimer = false): Debouncer<T> {
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

export interface RequestUrlParam {
  url: string;
  method?: string;
  contentType?: string;
  body?: string | ArrayBuffer;
  headers?: Record<string, string>;
  throw?: boolean;
}

export interface RequestUrlResponse {
  status: number;
  headers: Record<string, string>;
  arrayBuffer: ArrayBuffer;
  json: unknown;
  text: string;
}

/**
 * `requestUrl` over Node's `http` module, so plugin code can talk to a local test server on
 * 127.0.0.1. Like Obsidian it rejects on status ≥ 400 unless `throw: false`.
 */
export function requestUrl(request: RequestUrlParam | string): Promise<RequestUrlResponse> {
  const req = typeof request === "string" ? { url: request } : request;
  const headers: Record<string, string> = { ...(req.headers ?? {}) };
  if (req.contentType) headers["content-type"] = req.contentType;
  const body = req.body === undefined ? undefined : typeof req.body === "string" ? Buffer.from(req.body) : Buffer.from(req.body);
  return new Promise((resolve, reject) => {
    const r = httpRequest(req.url, { method: req.method ?? "GET", headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const buf = Buffer.concat(chunks);
        const text = buf.toString("utf8");
        const status = res.statusCode ?? 0;
        const outHeaders: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === "string") outHeaders[k] = v;
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
 * Minimal `moment` for the Daily notes format: supports `YYYY`, `MM`, `DD`, `M`, `D` and `[literal]`.
 * The real plugin gets Obsidian's bundled moment.
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

