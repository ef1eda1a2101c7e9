// The two bars of the contradiction rule (src/core/extraction/contradiction.ts), each on both
// sides: SAME_SUBJECT_THRESHOLD (0.75: what is left once values and negations are removed must be
// the same subject) and MIN_CONTENT_TOKENS (2: a text needs two content words to contradict).
// Texts are distinct plain words and a number, so the subject similarity is shared / (a + b -
// shared); `subjectSimilarity` itself confirms it.
import { describe, expect, it } from "vitest";
import { contradiction } from "../../../src/core/extraction/contradiction";
import { contentSize, subjectSimilarity } from "../../../src/core/extraction/dedupe";

const words = (n: number) =>
  ["amber", "birch", "cedar", "dahlia", "ember", "fennel", "garnet", "hazel", "indigo"]
    .slice(0, n)
    .join(" ");

describe("the same subject from a subject similarity of 0.75 on", () => {
  it("at 0.75 (3 of 4 words) another value contradicts", () => {
    const older = `${words(4)} 100`;
    const newer = `${words(3)} 200`;
    expect(subjectSimilarity(newer, older)).toBeCloseTo(0.75, 10);
    expect(contradiction(newer, older)).toBe("value");
  });

  it("just below (6 of 9 words, 0.67) another value is another subject", () => {
    const older = `${words(9)} 100`;
    const newer = `${words(6)} 200`;
    expect(subjectSimilarity(newer, older)).toBeLessThan(0.75);
    expect(subjectSimilarity(newer, older)).toBeGreaterThan(0.6);
    expect(contradiction(newer, older)).toBeNull();
  });
});

describe("a text needs two content words to contradict another", () => {
  it("two words with another value contradict", () => {
    expect(contentSize(`${words(2)} 100`)).toBe(2);
    expect(contradiction(`${words(2)} 200`, `${words(2)} 100`)).toBe("value");
  });

  it("one word with another value is too short to tell", () => {
    expect(contentSize(`${words(1)} 100`)).toBe(1);
    expect(contradiction(`${words(1)} 200`, `${words(1)} 100`)).toBeNull();
  });
});
