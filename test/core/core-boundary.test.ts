// The core boundary (docs/testing.md, "The core boundary"): eslint.config.mjs refuses, in src/core/,
// imports of obsidian, of Node built-ins and of files outside src/core/. These tests lint source
// text with the project's own config, so they fail if the rule is removed, weakened or misplaced.
import { ESLint } from "eslint";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const boundaryRules = new Set(["no-restricted-imports", "no-restricted-syntax"]);

let eslint: ESLint;

// The first lint loads the config and its plugins, which takes seconds on a busy machine: do it
// here, under a hook timeout of its own, so that no test's time depends on the machine's load.
beforeAll(async () => {
  eslint = new ESLint({
    cwd: repo,
    // Only the boundary rules run, so no type information is needed: parse without the project
    // service (a file that does not exist is then fine, and the test takes a second, not twenty).
    ruleFilter: ({ ruleId }) => boundaryRules.has(ruleId),
    overrideConfig: {
      languageOptions: { parserOptions: { projectService: false, project: null } },
    },
  });
  await eslint.lintText("export {};\n", { filePath: `${repo}/src/core/warm-up.ts` });
}, 180_000);

/** The boundary messages ESLint gives for `code` as if it were the file at `filePath`. */
async function boundaryErrors(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${repo}/${filePath}` });
  return (result?.messages ?? [])
    .filter((m) => m.severity === 2 && m.ruleId !== null && boundaryRules.has(m.ruleId))
    .map((m) => `${m.ruleId}: ${m.message}`);
}

describe("the core boundary lint rule", () => {
  const refused: [string, string, string][] = [
    ["obsidian", "src/core/x.ts", 'import { Notice } from "obsidian";'],
    ["a type from obsidian", "src/core/x.ts", 'import type { App } from "obsidian";'],
    ["node:fs", "src/core/x.ts", 'import { readFileSync } from "node:fs";'],
    ["fs", "src/core/x.ts", 'import * as fs from "fs";'],
    ["fs/promises", "src/core/search/x.ts", 'import { readFile } from "fs/promises";'],
    ["path", "src/core/x.ts", 'import path from "path";'],
    ["node:test (no bare name)", "src/core/x.ts", 'import test from "node:test";'],
    ["the plugin adapter", "src/core/x.ts", 'import { ObsidianVault } from "../obsidian/vault";'],
    ["the CLI", "src/core/x.ts", 'import { main } from "../cli/main";'],
    ["the CLI from a sub-folder", "src/core/search/x.ts", 'import { main } from "../../cli/main";'],
    [
      "the plugin entry from a sub-folder",
      "src/core/extraction/x.ts",
      'import Plugin from "../../../main";',
    ],
    [
      "a re-export from the adapter",
      "src/core/x.ts",
      'export { ObsidianVault } from "../obsidian/vault";',
    ],
    ["a dynamic import", "src/core/x.ts", 'export const load = () => import("node:fs");'],
    ["require", "src/core/x.ts", 'export const fs: unknown = require("fs");'],
  ];
  for (const [what, filePath, code] of refused) {
    it(`refuses ${what} in ${filePath}`, async () => {
      const errors = await boundaryErrors(code, filePath);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toContain("The core (src/core/) imports only packages and core files");
    });
  }

  const allowed: [string, string, string][] = [
    ["a sibling core file", "src/core/x.ts", 'import { MemoryLayout } from "./layout";'],
    [
      "a core file one folder up",
      "src/core/search/x.ts",
      'import { MemoryLayout } from "../layout";',
    ],
    ["another core folder", "src/core/search/x.ts", 'import { gate } from "../extraction/gate";'],
    ["a package", "src/core/x.ts", 'import { parse } from "yaml";'],
    [
      "a package sub-path",
      "src/core/search/x.ts",
      'import type { SearchableMap } from "minisearch/SearchableMap";',
    ],
  ];
  for (const [what, filePath, code] of allowed) {
    it(`allows ${what} in ${filePath}`, async () => {
      expect(await boundaryErrors(code, filePath)).toEqual([]);
    });
  }

  it("keeps the search engine to itself: src/core/search/engine/ imports packages and its own files only", async () => {
    const engineFile = "src/core/search/engine/x.ts";
    for (const code of [
      'import { parseQuery } from "../query";',
      'import { MemoryLayout } from "../../layout";',
      'import { main } from "../../../cli/main";',
    ]) {
      const errors = await boundaryErrors(code, engineFile);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toContain(
        "The search engine (src/core/search/engine/) imports only packages and its own files",
      );
    }
    expect(
      await boundaryErrors('import { readFileSync } from "node:fs";', engineFile),
    ).toHaveLength(1);
    expect(await boundaryErrors('import { stem } from "./stemmer";', engineFile)).toEqual([]);
    expect(await boundaryErrors('import MiniSearch from "minisearch";', engineFile)).toEqual([]);
    // The rest of the search builds on the engine.
    expect(
      await boundaryErrors(
        'import { tokenize } from "./engine/tokenizer";',
        "src/core/search/x.ts",
      ),
    ).toEqual([]);
  });

  it("does not apply outside the core: the adapters import obsidian and Node", async () => {
    expect(await boundaryErrors('import { Notice } from "obsidian";', "src/obsidian/x.ts")).toEqual(
      [],
    );
    expect(await boundaryErrors('import { readFileSync } from "node:fs";', "src/cli/x.ts")).toEqual(
      [],
    );
    expect(
      await boundaryErrors('import { MemoryLayout } from "../core/layout";', "src/cli/x.ts"),
    ).toEqual([]);
  });
});
