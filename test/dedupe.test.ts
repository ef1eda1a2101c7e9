import { describe, expect, it } from "vitest";
import { findDuplicate, sameItemText, similarity } from "../src/core/extraction/dedupe";

describe("dedupe similarity", () => {
  it("matches rewordings in English and Chinese", () => {
    expect(similarity("Renew passport", "renew the passport")).toBeGreaterThanOrEqual(0.75);
    expect(similarity("整理客户流失原因", "整理一下客户流失原因")).toBeGreaterThanOrEqual(0.75);
    expect(similarity("Fix the broken canonical tags on the /pricing pages", "fix broken canonical tags on the pricing pages")).toBeGreaterThanOrEqual(0.75);
    expect(similarity("Send the draft to Person A.", "send the draft to person a")).toBe(1);
  });

  it("keeps different items apart (case 11: distinct CJK keys)", () => {
    expect(similarity("睡眠质量", "早起习惯")).toBe(0);
    expect(similarity("Renew passport", "Renew driving licence")).toBeLessThan(0.75);
    expect(similarity("Task number 50", "Task number 100")).toBe(0);
    expect(similarity("Update the README for version 2.1", "Update the README for version 2.2")).toBe(0);
    expect(similarity("Pay the invoice", "Pay invoice for March")).toBeLessThan(0.75);
    expect(similarity("Pay invoice for March", "Pay invoice for April")).toBeLessThan(0.75);
    expect(findDuplicate("Book the dentist", ["Renew passport", "Book dentist"], (s) => s)).toBe(1);
    expect(findDuplicate("Book the dentist", ["Renew passport"], (s) => s)).toBe(-1);
  });

  it("the same item from a similarity of 0.75 on, not below (mutant 0.75 → 0.6, docs/testing.md)", () => {
    // 3 of 4 words shared: exactly 0.75, the same item.
    expect(similarity("Review landing page copy", "review the landing page")).toBe(0.75);
    expect(sameItemText("Review landing page copy", "review the landing page")).toBe(true);
    expect(findDuplicate("Review landing page copy", ["Renew passport", "review the landing page"], (s) => s)).toBe(1);
    // 5 of 7 (0.71) and 2 of 3 (0.67): a content word differs, two items.
    expect(similarity("draft audit plan homepage blog posts", "draft audit plan homepage blog pages")).toBeCloseTo(5 / 7);
    expect(sameItemText("draft audit plan homepage blog posts", "draft audit plan homepage blog pages")).toBe(false);
    expect(similarity("Pay the invoice", "Pay invoice for March")).toBeCloseTo(2 / 3);
    expect(sameItemText("Pay the invoice", "Pay invoice for March")).toBe(false);
    expect(findDuplicate("Pay the invoice", ["Pay invoice for March"], (s) => s)).toBe(-1);
  });
});
