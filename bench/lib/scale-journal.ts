/**
 * Deterministic journals with many extractable lines, for the extraction scale benchmark
 * (bench/extract-scale.ts) and the CLI's interruption test: tasks (`- [ ] …`), `Decision: …`,
 * `Learned: …`, `决定：…`, `心得：…` and Chinese tasks, in sections of about 20 lines like the
 * sample vault's journals, with a few items written twice (which dedupe must merge) and numbers
 * and weekdays (which it must not).
 */
import { rng } from "./synthetic-vault";

const VERBS =
  "check fix rewrite draft review audit measure compress migrate document update archive publish schedule compare estimate test monitor merge ship".split(
    " ",
  );
const OBJECTS =
  "pricing page,blog index,docs sidebar,hero images,canonical tags,search console export,onboarding email,quickstart guide,release notes,redirect chains,sitemap,rubric scores,churn report,renewal list,invoice template,backup job,alert thresholds,cache settings,login flow,support macros,landing copy,trial funnel,newsletter draft,API limits,status page,roadmap slides,interview notes,survey results,budget sheet,contract terms".split(
    ",",
  );
const QUALIFIERS =
  "for the mobile site,before the release,with the dev team,for the A-class customers,in the CMS,on the staging server,for the quarterly review,after the migration,for the new editors,with fresh screenshots,for the top 50 pages,in the tracker,for finance,for the support team,in both languages".split(
    ",",
  );
const FACTS = [
  "pages with mobile LCP over 4 s get fewer organic clicks",
  "posts refreshed recently score higher on the rubric",
  "customers reminded early renew more often",
  "short briefs produce faster first drafts",
  "screenshots raise the time on page",
  "internal links help new posts get indexed",
  "weekly exports catch tracking gaps early",
  "a pass mark keeps reviews consistent",
];
const DECISIONS = [
  "audit the top pages first, not the whole site",
  "publish the changelog every sprint",
  "send the first reminder earlier",
  "keep the FAQ until pricing changes",
  "review drafts on Wednesday instead of Thursday",
  "store a score with every post",
  "move the sync to the morning",
];
const ZH_VERBS = "核对 整理 更新 检查 修复 发送 统计 归档 安排 评估".split(" ");
const ZH_OBJECTS =
  "续费提醒 客户名单 合同日期 访谈记录 报表权限 工时导出 流失原因 排班功能 试用来源 价格说明 培训材料 满意度调查".split(
    " ",
  );
const ZH_QUALIFIERS =
  "给 A 类客户,给 B 类客户,在 CRM 里,下周一之前,和运营主管一起,按区域,按月份,针对物流公司".split(
    ",",
  );
const ZH_FACTS = [
  "提前发提醒的客户续费率更高",
  "先让客户演示操作得到的问题更具体",
  "每周导出报表能更早发现问题",
  "短的模板回复更快",
];
const ZH_DECISIONS = [
  "第一轮提醒统一提前发",
  "C 类只发邮件和自助续费链接",
  "访谈先看演示再提问",
  "报表权限下放给组长",
];
const TOPICS = [
  "SEO audit",
  "Content quality",
  "Editorial workflow",
  "Renewals",
  "续费流程",
  "客户访谈",
];

/**
 * A journal of about `items` extractable lines (dated `date`, agent `agent`); `seed` varies the text,
 * so several journals of one agent differ.
 */
export function scaleJournal(
  items: number,
  opts: { seed?: number; date?: string; agent?: string } = {},
): string {
  const rand = rng(opts.seed ?? 1);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  const date = opts.date ?? "2026-12-01";
  const agent = opts.agent ?? "link";
  const lines: string[] = [
    "---",
    `id: journal-${agent}-${date}`,
    "type: journal",
    `agent: ${agent}`,
    "domain: seo",
    "status: active",
    `created_at: ${date}T18:00:00+08:00`,
    "---",
    `# ${date} · a long day`,
    "",
  ];
  const written: string[] = [];
  for (let i = 0; i < items; i++) {
    if (i % 20 === 0)
      lines.push(
        "",
        `## ${pick(TOPICS)}`,
        "",
        "Notes from the session; the list below is what came out of it.",
        "",
      );
    const r = rand();
    const n = 1 + Math.floor(rand() * 90);
    let line: string;
    if (written.length > 10 && rand() < 0.04) {
      // The same item again, as a journal repeats itself.
      line = pick(written);
    } else if (r < 0.4) {
      const verb = pick(VERBS);
      line = `- [ ] ${verb.charAt(0).toUpperCase()}${verb.slice(1)} the ${pick(OBJECTS)} ${pick(QUALIFIERS)} (${n} items)`;
    } else if (r < 0.55) {
      line = `Decision: ${pick(DECISIONS)} for the ${pick(OBJECTS)} from week ${n}.`;
    } else if (r < 0.7) {
      line = `Learned: ${pick(FACTS)} on the ${pick(OBJECTS)}, ${n}% in our own data.`;
    } else if (r < 0.82) {
      line = `- [ ] ${pick(ZH_QUALIFIERS)}${pick(ZH_VERBS)}${pick(ZH_OBJECTS)}（${n} 条）`;
    } else if (r < 0.91) {
      line = `决定：${pick(ZH_OBJECTS)}${pick(ZH_DECISIONS)}，从第 ${n} 周开始。`;
    } else {
      line = `心得：${pick(ZH_OBJECTS)}${pick(ZH_FACTS)}，高 ${n} 个百分点。`;
    }
    written.push(line);
    // A paragraph (`Decision: …`) is a block of its own, as in the sample journals; list items are one block each.
    if (!line.startsWith("- ") && lines.at(-1) !== "") lines.push("");
    lines.push(line);
    if (!line.startsWith("- ")) lines.push("");
  }
  lines.push("");
  return lines.join("\n");
}
