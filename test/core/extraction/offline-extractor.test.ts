import { describe, expect, it } from "vitest";
import { splitBlocks } from "../../../src/core/journal/blocks";
import { extractConventions, OfflineExtractor } from "../../../src/core/extraction/offline";
import { renderTurn } from "../../../src/core/ingest/section";

const journal = [
  "# 2026-11-24",
  "",
  "## SEO audit",
  "",
  "Crawled the blog again this morning; nothing unusual.",
  "",
  "- [ ] Get the top-10 pages by traffic and bounce rate [due:: 2026-12-01]",
  "- [x] Draft the audit checklist",
  "- [/] Rewrite the pricing page intro",
  "TODO: send the draft to Person A",
  "Decision: audit the home page before the blog",
  "Learned: bounce rate matters more than the scoring framework",
  "Pattern: every Monday the crawl queue doubles",
  "Proposal: add a quality checklist to content review [to:: editor]",
  "Question: @ming can you share last quarter's churn numbers?",
  "Progress: first audit done, blog 79, home page 38 [goal:: g-006]",
  "",
  "> [!decision] Publishing",
  "> We publish only after the checklist passes.",
  "",
  "## 今天",
  "",
  "待办：整理客户流失原因 截止 2026-12-05",
  "决定：续费提醒提前到到期前 30 天 [topic:: 续费提醒]",
  "心得：**先问原因再给折扣**，效果更好",
  "问题：@link 能否给出上月博客流量？",
  "建议：客服回复模板加上满意度调查",
  "模式：月底工单量总是翻倍",
  "目标：把续费率提升到 85%",
].join("\n");

describe("offline extractor", () => {
  const items = extractConventions(splitBlocks(journal), ["ming", "link"]);
  const find = (text: string) => items.find((i) => i.text.includes(text));

  it("reads every English and Chinese convention into the right category", () => {
    expect(find("top-10 pages")?.category).toBe("task");
    expect(find("Rewrite the pricing page")?.category).toBe("task");
    expect(find("send the draft")?.category).toBe("task");
    expect(find("audit the home page")?.category).toBe("decision");
    expect(find("bounce rate matters")?.category).toBe("knowledge");
    expect(find("crawl queue")?.category).toBe("pattern");
    expect(find("quality checklist")?.category).toBe("improvement");
    expect(find("churn numbers")?.category).toBe("question");
    expect(find("first audit done")?.category).toBe("goal");
    expect(find("We publish only")?.category).toBe("decision");
    expect(find("整理客户流失原因")?.category).toBe("task");
    expect(find("续费提醒提前")?.category).toBe("decision");
    expect(find("先问原因")?.category).toBe("knowledge");
    expect(find("博客流量")?.category).toBe("question");
    expect(find("满意度调查")?.category).toBe("improvement");
    expect(find("工单量")?.category).toBe("pattern");
    expect(find("续费率")?.category).toBe("goal");
    expect(new Set(items.map((i) => i.category)).size).toBe(7);
  });

  it("skips done tasks and plain prose", () => {
    expect(find("Draft the audit checklist")).toBeUndefined();
    expect(find("Crawled the blog")).toBeUndefined();
  });

  it("keeps evidence verbatim and reads fields, mentions, topics and due dates", () => {
    for (const item of items) expect(journal).toContain(item.evidence);
    expect(find("top-10 pages")?.due).toBe("2026-12-01");
    expect(find("top-10 pages")?.text).toBe("Get the top-10 pages by traffic and bounce rate");
    expect(find("整理客户流失原因")?.due).toBe("2026-12-05");
    expect(find("quality checklist")?.target).toBe("editor");
    expect(find("churn numbers")?.target).toBe("ming");
    expect(find("博客流量")?.target).toBe("link");
    expect(find("first audit done")?.ref).toBe("g-006");
    expect(find("first audit done")?.progress).toBe(true);
    expect(find("bounce rate matters")?.topic).toBe("SEO audit");
    expect(find("续费提醒提前")?.topic).toBe("续费提醒");
    expect(find("先问原因")?.topic).toBeUndefined(); // "今天" is generic
    expect(find("We publish only")?.text).toBe(
      "Publishing: We publish only after the checklist passes.",
    );
  });

  it("reads a convention at the start of an ingested turn's answer or request, in English and Chinese", () => {
    // The turn as ingest writes it (renderTurn): `**Answer:** Decision: …` on one line.
    const turn = (request: string, conclusion: string) =>
      `# 2026-12-01\n\n## Claude Code session 7f3a9c2e\n\n${renderTurn({
        key: "t1",
        at: "2026-12-01T10:00:00Z",
        request,
        conclusion,
        actions: [],
        interrupted: false,
      })}\n`;
    const cases: [string, string, string, string][] = [
      [
        "Which queue?",
        "Decision: we use Postgres for the queue",
        "decision",
        "we use Postgres for the queue",
      ],
      ["用哪个队列？", "决定：队列用 Postgres", "decision", "队列用 Postgres"],
      ["Decision: we ship on Friday", "Noted.", "decision", "we ship on Friday"],
      ["Is the queue fast?", "TODO: benchmark the queue", "task", "benchmark the queue"],
    ];
    for (const [request, conclusion, category, text] of cases) {
      const body = turn(request, conclusion);
      const got = extractConventions(splitBlocks(body)).filter((i) => i.cue === undefined);
      expect(
        got.map((i) => [i.category, i.text]),
        body,
      ).toEqual([[category, text]]);
      expect(body).toContain(got[0]!.evidence);
      expect(got[0]!.evidence).toMatch(/^\*\*(?:Answer|Asked):\*\* /);
    }
    // A marker opening a later sentence of the answer is read too; a keyword inside a sentence is prose.
    const later = (answer: string) =>
      extractConventions(splitBlocks(turn("Which queue?", answer)))
        .filter((i) => i.cue === undefined)
        .map((i) => [i.category, i.text, i.evidence]);
    expect(later("We looked at it. Decision: we use Postgres")).toEqual([
      ["decision", "we use Postgres", "Decision: we use Postgres"],
    ]);
    expect(later("We looked at it and the decision: we use Postgres")).toEqual([]);
  });

  describe("a convention marker starts a line, follows a bold label, or opens a sentence", () => {
    const items = (line: string) =>
      extractConventions(splitBlocks(`# 2026-12-04\n\n${line}\n`)).map((i) => [i.category, i.text]);
    it.each([
      ["**Answer**: Decision: ship on Friday", "decision", "ship on Friday"],
      ["**Answer:** Decision: ship on Friday", "decision", "ship on Friday"],
      ["Decision — we ship on Friday", "decision", "we ship on Friday"],
      ["Decision—we ship on Friday", "decision", "we ship on Friday"],
      ["Decision – we ship on Friday", "decision", "we ship on Friday"],
      ["Decision - we ship on Friday", "decision", "we ship on Friday"],
      ["**Decision** — we ship on Friday", "decision", "we ship on Friday"],
      ["Called with Ana. Decision: we ship on Friday.", "decision", "we ship on Friday."],
      ["和 Ana 通了电话。决定：周五发布", "decision", "周五发布"],
      ["决定——周五发布", "decision", "周五发布"],
      // The same rule for the other markers.
      ["**Note**: TODO: renew the certificate", "task", "renew the certificate"],
      ["TODO — renew the certificate", "task", "renew the certificate"],
      [
        "Met Bo today. Question: who pays for the hosting?",
        "question",
        "who pays for the hosting?",
      ],
      ["Goal - ship the mobile app by March", "goal", "ship the mobile app by March"],
      // The other side of the code rule: a marker after a closed code span, or an unclosed backtick.
      ["Ran `make`. TODO: fix the build", "task", "fix the build"],
      ["A ` stray backtick. TODO: fix the build", "task", "fix the build"],
    ])("%s", (line, category, text) => {
      expect(items(line)).toEqual([[category, text]]);
    });

    it.each([
      "The decision was hard",
      "no decision yet",
      "Decision was hard.",
      "Decision-making is hard",
      "We made the decision: ship on Friday",
      "Called with Ana, decision: we ship on Friday",
      "the todo - a long list",
      "**Done:** Decision: ship on Friday",
      // Code, not a convention: a marker inside a code span.
      "See `a. TODO: code span` here.",
      "Run ``x. Decision: `y` z`` first.",
    ])("%s: no item", (line) => {
      expect(items(line)).toEqual([]);
    });

    it("several markers on one line are several items, each with its own words and evidence", () => {
      const body = "# 2026-12-04\n\nTODO: book the room. Decision: we meet on Friday.\n";
      const got = extractConventions(splitBlocks(body));
      expect(got.map((i) => [i.category, i.text, i.evidence])).toEqual([
        ["task", "book the room.", "TODO: book the room. Decision: we meet on Friday."],
        ["decision", "we meet on Friday.", "Decision: we meet on Friday."],
      ]);
      for (const i of got) expect(body).toContain(i.evidence);
    });

    describe("lines written under a marker, a task or a callout", () => {
      const all = (body: string) =>
        extractConventions(splitBlocks(`# 2026-12-04\n\n${body}\n`)).map((i) => [
          i.category,
          i.text,
        ]);
      it("a fragment under a marker line is its text wrapped; a sentence of its own is read alone", () => {
        expect(all("Decision: we will use Postgres\nfor the job queue")).toEqual([
          ["decision", "we will use Postgres for the job queue"],
        ]);
        expect(
          all("Decision: no deploys on Friday\nWe decided to use Postgres 16 for the new cluster."),
        ).toEqual([
          ["decision", "no deploys on Friday"],
          ["decision", "Use Postgres 16 for the new cluster"],
        ]);
      });
      it("under a task line, a marker line and the sentence after it are items of their own", () => {
        expect(
          all(
            "- [ ] Email Dana about the launch plan\nDecision: no deploys on Friday\nWe decided to use Redis 7 for the cache.",
          ),
        ).toEqual([
          ["task", "Email Dana about the launch plan"],
          ["decision", "no deploys on Friday"],
          ["decision", "Use Redis 7 for the cache"],
        ]);
        expect(all("- [ ] Email Bo\nDecision: use Kafka\nfor the event bus")).toEqual([
          ["task", "Email Bo"],
          ["decision", "use Kafka for the event bus"],
        ]);
      });
      it("a marker line right under a callout is its own item; a lazy fragment still continues the callout", () => {
        expect(
          all("> [!decision] Billing runs on the 1st\nQuestion: keep the legacy format?"),
        ).toEqual([
          ["decision", "Billing runs on the 1st"],
          ["question", "keep the legacy format?"],
        ]);
        expect(all("> [!decision] Billing runs on the 1st\nof each month")).toEqual([
          ["decision", "Billing runs on the 1st: of each month"],
        ]);
      });
    });

    it("a checkbox line is one task whatever sentences it holds", () => {
      expect(items("- [ ] call Ana. Decision: ship on Friday")).toEqual([
        ["task", "call Ana. Decision: ship on Friday"],
      ]);
    });
  });

  it("takes a leading or trailing @agent off a question's or proposal's text, as off a task's, and keeps it as the target", () => {
    const agents = ["ming", "me"];
    const cases: [string, string, string, string | undefined][] = [
      [
        "Question: @me do we keep the scores in the CMS?",
        "question",
        "do we keep the scores in the CMS?",
        "me",
      ],
      [
        "Question: do we keep the scores in the CMS? @me",
        "question",
        "do we keep the scores in the CMS?",
        "me",
      ],
      [
        "问题：@me 12 月的折扣上限能不能提到 15%？",
        "question",
        "12 月的折扣上限能不能提到 15%？",
        "me",
      ],
      [
        "## Open questions\n\n- @me do we keep the scores?",
        "question",
        "do we keep the scores?",
        "me",
      ],
      [
        "Proposal: @ming tag churned accounts in the CRM",
        "improvement",
        "tag churned accounts in the CRM",
        "ming",
      ],
      // The task's own rule (ownerOf), for comparison: the mention is its owner.
      ["TODO: @me renew the certificate", "task", "Renew the certificate", undefined],
      // Not an agent, or a mention inside the sentence: the text stays as written.
      [
        "Question: @dana can you share the churn numbers?",
        "question",
        "@dana can you share the churn numbers?",
        undefined,
      ],
      [
        "Question: should @me or @ming own the export?",
        "question",
        "should @me or @ming own the export?",
        "me",
      ],
    ];
    for (const [line, category, text, target] of cases) {
      const [item, ...rest] = extractConventions(splitBlocks(`# Log\n\n${line}\n`), agents);
      expect(rest, line).toEqual([]);
      expect([item?.category, item?.text, item?.target], line).toEqual([category, text, target]);
    }
  });

  it("headings that name a day are not topics", () => {
    for (const heading of ["9 Nov", "Monday, 12 November", "Nov 9", "11月9日", "周一复盘前"]) {
      const got = extractConventions(
        splitBlocks(`# Log\n\n## ${heading}\n\nLearned: sleep matters\n`),
      );
      expect(got[0]?.topic, heading).toBeUndefined();
    }
    expect(
      extractConventions(splitBlocks("# Log\n\n## Sleep\n\nLearned: sleep matters\n"))[0]?.topic,
    ).toBe("Sleep");
  });

  it("is deterministic and reports one pass with no model usage", async () => {
    const blocks = splitBlocks(journal);
    const input = {
      path: "j.md",
      title: "2026-11-24",
      body: journal,
      blocks,
      context: { agent: "link", topics: [], openItems: [], agents: ["ming"] },
    };
    const a = await new OfflineExtractor().extract(input);
    const b = await new OfflineExtractor().extract(input);
    expect(a).toEqual(b);
    expect(a.passes).toBe(1);
    expect(a.usage.calls).toBe(0);
    for (const item of a.items)
      expect(blocks[item.blockIndex]?.text).toContain(item.evidence.slice(0, 10));
  });
});
