/**
 * Vaults of real text for the scale benchmark (bench/scale.ts): notes of 0.5–6 KB cut from the
 * Obsidian help pages (English and Chinese) and the LoCoMo conversations in `../shared/data/`
 * (its README), in agent journals, knowledge topics and the library, with frontmatter. The same
 * size and seed give the same files; a finished vault is marked so a re-run reuses it.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { rng } from "./synthetic-vault";

/** Bumped when the generated notes change, so a cached vault of another shape is rebuilt. */
const GENERATOR_VERSION = 1;
const MARKER = ".bench-scale-vault";

/** The real text the notes are cut from. */
export interface Corpus {
  /** Help pages' bodies (frontmatter dropped), English and Chinese, as paragraphs. */
  pages: { title: string; lang: "en" | "zh"; paragraphs: string[] }[];
  /** LoCoMo sessions as lines `**Speaker**: text`. */
  sessions: { title: string; lines: string[] }[];
}

/** A benchmark query: the text given to search, and the literal terms ripgrep is given. */
export interface ScaleQuery {
  kind: string;
  query: string;
  rg: string[];
}

function walk(dir: string, out: string[]): void {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (name.endsWith(".md")) out.push(p);
  }
}

/** Reads the corpora under `dataDir` (`../shared/data`); throws when they are absent. */
export function loadCorpus(dataDir: string): Corpus {
  const pages: Corpus["pages"] = [];
  for (const lang of ["en", "zh"] as const) {
    const files: string[] = [];
    walk(join(dataDir, "obsidian-help", lang), files);
    for (const f of files) {
      const text = readFileSync(f, "utf8").replace(/^---\n[\s\S]*?\n---\n/, "");
      const paragraphs = text
        .split(/\n{2,}/)
        .map((p) => p.trim())
        .filter((p) => p.length > 0);
      if (paragraphs.length > 0)
        pages.push({ title: f.slice(f.lastIndexOf("/") + 1, -3), lang, paragraphs });
    }
  }
  const locomo = JSON.parse(readFileSync(join(dataDir, "locomo10.json"), "utf8")) as {
    conversation: Record<string, unknown>;
  }[];
  const sessions: Corpus["sessions"] = [];
  for (const sample of locomo) {
    const c = sample.conversation;
    for (let n = 1; Array.isArray(c[`session_${n}`]); n++) {
      const turns = c[`session_${n}`] as { speaker: string; text: string }[];
      sessions.push({
        title: `${String(c.speaker_a)} and ${String(c.speaker_b)}, ${typeof c[`session_${n}_date_time`] === "string" ? (c[`session_${n}_date_time`] as string) : ""}`,
        lines: turns.map((t) => `**${t.speaker}**: ${t.text}`),
      });
    }
  }
  return { pages, sessions };
}

/** Paths of the notes of a generated vault, relative to its root. */
export interface RealVault {
  root: string;
  notes: number;
  bytes: number;
}

/**
 * Writes (or reuses, when a finished vault of the same size and generator is there) a vault of
 * `notes` notes under `root`. Sizes are uniform in 0.5–6 KB; 45% of the notes are LoCoMo
 * sessions (journals), 55% help-page passages (knowledge and library topics).
 */
export function realVault(root: string, notes: number, corpus: Corpus, seed = 42): RealVault {
  const marker = join(root, MARKER);
  const key = `${GENERATOR_VERSION} ${notes} ${seed}`;
  if (existsSync(marker)) {
    const [k, bytes] = readFileSync(marker, "utf8").split("\n");
    if (k === key) return { root, notes, bytes: Number(bytes) };
  }
  const rand = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  const agents = Math.max(7, Math.round(notes / 2000));
  const statuses = ["active", "active", "active", "done", "superseded", "archived"];
  let total = 0;
  for (let i = 0; i < notes; i++) {
    const size = 500 + Math.floor(rand() * 5500);
    const agent = `agent-${String(1 + Math.floor(rand() * agents)).padStart(2, "0")}`;
    const day = new Date(Date.UTC(2023, 0, 1) + Math.floor(rand() * 1000) * 86_400_000)
      .toISOString()
      .slice(0, 10);
    let path: string;
    let title: string;
    let body = "";
    let type: string;
    if (rand() < 0.45) {
      const s = pick(corpus.sessions);
      type = "journal";
      title = `Session ${i}: ${s.title}`;
      path = `Memory/Agents/${agent}/Journal/${day}-${i}.md`;
      let at = Math.floor(rand() * s.lines.length);
      while (body.length < size) {
        body += `- ${s.lines[at % s.lines.length] ?? ""} ^t-${at}\n`;
        at++;
        if (at % s.lines.length === 0 && body.length > 400) break;
      }
    } else {
      const p = pick(corpus.pages);
      type = "knowledge";
      title = `${p.title} ${i}`;
      path =
        rand() < 0.7
          ? `Memory/Agents/${agent}/Knowledge/${p.lang}/${p.title.replace(/[\\/:*?"<>|]/g, " ")} ${i}.md`
          : `Memory/Library/${p.lang}/${p.title.replace(/[\\/:*?"<>|]/g, " ")} ${i}.md`;
      let at = Math.floor(rand() * p.paragraphs.length);
      let other = p;
      while (body.length < size) {
        body += `${other.paragraphs[at % other.paragraphs.length] ?? ""}\n\n`;
        at++;
        // A short page runs out: go on with another page of the same language.
        if (at % other.paragraphs.length === 0) {
          const same = corpus.pages.filter((q) => q.lang === p.lang);
          other = pick(same);
          at = 0;
        }
      }
    }
    const text = [
      "---",
      `id: ${type}-${i}`,
      `type: ${type}`,
      `status: ${pick(statuses)}`,
      `created_at: ${day}T09:00:00Z`,
      ...(rand() < 0.3 ? [`confidence: ${(0.5 + rand() * 0.5).toFixed(2)}`] : []),
      "---",
      `# ${title}`,
      "",
      body.slice(0, size),
      "",
    ].join("\n");
    const abs = join(root, path);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, text);
    total += Buffer.byteLength(text);
  }
  writeFileSync(marker, `${key}\n${total}\n`);
  return { root, notes, bytes: total };
}

/**
 * 200 mixed queries drawn from the corpus: common and rare words, word pairs, Chinese words,
 * speaker names, quoted phrases and filtered queries.
 */
export function scaleQueries(corpus: Corpus, count = 200, seed = 7): ScaleQuery[] {
  const rand = rng(seed);
  const counts = new Map<string, number>();
  const zh = new Map<string, number>();
  const pairs: string[] = [];
  const names = new Set<string>();
  const countWords = (text: string): void => {
    const words = text.toLowerCase().match(/[a-z]{3,}/g) ?? [];
    for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
    for (let i = 0; i + 1 < words.length; i += 97) pairs.push(`${words[i]} ${words[i + 1]}`);
    for (const m of text.match(/[\u4e00-\u9fff]{2}/g) ?? []) zh.set(m, (zh.get(m) ?? 0) + 1);
  };
  for (const p of corpus.pages) countWords(p.paragraphs.join(" "));
  for (const s of corpus.sessions) {
    countWords(s.lines.join(" "));
    for (const l of s.lines) names.add(/\*\*(.+?)\*\*/.exec(l)?.[1] ?? "");
  }
  const byCount = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const common = byCount.slice(30, 600).map(([w]) => w);
  const rare = byCount.filter(([, n]) => n <= 3).map(([w]) => w);
  const zhWords = [...zh]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 400)
    .map(([w]) => w);
  const people = [...names].filter((n) => n !== "");
  const pick = <T>(xs: readonly T[], fallback: T): T =>
    xs.length > 0 ? (xs[Math.floor(rand() * xs.length)] as T) : fallback;
  const out: ScaleQuery[] = [];
  for (let i = 0; i < count; i++) {
    const r = i % 20;
    if (r < 5) {
      const w = pick(common, "note");
      out.push({ kind: "word", query: w, rg: [w] });
    } else if (r < 9) {
      const a = pick(common, "note");
      const b = pick(common, "link");
      out.push({ kind: "two words", query: `${a} ${b}`, rg: [a, b] });
    } else if (r < 11) {
      const w = pick(rare, "zorvex");
      out.push({ kind: "rare word", query: w, rg: [w] });
    } else if (r < 13) {
      const w = pick(zhWords, "笔记");
      out.push({ kind: "chinese", query: w, rg: [w] });
    } else if (r < 14) {
      const w = pick(people, "Caroline");
      out.push({ kind: "name", query: w, rg: [w] });
    } else if (r < 16) {
      const p = pick(pairs, "graph view");
      out.push({ kind: "phrase", query: `"${p}"`, rg: [p] });
    } else if (r < 18) {
      const w = pick(common, "note");
      out.push({ kind: "filtered", query: `type:knowledge status:active ${w}`, rg: [w] });
    } else {
      const a = pick(common, "note");
      const b = pick(common, "link");
      const c = pick(people, "Melanie").toLowerCase();
      out.push({ kind: "three words", query: `${a} ${b} ${c}`, rg: [a, b, c] });
    }
  }
  return out;
}
