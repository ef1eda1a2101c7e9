import { describe, expect, it } from "vitest";
import { splitBlocks } from "../../../src/core/journal/blocks";
import { defaultSettings } from "../../../src/core/settings";
import {
  countSections,
  expectedBand,
  gateLength,
  headingTexts,
  runGate,
  type GateInput,
} from "../../../src/core/extraction/gate";
import type { Category } from "../../../src/core/extraction/types";

const gate = defaultSettings().gate;
const items = (...cats: Category[]) => cats.map((category) => ({ category }));
const text = (chars: number) => "word ".repeat(Math.ceil(chars / 5)).slice(0, chars);
const input = (over: Partial<GateInput>): GateInput => ({
  title: "2026-11-24",
  text: text(400),
  headings: [],
  sections: 0,
  items: [],
  ...over,
});

describe("self-check gate", () => {
  it("measures length with whitespace runs collapsed and CJK characters counted double", () => {
    expect(gateLength("a  b\n\n c")).toBe(5);
    expect(gateLength("复盘 ok")).toBe(4 + 2 + 1);
  });

  it("expects about 5–16 items for two pages and none for a short note", () => {
    expect(expectedBand(4000, gate)).toEqual({ min: 5, max: 16 });
    expect(expectedBand(300, gate)).toEqual({ min: 0, max: 2 });
  });

  it("fires nothing on a short note with a fitting item", () => {
    const out = runGate(input({ items: items("task") }), gate);
    expect(out.fired).toEqual([]);
    expect(out.action).toBe("none");
  });

  it("rich document with no knowledge item", () => {
    const rich = input({ text: text(2000), items: items("task", "task", "decision") });
    expect(runGate(rich, gate).fired).toEqual(["rich-without-knowledge"]);
    expect(runGate({ ...rich, items: items("task", "knowledge", "decision") }, gate).fired).toEqual(
      [],
    );
    expect(runGate({ ...rich, text: text(1000) }, gate).fired).toEqual([]);
  });

  it("review or retrospective with no decision, from the title or a heading, in English and Chinese", () => {
    for (const over of [
      { title: "Weekly retro" },
      { headings: ["11 月续费季复盘"] },
      { headings: ["回顾"] },
      { headings: ["Review of Q3"] },
    ]) {
      const out = runGate(input({ ...over, items: items("task", "knowledge") }), gate);
      expect(out.fired).toEqual(["review-without-decision"]);
      expect(out.checks.find((c) => c.name === "review-without-decision")?.reason).toContain(
        "no decision",
      );
    }
    expect(runGate(input({ title: "Weekly retro", items: items("decision") }), gate).fired).toEqual(
      [],
    );
    expect(runGate(input({ headings: ["Reviewers"], items: items("task") }), gate).fired).toEqual(
      [],
    );
  });

  it("three or more sections whose items all fall in one category", () => {
    const spread = input({ sections: 3, items: items("task", "task") });
    expect(runGate(spread, gate).fired).toEqual(["single-category"]);
    expect(runGate({ ...spread, sections: 2 }, gate).fired).toEqual([]);
    expect(runGate({ ...spread, items: items("task", "goal") }, gate).fired).toEqual([]);
    expect(runGate({ ...spread, items: [] }, gate).fired).toEqual([]);
  });

  it("count below the band for the length", () => {
    const out = runGate(input({ text: text(1100), items: [] }), gate);
    expect(out.fired).toEqual(["below-band"]);
    expect(out.action).toBe("rescan");
    expect(out.checks.find((c) => c.name === "below-band")?.reason).toMatch(
      /only 0 items found; .* about 1–5/,
    );
  });

  it("asks for a merge, not a rescan, when the count is far above the band", () => {
    const many = Array.from({ length: 14 }, () => "task" as const);
    const out = runGate(input({ text: text(1000), sections: 3, items: items(...many) }), gate);
    expect(out.fired).toContain("above-band");
    expect(out.action).toBe("merge");
    // A short note with a dozen items is not asked to merge below MERGE_MIN_ITEMS.
    expect(
      runGate(
        input({ text: text(300), items: items("task", "task", "task", "task", "task") }),
        gate,
      ).action,
    ).toBe("none");
  });

  it("a document is rich from exactly richDocChars on (mutant `>=` → `>`, docs/testing.md)", () => {
    // One long word has no whitespace to collapse, so its gate length is its character count.
    const rich = (length: number) => input({ text: "a".repeat(length), items: items("task") });
    expect(gate.richDocChars).toBe(1200);
    expect(runGate(rich(1200), gate).fired).toContain("rich-without-knowledge");
    expect(runGate(rich(1199), gate).fired).not.toContain("rich-without-knowledge");
    // CJK characters count double: 600 of them are 1,200.
    expect(runGate(input({ text: "复".repeat(600), items: items("task") }), gate).fired).toContain(
      "rich-without-knowledge",
    );
    expect(
      runGate(input({ text: "复".repeat(599), items: items("task") }), gate).fired,
    ).not.toContain("rich-without-knowledge");
  });

  it("asks for a merge only above mergeFactor times the band (mutant: merge factor ignored, docs/testing.md)", () => {
    // 3,000 characters: band 3–12, so with the default factor 2 a merge needs more than 24 items.
    const doc = (count: number) =>
      input({
        text: "a".repeat(3000),
        items: items(...Array.from({ length: count }, () => "task" as const)),
      });
    expect(expectedBand(3000, gate)).toEqual({ min: 3, max: 12 });
    expect(gate.mergeFactor).toBe(2);
    expect(runGate(doc(24), gate).fired).not.toContain("above-band");
    expect(runGate(doc(20), gate).action).not.toBe("merge");
    expect(runGate(doc(25), gate).fired).toContain("above-band");
    expect(runGate(doc(25), gate).action).toBe("merge");
    // The factor is read from settings: at 1, 13 items (above MERGE_MIN_ITEMS) are already too many; at 3, 30 are not.
    expect(runGate(doc(13), { ...gate, mergeFactor: 1 }).action).toBe("merge");
    expect(runGate(doc(12), { ...gate, mergeFactor: 1 }).action).not.toBe("merge");
    expect(runGate(doc(30), { ...gate, mergeFactor: 3 }).action).not.toBe("merge");
    expect(runGate(doc(37), { ...gate, mergeFactor: 3 }).action).toBe("merge");
  });

  it("reads its thresholds from settings and fires nothing when disabled", () => {
    const thin = input({ text: text(2000), sections: 3, items: items("task") });
    expect(runGate(thin, gate).fired).toEqual([
      "rich-without-knowledge",
      "single-category",
      "below-band",
    ]);
    expect(
      runGate(thin, {
        ...gate,
        richDocChars: 5000,
        minSectionsForSpread: 4,
        minItemsPer1000Chars: 0,
      }).fired,
    ).toEqual([]);
    expect(runGate(thin, { ...gate, enabled: false })).toMatchObject({ fired: [], action: "none" });
  });

  it("counts sections from headings, not counting a lone title heading", () => {
    const blocks = splitBlocks(
      ["# 2026-11-24", "", "## A", "", "x", "", "## B", "", "y", "", "### C", "", "z"].join("\n"),
    );
    expect(headingTexts(blocks)).toEqual(["2026-11-24", "A", "B", "C"]);
    expect(countSections(blocks)).toBe(3);
    expect(countSections(splitBlocks("# One\n\ntext\n\n# Two\n\nmore"))).toBe(2);
  });
});
