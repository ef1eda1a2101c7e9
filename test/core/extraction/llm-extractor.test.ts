import { afterEach, describe, expect, it } from "vitest";
import { splitBlocks } from "../../../src/core/journal/blocks";
import { LlmError } from "../../../src/core/errors";
import { defaultSettings, type Settings } from "../../../src/core/settings";
import { LlmExtractor } from "../../../src/core/extraction/llm-extractor";
import { PROMPT_EXAMPLES } from "../../../src/core/extraction/prompt";
import type { ExtractedItem, ExtractionInput, Extractor } from "../../../src/core/extraction/types";
import {
  startStubServer,
  type RecordedRequest,
  type StubServer,
} from "../../helpers/llm-stub-server";

const KEY = "sk-test-9f8e7d6c5b4a-SECRET";
let server: StubServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function stub(options: Parameters<typeof startStubServer>[0] = {}): Promise<StubServer> {
  server = await startStubServer(options);
  return server;
}

function settingsWith(
  over: { llm?: Partial<Settings["llm"]>; gate?: Partial<Settings["gate"]> } = {},
): Settings {
  const s = defaultSettings();
  return {
    ...s,
    llm: { ...s.llm, timeoutMs: 2000, maxRetries: 1, ...over.llm },
    gate: { ...s.gate, ...over.gate },
  };
}

function extractor(
  s: StubServer,
  over: { settings?: Settings; offline?: Extractor; apiKey?: string } = {},
): LlmExtractor {
  return new LlmExtractor({
    settings: over.settings ?? settingsWith(),
    apiKey: over.apiKey ?? KEY,
    baseUrl: s.baseUrl,
    model: "stub-model",
    retryBaseMs: 1,
    sleep: () => Promise.resolve(),
    ...(over.offline ? { offline: over.offline } : {}),
  });
}

function inputOf(body: string, title = "2026-11-24"): ExtractionInput {
  return {
    path: `Memory/Agents/link/Journal/${title}.md`,
    title,
    body,
    blocks: splitBlocks(body),
    context: {
      agent: "link",
      topics: ["SEO audit", "Content quality"],
      openItems: [{ id: "g-006", kind: "goal", text: "Content quality scoring system" }],
      agents: ["link", "ming", "me"],
    },
  };
}

async function failure(p: Promise<unknown>): Promise<LlmError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(LlmError);
    return err as LlmError;
  }
  throw new Error("expected the extraction to fail");
}

const userText = (r: RecordedRequest | undefined) =>
  (r?.messages ?? [])
    .filter((m) => m.role === "user")
    .map((m) => m.content)
    .join("\n");
const journalOf = (r: RecordedRequest) =>
  /<journal>\n([\s\S]*?)\n<\/journal>/.exec(userText(r))?.[1] ?? "";

/** A two-page working journal with three sections and no explicit conventions. */
const AUDIT = [
  "# 2026-11-24",
  "",
  "## SEO audit",
  "",
  "Crawled the blog and the home page again this morning. The home page scored 38 on the content rubric and the blog 79, which is the widest gap since we started measuring in September, and the gap is growing rather than closing. Most of the lost points on the home page come from the hero section and the outdated customer logos, which nobody has touched since the spring redesign.",
  "",
  "Pages with a bounce rate above 70 percent barely convert, whatever their traffic, so the scoring framework matters less than the bounce rate when we pick pages to fix. I checked this against the last three months of analytics and it held for every section of the site, including the docs.",
  "",
  "## Planning",
  "",
  "I need to pull the top ten pages by traffic and bounce rate before Thursday's sync with the editor, with last month's numbers next to this month's. The export from the analytics tool is slow, so it is worth starting it tonight and letting it run.",
  "",
  "We agreed to audit the home page before the blog, because it carries most of the sign-up traffic and the blog can wait two weeks. The blog audit will reuse the same rubric, so nothing is lost by waiting.",
  "",
  "## Team",
  "",
  "The editor keeps publishing without checking any metrics; a short checklist at review time would catch most of the weak pages before they go live. Three of the five posts published this week would have failed it on the first item alone.",
  "",
  "Not sure whether Ming can share last quarter's churn numbers by segment; I should ask before the sync so the audit can use them.",
  "",
  "The new writer starts on Monday and will need access to the analytics dashboard, the rubric and last quarter's audit notes.",
].join("\n");

const TASK = {
  category: "task",
  text: "Pull the top ten pages by traffic and bounce rate",
  evidence:
    "I need to pull the top ten pages by traffic and bounce rate before Thursday's sync with the editor",
  confidence: 0.9,
};
const MISSING = [
  {
    category: "knowledge",
    text: "Pages with a bounce rate above 70% barely convert",
    evidence: "Pages with a bounce rate above 70 percent barely convert, whatever their traffic",
    topic: "SEO audit",
  },
  {
    category: "decision",
    text: "Audit the home page before the blog",
    evidence: "We agreed to audit the home page before the blog",
    topic: "SEO audit",
  },
  {
    category: "improvement",
    text: "Add a metrics checklist at review time",
    evidence: "a short checklist at review time would catch most of the weak pages",
    target: "editor",
  },
  {
    category: "question",
    text: "Can Ming share last quarter's churn numbers by segment?",
    evidence: "Not sure whether Ming can share last quarter's churn numbers by segment",
    target: "ming",
  },
];

describe("LLM extractor", () => {
  it("a thin first answer: the gate rescans, names its reasons and the items found, and merges the second answer", async () => {
    const s = await stub();
    s.enqueue({ items: [TASK] }, { items: [TASK, ...MISSING] });
    const result = await extractor(s).extract(inputOf(AUDIT));

    expect(result.passes).toBe(2);
    expect(result.usage.calls).toBe(2);
    expect(result.gate).toMatchObject({
      before: 1,
      after: 5,
      categoriesBefore: 1,
      categoriesAfter: 5,
    });
    expect(result.gate?.fired).toEqual(
      expect.arrayContaining(["rich-without-knowledge", "single-category", "below-band"]),
    );
    expect(result.items.map((i) => i.category)).toEqual([
      "knowledge",
      "task",
      "decision",
      "improvement",
      "question",
    ]);
    expect(result.items.every((i) => i.origin === "llm")).toBe(true);

    const rescan = s.chatRequests()[1];
    const assistant = rescan?.messages.find((m) => m.role === "assistant")?.content ?? "";
    expect(assistant).toContain(TASK.text);
    const ask = rescan?.messages.at(-1)?.content ?? "";
    expect(ask).toContain("no knowledge item");
    expect(ask).toContain("every item found is a task");
    expect(ask).toContain("return ONLY the items that are missing");
  });

  it("gives each item the block its evidence comes from", async () => {
    const s = await stub();
    s.enqueue({ items: [TASK, ...MISSING] });
    const input = inputOf(AUDIT);
    const result = await extractor(s).extract(input);
    for (const item of result.items) {
      expect(input.blocks[item.blockIndex]?.text).toContain(item.evidence.slice(0, 30));
      expect(item.blockId).toBeNull();
    }
  });

  it("a retrospective (复盘) with no decision is rescanned; a Chinese journal gives Chinese items", async () => {
    const retro = [
      "# 11 月续费季复盘",
      "",
      "## 结果",
      "",
      "A 类 18 家里 14 家已续费，2 家降级，1 家明确流失。",
      "",
      "## 做得好的",
      "",
      "提前 45 天提醒是这次最大的变化，客户正好赶上明年的预算。",
      "",
      "## 下一步",
      "",
      "以后每批续费提醒发出前一周先核对一次联系人，这一条就这么定了。",
      "",
      "周五前把这次复盘的数据发给销售负责人。",
    ].join("\n");
    const s = await stub();
    s.enqueue(
      {
        items: [
          {
            category: "knowledge",
            text: "提前 45 天提醒能赶上客户的预算周期",
            evidence: "提前 45 天提醒是这次最大的变化，客户正好赶上明年的预算。",
          },
          {
            category: "task",
            text: "把复盘数据发给销售负责人",
            evidence: "周五前把这次复盘的数据发给销售负责人",
          },
        ],
      },
      {
        items: [
          {
            category: "decision",
            text: "续费提醒发出前一周先核对联系人",
            evidence: "以后每批续费提醒发出前一周先核对一次联系人",
          },
        ],
      },
    );
    const result = await extractor(s).extract(inputOf(retro, "2026-11-26"));

    expect(result.gate?.fired).toContain("review-without-decision");
    expect(result.passes).toBe(2);
    expect(result.items.map((i) => i.category).sort()).toEqual(["decision", "knowledge", "task"]);
    expect(result.items.every((i) => /[\u4e00-\u9fff]/.test(i.text))).toBe(true);

    const first = s.chatRequests()[0];
    const system = first?.messages[0]?.content ?? "";
    expect(system).toContain("最终决定先做移动端，网页版推迟到下个月。");
    expect(system).toContain("in the same language as the journal");
    expect(userText(first)).toContain(
      'The journal is written in Chinese: write every "text" in Chinese',
    );
    expect(s.chatRequests()[1]?.messages.at(-1)?.content).toContain("11 月续费季复盘");
  });

  it("case 08: reads a reply wrapped in prose and a fence", async () => {
    const body = "Met the team.\n\nI will send the draft to Person A tomorrow morning.";
    const s = await stub();
    s.enqueue({
      content: [
        "Here you go:",
        "```json",
        '{"items":[{"category":"task","text":"Send the draft to Person A","evidence":"send the draft to Person A"}]}',
        "```",
        "One task found.",
      ].join("\n"),
    });
    const result = await extractor(s).extract(inputOf(body));
    expect(result.items).toHaveLength(1);
    expect(result.items[0]).toMatchObject({
      category: "task",
      text: "Send the draft to Person A",
      blockIndex: 1,
    });
  });

  it("case 09 (a): unwraps the one-element array, reads Task as task, drops and reports only the idea item", async () => {
    const body = "Busy day.\n\nMust book the dentist this week.";
    const s = await stub();
    s.enqueue({
      content:
        '[{"items":[{"category":"Task","text":"Book the dentist","evidence":"book the dentist"},{"category":"idea","text":"x","evidence":"Busy day"}]}]',
    });
    const result = await extractor(s).extract(inputOf(body));
    expect(result.items.map((i) => [i.category, i.text])).toEqual([["task", "Book the dentist"]]);
    expect(result.rejected).toHaveLength(1);
    expect(result.rejected[0]?.reason).toContain('category "idea"');
  });

  it("case 09 (b): a reply cut off by the output limit is never used; the window is split and asked again", async () => {
    const s = await stub();
    s.enqueue(
      // Parseable on purpose: even a list that looks complete is dropped when finish_reason is "length".
      {
        items: [
          { category: "task", text: "PARTIAL", evidence: "I need to pull the top ten pages" },
        ],
        finishReason: "length",
      },
      { items: [MISSING[0]] },
      { items: [TASK] },
    );
    const result = await extractor(s, {
      settings: settingsWith({ gate: { enabled: false } }),
    }).extract(inputOf(AUDIT));
    expect(s.chatRequests()).toHaveLength(3);
    const halves = s.chatRequests().slice(1).map(journalOf);
    expect(halves[0]).toContain("## SEO audit");
    expect(halves[0]).not.toContain("## Team");
    expect(halves[1]).toContain("## Team");
    expect(result.items.map((i) => i.text)).toEqual([MISSING[0]?.text, TASK.text]);
    expect(result.items.some((i) => i.text === "PARTIAL")).toBe(false);
    expect(result.notes.join(" ")).toContain("split in two");
  });

  it("case 09 (b): when the halves are cut off too, it fails clearly and returns nothing", async () => {
    const s = await stub();
    s.enqueue(
      { content: '{"items":[{"cat', finishReason: "length" },
      { content: '{"items":[', finishReason: "length" },
    );
    const err = await failure(extractor(s).extract(inputOf(AUDIT)));
    expect(err.message).toContain('finish_reason "length"');
    expect(err.message).toContain("nothing was saved");
    expect(err.message).toContain(s.baseUrl);
  });

  it("retries a 429 and then succeeds", async () => {
    const s = await stub();
    s.enqueue(
      { status: 429, body: { error: { message: "slow down" } } },
      { items: [TASK, ...MISSING] },
    );
    const result = await extractor(s).extract(inputOf(AUDIT));
    expect(result.items).toHaveLength(5);
    expect(s.chatRequests()).toHaveLength(2);
    expect(result.usage.calls).toBe(1);
  });

  it("a hung server times out with an LlmError naming the server (the pipeline then writes nothing)", async () => {
    const s = await stub();
    s.enqueue({ hang: true });
    const err = await failure(
      extractor(s, { settings: settingsWith({ llm: { timeoutMs: 200, maxRetries: 0 } }) }).extract(
        inputOf(AUDIT),
      ),
    );
    expect(err.message).toMatch(
      /^chat completion at http:\/\/127\.0\.0\.1:\d+\/v1 timed out after 200 ms after 1 attempt; check that the server is running/,
    );
  });

  it("never puts the key in an error, even when the server echoes it", async () => {
    const s = await stub();
    s.enqueue({
      status: 401,
      body: {
        error: { message: `Incorrect API key provided: ${KEY}. Authorization: Bearer ${KEY}` },
      },
    });
    const err = await failure(extractor(s).extract(inputOf(AUDIT)));
    expect(err.message).toContain("check the API key");
    expect(`${err.message} ${err.stack ?? ""} ${JSON.stringify(err)}`).not.toContain(KEY);
    expect(s.chatRequests()[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it("rejects an invented quote as unsupported and shows its evidence", async () => {
    const s = await stub();
    const invented = {
      category: "knowledge",
      text: "The pricing page converts at 4%",
      evidence: "the pricing page converts at 4 percent",
    };
    s.enqueue({ items: [TASK, ...MISSING, invented] });
    const result = await extractor(s).extract(inputOf(AUDIT));
    expect(result.items.map((i) => i.text)).not.toContain(invented.text);
    expect(result.rejected).toEqual([
      {
        reason: "evidence not found in the journal (unsupported)",
        category: "knowledge",
        text: invented.text,
        evidence: invented.evidence,
      },
    ]);
  });

  it("filters the prompt's examples when the model echoes them, unless the journal really says it", async () => {
    const example = PROMPT_EXAMPLES.find((e) => e.category === "decision" && /weekly/.test(e.text));
    expect(example).toBeDefined();
    if (!example) return;
    const echo = { category: example.category, text: example.text, evidence: example.evidence };
    const definition = {
      category: "task",
      text: "Something to be done soon",
      evidence: "I need to pull the top ten pages",
    };

    const s = await stub();
    s.enqueue({ items: [TASK, ...MISSING, echo, definition] });
    const result = await extractor(s).extract(inputOf(AUDIT));
    expect(result.items.map((i) => i.text)).not.toContain(example.text);
    expect(result.items.map((i) => i.text)).not.toContain(definition.text);
    expect(result.rejected.map((r) => r.reason)).toEqual([
      "copied from the prompt's examples or instructions, not from the journal",
      "copied from the prompt's examples or instructions, not from the journal",
    ]);

    s.enqueue({ items: [echo] });
    const own = await extractor(s, {
      settings: settingsWith({ gate: { enabled: false } }),
    }).extract(inputOf(`Release planning.\n\n${example.evidence}`));
    expect(own.items.map((i) => i.text)).toEqual([example.text]);
  });

  it("processes a 1 MB journal in windows and merges the items of all windows", async () => {
    const paragraphs: string[] = [];
    for (let i = 0, size = 0; size < 1_000_000; i++) {
      if (i % 50 === 0) paragraphs.push(`## Day ${i / 50}`);
      paragraphs.push(
        `Note ${i}: crawled ${i % 89} pages and found ${i % 7} broken links in section ${i % 11} of the blog.`,
      );
      size += (paragraphs.at(-1)?.length ?? 0) + 2;
    }
    const body = paragraphs.join("\n\n");
    const s = await stub({
      // One task per window, quoting the window's first note; the same item again from every window.
      fallback: (req) => {
        const first = /Note \d+: crawled \d+ pages/.exec(journalOf(req))?.[0] ?? "none";
        return {
          items: [
            { category: "task", text: `Check ${first}`, evidence: first },
            {
              category: "knowledge",
              text: "The blog has broken links",
              evidence: "broken links in section",
            },
          ],
        };
      },
    });
    const settings = settingsWith({ llm: { windowTokens: 20_000 }, gate: { enabled: false } });
    const result = await extractor(s, { settings }).extract(inputOf(body));
    const calls = s.chatRequests();
    expect(calls.length).toBeGreaterThan(10);
    expect(result.usage.calls).toBe(calls.length);
    for (const r of calls) expect(journalOf(r).length).toBeLessThan(20_000 * 4 + 100);
    expect(result.items.filter((i) => i.category === "task")).toHaveLength(calls.length);
    expect(result.items.filter((i) => i.category === "knowledge")).toHaveLength(1);
    expect(result.notes.join(" ")).toContain(`${calls.length} windows`);
  });

  it("rescans only the windows the self-check points at", async () => {
    const filler = (topic: string) =>
      Array.from(
        { length: 8 },
        (_, i) =>
          `${topic} note ${i}: the numbers moved a little today and nothing needs doing about it yet, but keep watching.`,
      );
    const body = [
      "## Crawl",
      "",
      ...filler("Crawl").join("\n\n").split("\n"),
      "",
      "## Churn",
      "",
      ...filler("Churn").join("\n\n").split("\n"),
    ].join("\n");
    const s = await stub({
      fallback: (req) => {
        const text = journalOf(req);
        const isRescan = req.messages.some((m) => m.role === "assistant");
        if (text.includes("## Crawl") && !isRescan) {
          return {
            items: [
              {
                category: "knowledge",
                text: "Crawl numbers are stable",
                evidence: "Crawl note 0: the numbers moved a little today",
              },
            ],
          };
        }
        if (text.includes("## Churn") && isRescan) {
          return {
            items: [
              {
                category: "task",
                text: "Keep watching churn",
                evidence: "Churn note 5: the numbers moved a little today",
              },
            ],
          };
        }
        return { items: [] };
      },
    });
    const settings = settingsWith({ llm: { windowTokens: 240 } });
    const result = await extractor(s, { settings }).extract(inputOf(body));
    const calls = s.chatRequests();
    expect(calls).toHaveLength(3);
    expect(journalOf(calls[2] as RecordedRequest)).toContain("## Churn");
    expect(result.gate?.fired).toEqual(["below-band"]);
    expect(result.items.map((i) => i.text)).toEqual([
      "Crawl numbers are stable",
      "Keep watching churn",
    ]);
  });

  it("asks the model to merge when the count is far above the band", async () => {
    const lines = Array.from(
      { length: 14 },
      (_, i) => `- Fix broken link number ${i + 1} on the pricing page.`,
    );
    const body = ["Link check.", "", ...lines].join("\n");
    const many = lines.map((l, i) => ({
      category: "task",
      text: `Fix broken link ${i + 1} on pricing page`,
      evidence: l.slice(2),
    }));
    const s = await stub();
    s.enqueue(
      { items: many },
      {
        items: [
          {
            category: "task",
            text: "Fix the 14 broken links on the pricing page",
            evidence: lines[0]?.slice(2),
          },
        ],
      },
    );
    const result = await extractor(s).extract(inputOf(body));
    expect(result.gate?.fired).toContain("above-band");
    expect(result.gate).toMatchObject({ before: 14, after: 1 });
    expect(s.chatRequests()[1]?.messages.at(-1)?.content).toContain("too many items");
    expect(result.notes).toContain("merge request: 14 items merged into 1");
  });

  it("honours the offline extractor's explicit conventions whatever the model returns", async () => {
    const body = "## Releases\n\nDecision: ship weekly from December\n\nThe team liked the demo.";
    const blocks = splitBlocks(body);
    const convention: ExtractedItem = {
      category: "decision",
      text: "ship weekly from December",
      evidence: "Decision: ship weekly from December",
      blockId: null,
      blockIndex: blocks.findIndex((b) => b.text.startsWith("Decision")),
      confidence: 0.9,
      origin: "offline",
    };
    const offline: Extractor = {
      name: "offline",
      extract: () =>
        Promise.resolve({
          items: [convention],
          rejected: [],
          passes: 1,
          usage: { calls: 0, promptTokens: 0, completionTokens: 0, wallMs: 0 },
          notes: [],
        }),
    };
    const s = await stub();
    s.enqueue(
      {
        items: [
          {
            category: "decision",
            text: "Ship weekly starting in December",
            evidence: "ship weekly from December",
            topic: "Releases",
          },
          {
            category: "knowledge",
            text: "The team liked the demo",
            evidence: "The team liked the demo.",
          },
        ],
      },
      { items: [] },
    );
    const result = await extractor(s, {
      offline,
      settings: settingsWith({ gate: { enabled: false } }),
    }).extract(inputOf(body));
    expect(result.items.map((i) => [i.origin, i.category, i.text])).toEqual([
      ["offline", "decision", "ship weekly from December"],
      ["llm", "knowledge", "The team liked the demo"],
    ]);
    expect(result.items[0]?.topic).toBe("Releases");

    s.enqueue({ items: [] });
    const silent = await extractor(s, {
      offline,
      settings: settingsWith({ gate: { enabled: false } }),
    }).extract(inputOf(body));
    expect(silent.items.map((i) => i.text)).toEqual(["ship weekly from December"]);
  });

  it("reports calls, tokens and cost from the prices", async () => {
    const s = await stub();
    s.enqueue({
      items: [TASK, ...MISSING],
      usage: { prompt_tokens: 2000, completion_tokens: 500 },
    });
    const settings = settingsWith({ llm: { pricePromptPerM: 0.15, priceCompletionPerM: 0.6 } });
    const result = await extractor(s, { settings }).extract(inputOf(AUDIT));
    expect(result.usage).toMatchObject({
      calls: 1,
      promptTokens: 2000,
      completionTokens: 500,
      costUsd: 0.0006,
    });
    expect(result.usage.wallMs).toBeGreaterThanOrEqual(0);
  });

  it("does not rescan when rescans are set to 0, and tells which checks fired", async () => {
    const s = await stub();
    s.enqueue({ items: [TASK] });
    const result = await extractor(s, {
      settings: settingsWith({ gate: { maxRescans: 0 } }),
    }).extract(inputOf(AUDIT));
    expect(result.passes).toBe(1);
    expect(s.chatRequests()).toHaveLength(1);
    expect(result.gate?.fired.length).toBeGreaterThan(0);
    expect(result.gate).toMatchObject({ before: 1, after: 1 });
  });

  it("falls back to plain JSON when the server rejects response_format, and says so", async () => {
    const s = await stub({ rejectResponseFormats: ["json_schema", "json_object"] });
    s.enqueue({ items: [TASK, ...MISSING] });
    const result = await extractor(s).extract(inputOf(AUDIT));
    expect(result.items).toHaveLength(5);
    expect(result.notes.join(" ")).toContain("rejected response_format json_schema");
  });

  it("keeps a ref only when it names an open item", async () => {
    const body =
      "## Content quality\n\nAll 50 top pages scored; 38 pass and 12 went back to their writers.";
    const s = await stub();
    s.enqueue({
      items: [
        {
          category: "goal",
          text: "All 50 top pages scored",
          evidence: "All 50 top pages scored",
          ref: "g-006",
          progress: true,
        },
        {
          category: "goal",
          text: "38 pages pass",
          evidence: "38 pass and 12 went back",
          ref: "g-999",
        },
      ],
    });
    const result = await extractor(s, {
      settings: settingsWith({ gate: { enabled: false } }),
    }).extract(inputOf(body));
    expect(result.items.map((i) => [i.ref, i.progress])).toEqual([
      ["g-006", true],
      [undefined, undefined],
    ]);
  });

  it("asks once more when a reply holds no JSON, then fails clearly", async () => {
    const s = await stub();
    s.enqueue({ content: "Sorry, I cannot help with that." }, { content: "Still no." });
    const err = await failure(extractor(s).extract(inputOf(AUDIT)));
    expect(s.chatRequests()).toHaveLength(2);
    expect(err.message).toContain("could not be read");
  });
  it("a cancelled run stops the pending chat completion with an LlmError", async () => {
    const s = await stub();
    s.enqueue({ hang: true });
    const controller = new AbortController();
    const pending = extractor(s).extract({ ...inputOf(AUDIT), signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    const err = await failure(pending);
    expect(err.message).toContain("was cancelled");
  });

  it("says which setting is missing when no model is named, before any request", async () => {
    const s = await stub();
    const noModel = new LlmExtractor({
      settings: settingsWith(),
      apiKey: KEY,
      baseUrl: s.baseUrl,
      model: " ",
    });
    const err = await failure(noModel.extract(inputOf(AUDIT)));
    expect(err.message).toContain("no model name set");
    expect(s.requests).toHaveLength(0);
  });

  it("makes no call for an empty journal and still returns the explicit conventions", async () => {
    const s = await stub();
    const result = await extractor(s).extract(inputOf("\n\n"));
    expect(s.requests).toHaveLength(0);
    expect(result).toMatchObject({ items: [], passes: 0, usage: { calls: 0 } });
  });
});
