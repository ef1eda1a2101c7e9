// SearchEngine (src/core/search/engine/search-engine.ts) run side by side with stock MiniSearch 7.2
// on the same documents and options must answer as MiniSearch does
// (docs/decisions.md, "A field's BM25 length is its number of distinct terms"). Each case below is
// a divergence found by running MiniSearch's own test suite against SearchEngine: removeAll, the
// clean-up of discarded documents during a search, a default `filter`, `limit: 0`, and the field
// lengths BM25 reads.
import { afterEach, describe, expect, it } from "vitest";
import fc from "fast-check";
import MiniSearch, { type SearchResult } from "minisearch";
import {
  SearchEngine,
  countTerms,
  type SavedMiniIndex,
} from "../../../src/core/search/engine/search-engine";
import { INDEX_FIELDS, type IndexDoc } from "../../../src/core/search/note-document";
import {
  miniSearchOptions,
  SearchService,
  type SearchResponse,
} from "../../../src/core/search/search-service";
import { tokenize } from "../../../src/core/search/engine/tokenizer";
import { MemoryLayout } from "../../../src/core/layout";
import { defaultSettings } from "../../../src/core/settings";
import { tempVault } from "../../helpers/temp-vault";

const FIELDS = ["title", "body"] as const;
type Doc = { id: string; title: string; body: string };
/** The options of test/core/search/search-index.test.ts: the index tokenizer, queries arriving as terms. */
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
type Opts = typeof options & {
  searchOptions: typeof options.searchOptions & { filter?: (r: SearchResult) => boolean };
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
  "the",
  "a",
];
const docArb = fc.record({
  title: fc.array(fc.constantFrom(...WORDS), { maxLength: 3 }).map((w) => w.join(" ")),
  body: fc.array(fc.constantFrom(...WORDS), { maxLength: 12 }).map((w) => w.join(" ")),
});

const one = (): number => 1;

/** Stock MiniSearch and SearchEngine with the same options and documents (ours through `addText`, as the service adds notes). */
function both(
  docs: readonly Doc[],
  opts: Opts = options,
): { stock: MiniSearch<Doc>; ours: SearchEngine<Doc> } {
  const stock = new MiniSearch<Doc>(opts);
  const ours = new SearchEngine<Doc>(opts);
  addBoth(stock, ours, docs);
  return { stock, ours };
}

function addBoth(stock: MiniSearch<Doc>, ours: SearchEngine<Doc>, docs: readonly Doc[]): void {
  for (const d of docs) {
    stock.add(d);
    ours.addText(d.id, [d.title, d.body], FIELDS);
  }
}

/** toJSON with terms sorted (the two dictionaries iterate in different orders). */
function normalized(index: MiniSearch<Doc>): unknown {
  const json = index.toJSON();
  return {
    ...json,
    index: [...json.index].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)),
  };
}

/** What stock MiniSearch answers for `searchTop(terms, boost, limit, required)`: its search, keeping results that matched every required term. */
function stockTop(
  stock: MiniSearch<Doc>,
  terms: string[],
  limit: number,
  required: string[] = [],
  boost: (id: string) => number = one,
) {
  const hits = stock
    .search(terms.join(" "), { boostDocument: (id) => boost(id as string) })
    .filter((r) => required.every((t) => r.queryTerms.includes(t)));
  return {
    total: hits.length,
    top: hits.slice(0, limit).map((r) => [String(r.id), r.score, [...r.queryTerms].sort()]),
  };
}

function oursTop(
  ours: SearchEngine<Doc>,
  terms: string[],
  limit: number,
  required: string[] = [],
  boost: (id: string) => number = one,
) {
  const got = ours.searchTop(terms, boost, limit, required);
  return { total: got.total, top: got.top.map((h) => [h.id, h.score, [...h.queryTerms].sort()]) };
}

function restored(ours: SearchEngine<Doc>, opts: Opts = options): SearchEngine<Doc> {
  return SearchEngine.fromSaved<Doc>(
    JSON.parse(JSON.stringify(ours.toSaved())) as SavedMiniIndex,
    opts,
  );
}

// The documents of MiniSearch's own removeAll tests.
const DANTE: Doc[] = [
  { id: "1", title: "Divina Commedia", body: "Nel mezzo del cammin di nostra vita ... cammin" },
  { id: "2", title: "I Promessi Sposi", body: "Quel ramo del lago di Como" },
  { id: "3", title: "Vita Nova", body: "In quella parte del libro della mia memoria ... cammin" },
];

describe("SearchEngine and MiniSearch side by side", () => {
  it("1. removeAll() empties the index as MiniSearch's does; adds, searches and saves work after it", () => {
    for (const from of ["built", "restored", "searched"] as const) {
      const { stock, ours: built } = both(DANTE);
      // Postings in each form SearchEngine holds: built, packed (restored) and compact or maps (searched).
      const ours = from === "restored" ? restored(built) : built;
      if (from === "searched") {
        ours.searchTop(["cammin"], one, 10);
        ours.search("vita");
        stock.search("vita");
      }
      for (const index of [stock, ours]) index.discard("2");
      stock.removeAll();
      ours.removeAll();
      expect(normalized(ours), from).toEqual(normalized(stock));
      expect(ours.documentCount).toBe(0);
      expect(ours.termCount).toBe(0);
      expect(oursTop(ours, ["cammin"], 10)).toEqual(stockTop(stock, ["cammin"], 10));

      // The same ids again, and new ones: short ids restart at 0 in both.
      const later: Doc[] = [
        { id: "1", title: "Vita", body: "cammin cammin lago" },
        { id: "4", title: "Como", body: "Quel ramo del lago di Como vita" },
        { id: "5", title: "Nova", body: "libro memoria" },
      ];
      addBoth(stock, ours, later);
      expect(normalized(ours), from).toEqual(normalized(stock));
      for (const q of ["cammin", "vita lago", "libro", "commedia"]) {
        const terms = tokenize(q);
        expect(oursTop(ours, terms, 10), `${from}: ${q}`).toEqual(stockTop(stock, terms, 10));
        expect(ours.search(terms.join(" ")).map((r) => [String(r.id), r.score])).toEqual(
          stock.search(terms.join(" ")).map((r) => [String(r.id), r.score]),
        );
      }
      const back = restored(ours);
      expect(normalized(back), from).toEqual(normalized(stock));
      expect(oursTop(back, ["lago"], 10)).toEqual(stockTop(stock, ["lago"], 10));
    }
  });

  it("1. removeAll(documents) removes those documents, as MiniSearch's does", () => {
    const { stock, ours } = both(DANTE);
    stock.removeAll([DANTE[0]!, DANTE[2]!]);
    ours.removeAll([DANTE[0]!, DANTE[2]!]);
    expect(normalized(ours)).toEqual(normalized(stock));
    expect(ours.documentCount).toBe(1);
    for (const q of ["commedia", "vita", "lago"])
      expect(oursTop(ours, tokenize(q), 10), q).toEqual(stockTop(stock, tokenize(q), 10));
    expect(oursTop(ours, ["lago"], 10).total).toBe(1);
  });

  it("1. removeAll refuses a falsy argument, as MiniSearch's does, and takes an empty list", () => {
    const { stock, ours } = both(DANTE);
    for (const index of [stock, ours]) {
      const call = index.removeAll.bind(index) as (arg?: unknown) => void;
      for (const bad of [null, undefined, false, ""])
        expect(() => call(bad)).toThrow(/Expected documents/);
      expect(() => call([])).not.toThrow();
      expect(index.documentCount).toBe(DANTE.length);
    }
  });

  it("2. searchTop with a required term no note holds still drops the discarded notes' postings it meets, as search() does", () => {
    const docs: Doc[] = ["a", "b", "c", "d"].map((id) => ({
      id,
      title: "",
      body: id === "b" ? "alpha alpha beta" : "alpha beta",
    }));
    const { stock, ours } = both(docs);
    for (const index of [stock, ours]) {
      index.discard("b");
      index.discard("d");
    }
    expect(oursTop(ours, ["alpha", "zzz"], 10, ["zzz"])).toEqual(
      stockTop(stock, ["alpha", "zzz"], 10, ["zzz"]),
    );
    // MiniSearch removed an occurrence of "alpha" for b and d when it met them: the next query
    // sees two notes holding it, not four.
    expect(oursTop(ours, ["alpha", "beta"], 10)).toEqual(stockTop(stock, ["alpha", "beta"], 10));
    expect(normalized(ours)).toEqual(normalized(stock));
  });

  it("2. a sequence of queries, some with required terms no note holds, ranks as MiniSearch does after discards", () => {
    const queryArb = fc.record({
      words: fc.array(fc.constantFrom(...WORDS, "nowhere"), { minLength: 1, maxLength: 3 }),
      requiredCount: fc.nat(2),
    });
    fc.assert(
      fc.property(
        fc.array(docArb, { minLength: 1, maxLength: 10 }),
        fc.array(fc.nat(9), { maxLength: 4 }),
        fc.array(queryArb, { minLength: 1, maxLength: 5 }),
        fc.boolean(),
        (raw, gone, queries, reload) => {
          const docs = raw.map((d, i) => ({ id: `n${i}.md`, ...d }));
          const built = both(docs);
          const stock = built.stock;
          const ours = reload ? restored(built.ours) : built.ours;
          for (const g of new Set(gone)) {
            if (!stock.has(`n${g}.md`)) continue;
            stock.discard(`n${g}.md`);
            ours.discard(`n${g}.md`);
          }
          for (const { words, requiredCount } of queries) {
            const terms = [...new Set(tokenize(words.join(" ")))];
            const required = terms.slice(0, requiredCount);
            expect(oursTop(ours, terms, 100, required)).toEqual(
              stockTop(stock, terms, 100, required),
            );
          }
          expect(normalized(ours)).toEqual(normalized(stock));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("3. searchTop applies the constructor's default search filter, as search() does", () => {
    const filtered: Opts = {
      ...options,
      // A filter reading the whole result (id, score, matched terms), as MiniSearch gives it.
      searchOptions: {
        ...options.searchOptions,
        filter: (r: SearchResult) => r.id !== "b" && r.terms.length > 0 && r.score > 0,
      },
    };
    const docs: Doc[] = [
      { id: "a", title: "alpha", body: "beta" },
      { id: "b", title: "alpha beta", body: "alpha" },
      { id: "c", title: "", body: "alpha gamma" },
    ];
    const { stock, ours } = both(docs, filtered);
    for (const [terms, required] of [
      [["alpha"], []],
      [["alpha", "beta"], []],
      [["alpha", "beta"], ["beta"]],
    ] as const) {
      const t = [...terms];
      const r = [...required];
      expect(oursTop(ours, t, 10, r), t.join(" ")).toEqual(stockTop(stock, t, 10, r));
    }
    expect(ours.searchTop(["alpha"], one, 10).top.map((h) => h.id)).not.toContain("b");
    expect(oursTop(restored(ours, filtered), ["alpha"], 10)).toEqual(
      stockTop(stock, ["alpha"], 10),
    );
  });

  it("4. searchTop with limit 0 returns no hit (what slicing MiniSearch's results to 0 gives), and still counts them", () => {
    const { stock, ours } = both(DANTE);
    for (const q of ["cammin", "del vita", "nowhere"]) {
      const terms = tokenize(q);
      expect(oursTop(ours, terms, 0), q).toEqual(stockTop(stock, terms, 0));
    }
    expect(oursTop(ours, ["del"], 0)).toEqual({ total: 3, top: [] });
    // Not a whole number: as many as its whole part.
    expect(oursTop(ours, ["del"], 2.5)).toEqual(stockTop(stock, ["del"], 2));
  });

  it("5. field lengths: the service's options give the BM25 lengths MiniSearch's add() gives, where stemming merges tokens or the tokenizer drops some", () => {
    const texts = [
      "Running runs run RUN ran",
      "Caroline's Caroline caroline CAROLINE’S",
      "Painting paints painted paint",
      "don't dont DON'T",
      "- -- ... , ; !! ???",
      "the a of and the the",
      "认证认证系统 认证",
      "INC-2024-0887 inc 2024 0887 INC",
      "",
    ];
    const stock = new MiniSearch<IndexDoc>(miniSearchOptions());
    const ours = new SearchEngine<IndexDoc>(miniSearchOptions());
    texts.forEach((text, i) => {
      const doc: IndexDoc = {
        id: `n${i}.md`,
        title: texts[(i + 3) % texts.length] ?? "",
        aliases: "",
        tags: "",
        headings: text,
        properties: "",
        body: `${text} ${text}`,
      };
      stock.add(doc);
      ours.addText(
        doc.id,
        INDEX_FIELDS.map((f) => doc[f]),
        INDEX_FIELDS,
      );
    });
    const json = (ix: MiniSearch<IndexDoc>) => {
      const j = ix.toJSON();
      return {
        fieldLength: j.fieldLength,
        averageFieldLength: j.averageFieldLength,
        index: [...j.index].sort((a, b) => (a[0] < b[0] ? -1 : 1)),
      };
    };
    expect(json(ours)).toEqual(json(stock));
    for (const q of ["run", "caroline", "paint", "认证", "inc"]) {
      expect(
        ours.searchTop([q], one, 20).top.map((h) => [h.id, h.score]),
        q,
      ).toEqual(stock.search(q).map((r) => [String(r.id), r.score]));
    }
  });

  it("5. field lengths on random text: the service's options give MiniSearch's BM25 lengths", () => {
    const PIECES = [
      "Alpha",
      "alpha",
      "Running",
      "runs",
      "Caroline's",
      "don't",
      "ponies",
      "INC-2024-0887",
      "3.2.5",
      "v2.0-rc1",
      "认证系统",
      "東京で会議",
      "서울에서",
      "ภาษาไทย",
      "ＪＷＴ",
      "①",
      "Ünïcödé",
      "😀",
      "#tag",
      "[[link]]",
      "- [ ]",
      "^id",
      "-",
      "'",
      "...",
    ];
    const textArb = fc
      .array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 5 })), { maxLength: 12 })
      .map((w) => w.join(" "));
    fc.assert(
      fc.property(fc.array(fc.tuple(textArb, textArb), { minLength: 1, maxLength: 6 }), (texts) => {
        const stock = new MiniSearch<IndexDoc>(miniSearchOptions());
        const ours = new SearchEngine<IndexDoc>(miniSearchOptions());
        texts.forEach(([title, body], i) => {
          const doc: IndexDoc = {
            id: `n${i}.md`,
            title,
            aliases: "",
            tags: "",
            headings: "",
            properties: "",
            body,
          };
          stock.add(doc);
          ours.addText(
            doc.id,
            INDEX_FIELDS.map((f) => doc[f]),
            INDEX_FIELDS,
          );
        });
        expect(ours.toJSON().fieldLength).toEqual(stock.toJSON().fieldLength);
        expect(ours.toJSON().averageFieldLength).toEqual(stock.toJSON().averageFieldLength);
      }),
      { numRuns: 200 },
    );
  });

  it("5. MiniSearch's field length is the number of distinct tokens before processTerm: add() keeps it, addCounted counts terms", () => {
    // MiniSearch's default tokenizer (spaces and punctuation) with a processTerm that lower-cases
    // and drops "of": 5 tokens, all distinct, make 2 terms.
    const opts = {
      fields: ["body"],
      processTerm: (t: string) => (t === "of" ? null : t.toLowerCase()),
    };
    const stock = new MiniSearch<{ id: string; body: string }>(opts);
    const ours = new SearchEngine<{ id: string; body: string }>(opts);
    const doc = { id: "x", body: "Alpha alpha ALPHA of beta" };
    stock.add(doc);
    ours.add(doc);
    expect(stock.toJSON().fieldLength).toEqual({ 0: [5] });
    expect(normalized(ours as unknown as MiniSearch<Doc>)).toEqual(
      normalized(stock as unknown as MiniSearch<Doc>),
    );
    // addCounted is given terms, not tokens, and counts distinct terms: MiniSearch's length only
    // when processTerm is the identity, as in the service's options (the case above).
    const counted = new SearchEngine<{ id: string; body: string }>(opts);
    counted.addCounted("x", [countTerms(["alpha", "alpha", "alpha", "beta"])], ["body"]);
    expect(counted.toJSON().fieldLength).toEqual({ 0: [2] });
  });
});

describe("SearchService limit", () => {
  let cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const c of cleanups) c();
    cleanups = [];
  });

  it("4. limit 0 returns no notes, with the total a larger limit reports", async () => {
    const tv = tempVault({
      "Memory/Library/a.md":
        "---\ntype: library\n---\n# Refund policy\n\nThe refund policy for annual plans.\n",
      "Memory/Library/b.md": "---\ntype: library\n---\n# Refunds\n\nA refund within 30 days.\n",
    });
    cleanups.push(tv.cleanup);
    const service = new SearchService({
      vault: tv.vault,
      layout: new MemoryLayout(defaultSettings()),
      store: null,
      now: () => Date.parse("2026-12-01T12:00:00Z"),
    });
    await service.open();
    const run = async (query: string, limit: number): Promise<SearchResponse> => {
      const r = await service.search(query, { limit });
      if (!r.ok) throw new Error(r.error);
      return r.value;
    };
    for (const query of ["refund", '"refund policy"', "type:library"]) {
      const all = await run(query, 10);
      expect(all.results.length, query).toBeGreaterThan(0);
      const none = await run(query, 0);
      expect(none.results, query).toEqual([]);
      if (!query.startsWith('"')) expect(none.total, query).toBe(all.total);
    }
  });
});
