// Builds the two bundles (issue 2 §1): main.js (the Obsidian plugin, CommonJS) and dist/cli.js
// (the agent-memory command for Node, with its index worker dist/index-worker.js).
// Usage: node esbuild.config.mjs [production|dev|cli|plugin]
import esbuild from "esbuild";
import builtins from "node:module";
import { chmodSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { dirname } from "node:path";

const mode = process.argv[2] ?? "production";
const production = mode !== "dev";

/** Node built-ins are not available on mobile; gray-matter's unused `require("fs")` gets an empty module. */
const noNodeBuiltins = {
  name: "no-node-builtins",
  setup(build) {
    build.onResolve({ filter: /^(node:)?fs$/ }, () => ({ path: "fs", namespace: "empty" }));
    build.onLoad({ filter: /.*/, namespace: "empty" }, () => ({ contents: "module.exports = {};", loader: "js" }));
  },
};

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
  plugins: [noNodeBuiltins],
};

const cli = {
  entryPoints: ["src/cli/main.ts"],
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  outfile: "dist/cli.js",
  logLevel: "info",
  external: [...builtins.builtinModules, ...builtins.builtinModules.map((m) => `node:${m}`)],
  banner: {
    js: '#!/usr/bin/env node\nimport { createRequire as __amCreateRequire } from "node:module";\nconst require = __amCreateRequire(import.meta.url);',
  },
};

/** The CLI's index worker (src/cli/worker-reader.ts loads it from beside cli.js). */
const cliWorker = { ...cli, entryPoints: ["src/cli/index-worker.ts"], outfile: "dist/index-worker.js", banner: { js: cli.banner.js.replace("#!/usr/bin/env node\n", "") } };

/**
 * Builds `options` in memory and writes each output to a temporary file renamed over the old one:
 * a CLI process starting meanwhile (tests build the CLI while others run it) reads the old bundle
 * or the new one, never half of one.
 */
async function buildAtomically(options, mode) {
  const result = await esbuild.build({ ...options, write: false });
  for (const file of result.outputFiles) {
    mkdirSync(dirname(file.path), { recursive: true });
    const tmp = `${file.path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    writeFileSync(tmp, file.contents, { mode });
    renameSync(tmp, file.path);
  }
}

/** The CLI bundle, executable so `./dist/cli.js` runs as well as the npm bin link, and its worker. */
async function buildCli() {
  await Promise.all([buildAtomically(cli, 0o755), buildAtomically(cliWorker, 0o644)]);
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
