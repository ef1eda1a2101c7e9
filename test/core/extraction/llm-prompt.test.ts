import { describe, expect, it } from "vitest";
import {
  CATEGORY_DEFINITIONS,
  PROMPT_EXAMPLES,
  REPLY_JSON_SCHEMA,
  buildContext,
  buildJournalMessage,
  buildRescanMessages,
  buildSystemPrompt,
  journalLanguage,
} from "../../../src/core/extraction/prompt";
import { CATEGORIES, type ExtractedItem } from "../../../src/core/extraction/types";

const window = (text: string) => ({ text, blockStart: 0, blockEnd: 1, headings: [], tokens: 10 });
const context = { agent: "link", topics: ["SEO audit"], openItems: [], agents: ["ming"] };

describe("extraction prompt", () => {
  it("has a definition and an English and a Chinese example for each of the seven categories", () => {
    const system = buildSystemPrompt();
    for (const c of CATEGORIES) {
      expect(system).toContain(`- ${c}: ${CATEGORY_DEFINITIONS[c]}.`);
      const examples = PROMPT_EXAMPLES.filter((e) => e.category === c);
      expect(examples.some((e) => !/[\u4e00-\u9fff]/.test(e.evidence))).toBe(true);
      expect(examples.some((e) => /[\u4e00-\u9fff]/.test(e.evidence))).toBe(true);
      for (const e of examples) expect(system).toContain(e.evidence);
    }
    expect(system).toContain("verbatim quote");
    expect(system).toContain("Never return them");
  });

  it("asks for JSON whose schema names exactly the seven categories", () => {
    const items = (
      REPLY_JSON_SCHEMA.schema.properties as {
        items: { items: { properties: { category: { enum: string[] } } } };
      }
    ).items;
    expect(items.items.properties.category.enum).toEqual([...CATEGORIES]);
  });

  it("names the journal's language: Chinese, mixed, or none", () => {
    expect(journalLanguage("今天完成了认证系统的重构，使用JWT令牌。")).toEqual({
      name: "Chinese",
      mixed: false,
    });
    expect(
      journalLanguage(
        "Quiet Sunday. 两边都在推进，但节奏不一样。 Link writes daily, ming twice a week.",
      ),
    ).toEqual({ name: "Chinese", mixed: true });
    expect(
      journalLanguage(
        "Met 客户李四 about the renewal, the pricing page and the onboarding guide; we agreed to talk again next week.",
      ),
    ).toBeNull();
    expect(
      buildJournalMessage(window("今天决定先做移动端，网页版以后再说。"), {
        title: "t",
        path: "p",
        context,
        contextTokens: 100,
      }),
    ).toContain('The journal is written in Chinese: write every "text" in Chinese');
    expect(
      buildJournalMessage(window("Plain English notes."), {
        title: "t",
        path: "p",
        context,
        contextTokens: 100,
      }),
    ).toContain("in the journal's language");
  });

  it("gives topics and open items, goals and questions first, within the token budget", () => {
    const many = {
      agent: "link",
      agents: ["ming", "me"],
      topics: Array.from({ length: 200 }, (_, i) => `Topic number ${i}`),
      openItems: [
        { id: "t-001", kind: "task", text: "Old task" },
        { id: "g-006", kind: "goal", text: "Content quality scoring system" },
        { id: "q-002", kind: "question", text: "Churn reasons: free text or a list?" },
      ],
    };
    const text = buildContext(many, 200);
    expect(text.indexOf("g-006")).toBeLessThan(text.indexOf("q-002"));
    expect(text.indexOf("q-002")).toBeLessThan(text.indexOf("t-001"));
    expect(text).toContain("Topic number 0");
    expect(text).not.toContain("Topic number 199");
    expect(text).toMatch(/… and \d+ more not shown/);
    expect(text).toContain('Other agents (for "target"): ming, me');
  });

  it("builds a rescan that names the reasons and the items already found and asks only for what is missing", () => {
    const found: ExtractedItem = {
      category: "task",
      text: "Pull the top pages",
      evidence: "pull the top pages",
      blockId: null,
      blockIndex: 0,
      confidence: 0.9,
      origin: "llm",
    };
    const messages = buildRescanMessages(
      "<journal>…</journal>",
      [found],
      ["no knowledge item was found"],
    );
    expect(messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(messages[2]?.content).toContain('"text":"Pull the top pages"');
    expect(messages[3]?.content).toContain("- no knowledge item was found");
    expect(messages[3]?.content).toContain("return ONLY the items that are missing");
  });
});
