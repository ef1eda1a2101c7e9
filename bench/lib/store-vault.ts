/**
 * Deterministic vaults of real text for the scale benchmarks: paragraphs of the Obsidian help
 * pages (English and Chinese) and LoCoMo conversation sessions from `../shared/data/`, mixed into
 * notes of 0.5–6 KB with a title, frontmatter and headings, spread over agents' journals and a
 * library. Throws when `../shared/data/` is absent.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { rng } from "./synthetic-vault";

const DATA = resolve(dirname(fileURLToPath(import.meta.url)), "../../../shared/data");

/** Queries of words in the corpus: common, rare, Chinese, a phrase. */
export const REAL_QUERIES = [
  "canvas plugin settings",
  "Caroline adoption agency",
  "sync vault history",
  "搜索 笔记",
  '"graph view"',
  "Melanie painting sunrise",
  "keyboard shortcuts hotkeys",
];

function markdownFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir).sort()) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) out.push(...markdownFiles(p));
    else if (e.endsWith(".md")) out.push(p);
  }
  return out;
}

/** Paragraphs of real text, in a fixed order. */
function paragraphs(): string[] {
  if (!existsSync(DATA)) throw new Error(`real-vault: ${DATA} not found`);
  const out: string[] = [];
  for (const f of markdownFiles(join(DATA, "obsidian-help"))) {
    const text = readFileSync(f, "utf8").replace(/^---\n[\s\S]*?\n---\n/, "");
    for (const p of text.split(/\n\s*\n/)) if (p.trim().length > 40) out.push(p.trim());
  }
  const locomo = JSON.parse(readFileSync(join(DATA, "locomo10.json"), "utf8")) as {
    conversation: Record<string, unknown>;
  }[];
  for (const sample of locomo) {
    for (const [key, turns] of Object.entries(sample.conversation)) {
      if (!/^session_\d+$/.test(key) || !Array.isArray(turns)) continue;
      const lines = (turns as { speaker: string; text: string }[]).map(
        (t) => `${t.speaker}: ${t.text}`,
      );
      for (let i = 0; i < lines.length; i += 4) out.push(lines.slice(i, i + 4).join("\n"));
    }
  }
  return out;
}

/**
 * Writes `count` notes under `dir` (unless a vault of that many is already there).
 * @returns the notes' vault paths and their total size in bytes
 */
export function generateRealVault(dir: string, count: number): { paths: string[]; bytes: number } {
  const paras = paragraphs();
  const random = rng(20261201);
  const paths: string[] = [];
  let bytes = 0;
  const marker = join(dir, ".generated-v2");
  const done = existsSync(marker) && readFileSync(marker, "utf8") === String(count);
  for (let i = 0; i < count; i++) {
    const agent = `agent-${i % 12}`;
    const path =
      i % 3 === 0
        ? `Memory/Library/area-${i % 40}/note-${i}.md`
        : `Memory/Agents/${agent}/Journal/2026-${String((i % 12) + 1).padStart(2, "0")}-${String((i % 28) + 1).padStart(2, "0")}-${i}.md`;
    paths.push(path);
    const target = 500 + Math.floor(random() * 5500);
    let body = "";
    let start = Math.floor(random() * paras.length);
    while (body.length < target) {
      if (random() < 0.2) body += `## Part ${body.length}\n\n`;
      body += `${paras[start++ % paras.length] ?? ""}\n\n`;
    }
    const text = `---\ntags: [bench, t${i % 50}]\n---\n# Note ${i}\n\n${body}`;
    bytes += Buffer.byteLength(text);
    if (done) continue;
    const abs = join(dir, path);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, text);
  }
  if (!done) writeFileSync(marker, String(count));
  return { paths, bytes };
}
