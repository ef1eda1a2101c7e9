/**
 * Obsidian's DOM helpers (`createEl`, `createDiv`, `createSpan`, `empty`, `setText`, `addClass`…)
 * re-implemented on top of happy-dom, for view tests only. Import this file from a
 * test that starts with `// @vitest-environment happy-dom`. The helpers follow the declarations
 * in `obsidian.d.ts` (`declare global { interface Node { createEl… } }`).
 */

type Attrs = Record<string, string | number | boolean | null>;

function applyInfo(el: HTMLElement, o: DomElementInfo | string | undefined): void {
  if (o === undefined) return;
  const info: DomElementInfo = typeof o === "string" ? { cls: o } : o;
  if (info.cls !== undefined) {
    const classes = Array.isArray(info.cls) ? info.cls : info.cls.split(" ");
    el.classList.add(...classes.filter((c) => c !== ""));
  }
  if (info.text !== undefined) el.setText(info.text);
  if (info.attr) el.setAttrs(info.attr);
  if (info.title !== undefined) el.setAttribute("title", info.title);
  if (info.value !== undefined && "value" in el) (el as HTMLInputElement).value = info.value;
  if (info.type !== undefined) el.setAttribute("type", info.type);
  if (info.placeholder !== undefined) el.setAttribute("placeholder", info.placeholder);
  if (info.href !== undefined) el.setAttribute("href", info.href);
}

function create<K extends keyof HTMLElementTagNameMap>(
  parent: Node | undefined,
  tag: K,
  o?: DomElementInfo | string,
  callback?: (el: HTMLElementTagNameMap[K]) => void,
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  applyInfo(el, o);
  const target = parent ?? (typeof o === "object" ? o.parent : undefined);
  const prepend = typeof o === "object" && o.prepend === true;
  if (target) {
    if (prepend) target.insertBefore(el, target.firstChild);
    else target.appendChild(el);
  }
  callback?.(el);
  return el;
}

function setAttr(el: Element, name: string, value: string | number | boolean | null): void {
  if (value === null || value === false) el.removeAttribute(name);
  else el.setAttribute(name, value === true ? "" : String(value));
}

/** Installs the helpers once on the current happy-dom window. */
function install(): void {
  const nodeProto = Node.prototype;
  if (typeof nodeProto.createEl === "function") return;
  nodeProto.createEl = function <K extends keyof HTMLElementTagNameMap>(
    this: Node,
    tag: K,
    o?: DomElementInfo | string,
    callback?: (el: HTMLElementTagNameMap[K]) => void,
  ): HTMLElementTagNameMap[K] {
    return create(this, tag, o, callback);
  };
  nodeProto.createDiv = function (
    this: Node,
    o?: DomElementInfo | string,
    cb?: (el: HTMLDivElement) => void,
  ) {
    return create(this, "div", o, cb);
  };
  nodeProto.createSpan = function (
    this: Node,
    o?: DomElementInfo | string,
    cb?: (el: HTMLSpanElement) => void,
  ) {
    return create(this, "span", o, cb);
  };
  nodeProto.empty = function (this: Node) {
    while (this.firstChild) this.removeChild(this.firstChild);
  };
  nodeProto.detach = function (this: Node) {
    this.parentNode?.removeChild(this);
  };
  nodeProto.appendText = function (this: Node, val: string) {
    this.appendChild(document.createTextNode(val));
  };
  nodeProto.instanceOf = function <T>(this: Node, type: new () => T): boolean {
    return this instanceof type;
  } as Node["instanceOf"];

  const elProto = Element.prototype;
  elProto.setText = function (this: Element, val: string | DocumentFragment) {
    if (typeof val === "string") this.textContent = val;
    else {
      this.textContent = "";
      this.appendChild(val);
    }
  };
  elProto.getText = function (this: Element) {
    return this.textContent ?? "";
  };
  elProto.addClass = function (this: Element, ...classes: string[]) {
    this.classList.add(...classes);
  };
  elProto.addClasses = function (this: Element, classes: string[]) {
    this.classList.add(...classes);
  };
  elProto.removeClass = function (this: Element, ...classes: string[]) {
    this.classList.remove(...classes);
  };
  elProto.removeClasses = function (this: Element, classes: string[]) {
    this.classList.remove(...classes);
  };
  elProto.toggleClass = function (this: Element, classes: string | string[], value: boolean) {
    for (const c of Array.isArray(classes) ? classes : [classes]) this.classList.toggle(c, value);
  };
  elProto.hasClass = function (this: Element, cls: string) {
    return this.classList.contains(cls);
  };
  elProto.setAttr = function (
    this: Element,
    name: string,
    value: string | number | boolean | null,
  ) {
    setAttr(this, name, value);
  };
  elProto.setAttrs = function (this: Element, obj: Attrs) {
    for (const [k, v] of Object.entries(obj)) setAttr(this, k, v);
  };
  elProto.getAttr = function (this: Element, name: string) {
    return this.getAttribute(name);
  };

  const htmlProto = HTMLElement.prototype;
  htmlProto.show = function (this: HTMLElement) {
    this.classList.remove("is-hidden-stub");
    this.removeAttribute("hidden");
  };
  htmlProto.hide = function (this: HTMLElement) {
    this.setAttribute("hidden", "");
  };
  htmlProto.toggle = function (this: HTMLElement, show: boolean) {
    if (show) this.show();
    else this.hide();
  };
  htmlProto.isShown = function (this: HTMLElement) {
    return !this.hasAttribute("hidden");
  };
  htmlProto.onClickEvent = function (
    this: HTMLElement,
    listener: (this: HTMLElement, ev: MouseEvent) => unknown,
  ) {
    this.addEventListener("click", listener);
  };

  const g = globalThis as unknown as Record<string, unknown>;
  g.createEl = <K extends keyof HTMLElementTagNameMap>(
    tag: K,
    o?: DomElementInfo | string,
    cb?: (el: HTMLElementTagNameMap[K]) => void,
  ) => create(undefined, tag, o, cb);
  g.createDiv = (o?: DomElementInfo | string, cb?: (el: HTMLDivElement) => void) =>
    create(undefined, "div", o, cb);
  g.createSpan = (o?: DomElementInfo | string, cb?: (el: HTMLSpanElement) => void) =>
    create(undefined, "span", o, cb);
  g.createFragment = (cb?: (el: DocumentFragment) => void) => {
    const frag = document.createDocumentFragment();
    cb?.(frag);
    return frag;
  };
  g.activeDocument = document;
  g.activeWindow = window;
}

install();

export {};
