// Every citation in src/ and test/ resolves (docs/decisions.md, "Citations stay in the
// repository"): a docs heading (`docs/x.md, "Heading"`), a decision title (`docs/decisions.md,
// "Title"`, the start of a bold entry title), a test file, or a test or case name in it
// (`test/x.test.ts, "case NN: …"`, `…` standing for the rest of the name). A broken one fails here,
// naming the file and line that cites it.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repo = fileURLToPath(new URL("../..", import.meta.url));
/** Folders whose text is data, not code that cites. */
const SKIP = new Set(["node_modules", "fixtures", "approved"]);

function files(dir: string): string[] {
  return readdirSync(join(repo, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return SKIP.has(e.name) ? [] : files(path);
    return /\.(ts|mts|mjs|md)$/.test(e.name) ? [path] : [];
  });
}

/** One citation: where it is, what it names, and the quoted parts after the name. */
interface Citation {
  from: string;
  line: number;
  target: string;
  quotes: string[];
}

// A path, an optional closing backtick, then quoted parts joined by ", " or " and ".
const CITATION =
  /\b((?:docs\/[\w.-]+\.md)|(?:test\/[\w./-]+\.test\.ts))`?((?:(?:,\s*|\s+and\s+|\s+)"[^"\n]{1,200}")*)/g;

/**
 * The citations in `text`, a file's source. Comment markers at line starts are joined away first,
 * so a citation broken over two comment lines is read whole.
 */
function findCitations(text: string, from: string): Citation[] {
  const starts: number[] = [];
  let joined = "";
  for (const raw of text.split("\n")) {
    starts.push(joined.length);
    const line = joined === "" ? raw : raw.replace(/^\s*(?:\/\/+|\*(?!\/)|#)?\s*/, "");
    joined += (joined === "" ? "" : " ") + line;
  }
  const lineOf = (at: number): number => {
    let n = 0;
    while (n + 1 < starts.length && (starts[n + 1] ?? Infinity) <= at) n++;
    return n + 1;
  };
  return [...joined.matchAll(CITATION)].map((m) => ({
    from,
    line: lineOf(m.index),
    target: m[1] ?? "",
    quotes: [...(m[2] ?? "").matchAll(/"([^"]+)"/g)].map((q) => q[1] ?? ""),
  }));
}

const unticked = (s: string): string => s.replace(/`/g, "").trim();

/** The headings of a Markdown file, without their `#`s and backticks. */
function headings(text: string): Set<string> {
  return new Set(
    text
      .split("\n")
      .filter((l) => /^#{1,6} /.test(l))
      .map((l) => unticked(l.replace(/^#+ /, ""))),
  );
}

/** The bold titles of docs/decisions.md's entries (every `**…**` span counts). */
function decisionTitles(text: string): string[] {
  return [...text.matchAll(/\*\*([^*]+)\*\*/g)].map((m) => unticked(m[1] ?? ""));
}

/** The names given to `describe`, `it` and `test` in a test file. */
function testNames(text: string): string[] {
  const re =
    /\b(?:describe|it|test)(?:\.(?:each|only|skip|concurrent|sequential|todo|fails)(?:\([^)]*\))?)*\(\s*(["'`])((?:\\.|(?!\1)[^\\])*)\1/g;
  return [...text.matchAll(re)].map((m) => (m[2] ?? "").replace(/\\(.)/g, "$1"));
}

/** Whether `cited` names `name`: its parts around `…` appear in it, in order. */
function namesTest(cited: string, name: string): boolean {
  let from = 0;
  for (const part of cited.split("…").map((p) => p.trim())) {
    if (part === "") continue;
    const at = name.indexOf(part, from);
    if (at < 0) return false;
    from = at + part.length;
  }
  return true;
}

/** Why `c` does not resolve, or null when it does. */
function brokenReason(c: Citation, read: (path: string) => string | null): string | null {
  const text = read(c.target);
  if (text === null) return `${c.target} does not exist`;
  for (const q of c.quotes) {
    if (c.target === "docs/decisions.md") {
      const want = unticked(q).replace(/[.…\s]+$/, "");
      if (!decisionTitles(text).some((t) => t.startsWith(want)))
        return `no decision titled "${q}" in docs/decisions.md`;
    } else if (c.target.startsWith("docs/")) {
      // A heading is cited whole or by its words before a colon or comma ("Inside the vault").
      const want = unticked(q);
      const found = [...headings(text)].some(
        (h) => h === want || h.startsWith(`${want}:`) || h.startsWith(`${want},`),
      );
      if (!found) return `no heading "${q}" in ${c.target}`;
    } else if (!testNames(text).some((n) => namesTest(q, n))) {
      return `no test named "${q}" in ${c.target}`;
    }
  }
  return null;
}

const readRepo = (path: string): string | null =>
  existsSync(join(repo, path)) ? readFileSync(join(repo, path), "utf8") : null;

/** This file's own examples are broken on purpose; every other file in src/ and test/ counts. */
const self = relative(repo, fileURLToPath(import.meta.url))
  .split(sep)
  .join("/");

function allCitations(): Citation[] {
  return ["src", "test"].flatMap((dir) =>
    files(dir)
      .filter((f) => f !== self)
      .flatMap((f) => findCitations(readFileSync(join(repo, f), "utf8"), f)),
  );
}

describe("citations in src/ and test/", () => {
  it("each names a docs heading, a decision title, a test file or a test that exists", () => {
    const cites = allCitations();
    expect(cites.length).toBeGreaterThan(300);
    const broken = cites
      .map((c) => [c, brokenReason(c, readRepo)] as const)
      .filter(([, why]) => why !== null)
      .map(([c, why]) => `${c.from}:${c.line}: ${why}`);
    expect(broken).toEqual([]);
  });

  it("fails on a broken one of each kind, and reads one split over comment lines", () => {
    const src = [
      '// (docs/architecture.md, "Trackers"; docs/architecture.md, "No such heading")',
      '// docs/write-safety.md, "Inside the vault"; docs/write-safety.md, "Inside"',
      '// docs/decisions.md, "One date rule, on the user\'s local calendar" and',
      '// docs/decisions.md, "A decision never taken"; test/core/layout.test.ts, "case 11: …"',
      '// test/core/layout.test.ts, "case 99: …"; docs/no-such-file.md; test/core/none.test.ts',
      "/* see docs/architecture.md,",
      ' * "The CLI contract" */',
    ].join("\n");
    const found = findCitations(src, "x.ts");
    const why = found.map((c) => brokenReason(c, readRepo));
    expect(why).toEqual([
      null,
      'no heading "No such heading" in docs/architecture.md',
      null,
      'no heading "Inside" in docs/write-safety.md',
      null,
      'no decision titled "A decision never taken" in docs/decisions.md',
      null,
      'no test named "case 99: …" in test/core/layout.test.ts',
      "docs/no-such-file.md does not exist",
      "test/core/none.test.ts does not exist",
      null,
    ]);
    expect(found.at(-1)).toMatchObject({ line: 6, quotes: ["The CLI contract"] });
  });
});
