/**
 * Headings that name a category
 * (docs/decisions.md, "Offline extraction reads headings and phrasings, not meaning"): list items
 * and paragraphs under `## Action items`,
 * `## 下周计划`, `## What went well`… are items of that category for the offline extractor. The table
 * is a setting (`sectionHeadings`, one list of headings per category) shared by the plugin and the
 * CLI; this module holds its default, its schema and how a written heading is compared with it.
 * Tests: test/core/extraction/offline-sections.test.ts; test/core/settings.test.ts.
 */
import { z } from "zod";

/**
 * Category keys of the heading table, in checklist order
 * (docs/architecture.md, "An extraction run").
 */
const KEYS = [
  "task",
  "goal",
  "pattern",
  "improvement",
  "knowledge",
  "decision",
  "question",
] as const;

/** The heading table: for each category, the headings that name it. */
export type SectionHeadings = Record<(typeof KEYS)[number], string[]>;

/**
 * The default table, English and Chinese, with a retrospective's usual layouts (went well / to
 * improve / action items; 做得好 / 待改进 / 下一步) and a weekly 复盘's (下周计划, 学到的, 目标进度, 反思).
 * "Goal progress" headings make progress notes on an open goal when one matches (see
 * {@link PROGRESS_HEADINGS}).
 */
export const DEFAULT_SECTION_HEADINGS: Readonly<SectionHeadings> = {
  task: [
    "Next steps",
    "Next actions",
    "Action items",
    "Actions",
    "Action points",
    "TODO",
    "To do",
    "Todos",
    "Tasks",
    "Plan for next week",
    "Next week",
    "Plan for tomorrow",
    "Tomorrow",
    "Follow-ups",
    "Follow ups",
    "下一步",
    "下一步计划",
    "下周计划",
    "明日计划",
    "明天计划",
    "待办",
    "待办事项",
    "行动项",
    "后续行动",
    "跟进事项",
  ],
  goal: ["Goals", "Goal progress", "Objectives", "OKRs", "目标", "目标进度", "本周目标", "进度"],
  pattern: ["Patterns", "Recurring", "规律", "模式"],
  improvement: [
    "Improvements",
    "What to improve",
    "To improve",
    "What could be better",
    "Could be better",
    "Proposals",
    "Ideas to try",
    "Reflections",
    "改进",
    "待改进",
    "需要改进",
    "改进点",
    "建议",
    "反思",
  ],
  knowledge: [
    "Learned",
    "What I learned",
    "Learnings",
    "Lessons",
    "Lessons learned",
    "Insights",
    "TIL",
    "What went well",
    "Went well",
    "What didn't go well",
    "What went wrong",
    "Findings",
    "学到的",
    "心得",
    "收获",
    "经验",
    "教训",
    "做得好",
    "做得好的",
    "发现",
  ],
  decision: ["Decisions", "Decided", "Decisions made", "决定", "决策", "结论"],
  question: ["Questions", "Open questions", "Open issues", "问题", "疑问", "待确认", "待讨论"],
};

/** Headings (normalised) whose items are progress on an existing goal rather than new goals. */
export const PROGRESS_HEADINGS: ReadonlySet<string> = new Set([
  "goal progress",
  "目标进度",
  "进度",
]);

/**
 * A heading as compared with the table: Markdown emphasis, a leading number (`1.`), emoji, a
 * trailing colon and a trailing qualifier in brackets (`Action items (Dana)`, `下周计划（12月）`) removed;
 * curly apostrophes straightened; lower case; runs of spaces as one.
 */
export function sectionHeadingKey(heading: string): string {
  return heading
    .normalize("NFKC")
    .replace(/[*_`~]/g, "")
    .replace(/[\p{Extended_Pictographic}\uFE0F]/gu, "")
    .replace(/^\s*\d+[.)]\s*/, "")
    .replace(/\s*[(（[【][^)）\]】]*[)）\]】]\s*$/u, "")
    .replace(/[:：]\s*$/u, "")
    .replace(/[’‘]/g, "'")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();
}

/** Heading (normalised) → category, for one table. Later categories never override earlier ones. */
export function headingIndex(table: Readonly<SectionHeadings>): Map<string, (typeof KEYS)[number]> {
  const index = new Map<string, (typeof KEYS)[number]>();
  for (const key of KEYS)
    for (const h of table[key]) {
      const n = sectionHeadingKey(h);
      if (n && !index.has(n)) index.set(n, key);
    }
  return index;
}

const headingList = (key: (typeof KEYS)[number]) =>
  z
    .array(z.string().refine((h) => sectionHeadingKey(h) !== "", "a heading must have words"))
    .default([...DEFAULT_SECTION_HEADINGS[key]]);

/**
 * Schema of the `sectionHeadings` setting: a list of headings per category; a missing list takes
 * its default, an empty list turns the category's headings off. A heading listed under two
 * categories is refused with the reason (it could only be read as one of them).
 */
export const sectionHeadingsSchema = z
  .object({
    task: headingList("task"),
    goal: headingList("goal"),
    pattern: headingList("pattern"),
    improvement: headingList("improvement"),
    knowledge: headingList("knowledge"),
    decision: headingList("decision"),
    question: headingList("question"),
  })
  .superRefine((table, ctx) => {
    const seen = new Map<string, string>();
    for (const key of KEYS) {
      for (const h of table[key]) {
        const n = sectionHeadingKey(h);
        const other = seen.get(n);
        if (other !== undefined && other !== key) {
          ctx.addIssue({
            code: "custom",
            path: [key],
            message: `the heading "${h}" is listed under both ${other} and ${key}`,
          });
          return;
        }
        seen.set(n, key);
      }
    }
  });
