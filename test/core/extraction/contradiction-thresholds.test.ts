// The bars of the statement rule (src/core/extraction/statements.ts), each on both sides:
// SAME_FRAME (0.75, alias SAME_SUBJECT_THRESHOLD: at or above it, two statements are about the same
// subject whatever else differs, unless their subjects share words and part), RELATED_FRAME (0.3: below it two statements are about different
// things) and MIN_SUBJECT_WORDS (1, alias MIN_CONTENT_TOKENS: a statement needs a subject word to be
// compared). Texts are distinct plain words and a number, so the frame similarity is shared /
// (a + b - shared); `statementSimilarity` itself confirms it. With no verb, every word stands
// before the value: all of them are the subject.
import { describe, expect, it } from "vitest";
import {
  MIN_CONTENT_TOKENS,
  SAME_SUBJECT_THRESHOLD,
  contradiction,
} from "../../../src/core/extraction/contradiction";
import {
  RELATED_FRAME,
  SAME_FRAME,
  compareStatements,
  statementParts,
  statementSimilarity,
} from "../../../src/core/extraction/statements";

const words = (n: number, from = 0) =>
  ["amber", "birch", "cedar", "dahlia", "ember", "fennel", "garnet", "hazel", "indigo", "juniper"]
    .slice(from, from + n)
    .join(" ");

describe("the same subject from a frame similarity of 0.75 on", () => {
  it("the bars are the rule's", () => {
    expect(SAME_SUBJECT_THRESHOLD).toBe(SAME_FRAME);
    expect(SAME_FRAME).toBe(0.75);
    expect(RELATED_FRAME).toBe(0.3);
    expect(MIN_CONTENT_TOKENS).toBe(1);
  });

  it("at 0.75 (3 of 4 words) another value contradicts, though a subject word differs", () => {
    const older = `${words(4)} 100`;
    const newer = `${words(3)} 200`;
    expect(statementSimilarity(newer, older)).toBeCloseTo(0.75, 10);
    expect(contradiction(newer, older)).toBe("value");
  });

  it("just below (6 of 9 words, 0.67) another value with other subject words is another subject", () => {
    const older = `${words(9)} 100`;
    const newer = `${words(6)} 200`;
    expect(statementSimilarity(newer, older)).toBeLessThan(0.75);
    expect(statementSimilarity(newer, older)).toBeGreaterThan(0.6);
    expect(contradiction(newer, older)).toBeNull();
    expect(compareStatements(newer, older).outcome).toBe("separate");
  });
});

describe("related frames from 0.3 on: a change marker makes a change", () => {
  it("at 0.33 (1 of 3 words) a marked change of value supersedes", () => {
    // "amber birch cedar is 100" → "amber is now 200": one shared word of three.
    const older = `${words(3)} is 100`;
    const newer = `amber is now 200`;
    expect(statementSimilarity(newer, older)).toBeCloseTo(1 / 3, 10);
    expect(statementSimilarity(newer, older)).toBeGreaterThanOrEqual(RELATED_FRAME);
    expect(compareStatements(newer, older)).toEqual({ outcome: "change", reason: "value" });
  });

  it("just below (1 of 4 words, 0.25) the same marked change is another subject", () => {
    const older = `${words(4)} is 100`;
    const newer = `amber is now 200`;
    expect(statementSimilarity(newer, older)).toBeCloseTo(0.25, 10);
    expect(compareStatements(newer, older).outcome).toBe("separate");
  });
});

describe("two subjects that share a word and part are two subjects at any frame similarity", () => {
  // Each subject has a word of its own after the shared ones ("the build server timeout" / "the
  // build server region"): a change marker does not join them, nor a frame above SAME_FRAME.
  it("at 0.33 (1 of 3 words), with a change marker", () => {
    const older = `${words(2)} is 100`;
    const newer = `amber cedar is now 200`;
    expect(statementSimilarity(newer, older)).toBeCloseTo(1 / 3, 10);
    expect(compareStatements(newer, older)).toEqual({ outcome: "separate" });
  });

  it("at 0.78 (7 of 9 words), with a change marker", () => {
    const older = `${words(8)} is 100`;
    const newer = `${words(7)} juniper is now 200`;
    expect(statementSimilarity(newer, older)).toBeCloseTo(7 / 9, 10);
    expect(statementSimilarity(newer, older)).toBeGreaterThanOrEqual(SAME_FRAME);
    expect(compareStatements(newer, older)).toEqual({ outcome: "separate" });
  });
});

describe("a statement needs a subject word to be compared", () => {
  it("one word with another value contradicts ('standup moved to 10:00')", () => {
    expect(statementParts(`${words(1)} 100`).frame).toHaveLength(1);
    expect(contradiction(`${words(1)} 200`, `${words(1)} 100`)).toBe("value");
    expect(contradiction("standup moved to 10:00", "standup is at 9:30")).toBe("value");
  });

  it("no subject word is too short to tell ('Not Friday', '200')", () => {
    expect(statementParts("Not Friday").frame).toHaveLength(0);
    expect(contradiction("Not Friday", "Friday")).toBeNull();
    expect(contradiction("200", "100")).toBeNull();
  });
});
