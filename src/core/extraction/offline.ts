/**
 * The offline extractor (docs/architecture.md, "Extractors"): the embedded default when no LLM is
 * configured. Deterministic and precise; it reads, in English and Chinese:
 * - explicit conventions: `- [ ]` lines, `TODO:`, `Decision:`/`决定：`, `Goal:`/`目标：`,
 *   `Question:`/`问题：`, `Learned:`/`Insight:`/`心得：`, `Pattern:`/`模式：`, `Proposal:`/`建议：`, and
 *   callouts such as `> [!decision]`; a keyword's separator may be a dash (`Decision — …`,
 *   ` - `, `–`), and a marker may follow a bold label (`**Answer**: Decision: …`, an ingested
 *   turn's `**Answer:**`) or open a later sentence of the line (`Called with Ana. Decision: …`;
 *   docs/decisions.md, "A convention marker opens a line, a label or a sentence");
 * - sections (docs/decisions.md, "Offline extraction reads headings and phrasings, not meaning"):
 * list items and paragraphs under a heading that names a category
 *   (`## Action items`, `## 下周计划`, `## What went well`…; the `sectionHeadings` setting,
 *   section-headings.ts);
 * - phrasings (docs/decisions.md, "Offline extraction reads headings and phrasings, not meaning"):
 * "need to …", "we decided …", "turns out …", "should we …?", 明天要, 记得,
 *   定了：, 原来, 是否…？ (phrasings.ts).
 * Action items carry their owner (`@dana`, `Dana:`, `(for Dana)`; owners.ts), nested items their
 * parent's text (`App store listing: new screenshots`), tasks a due date named in words
 * (due-words.ts). Inline fields `[topic:: …]`, `[due:: …]`, `[goal:: g-006]`, `[to:: name]` and
 * `@agent` mentions refine an item. Each item's evidence is a line (or a sentence of one) as written.
 * When nothing is found the result's notes say why and what would help
 * (docs/decisions.md, "Offline extraction reads headings and phrasings, not meaning").
 */
import type { JournalBlock } from "../journal/blocks";
import { CHAR_STATUS, scanLineFields, withoutLineFields } from "../trackers/format";
import { indentWidth } from "../journal/split";
import type {
  Category,
  ExtractedItem,
  ExtractionInput,
  ExtractionResult,
  Extractor,
} from "./types";
import {
  DEFAULT_SECTION_HEADINGS,
  PROGRESS_HEADINGS,
  headingIndex,
  sectionHeadingKey,
  type SectionHeadings,
} from "./section-headings";
import { matchPhrasing, splitSentences } from "./phrasings";
import { ownerOf } from "./owners";
import { dueFromWords } from "./due-words";
import { dateTitle } from "../util/dates";
import { unwrapWikilink } from "../markdown/wikilinks";
import { codeSpans } from "../markdown/fences";
import { ITEM_ID_RE } from "../util/ids";
import { TURN_LABELS } from "../journal/turn-labels";
import { CancelledError } from "../errors";

/** Convention keywords per category; matched case-insensitively at the start of a line, before `:` or `：`. */
export const CONVENTION_KEYWORDS: Readonly<Record<Category, readonly string[]>> = {
  task: ["TODO", "To do", "Task", "Action", "待办", "任务", "行动"],
  goal: ["Goal", "Objective", "Progress", "目标", "进展", "进度"],
  pattern: ["Pattern", "Recurring", "模式", "规律"],
  improvement: ["Proposal", "Improvement", "Suggestion", "建议", "改进", "提议"],
  knowledge: [
    "Learned",
    "Lesson",
    "Insight",
    "TIL",
    "Note to self",
    "心得",
    "收获",
    "经验",
    "教训",
    "洞察",
  ],
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
    "notes",
    "note",
    "log",
    "today",
    "journal",
    "daily",
    "misc",
    "other",
    "tasks",
    "todo",
    "todos",
    "summary",
    "retro",
    "retrospective",
    "review",
    "weekly review",
    "next",
    "next steps",
    "open questions",
    "questions",
    "decisions",
    "learnings",
    "insights",
    "patterns",
    "proposals",
    "goals",
    "笔记",
    "日志",
    "今天",
    "今日",
    "杂项",
    "其他",
    "任务",
    "待办",
    "总结",
    "复盘",
    "回顾",
    "下一步",
    "问题",
    "决定",
    "决策",
    "心得",
    "收获",
    "模式",
    "建议",
    "目标",
  ].map((h) => h.toLowerCase()),
);

/** Headings that name a day rather than a subject: `9 Nov`, `Monday, 12 November`, `11月9日`, `周一`. */
const DATE_HEADING =
  /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b|\b\d{1,2}\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b|\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\d{1,2}\s*月\s*\d{1,2}\s*[日号]|星期[一二三四五六日天]|周[一二三四五六日天]/iu;

const OFFLINE_CONFIDENCE = 0.9;
const ISO_DATE = /\d{4}-\d{2}-\d{2}/;
/** A heading that is a time of day (`09:02`, an ingested turn's): like a date, it names no topic. */
const TIME_HEADING = /^\d{1,2}:\d{2}(?::\d{2})?$/;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The convention keywords as one alternation, the longest first. */
const KEYWORDS = Object.values(CONVENTION_KEYWORDS)
  .flat()
  .sort((a, b) => b.length - a.length)
  .map(escapeRegExp)
  .join("|");

/**
 * A bold label opening a line, `**Answer**:` or `**Answer:**` (an ingested turn's, {@link TURN_LABELS},
 * or a person's): a marker right after it starts there. What was done (`**Done:**`) is no label
 * of a marker: it reports the tools' work.
 */
const LEAD_LABEL = `(?!${escapeRegExp(TURN_LABELS.done)})(?:\\*\\*|__)[^*_\\n]{1,40}?(?:[:：](?:\\*\\*|__)|(?:\\*\\*|__)\\s*[:：])\\s*`;

/**
 * Where a convention marker may start: the line's start (after a {@link LEAD_LABEL}), or a
 * sentence's, after `.`, `!`, `?` and a space, or after `。`, `！`, `？` (`Called with Ana.
 * Decision: …`). Elsewhere a keyword is a word of the prose ("the decision was hard").
 */
const MARKER_START = `(?:(?<=^(?:${LEAD_LABEL})?)|(?<=[.!?](?:\\*\\*|__)?[ \\t]+)|(?<=[。！？][ \\t]*))`;

/**
 * A convention marker (the one rule for "a marker starts here"): a keyword, bold or not, an
 * optional `(topic)` qualifier, and its separator — a colon (`:`, `：`), an en or em dash (`–`,
 * `—`, `——`), or a hyphen between spaces (` - `). Groups: keyword, qualifier.
 */
const MARKER = new RegExp(
  `${MARKER_START}(?:\\*\\*|__)?(${KEYWORDS})(?:\\*\\*|__)?\\s*(?:[(（]([^)）]*)[)）])?\\s*(?:\\*\\*|__)?\\s*(?:[:：]|[—–]+|(?<=\\s)-(?=\\s))(?:\\*\\*|__)?\\s*`,
  "giu",
);

/** A convention marker found in a line by {@link markersOf}. */
interface Marker {
  keyword: string;
  qualifier?: string;
  /** The words after the marker, up to the next marker or the end of the line. */
  text: string;
  /** The marker and its words as written: a verbatim part of the line. */
  span: string;
  /** True when the marker opens the line (after a bold label, if any). */
  atStart: boolean;
}

/**
 * The convention markers of a line ({@link MARKER}), each with its words up to the next, and the
 * prose before the first (`""` when the line opens with one). `atStartOnly`: only a marker
 * opening the line counts (a checkbox line is a task whatever sentences it holds).
 */
function markersOf(content: string, atStartOnly = false): { before: string; markers: Marker[] } {
  // A marker inside a code span (`` `a. TODO: b` ``) is code, not a convention.
  const code = codeSpans(content);
  const found = [...content.matchAll(MARKER)].filter(
    (m) =>
      (!atStartOnly || isLineStart(content, m)) &&
      !code.some(([start, end]) => m.index >= start && m.index < end),
  );
  const first = found[0];
  if (!first) return { before: content, markers: [] };
  const markers = found.map((m, i) => {
    const end = found[i + 1]?.index ?? content.length;
    return {
      keyword: (m[1] ?? "").toLowerCase(),
      ...(m[2] ? { qualifier: m[2] } : {}),
      text: content.slice(m.index + m[0].length, end).trim(),
      span: content.slice(m.index, end).trim(),
      atStart: isLineStart(content, m),
    };
  });
  return {
    before: isLineStart(content, first) ? "" : content.slice(0, first.index).trim(),
    markers,
  };
}

const OPENING = new RegExp(`^(?:${LEAD_LABEL})?$`, "u");

/** Whether a marker match opens its line: nothing but a bold label before it. */
function isLineStart(content: string, m: RegExpExecArray | RegExpMatchArray): boolean {
  return OPENING.test(content.slice(0, m.index ?? 0));
}

/** The marker opening a line, or `null` ({@link markersOf}). */
function openingMarker(content: string): Marker | null {
  return markersOf(content, true).markers[0] ?? null;
}

const CATEGORY_OF_KEYWORD = new Map<string, Category>(
  (Object.entries(CONVENTION_KEYWORDS) as [Category, readonly string[]][]).flatMap(([cat, words]) =>
    words.map((w) => [w.toLowerCase(), cat] as [string, Category]),
  ),
);

/**
 * Inline fields of a line, e.g. `[due:: 2026-12-01]` → `{ due: "2026-12-01" }` (Dataview syntax),
 * and the Tasks plugin's emoji (`⏳ 2026-11-30` → `scheduled`); keys lower-cased, the first of a
 * key kept.
 */
export function inlineFields(line: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of scanLineFields(line)) {
    const key = f.key.toLowerCase();
    if (!(key in out)) out[key] = f.value;
  }
  return out;
}

/** Removes inline fields (bracketed and Tasks' emoji), a trailing block id and surplus spaces from a line's text. */
export function cleanItemText(text: string): string {
  return withoutLineFields(text)
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
const DUE_PHRASE =
  /[\s(（]*(?:\bdue(?:\s+by|\s+on)?|截止(?:日期)?|📅)\s*[:：]?\s*(\d{4}-\d{2}-\d{2})[)）]?/iu;

/**
 * The text without its due phrase, and without the separator it leaves doubled or trailing
 * (`renew the certificate, due 2026-12-10, owner: ming` → `renew the certificate, owner: ming`).
 */
function withoutDuePhrase(text: string): string {
  return text
    .replace(DUE_PHRASE, "")
    .replace(/\s*([,，;；])\s*[,，;；]/u, "$1")
    .replace(/[\s,，;；]+$/u, "");
}

function dueOf(content: string, fields: Record<string, string>): string | undefined {
  const field = fields.due ?? fields.deadline ?? fields["截止"] ?? fields.target;
  const fromField = field ? ISO_DATE.exec(field)?.[0] : undefined;
  if (fromField) return fromField;
  return DUE_PHRASE.exec(content)?.[1];
}

/**
 * Keys of a journal line's fields the offline extractor reads into the item itself (its due date,
 * addressee, owner, topic, the id it refers to); every other field is carried to the item as
 * written ({@link ExtractedItem.fields}).
 */
const READ_KEYS = new Set([
  "due",
  "deadline",
  "截止",
  "target",
  "to",
  "for",
  "owner",
  "topic",
  "goal",
  "ref",
  "question",
]);

/** The fields of a line the item carries as written: all but {@link READ_KEYS}, the first of each key. */
function carriedFields(rawText: string): [string, string][] {
  const out: [string, string][] = [];
  const seen = new Set<string>();
  for (const f of scanLineFields(rawText)) {
    const key = f.key.toLowerCase();
    if (READ_KEYS.has(key) || seen.has(key) || !f.value) continue;
    seen.add(key);
    out.push([key, f.value]);
  }
  return out;
}

/** A mention `@name` at the start or the end of a text (`@atlas should we …?`, `… @atlas`). */
const LEADING_MENTION = /^@([\p{L}\p{N}_-]+)[\s,，:：]+/u;
const TRAILING_MENTION = /[\s,，]+@([\p{L}\p{N}_-]+)([\s.。!！?？]*)$/u;

/**
 * The agent a text is addressed to by a leading or trailing `@agent` (one of `agents`), and the
 * text without that mention; the text unchanged and no name when there is none.
 */
export function addresseeOf(
  text: string,
  agents: readonly string[],
): { text: string; name?: string } {
  const t = text.trim();
  const lead = LEADING_MENTION.exec(t);
  if (lead?.[1] && agents.includes(lead[1]))
    return { text: t.slice(lead[0].length), name: lead[1] };
  const trail = TRAILING_MENTION.exec(t);
  if (trail?.[1] && agents.includes(trail[1]))
    return { text: t.slice(0, trail.index) + (trail[2] ?? "").trim(), name: trail[1] };
  return { text: t };
}

function targetOf(
  content: string,
  fields: Record<string, string>,
  agents: readonly string[],
): string | undefined {
  const to = fields.to ?? fields.for;
  if (to) return unwrapWikilink(to).trim() || undefined;
  for (const m of content.matchAll(/@([\p{L}\p{N}_-]+)/gu)) {
    const name = m[1];
    if (name && agents.includes(name)) return name;
  }
  return undefined;
}

/**
 * The topic an item belongs to: an explicit `[topic:: …]` field, a `Keyword (topic):` qualifier, or
 * the nearest meaningful heading above the block. Generic headings ("Notes", "今天"), dates, times
 * of day, session headings and headings that name a category (`sectionHeadings`: "What went well", "学到的") give none.
 */
export function topicOf(
  block: JournalBlock,
  fields: Record<string, string>,
  qualifier?: string,
  sections: ReadonlyMap<string, Category> = DEFAULT_INDEX,
): string | undefined {
  const explicit = fields.topic ?? qualifier;
  if (explicit?.trim()) return unwrapWikilink(explicit).trim();
  for (let i = block.headings.length - 1; i >= 0; i--) {
    const h = (block.headings[i] ?? "")
      .replace(/^\d+[.)]\s*/, "")
      .replace(/[#*_`]/g, "")
      .trim();
    if (
      !h ||
      GENERIC_HEADINGS.has(h.toLowerCase()) ||
      ISO_DATE.test(h) ||
      DATE_HEADING.test(h) ||
      TIME_HEADING.test(h)
    )
      continue;
    if (sections.has(sectionHeadingKey(h))) continue;
    if (i === 0 && block.headings.length > 1) continue; // the H1 is the journal's title
    // An ingested session's heading (`## Claude Code session 7f3a9c2e · …`) is not a topic either.
    if (/\b(retro|retrospective|weekly|journal|daily|session)\b|复盘|回顾|周报|日记/iu.test(h))
      continue;
    return h;
  }
  return undefined;
}

const DEFAULT_INDEX = headingIndex(DEFAULT_SECTION_HEADINGS);

/** What one extraction run reads with: other agents' names, the heading table, the journal's date. */
interface Run {
  agents: readonly string[];
  sections: ReadonlyMap<string, Category>;
  /** `YYYY-MM-DD`, for due dates named in words. */
  date?: string;
}

/** Extra fields for an item: its owner, a category forced by its section, progress. */
interface ItemExtras {
  owner?: string;
  qualifier?: string;
  progress?: boolean;
  /** Where to look for a due date named in words; default: the evidence line. */
  dueText?: string;
  /** The line's checkbox character, when it has one. */
  checkbox?: string | null;
  /** Fields of the whole line when `rawText` is a part of it (a sentence). */
  lineText?: string;
  /** An agent the line is addressed to by a leading or trailing mention ({@link addresseeOf}). */
  addressee?: string;
}

function makeItem(
  category: Category,
  rawText: string,
  evidence: string,
  block: JournalBlock,
  blockIndex: number,
  run: Run,
  extras: ItemExtras = {},
): ExtractedItem | null {
  const fieldText = extras.lineText ? `${rawText} ${extras.lineText}` : rawText;
  const fields = inlineFields(fieldText);
  let text = cleanItemText(withoutDuePhrase(rawText));
  let addressee = extras.addressee;
  // A question or proposal addressed by a leading or trailing `@agent` (`Question: @me do we …?`)
  // loses the mention from its text, as a task loses its `@owner` (ownerOf): it is the item's target.
  if (category === "question" || category === "improvement") {
    const addressed = addresseeOf(text, run.agents);
    text = addressed.text;
    addressee ??= addressed.name;
  }
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
    const topic = topicOf(block, fields, extras.qualifier, run.sections);
    if (topic) item.topic = topic;
  }
  const due =
    dueOf(rawText, fields) ??
    (category === "task" ? dueFromWords(extras.dueText ?? evidence, run.date) : undefined);
  if (due) item.due = due;
  // An addressee on any line (`[to:: [[atlas]]]`, a leading or trailing `@atlas`); a mention inside
  // the sentence addresses only a question or proposal.
  const target =
    category === "improvement" || category === "question"
      ? (addressee ?? targetOf(fieldText, fields, run.agents))
      : category === "task"
        ? targetOf("", fields, run.agents)
        : (extras.addressee ?? targetOf("", fields, run.agents));
  if (target) item.target = target;
  const owner = extras.owner ?? (fields.owner ? unwrapWikilink(fields.owner).trim() : undefined);
  if (category === "task" && owner) item.owner = owner;
  const status = extras.checkbox ? CHAR_STATUS[extras.checkbox] : undefined;
  if (status && status !== "open") item.status = status;
  const carried = carriedFields(fieldText);
  if (carried.length) item.fields = carried;
  const ref = fields.goal ?? fields.ref ?? fields.question;
  if (ref && ITEM_ID_RE.test(ref.trim()) && !/^am-/i.test(ref.trim()))
    item.ref = ref.trim().toLowerCase();
  if (extras.progress && category === "goal") item.progress = true;
  return item;
}

/** The category a block's section names (its nearest heading), and whether it is goal progress. */
interface Section {
  category: Category;
  progress: boolean;
  /** "问题" / "Open issues" also hold problems: an item there must read as a question. */
  askOnly: boolean;
}

const ASK_ONLY_HEADINGS = new Set(["问题", "open issues", "issues"]);
/** A text that reads as a question: a question mark, or a Chinese question word. */
const QUESTION_FORM = /[?？]|吗|是否|要不要|谁|什么|怎么|哪|多少|为什么|如何/u;

function sectionOf(block: JournalBlock, run: Run): Section | null {
  const h = block.headings.at(-1);
  if (!h) return null;
  const key = sectionHeadingKey(h);
  const category = run.sections.get(key);
  if (!category) return null;
  return {
    category,
    progress: category === "goal" && PROGRESS_HEADINGS.has(key),
    askOnly: category === "question" && ASK_ONLY_HEADINGS.has(key),
  };
}

/** One line of a list block: its list item, or a continuation line of the item before it. */
interface ListNode {
  indent: number;
  content: string;
  checkbox: string | null;
  /** The line as written (trimmed), for evidence. */
  line: string;
  parent: ListNode | null;
  hasChildren: boolean;
  /** A sentence of its own written on the line after a task line: prose, not the task's words. */
  remark?: boolean;
  /** A `Keyword: …` line without a list marker, a line of its own after the list item. */
  markerLine?: boolean;
}

/**
 * A line without a list marker right after a task line that is a sentence of its own (a capital
 * letter or a CJK character first, sentence punctuation last: "The staging DB is on port 5433."),
 * rather than the task's text wrapped onto the next line ("- [ ] email Dana about the" /
 * "launch plan").
 */
const OWN_SENTENCE = /^[\p{Lu}\p{Script=Han}].*[.!?。！？]$/u;

const LIST_MARKER = /^[ \t]*(?:[-*+]|\d{1,9}[.)])(?:[ \t]+|$)/;

/** The items of a list block as a tree (by indentation); lazy lines join the item before them. */
function listNodes(text: string): ListNode[] {
  const nodes: ListNode[] = [];
  const stack: ListNode[] = [];
  for (const raw of text.split("\n")) {
    if (!raw.trim()) continue;
    if (!LIST_MARKER.test(raw)) {
      // A `Keyword: …` line right after a list is a line of its own as written, not part of the item.
      const own = stripLine(raw);
      if (openingMarker(own.content)) {
        nodes.push({
          indent: indentWidth(raw),
          content: own.content,
          checkbox: own.checkbox,
          line: raw.trim(),
          parent: null,
          hasChildren: false,
          markerLine: true,
        });
        continue;
      }
      const last = nodes.at(-1);
      // A sentence of its own after a task line or a `Keyword: …` line is read on its own; a
      // fragment continues the line before it (its text wrapped).
      if (
        ((last?.checkbox != null && !last.remark) || last?.markerLine) &&
        OWN_SENTENCE.test(own.content)
      ) {
        nodes.push({
          indent: indentWidth(raw),
          content: own.content,
          checkbox: null,
          line: raw.trim(),
          parent: null,
          hasChildren: false,
          remark: true,
        });
        continue;
      }
      if (last) last.content = `${last.content} ${stripLine(raw).content}`.trim();
      continue;
    }
    const indent = indentWidth(raw);
    while (stack.length && (stack.at(-1)?.indent ?? 0) >= indent) stack.pop();
    const parent = stack.at(-1) ?? null;
    const { content, checkbox } = stripLine(raw);
    const node: ListNode = {
      indent,
      content,
      checkbox,
      line: raw.trim(),
      parent,
      hasChildren: false,
    };
    if (parent) parent.hasChildren = true;
    nodes.push(node);
    stack.push(node);
  }
  return nodes;
}

/** The text a nested item borrows from its parent: the parent's words without owner, fields or a closing colon. */
function contextOf(node: ListNode): string {
  const parent = node.parent;
  if (!parent) return "";
  const kw = openingMarker(parent.content);
  const words = ownerOf(cleanItemText(kw ? kw.text : parent.content)).text;
  return words.replace(/[\s:：]+$/u, "");
}

function withContext(node: ListNode, text: string): string {
  const context = contextOf(node);
  if (!context) return text;
  const cjk = /[\p{Script=Han}]$/u.test(context);
  return `${context}${cjk ? "：" : ": "}${text}`;
}

/**
 * The items of a line's convention markers ({@link markersOf}: `Keyword: …` at its start, after a
 * bold label, or opening a sentence), and the prose before the first marker (`""`: none). Evidence
 * is `evidence` for a marker opening the line, else the marker's own part of the line.
 */
function keywordItems(
  content: string,
  evidence: string,
  block: JournalBlock,
  index: number,
  run: Run,
  node?: ListNode,
): { items: ExtractedItem[]; before: string } {
  const { before, markers } = markersOf(content, node?.checkbox != null);
  const items: ExtractedItem[] = [];
  for (const m of markers) {
    const category = CATEGORY_OF_KEYWORD.get(m.keyword);
    if (!category) continue;
    let text = m.text;
    let owner: string | undefined;
    if (category === "task") ({ text, owner } = ownerOf(text));
    if (node) text = withContext(node, text);
    const item = makeItem(category, text, m.atStart ? evidence : m.span, block, index, run, {
      ...(owner ? { owner } : {}),
      ...(node?.checkbox ? { checkbox: node.checkbox } : {}),
      ...(m.qualifier ? { qualifier: m.qualifier } : {}),
      progress: PROGRESS_KEYWORDS.has(m.keyword),
    });
    if (item) items.push(item);
  }
  return { items, before: markers.length ? before : content };
}

/** Items a phrasing rule finds in a line of prose, one at most per sentence. */
function phrasingItems(
  line: string,
  block: JournalBlock,
  index: number,
  run: Run,
  node?: ListNode,
): ExtractedItem[] {
  const out: ExtractedItem[] = [];
  // The line's fields and a mention at its start or end belong to its items, not to one sentence.
  const fieldsOfLine = scanLineFields(line).length > 0 ? line : undefined;
  const addressed = addresseeOf(cleanItemText(line), run.agents);
  for (const sentence of splitSentences(addressed.text)) {
    const found = matchPhrasing(sentence);
    if (!found) continue;
    let text = found.text;
    let owner: string | undefined;
    if (found.category === "task") ({ text, owner } = ownerOf(text));
    if (found.category === "task" && !owner && addressed.name) owner = addressed.name;
    if (node) text = withContext(node, text);
    // Evidence is verbatim: the sentence as written, else (a mention or field cut from it) the line.
    const evidence = line.includes(sentence) ? sentence : line.trim();
    const item = makeItem(found.category, text, evidence, block, index, run, {
      ...(owner ? { owner } : {}),
      dueText: found.span,
      ...(fieldsOfLine ? { lineText: fieldsOfLine } : {}),
      ...(addressed.name && found.category !== "task" ? { addressee: addressed.name } : {}),
      ...(node?.checkbox ? { checkbox: node.checkbox } : {}),
    });
    if (item) out.push({ ...item, cue: "phrasing" });
  }
  return out;
}

/** The item of one list line: a convention, its section's category, or a phrasing. */
function listNodeItems(
  node: ListNode,
  block: JournalBlock,
  index: number,
  run: Run,
  section: Section | null,
): ExtractedItem[] {
  const { content, checkbox } = node;
  if (!content) return [];
  // A sentence written under a task line is read as a paragraph's prose is (paragraphItems).
  if (node.remark) return phrasingItems(content, block, index, run);
  if (checkbox !== null && checkbox !== " " && checkbox !== "/") return []; // done, abandoned, other states
  const keyword = keywordItems(content, node.line, block, index, run, node);
  if (keyword.items.length)
    return keyword.before
      ? [...phrasingItems(keyword.before, block, index, run, node), ...keyword.items]
      : keyword.items;
  if (checkbox !== null) {
    const category: Category =
      section && ["goal", "question", "improvement"].includes(section.category)
        ? section.category
        : "task";
    return oneItem(category, content, node, block, index, run, section);
  }
  if (section) {
    // A parent that only introduces its sub-items ("Launch checklist:") is no item itself.
    if (node.hasChildren && /[:：]\s*$/u.test(cleanItemText(content))) return [];
    if (section.askOnly && !QUESTION_FORM.test(content)) return [];
    return oneItem(section.category, content, node, block, index, run, section);
  }
  return phrasingItems(content, block, index, run, node);
}

function oneItem(
  category: Category,
  content: string,
  node: ListNode | null,
  block: JournalBlock,
  index: number,
  run: Run,
  section: Section | null,
  checkbox: string | null = node?.checkbox ?? null,
): ExtractedItem[] {
  let text = content;
  let owner: string | undefined;
  if (category === "task") ({ text, owner } = ownerOf(text));
  if (node) text = withContext(node, text);
  const item = makeItem(category, text, node?.line ?? content, block, index, run, {
    ...(owner ? { owner } : {}),
    ...(checkbox ? { checkbox } : {}),
    progress: section?.progress ?? false,
  });
  if (!item) return [];
  // A checkbox is a convention; an item that is one only because of its heading was inferred.
  return [section && node?.checkbox == null ? { ...item, cue: "section" } : item];
}

/** Categories whose section paragraphs are items (see {@link paragraphItems}). */
const PARAGRAPH_SECTIONS: ReadonlySet<Category> = new Set([
  "knowledge",
  "improvement",
  "pattern",
  "decision",
]);

/** Items of a paragraph (or plain quote): conventions line by line, then its section or phrasings. */
function paragraphItems(
  block: JournalBlock,
  index: number,
  run: Run,
  section: Section | null,
): ExtractedItem[] {
  const out: ExtractedItem[] = [];
  const prose: string[] = [];
  for (const { content, checkbox, evidence } of wrappedLines(block.text)) {
    if (checkbox !== null) {
      if (checkbox === " " || checkbox === "/")
        out.push(...oneItem("task", content, null, block, index, run, null, checkbox));
      continue;
    }
    const keyword = keywordItems(content, evidence, block, index, run);
    out.push(...keyword.items);
    // The sentences before a marker are read for phrasings only, never as the section's item.
    if (keyword.items.length) out.push(...phrasingItems(keyword.before, block, index, run));
    else prose.push(content);
  }
  if (prose.length === 0) return out;
  // Under a heading of tasks, goals or questions the items are its list; a paragraph there is a
  // remark about them ("Overall a good week…" under "Next week" in the sample vault). Under
  // lessons, reflections or decisions a paragraph is often the item itself.
  if (section && PARAGRAPH_SECTIONS.has(section.category)) {
    const text = prose.join(" ");
    if (!section.askOnly || QUESTION_FORM.test(text))
      out.push(
        ...oneItem(section.category, text, null, block, index, run, section).map((i) => ({
          ...i,
          evidence: prose[0] ?? i.evidence,
        })),
      );
    return out;
  }
  for (const line of prose) out.push(...phrasingItems(line, block, index, run));
  return out;
}

/**
 * The lines of a paragraph, each with its text and the verbatim line that is its evidence; a line
 * that opens with its one convention marker takes the fragments written under it (its text
 * wrapped: "Decision: we will use Postgres" / "for the job queue"), while a line with a marker or
 * a checkbox of its own, or a sentence of its own ({@link OWN_SENTENCE}), stays a line.
 */
function wrappedLines(
  text: string,
): { content: string; checkbox: string | null; evidence: string }[] {
  const out: { content: string; checkbox: string | null; evidence: string; wraps: boolean }[] = [];
  for (const line of text.split(/\r?\n/)) {
    const { content, checkbox } = stripLine(line);
    if (!content) continue;
    const { markers } = markersOf(content);
    const last = out.at(-1);
    if (last?.wraps && checkbox === null && markers.length === 0 && !OWN_SENTENCE.test(content)) {
      last.content = `${last.content} ${content}`;
      continue;
    }
    const wraps = checkbox === null && markers.length === 1 && markers[0]?.atStart === true;
    out.push({ content, checkbox, evidence: content, wraps });
  }
  return out;
}

/** Items from a callout block (`> [!decision] title` + content lines). */
function calloutItems(block: JournalBlock, index: number, run: Run): ExtractedItem[] {
  const lines = block.text.split(/\r?\n/);
  const head = /^>\s*\[!([A-Za-z-]+)\][+-]?\s*(.*)$/.exec(lines[0] ?? "");
  if (!head) return [];
  const category = CALLOUT_CATEGORIES[(head[1] ?? "").toLowerCase()];
  if (!category) return [];
  // Lines without `>` after it continue the callout in Markdown (lazy lines), but one that opens
  // with a convention marker is a line of its own as written: it and the lines after it are read
  // as a paragraph of their own ("> [!decision] …" then "Question: …").
  const lazy = lines.findIndex((l, i) => i > 0 && !/^\s*>/.test(l) && openingMarker(l.trim()));
  const quoted = lazy < 0 ? lines : lines.slice(0, lazy);
  const rest =
    lazy < 0
      ? []
      : paragraphItems(
          { ...block, kind: "paragraph", text: lines.slice(lazy).join("\n") },
          index,
          run,
          sectionOf(block, run),
        );
  const body = quoted
    .slice(1)
    .map((l) => l.replace(/^>\s?/, "").trim())
    .filter((l) => l !== "");
  const title = (head[2] ?? "").trim();
  // A title without closing punctuation reads as a label for the body: "Publishing: We publish…".
  const lead = title && body.length && !/[.:!?。：！？]$/u.test(title) ? `${title}:` : title;
  const parts = [lead, ...body].filter((p) => p !== "");
  const evidence = body[0] ?? title;
  if (!evidence) return rest;
  const item = makeItem(category, parts.join(" "), evidence, block, index, run);
  return item ? [item, ...rest] : rest;
}

/** Options of {@link extractConventions}. */
export interface ConventionOptions {
  /** The heading table (`sectionHeadings` setting); default {@link DEFAULT_SECTION_HEADINGS}. */
  sectionHeadings?: Readonly<SectionHeadings>;
  /** The journal's date (`YYYY-MM-DD`), for due dates named in words ("by Friday"). */
  date?: string;
}

/**
 * Reads the conventions, sections and phrasings of one journal. Pure and deterministic.
 * @returns items in document order; evidence is always a verbatim line (or sentence) of the journal.
 */
export function extractConventions(
  blocks: readonly JournalBlock[],
  agents: readonly string[] = [],
  options: ConventionOptions = {},
): ExtractedItem[] {
  const run = runOf(agents, options);
  const items: ExtractedItem[] = [];
  blocks.forEach((block, index) => items.push(...blockItems(block, index, run)));
  return items;
}

/** The run of {@link extractConventions} for these options. */
function runOf(agents: readonly string[], options: ConventionOptions): Run {
  return {
    agents,
    sections: options.sectionHeadings ? headingIndex(options.sectionHeadings) : DEFAULT_INDEX,
    ...(options.date ? { date: options.date } : {}),
  };
}

/** The items of one block (`index` in the journal's blocks), as {@link extractConventions} reads it. */
function blockItems(block: JournalBlock, index: number, run: Run): ExtractedItem[] {
  if (
    block.kind === "heading" ||
    block.kind === "code" ||
    block.kind === "table" ||
    block.kind === "other"
  )
    return [];
  if (block.kind === "callout" && /^>\s*\[!/.test(block.text)) {
    const found = calloutItems(block, index, run);
    if (found.length) return found;
  }
  const section = sectionOf(block, run);
  if (block.kind === "list-item") {
    const items: ExtractedItem[] = [];
    for (const node of listNodes(block.text))
      items.push(...listNodeItems(node, block, index, run, section));
    return items;
  }
  return paragraphItems(block, index, run, section);
}

/** Blocks the offline extractor reads between two checkpoints (about 0.1 s of a long journal). */
export const READ_SLICE_BLOCKS = 4000;

/**
 * What the offline extractor reads, for the note of a run that found nothing (docs/decisions.md,
 * "Offline extraction reads headings and phrasings, not meaning").
 */
export const WHAT_OFFLINE_READS =
  "The offline extractor reads `- [ ]` tasks; a keyword with a colon or a dash that starts a line or a sentence (TODO:, Goal:, Decision:, Decision —, Learned:, Pattern:, Proposal:, Question:, 待办：, 目标：, 决定：, 心得：, 模式：, 建议：, 问题：); callouts such as > [!decision]; " +
  "list items and paragraphs under a heading that names a category (Action items, Next steps, Plan for next week, Goals, Decisions, What went well, Lessons, What to improve, Open questions, 下一步, 下周计划, 目标进度, 决定, 学到的, 做得好, 待改进, 反思, 问题; the sectionHeadings setting lists them all); " +
  "and a few phrasings (need to, remember to, I'll … by Friday, we decided, we agreed, I learned, turns out, should we …?, 明天要, 记得, 得把, 定了：, 学到：, 原来, 是否…？).";

/** Why a journal gave no items, and what would help. */
export function nothingFoundNotes(blocks: readonly JournalBlock[]): string[] {
  const all = blocks
    .filter((b) => b.kind === "heading")
    .map((b) => b.text.replace(/^#+\s*/, "").trim());
  const below = blocks
    .filter((b) => b.kind === "heading" && b.headings.length > 0)
    .map((b) => b.text.replace(/^#+\s*/, "").trim());
  const named = [...new Set(below.length ? below : all)];
  const shown = named
    .slice(0, 4)
    .map((h) => `"${h}"`)
    .join(", ");
  const why =
    named.length === 0
      ? "nothing found: the journal has no headings, and no line uses a convention or one of the phrasings."
      : `nothing found: no line uses a convention or one of the phrasings, and none of its headings (${shown}${named.length > 4 ? ", …" : ""}) names a category.`;
  return [
    why,
    WHAT_OFFLINE_READS,
    'Prose without these needs a language model: set AGENT_MEMORY_LLM_BASE_URL and AGENT_MEMORY_LLM_MODEL (CLI) or the language model settings (plugin); or put items under a heading such as "Next steps" or "学到的".',
  ];
}

/**
 * The deterministic offline extractor (docs/architecture.md, "An extraction run"). One pass, no
 * model, no usage.
 */
export class OfflineExtractor implements Extractor {
  readonly name = "offline" as const;

  /**
   * Reads the blocks as {@link extractConventions} does, in slices of {@link READ_SLICE_BLOCKS}
   * with the input's checkpoint between them (phase `read`).
   * @throws CancelledError when the input's signal is aborted at a checkpoint
   */
  async extract(input: ExtractionInput): Promise<ExtractionResult> {
    const date = dateTitle(input.title);
    const run = runOf(input.context.agents, {
      ...(input.sectionHeadings ? { sectionHeadings: input.sectionHeadings } : {}),
      ...(date ? { date } : {}),
    });
    const { blocks } = input;
    const items: ExtractedItem[] = [];
    for (let i = 0; i < blocks.length; i++) {
      if (i > 0 && i % READ_SLICE_BLOCKS === 0) {
        await input.checkpoint?.({ phase: "read", done: i, total: blocks.length });
        if (input.signal?.aborted)
          throw new CancelledError(
            `extraction of ${input.path} cancelled while reading the journal; nothing was written`,
          );
      }
      items.push(...blockItems(blocks[i] as JournalBlock, i, run));
    }
    return {
      items,
      rejected: [],
      passes: 1,
      usage: { calls: 0, promptTokens: 0, completionTokens: 0, wallMs: 0 },
      notes: items.length === 0 ? nothingFoundNotes(input.blocks) : [],
    };
  }
}
