import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The fake Obsidian (test/stubs/obsidian.ts) imitates classes and methods of the real API; this
 * checks every name it imitates against the `obsidian` package's `obsidian.d.ts`, so a renamed
 * or invented API fails here instead of passing the view tests while the plugin breaks. Members
 * the fake adds for tests are marked `Test helper` in their TSDoc (or are private) and are skipped.
 */
const STUB = readFileSync(join(__dirname, "stubs/obsidian.ts"), "utf8");
const DTS = readFileSync(join(__dirname, "../node_modules/obsidian/obsidian.d.ts"), "utf8");

/** Exported names the fake adds for tests; they are not part of Obsidian's API. */
const STUB_ONLY = new Set(["StubAdapter", "StubInternalPlugins", "Command", "OpenedLink", "ViewCreator"]);

/** `{ name → body }` of each `export class` in a source text, with `extends` names. */
function classes(text: string): Map<string, { body: string; base: string | null }> {
  const out = new Map<string, { body: string; base: string | null }>();
  const re = /^export (?:abstract )?class (\w+)(?:<[^>]*>)?(?: extends (\w+))?[^{]*\{/gm;
  for (const m of text.matchAll(re)) {
    const start = (m.index ?? 0) + m[0].length;
    const end = text[start] === "}" ? start : text.indexOf("\n}", start);
    out.set(m[1] ?? "", { body: text.slice(start, end), base: m[2] ?? null });
  }
  return out;
}

/** Public member names a class body declares (methods and fields), skipping test helpers and private ones. */
function stubMembers(body: string): string[] {
  const names: string[] = [];
  const lines = body.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const m = /^ {2}(?:static |readonly |override |async |abstract )*(\w+)\??(?:<[^>]*>)?[(:=]/.exec(lines[i] ?? "");
    if (!m || m[1] === "constructor") continue;
    const doc = lines.slice(Math.max(0, i - 4), i).join("\n");
    if (/Test helper/i.test(doc) || /^ {2}(private|protected) /.test(lines[i] ?? "")) continue;
    names.push(m[1] ?? "");
  }
  return names;
}

const real = classes(DTS);

/** True when class `name` of the real API, or one of its ancestors, declares `member`. */
function declares(name: string, member: string): boolean {
  for (let c: string | null = name; c; c = real.get(c)?.base ?? null) {
    const body = real.get(c)?.body ?? "";
    if (new RegExp(`^\\s+(?:static |readonly |abstract |protected )*${member}\\??(?:<[^>]*>)?[(:]`, "m").test(body)) return true;
  }
  return false;
}

describe("the fake Obsidian imitates names that exist", () => {
  it("every exported class, function and constant is in obsidian.d.ts", () => {
    const exported = [...STUB.matchAll(/^export (?:abstract )?(?:class|function|const|interface|type) (\w+)/gm)].map((m) => m[1] ?? "");
    expect(exported.length).toBeGreaterThan(30);
    const missing = exported.filter((n) => !STUB_ONLY.has(n) && !new RegExp(`^export (?:declare )?(?:abstract )?(?:class|function|const|let|interface|type) ${n}\\b`, "m").test(DTS));
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
    expect(checked).toBeGreaterThan(80);
    expect(wrong).toEqual([]);
  });

  it("would catch a drift: a name Obsidian does not have is reported", () => {
    expect(declares("Vault", "process")).toBe(true);
    expect(declares("TFile", "extension")).toBe(true);
    expect(declares("Vault", "processFile")).toBe(false);
    expect(declares("ItemView", "registerEvent")).toBe(true); // inherited from Component
  });
});
