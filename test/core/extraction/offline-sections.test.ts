// docs/decisions.md, "Offline extraction reads headings and phrasings, not meaning": headings that
// name a category, owners of action items, nested items with their parent's context, and the note
// of a run that found nothing (src/core/extraction/offline.ts).
import { describe, expect, it } from "vitest";
import { splitBlocks } from "../../../src/core/journal/blocks";
import { extractConventions, OfflineExtractor } from "../../../src/core/extraction/offline";
import { ownerOf } from "../../../src/core/extraction/owners";
import { trackerFields } from "../../../src/core/extraction/write-item";
import { orderFields } from "../../../src/core/trackers/fields";
import { defaultSettings, parseSettings, usableSettings } from "../../../src/core/settings";
import { DEFAULT_SECTION_HEADINGS } from "../../../src/core/extraction/section-headings";

const got = (body: string, options = {}) =>
  extractConventions(splitBlocks(body), [], options).map((i) => [i.category, i.text]);

describe("sections", () => {
  it("reads an English retrospective (went well / to improve / action items)", () => {
    const body =
      "# Sprint 14 retro\n\n## What went well\n- Pairing caught two bugs\n\n## What to improve\n- Split big stories before planning\n\n## Action items\n- Update the retro template\n";
    expect(got(body)).toEqual([
      ["knowledge", "Pairing caught two bugs"],
      ["improvement", "Split big stories before planning"],
      ["task", "Update the retro template"],
    ]);
  });

  it("reads a Chinese retrospective and a weekly 复盘 (做得好 / 待改进 / 下一步, 目标进度, 学到的, 反思, 下周计划, 规律)", () => {
    const body = [
      "# 第 48 周复盘",
      "",
      "## 做得好",
      "- 组件库提前对齐，返工很少",
      "",
      "## 待改进",
      "- 文案定稿太晚",
      "",
      "## 目标进度",
      "- 续费率目前 78%",
      "",
      "## 学到的",
      "- 客户最在意发票速度",
      "",
      "## 反思",
      "访谈提纲太长，应该控制在 5 个问题以内。",
      "",
      "## 下周计划",
      "- 跟进 3 个高风险客户",
      "",
      "## 规律",
      "- 月底工单翻倍",
    ].join("\n");
    const items = extractConventions(splitBlocks(body));
    expect(items.map((i) => [i.category, i.text])).toEqual([
      ["knowledge", "组件库提前对齐，返工很少"],
      ["improvement", "文案定稿太晚"],
      ["goal", "续费率目前 78%"],
      ["knowledge", "客户最在意发票速度"],
      ["improvement", "访谈提纲太长，应该控制在 5 个问题以内。"],
      ["task", "跟进 3 个高风险客户"],
      ["pattern", "月底工单翻倍"],
    ]);
    expect(items[2]?.progress).toBe(true); // 目标进度: progress on an open goal when one matches
    for (const i of items) expect(i.topic).toBeUndefined(); // a category heading is never a topic
  });

  it("does not read headings that name no category, done work, or a remark under a task heading", () => {
    const body =
      "## Yesterday\n- Fixed the tokenizer\n\n## Summary\nCrawled 412 pages.\n\n## Next week\n- [x] Sent the invoice\n- Draft the posts\n\nOverall a good week.\n";
    expect(got(body)).toEqual([["task", "Draft the posts"]]);
  });

  it("under 问题 an item must read as a question; under Open questions every item is one", () => {
    expect(got("## 问题\n- 服务器宕机两次\n- 第三轮要不要加电话回访？\n")).toEqual([
      ["question", "第三轮要不要加电话回访？"],
    ]);
    expect(got("## Open questions\n- Pricing of the enterprise tier\n")).toEqual([
      ["question", "Pricing of the enterprise tier"],
    ]);
  });

  it("matches headings loosely (case, numbering, emoji, a colon, a bracketed qualifier)", () => {
    for (const h of [
      "ACTION ITEMS",
      "1. Action items",
      "✅ Action items",
      "Action items:",
      "Action items (Dana)",
      "下周计划（12月）",
    ]) {
      expect(got(`## ${h}\n- Book the room\n`), h).toEqual([["task", "Book the room"]]);
    }
  });

  it("the heading table is a setting: a heading added or removed changes what is read", () => {
    const table = { ...DEFAULT_SECTION_HEADINGS, task: ["Blockers"], knowledge: [] };
    expect(
      got("## Blockers\n- Redis keeps running out of memory\n\n## Lessons\n- Tests first\n", {
        sectionHeadings: table,
      }),
    ).toEqual([["task", "Redis keeps running out of memory"]]);
  });

  it("the pipeline hands the setting to the extractor", async () => {
    const settings = usableSettings(parseSettings({ sectionHeadings: { task: ["Blockers"] } }));
    const body = "## Blockers\n- Redis keeps running out of memory\n";
    const input = {
      path: "j.md",
      title: "j",
      body,
      blocks: splitBlocks(body),
      context: { agent: "me", topics: [], openItems: [], agents: [] },
      sectionHeadings: settings.sectionHeadings,
    };
    expect((await new OfflineExtractor().extract(input)).items.map((i) => i.text)).toEqual([
      "Redis keeps running out of memory",
    ]);
  });
});

describe("owners", () => {
  it.each([
    ["@omar turn on the reviewer rule", "Turn on the reviewer rule", "omar"],
    ["Turn on the reviewer rule @omar", "Turn on the reviewer rule", "omar"],
    ["Dana: write the checklist", "Write the checklist", "Dana"],
    ["小李：整理组件库文档", "整理组件库文档", "小李"],
    ["@阿杰 把埋点方案补完", "把埋点方案补完", "阿杰"],
    ["Follow up with finance (for Priya)", "Follow up with finance", "Priya"],
    ["Follow up with finance — for Priya", "Follow up with finance", "Priya"],
    ["For Priya: review the pricing copy", "Review the pricing copy", "Priya"],
    ["renew the TLS certificate, owner: ming", "renew the TLS certificate", "ming"],
    ["Rotate the keys; assignee: @Dana", "Rotate the keys", "Dana"],
    ["整理客户反馈，负责人：小王", "整理客户反馈", "小王"],
  ])("%s", (text, rest, owner) => {
    expect(ownerOf(text)).toEqual({ text: rest, owner });
  });

  it.each([
    ["Me: ask legal about trials", "Ask legal about trials"],
    ["我：和财务确认接口", "和财务确认接口"],
    ["Check with @ming whether the paths match", "Check with @ming whether the paths match"],
    ["Note: the crawl takes an hour", "Note: the crawl takes an hour"],
    ["前端：修复登录页", "前端：修复登录页"],
    ["Draft the agenda for Monday", "Draft the agenda for Monday"],
    // An owner field only at the end of the item: in the middle it is part of the sentence.
    ["Ask the owner: ming decides whether we ship", "Ask the owner: ming decides whether we ship"],
    ["Owner: the platform team", "Owner: the platform team"],
    // A secret's name before the colon is no one (its value is redacted, not assigned).
    ["口令：abcd1234 需要轮换", "口令：abcd1234 需要轮换"],
    ["Password: rotate it before Friday", "Password: rotate it before Friday"],
    ["For token: ask the platform team", "For token: ask the platform team"],
  ])("no owner: %s", (text, rest) => {
    expect(ownerOf(text)).toEqual({ text: rest });
  });

  it("an owned action item is a task with an [owner:: …] field among ours, before the source", () => {
    const [item] = extractConventions(
      splitBlocks("## Action items\n- [ ] Dana: write the split-story checklist\n"),
    );
    expect(item).toMatchObject({
      category: "task",
      text: "Write the split-story checklist",
      owner: "Dana",
    });
    if (!item) throw new Error("no item");
    const fields = trackerFields(item, "2026-11-20", "[[J#^am-1]]");
    expect(fields.map(([k]) => k)).toEqual(["owner", "source", "created"]);
    expect(orderFields(fields.map(([key, value]) => ({ key, value }))).map((f) => f.key)).toEqual([
      "owner",
      "source",
      "created",
    ]);
  });

  it("owners are read only on tasks", () => {
    const [q] = extractConventions(
      splitBlocks("## Open questions\n- Dana: is the API still supported?\n"),
    );
    expect(q?.owner).toBeUndefined();
  });
});

describe("nested items", () => {
  it("a sub-item carries its parent's text; a parent that only introduces its list is no item", () => {
    const body =
      "## TODO\n- [ ] App store listing\n  - [ ] New screenshots\n  - [x] Old copy removed\n- Beta feedback:\n  - @sara reply to the top testers\n\n## 待办\n- 上线准备\n  - 整理发布说明\n";
    const items = extractConventions(splitBlocks(body));
    expect(items.map((i) => [i.text, i.owner])).toEqual([
      ["App store listing", undefined],
      ["App store listing: New screenshots", undefined],
      ["Beta feedback: Reply to the top testers", "sara"],
      ["上线准备", undefined],
      ["上线准备：整理发布说明", undefined],
    ]);
    for (const i of items) expect(body).toContain(i.evidence.replace(/^- /, ""));
  });

  it("checkbox sub-items under a plain bullet outside any section keep the bullet's context", () => {
    expect(got("## Notes\n- Launch checklist\n  - [ ] Update the docs\n")).toEqual([
      ["task", "Launch checklist: Update the docs"],
    ]);
  });
});

describe("a line under a task line", () => {
  it("a sentence of its own is not folded into the task; a wrapped line still is", () => {
    const body =
      "- [ ] deploy the API\nThe staging DB is on port 5433.\n\n- [ ] email Dana about the\nlaunch plan\n\n- [ ] fix the login\nRemember to update the runbook.\n\n- [ ] 整理发布说明\n测试环境的数据库在 5433 端口。\n";
    expect(got(body)).toEqual([
      ["task", "deploy the API"],
      ["task", "email Dana about the launch plan"],
      ["task", "fix the login"],
      ["task", "Update the runbook"],
      ["task", "整理发布说明"],
    ]);
  });

  it("a plain fact line is prose: read under a heading that names knowledge, or after Learned:", () => {
    // README, "What the offline extractor reads": prose without a convention needs a language model.
    expect(got("The staging DB is on port 5433.\n")).toEqual([]);
    expect(got("## Learned\n\nThe staging DB is on port 5433.\n")).toEqual([
      ["knowledge", "The staging DB is on port 5433."],
    ]);
    expect(got("Learned: the staging DB is on port 5433.\n")).toEqual([
      ["knowledge", "the staging DB is on port 5433."],
    ]);
  });
});

describe("nothing found", () => {
  it("says why, what the extractor reads, and that prose needs a model", async () => {
    const body = "# Tuesday\n\n## Summary\nA quiet day.\n\n## Log\n- 09:30 standup\n";
    const result = await new OfflineExtractor().extract({
      path: "j.md",
      title: "j",
      body,
      blocks: splitBlocks(body),
      context: { agent: "me", topics: [], openItems: [], agents: [] },
    });
    expect(result.items).toEqual([]);
    expect(result.notes[0]).toContain('none of its headings ("Summary", "Log") names a category');
    expect(result.notes[1]).toContain("Action items");
    expect(result.notes[1]).toContain("学到的");
    expect(result.notes[2]).toContain("language model");
  });

  it("says nothing when items were found", async () => {
    const body = "- [ ] Water the plants\n";
    const result = await new OfflineExtractor().extract({
      path: "j.md",
      title: "j",
      body,
      blocks: splitBlocks(body),
      context: { agent: "me", topics: [], openItems: [], agents: [] },
    });
    expect(result.notes).toEqual([]);
  });
});

describe("the sectionHeadings setting", () => {
  it("defaults to the table of English and Chinese headings", () => {
    const s = defaultSettings().sectionHeadings;
    expect(s.task).toContain("Action items");
    expect(s.task).toContain("下周计划");
    expect(s.knowledge).toContain("What went well");
    expect(s.improvement).toContain("反思");
  });

  it("keeps the defaults of the lists not given, and an empty list turns a category off", () => {
    const s = parseSettings({ sectionHeadings: { task: ["Blockers"], pattern: [] } });
    if (!s.ok) throw new Error(s.error.message);
    expect(s.value.sectionHeadings.task).toEqual(["Blockers"]);
    expect(s.value.sectionHeadings.pattern).toEqual([]);
    expect(s.value.sectionHeadings.goal).toEqual(DEFAULT_SECTION_HEADINGS.goal);
  });

  it("refuses a heading listed under two categories, and a heading without words, with the reason", () => {
    const twice = parseSettings({
      sectionHeadings: { task: ["Next steps"], question: ["next steps"] },
    });
    if (twice.ok) throw new Error("a heading under two categories must be refused");
    expect(twice.error.message).toContain(
      'the heading "next steps" is listed under both task and question',
    );
    // The list that clashes is reset to its default (one list is one setting); the other is kept.
    expect(twice.error.settings.sectionHeadings.task).toEqual(["Next steps"]);
    expect(twice.error.settings.sectionHeadings.question).toEqual(
      DEFAULT_SECTION_HEADINGS.question,
    );
    const blank = parseSettings({ sectionHeadings: { task: ["**"] } });
    if (blank.ok) throw new Error("a heading without words must be refused");
    expect(blank.error.message).toContain("a heading must have words");
    expect(blank.error.settings.sectionHeadings.task).toEqual(DEFAULT_SECTION_HEADINGS.task);
  });
});

describe("a due phrase taken out of a task", () => {
  it("leaves no doubled or trailing separator, and the owner after it is still read", () => {
    const [item] = extractConventions(
      splitBlocks("TODO: renew the TLS certificate, due 2026-12-10, owner: ming\n"),
    );
    expect(item).toMatchObject({
      category: "task",
      text: "renew the TLS certificate",
      due: "2026-12-10",
      owner: "ming",
    });
    const [last] = extractConventions(
      splitBlocks("TODO: renew the TLS certificate, due 2026-12-10\n"),
    );
    expect(last).toMatchObject({ text: "renew the TLS certificate", due: "2026-12-10" });
  });
});
