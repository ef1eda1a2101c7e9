import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  findDuplicate,
  sameItemText,
  similarity,
  valuesOf,
} from "../../../src/core/extraction/dedupe";

describe("dedupe similarity", () => {
  it("matches rewordings in English and Chinese", () => {
    expect(similarity("Renew passport", "renew the passport")).toBeGreaterThanOrEqual(0.75);
    expect(similarity("整理客户流失原因", "整理一下客户流失原因")).toBeGreaterThanOrEqual(0.75);
    expect(
      similarity(
        "Fix the broken canonical tags on the /pricing pages",
        "fix broken canonical tags on the pricing pages",
      ),
    ).toBeGreaterThanOrEqual(0.75);
    expect(similarity("Send the draft to Person A.", "send the draft to person a")).toBe(1);
  });

  it("keeps different items apart (case 11: distinct CJK keys)", () => {
    expect(similarity("睡眠质量", "早起习惯")).toBe(0);
    expect(similarity("Renew passport", "Renew driving licence")).toBeLessThan(0.75);
    expect(similarity("Task number 50", "Task number 100")).toBe(0);
    expect(
      similarity("Update the README for version 2.1", "Update the README for version 2.2"),
    ).toBe(0);
    expect(similarity("Pay the invoice", "Pay invoice for March")).toBeLessThan(0.75);
    expect(similarity("Pay invoice for March", "Pay invoice for April")).toBeLessThan(0.75);
    expect(findDuplicate("Book the dentist", ["Renew passport", "Book dentist"], (s) => s)).toBe(1);
    expect(findDuplicate("Book the dentist", ["Renew passport"], (s) => s)).toBe(-1);
  });

  it("the same item from a similarity of 0.75 on, not below (mutant 0.75 → 0.6, docs/testing.md)", () => {
    // 3 of 4 words shared: exactly 0.75, the same item.
    expect(similarity("Review landing page copy", "review the landing page")).toBe(0.75);
    expect(sameItemText("Review landing page copy", "review the landing page")).toBe(true);
    expect(
      findDuplicate(
        "Review landing page copy",
        ["Renew passport", "review the landing page"],
        (s) => s,
      ),
    ).toBe(1);
    // 5 of 7 (0.71) and 2 of 3 (0.67): a content word differs, two items.
    expect(
      similarity("draft audit plan homepage blog posts", "draft audit plan homepage blog pages"),
    ).toBeCloseTo(5 / 7);
    expect(
      sameItemText("draft audit plan homepage blog posts", "draft audit plan homepage blog pages"),
    ).toBe(false);
    expect(similarity("Pay the invoice", "Pay invoice for March")).toBeCloseTo(2 / 3);
    expect(sameItemText("Pay the invoice", "Pay invoice for March")).toBe(false);
    expect(findDuplicate("Pay the invoice", ["Pay invoice for March"], (s) => s)).toBe(-1);
  });
});

describe("dedupe keeps polarity, values and their order (docs/contradictions.md)", () => {
  it("a negation makes another item, in English and Chinese", () => {
    expect(
      sameItemText(
        "Decision: we will deploy on Fridays",
        "Decision: we will not deploy on Fridays",
      ),
    ).toBe(false);
    expect(sameItemText("we deploy on Fridays", "we don't deploy on Fridays")).toBe(false);
    expect(sameItemText("我们周五部署", "我们周五不部署")).toBe(false);
    expect(sameItemText("我们周五部署", "我们周五没部署")).toBe(false);
    // The same polarity reworded stays the same item.
    expect(sameItemText("we will not deploy on Fridays", "We will not deploy on Fridays.")).toBe(
      true,
    );
    // 特别 ("special") is not a negation.
    expect(sameItemText("整理特别客户流失原因", "整理一下特别客户流失原因")).toBe(true);
  });

  it("the order of weekdays and numbers matters, in English and Chinese", () => {
    expect(
      similarity(
        "move the standup from Monday to Friday",
        "move the standup from Friday to Monday",
      ),
    ).toBe(0);
    expect(similarity("把站会从周一改到周五", "把站会从周五改到周一")).toBe(0);
    expect(
      similarity("refund customer 1200 for order 3400", "refund customer 3400 for order 1200"),
    ).toBe(0);
    expect(similarity("给客户 1200 退订单 3400 的款", "给客户 3400 退订单 1200 的款")).toBe(0);
    expect(
      similarity(
        "move the standup from Monday to Friday",
        "move the standup from Monday to Friday.",
      ),
    ).toBe(1);
    expect(valuesOf("把站会从星期一改到周五").names).toBe("周一 周五");
    expect(valuesOf("把站会从周一改到礼拜五").names).toBe("周一 周五");
    expect(valuesOf("Move the sync from Mondays to Fri").names).toBe("mon fri");
  });

  it("another number or date makes another item, in English and Chinese", () => {
    expect(similarity("API rate limit is 100 per second", "API rate limit is 200 per second")).toBe(
      0,
    );
    expect(similarity("API 速率限制为每秒 100 次", "API 速率限制为每秒 200 次")).toBe(0);
    expect(similarity("release on 2026-03-05", "release on 2026-05-03")).toBe(0);
  });
});

describe("dedupe never merges texts that differ in a number, a negation or the order of two numbers (property)", () => {
  const word = fc.constantFrom(
    "deploy",
    "review",
    "invoice",
    "customer",
    "order",
    "limit",
    "report",
    "server",
    "budget",
    "standup",
    "部署",
    "客户",
    "订单",
    "预算",
  );
  const words = fc.array(word, { minLength: 1, maxLength: 6 });
  const num = fc.integer({ min: 0, max: 99_999 });

  it("a number added, changed, or two numbers swapped", () => {
    fc.assert(
      fc.property(words, num, num, words, (head, a, b, tail) => {
        const base = `${head.join(" ")} ${a} ${tail.join(" ")}`;
        expect(sameItemText(base, `${head.join(" ")} ${tail.join(" ")}`)).toBe(false);
        if (a !== b)
          expect(sameItemText(base, `${head.join(" ")} ${b} ${tail.join(" ")}`)).toBe(false);
        const two = `${head.join(" ")} ${a} ${tail.join(" ")} ${b}`;
        if (a !== b)
          expect(sameItemText(two, `${head.join(" ")} ${b} ${tail.join(" ")} ${a}`)).toBe(false);
      }),
    );
  });

  it("a negation added", () => {
    const negation = fc.constantFrom(
      "not",
      "never",
      "no",
      "don't",
      "won't",
      "without",
      "不",
      "没",
      "别",
      "无",
      "未",
    );
    fc.assert(
      fc.property(words, negation, words, (head, neg, tail) => {
        const base = `${head.join(" ")} ${tail.join(" ")}`;
        expect(sameItemText(base, `${head.join(" ")} ${neg} ${tail.join(" ")}`)).toBe(false);
      }),
    );
  });
});

describe("dedupe: names in Chinese text", () => {
  it("two Chinese texts naming other things are two items, the same names reworded one", () => {
    expect(sameItemText("我们周五部署 alpha 服务", "我们周五部署 bravo 服务")).toBe(false);
    expect(sameItemText("整理一下 SEO 报告", "整理 seo 报告")).toBe(true);
  });
});

describe("dedupe: a mention is not a name", () => {
  it("the same Chinese question with and without @me is one item", () => {
    expect(
      sameItemText(
        "12 月的续费折扣上限能不能从 10% 提到 15%？",
        "@me 12 月的续费折扣上限能不能从 10% 提到 15%？",
      ),
    ).toBe(true);
  });
});
