// The suite's two projects (vitest.config.ts; docs/testing.md, "Two projects: unit and process"):
// a file that spawns a child process, a worker thread or an MCP server over stdio — itself or
// through a test helper it imports — is named `*.process.test.ts`; every other file runs in `unit`,
// which must stay fast. And test/ mirrors src/: each test file sits in the folder of what it tests.
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const testDir = fileURLToPath(new URL(".", import.meta.url));
const self = fileURLToPath(import.meta.url);

/** What spawns: Node's process and thread modules, the SDK's stdio client, their calls. */
const SPAWNS =
  /["'](?:node:)?(?:child_process|worker_threads)["']|StdioClientTransport|\b(?:spawn|spawnSync|execFile|execFileSync|execSync|fork)\(/;
const IMPORT_RE = /(?:^|\n)\s*(?:import|export)\b[^;'"]*?(?:from\s*)?["'](\.{1,2}\/[^"']+)["']/g;
/** The folders a test file may sit in: the parts of src/ (test/core/<folder>/ for the core), and docs/ for the tests of the documentation (its citations). */
const MIRRORS = ["core", "cli", "mcp", "node", "serve", "obsidian", "docs"];

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? testFiles(join(dir, e.name))
      : e.name.endsWith(".test.ts")
        ? [join(dir, e.name)]
        : [],
  );
}

/** `file` and the files of test/ it imports, directly or through another, that spawn. */
function spawners(file: string, seen = new Set<string>()): string[] {
  if (seen.has(file)) return [];
  seen.add(file);
  const text = readFileSync(file, "utf8");
  const own = SPAWNS.test(text) ? [relative(testDir, file).split(sep).join("/")] : [];
  const helpers = [...text.matchAll(IMPORT_RE)]
    .map((m) => resolve(dirname(file), m[1] ?? ""))
    .filter((t) => t.startsWith(testDir))
    .map((t) => `${t}.ts`)
    .filter((t) => existsSync(t));
  return [...own, ...helpers.flatMap((h) => spawners(h, seen))];
}

/** `unit file → the file that spawns`, for every `unit` file that spawns. */
function unitSpawns(files: readonly string[]): string[] {
  return files
    .filter((f) => !f.endsWith(".process.test.ts") && f !== self)
    .flatMap((f) => spawners(f).map((s) => `${relative(testDir, f).split(sep).join("/")} → ${s}`));
}

describe("the unit project", () => {
  it("spawns nothing: a file that does is named *.process.test.ts", () => {
    expect(unitSpawns(testFiles(testDir))).toEqual([]);
  });

  it("finds a unit file that spawns through a helper (the check can fail)", () => {
    const cli = join(testDir, "cli", "cli.process.test.ts");
    expect(spawners(cli)).toContain("helpers/cli-run.ts");
    expect(SPAWNS.test('import { spawnSync } from "node:child_process";')).toBe(true);
    expect(SPAWNS.test('import { Worker } from "node:worker_threads";')).toBe(true);
    expect(SPAWNS.test("new StdioClientTransport({ command })")).toBe(true);
    expect(SPAWNS.test('import { readFileSync } from "node:fs";')).toBe(false);
  });
});

describe("test/", () => {
  it("mirrors src/: every test file is under test/<part of src>/", () => {
    const misplaced = testFiles(testDir)
      .filter((f) => f !== self)
      .map((f) => relative(testDir, f).split(sep))
      .filter((parts) => parts.length < 2 || !MIRRORS.includes(parts[0] ?? ""))
      .map((parts) => parts.join("/"));
    expect(misplaced).toEqual([]);
  });
});
