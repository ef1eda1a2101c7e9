// Every phrasing rule of the offline extractor, with a sentence it must match and one
// it must not (src/core/extraction/phrasings.ts), and due dates named in words (due-words.ts).
import { describe, expect, it } from "vitest";
import { matchPhrasing, PHRASING_RULES } from "../../../src/core/extraction/phrasings";
import { dueFromWords } from "../../../src/core/extraction/due-words";
import { extractConventions } from "../../../src/core/extraction/offline";
import { splitBlocks } from "../../../src/core/journal/blocks";

/** rule name → [must match (with the item text it gives), must not match]. */
const CASES: Record<string, { yes: [string, string]; no: string }> = {
  "should we …?": {
    yes: [
      "Should we keep paying for the second monitoring tool?",
      "Should we keep paying for the second monitoring tool?",
    ],
    no: "Why should we care about that?",
  },
  "是否…？": {
    yes: ["还没想好：是否要把年付折扣改成八五折？", "是否要把年付折扣改成八五折？"],
    no: "是否续费主要看价格。",
  },
  "we decided / we agreed": {
    yes: [
      "We agreed that the export comes before the SSO work.",
      "The export comes before the SSO work",
    ],
    no: "We haven't decided whether the export comes first.",
  },
  决定: {
    yes: ["我们决定下周二上线新版本。", "下周二上线新版本"],
    no: "还没决定下周二要不要上线。",
  },
  "定了：": {
    yes: ["跟老板聊了一下，定了：12 月的活动只做老客户。", "12 月的活动只做老客户"],
    no: "时间还没定了吗",
  },
  "I learned": {
    yes: [
      "I learned that survey emails before 9 am get answers.",
      "Survey emails before 9 am get answers",
    ],
    no: "What I learned today is hard to put into words.",
  },
  "turns out": {
    yes: [
      "Turns out the lockfile hash is part of the cache key.",
      "The lockfile hash is part of the cache key",
    ],
    no: "It turned out to be a long day.",
  },
  "学到：": {
    yes: ["学到一个点：用户在第二步流失最多。", "用户在第二步流失最多"],
    no: "今天没学到什么新东西。",
  },
  原来: {
    yes: ["下午对了名单，原来有 40 多个联系人早就离职了。", "有 40 多个联系人早就离职了"],
    no: "原来的方案是按月付费的。",
  },
  "need to": {
    yes: [
      "Need to renew the TLS certificate for the status page.",
      "Renew the TLS certificate for the status page",
    ],
    no: "There is no need to renew it this year.",
  },
  "remember to": {
    yes: [
      "Also remember to move the 1:1 with Omar to Thursday.",
      "Move the 1:1 with Omar to Thursday",
    ],
    no: "Do you remember the demo last Friday?",
  },
  "I'll … by Friday": {
    yes: ["I'll send them the timeline by Friday.", "Send them the timeline by Friday"],
    no: "I'll be in the office on Friday.",
  },
  明天要: { yes: ["明天要先把名单发给销售。", "先把名单发给销售"], no: "明天要下雨了。" },
  记得: {
    yes: ["下周 Priya 休假，记得把 review 会改到周二。", "把 review 会改到周二"],
    no: "我记得他说过要改价格。",
  },
  "得…": { yes: ["得把复盘挪到下午五点。", "把复盘挪到下午五点"], no: "最近复盘写得很潦草。" },
};

describe("phrasing rules", () => {
  it("every rule has a case", () => {
    expect(Object.keys(CASES).sort()).toEqual(PHRASING_RULES.map((r) => r.name).sort());
  });

  for (const rule of PHRASING_RULES) {
    it(`${rule.name} → ${rule.category}`, () => {
      const c = CASES[rule.name];
      if (!c) throw new Error(`no case for ${rule.name}`);
      const yes = matchPhrasing(c.yes[0]);
      expect(yes, c.yes[0]).toMatchObject({
        rule: rule.name,
        category: rule.category,
        text: c.yes[1],
      });
      expect(matchPhrasing(c.no), c.no).toBeNull();
    });
  }

  it("finds phrasings in prose, one item per sentence, with the date a task names", () => {
    const body =
      "Call with Acme at 2. I'll send them the timeline by Friday. We agreed that the export comes before the SSO work.\n\n明天要先把名单发给销售。天气不错。";
    const items = extractConventions(splitBlocks(body), [], { date: "2026-11-24" });
    expect(items.map((i) => [i.category, i.text, i.due])).toEqual([
      ["task", "Send them the timeline by Friday", "2026-11-27"],
      ["decision", "The export comes before the SSO work", undefined],
      ["task", "先把名单发给销售", "2026-11-25"],
    ]);
    for (const i of items) expect(body).toContain(i.evidence);
  });
});

describe("due dates named in words", () => {
  // 2026-11-24 is a Tuesday.
  it.each([
    ["by Friday", "2026-11-27"],
    ["before Tuesday", "2026-12-01"],
    ["by tomorrow", "2026-11-25"],
    ["before Dec 15", "2026-12-15"],
    ["by Jan 5", "2027-01-05"],
    ["周三前", "2026-11-25"],
    ["周四之前", "2026-11-26"],
    ["月底前", "2026-11-30"],
    ["明天要", "2026-11-25"],
  ])("%s → %s", (words, due) => {
    expect(dueFromWords(`do it ${words}`, "2026-11-24")).toBe(due);
  });

  it("`tomorrow` closing the text is tomorrow; elsewhere in it, no date", () => {
    for (const text of [
      "revoke the old key tomorrow",
      "revoke the old key tomorrow.",
      "call Ana tomorrow morning",
    ])
      expect(dueFromWords(text, "2026-11-24")).toBe("2026-11-25");
    for (const text of [
      "prepare tomorrow's agenda",
      "tomorrow we review the plan",
      "the tomorrow list",
    ])
      expect(dueFromWords(text, "2026-11-24")).toBeUndefined();
  });

  it("names no date without a journal date or a deadline word", () => {
    expect(dueFromWords("send it by Friday", undefined)).toBeUndefined();
    expect(dueFromWords("move the meeting to Friday", "2026-11-24")).toBeUndefined();
    expect(dueFromWords("改到周二", "2026-11-24")).toBeUndefined();
  });
});

describe("a date named in another clause is not the item's", () => {
  it("'… before Thursday, and I need to ask Ming …' gives the task no due date", () => {
    const [item] = extractConventions(
      splitBlocks(
        "I still owe the dev team a write-up before Thursday, and I need to ask Ming about the churn reasons.\n",
      ),
      [],
      { date: "2026-11-24" },
    );
    expect(item).toMatchObject({ category: "task", text: "Ask Ming about the churn reasons" });
    expect(item?.due).toBeUndefined();
  });
});
