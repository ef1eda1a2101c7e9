/**
 * Phrasings the offline extractor reads in prose
 * (docs/decisions.md, "Offline extraction reads headings and phrasings, not meaning"), each a
 * narrow rule in English or Chinese so that it finds
 * an item only where the sentence plainly states one: "need to …", "remember to …", "I'll … by
 * Friday", 明天要, 记得, 得… → task; "we decided / we agreed", 决定, 定了： → decision; "I learned", "turns
 * out", 学到：, 原来 → knowledge; "should we …?", 是否…？, 要不要…？ → question. Every rule has a sentence it
 * must match and one it must not in test/core/extraction/offline-phrasings.test.ts. The item's text is the part of
 * the sentence after the phrase.
 */
import type { Category } from "./types";

/** One phrasing rule. */
export interface PhrasingRule {
  /** Short name, used in tests. */
  readonly name: string;
  readonly category: Category;
  /** Group 1 is the item's text (the whole match when the rule has no group). */
  readonly pattern: RegExp;
  /** The sentence before the match must not end with this (negation, condition, "what I learned"). */
  readonly notAfter?: RegExp;
  /** For a question: keep the clause the match sits in, from its start. */
  readonly wholeClause?: boolean;
}

const CLAUSE_START = String.raw`(?:^|[,;:，；：。]\s*)`;
const ZH_CLAUSE_START = String.raw`(?:^|[,;:，；：。！？]\s*)`;

/** The rules, tried in this order on each sentence; the first that matches gives the item. */
export const PHRASING_RULES: readonly PhrasingRule[] = [
  {
    name: "should we …?",
    category: "question",
    pattern: new RegExp(`${CLAUSE_START}((?:should|shall|do) we\\b[^?？]*[?？])`, "iu"),
  },
  {
    name: "是否…？",
    category: "question",
    pattern: /((?:是否|要不要)[^？?。]*[？?])/u,
    wholeClause: true,
  },
  {
    name: "we decided / we agreed",
    category: "decision",
    pattern:
      /\b(?:we|i|they|the team)\s+(?:have\s+|had\s+|just\s+|finally\s+)?(?:decided|agreed)(?:\s+(?:to|that|on))?\s+(.{4,})/iu,
    notAfter: /\b(?:if|whether|not)\s+$/iu,
  },
  {
    name: "决定",
    category: "decision",
    pattern: new RegExp(
      `${ZH_CLAUSE_START}(?:我们|我|大家|团队|最后|最终)?决定了?(?![权性因])[，,：:]?\\s*(.{4,})`,
      "u",
    ),
  },
  { name: "定了：", category: "decision", pattern: /定了[：:]\s*(.{4,})/u },
  {
    name: "I learned",
    category: "knowledge",
    pattern: /\b(?:i|we)\s+(?:just\s+|finally\s+)?(?:learned|learnt)(?:\s+that)?\s+(.{6,})/iu,
    notAfter: /\b(?:what|how|if|whether|never|not)\s+$/iu,
  },
  {
    name: "turns out",
    category: "knowledge",
    pattern: /\b(?:it\s+)?turn(?:s|ed)\s+out(?:\s+that)?,?\s+(?!to\b)(.{6,})/iu,
    notAfter: /\b(?:if|whether|not)\s+$/iu,
  },
  {
    name: "学到：",
    category: "knowledge",
    pattern: /(?:^|[^没不])学到(?:了)?(?:一个点|一点|一课|的是)?[：:，,]\s*(.{4,})/u,
  },
  {
    name: "原来",
    category: "knowledge",
    pattern: new RegExp(`${ZH_CLAUSE_START}原来(?![的这那]|以为|打算|计划|想|如此)(.{6,})`, "u"),
  },
  {
    name: "need to",
    category: "task",
    pattern: /(?:^|[,;:，；：]\s*|\b(?:i|we|also|still|and)\s+)(?:really\s+)?need\s+to\s+(.{4,})/iu,
  },
  {
    name: "remember to",
    category: "task",
    pattern: /\b(?:remember|don't forget|do not forget)\s+to\s+(.{4,})/iu,
  },
  {
    name: "I'll … by Friday",
    category: "task",
    pattern:
      /\bi(?:'ll|’ll| will)\s+(.+?\s(?:by|before)\s+(?:tomorrow|tonight|eod|end of (?:the\s+)?(?:day|week|month)|(?:this\s+|next\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)day|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}|\d{4}-\d{2}-\d{2}))\b/iu,
  },
  {
    name: "明天要",
    category: "task",
    pattern: new RegExp(
      `${ZH_CLAUSE_START}(?:我|我们)?明天(?:要|得|必须)(?!下雨|下雪|降温|放假|休息|出太阳)(.{2,})`,
      "u",
    ),
  },
  {
    name: "记得",
    category: "task",
    pattern: new RegExp(
      `${ZH_CLAUSE_START}(?:要|一定要)?(?:记得|别忘了|不要忘了)(?![住了])(.{2,})`,
      "u",
    ),
  },
  {
    name: "得…",
    category: "task",
    pattern: new RegExp(
      `${ZH_CLAUSE_START}(?:我|我们)?得(?=把|去|先|赶紧|尽快|抓紧|找|跟|和|给|再|重新|提前)(.{2,})`,
      "u",
    ),
  },
];

/** A sentence split: after `.`, `!`, `?` followed by a space, and after `。`, `！`, `？`. */
export function splitSentences(line: string): string[] {
  // No lookbehind (Obsidian runs on iOS before 16.4): mark the cuts, then split at the marks.
  return line
    .replace(/([.!?])\s+|([。！？])/gu, "$1$2\u0000")
    .split("\u0000")
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

/** What a phrasing rule found in a sentence. */
export interface PhrasingMatch {
  category: Category;
  /** The item's text: the sentence after the phrase, end punctuation removed (a question keeps its `?`). */
  text: string;
  rule: string;
  /** The sentence from the phrase on: where a due date named in words belongs to this item. */
  span: string;
}

function tidy(text: string, question: boolean): string {
  const t = text.trim().replace(question ? /[\s]+$/u : /[\s.。!！;；,，]+$/u, "");
  return t.charAt(0).toUpperCase() + t.slice(1);
}

/** The first phrasing rule that matches `sentence`, or `null`. */
export function matchPhrasing(sentence: string): PhrasingMatch | null {
  for (const rule of PHRASING_RULES) {
    const m = rule.pattern.exec(sentence);
    if (!m) continue;
    if (rule.notAfter?.test(sentence.slice(0, m.index + (m[0].length - m[0].trimStart().length))))
      continue;
    let text = m[1] ?? m[0];
    if (rule.wholeClause) {
      const before = sentence.slice(0, m.index);
      const cut = Math.max(...["：", ":", "；", ";", "。"].map((c) => before.lastIndexOf(c)));
      text = sentence.slice(cut + 1, m.index) + text;
    }
    const out = tidy(text, rule.category === "question");
    if (out)
      return { category: rule.category, text: out, rule: rule.name, span: sentence.slice(m.index) };
  }
  return null;
}
