// The index's fast path (src/core/search/engine/term-scanner.ts, span-table.ts) must give exactly
// what the tokenizer gives: the same terms with the same counts for any text, so an index built with
// it answers queries tokenized by the tokenizer (one tokenizer at index and query time:
// test/core/search/search-tokenizer.test.ts, "case 05: …").
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { SearchEngine, countTerms } from "../../../src/core/search/engine/search-engine";
import { IntTable, SpanTable } from "../../../src/core/search/engine/span-table";
import { TermMap } from "../../../src/core/search/engine/term-map";
import { TermCounts, TermScanner } from "../../../src/core/search/engine/term-scanner";
import { prepareSegments, segmentMemo } from "../../../src/core/search/prepared-note";
import {
  createTokenizer,
  SEGMENT_SLICE,
  tokenize,
  type SegmentMemo,
} from "../../../src/core/search/engine/tokenizer";

/** Pieces of text from every script and joiner the tokenizer treats specially. */
const PIECES = [
  "Alpha",
  "beta",
  "painting",
  "Caroline's",
  "don't",
  "O’Neil",
  "ponies",
  "happy",
  "ays",
  "a",
  "I",
  "INC-2024-0887",
  "3.2.5",
  "v2.0-rc1",
  "a_b",
  "x:y/z",
  "-",
  ".",
  "_",
  ":",
  "/",
  "'",
  "’",
  "..",
  "--",
  "今天完成了认证系统的重构",
  "反洗钱",
  "李四",
  "的",
  "复盘",
  "東京で会議をしました",
  "プロジェクト",
  "서울에서",
  "회의를",
  "ภาษาไทย",
  "ສະບາຍດີ",
  "ＪＷＴ",
  "①",
  "Ⅻ",
  "Ünïcödé",
  "café",
  "naïve",
  "İstanbul",
  "ß",
  "ﬁle",
  "😀",
  "𠀀𠀁",
  "𠮷野家",
  "\u0301",
  "#tag",
  "[[link]]",
  "> quote",
  "- [ ] task",
  "^block-id",
  "`code`",
  "x".repeat(70),
  "ab-".repeat(30),
  " ",
  "\n",
  "\t",
  "，",
  "。",
  "\u3000",
  "\ud800",
  "\udc00",
];

const textArb = fc
  .array(
    fc.oneof(
      fc.constantFrom(...PIECES),
      fc.string({ maxLength: 6 }),
      fc.string({ unit: "grapheme", maxLength: 4 }),
    ),
    { maxLength: 24 },
  )
  .chain((parts) =>
    fc
      .array(fc.constantFrom("", " ", "\n", "-", "'"), {
        minLength: parts.length,
        maxLength: parts.length,
      })
      .map((seps) => parts.map((p, i) => p + (seps[i] ?? "")).join("")),
  );

/** A term dictionary (a TermMap) that remembers each id's term. */
function namedIds(): { ids: TermMap; names: string[] } {
  const ids = new TermMap();
  const names: string[] = [];
  const idOfSpan = ids.idOfSpan.bind(ids);
  ids.idOfSpan = (t: string, start: number, end: number): number => {
    const id = idOfSpan(t, start, end);
    names[id] = t.slice(start, end);
    return id;
  };
  return { ids, names };
}

/** Term → count of what `counts` holds (then cleared). */
function drained(counts: TermCounts, names: string[]): Map<string, number> {
  const out = new Map<string, number>();
  counts.drain((id, tf) => out.set(names[id] ?? "?", tf));
  return out;
}

/** Term → count, as the scanner counts `text` (the map's order is the order terms were first seen). */
function scanned(
  text: string,
  stemming: boolean,
  cjk: "words" | "ngrams" = "words",
  memo?: SegmentMemo,
): Map<string, number> {
  const { ids, names } = namedIds();
  const counts = new TermCounts();
  new TermScanner(ids, { stemming, cjk }).count(text, counts, memo);
  expect(counts.total).toBe([...counts.touched].reduce((n, id) => n + counts.get(id), 0));
  return drained(counts, names);
}

function sorted(m: Map<string, number>): [string, number][] {
  return [...m].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

describe("TermScanner", () => {
  it("counts exactly the terms the tokenizer gives, with and without stemming, CJK as words or n-grams", () => {
    const unstemmed = createTokenizer({ stemming: false });
    const ngrams = createTokenizer({ cjk: "ngrams" });
    fc.assert(
      fc.property(textArb, (text) => {
        expect(sorted(scanned(text, true))).toEqual(sorted(countTerms(tokenize(text))));
        expect(sorted(scanned(text, false))).toEqual(sorted(countTerms(unstemmed(text))));
        expect(sorted(scanned(text, true, "ngrams"))).toEqual(sorted(countTerms(ngrams(text))));
      }),
      { numRuns: 400 },
    );
  });

  it("a scanner keeps its word memo across notes without mixing them up", () => {
    const { ids, names } = namedIds();
    const scanner = new TermScanner(ids);
    const counts = new TermCounts();
    for (const text of [
      "painting paints",
      "Painting",
      "認証 painting 3.2.5",
      "paint",
      "認証認証",
    ]) {
      scanner.count(text, counts);
      expect(sorted(drained(counts, names))).toEqual(sorted(countTerms(tokenize(text))));
    }
  });

  it("addText builds the index addCounted builds from the tokenizer's counts", () => {
    const FIELDS = ["title", "body"] as const;
    const options = { fields: [...FIELDS], tokenize, processTerm: (t: string) => t };
    fc.assert(
      fc.property(fc.array(fc.tuple(textArb, textArb), { minLength: 1, maxLength: 6 }), (docs) => {
        const fast = new SearchEngine(options);
        const counted = new SearchEngine(options);
        docs.forEach(([title, body], i) => {
          fast.addText(`n${i}`, [title, body], FIELDS);
          counted.addCounted(
            `n${i}`,
            [countTerms(tokenize(title)), countTerms(tokenize(body))],
            FIELDS,
          );
        });
        const json = (ix: SearchEngine<unknown>) => {
          const j = ix.toJSON();
          return { ...j, index: [...j.index].sort((a, b) => (a[0] < b[0] ? -1 : 1)) };
        };
        expect(json(fast)).toEqual(json(counted));
      }),
      { numRuns: 60 },
    );
  });
});

describe("SpanTable and IntTable", () => {
  it("keep every key across growth, including the one whose insertion makes the table grow", () => {
    const table = new SpanTable();
    const ints = new IntTable();
    const keys = Array.from({ length: 40_000 }, (_, i) => `w${String(i).padStart(5, "0")}`);
    keys.forEach((k, i) => {
      table.set(k, i);
      ints.set(i * 7919, i);
    });
    expect(table.size).toBe(keys.length);
    const lost = keys.filter((k, i) => table.get(k) !== i);
    expect(lost).toEqual([]);
    expect(keys.filter((_, i) => ints.get(i * 7919) !== i)).toEqual([]);
  });

  it("a term map built past 1,024 terms finds every term in every note (no term listed twice)", () => {
    const words = Array.from({ length: 3000 }, (_, i) => `w${i}`).join(" ");
    const index = new SearchEngine({
      fields: ["title", "body"],
      tokenize,
      processTerm: (t: string) => t,
    });
    index.addText("a.md", ["", words], ["title", "body"]);
    index.addText("b.md", ["", words], ["title", "body"]);
    for (const w of ["w1023", "w2047", "w1024", "w2999"]) {
      expect(
        index
          .searchTop([w], () => 1, 10)
          .top.map((h) => h.id)
          .sort(),
        w,
      ).toEqual(["a.md", "b.md"]);
    }
    expect(index.termCount).toBe(3000);
  });

  it("answer like a Map, for whole strings and for spans of a longer string", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string({ maxLength: 5 }), fc.nat(1000)), { maxLength: 3000 }),
        (pairs) => {
          const table = new SpanTable();
          const map = new Map<string, number>();
          for (const [k, v] of pairs) {
            table.set(k, v);
            map.set(k, v);
          }
          expect(table.size).toBe(map.size);
          for (const [k, v] of map) {
            expect(table.get(k)).toBe(v);
            const padded = `<${k}>`;
            expect(table.getSpan(padded, 1, padded.length - 1)).toBe(v);
          }
          expect(table.get("\u0000absent")).toBe(-1);
        },
      ),
      { numRuns: 30 },
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer(), fc.nat(1000)), { maxLength: 5000 }), (pairs) => {
        const table = new IntTable();
        const map = new Map<number, number>();
        for (const [k, v] of pairs) {
          table.set(k, v);
          map.set(k, v);
        }
        for (const [k, v] of map) expect(table.get(k)).toBe(v);
      }),
      { numRuns: 30 },
    );
  });
});

/** CJK runs of every length around the tokenizer's batch (200) and slice ({@link SEGMENT_SLICE}) sizes. */
const LONG_CJK = [
  "数据库迁移完成了".repeat(30),
  "会议纪要已经发出".repeat(137),
  "東京で会議をしました".repeat(120),
  "认证".repeat(SEGMENT_SLICE / 2),
  "서울에서회의를".repeat(20),
];
const cjkTextArb = fc
  .array(
    fc.oneof(
      fc.constantFrom(...PIECES, ...LONG_CJK),
      fc.constantFrom(...LONG_CJK).map((run) => run.slice(0, 190)),
    ),
    { maxLength: 16 },
  )
  .chain((parts) =>
    fc
      .array(fc.constantFrom("", " ", "\n", "，", "a"), {
        minLength: parts.length,
        maxLength: parts.length,
      })
      .map((seps) => parts.map((p, i) => p + (seps[i] ?? "")).join("")),
  );

describe("segment memo (CJK segmented on another thread, prepared-note.ts)", () => {
  it("gives the same terms in the same first-seen order as segmenting while counting, for a note and each of its lines", () => {
    const check = (text: string): void => {
      const memo = segmentMemo(prepareSegments(["认证系统", text]));
      // A line stands for a field (a heading, the title): the memo is made from the whole note.
      for (const part of [text, ...text.split("\n")])
        expect([...scanned(part, true, "words", memo)]).toEqual([...scanned(part, true)]);
    };
    fc.assert(fc.property(cjkTextArb, check), { numRuns: 300 });
    // A run a little shorter than a slice after a run that fills a batch: prepared alone, it must
    // not be cut where the batch would be.
    check(`${"认证系统的重构".repeat(27)}\n# ${"会议纪要已经发出".repeat(137)}\n`);
  });

  it("is used: a memo that lies changes the terms, except in batches long enough to be cut in slices", () => {
    const lie: SegmentMemo = () => ["谎言词"];
    const short = "今天完成了认证系统的重构，数据库迁移完成了";
    expect(scanned(short, true, "words", lie).get("谎言词")).toBe(2);
    expect(scanned(short, true, "words", lie).has("认证系统")).toBe(false);
    // One run longer than a slice: the tokenizer segments it itself, in slices, whatever the memo says.
    const long = "认证系统的重构".repeat(SEGMENT_SLICE / 5);
    expect([...scanned(long, true, "words", lie)]).toEqual([...scanned(long, true)]);
  });

  it("knows each run's own words, of every text it is given", () => {
    const memo = segmentMemo(
      prepareSegments(["数据库迁移", "今天完成了认证系统的重构\nJWT令牌。東京で会議"]),
    );
    const words = (run: string) =>
      [...new Intl.Segmenter("zh", { granularity: "word" }).segment(run)]
        .filter((s) => s.isWordLike)
        .map((s) => s.segment);
    for (const run of ["今天完成了认证系统的重构", "令牌", "東京で会議", "数据库迁移"])
      expect(memo(run)).toEqual(words(run));
    expect(memo("认证系统")).toBeUndefined();
    // Normalised as the tokenizer sees it (NFKC): full-width Latin splits the run.
    expect(segmentMemo(prepareSegments(["认证ＪＷＴ令牌"]))("令牌")).toEqual(["令牌"]);
    expect(prepareSegments(["plain ascii", "text"])).toEqual({
      runs: "",
      cuts: new Uint32Array(0),
    });
  });
});
