// Builds the two bundles (docs/decisions.md, "The CLI bundle is ESM"): main.js (the Obsidian
// plugin, CommonJS) and the agent-memory command for Node: dist/cli.js, a small CommonJS launcher
// that asks a running server for `search` and otherwise loads the full CLI dist/cli-main.mjs
// (docs/mcp.md), or for a hook that only reads dist/hook-main.cjs, with the index worker
// dist/index-worker.mjs.
// Usage: node esbuild.config.mjs [production|dev|cli|plugin]
import esbuild from "esbuild";
import builtins from "node:module";
import { chmodSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { dirname } from "node:path";

const mode = process.argv[2] ?? "production";
const production = mode !== "dev";

const plugin = {
  entryPoints: ["src/main.ts"],
  bundle: true,
  external: ["obsidian", "electron", "@codemirror/*", "@lezer/*"],
  format: "cjs",
  target: "es2022",
  platform: "browser",
  logLevel: "info",
  sourcemap: production ? false : "inline",
  minify: production,
  treeShaking: true,
  outfile: "main.js",
};

/**
 * One id per build, the same in every Node bundle of it (src/node/stale-cache-file.ts, BUILD_ID):
 * what a cache written by one build is keyed by, so another build's code never trusts it.
 */
const buildId = randomBytes(8).toString("hex");

const cliMain = {
  entryPoints: ["src/cli/main.ts"],
  define: { __AGENT_MEMORY_BUILD__: JSON.stringify(buildId) },
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  outfile: "dist/cli-main.mjs",
  logLevel: "info",
  external: [...builtins.builtinModules, ...builtins.builtinModules.map((m) => `node:${m}`)],
  banner: {
    js: 'import { createRequire as __amCreateRequire } from "node:module";\nconst require = __amCreateRequire(import.meta.url);',
  },
};

/**
 * The `agent-memory` bin: node built-ins only, a few KB, so a search that a server answers costs
 * little more than starting Node; it imports dist/cli-main.mjs (kept external) for everything else.
 * CommonJS, which Node 20 loads about 5 ms faster than an ES module (docs/decisions.md, "One-shot
 * search against rg"); dist/package.json says so, as the package itself is `"type": "module"`.
 */
const cli = {
  entryPoints: ["src/cli/launcher.ts"],
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  outfile: "dist/cli.js",
  logLevel: "info",
  external: cliMain.external,
  banner: { js: "#!/usr/bin/env node" },
};

/**
 * The hooks' own bundle: the Claude Code events that only read (src/cli/hook-main.ts), loaded by the
 * launcher instead of the full CLI when no server answered (docs/decisions.md, "A bundle of its
 * own for the hooks that read"). CommonJS, so the launcher can run it with V8's code cache
 * (src/cli/code-cache.ts; "The hooks' bundle runs from a code cache"); what it imports only when
 * used (the embeddings client and its SDK) stays in functions that run only then.
 */
const hookMain = {
  entryPoints: ["src/cli/hook-main.ts"],
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  outfile: "dist/hook-main.cjs",
  logLevel: "info",
  external: cliMain.external,
  define: {
    ...cliMain.define,
    // The worker beside the bundle (src/node/worker-reader.ts) is found from the bundle's URL.
    "import.meta.url": "__amImportMetaUrl",
  },
  banner: { js: 'const __amImportMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
};

/** The CLI's index worker (src/node/worker-reader.ts loads it from beside cli.js). */
const cliWorker = {
  ...cliMain,
  entryPoints: ["src/node/index-worker.ts"],
  outfile: "dist/index-worker.mjs",
};

/**
 * Builds `options` in memory and writes each output to a temporary file renamed over the old one:
 * a CLI process starting meanwhile (tests build the CLI while others run it) reads the old bundle
 * or the new one, never half of one.
 */
async function buildAtomically(options, mode) {
  const result = await esbuild.build({ ...options, write: false });
  for (const file of result.outputFiles) writeAtomically(file.path, file.contents, mode);
}

/** Writes `contents` to a temporary file beside `path` and renames it over `path`. */
function writeAtomically(path, contents, mode) {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  writeFileSync(tmp, contents, { mode });
  renameSync(tmp, path);
}

/**
 * The CLI: the launcher, executable so `./dist/cli.js` runs as well as the npm bin link, the full
 * CLI, the hooks' bundle and the index worker. The launcher is written last, so it never names a dist/cli-main.mjs older than it.
 */
async function buildCli() {
  await Promise.all([
    buildAtomically(cliMain, 0o644),
    buildAtomically(hookMain, 0o644),
    buildAtomically(cliWorker, 0o644),
  ]);
  writeAtomically("dist/package.json", `${JSON.stringify({ type: "commonjs" })}\n`, 0o644);
  await buildAtomically(cli, 0o755);
  chmodSync(cli.outfile, 0o755);
}

if (mode === "dev") {
  const ctx = await esbuild.context(plugin);
  await ctx.watch();
} else if (mode === "cli") {
  await buildCli();
} else if (mode === "plugin") {
  await esbuild.build(plugin);
} else {
  await Promise.all([esbuild.build(plugin), buildCli()]);
}
