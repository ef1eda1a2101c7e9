// Word-pair filters for quoted phrases
// (docs/decisions.md, "Quoted phrases use a word-pair Bloom filter per note"): a note holding a
// phrase is never rejected, and notes that lack one of the phrase's word pairs are.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  buildPairFilter,
  decodeFilters,
  encodeFilters,
  filterMayHold,
  judgesPhrase,
  pairFilterOf,
  phrasePairs,
  textPairs,
} from "../../../src/core/search/engine/phrase-filter";
import { textContainsPhrase } from "../../../src/core/search/engine/tokenizer";

/** The exact pair set of a text (no Bloom filter): what the filter approximates. */
function pairSet(text: string): Set<number> {
  return new Set(textPairs(text));
}

describe("phrase word-pair filter", () => {
  it("holds the pairs of phrases in the text and rejects others", () => {
    const text =
      "The bounce-rate matters more than the framework.\nDon't ship 第3.2.5条 pricing today";
    const filter = pairFilterOf(text);
    for (const p of [
      "bounce rate",
      "BOUNCE RATE matters",
      "the framework don't",
      "dont ship",
      "3.2.5",
      "2.5",
      "2 5",
      "3.2",
    ]) {
      expect(textContainsPhrase(text, p), p).toBe(true);
      const pairs = phrasePairs([p]);
      expect(pairs.length, p).toBeGreaterThan(0);
      expect(filterMayHold(filter, pairs), p).toBe(true);
    }
    // Pairs absent from the text: the exact set lacks them (the Bloom filter may, rarely, not).
    const set = pairSet(text);
    for (const p of ["rate bounce", "pricing same", "matters than", "ship 3", "5 pricing"]) {
      expect(textContainsPhrase(text, p), p).toBe(false);
      const pairs = phrasePairs([p]);
      expect(
        pairs.every((h) => set.has(h)),
        p,
      ).toBe(false);
    }
  });

  it("judges CJK phrases by their neighbouring characters; not one word or one character", () => {
    for (const p of ["export", "令", "  "]) {
      expect(judgesPhrase(p), p).toBe(false);
      expect(phrasePairs([p]), p).toEqual([]);
    }
    for (const p of ["认证 系统", "JWT 令牌", "反洗钱操作细则"])
      expect(judgesPhrase(p), p).toBe(true);
    // Character pairs with a CJK side, across line breaks and markup, and next to Latin.
    const holds = (text: string, p: string): boolean =>
      filterMayHold(pairFilterOf(text), phrasePairs([p]));
    expect(holds("使用JWT令牌。", "JWT 令牌")).toBe(true);
    expect(holds("反洗钱**操作**\n细则", "反洗钱操作细则")).toBe(true);
    const apart = new Set(textPairs("项目 is late; 进度 ok"));
    expect(phrasePairs(["项目进度"]).every((h) => apart.has(h))).toBe(false);
    expect(judgesPhrase("INC-2024-0887")).toBe(true);
    expect(phrasePairs(["a b", "c"])).toHaveLength(1);
    expect(phrasePairs(["a b c", "d e"])).toHaveLength(3);
  });

  it("never rejects a text that holds the phrase (random text, checked against textContainsPhrase)", () => {
    // Mostly Latin letters and gaps, so that most phrases can be judged and many are found.
    const latin = fc.constantFrom(
      "a",
      "b",
      "ab",
      " ",
      " ",
      " ",
      "'",
      "’",
      "-",
      "é",
      "\u0301",
      "3",
      ".",
      "ＡＢ",
      "\n",
      "İ",
      "ß",
      "ﬁ",
    );
    const other = fc.constantFrom("认", "证", "😀", "\ud800", "\udc00", "𠀀", "第", "条", "ก");
    const unit = fc.oneof({ weight: 6, arbitrary: latin }, { weight: 1, arbitrary: other });
    const text = fc.array(unit, { maxLength: 30 }).map((a) => a.join(""));
    let judged = 0;
    let held = 0;
    fc.assert(
      fc.property(
        text,
        fc.nat(),
        fc.nat(),
        fc.array(unit, { minLength: 1, maxLength: 8 }),
        (t, s, e, random) => {
          // Half the phrases are cut from the text, so that many of them are in it.
          const from = s % (t.length + 1);
          const p = s % 2 === 0 ? t.slice(from, from + 1 + (e % 12)) : random.join("");
          const pairs = phrasePairs([p]);
          if (pairs.length === 0) return;
          judged++;
          if (!textContainsPhrase(t, p)) return;
          held++;

          const set = pairSet(t);
          expect(pairs.every((h) => set.has(h))).toBe(true);
          expect(filterMayHold(pairFilterOf(t), pairs)).toBe(true);
        },
      ),
      { numRuns: 10000 },
    );
    // The property was exercised, not skipped.
    expect(judged).toBeGreaterThan(300);
    expect(held).toBeGreaterThan(150);
  });

  it("the ASCII walk gives what the general walk gives, and parts read as lines", () => {
    const unit = fc.constantFrom(
      "a",
      "B",
      "ab",
      "Zz9",
      " ",
      "'",
      "-",
      ".",
      "\n",
      "\t",
      "_",
      "\u0001",
      "~",
    );
    const ascii = fc.array(unit, { maxLength: 30 }).map((a) => a.join(""));
    fc.assert(
      fc.property(ascii, ascii, (a, b) => {
        const fast = textPairs(a);
        // "é " sends the text down the general (normalising) walk and adds one pair before it.
        const general = textPairs(`é ${a}`);
        const words = /[a-z0-9]/i.test(a) ? 1 : 0;
        expect(general.length).toBe(fast.length + words);
        expect(general.slice(words)).toEqual(fast);
        expect(textPairs(a, b)).toEqual(textPairs(`${a}\n${b}`));
        expect(textPairs(`é${a}`, b)).toEqual(textPairs(`é${a}\n${b}`));
      }),
      { numRuns: 2000 },
    );
  });

  it("rejects most notes without the pair (false positives near the designed 1.2%)", () => {
    const words = Array.from({ length: 300 }, (_, i) => `w${i.toString(36)}x`);
    let rng = 7;
    const next = (): number => (rng = (Math.imul(rng, 1103515245) + 12345) >>> 0);
    const text = Array.from({ length: 400 }, () => words[next() % words.length]).join(" ");
    const filter = pairFilterOf(text);
    const set = pairSet(text);
    let absent = 0;
    let passed = 0;
    for (let i = 0; i < 20000; i++) {
      const pairs = phrasePairs([
        `${words[next() % words.length]} ${words[next() % words.length]}`,
      ]);
      if (pairs.every((h) => set.has(h))) continue;
      absent++;
      if (filterMayHold(filter, pairs)) passed++;
    }
    expect(absent).toBeGreaterThan(19000);
    expect(passed / absent).toBeLessThan(0.03);
  });

  it("an empty text has an empty filter that holds no pair", () => {
    const filter = buildPairFilter([]);
    expect(filter.length).toBe(1);
    expect(filterMayHold(filter, phrasePairs(["a b"]))).toBe(false);
    expect(filterMayHold(pairFilterOf("one"), phrasePairs(["one two"]))).toBe(false);
  });

  it("round-trips through the saved form, and refuses a damaged one", () => {
    const filters = [
      pairFilterOf("alpha beta gamma"),
      undefined,
      pairFilterOf(""),
      pairFilterOf("a b c d e f g h i j k l m n o p"),
    ];
    const { sizes, data } = encodeFilters(filters);
    expect(sizes).toEqual(filters.map((f) => (f ? f.length : -1)));
    const back = decodeFilters(sizes, data);
    expect(back.map((f) => (f ? [...f] : null))).toEqual(filters.map((f) => (f ? [...f] : null)));
    expect(() => decodeFilters([...sizes.slice(0, -1), (sizes.at(-1) ?? 0) + 1], data)).toThrow(
      /expected/,
    );
    expect(() => decodeFilters(sizes, "not base64!")).toThrow();
    expect(() => decodeFilters(sizes, "*".repeat(data.length))).toThrow(/not base64/);
  });
});
