/**
 * The offline extractor (DESIGN §3 "Extractors"): the embedded default when no LLM is configured.
 * Deterministic; it reads only the explicit conventions a person writes, in English and Chinese:
 * `- [ ]` lines, `TODO:`, `Decision:`/`决定：`, `Goal:`/`目标：`, `Question:`/`问题：`,
 * `Learned:`/`Insight:`/`心得：`, `Pattern:`/`模式：`, `Proposal:`/`建议：`, and callouts such as
 * `> [!decision]`. Inline fields `[topic:: …]`, `[due:: …]`, `[goal:: g-006]`, `[to:: name]` and
 * `@agent` mentions refine an item. Each item's evidence is the line as written (a verbatim quote).
 */
import type { JournalBlock } from "../journal/blocks";
import type { Category, ExtractedItem, ExtractionInput, ExtractionResult, Extractor } from "./types";

/** Convention keywords per category; matched case-insensitively at the start of a line, before `:` or `：`. */
export const CONVENTION_KEYWORDS: Readonly<Record<Category, readonly string[]>> = {
  task: ["TODO", "To do", "Task", "Action", "待办", "任务", "行动"],
  goal: ["Goal", "Objective", "Progress", "目标", "进展", "进度"],
  pattern: ["Pattern", "Recurring", "模式", "规律"],
  improvement: ["Proposal", "Improvement", "Suggestion", "建议", "改进", "提议"],
  knowledge: ["Learned", "Lesson", "Insight", "TIL", "Note to self", "心得", "收获", "经验", "教训", "洞察"],
  decision: ["Decision", "Decided", "决定", "决策"],
  question: ["Question", "Open question", "Ask", "问题", "疑问", "待确认"],
};

/** Callout types read as items (Obsidian callout syntax `> [!type]`). */
export const CALLOUT_CATEGORIES: Readonly<Record<string, Category>> = {
  todo: "task",
  task: "task",
  goal: "goal",
  pattern: "pattern",
  proposal: "improvement",
  improvement: "improvement",
  insight: "knowledge",
  knowledge: "knowledge",
  learning: "knowledge",
  decision: "decision",
  question: "question",
};

/** Keywords that mark progress on an existing goal rather than a new goal. */
const PROGRESS_KEYWORDS = new Set(["progress", "进展", "进度"]);

/** Headings too generic to name a topic; the pipeline's fallback topic is used instead. */
const GENERIC_HEADINGS = new Set(
  [
    "notes", "note", "log", "today", "journal", "daily", "misc", "other", "tasks", "todo", "todos",
    "summary", "retro", "retrospective", "review", "weekly review", "next", "next steps", "open questions",
    "questions", "decisions", "learnings", "insights", "patterns", "proposals", "goals",
    "笔记", "日志", "今天", "今日", "杂项", "其他", "任务", "待办", "总结", "复盘", "回顾", "下一步",
    "问题", "决定", "决策", "心得", "收获", "模式", "建议", "目标",
  ].map((h) => h.toLowerCase()),
);

/** Headings that name a day rather than a subject: `9 Nov`, `Monday, 12 November`, `11月9日`, `周一`. */
const DATE_HEADING =
  /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b|\b\d{1,2}\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b|\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\d{1,2}\s*月\s*\d{1,2}\s*[日号]|星期[一二三四五六日天]|周[一二三四五六日天]/iu;

const OFFLINE_CONFIDENCE = 0.9;
const ISO_DATE = /\d{4}-\d{2}-\d{2}/;
const INLINE_FIELD = /\s*\[([\p{L}\p{N}_-]+)::\s*([^\]]*(?:\[\[[^\]]*\]\][^\]]*)*)\]/gu;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** `Keyword:` / `**Keyword**：` / `Keyword (topic):` at the start of a line. */
const KEYWORD_LINE = new RegExp(
  `^(?:\\*\\*|__)?(${Object.values(CONVENTION_KEYWORDS)
    .flat()
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp)
    .join("|")})(?:\\*\\*|__)?\\s*(?:[(（]([^)）]*)[)）])?\\s*(?:\\*\\*|__)?\\s*[:：](?:\\*\\*|__)?\\s*(.+)$`,
  "iu",
);

const CATEGORY_OF_KEYWORD = new Map<string, Category>(
  (Object.entries(CONVENTION_KEYWORDS) as [Category, readonly string[]][]).flatMap(([cat, words]) =>
    words.map((w) => [w.toLowerCase(), cat] as [string, Category]),
  ),
);

/** Inline fields of a line, e.g. `[due:: 2026-12-01]` → `{ due: "2026-12-01" }` (Dataview syntax). */
export function inlineFields(line: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of line.matchAll(INLINE_FIELD)) {
    const key = m[1]?.toLowerCase();
    if (key && !(key in out)) out[key] = (m[2] ?? "").trim();
  }
  return out;
}

/** Removes inline fields, a trailing block id and surplus spaces from a line's text. */
export function cleanItemText(text: string): string {
  return text
    .replace(INLINE_FIELD, "")
    .replace(/\s+\^[A-Za-z0-9-]+\s*$/, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** The line without list marker, checkbox, quote marker and trailing block id. */
function stripLine(line: string): { content: string; checkbox: string | null } {
  let s = line.replace(/\s+\^[A-Za-z0-9-]+\s*$/, "").trim();
  s = s.replace(/^(?:>\s*)+/, "");
  s = s.replace(/^(?:[-*+]|\d+[.)])\s+/, "");
  const box = /^\[(.)\]\s+/.exec(s);
  if (box) return { content: s.slice(box[0].length).trim(), checkbox: box[1] ?? " " };
  return { content: s.trim(), checkbox: null };
}

/** `due 2026-12-01`, `截止 2026-12-05`, `📅 2026-12-01` written in the text (the Tasks plugin's emoji too). */
const DUE_PHRASE = /[\s(（]*(?:\bdue(?:\s+by|\s+on)?|截止(?:日期)?|📅)\s*[:：]?\s*(\d{4}-\d{2}-\d{2})[)）]?/iu;

function dueOf(content: string, fields: Record<string, string>): string | undefined {
  const field = fields.due ?? fields.deadline ?? fields["截止"];
  const fromField = field ? ISO_DATE.exec(field)?.[0] : undefined;
  if (fromField) return fromField;
  return DUE_PHRASE.exec(content)?.[1];
}

function targetOf(content: string, fields: Record<string, string>, agents: readonly string[]): string | undefined {
  const to = fields.to ?? fields.for;
  if (to) return to.replace(/^\[\[|\]\]$/g, "").trim() || undefined;
  for (const m of content.matchAll(/@([\p{L}\p{N}_-]+)/gu)) {
    const name = m[1];
    if (name && agents.includes(name)) return name;
  }
  return undefined;
}

/**
 * The topic an item belongs to: an explicit `[topic:: …]` field, a `Keyword (topic):` qualifier, or
 * the nearest meaningful heading above the block. Generic headings ("Notes", "今天") and dates give none.
 */
export function topicOf(block: JournalBlock, fields: Record<string, string>, qualifier?: string): string | undefined {
  const explicit = fields.topic ?? qualifier;
  if (explicit?.trim()) return explicit.replace(/^\[\[|\]\]$/g, "").trim();
  for (let i = block.headings.length - 1; i >= 0; i--) {
    const h = (block.headings[i] ?? "").replace(/^\d+[.)]\s*/, "").replace(/[#*_`]/g, "").trim();
    if (!h || GENERIC_HEADINGS.has(h.toLowerCase()) || ISO_DATE.test(h) || DATE_HEADING.test(h)) continue;
    if (i === 0 && block.headings.length > 1) continue; // the H1 is the journal's title
    if (/\b(retro|retrospective|weekly|journal|daily)\b|复盘|回顾|周报|日记/iu.test(h)) continue;
    return h;
  }
  return undefined;
}

function makeItem(
  category: Category,
  rawText: string,
  evidence: string,
  block: JournalBlock,
  blockIndex: number,
  agents: readonly string[],
  qualifier?: string,
): ExtractedItem | null {
  const fields = inlineFields(rawText);
  const text = cleanItemText(rawText.replace(DUE_PHRASE, ""));
  if (!text) return null;
  const item: ExtractedItem = {
    category,
    text,
    evidence,
    blockId: block.blockId,
    blockIndex,
    confidence: OFFLINE_CONFIDENCE,
    origin: "offline",
  };
  if (category === "pattern" || category === "knowledge" || category === "decision") {
    const topic = topicOf(block, fields, qualifier);
    if (topic) item.topic = topic;
  }
  const due = dueOf(rawText, fields);
  if (due) item.due = due;
  if (category === "improvement" || category === "question") {
    const target = targetOf(rawText, fields, agents);
    if (target) item.target = target;
  }
  const ref = fields.goal ?? fields.ref ?? fields.question;
  if (ref && /^[a-z]-\d+$/i.test(ref.trim())) item.ref = ref.trim().toLowerCase();
  return item;
}

/** Items from a callout block (`> [!decision] title` + content lines). */
function calloutItems(block: JournalBlock, index: number, agents: readonly string[]): ExtractedItem[] {
  const lines = block.text.split(/\r?\n/);
  const head = /^>\s*\[!([A-Za-z-]+)\][+-]?\s*(.*)$/.exec(lines[0] ?? "");
  if (!head) return [];
  const category = CALLOUT_CATEGORIES[(head[1] ?? "").toLowerCase()];
  if (!category) return [];
  const body = lines
    .slice(1)
    .map((l) => l.replace(/^>\s?/, "").trim())
    .filter((l) => l !== "");
  const title = (head[2] ?? "").trim();
  // A title without closing punctuation reads as a label for the body: "Publishing: We publish…".
  const lead = title && body.length && !/[.:!?。：！？]$/u.test(title) ? `${title}:` : title;
  const parts = [lead, ...body].filter((p) => p !== "");
  const evidence = body[0] ?? title;
  if (!evidence) return [];
  const item = makeItem(category, parts.join(" "), evidence, block, index, agents);
  return item ? [item] : [];
}

/**
 * Reads the explicit conventions of one journal. Pure and deterministic.
 * @returns items in document order; evidence is always a verbatim line of the journal.
 */
export function extractConventions(blocks: readonly JournalBlock[], agents: readonly string[] = []): ExtractedItem[] {
  const items: ExtractedItem[] = [];
  blocks.forEach((block, index) => {
    if (block.kind === "heading" || block.kind === "code" || block.kind === "table") return;
    if (block.kind === "callout" && /^>\s*\[!/.test(block.text)) {
      const found = calloutItems(block, index, agents);
      if (found.length) {
        items.push(...found);
        return;
      }
    }
    for (const line of block.text.split(/\r?\n/)) {
      const { content, checkbox } = stripLine(line);
      if (!content) continue;
      if (checkbox !== null) {
        if (checkbox === " " || checkbox === "/") {
          const inner = KEYWORD_LINE.exec(content);
          const category = inner ? CATEGORY_OF_KEYWORD.get((inner[1] ?? "").toLowerCase()) : undefined;
          const item =
            inner && category && category !== "task"
              ? makeItem(category, inner[3] ?? "", content, block, index, agents, inner[2])
              : makeItem("task", content, content, block, index, agents);
          if (item) items.push(item);
        }
        continue;
      }
      const m = KEYWORD_LINE.exec(content);
      if (!m) continue;
      const keyword = (m[1] ?? "").toLowerCase();
      const category = CATEGORY_OF_KEYWORD.get(keyword);
      if (!category) continue;
      const item = makeItem(category, m[3] ?? "", content, block, index, agents, m[2]);
      if (!item) continue;
      if (PROGRESS_KEYWORDS.has(keyword)) item.progress = true;
      items.push(item);
    }
  });
  return items;
}

/** The deterministic offline extractor (DESIGN §3). One pass, no model, no usage. */
export class OfflineExtractor implements Extractor {
  readonly name = "offline" as const;

  extract(input: ExtractionInput): Promise<ExtractionResult> {
    const items = extractConventions(input.blocks, input.context.agents);
    return Promise.resolve({
      items,
      rejected: [],
      passes: 1,
      usage: { calls: 0, promptTokens: 0, completionTokens: 0, wallMs: 0 },
      notes: [],
    });
  }
}
