import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { SearchEngine } from "../../../src/core/search/engine/search-engine";
import { BLOCK } from "../../../src/core/search/engine/max-score";
import { createTokenizer, tokenize } from "../../../src/core/search/engine/tokenizer";
import { rng } from "../../../bench/lib/synthetic-vault";
import { HELP_PAGES, markdownFilesUnder } from "../../helpers/help-pages";

type Doc = { id: string };
const FIELDS = ["title", "body", "tags"];

function engine(boost: Record<string, number> = { title: 3, tags: 1.5 }): SearchEngine<Doc> {
  return new SearchEngine<Doc>({
    idField: "id",
    fields: FIELDS,
    storeFields: [],
    tokenize,
    processTerm: (t: string) => t,
    searchOptions: {
      boost,
      tokenize: (t: string) => t.split(" "),
      processTerm: (t: string) => t,
    },
  });
}

/** Words with Zipf-like frequencies: word i is drawn about 1/(i+1) as often as word 0. */
const WORDS = Array.from({ length: 60 }, (_, i) => `w${i.toString(36)}x`);

function zipfWord(rand: () => number): string {
  const i = Math.floor(Math.exp(rand() * Math.log(WORDS.length + 1))) - 1;
  return WORDS[Math.min(WORDS.length - 1, i)] ?? "w0x";
}

/** `n` documents of random words (with repeats, so frequencies and lengths vary). */
function fill(e: SearchEngine<Doc>, n: number, rand: () => number): void {
  for (let i = 0; i < n; i++) {
    const words = (m: number) => Array.from({ length: m }, () => zipfWord(rand)).join(" ");
    e.addText(
      `n${i}.md`,
      [words(1 + Math.floor(rand() * 4)), words(5 + Math.floor(rand() * 80)), words(2)],
      FIELDS,
    );
  }
  e.flush();
}

/** A document boost with hidden documents (0), uneven weights and ties, at most 1. */
const boostOf =
  (seed: number) =>
  (_id: string, shortId: number): number =>
    [1, 0, 0.5, 1, 0.75, 1, 0][(shortId * 3 + seed) % 7] ?? 1;

function compare(
  e: SearchEngine<Doc>,
  terms: string[],
  boost: (id: string, shortId: number) => number,
  limit: number,
): { estimated: boolean; asked: number; askedAll: number } {
  let asked = 0;
  let askedAll = 0;
  const pruned = e.searchTop(
    terms,
    (id, s) => {
      asked++;
      return boost(id, s);
    },
    limit,
    [],
    { maxBoost: 1 },
  );
  const full = e.searchTop(
    terms,
    (id, s) => {
      askedAll++;
      return boost(id, s);
    },
    limit,
    [],
    { exhaustive: true },
  );
  // The same documents, scores bit for bit, matched terms and tie order.
  expect(pruned.top).toEqual(full.top);
  if (!pruned.estimated) expect(pruned.total).toBe(full.total);
  else {
    expect(pruned.total).toBeGreaterThanOrEqual(full.top.length);
    expect(asked).toBeLessThanOrEqual(askedAll);
  }
  return { estimated: pruned.estimated ?? false, asked, askedAll };
}

describe("MaxScore pruning (max-score.ts) against the exhaustive scorer", () => {
  it("gives the exhaustive top k, scores and tie order on generated queries, and prunes", () => {
    let pruned = 0;
    let asked = 0;
    let askedAll = 0;
    for (let seed = 1; seed <= 12; seed++) {
      const rand = rng(seed);
      const e = engine();
      fill(e, 200 + Math.floor(rand() * 900), rand);
      for (let q = 0; q < 25; q++) {
        const n = 1 + Math.floor(rand() * 4);
        // Repeated terms count twice, as in MiniSearch; an unknown term matches nothing.
        const terms = Array.from({ length: n }, () => (rand() < 0.05 ? "nowhere" : zipfWord(rand)));
        const r = compare(e, terms, boostOf(seed + q), 1 + Math.floor(rand() * 20));
        if (r.estimated) pruned++;
        asked += r.asked;
        askedAll += r.askedAll;
      }
    }
    // Not vacuous: most of these queries prune, and far fewer boosts are asked.
    expect(pruned).toBeGreaterThan(150);
    expect(asked).toBeLessThan(askedAll / 2);
  });

  it("stays exact on random small indexes, field boosts and limits (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 300 }),
        fc.array(fc.constantFrom(...WORDS.slice(0, 12)), { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 1, max: 12 }),
        fc.double({ min: 0.1, max: 5, noNaN: true }),
        fc.nat(1000),
        (n, terms, limit, titleBoost, seed) => {
          const e = engine({ title: titleBoost });
          fill(e, n, rng(seed));
          compare(e, terms, boostOf(seed), limit);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("falls back to the exhaustive scorer over discarded documents, then prunes again after a vacuum", async () => {
    // Twins: a search over discarded postings drops them (MiniSearch's running idf changes the
    // next search's scores), so each scorer gets its own copy of the same index.
    const twin = (): SearchEngine<Doc> => {
      const e = engine();
      fill(e, 600, rng(5));
      for (let i = 0; i < 600; i += 9) e.discard(`n${i}.md`);
      return e;
    };
    const [a, b] = [twin(), twin()];
    const terms = ["w0x", "w3x"];
    const pruned = a.searchTop(terms, boostOf(1), 3, [], { maxBoost: 1 });
    expect(pruned.estimated).toBeFalsy();
    expect(pruned).toEqual(b.searchTop(terms, boostOf(1), 3, [], { exhaustive: true }));
    await a.vacuum();
    expect(compare(a, terms, boostOf(1), 3).estimated).toBe(true);
  });

  it("does not prune without a bound on the boost, with required terms or a limit of 0", () => {
    const e = engine();
    fill(e, 400, rng(9));
    let asked = 0;
    const count = (): number => {
      asked++;
      return 1;
    };
    const all = e.searchTop(["w0x"], count, 5, [], { exhaustive: true });
    const n = asked;
    asked = 0;
    expect(e.searchTop(["w0x"], count, 5).estimated).toBeFalsy();
    expect(asked).toBe(n);
    asked = 0;
    const phrase = e.searchTop(["w0x", "w1x"], count, 5, ["w1x"], { maxBoost: 1 });
    expect(phrase.estimated).toBeFalsy();
    expect(e.searchTop(["w0x"], count, 0, [], { maxBoost: 1 }).total).toBe(all.total);
  });

  it(`keeps a bound per block of ${BLOCK} postings: a term in one block and in more prunes alike`, () => {
    // One posting fewer and one more than a block: the bounds stay exact on both sides.
    for (const n of [BLOCK - 1, BLOCK + 1, 3 * BLOCK]) {
      const e = engine();
      for (let i = 0; i < n; i++)
        e.addText(`n${i}.md`, ["", `wonex ${"wtwox ".repeat(1 + (i % 5))}`, ""], FIELDS);
      e.flush();
      compare(e, ["wonex"], boostOf(n), 3);
      compare(e, ["wtwox", "wonex"], boostOf(n), 3);
    }
  });
});

const DATA = HELP_PAGES;

describe.skipIf(!existsSync(DATA))("MaxScore pruning on the Obsidian help pages", () => {
  it("gives the exhaustive top 10 for real words, pairs and CJK queries", () => {
    const files = markdownFilesUnder(DATA);
    const e = engine();
    const texts = files.map((f) => readFileSync(f, "utf8"));
    // Each page three times, so postings span several blocks and ties are common.
    for (let copy = 0; copy < 3; copy++)
      texts.forEach((t, i) =>
        e.addText(`${copy}/${i}.md`, [/^# (.*)$/m.exec(t)?.[1] ?? "", t, ""], FIELDS),
      );
    e.flush();
    const query = createTokenizer();
    const words = [...new Set(texts.join(" ").match(/[A-Za-z]{4,}|[\u4e00-\u9fff]{2}/g) ?? [])];
    const rand = rng(3);
    let pruned = 0;
    for (let q = 0; q < 150; q++) {
      const text = Array.from(
        { length: 1 + (q % 3) },
        () => words[Math.floor(rand() * words.length)] ?? "note",
      ).join(" ");
      if (compare(e, query(text), boostOf(q), 10).estimated) pruned++;
    }
    expect(pruned).toBeGreaterThan(30);
  });
});
