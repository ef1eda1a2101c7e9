/**
 * The extraction prompt (docs/architecture.md, "The checklist"): the seven categories with a
 * definition and an English and a Chinese example each; evidence must be a verbatim quote; items
 * keep the journal's language; existing topic names and open items are given within a token budget.
 * Also the rescan prompt (reasons + items already found) and the merge prompt of the self-check
 * gate. The examples are exported so that an item echoing them can be filtered out
 * (docs/architecture.md, "The checklist").
 */
import type { ChatMessage } from "../llm/client";
import { countCjk, estimateTokens } from "../llm/tokens";
import type { Category, ExtractedItem, ExtractionContext } from "./types";
import type { JournalWindow } from "./windows";

/** One example item of the prompt. Names are placeholders so they cannot be mistaken for real ones. */
export interface PromptExample {
  category: Category;
  evidence: string;
  text: string;
  topic?: string;
  target?: string;
  due?: string;
}

/** Definition of each category, as in docs/architecture.md, "The checklist". */
export const CATEGORY_DEFINITIONS: Readonly<Record<Category, string>> = {
  task: "something to be done soon",
  goal: "an aim that runs for weeks, or progress on an existing goal",
  pattern: "a recurring need or situation",
  improvement: "a proposed change of process, for oneself or another agent",
  knowledge: "a fact, metric or principle worth keeping",
  decision: "a direction that has been settled",
  question: "something that needs another agent's or a person's input",
};

/** An English and a Chinese example per category (docs/architecture.md, "The checklist"). */
export const PROMPT_EXAMPLES: readonly PromptExample[] = [
  {
    category: "task",
    evidence: "Need to send the revised budget to Person A before Friday.",
    text: "Send the revised budget to Person A before Friday",
  },
  {
    category: "task",
    evidence: "明天上午要把合同初稿发给乙方确认。",
    text: "把合同初稿发给乙方确认",
  },
  {
    category: "goal",
    evidence: "By the end of the quarter the onboarding guide should cover every product.",
    text: "Onboarding guide covers every product by the end of the quarter",
  },
  {
    category: "goal",
    evidence: "这个季度的目标是把客户流失率降到百分之五以下。",
    text: "本季度把客户流失率降到百分之五以下",
  },
  {
    category: "pattern",
    evidence: "Again the deploy broke because the staging config had drifted from production.",
    text: "Deploys break when the staging config drifts from production",
    topic: "Deployments",
  },
  {
    category: "pattern",
    evidence: "又是周五下午临时加需求，结果周末全员加班。",
    text: "周五下午临时加需求总会导致周末加班",
    topic: "需求管理",
  },
  {
    category: "improvement",
    evidence:
      "The editor should run a checklist before publishing; nothing checks the metrics today.",
    text: "Add a pre-publishing checklist to the editor's review",
    target: "editor",
  },
  {
    category: "improvement",
    evidence: "建议客服转交工单前先附上复现步骤。",
    text: "客服转交工单前附上复现步骤",
    target: "客服",
  },
  {
    category: "knowledge",
    evidence: "Pages with a bounce rate above 70% almost never convert, whatever their traffic.",
    text: "Pages with a bounce rate above 70% rarely convert",
    topic: "Conversion",
  },
  {
    category: "knowledge",
    evidence: "实测发现缓存命中率低于六成时，接口延迟会翻倍。",
    text: "缓存命中率低于六成时接口延迟翻倍",
    topic: "接口性能",
  },
  {
    category: "decision",
    evidence: "We settled on weekly releases instead of daily ones.",
    text: "Release weekly instead of daily",
    topic: "Releases",
  },
  {
    category: "decision",
    evidence: "最终决定先做移动端，网页版推迟到下个月。",
    text: "先做移动端，网页版推迟到下个月",
    topic: "产品路线",
  },
  {
    category: "question",
    evidence: "Not sure whether Person B can approve the budget alone; need to ask.",
    text: "Can Person B approve the budget alone?",
    target: "Person B",
  },
  {
    category: "question",
    evidence: "需要问一下法务：用户数据能不能存放在海外服务器？",
    text: "用户数据能否存放在海外服务器？",
    target: "法务",
  },
];

/** JSON schema of the reply, for structured outputs (strict mode: every key required, nullable). */
export const REPLY_JSON_SCHEMA: { name: string; schema: Record<string, unknown> } = {
  name: "memory_items",
  schema: {
    type: "object",
    additionalProperties: false,
    required: ["items"],
    properties: {
      items: {
        type: "array",
        items: {
          type: "object",
          additionalProperties: false,
          required: [
            "category",
            "text",
            "evidence",
            "confidence",
            "topic",
            "target",
            "due",
            "ref",
            "progress",
          ],
          properties: {
            category: { type: "string", enum: Object.keys(CATEGORY_DEFINITIONS) },
            text: { type: "string" },
            evidence: { type: "string" },
            confidence: { type: ["number", "null"] },
            topic: { type: ["string", "null"] },
            target: { type: ["string", "null"] },
            due: { type: ["string", "null"] },
            ref: { type: ["string", "null"] },
            progress: { type: ["boolean", "null"] },
          },
        },
      },
    },
  },
};

/**
 * The CJK language a text is written in, when the prompt should name it: `mixed` when CJK
 * characters are between 10% and 70% of the letters (a journal switching between Chinese and
 * English), `null` when there are fewer (an English journal quoting a Chinese name).
 */
export function journalLanguage(
  text: string,
): { name: "Chinese" | "Japanese" | "Korean"; mixed: boolean } | null {
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  const share = letters === 0 ? 0 : countCjk(text) / letters;
  if (share < 0.1) return null;
  const mixed = share < 0.7;
  if (/[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(text)) return { name: "Japanese", mixed };
  if (/\p{Script=Hangul}/u.test(text)) return { name: "Korean", mixed };
  return { name: "Chinese", mixed };
}

function languageRule(text: string): string {
  const language = journalLanguage(text);
  if (!language)
    return 'Write every "text" in the journal\'s language, and copy "evidence" exactly as written.';
  if (language.mixed) {
    return `The journal mixes ${language.name} and other languages: write each "text" in the language of the passage it comes from, and copy "evidence" exactly as written.`;
  }
  return `The journal is written in ${language.name}: write every "text" in ${language.name}, and copy "evidence" exactly as written.`;
}

function exampleLine(e: PromptExample): string {
  const extra = [
    e.topic ? `"topic": "${e.topic}"` : "",
    e.target ? `"target": "${e.target}"` : "",
  ].filter(Boolean);
  return `    evidence "${e.evidence}" → {"category": "${e.category}", "text": "${e.text}"${extra.length ? `, ${extra.join(", ")}` : ""}}`;
}

/** The system prompt: the checklist, the rules and the reply format. Same for every window. */
export function buildSystemPrompt(): string {
  const checklist = (Object.keys(CATEGORY_DEFINITIONS) as Category[])
    .map((c) => {
      const examples = PROMPT_EXAMPLES.filter((e) => e.category === c).map(exampleLine);
      return [
        `- ${c}: ${CATEGORY_DEFINITIONS[c]}.`,
        "  Examples (from other journals, for illustration only):",
        ...examples,
      ].join("\n");
    })
    .join("\n");
  return [
    "You extract memory items from an agent's journal. Go through the checklist below category by category and list every item the journal supports.",
    "",
    "Checklist:",
    checklist,
    "",
    "Rules:",
    '- "evidence" is a verbatim quote from the journal: copy one sentence or line character for character, without changing words or punctuation. Never invent or paraphrase evidence.',
    '- "text" states the item in one short sentence, in the same language as the journal (a Chinese journal gives Chinese items).',
    "- The examples above are not in the journal. Never return them, and never return these instructions as items.",
    '- Prefer the existing topic names listed with the journal for "topic"; name a new topic only when none fits.',
    '- Progress on an open goal: category "goal", "ref" set to the goal\'s id, "progress": true. An answer to an open question: the item that answers it, with "ref" set to the question\'s id.',
    '- "target" names the agent or person an improvement or question is addressed to. "due" is a date YYYY-MM-DD when the journal gives one.',
    '- "confidence" is 0–1: how clearly the journal supports the item.',
    "- Do not repeat an item; one item per distinct fact, task or decision.",
    "",
    "Reply with JSON only, in this shape:",
    '{"items": [{"category": "task", "text": "…", "evidence": "…", "confidence": 0.8, "topic": null, "target": null, "due": null, "ref": null, "progress": null}]}',
    'Use {"items": []} when the journal holds nothing to keep.',
  ].join("\n");
}

/** Lines fitting in `budget` estimated tokens, with a count of the rest. */
function withinBudget(lines: readonly string[], budget: number): string[] {
  const out: string[] = [];
  let used = 0;
  for (const line of lines) {
    const cost = estimateTokens(line) + 1;
    if (used + cost > budget) {
      out.push(`… and ${lines.length - out.length} more not shown`);
      break;
    }
    out.push(line);
    used += cost;
  }
  return out;
}

/**
 * The context block: agent, other agents, existing topics, open items (goals and questions first).
 * @param contextTokens budget for topics and open items together (settings `llm.contextTokens`).
 */
export function buildContext(context: ExtractionContext, contextTokens: number): string {
  const parts = [`Agent: ${context.agent}`];
  if (context.agents.length)
    parts.push(
      `Other agents (for "target"): ${context.agents.filter((a) => a !== context.agent).join(", ")}`,
    );
  const rank = (kind: string) => (/goal/i.test(kind) ? 0 : /question/i.test(kind) ? 1 : 2);
  const open = [...context.openItems]
    .sort((a, b) => rank(a.kind) - rank(b.kind))
    .map((o) => `- ${o.id} (${o.kind}): ${o.text}`);
  const topics = context.topics.map((t) => `- ${t}`);
  const half = Math.floor(contextTokens / 2);
  if (open.length) {
    parts.push(
      'Open items (for progress on a goal or an answer to a question, set "ref" to the id):',
      ...withinBudget(open, half),
    );
  }
  if (topics.length) {
    parts.push(
      "Existing topic names (reuse one when it fits):",
      ...withinBudget(topics, contextTokens - half),
    );
  }
  return parts.join("\n");
}

/** The user message holding the journal window. */
export function buildJournalMessage(
  window: JournalWindow,
  meta: {
    title: string;
    path: string;
    context: ExtractionContext;
    contextTokens: number;
    part?: { index: number; count: number };
  },
): string {
  const lines = [
    buildContext(meta.context, meta.contextTokens),
    "",
    `Journal: ${meta.title} (${meta.path})${meta.part && meta.part.count > 1 ? `, part ${meta.part.index + 1} of ${meta.part.count}` : ""}`,
  ];
  if (window.headings.length)
    lines.push(`This part starts under the heading: ${window.headings.join(" > ")}`);
  lines.push(languageRule(window.text));
  lines.push("", "<journal>", window.text, "</journal>");
  return lines.join("\n");
}

/** Items as the model would write them, for the assistant turn of a rescan and the merge prompt. */
export function itemsAsReply(items: readonly ExtractedItem[]): string {
  const list = items.map((i) => ({
    category: i.category,
    text: i.text,
    evidence: i.evidence,
    confidence: i.confidence,
    topic: i.topic ?? null,
    target: i.target ?? null,
    due: i.due ?? null,
    ref: i.ref ?? null,
    progress: i.progress ?? null,
  }));
  return JSON.stringify({ items: list });
}

/** Messages for a first pass over one window. */
export function buildExtractionMessages(journalMessage: string): ChatMessage[] {
  return [
    { role: "system", content: buildSystemPrompt() },
    { role: "user", content: journalMessage },
  ];
}

/**
 * Messages for a rescan (docs/architecture.md, "The self-check gate"): the journal, the items
 * already found as the previous answer, then the reasons the self-check gave and a request for what
 * is missing only.
 */
export function buildRescanMessages(
  journalMessage: string,
  found: readonly ExtractedItem[],
  reasons: readonly string[],
): ChatMessage[] {
  return [
    ...buildExtractionMessages(journalMessage),
    { role: "assistant", content: itemsAsReply(found) },
    {
      role: "user",
      content: [
        "A self-check found this extraction incomplete:",
        ...reasons.map((r) => `- ${r}`),
        "",
        `The ${found.length} item${found.length === 1 ? "" : "s"} above ${found.length === 1 ? "is" : "are"} already found. Read the journal again, category by category, and return ONLY the items that are missing, with verbatim evidence. Do not repeat any item above. Reply with JSON only, in the same shape; {"items": []} if nothing is missing.`,
      ].join("\n"),
    },
  ];
}

/** Messages asking the model to merge a list that is far longer than the journal warrants. */
export function buildMergeMessages(
  journalMessage: string,
  items: readonly ExtractedItem[],
  reason: string,
): ChatMessage[] {
  return [
    ...buildExtractionMessages(journalMessage),
    { role: "assistant", content: itemsAsReply(items) },
    {
      role: "user",
      content: [
        `A self-check found too many items: ${reason}.`,
        "Merge duplicates and fragments of the same fact, task or decision into one item each, and drop trivia. Keep each kept item's evidence exactly as it is (a verbatim quote from the journal). Return the complete merged list as JSON only, in the same shape.",
      ].join("\n"),
    },
  ];
}
