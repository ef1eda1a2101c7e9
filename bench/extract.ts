// Extraction benchmark: a REPLAY HARNESS, not a model evaluation.
// Every journal of the sample vault (examples/vault/Memory/Agents/*/Journal/*.md) goes through the
// real pipeline (planExtraction: context, blocks, LlmExtractor, block ids, routing; nothing is
// written) and the real `openai` SDK, against the local stub server of the tests with a fixed
// latency per call. The stub's replies are derived from the journal each request carries: it quotes
// the journal's own sentences as evidence and sorts them into categories by their wording, like a
// diligent but literal model. Its first pass is deliberately thin on a review or retrospective (tasks
// only), and on other journals it keeps to sentences with an explicit marker; a rescan returns what
// the first pass left out. So the figures show the mechanics — passes, calls, tokens, what the gate
// fired and what the rescan added, wall time — not the quality of any real model. Token counts are
// the stub's estimates (characters / 4) of the real prompts.
//
// Usage: npm run bench:extract [-- --latency 200] [--with-offline] [--json]
//   --latency MS      fixed latency of every chat completion (default 200)
//   --with-offline    merge the offline extractor's explicit conventions, as the CLI and plugin do
//                     (the gate then counts them too, so it fires less)
//   --json            print the per-journal figures as JSON
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { NodeVault } from "../src/node/node-vault";
import { MemoryLayout } from "../src/core/layout";
import { defaultSettings } from "../src/core/settings";
import { planExtraction } from "../src/core/extraction/pipeline";
import { LlmExtractor } from "../src/core/extraction/llm-extractor";
import { OfflineExtractor } from "../src/core/extraction/offline";
import {
  CATEGORIES,
  type Category,
  type ExtractionResult,
  type Extractor,
} from "../src/core/extraction/types";
import {
  startStubServer,
  type RecordedRequest,
  type StubReply,
} from "../test/helpers/llm-stub-server";

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  const v = i >= 0 ? Number(args[i + 1]) : NaN;
  return Number.isFinite(v) ? v : fallback;
};
const LATENCY_MS = option("--latency", 200);
const WITH_OFFLINE = flag("--with-offline");
const JSON_OUT = flag("--json");
const out = (line: string) => process.stdout.write(`${line}\n`);
const VAULT = fileURLToPath(new URL("../examples/vault", import.meta.url));

/** A sentence of the journal and the category the replay model gives it. */
interface Candidate {
  category: Category;
  evidence: string;
  text: string;
  /** Marked by the author (checkbox, `Decision:`, `> [!decision]` …): found on the first pass. */
  explicit: boolean;
}

const EXPLICIT: [RegExp, Category][] = [
  [/^(?:TODO|To do|待办|任务)\s*[:：]/i, "task"],
  [/^(?:Goal|Progress|目标|进展|进度)\s*[:：]/i, "goal"],
  [/^(?:Pattern|模式|规律)\s*[:：]/i, "pattern"],
  [/^(?:Proposal|Improvement|建议|改进)\s*[:：]/i, "improvement"],
  [/^(?:Learned|Insight|Lesson|心得|收获|经验)\s*[:：]/i, "knowledge"],
  [/^(?:Decision|Decided|决定|决策)\s*[:：]/i, "decision"],
  [/^(?:Question|问题|疑问)\s*[:：]/i, "question"],
];

/** Wording that suggests a category when the author marked nothing (checked in this order). */
const IMPLICIT: [RegExp, Category][] = [
  [/\b(?:agreed|decided|settles?|settled|from now on)\b|定了|决定/i, "decision"],
  [/[?？]|\bneed to ask\b|\bask \w+ whether\b|问一下/i, "question"],
  [
    /\b(?:I still owe|I need to|need to|must|before (?:Monday|Tuesday|Wednesday|Thursday|Friday))\b|要把|截止/i,
    "task",
  ],
  [/\b(?:should|would (?:also )?help|instead of)\b|建议|应该/i, "improvement"],
  [/\b(?:every time|how often|again|keeps?|always)\b|总是|又|每次/i, "pattern"],
  [/\d+\s?%|\bpercent\b|\bhalf the rate\b|\d+ of (?:the |those )?\d+|\d+\s*家|率/i, "knowledge"],
  [/\b(?:by the end of|this quarter|target)\b|目标/i, "goal"],
];

const REVIEW = /\b(?:retro|retrospective|review)\b|复盘|回顾/i;

/** Sentences of one line, without list, checkbox and quote markers (still verbatim in the journal). */
function sentences(line: string): string[] {
  const content = line
    .replace(/^(?:>\s*)+/, "")
    .replace(/^\[![a-z-]+\][+-]?\s*/i, "")
    .replace(/^(?:[-*+]|\d+[.)])\s+/, "")
    .replace(/^\[.\]\s+/, "")
    .replace(/\s*\^[A-Za-z0-9-]+\s*$/, "");
  return (content.match(/[^.!?。！？]+[.!?。！？]?/g) ?? [])
    .map((s) => s.trim())
    .filter((s) => s.length >= 12 || /[\u4e00-\u9fff]{6}/.test(s));
}

function clean(sentence: string): string {
  return sentence
    .replace(/\s*\[[\p{L}_-]+::[^\]]*\]/gu, "")
    .replace(/^[^:：]{1,14}[:：]\s*/u, "")
    .replace(/[.。]$/u, "")
    .trim()
    .slice(0, 140);
}

/** Every sentence of a window that the replay model would report, with its category. */
function candidates(window: string): Candidate[] {
  const out: Candidate[] = [];
  let calloutCategory: Category | null = null;
  for (const raw of window.split("\n")) {
    const line = raw.trim();
    if (!line || line.startsWith("#") || line.startsWith("|") || line.startsWith("```")) {
      calloutCategory = null;
      continue;
    }
    const callout = /^>\s*\[!(decision|insight|question|todo|pattern|proposal|goal)\]/i
      .exec(line)?.[1]
      ?.toLowerCase();
    if (callout) {
      const map: Record<string, Category> = {
        decision: "decision",
        insight: "knowledge",
        question: "question",
        todo: "task",
        pattern: "pattern",
        proposal: "improvement",
        goal: "goal",
      };
      calloutCategory = map[callout] ?? null;
      continue; // the callout's title line; its body lines below carry the quote
    }
    if (!line.startsWith(">")) calloutCategory = null;
    const checkbox = /^[-*+]\s+\[[ /]\]\s+/.test(line);
    for (const s of sentences(line)) {
      const explicit = EXPLICIT.find(([re]) => re.test(s))?.[1];
      const category =
        calloutCategory ??
        (checkbox ? "task" : explicit) ??
        IMPLICIT.find(([re]) => re.test(s))?.[1];
      if (!category) continue;
      out.push({
        category,
        evidence: s,
        text: clean(s),
        explicit: calloutCategory !== null || checkbox || explicit !== undefined,
      });
      if (calloutCategory) calloutCategory = null;
      if (checkbox) break;
    }
  }
  return out;
}

/** The replay "model": answers one chat completion from the journal window it was given. */
function replay(request: RecordedRequest): StubReply {
  const user = request.messages
    .filter((m) => m.role === "user")
    .map((m) => m.content)
    .join("\n");
  const window = /<journal>\n([\s\S]*?)\n<\/journal>/.exec(user)?.[1] ?? "";
  const title = /^Journal: (.*) \(/m.exec(user)?.[1] ?? "";
  const previous = request.messages.find((m) => m.role === "assistant")?.content;
  const all = candidates(window);
  const asItems = (list: Candidate[]) =>
    list.map((c) => ({
      category: c.category,
      text: c.text,
      evidence: c.evidence,
      confidence: c.explicit ? 0.9 : 0.7,
      topic: null,
      target: null,
      due: null,
      ref: null,
      progress: null,
    }));

  if (previous !== undefined) {
    const last = request.messages.at(-1)?.content ?? "";
    const found = (JSON.parse(previous) as { items: { evidence: string }[] }).items.map(
      (i) => i.evidence,
    );
    if (/too many items/.test(last)) return { items: asItems(all.filter((c) => c.explicit)) };
    return { items: asItems(all.filter((c) => !found.includes(c.evidence))) };
  }
  const headings = window.split("\n").filter((l) => l.startsWith("#"));
  const isReview = [title, ...headings].some((h) => REVIEW.test(h));
  const first = isReview ? all.filter((c) => c.category === "task") : all.filter((c) => c.explicit);
  return { items: asItems(first) };
}

function journals(): string[] {
  const agents = join(VAULT, "Memory", "Agents");
  const out: string[] = [];
  for (const agent of readdirSync(agents).sort()) {
    let files: string[] = [];
    try {
      files = readdirSync(join(agents, agent, "Journal"));
    } catch {
      continue;
    }
    for (const f of files.sort())
      if (f.endsWith(".md"))
        out.push(
          relative(VAULT, join(agents, agent, "Journal", f))
            .split("\\")
            .join("/"),
        );
  }
  return out;
}

interface Row {
  journal: string;
  passes: number;
  calls: number;
  promptTokens: number;
  completionTokens: number;
  costUsd: number | undefined;
  items: Partial<Record<Category, number>>;
  total: number;
  categories: number;
  fired: string[];
  before: number;
  after: number;
  rejected: number;
  wallMs: number;
}

async function main(): Promise<void> {
  const server = await startStubServer({ latencyMs: LATENCY_MS, fallback: replay });
  const settings = defaultSettings();
  // Illustrative prices (USD per million tokens, the order of a small hosted model) for the cost column.
  settings.llm = { ...settings.llm, pricePromptPerM: 0.15, priceCompletionPerM: 0.6 };
  const layout = new MemoryLayout(settings);
  const vault = new NodeVault(VAULT);
  const rows: Row[] = [];
  try {
    for (const journal of journals()) {
      const llm = new LlmExtractor({
        settings,
        apiKey: "bench-key",
        baseUrl: server.baseUrl,
        model: "replay",
        ...(WITH_OFFLINE ? { offline: new OfflineExtractor() } : {}),
      });
      let result: ExtractionResult | undefined;
      const capture: Extractor = {
        name: llm.name,
        extract: async (input) => (result = await llm.extract(input)),
      };
      const started = performance.now();
      await planExtraction({
        vault,
        settings,
        layout,
        journalPath: journal,
        extractor: capture,
        force: true,
      });
      const wallMs = performance.now() - started;
      if (!result) throw new Error(`no result for ${journal}`);
      const items: Partial<Record<Category, number>> = {};
      for (const item of result.items) items[item.category] = (items[item.category] ?? 0) + 1;
      rows.push({
        journal: journal.replace(/^Memory\/Agents\//, "").replace("/Journal/", "/"),
        passes: result.passes,
        calls: result.usage.calls,
        promptTokens: result.usage.promptTokens,
        completionTokens: result.usage.completionTokens,
        costUsd: result.usage.costUsd,
        items,
        total: result.items.length,
        categories: Object.keys(items).length,
        fired: result.gate?.fired ?? [],
        before: result.gate?.before ?? result.items.length,
        after: result.gate?.after ?? result.items.length,
        rejected: result.rejected.length,
        wallMs: Math.round(wallMs),
      });
    }
  } finally {
    await server.close();
  }

  if (JSON_OUT) {
    out(
      JSON.stringify({ latencyMs: LATENCY_MS, withOffline: WITH_OFFLINE, journals: rows }, null, 2),
    );
    return;
  }
  const short: Record<Category, string> = {
    task: "T",
    goal: "G",
    pattern: "P",
    improvement: "I",
    knowledge: "K",
    decision: "D",
    question: "Q",
  };
  out(
    `Extraction replay: ${rows.length} journals, stub latency ${LATENCY_MS} ms per call, ${WITH_OFFLINE ? "with" : "without"} the offline extractor`,
  );
  out("items: T task, G goal, P pattern, I improvement, K knowledge, D decision, Q question");
  out("");
  const header = [
    "journal",
    "passes",
    "calls",
    "prompt tok",
    "compl tok",
    "items (before→after)",
    "categories",
    "by category",
    "gate fired",
    "wall ms",
  ];
  const table = rows.map((r) => [
    r.journal,
    String(r.passes),
    String(r.calls),
    String(r.promptTokens),
    String(r.completionTokens),
    `${r.before}→${r.after}`,
    String(r.categories),
    CATEGORIES.filter((c) => r.items[c])
      .map((c) => `${short[c]}${r.items[c] ?? 0}`)
      .join(" "),
    r.fired.join(", ") || "-",
    String(r.wallMs),
  ]);
  const widths = header.map((h, i) =>
    Math.max(h.length, ...table.map((row) => (row[i] ?? "").length)),
  );
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join("  ");
  out(line(header));
  for (const row of table) out(line(row));
  const rescanned = rows.filter((r) => r.passes > 1).length;
  const sum = (f: (r: Row) => number) => rows.reduce((a, r) => a + f(r), 0);
  out("");
  out(
    `rescans: ${rescanned} of ${rows.length} journals (${Math.round((100 * rescanned) / Math.max(1, rows.length))}%); ` +
      `calls ${sum((r) => r.calls)}; tokens ${sum((r) => r.promptTokens)} prompt + ${sum((r) => r.completionTokens)} completion; ` +
      `cost at 0.15/0.60 USD per M: ${sum((r) => r.costUsd ?? 0).toFixed(4)} USD (${(sum((r) => r.costUsd ?? 0) / Math.max(1, rows.length)).toFixed(4)} per journal); ` +
      `rejected ${sum((r) => r.rejected)}; wall ${sum((r) => r.wallMs)} ms`,
  );
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exitCode = 1;
});
