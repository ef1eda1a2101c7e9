/**
 * Owners of action items (docs/decisions.md, "Owners only where the form assigns"): `@name` at the
 * start or end of the item, `Name:` at its start, `(for Name)` / `— for Name` / `For Name:`, or
 * `owner: Name` / `assignee: Name` / `负责人：Name` at its end put
 * the name in the item's `owner` (written as `[owner:: Name]`) and take it out of the text, so
 * someone else's action is not filed as the author's own task. `Me:` / `我：` name the author: the
 * prefix is dropped and no owner is set. A mention inside the sentence (`check with @ming whether
 * …`) is left as written: it names whom to ask, not who acts. Tests: test/core/extraction/offline-sections.test.ts.
 */
import { isSecretName } from "../redact";

/** Words that start a line with a colon but are labels, not people (`Note: …`, `Backend: …`, `前端：…`). */
const LABEL_WORDS = new Set(
  [
    "note",
    "notes",
    "nb",
    "ps",
    "update",
    "updates",
    "status",
    "blocked",
    "blocker",
    "blockers",
    "backend",
    "frontend",
    "design",
    "docs",
    "doc",
    "bug",
    "bugs",
    "fix",
    "idea",
    "ideas",
    "next",
    "done",
    "risk",
    "risks",
    "owner",
    "why",
    "what",
    "how",
    "when",
    "where",
    "who",
    "context",
    "reminder",
    "urgent",
    "important",
    "today",
    "tomorrow",
    "tonight",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "follow-up",
    "followup",
    "meeting",
    "call",
    "email",
    "api",
    "ui",
    "ux",
    "qa",
    "infra",
    "release",
    "deadline",
    "due",
    "priority",
    "agenda",
    "summary",
    "result",
    "results",
    "outcome",
    "background",
    "problem",
    "issue",
    "cause",
    "reason",
    "answer",
    "example",
    "eg",
    "target",
    "plan",
    "draft",
    "edit",
    "optional",
    "maybe",
    "later",
    "bonus",
    "stretch",
    "also",
    "then",
    "first",
    "前端",
    "后端",
    "设计",
    "测试",
    "产品",
    "运营",
    "备注",
    "注意",
    "原因",
    "背景",
    "结论",
    "说明",
    "补充",
    "重点",
    "风险",
    "现状",
    "今天",
    "明天",
    "后天",
    "下周",
    "本周",
    "上午",
    "下午",
    "晚上",
    "目标",
    "进展",
    "进度",
    "问题",
    "结果",
    "方案",
    "计划",
    "截止",
    "优先",
    "可选",
    "其次",
    "然后",
    "首先",
    "另外",
    "例如",
    "比如",
    "待办",
    "任务",
    "行动",
    "决定",
    "心得",
  ].map((w) => w.toLowerCase()),
);

const SELF = /^(?:me|myself|i|我|自己)\s*[:：]\s*/iu;
const AT_START = /^@([\p{L}\p{N}_.-]*[\p{L}\p{N}_])\s*[:：,，]?\s+/u;
const AT_END = /\s+@([\p{L}\p{N}_.-]*[\p{L}\p{N}_])\s*$/u;
const NAME_COLON = /^([A-Z][\p{L}'-]{1,24}|[\p{Script=Han}]{2,3})\s*[:：]\s*(?=\S)/u;
const FOR_NAME_BRACKETS = /\s*[(（]\s*for\s+([A-Z][\p{L}'-]{1,24})\s*[)）]/u;
const FOR_NAME_DASH = /\s+[-—–]+\s*for\s+([A-Z][\p{L}'-]{1,24})\s*$/u;
const FOR_NAME_START = /^for\s+([A-Z][\p{L}'-]{1,24})\s*[:：]\s*/iu;
/** `…, owner: ming` / `assignee: @Dana` / `负责人：小王` at the end of the item. */
const OWNER_FIELD_END =
  /[\s,，;；]*(?:\b(?:owner|assignee)|负责人)\s*[:：]\s*@?([\p{L}\p{N}_.-]*[\p{L}\p{N}_])\s*$/iu;

/** The text with its first letter in upper case (Latin scripts; CJK has no case). */
function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * True for a word before a colon that names no one: a label of {@link LABEL_WORDS}, or a secret's
 * name (`Password: …`, `口令：…`; `isSecretName`), whose value the redaction replaces.
 */
function isLabel(word: string): boolean {
  return LABEL_WORDS.has(word.toLowerCase()) || isSecretName(word);
}

/**
 * Reads the owner of an action item's text.
 * @param text the item's text (list marker and checkbox already removed).
 * @returns the text without the owner's name, and the owner when someone other than the author acts.
 */
export function ownerOf(text: string): { text: string; owner?: string } {
  const s = text.trim();
  const self = SELF.exec(s);
  if (self) return { text: capitalize(s.slice(self[0].length)) };
  const at = AT_START.exec(s);
  if (at?.[1]) return { text: capitalize(s.slice(at[0].length)), owner: at[1] };
  const field = OWNER_FIELD_END.exec(s);
  if (field?.[1] && field.index > 0)
    return { text: s.slice(0, field.index).trim(), owner: field[1] };
  const end = AT_END.exec(s);
  if (end?.[1]) return { text: s.slice(0, end.index).trim(), owner: end[1] };
  const forStart = FOR_NAME_START.exec(s);
  if (forStart?.[1] && !isLabel(forStart[1]))
    return { text: capitalize(s.slice(forStart[0].length)), owner: forStart[1] };
  const forAt = FOR_NAME_BRACKETS.exec(s) ?? FOR_NAME_DASH.exec(s);
  if (forAt?.[1] && !isLabel(forAt[1])) {
    return {
      text: `${s.slice(0, forAt.index)}${s.slice(forAt.index + forAt[0].length)}`
        .replace(/\s+/g, " ")
        .trim(),
      owner: forAt[1],
    };
  }
  const named = NAME_COLON.exec(s);
  if (named?.[1] && !isLabel(named[1]))
    return { text: capitalize(s.slice(named[0].length)), owner: named[1] };
  return { text: s };
}
