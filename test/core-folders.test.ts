// Folder dependencies in the core flow one way (the graph below; the docs draw the same). A file
// in one folder of src/core/ may import only the folders its folder lists; anything else fails
// here, naming the file and the import. Top-level files of src/core/ (errors, layout, settings,
// frontmatter, vault …) are the folder "(root)".
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const core = fileURLToPath(new URL("../src/core", import.meta.url));

const BASE = ["(root)", "util", "markdown"];
/** Folder → the other folders it may import. */
const ALLOWED: Record<string, string[]> = {
  util: [],
  markdown: ["(root)", "util"],
  "(root)": ["util", "markdown"],
  journal: BASE,
  trackers: BASE,
  knowledge: [...BASE, "trackers"],
  search: [...BASE, "trackers"],
  llm: BASE,
  // may-be-stale reads journal blocks (docs/compaction.md).
  health: [...BASE, "trackers", "knowledge", "journal"],
  // A review lists the knowledge that may be stale (health/stale-rules.ts).
  review: [...BASE, "trackers", "knowledge", "health"],
  extraction: [...BASE, "journal", "trackers", "knowledge", "llm"],
  library: [...BASE, "trackers", "knowledge"],
  inbox: [...BASE, "trackers", "library"],
  brief: [
    ...BASE,
    "trackers",
    "knowledge",
    "review",
    "search",
    "extraction",
    "llm",
    "inbox",
    "health",
  ],
  compaction: [...BASE, "journal", "trackers", "knowledge", "extraction", "health", "llm"],
  watch: [...BASE, "journal", "extraction"],
};
/** Known exceptions, file → folder, each with its reason. Keep this list short. */
const EXCEPTIONS: Record<string, string> = {
  // The settings schema validates the section-heading table that extraction owns.
  "settings.ts": "extraction",
  // `init` writes an agent's first journal.
  "init.ts": "journal",
  // Usage figures are typed by extraction's types (the llm folder's owner may move the type).
  "llm/usage.ts": "extraction",
  // The unresolved-contradiction rule applies extraction's contradiction rule (docs/contradictions.md).
  "health/contradiction-rules.ts": "extraction",
};

function folderOf(file: string): string {
  const rel = relative(core, file).split(sep);
  return rel.length > 1 ? (rel[0] ?? "") : "(root)";
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(join(dir, e.name))
      : e.name.endsWith(".ts")
        ? [join(dir, e.name)]
        : [],
  );
}

const IMPORT_RE = /(?:^|\n)\s*(?:import|export)\b[^;'"]*?(?:from\s*)?["'](\.{1,2}\/[^"']+)["']/g;

/** `file imports target-folder (specifier)` for every import of a core folder its folder may not import. */
function violations(): string[] {
  const out: string[] = [];
  for (const file of sources(core)) {
    const from = folderOf(file);
    const allowed = ALLOWED[from];
    const rel = relative(core, file).split(sep).join("/");
    for (const m of readFileSync(file, "utf8").matchAll(IMPORT_RE)) {
      const spec = m[1] ?? "";
      const target = resolve(dirname(file), spec);
      if (!target.startsWith(core)) continue; // the boundary lint rule covers imports leaving the core
      const to = folderOf(`${target}.ts`);
      if (to === from || allowed?.includes(to) || EXCEPTIONS[rel] === to) continue;
      out.push(
        `${rel} imports ${to}/ (${spec})${allowed ? "" : ` — folder ${from}/ is not in the graph`}`,
      );
    }
  }
  return out;
}

describe("core folder dependencies", () => {
  it("flow one way: no folder imports against the graph", () => {
    expect(violations()).toEqual([]);
  });

  it("the graph has no cycle between folders (the root and markdown/ excepted)", () => {
    const seen = new Set<string>();
    const visiting = new Set<string>();
    const cycles: string[] = [];
    const visit = (f: string, path: string[]): void => {
      if (visiting.has(f)) return void cycles.push([...path, f].join(" → "));
      if (seen.has(f)) return;
      visiting.add(f);
      for (const t of ALLOWED[f] ?? [])
        if (!(f === "(root)" && t === "markdown") && !(f === "markdown" && t === "(root)"))
          visit(t, [...path, f]);
      visiting.delete(f);
      seen.add(f);
    };
    for (const f of Object.keys(ALLOWED)) visit(f, []);
    expect(cycles).toEqual([]);
  });

  it("finds an import against the graph (the check can fail)", () => {
    const rel = "trackers/store.ts";
    const file = join(core, rel);
    const fake = 'import { checkHealth } from "../health/check";';
    const target = resolve(dirname(file), "../health/check");
    expect([...`\n${fake}`.matchAll(IMPORT_RE)].map((m) => m[1])).toEqual(["../health/check"]);
    expect(ALLOWED[folderOf(file)]).not.toContain(folderOf(`${target}.ts`));
  });
});

describe("CLI commands", () => {
  it("do not import each other: shared helpers live in src/cli/shared.ts (the registry lists them all)", () => {
    const dir = fileURLToPath(new URL("../src/cli/commands", import.meta.url));
    const out: string[] = [];
    for (const file of sources(dir)) {
      if (file.endsWith(`${sep}registry.ts`)) continue;
      for (const m of readFileSync(file, "utf8").matchAll(IMPORT_RE))
        if ((m[1] ?? "").startsWith("./")) out.push(`${relative(dir, file)} imports ${m[1]}`);
    }
    expect(out).toEqual([]);
  });
});
