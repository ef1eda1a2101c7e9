import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The fake Obsidian (test/stubs/obsidian.ts) imitates classes and methods of the real API; this
 * checks every name it imitates against the `obsidian` package's `obsidian.d.ts`, so a renamed
 * or invented API fails here instead of passing the view tests while the plugin breaks. Members
 * the fake adds for tests are marked `Test helper` in their TSDoc (or are private) and are skipped.
 * Every other export and member must link the API page it follows, checked against obsidian.d.ts too.
 */
const STUB = readFileSync(join(__dirname, "../stubs/obsidian.ts"), "utf8");
const DTS = readFileSync(join(__dirname, "../../node_modules/obsidian/obsidian.d.ts"), "utf8");

/** Exported names the fake adds for tests; they are not part of Obsidian's API. */
const STUB_ONLY = new Set([
  "StubAdapter",
  "StubInternalPlugins",
  "Command",
  "OpenedLink",
  "ViewCreator",
]);

/** Where a page of the API reference lives: `${API}<Class>` or `${API}<Class>/<member>`. */
const API = "https://docs.obsidian.md/Reference/TypeScript+API/";
const PAGE = new RegExp(`${API.replace(/[.+/]/g, "\\$&")}([\\w/]+)`, "g");

/** `{ name → body }` of each `export class` (and `export interface`) in a source text, with `extends` names. */
function classes(
  text: string,
  interfaces = false,
): Map<string, { body: string; base: string | null }> {
  const out = new Map<string, { body: string; base: string | null }>();
  const re = new RegExp(
    `^export (?:abstract )?(?:class${interfaces ? "|interface" : ""}) (\\w+)(?:<[^>]*>)?(?: extends (\\w+))?[^{]*\\{`,
    "gm",
  );
  for (const m of text.matchAll(re)) {
    const start = (m.index ?? 0) + m[0].length;
    const end = text[start] === "}" ? start : text.indexOf("\n}", start);
    out.set(m[1] ?? "", { body: text.slice(start, end), base: m[2] ?? null });
  }
  return out;
}

/** The TSDoc block right above line `i` (no blank line between), or "". */
function docAbove(lines: string[], i: number): string {
  if (!(lines[i - 1] ?? "").trim().endsWith("*/")) return "";
  let j = i - 1;
  while (j > 0 && !(lines[j] ?? "").trim().startsWith("/**")) j--;
  return lines.slice(j, i).join("\n");
}

/**
 * Public (and protected) members a class body declares: methods, getters, fields (with or without
 * an initializer) and constructor parameter properties, each with its TSDoc. Private ones are left out.
 */
function stubMembersWithDocs(body: string): { name: string; doc: string }[] {
  const out: { name: string; doc: string }[] = [];
  const lines = body.split("\n");
  let inConstructor = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (/^ {2}constructor\($/.test(line)) inConstructor = true;
    else if (/^ {2}\)/.test(line)) inConstructor = false;
    const m = inConstructor
      ? /^ {4}(?:public |readonly |protected )+(\w+)\??:/.exec(line)
      : /^ {2}(?:static |readonly |override |async |abstract |protected |get )*(\w+)[?!]?(?:<[^>]*>)?\s*[(:=]/.exec(
          line,
        );
    if (!m || m[1] === "constructor" || /^ +private /.test(line)) continue;
    out.push({ name: m[1] ?? "", doc: docAbove(lines, i) });
  }
  return out;
}

/** Public member names a class body declares, skipping test helpers and private ones. */
function stubMembers(body: string): string[] {
  return stubMembersWithDocs(body)
    .filter((m) => !/Test helper/i.test(m.doc))
    .map((m) => m.name);
}

/** The real API's classes and interfaces (the fake's `StubAdapter` stands for the interface `DataAdapter`). */
const real = classes(DTS, true);

/** True when class `name` of the real API itself declares `member`. */
function declaresOwn(name: string, member: string): boolean {
  const body = real.get(name)?.body ?? "";
  return new RegExp(
    `^\\s+(?:static |readonly |abstract |protected )*${member}\\??(?:<[^>]*>)?[(:]`,
    "m",
  ).test(body);
}

/** Class `name` of the real API and its ancestors, nearest first. */
function lineage(name: string): string[] {
  const out: string[] = [];
  for (let c: string | null = name; c && real.has(c); c = real.get(c)?.base ?? null) out.push(c);
  return out;
}

/** True when class `name` of the real API, or one of its ancestors, declares `member`. */
function declares(name: string, member: string): boolean {
  return lineage(name).some((c) => declaresOwn(c, member));
}

/** The API pages a TSDoc links, as `Class` or `Class/member`. */
function pagesLinked(doc: string): string[] {
  return [...doc.matchAll(PAGE)].map((m) => m[1] ?? "");
}

/** Exported declarations of the fake, with their TSDoc. */
function stubExports(): { name: string; doc: string }[] {
  const lines = STUB.split("\n");
  const out: { name: string; doc: string }[] = [];
  lines.forEach((line, i) => {
    const m = /^export (?:abstract )?(?:class|function|const|interface|type) (\w+)/.exec(line);
    if (m) out.push({ name: m[1] ?? "", doc: docAbove(lines, i) });
  });
  return out;
}

/** True when obsidian.d.ts exports a declaration `name`. */
function dtsExports(name: string): boolean {
  return new RegExp(
    `^export (?:declare )?(?:abstract )?(?:class|function|const|let|interface|type) ${name}\\b`,
    "m",
  ).test(DTS);
}

describe("the fake Obsidian imitates names that exist", () => {
  it("every exported class, function and constant is in obsidian.d.ts", () => {
    const exported = stubExports().map((e) => e.name);
    expect(exported.length).toBeGreaterThan(30);
    const missing = exported.filter((n) => !STUB_ONLY.has(n) && !dtsExports(n));
    expect(missing).toEqual([]);
  });

  it("every public member of each imitated class is declared by that class (or an ancestor) in obsidian.d.ts", () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const [name, { body }] of classes(STUB)) {
      if (STUB_ONLY.has(name)) continue;
      for (const member of stubMembers(body)) {
        checked++;
        if (!declares(name, member)) wrong.push(`${name}.${member}`);
      }
    }
    expect(checked).toBeGreaterThan(110);
    expect(wrong).toEqual([]);
  });

  it("would catch a drift: a name Obsidian does not have is reported", () => {
    expect(declares("Vault", "process")).toBe(true);
    expect(declares("TFile", "extension")).toBe(true);
    expect(declares("Vault", "processFile")).toBe(false);
    expect(declares("ItemView", "registerEvent")).toBe(true); // inherited from Component
  });
});

describe("the fake Obsidian documents what it imitates", () => {
  it("every export links its own API page, or is marked Test helper", () => {
    const wrong = stubExports()
      .filter(({ name, doc }) => {
        if (/Test helper/.test(doc)) return false;
        const pages = pagesLinked(doc);
        // A name the fake adds (StubAdapter) links the page of what it stands for (DataAdapter).
        return STUB_ONLY.has(name) ? !pages.some((p) => dtsExports(p)) : !pages.includes(name);
      })
      .map((e) => e.name);
    expect(wrong).toEqual([]);
  });

  it("every public member links the page of the class that declares it (itself or an ancestor), or is marked Test helper", () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const [name, { body }] of classes(STUB)) {
      const pagesOk = (member: string, doc: string): boolean =>
        pagesLinked(doc).some((page) => {
          const [cls = "", mem] = page.split("/");
          const related = STUB_ONLY.has(name) || lineage(name).includes(cls);
          return mem === member && related && declaresOwn(cls, member);
        });
      for (const { name: member, doc } of stubMembersWithDocs(body)) {
        checked++;
        if (!/Test helper/.test(doc) && !pagesOk(member, doc)) wrong.push(`${name}.${member}`);
      }
    }
    expect(checked).toBeGreaterThan(145);
    expect(wrong).toEqual([]);
  });

  it("would catch an undocumented member or a link to the wrong page", () => {
    const body = [
      "  /** Imitates Vault.read (https://docs.obsidian.md/Reference/TypeScript+API/Vault/read). */",
      "  read(file: TFile): Promise<string> {",
      "  /** Imitates Vault.read (https://docs.obsidian.md/Reference/TypeScript+API/Vault/read). */",
      "  modify(file: TFile, data: string): Promise<void> {",
      '  configDir = ".obsidian";',
      "  /** Test helper: the seeded text. */",
      "  text(path: string): string | undefined {",
    ].join("\n");
    const members = stubMembersWithDocs(body);
    expect(members.map((m) => m.name)).toEqual(["read", "modify", "configDir", "text"]);
    expect(members.map((m) => pagesLinked(m.doc))).toEqual([
      ["Vault/read"],
      ["Vault/read"],
      [],
      [],
    ]);
    expect(stubMembers(body)).toEqual(["read", "modify", "configDir"]);
    expect(
      declaresOwn("SettingTab", "display") && lineage("PluginSettingTab").includes("SettingTab"),
    ).toBe(true);
    expect(declaresOwn("PluginSettingTab", "display")).toBe(false); // its page is SettingTab/display
  });
});
