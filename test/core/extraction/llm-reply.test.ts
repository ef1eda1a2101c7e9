import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { balancedAt, parseReply, repairTrailingCommas } from "../../../src/core/extraction/reply";

describe("reading the model's reply", () => {
  it("case 08: reads JSON wrapped in prose and a fence", () => {
    const reply = [
      "Here you go:",
      "```json",
      '{"items":[{"category":"task","text":"Send the draft to Person A","evidence":"send the draft to Person A"}]}',
      "```",
      "One task found.",
    ].join("\n");
    const r = parseReply(reply);
    expect(r.ok && r.value.items).toEqual([
      {
        category: "task",
        text: "Send the draft to Person A",
        evidence: "send the draft to Person A",
      },
    ]);
  });

  it("case 08: reads JSON in prose without a fence, and a fence without a language", () => {
    const inProse = parseReply(
      'Sure! {"items":[{"category":"goal","text":"Ship v2","evidence":"ship v2 by March"}]} Hope this helps.',
    );
    expect(inProse.ok && inProse.value.items.map((i) => i.text)).toEqual(["Ship v2"]);
    const bare = parseReply(
      '```\n{"items":[{"category":"goal","text":"Ship v2","evidence":"ship v2 by March"}]}\n```',
    );
    expect(bare.ok && bare.value.items).toHaveLength(1);
  });

  it("case 09 (a): unwraps a one-element array, reads Task as task, drops only the idea item with its reason", () => {
    const r = parseReply(
      '[{"items":[{"category":"Task","text":"Book the dentist","evidence":"book the dentist"},{"category":"idea","text":"x","evidence":"y"}]}]',
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.items).toEqual([
      { category: "task", text: "Book the dentist", evidence: "book the dentist" },
    ]);
    expect(r.value.rejected).toHaveLength(1);
    expect(r.value.rejected[0]).toMatchObject({ category: "idea", text: "x", evidence: "y" });
    expect(r.value.rejected[0]?.reason).toContain('category "idea" is not one of task, goal');
  });

  it("reads keys and enum values case-insensitively and keeps optional fields that fit", () => {
    const r = parseReply(
      '{"Items":[{"Category":" DECISION ","Text":"Use weekly releases","Evidence":"weekly releases","confidence":"0.9","topic":"Releases","due":"2026-12-01","ref":"G-006","progress":true}]}',
    );
    expect(r.ok && r.value.items[0]).toEqual({
      category: "decision",
      text: "Use weekly releases",
      evidence: "weekly releases",
      confidence: 0.9,
      topic: "Releases",
      due: "2026-12-01",
      ref: "g-006",
      progress: true,
    });
  });

  it("drops optional fields that do not fit instead of the item", () => {
    const r = parseReply(
      '{"items":[{"category":"task","text":"t","evidence":"e","confidence":85,"due":"next Friday","topic":null}]}',
    );
    expect(r.ok && r.value.items[0]).toEqual({ category: "task", text: "t", evidence: "e" });
  });

  it("reports items without text or evidence", () => {
    const r = parseReply(
      '{"items":[{"category":"task","text":"","evidence":"e"},{"category":"task","text":"t"},"junk"]}',
    );
    expect(r.ok && r.value.items).toEqual([]);
    expect(r.ok && r.value.rejected.map((x) => x.reason)).toEqual([
      "invalid item: text is empty",
      "invalid item: evidence is missing",
      "invalid item: not an object",
    ]);
  });

  it("repairs trailing commas outside strings only", () => {
    expect(repairTrailingCommas('{"a":[1,2,],}')).toBe('{"a":[1,2]}');
    expect(repairTrailingCommas('{"a":"x,]",}')).toBe('{"a":"x,]"}');
    expect(repairTrailingCommas('{"a":"q\\",}",}')).toBe('{"a":"q\\",}"}');
    const r = parseReply('{"items":[{"category":"task","text":"a, b,]","evidence":"c",},]}');
    expect(r.ok && r.value.items[0]?.text).toBe("a, b,]");
  });

  it("never changes valid JSON when repairing (property)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const json = JSON.stringify(value);
        expect(repairTrailingCommas(json)).toBe(json);
      }),
    );
  });

  it("case 09 (b): a reply cut off mid-JSON gives no items", () => {
    const r = parseReply(
      '{"items":[{"category":"task","text":"Book the dentist","evidence":"book the',
    );
    expect(r.ok).toBe(false);
    expect(balancedAt('{"a":[1,2', 0)).toBeNull();
  });

  it("skips a reasoning block before the JSON", () => {
    const r = parseReply(
      '<think>maybe {"items":[]} or not</think>\n{"items":[{"category":"task","text":"t","evidence":"e"}]}',
    );
    expect(r.ok && r.value.items).toHaveLength(1);
  });

  it("accepts a bare list of items and an empty list, and says when there is no list", () => {
    const bare = parseReply('[{"category":"task","text":"t","evidence":"e"}]');
    expect(bare.ok && bare.value.items).toHaveLength(1);
    const empty = parseReply('{"items": []}');
    expect(empty.ok && empty.value.items).toEqual([]);
    const none = parseReply("I could not find anything.");
    expect(none.ok).toBe(false);
    expect(!none.ok && none.error).toContain("no JSON items list");
  });
});
