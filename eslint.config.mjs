import { defineConfig } from "eslint/config";
import obsidianmd from "eslint-plugin-obsidianmd";
import globals from "globals";
import { builtinModules } from "node:module";

// The core boundary (docs/testing.md, "The core boundary"; test/core/core-boundary.test.ts): a file in
// src/core/ runs in Obsidian (mobile included), in the CLI and in the MCP server, so it imports
// packages and other core files only — never `obsidian`, a Node built-in, or a file outside
// src/core/ (src/obsidian/, src/cli/, src/main.ts). The adapters hand it what it needs through its
// ports (src/core/vault.ts). tsconfig.core.json checks the same from the type side.
const coreBoundary =
  "The core (src/core/) imports only packages and core files: no obsidian, no Node built-in, nothing from src/obsidian/ or src/cli/. Pass it what it needs through a port (src/core/vault.ts).";
const coreDepths = [1, 2, 3, 4, 5];

/**
 * The boundary rules of a file in src/core/; `leaving` is the pattern, with its message, of a
 * relative import that leaves the part the file belongs to (the core, or the search engine).
 */
function boundaryRules(leaving) {
  return {
    "no-restricted-imports": [
      "error",
      {
        paths: [
          { name: "obsidian", message: coreBoundary },
          ...builtinModules.map((name) => ({ name, message: coreBoundary })),
        ],
        patterns: [
          { regex: "^obsidian/", message: coreBoundary },
          { regex: "^node:", message: coreBoundary },
          leaving,
          { regex: "^(\\./)?src/", message: coreBoundary },
        ],
      },
    ],
    // import() and require() escape no-restricted-imports; the core needs neither.
    "no-restricted-syntax": [
      "error",
      { selector: "ImportExpression", message: `No dynamic import() in the core. ${coreBoundary}` },
      {
        selector: "CallExpression[callee.name='require']",
        message: `No require() in the core. ${coreBoundary}`,
      },
      {
        selector: "TSImportEqualsDeclaration[moduleReference.type='TSExternalModuleReference']",
        message: `No import = require() in the core. ${coreBoundary}`,
      },
    ],
  };
}

/** One block per folder depth under src/core/: a relative import with one `../` more than the depth leaves the core. */
const coreBoundaryBlocks = coreDepths.map((depth) => ({
  files: [`src/core/${"*/".repeat(depth - 1)}*.{ts,mts,cts,js,mjs}`],
  rules: boundaryRules({ regex: `^(\\.\\./){${depth},}`, message: coreBoundary }),
}));

// The search engine (src/core/search/engine/README.md) is a part of its own: the rest of
// src/core/search/ builds on it, never the other way, so any `../` import leaves it.
const engineBoundary =
  "The search engine (src/core/search/engine/) imports only packages and its own files; the rest of the search builds on it, not the other way (see its README.md).";
const engineBoundaryBlock = {
  files: ["src/core/search/engine/**/*.{ts,mts,cts,js,mjs}"],
  rules: boundaryRules({ regex: "^\\.\\./", message: engineBoundary }),
};

// The hosts (docs/architecture.md, "Folder dependencies"; test/core/core-folders.test.ts checks the
// same exactly): node/ imports the core only; mcp/ and serve/ import node/ and the core, never the
// CLI or each other; the CLI may import them all; the plugin imports the core only.
const hostRule = (folders, message) => ({
  "no-restricted-imports": [
    "error",
    { patterns: [{ regex: `^(\\.\\./)+(${folders.join("|")})(/|$)`, message }] },
  ],
});
const hostBoundaryBlocks = [
  {
    files: ["src/node/**/*.ts"],
    rules: hostRule(
      ["cli", "mcp", "serve", "obsidian"],
      "src/node/ holds what the Node hosts share and imports the core only.",
    ),
  },
  {
    files: ["src/mcp/**/*.ts"],
    rules: hostRule(
      ["cli", "serve", "obsidian"],
      "src/mcp/ imports src/node/ and the core only; what it shares with another host goes to src/node/.",
    ),
  },
  {
    files: ["src/serve/**/*.ts"],
    rules: hostRule(
      ["cli", "mcp", "obsidian"],
      "src/serve/ imports src/node/ and the core only (the CLI's main is injected, SearchSocketOptions.dispatch).",
    ),
  },
  {
    files: ["src/cli/**/*.ts"],
    rules: hostRule(["obsidian"], "The CLI never imports the plugin."),
  },
  {
    files: ["src/obsidian/**/*.ts"],
    rules: hostRule(["node", "cli", "mcp", "serve"], "The plugin imports the core only."),
  },
];

export default defineConfig([
  {
    ignores: [
      "node_modules/",
      "main.js",
      "dist/",
      "coverage/",
      "bench/results/",
      "examples/",
      "docs/",
      ".stryker-tmp/",
      "reports/",
      "stryker.config.json",
    ],
  },
  ...obsidianmd.configs.recommended,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ["eslint.config.mjs", "esbuild.config.mjs", "scripts/*.mjs"],
        },
      },
    },
  },
  {
    // Code that runs on Node, never inside Obsidian: the Node hosts (src/node/, src/cli/, src/mcp/,
    // src/serve/), tests, benchmarks, build scripts.
    // The mobile-only rules (no Node built-ins, configDir instead of ".obsidian") do not apply there.
    files: [
      "src/cli/**",
      "src/node/**",
      "src/mcp/**",
      "src/serve/**",
      "test/**",
      "bench/**",
      "scripts/**",
      "*.config.*",
      "*.mjs",
    ],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      "obsidianmd/no-nodejs-modules": "off",
      "obsidianmd/hardcoded-config-path": "off",
      "no-undef": "off",
      "no-restricted-globals": "off",
      "obsidianmd/no-global-this": "off",
      "obsidianmd/prefer-window-timers": "off",
      "import/no-nodejs-modules": "off",
    },
  },
  ...coreBoundaryBlocks,
  engineBoundaryBlock,
  ...hostBoundaryBlocks,
]);
