// The search tokenizer (docs/architecture.md, "Tokenizer"; "case 05: …" below): NFKC, lower case,
// CJK words and bigrams, ids whole and split.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  containsPhrase,
  createTokenizer,
  normalizeText,
  phraseForm,
  phraseRequiredTerms,
  textContainsPhrase,
  tokenize,
} from "../../../src/core/search/engine/tokenizer";
import { dropStopWords } from "../../../src/core/search/engine/stop-words";
import { stem } from "../../../src/core/search/engine/stemmer";

/** True when every query term of `query` is among the note's terms (what an AND search needs). */
function finds(note: string, query: string): boolean {
  const terms = new Set(tokenize(note));
  return dropStopWords(tokenize(query)).every((t) => terms.has(t));
}

describe("tokenizer", () => {
  const auth = "今天完成了认证系统的重构，使用JWT令牌。";
  const aml = "单日跨境转账频次超阈值，触发反洗钱操作细则第3.2.5条。";

  it("case 05: Chinese words, JWT and 3.2.5 find the right note", () => {
    for (const q of ["认证", "重构", "JWT"]) {
      expect(finds(auth, q), q).toBe(true);
      expect(finds(aml, q), q).toBe(false);
    }
    for (const q of ["反洗钱", "3.2.5"]) {
      expect(finds(aml, q), q).toBe(true);
      expect(finds(auth, q), q).toBe(false);
    }
    expect(finds("客户李四", "李四")).toBe(true);
  });

  it("case 05: the same function runs at index and query time", () => {
    // A query is tokenized by the very function used for notes: its terms are a subset.
    for (const text of [auth, aml, "客户李四"]) {
      const terms = new Set(tokenize(text));
      for (const t of tokenize(text)) expect(terms.has(t)).toBe(true);
    }
  });

  it("keeps ids and section numbers whole and also splits them into parts", () => {
    expect(tokenize("INC-2024-0887")).toEqual(["inc-2024-0887", "inc", "2024", "0887"]);
    expect(tokenize("3.2.5")).toEqual(["3.2.5", "3", "2", "5"]);
    expect(finds("Ticket INC-2024-0887 reopened", "0887")).toBe(true);
    expect(finds("Ticket INC-2024-0887 reopened", "inc-2024-0887")).toBe(true);
    expect(finds("Ticket INC-2024-0888 reopened", "INC-2024-0887")).toBe(false);
  });

  it("normalises with NFKC and lower case", () => {
    expect(tokenize("ＪＷＴ")).toEqual(["jwt"]);
    expect(tokenize("Ⅻ ①")).toEqual(["xii", "1"]);
    expect(finds("ＪＷＴ令牌", "jwt")).toBe(true);
  });

  it("Japanese: kanji and kana are searchable by words", () => {
    const note = "東京で会議をしました。プロジェクトの進捗を確認。";
    for (const q of ["東京", "会議", "プロジェクト", "進捗", "確認"])
      expect(finds(note, q), q).toBe(true);
    expect(finds(note, "大阪")).toBe(false);
  });

  it("a very long CJK run (no punctuation) is segmented in slices and every word stays findable", () => {
    const note = `${"认证系统的重构使用令牌".repeat(2000)}反洗钱`;
    expect(finds(note, "反洗钱")).toBe(true);
    expect(finds(note, "重构")).toBe(true);
    expect(finds(note, "李四")).toBe(false);
  });

  it("Korean: a word is found inside a word carrying a particle", () => {
    const note = "서울에서 회의를 했습니다. 프로젝트 진행 상황을 확인했습니다.";
    for (const q of ["서울", "회의", "프로젝트", "진행"]) expect(finds(note, q), q).toBe(true);
    expect(finds(note, "부산")).toBe(false);
  });

  it("stems English words and drops possessives and apostrophes", () => {
    expect(finds("She was painting sunrises", "paints sunrise")).toBe(true);
    expect(tokenize("Caroline's")).toEqual(["carolin"]);
    expect(tokenize("don't")).toEqual(["dont"]);
    expect(stem("running")).toBe("run");
    expect(createTokenizer({ stemming: false })("running")).toEqual(["running"]);
  });

  it("drops stop words from queries unless nothing would be left", () => {
    expect(dropStopWords(tokenize("what is the refund policy"))).toEqual(tokenize("refund policy"));
    expect(dropStopWords(tokenize("the who"))).toEqual(tokenize("the who"));
    expect(dropStopWords(tokenize("我的项目"))).not.toContain("的");
  });

  it("never emits empty tokens or white space, whatever the text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), (text) => {
        for (const t of tokenize(text)) {
          expect(t.length).toBeGreaterThan(0);
          expect(/\s/.test(t)).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("tokenizes a note's text the same way every time", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), (text) => {
        expect(tokenize(text)).toEqual(tokenize(text));
      }),
      { numRuns: 100 },
    );
  });

  it("matches quoted phrases on whole words (Latin) or anywhere (CJK)", () => {
    const text = phraseForm("The bounce-rate matters more than the framework. 认证系统的重构");
    expect(containsPhrase(text, "bounce rate")).toBe(true);
    expect(containsPhrase(text, "BOUNCE RATE matters")).toBe(true);
    expect(containsPhrase(text, "rate matter")).toBe(false);
    expect(containsPhrase(text, "系统的重构")).toBe(true);
    expect(containsPhrase(text, "系统重构")).toBe(false);
  });

  it("phraseForm equals its regular-expression definition on any text (the fast path is exact)", () => {
    const byRegex = (t: string): string =>
      ` ${normalizeText(t)
        .replace(/['’]/g, "")
        .replace(/[^\p{L}\p{N}\p{M}]+/gu, " ")
        .trim()} `;
    const unit = fc.constantFrom(
      "a",
      "B",
      " ",
      "'",
      "’",
      "-",
      "认",
      "证",
      "😀",
      "\ud800",
      "\udc00",
      "é",
      "\u0301",
      "3",
      ".",
      "ＪＷ",
      "\n",
      "𠀀",
      "İ",
    );
    fc.assert(
      fc.property(
        fc.array(unit, { maxLength: 30 }).map((a) => a.join("")),
        (t) => {
          expect(phraseForm(t)).toBe(byRegex(t));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("textContainsPhrase answers as containsPhrase on the phrase form, without building it", () => {
    const cases: [string, string][] = [
      ["ab", "a b"],
      ["a b", "a b"],
      ["a-b", "a b"],
      ["don't stop", "dont stop"],
      ["第3.2.5条", "3.2.5"],
      ["x3.2.5", "3.2.5"],
      ["O'Neil's plan", "neils plan"],
      ["The Export job", "the export"],
      ["exports", "export"],
    ];
    for (const [t, p] of cases)
      expect(textContainsPhrase(t, p), `${p} in ${t}`).toBe(containsPhrase(phraseForm(t), p));
    const unit = fc.constantFrom(
      "a",
      "b",
      "ab",
      " ",
      "'",
      "’",
      "-",
      "认",
      "证",
      "😀",
      "\ud800",
      "é",
      "\u0301",
      "3",
      ".",
      "ＡＢ",
      "\n",
      "𠀀",
      "İ",
      "ß",
      "第",
      "条",
    );
    const text = fc.array(unit, { maxLength: 24 }).map((a) => a.join(""));
    const phrase = fc.array(unit, { minLength: 1, maxLength: 6 }).map((a) => a.join(""));
    fc.assert(
      fc.property(text, phrase, (t, p) => {
        expect(textContainsPhrase(t, p)).toBe(containsPhrase(phraseForm(t), p));
      }),
      { numRuns: 3000 },
    );
  });

  it("CJK phrases match across line breaks, punctuation and markup; mixed phrases across the script change", () => {
    for (const t of [
      "反洗钱\n操作细则",
      "反洗钱**操作**细则",
      "[[反洗钱]]操作细则",
      "反洗钱，操作细则",
      "反洗钱 操作细则",
      "反洗钱操作细则",
    ]) {
      for (const p of ["反洗钱操作细则", "反洗钱 操作细则"])
        expect(textContainsPhrase(t, p), `${p} in ${t}`).toBe(true);
    }
    expect(textContainsPhrase("今天完成了认证系统的重构，使用JWT令牌。", "JWT 令牌")).toBe(true);
    expect(textContainsPhrase("今天完成了认证系统的重构，使用JWT令牌。", "JWT令牌")).toBe(true);
    expect(textContainsPhrase("天気\nは晴れです", "天気は晴れ")).toBe(true);
    expect(textContainsPhrase("反洗钱操作细则", "洗钱反")).toBe(false);
  });

  it("a phrase's required terms are in every note holding it (random text)", () => {
    expect(phraseRequiredTerms("follow-up")).toEqual(["follow", "up"]);
    expect(phraseRequiredTerms("INC-2024-0887 review")).toEqual(["inc", "2024", "0887", "review"]);
    expect(phraseRequiredTerms("INC-2024-0887 反洗钱")).toEqual([]);
    expect(phraseRequiredTerms("Neil's notes")).toEqual([]);
    const unit = fc.constantFrom(
      "a",
      "b",
      "s",
      "ab",
      "es",
      " ",
      " ",
      "'",
      "’",
      "'s",
      "-",
      ".",
      "3",
      "Ab",
      "认",
      "证",
      "\n",
      "ﬁ",
      "é",
      "_",
      "/",
    );
    const text = fc.array(unit, { maxLength: 30 }).map((a) => a.join(""));
    let held = 0;
    fc.assert(
      fc.property(text, fc.nat(), fc.nat(), fc.boolean(), (t, s, e, stemming) => {
        const from = s % (t.length + 1);
        const p = t.slice(from, from + 1 + (e % 14));
        if (!textContainsPhrase(t, p)) return;
        held++;
        const terms = new Set(createTokenizer({ stemming })(t));
        for (const term of phraseRequiredTerms(p, { stemming }))
          expect(terms.has(term), `${term} of "${p}" in "${t}"`).toBe(true);
      }),
      { numRuns: 5000 },
    );
    expect(held).toBeGreaterThan(1000);
  });
});
