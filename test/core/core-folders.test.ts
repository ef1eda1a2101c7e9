// Folder dependencies in the core flow one way (the graph below; the docs draw the same). A file
// in one folder of src/core/ may import only the folders its folder lists; anything else fails
// here, naming the file and the import. Top-level files of src/core/ (errors, layout, settings,
// frontmatter, vault …) are the folder "(root)". The hosts around the core have a graph of their
// own (HOSTS below), and no file of src/ is on an import cycle, type-only imports included.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const src = fileURLToPath(new URL("../../src", import.meta.url));
const core = join(src, "core");

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
  // may-be-stale reads journal blocks (docs/compaction.md); conflict-copy and merge-choice read the
  // sync rules' names (docs/sync.md, "Reconcile").
  health: [...BASE, "trackers", "knowledge", "journal", "sync"],
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
  // The merge rules read trackers, topic notes and journals as their own parsers do (docs/sync.md).
  sync: [...BASE, "trackers", "knowledge", "journal"],
  // Sessions go into journals; a prompt's passages are judged with the search tokenizer and shown
  // without their tracker fields.
  ingest: [...BASE, "journal", "search", "trackers"],
  // Semantic recall joins the embeddings client to the search index (docs/architecture.md, "Semantic recall").
  semantic: [...BASE, "search", "llm"],
};
/** Known exceptions, file → folder, each with its reason. Keep this list short. */
const EXCEPTIONS: Record<string, string> = {
  // The settings schema validates the section-heading table that extraction owns.
  "settings.ts": "extraction",
  // `init` writes an agent's first journal.
  "init.ts": "journal",
  // Usage figures are typed by extraction's types (the llm folder's owner may move the type).
  "llm/usage.ts": "extraction",
  // The unresolved-contradiction and possible-change rules apply extraction's statement rule (docs/contradictions.md).
  "health/contradiction-rules.ts": "extraction",
  // Progress finds its goal by the words they share, read with the search tokenizer (CJK too).
  "extraction/goal-match.ts": "search",
  // The health check reads plain frontmatter with the index's fast reader (docs/decisions.md,
  // "The staleness check reads plain frontmatter fast …").
  "health/note-info.ts": "search",
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
    const dir = fileURLToPath(new URL("../../src/cli/commands", import.meta.url));
    const out: string[] = [];
    for (const file of sources(dir)) {
      if (file.endsWith(`${sep}registry.ts`)) continue;
      for (const m of readFileSync(file, "utf8").matchAll(IMPORT_RE))
        if ((m[1] ?? "").startsWith("./")) out.push(`${relative(dir, file)} imports ${m[1]}`);
    }
    expect(out).toEqual([]);
  });
});

/**
 * Host folder → the folders of src/ it may import (docs/architecture.md, "Folder dependencies"). The
 * core imports no host; node/ holds the Node adapters the CLI, MCP and serve share and imports the
 * core only; mcp/ and serve/ are hosts over node/ and know nothing of the CLI (the socket server
 * gets the CLI's `main` injected); the CLI starts both (`agent-memory mcp`, `serve`, and the
 * launcher asks a running server), so it may import them. The plugin (obsidian/, and main.ts, its
 * composition root, as "(src)") imports the core only.
 */
const HOSTS: Record<string, string[]> = {
  core: [],
  node: ["core"],
  mcp: ["core", "node"],
  serve: ["core", "node"],
  cli: ["core", "node", "mcp", "serve"],
  obsidian: ["core"],
  "(src)": ["core", "obsidian"],
};

const DYNAMIC_RE = /\bimport\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g;

/** The source file a relative specifier of `file` names, or `null` (not a .ts file of src/). */
function resolveImport(file: string, spec: string): string | null {
  const base = resolve(dirname(file), spec);
  for (const candidate of [`${base}.ts`, join(base, "index.ts"), base])
    if (candidate.endsWith(".ts") && existsSync(candidate)) return candidate;
  return null;
}

/** Every relative import of `file` (static, re-export, type-only, dynamic), resolved. */
function importsOf(file: string): { spec: string; target: string }[] {
  const text = readFileSync(file, "utf8");
  const specs = [...text.matchAll(IMPORT_RE), ...text.matchAll(DYNAMIC_RE)].map((m) => m[1] ?? "");
  return specs.flatMap((spec) => {
    const target = resolveImport(file, spec);
    return target ? [{ spec, target }] : [];
  });
}

function hostOf(file: string): string {
  const rel = relative(src, file).split(sep);
  return rel.length > 1 ? (rel[0] ?? "") : "(src)";
}

/** `file imports host/ (specifier)` for every import of a host folder its folder may not import. */
function hostViolations(files: readonly string[]): string[] {
  const out: string[] = [];
  for (const file of files) {
    const from = hostOf(file);
    const allowed = HOSTS[from];
    for (const { spec, target } of importsOf(file)) {
      const to = hostOf(target);
      if (to === from || allowed?.includes(to)) continue;
      const rel = relative(src, file).split(sep).join("/");
      out.push(
        `${rel} imports ${to}/ (${spec})${allowed ? "" : ` — ${from}/ is not in the graph`}`,
      );
    }
  }
  return out;
}

/** The import cycles of a graph (file → files it imports), each as `a → b → … → a`. */
export function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[] {
  // Tarjan's strongly connected components; a component of two or more files, or a file that
  // imports itself, is a cycle.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop(); w !== undefined; w = stack.pop()) {
      onStack.delete(w);
      component.push(w);
      if (w === v) break;
    }
    if (component.length > 1 || (graph.get(v) ?? []).includes(v))
      cycles.push([...component.reverse(), component[0]].join(" → "));
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

describe("host folders", () => {
  it("import only the folders the graph gives them", () => {
    expect(hostViolations(sources(src))).toEqual([]);
  });

  it("finds an import against the graph (the check can fail)", () => {
    const file = join(src, "node", "node-vault.ts");
    expect(hostOf(file)).toBe("node");
    expect(HOSTS[hostOf(file)]).not.toContain(hostOf(join(src, "cli", "main.ts")));
    expect(HOSTS.serve).not.toContain("cli");
    expect(HOSTS.obsidian).toEqual(["core"]);
  });
});

describe("import cycles", () => {
  it("none in src/, type-only imports included", () => {
    const graph = new Map(
      sources(src).map((f) => [
        relative(src, f).split(sep).join("/"),
        importsOf(f).map((i) => relative(src, i.target).split(sep).join("/")),
      ]),
    );
    expect(cyclesOf(graph)).toEqual([]);
  });

  it("are found: two files importing each other, a longer loop, a file importing itself", () => {
    expect(
      cyclesOf(
        new Map([
          ["a", ["b"]],
          ["b", ["a"]],
          ["c", ["d"]],
          ["d", ["e"]],
          ["e", ["c"]],
          ["f", ["f"]],
          ["g", ["a"]],
        ]),
      ),
    ).toEqual(["a → b → a", "c → d → e → c", "f → f"]);
    expect(
      cyclesOf(
        new Map([
          ["a", ["b"]],
          ["b", []],
        ]),
      ),
    ).toEqual([]);
  });

  it("reads type-only, multi-line and dynamic imports", () => {
    const text =
      'import type {\n  A,\n} from "./a";\nexport { b } from "../b";\nconst c = await import("./c");';
    expect([...text.matchAll(IMPORT_RE), ...text.matchAll(DYNAMIC_RE)].map((m) => m[1])).toEqual([
      "./a",
      "../b",
      "./c",
    ]);
  });
});
