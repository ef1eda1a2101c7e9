import { describe, expect, it } from "vitest";
import {
  mergeModelItems,
  mergeWithConventions,
  sameText,
  textSimilarity,
} from "../../../src/core/extraction/merge";
import type { Category, ExtractedItem } from "../../../src/core/extraction/types";

const item = (
  category: Category,
  text: string,
  evidence: string,
  blockIndex = 0,
  origin: ExtractedItem["origin"] = "llm",
): ExtractedItem => ({
  category,
  text,
  evidence,
  blockId: null,
  blockIndex,
  confidence: 0.7,
  origin,
});

describe("merging items within a run", () => {
  it("treats rewordings as the same text, in English and Chinese, but not different numbers", () => {
    expect(
      sameText("Audit the home page before the blog", "Audit the home page before the blog."),
    ).toBe(true);
    expect(sameText("先做移动端，网页版推迟到下个月", "先做移动端,网页版推迟到下个月。")).toBe(
      true,
    );
    expect(
      sameText("Fix broken link 3 on the pricing page", "Fix broken link 4 on the pricing page"),
    ).toBe(false);
    expect(sameText("38 pages pass the rubric", "12 pages pass the rubric")).toBe(false);
    expect(textSimilarity("alpha", "omega")).toBeLessThan(0.5);
  });

  it("keeps distinct items from one block and drops repeats from a rescan", () => {
    const first = [
      item("knowledge", "Bounce rate matters more than the score", "bounce rate matters more"),
      item("task", "Pull the top ten pages", "pull the top ten pages"),
    ];
    const rescan = [
      item("task", "Pull the top ten pages.", "I need to pull the top ten pages"),
      item("decision", "Audit the home page first", "audit the home page before the blog"),
    ];
    const { merged, added } = mergeModelItems(first, rescan);
    expect(merged.map((i) => i.text)).toEqual([
      "Bounce rate matters more than the score",
      "Pull the top ten pages",
      "Audit the home page first",
    ]);
    expect(added.map((i) => i.category)).toEqual(["decision"]);
  });

  it("keeps every convention, drops the model's restatement of one and borrows its topic", () => {
    const convention = item(
      "decision",
      "ship weekly from December",
      "Decision: ship weekly from December",
      2,
      "offline",
    );
    const restated = {
      ...item(
        "decision",
        "Releases become weekly starting in December",
        "ship weekly from December",
        2,
      ),
      topic: "Releases",
    };
    const other = item("decision", "Keep the changelog short", "Keep the changelog short", 2);
    const merged = mergeWithConventions([convention], [restated, other]);
    expect(merged.map((i) => [i.origin, i.text, i.topic])).toEqual([
      ["offline", "ship weekly from December", "Releases"],
      ["llm", "Keep the changelog short", undefined],
    ]);
    expect(convention.topic).toBeUndefined();
  });
});

describe("items the offline extractor inferred yield to the model's wording", () => {
  const base = {
    evidence: "We agreed to retire every post under 50 visits a month.",
    blockId: null,
    blockIndex: 2,
    confidence: 0.9,
  } as const;
  it("a phrasing item restated by the model is replaced in place; an explicit convention is kept", () => {
    const inferred: ExtractedItem = {
      ...base,
      category: "decision",
      text: "Retire every post under 50 visits a month",
      origin: "offline",
      cue: "phrasing",
    };
    const explicit: ExtractedItem = {
      ...base,
      category: "task",
      text: "Renew passport",
      evidence: "- [ ] Renew passport",
      blockIndex: 3,
      origin: "offline",
      owner: "Dana",
    };
    const model: ExtractedItem[] = [
      {
        ...base,
        category: "decision",
        text: "Retire posts under 50 visits a month",
        confidence: 0.8,
        origin: "llm",
      },
      {
        ...base,
        category: "task",
        text: "Renew the passport",
        evidence: "- [ ] Renew passport",
        blockIndex: 3,
        confidence: 0.8,
        origin: "llm",
      },
    ];
    const merged = mergeWithConventions([inferred, explicit], model);
    expect(merged.map((i) => [i.origin, i.text, i.owner])).toEqual([
      ["llm", "Retire posts under 50 visits a month", undefined],
      ["offline", "Renew passport", "Dana"],
    ]);
  });
});
