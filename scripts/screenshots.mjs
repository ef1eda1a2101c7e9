// Screenshots of the plugin's UI for the README and docs/plugin.md.
//
// Renders the REAL tracker panel, search panel and review modal (src/obsidian/*) on a static page
// with styles.css and the sample vault (examples/vault), in light and dark themes, with Obsidian's
// CSS variables defined on the page. The plugin code is bundled for the browser with esbuild, with
// `obsidian` resolved to the test stub (test/stubs/obsidian.ts) and Obsidian's DOM helpers from
// test/setup-dom.ts. Shots are taken by headless Debian Chromium through playwright-core.
//
// Usage: npm run screenshots   (needs /usr/bin/chromium: apt-get install -y chromium)
// Output: docs/tracker-panel-{light,dark}.png, docs/search-panel-{light,dark}.png,
//         docs/review-modal-{light,dark}.png
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import esbuild from "esbuild";
import { chromium } from "playwright-core";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const TODAY = "2026-12-01";
const AGENT = "link";
const REVIEW_JOURNAL = "Memory/Agents/link/Journal/2026-11-27.md";
const SEARCH_QUERY = "bounce rate";

/** Every Markdown file of the sample vault, as `{ vaultPath: text }`. */
async function readVault(dir) {
  const out = {};
  const walk = async (rel) => {
    for (const entry of await readdir(path.join(dir, rel), { withFileTypes: true })) {
      if (entry.name.startsWith(".")) continue;
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await walk(child);
      else if (entry.name.endsWith(".md"))
        out[child] = await readFile(path.join(dir, child), "utf8");
    }
  };
  await walk("");
  return out;
}

/** The page's script: builds the stub app, seeds it and renders the three scenes with plugin code. */
const PAGE_SOURCE = `
import "./test/setup-dom";
import { App, WorkspaceLeaf } from "./test/stubs/obsidian";
import { defaultSettings } from "./src/core/settings";
import { MemoryLayout } from "./src/core/layout";
import { planExtraction } from "./src/core/extraction/pipeline";
import { OfflineExtractor } from "./src/core/extraction/offline";
import { ObsidianVault } from "./src/obsidian/adapters/obsidian-vault";
import { TrackerView } from "./src/obsidian/views/tracker-view";
import { SearchView } from "./src/obsidian/views/search-view";
import { IndexLifecycle } from "./src/obsidian/runners/index-lifecycle";
import { StatusBarProgress } from "./src/obsidian/views/status-bar-progress";
import { PlanReviewModal } from "./src/obsidian/modals/plan-review-modal";

async function mountView(view, sceneId) {
  view.load();
  await view.open();
  view.containerEl.querySelector(".view-header").textContent = view.getDisplayText();
  document.querySelector("#" + sceneId + " .workspace-leaf").append(view.containerEl);
}

async function main() {
  const app = new App();
  for (const [p, text] of Object.entries(window.FIXTURE)) await app.vault.seed(p, text);
  const settings = { ...defaultSettings(), defaultAgent: window.AGENT };
  const ctx = { app, vault: new ObsidianVault(app), settings: () => settings, saveSettings: async () => {}, today: () => window.TODAY };

  const trackers = new TrackerView(new WorkspaceLeaf(app.workspace), ctx);
  trackers.filter = "all";
  await mountView(trackers, "tracker");

  const statusEl = document.querySelector("#search .status-bar-item");
  const index = new IndexLifecycle(ctx, new StatusBarProgress(statusEl), ".obsidian/plugins/agent-memory/search-index.json");
  index.load();
  index.start();
  while (index.state.kind !== "ready" && index.state.kind !== "failed") await new Promise((r) => setTimeout(r, 10));
  const search = new SearchView(new WorkspaceLeaf(app.workspace), ctx, index);
  await mountView(search, "search");
  await search.setQuery(window.SEARCH_QUERY);

  const layout = new MemoryLayout(settings);
  const plan = await planExtraction({ vault: ctx.vault, settings, layout, journalPath: window.REVIEW_JOURNAL, extractor: new OfflineExtractor(), force: true });
  const modal = new PlanReviewModal(app, { plan, layout, onApply: async () => {} });
  modal.open();
  document.querySelector("#review .modal-host").append(modal.containerEl);
  // Show the states a person sees: one item dropped, one evidence expanded.
  const rows = modal.contentEl.querySelectorAll(".am-review-item:not(.is-skipped)");
  const drop = rows[2]?.querySelector(".am-review-accept");
  if (drop) { drop.checked = false; drop.dispatchEvent(new Event("change")); }
  rows[0]?.querySelector("details")?.setAttribute("open", "");
  window.__ready = true;
}
main().catch((err) => { window.__error = String(err && err.stack || err); });
`;

/** Obsidian's look, reduced to what the panels use: CSS variables (light and dark) and base controls. */
const OBSIDIAN_CSS = `
body { margin: 0; font-family: -apple-system, BlinkMacSystemFont, "Segoe UI", Inter, Ubuntu, sans-serif; font-size: 14px; }
.theme-light {
  --background-primary: #ffffff; --background-secondary: #f6f6f6; --background-secondary-alt: #e3e3e3;
  --background-modifier-border: #e0e0e0; --background-modifier-hover: rgba(0,0,0,0.067);
  --background-modifier-form-field: #ffffff;
  --text-normal: #222222; --text-muted: #5c5c5c; --text-faint: #ababab; --text-on-accent: #ffffff;
  --text-accent: #8a5cf5; --interactive-accent: #8a5cf5; --interactive-accent-hover: #7a4ee3; --interactive-normal: #ffffff;
  --text-error: #e93147; --text-success: #08b94e; --text-highlight-bg: rgba(255, 208, 0, 0.4);
  --color-red-rgb: 233, 49, 71; --color-orange-rgb: 236, 117, 0; --color-yellow-rgb: 224, 172, 0;
  --color-green-rgb: 8, 185, 78; --color-blue-rgb: 8, 109, 221; --color-purple-rgb: 120, 82, 238;
  --color-red: #e93147; --color-orange: #ec7500; --color-yellow: #e0ac00; --color-green: #08b94e; --color-blue: #086ddd; --color-purple: #7852ee;
  --shadow: 0 4px 24px rgba(0,0,0,0.16); --backdrop: rgba(0,0,0,0.25);
}
.theme-dark {
  --background-primary: #1e1e1e; --background-secondary: #262626; --background-secondary-alt: #363636;
  --background-modifier-border: #363636; --background-modifier-hover: rgba(255,255,255,0.075);
  --background-modifier-form-field: #2a2a2a;
  --text-normal: #dadada; --text-muted: #b3b3b3; --text-faint: #666666; --text-on-accent: #ffffff;
  --text-accent: #a68af9; --interactive-accent: #7f6df2; --interactive-accent-hover: #8f7ff5; --interactive-normal: #363636;
  --text-error: #fb464c; --text-success: #44cf6e; --text-highlight-bg: rgba(255, 208, 0, 0.4);
  --color-red-rgb: 251, 70, 76; --color-orange-rgb: 233, 151, 63; --color-yellow-rgb: 224, 222, 113;
  --color-green-rgb: 68, 207, 110; --color-blue-rgb: 2, 122, 255; --color-purple-rgb: 168, 130, 255;
  --color-red: #fb464c; --color-orange: #e9973f; --color-yellow: #e0de71; --color-green: #44cf6e; --color-blue: #027aff; --color-purple: #a882ff;
  --shadow: 0 4px 24px rgba(0,0,0,0.5); --backdrop: rgba(0,0,0,0.5);
}
body {
  --font-ui-smaller: 12px; --font-ui-small: 13px; --font-ui-medium: 15px; --font-semibold: 600;
  --font-monospace: "JetBrains Mono", "DejaVu Sans Mono", monospace;
  --size-2-1: 2px; --size-2-2: 4px; --size-2-3: 6px; --size-4-1: 4px; --size-4-2: 8px; --size-4-3: 12px; --size-4-4: 16px; --size-4-6: 24px;
  --radius-s: 4px; --radius-m: 8px;
  background: var(--background-secondary-alt); color: var(--text-normal);
}
.scene { display: inline-block; vertical-align: top; margin: 16px; }
.workspace-leaf { width: 380px; height: 560px; overflow: hidden; background: var(--background-secondary); border: 1px solid var(--background-modifier-border); border-radius: 8px; display: flex; flex-direction: column; }
.workspace-leaf-content { display: flex; flex-direction: column; height: 100%; }
.view-header { flex: none; padding: 10px 12px; font-weight: 600; font-size: 13px; color: var(--text-normal); border-bottom: 1px solid var(--background-modifier-border); }
.view-content { flex: 1 1 auto; padding: 12px; overflow: auto; }
.status-bar { display: flex; justify-content: flex-end; padding: 4px 10px; font-size: 12px; color: var(--text-muted); background: var(--background-secondary); border: 1px solid var(--background-modifier-border); border-top: none; border-radius: 0 0 8px 8px; width: 360px; }
#search .workspace-leaf { border-radius: 8px 8px 0 0; }
.modal-host { position: relative; width: 820px; padding: 40px 0; background: var(--backdrop); border-radius: 8px; display: flex; align-items: center; justify-content: center; }
.modal-container { display: contents; }
.modal { background: var(--background-primary); border: 1px solid var(--background-modifier-border); border-radius: 12px; box-shadow: var(--shadow); padding: 20px 24px; max-height: 1000px; overflow: hidden; display: flex; flex-direction: column; box-sizing: border-box; }
.modal-title { font-size: 18px; font-weight: 600; margin-bottom: 12px; }
.modal-content { overflow: hidden; display: flex; flex-direction: column; min-height: 0; }
input, select, textarea, button { font: inherit; font-size: 13px; color: var(--text-normal); }
input[type=search], input[type=text], textarea, select.dropdown { background: var(--background-modifier-form-field); border: 1px solid var(--background-modifier-border); border-radius: 4px; padding: 4px 8px; box-sizing: border-box; }
select.dropdown { padding-right: 20px; }
button { background: var(--interactive-normal); border: 1px solid var(--background-modifier-border); border-radius: 4px; padding: 4px 12px; cursor: pointer; }
button.mod-cta { background: var(--interactive-accent); color: var(--text-on-accent); border-color: transparent; }
input[type=checkbox] { accent-color: var(--interactive-accent); width: 15px; height: 15px; }
h3 { color: var(--text-normal); }
`;

/** Bundles the page script; `obsidian` is the test stub, Node built-ins are empty shims. */
async function bundlePage() {
  const shims = {
    name: "screenshot-shims",
    setup(build) {
      build.onResolve({ filter: /^obsidian$/ }, () => ({
        path: path.join(root, "test/stubs/obsidian.ts"),
      }));
      build.onResolve({ filter: /^(node:)?(fs|http)$/ }, (args) => ({
        path: args.path,
        namespace: "shim",
      }));
      build.onLoad({ filter: /.*/, namespace: "shim" }, () => ({
        contents:
          "export function request() { throw new Error('no network in screenshots'); } export default {};",
        loader: "js",
      }));
    },
  };
  const result = await esbuild.build({
    stdin: {
      contents: PAGE_SOURCE,
      resolveDir: root,
      sourcefile: "screenshot-page.ts",
      loader: "ts",
    },
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "error",
    plugins: [shims],
  });
  return result.outputFiles[0].text;
}

function pageHtml(theme, script, styles, fixture) {
  const data =
    `window.FIXTURE = ${JSON.stringify(fixture)}; window.TODAY = ${JSON.stringify(TODAY)}; window.AGENT = ${JSON.stringify(AGENT)};` +
    ` window.REVIEW_JOURNAL = ${JSON.stringify(REVIEW_JOURNAL)}; window.SEARCH_QUERY = ${JSON.stringify(SEARCH_QUERY)};`;
  // `<\/script>` inside the inlined bundle would end the tag early.
  const safe = (js) => js.replace(/<\/script/gi, "<\\/script");
  return `<!doctype html><html><head><meta charset="utf-8"><style>${OBSIDIAN_CSS}</style><style>${styles}</style></head>
<body class="theme-${theme}">
  <div class="scene" id="tracker"><div class="workspace-leaf"></div></div>
  <div class="scene" id="search"><div class="workspace-leaf"></div><div class="status-bar"><div class="status-bar-item"></div></div></div>
  <div class="scene" id="review"><div class="modal-host"></div></div>
  <script>${safe(data)}</script><script>${safe(script)}</script>
</body></html>`;
}

async function main() {
  if (!existsSync(CHROMIUM)) {
    console.error(
      `Chromium not found at ${CHROMIUM}; install it with: apt-get update && apt-get install -y chromium`,
    );
    process.exit(2);
  }
  const [script, styles, fixture] = await Promise.all([
    bundlePage(),
    readFile(path.join(root, "styles.css"), "utf8"),
    readVault(path.join(root, "examples/vault")),
  ]);
  const profile = await mkdtemp(path.join(tmpdir(), "am-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1760, height: 1100 },
    deviceScaleFactor: 2,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  try {
    const page = await context.newPage();
    const errors = [];
    page.on("pageerror", (err) => errors.push(String(err)));
    for (const theme of ["light", "dark"]) {
      const file = path.join(profile, `page-${theme}.html`);
      await writeFile(file, pageHtml(theme, script, styles, fixture));
      await page.goto(`file://${file}`);
      await page.waitForFunction(
        () => window.__ready === true || window.__error !== undefined,
        null,
        { timeout: 60_000 },
      );
      const failure = await page.evaluate(() => window.__error);
      if (failure) throw new Error(`page failed: ${failure}`);
      for (const [scene, name] of [
        ["#tracker", "tracker-panel"],
        ["#search", "search-panel"],
        ["#review", "review-modal"],
      ]) {
        const out = path.join(root, "docs", `${name}-${theme}.png`);
        await page.locator(scene).screenshot({ path: out });
        process.stdout.write(`wrote ${path.relative(root, out)}\n`);
      }
    }
    if (errors.length > 0) throw new Error(`errors on the page:\n${errors.join("\n")}`);
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
}

await main();
