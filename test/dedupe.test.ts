import { describe, expect, it } from "vitest";
import { findDuplicate, similarity } from "../src/core/extraction/dedupe";

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
});
