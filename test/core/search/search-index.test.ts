// The search engine's MiniSearch layer (src/core/search/engine/search-engine.ts, term-map.ts):
// pre-counted adds, the hash-map term dictionary and the packed saved form must behave exactly like
// MiniSearch's own add/search/toJSON.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import MiniSearch from "minisearch";
import {
  checksumOf,
  SearchEngine,
  countTerms,
} from "../../../src/core/search/engine/search-engine";
import {
  packPostings,
  TermMap,
  unpackPostings,
  type Postings,
} from "../../../src/core/search/engine/term-map";
import { tokenize } from "../../../src/core/search/engine/tokenizer";
import { splitSearchBlocks } from "../../../src/core/search/blocks";
import { BlockScorer, probeOf, rankedBlocks } from "../../../src/core/search/block-rank";
import { createTokenizer } from "../../../src/core/search/engine/tokenizer";

const FIELDS = ["title", "body"] as const;
type Doc = { id: string; title: string; body: string };
const options = {
  fields: [...FIELDS],
  tokenize: (t: string) => tokenize(t),
  processTerm: (t: string) => t,
  searchOptions: {
    boost: { title: 3 },
    tokenize: (t: string) => t.split(" "),
    processTerm: (t: string) => t,
  },
};

const WORDS = [
  "alpha",
  "beta",
  "gamma",
  "refund",
  "policy",
  "认证",
  "系统",
  "INC-2024-0887",
  "3.2.5",
  "李四",
  "the",
  "a",
];
const docArb = fc.record({
  title: fc.array(fc.constantFrom(...WORDS), { maxLength: 3 }).map((w) => w.join(" ")),
  body: fc.array(fc.constantFrom(...WORDS), { maxLength: 12 }).map((w) => w.join(" ")),
});

/** `[id, score]` of each result, for comparing rankings. */
function ranking(results: { id: unknown; score: number }[]): [string, number][] {
  return results.map((r) => [String(r.id), r.score]);
}

/** Result ids. */
function ids(results: { id: unknown }[]): string[] {
  return results.map((r) => String(r.id));
}

function buildBoth(docs: Doc[]): { plain: MiniSearch<Doc>; counted: SearchEngine<Doc> } {
  const plain = new MiniSearch<Doc>(options);
  const counted = new SearchEngine<Doc>(options);
  for (const d of docs) {
    plain.add(d);
    counted.addCounted(
      d.id,
      FIELDS.map((f) => countTerms(tokenize(d[f]))),
      FIELDS,
    );
  }
  return { plain, counted };
}

/** toJSON with terms sorted (the dictionaries differ in iteration order, not in content). */
function normalized(index: MiniSearch<Doc>): unknown {
  const json = index.toJSON();
  return {
    ...json,
    index: [...json.index].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)),
  };
}

describe("SearchEngine", () => {
  it("addCounted writes what MiniSearch's add writes, and searches rank the same", () => {
    fc.assert(
      fc.property(
        fc.array(docArb, { minLength: 1, maxLength: 12 }),
        fc.constantFrom(...WORDS),
        (raw, q) => {
          const docs = raw.map((d, i) => ({ id: `n${i}.md`, ...d }));
          const { plain, counted } = buildBoth(docs);
          expect(normalized(counted)).toEqual(normalized(plain));
          const terms = tokenize(q).join(" ");
          expect(ranking(counted.search(terms))).toEqual(ranking(plain.search(terms)));
        },
      ),
      { numRuns: 60 },
    );
  });

  it("discard, re-add and vacuum keep the two in step (case 06)", async () => {
    const docs: Doc[] = [
      { id: "a", title: "alpha", body: "alpha beta" },
      { id: "b", title: "beta", body: "beta gamma" },
    ];
    const { plain, counted } = buildBoth(docs);
    for (const index of [plain, counted]) index.discard("a");
    plain.add({ id: "a", title: "alpha", body: "alpha gamma" });
    counted.addCounted(
      "a",
      [countTerms(tokenize("alpha")), countTerms(tokenize("alpha gamma"))],
      FIELDS,
    );
    expect(ids(counted.search("beta"))).toEqual(["b"]);
    expect(ids(counted.search("gamma")).sort()).toEqual(["a", "b"]);
    await Promise.all([plain.vacuum(), counted.vacuum()]);
    expect(normalized(counted)).toEqual(normalized(plain));
    expect(counted.termCount).toBe(plain.termCount);
  });

  it("vacuum of the compact postings leaves what MiniSearch's own vacuum leaves (case 06)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(docArb, { minLength: 1, maxLength: 12 }),
        fc.array(fc.nat(11), { maxLength: 6 }),
        async (raw, gone) => {
          const docs = raw.map((d, i) => ({ id: `n${i}.md`, ...d }));
          const { plain, counted } = buildBoth(docs);
          // Restored from a saved index, so postings start packed.
          const restored = SearchEngine.fromSaved<Doc>(
            JSON.parse(JSON.stringify(counted.toSaved())) as ReturnType<typeof counted.toSaved>,
            options,
          );
          for (const g of new Set(gone)) {
            if (!plain.has(`n${g}.md`)) continue;
            for (const index of [plain, counted, restored]) index.discard(`n${g}.md`);
          }
          await Promise.all([plain.vacuum(), counted.vacuum(), restored.vacuum()]);
          expect(normalized(counted)).toEqual(normalized(plain));
          expect(normalized(restored)).toEqual(normalized(plain));
          expect(counted.dirtCount).toBe(plain.dirtCount);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("searchTop gives search()'s scores, order, ties and totals for the best results", () => {
    const query = fc
      .array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 })
      .map((w) => tokenize(w.join(" ")));
    fc.assert(
      fc.property(
        fc.array(docArb, { minLength: 1, maxLength: 16 }),
        query,
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.nat(15), { maxLength: 3 }),
        fc.nat(2),
        (raw, terms, limit, gone, requiredCount) => {
          // Every note twice, so equal scores (ties) are common.
          const docs = [...raw, ...raw].map((d, i) => ({ id: `n${i}.md`, ...d }));
          const { counted: fast } = buildBoth(docs);
          const { counted: slow } = buildBoth(docs);
          for (const g of new Set(gone)) {
            if (!fast.has(`n${g}.md`)) continue;
            fast.discard(`n${g}.md`);
            slow.discard(`n${g}.md`);
          }
          // Some notes hidden (boost 0), the rest weighted unevenly, a note and its copy alike.
          const boost = (id: string): number =>
            [1, 0, 0.5, 1, 2][(Number(id.slice(1, -3)) % raw.length) % 5] ?? 1;
          const required = terms.slice(0, requiredCount);
          const expected = slow
            .search(terms.join(" "), { boostDocument: (id) => boost(id as string) })
            .filter((r) => required.every((t) => r.queryTerms.includes(t)));
          const got = fast.searchTop(terms, boost, limit, required);
          expect(got.total).toBe(expected.length);
          expect(got.top.map((h) => [h.id, h.score, [...h.queryTerms].sort()])).toEqual(
            expected
              .slice(0, limit)
              .map((r): [string, number, string[]] => [
                String(r.id),
                r.score,
                [...r.queryTerms].sort(),
              ]),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it("searchTop also scores documents added with MiniSearch's own add() and forgets removed ones", () => {
    fc.assert(
      fc.property(
        fc.array(docArb, { minLength: 1, maxLength: 10 }),
        fc.constantFrom(...WORDS),
        fc.nat(9),
        (raw, q, gone) => {
          const docs = raw.map((d, i) => ({ id: `n${i}.md`, ...d }));
          const { plain } = buildBoth(docs);
          const mixed = new SearchEngine<Doc>(options);
          docs.forEach((d, i) => {
            if (i % 2 === 0) mixed.add(d);
            else
              mixed.addCounted(
                d.id,
                FIELDS.map((f) => countTerms(tokenize(d[f]))),
                FIELDS,
              );
          });
          const removed = docs[gone % docs.length];
          if (removed) {
            plain.remove(removed);
            mixed.remove(removed);
          }
          const terms = tokenize(q);
          const expected = plain.search(terms.join(" "));
          expect(mixed.searchTop(terms, () => 1, 100).top.map((h) => [h.id, h.score])).toEqual(
            expected.map((r): [string, number] => [String(r.id), r.score]),
          );
        },
      ),
      { numRuns: 60 },
    );
  });

  it("saves and restores to the same index, postings unpacked on first use", () => {
    fc.assert(
      fc.property(fc.array(docArb, { minLength: 1, maxLength: 10 }), (raw) => {
        const docs = raw.map((d, i) => ({ id: `n${i}.md`, ...d }));
        const { counted } = buildBoth(docs);
        counted.discard("n0.md");
        const saved = JSON.parse(JSON.stringify(counted.toSaved())) as ReturnType<
          typeof counted.toSaved
        >;
        const restored = SearchEngine.fromSaved<Doc>(saved, options);
        expect(restored.documentCount).toBe(counted.documentCount);
        for (const w of WORDS) {
          const t = tokenize(w).join(" ");
          expect(ranking(restored.search(t))).toEqual(ranking(counted.search(t)));
        }
        expect(normalized(restored)).toEqual(normalized(counted));
        restored.addCounted("new.md", [countTerms(tokenize("alpha")), new Map()], FIELDS);
        expect(ids(restored.search("alpha"))).toContain("new.md");
      }),
      { numRuns: 40 },
    );
  });

  it("refuses a saved index with other fields or malformed parts", () => {
    const { counted } = buildBoth([{ id: "a", title: "x", body: "y" }]);
    const saved = counted.toSaved();
    expect(() => SearchEngine.fromSaved({ ...saved, fieldIds: { title: 0 } }, options)).toThrow();
    expect(() =>
      SearchEngine.fromSaved({ ...saved, postings: saved.postings.replace(/\d+$/, "!") }, options),
    ).toThrow(/checksum/);
    expect(() => SearchEngine.fromSaved({ ...saved, terms: "y\nx" }, options)).toThrow(/checksum/);
    const oneTerm = { ...saved, terms: "x" };
    expect(() =>
      SearchEngine.fromSaved(
        { ...oneTerm, checksum: checksumOf(oneTerm.terms, oneTerm.postings) },
        options,
      ),
    ).toThrow(/bad terms/);
    expect(() =>
      SearchEngine.fromSaved({ ...saved, documentIds: [5 as unknown as string] }, options),
    ).toThrow(/document ids/);
    expect(() => SearchEngine.fromSaved({ ...saved, fieldLength: [1] }, options)).toThrow(
      /field lengths/,
    );
    expect(() => SearchEngine.fromSaved({ ...saved, nextId: -1 }, options)).toThrow();
  });
});

describe("TermMap", () => {
  const postingsArb = fc
    // MiniSearch never keeps a field without documents (removeTerm deletes it).
    .array(
      fc.tuple(
        fc.integer({ min: 0, max: 5 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 5000 }), fc.integer({ min: 1, max: 300 })), {
          minLength: 1,
          maxLength: 20,
        }),
      ),
      { maxLength: 4 },
    )
    .map((fields) => {
      const p: Postings = new Map();
      for (const [fieldId, docs] of fields) {
        const m = p.get(fieldId) ?? new Map<number, number>();
        for (const [id, tf] of [...docs].sort((a, b) => a[0] - b[0])) m.set(id, tf);
        p.set(fieldId, m);
      }
      return p;
    });

  it("append gives the postings of fetch and set, whether the term is new, appended, packed or in use", () => {
    const adds = fc.array(
      fc.tuple(
        fc.constantFrom("a", "b", "c"),
        fc.nat(3),
        fc.nat(40),
        fc.integer({ min: 1, max: 5 }),
      ),
      { maxLength: 40 },
    );
    fc.assert(
      fc.property(adds, adds, (before, after) => {
        const plain = new TermMap();
        const add = (m: TermMap, [term, f, d, tf]: [string, number, number, number]): void => {
          const data = m.fetch(term, () => new Map());
          const docs = data.get(f) ?? new Map<number, number>();
          data.set(f, docs);
          docs.set(d, (docs.get(d) ?? 0) + tf);
        };
        before.forEach((a) => add(plain, a));
        const appended = new TermMap();
        before.forEach(([t, f, d, tf]) => appended.append(t, f, d, tf));
        const saved = [...appended.packedEntries()];
        const packed = TermMap.fromSaved(
          saved.map(([t]) => t).join("\n"),
          saved.map(([, p]) => p).join("\n"),
        );
        const used = new TermMap();
        before.forEach(([t, f, d, tf]) => used.append(t, f, d, tf));
        for (const t of ["a", "b", "c"]) used.get(t);
        after.forEach((a) => add(plain, a));
        for (const m of [appended, packed, used])
          after.forEach(([t, f, d, tf]) => m.append(t, f, d, tf));
        const sorted = (m: TermMap) =>
          [...m]
            .map(([t, p]) => [
              t,
              [...p].map(([f, d]) => [f, [...d].sort((x, y) => x[0] - y[0])]).sort(),
            ])
            .sort();
        for (const m of [appended, packed, used]) expect(sorted(m)).toEqual(sorted(plain));
        expect([...appended.packedEntries()].sort()).toEqual([...plain.packedEntries()].sort());
      }),
      { numRuns: 100 },
    );
  });

  it("sweep removes gone documents' postings in every form, keeps clean packed terms packed, deletes emptied terms", () => {
    const built = new TermMap();
    built.append("a", 0, 1, 2);
    built.append("a", 1, 2, 1);
    built.append("b", 0, 2, 1);
    built.append("c", 0, 3, 1);
    const restored = TermMap.fromSaved(
      "a\nb\nc",
      [...built.packedEntries()].map(([, p]) => p).join("\n"),
    );
    const used = new TermMap();
    used.set(
      "a",
      new Map([
        [0, new Map([[1, 2]])],
        [1, new Map([[2, 1]])],
      ]),
    );
    used.set("b", new Map([[0, new Map([[2, 1]])]]));
    used.set("c", new Map([[0, new Map([[3, 1]])]]));
    for (const m of [built, restored, used]) {
      m.sweep((doc) => doc === 2, 0, m.idCount);
      expect([...m.keys()].sort()).toEqual(["a", "c"]);
      const a: Postings = m.get("a") ?? new Map<number, Map<number, number>>();
      expect([...a].map(([f, d]) => [f, [...d]])).toEqual([[0, [[1, 2]]]]);
    }
    // A restored term with no gone document is not unpacked.
    expect(restored.lookup("c")).toBeInstanceOf(Int32Array);
    const untouched = TermMap.fromSaved("c", "0:3");
    untouched.sweep(() => false, 0, untouched.idCount);
    expect([...untouched.packedEntries()]).toEqual([["c", "0:3"]]);
  });

  it("packs and unpacks postings losslessly", () => {
    fc.assert(
      fc.property(postingsArb, (p) => {
        const back = unpackPostings(packPostings(p));
        const sorted = (x: Postings) =>
          [...x]
            .map(([f, d]) => [f, [...d].sort((a, b) => a[0] - b[0])])
            .sort((a, b) => Number(a[0]) - Number(b[0]));
        expect(sorted(back)).toEqual(sorted(p));
      }),
    );
  });

  it("answers MiniSearch's calls like a map and builds a radix tree for prefix and fuzzy lookups", () => {
    const map = new TermMap();
    map.set("refund", new Map([[0, new Map([[1, 2]])]]));
    map.fetch("refunds", () => new Map());
    expect(map.size).toBe(2);
    expect(map.has("refund")).toBe(true);
    expect([...map.atPrefix("ref").keys()].sort()).toEqual(["refund", "refunds"]);
    expect([...map.fuzzyGet("refnd", 1).keys()]).toEqual(["refund"]);
    map.delete("refunds");
    expect([...map.atPrefix("ref").keys()]).toEqual(["refund"]);
    expect([...map].map(([k]) => k)).toEqual(["refund"]);
  });
});

describe("search blocks", () => {
  it("splits paragraphs, list items with their children, headings, quotes, tables and code, with block ids", () => {
    const body = [
      "# Title",
      "First paragraph",
      "continues here. ^p1",
      "",
      "- [ ] Task one ^t-1",
      "    - 2026-03-24: progress",
      "- Task two",
      "^t-2",
      "",
      "> [!insight] 2026-03-27",
      "> Quoted insight",
      "^q-1",
      "",
      "| a | b |",
      "|---|---|",
      "",
      "```",
      "code ^not-an-id",
      "",
      "more code",
      "```",
      "Last line",
    ].join("\n");
    const blocks = splitSearchBlocks(body).map((b) => [b.id, b.text, b.heading]);
    expect(blocks).toEqual([
      [null, "# Title", true],
      ["p1", "First paragraph\ncontinues here.", false],
      ["t-1", "- [ ] Task one\n    - 2026-03-24: progress", false],
      ["t-2", "- Task two", false],
      ["q-1", "> [!insight] 2026-03-27\n> Quoted insight", false],
      [null, "| a | b |\n|---|---|", false],
      [null, "```\ncode ^not-an-id\n\nmore code\n```", false],
      [null, "Last line", false],
    ]);
  });
});

describe("block probes", () => {
  const blockTokenizer = createTokenizer({ cjk: "ngrams" });
  it("every term the tokenizer makes of a text has its probe in that text (no block is skipped wrongly)", () => {
    const word = fc.stringMatching(/^[A-Za-z][a-z]{0,14}(?:['’](?:s|t|ll))?$/);
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            word,
            fc.constantFrom(
              "stability",
              "happy",
              "days",
              "Ays",
              "ays",
              "ponies",
              "relational",
              "possibly",
              "O'Neil",
              "don't",
              "认证系统",
              "INC-2024-0887",
              "Ünïcödé",
            ),
          ),
          { minLength: 1, maxLength: 6 },
        ),
        (words) => {
          const text = words.join(" ");
          const [b] = rankedBlocks([{ id: null, text, line: 0, heading: false }]);
          for (const t of blockTokenizer(text))
            expect(b?.probeText.includes(probeOf(t)), `${t} in ${text}`).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("scores only blocks holding a query term, with BM25 over the blocks of all notes", () => {
    const blocks = rankedBlocks(
      ["the bounce rate went up", "nothing here", "bounce bounce"].map((text, line) => ({
        id: null,
        text,
        line,
        heading: false,
      })),
    );
    const scorer = new BlockScorer();
    const [scores] = scorer.score([blocks], tokenize("bounce rate"));
    expect(scores?.[1]).toBe(0);
    expect(scores?.[0]).toBeGreaterThan(scores?.[2] ?? Infinity);
    // "nothing here" holds no probe of either term, so it is not even scanned.
    expect(scorer.lastScanned).toBe(2);
    // A second query over the same blocks reuses their scans and scores the same way.
    expect(scorer.score([blocks], tokenize("bounce rate"))).toEqual([scores]);
    expect(scorer.lastScanned).toBe(0);
    // BM25 by hand: n = 3 blocks; "bounce" in 2 (df 2), "rate" in 1; lengths 5 and 2, average 3.5.
    const idf = (d: number) => Math.log(1 + (3 - d + 0.5) / (d + 0.5));
    const part = (tf: number, len: number) =>
      (tf * 2.2) / (tf + 1.2 * (1 - 0.5 + (0.5 * len) / 3.5));
    expect(scores?.[0]).toBeCloseTo(idf(2) * part(1, 5) + idf(1) * part(1, 5), 10);
    expect(scores?.[2]).toBeCloseTo(idf(2) * part(2, 2), 10);
  });

  it("documentsWithEvery: the documents holding every term, built, restored, discarded and added to", () => {
    const terms = [...new Set(WORDS.flatMap((w) => tokenize(w)))];
    fc.assert(
      fc.property(
        fc.array(docArb, { minLength: 1, maxLength: 25 }),
        fc.array(fc.constantFrom(...terms), { minLength: 1, maxLength: 3 }),
        fc.array(fc.nat(24)),
        (raw, asked, gone) => {
          const docs = raw.map((d, i) => ({ ...d, id: `n${i}.md` }));
          const holds = (d: Doc) => {
            const own = new Set(FIELDS.flatMap((f) => tokenize(d[f])));
            return asked.every((t) => own.has(t));
          };
          const expected = (live: Doc[]) =>
            live
              .filter(holds)
              .map((d) => d.id)
              .sort();
          const { counted } = buildBoth(docs);
          counted.flush();
          expect([...counted.documentsWithEvery(asked)].sort()).toEqual(expected(docs));
          // Restored (postings packed, unpacked on first use), then some discarded: they are left out
          // though their postings stay until a vacuum.
          const restored = SearchEngine.fromSaved<Doc>(
            JSON.parse(JSON.stringify(counted.toSaved())) as ReturnType<typeof counted.toSaved>,
            options,
          );
          const removed = new Set(gone.filter((g) => g < docs.length).map((g) => `n${g}.md`));
          for (const id of removed) restored.discard(id);
          let live = docs.filter((d) => !removed.has(d.id));
          expect([...restored.documentsWithEvery(asked)].sort()).toEqual(expected(live));
          // A document added after: its postings join the terms' (maps once MiniSearch touches them).
          const extra: Doc = { id: "extra.md", title: asked.join(" "), body: "" };
          restored.add(extra);
          live = [...live, extra];
          expect([...restored.documentsWithEvery(asked)].sort()).toEqual(expected(live));
        },
      ),
      { numRuns: 300 },
    );
    const { counted } = buildBoth([{ id: "a.md", title: "alpha", body: "beta" }]);
    expect([...counted.documentsWithEvery(["alpha", "beta"])]).toEqual(["a.md"]);
    expect(counted.documentsWithEvery(["alpha", "nowhere"]).size).toBe(0);
  });
});
