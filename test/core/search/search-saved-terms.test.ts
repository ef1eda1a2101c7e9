/**
 * The term dictionary as saved (src/core/search/engine/saved-terms.ts, saved index format 11):
 * found by probing the saved hash table, never rebuilt on load; terms added after load go to an
 * overlay that the next save merges.
 */
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { SavedTerms } from "../../../src/core/search/engine/saved-terms";
import { SearchEngine, type BinaryTerms } from "../../../src/core/search/engine/search-engine";
import { CorruptPostingsError } from "../../../src/core/search/engine/postings-bytes";
import { TermMap } from "../../../src/core/search/engine/term-map";
import { compactOf } from "../../../src/core/search/engine/postings";
import { tokenize } from "../../../src/core/search/engine/tokenizer";
import { rng } from "../../../bench/lib/synthetic-vault";
import { HELP_PAGES, markdownFilesUnder } from "../../helpers/help-pages";

interface Doc {
  id: string;
}
const FIELDS = ["title", "body", "tags"];

const OPTIONS = {
  idField: "id",
  fields: FIELDS,
  storeFields: [],
  tokenize,
  processTerm: (t: string) => t,
  searchOptions: {
    boost: { title: 3 },
    tokenize: (t: string) => t.split(" "),
    processTerm: (t: string) => t,
  },
};

function engine(): SearchEngine<Doc> {
  return new SearchEngine<Doc>(OPTIONS);
}

/** MiniSearch's protected members the tests read. */
function inside(e: SearchEngine<Doc>): { _index: TermMap; _documentIds: Map<number, string> } {
  return e as unknown as { _index: TermMap; _documentIds: Map<number, string> };
}

/** `e` saved (format 11) and restored: the restored engine and what was saved. */
async function roundTrip(
  e: SearchEngine<Doc>,
): Promise<{ restored: SearchEngine<Doc>; binary: BinaryTerms }> {
  const binary = await e.toBinary({ batchSize: 7, yieldToHost: () => Promise.resolve() });
  const start = Uint32Array.from(binary.ends, (_, k) => (k === 0 ? 0 : (binary.ends[k - 1] ?? 0)));
  const restored = SearchEngine.fromBinary<Doc>(
    e.savedState(),
    new SavedTerms(binary.terms),
    { bytes: binary.postings.slice(), start, end: binary.ends, verify: () => undefined },
    OPTIONS,
  );
  return { restored, binary };
}

/** Every live term of `e` (its dictionary's keys). */
function termsOf(e: SearchEngine<Doc>): string[] {
  return [...inside(e)._index.keys()];
}

/** A term's postings, compact whatever form they are held in. */
function lookup(e: SearchEngine<Doc>, term: string): Int32Array | undefined {
  const p = inside(e)._index.lookup(term);
  return p instanceof Map ? compactOf(p) : p;
}

/** Texts of random words: ASCII, accented Latin, CJK, an emoji (a surrogate pair). */
function randomTexts(seed: number, n: number): string[] {
  const rand = rng(seed);
  const alphabet = ["otter", "beaver", "café", "naïve", "水獭", "河狸", "🦦", "x", "Ωmega", "ß"];
  return Array.from({ length: n }, () =>
    Array.from({ length: 3 + Math.floor(rand() * 30) }, () => {
      const a = alphabet[Math.floor(rand() * alphabet.length)] ?? "";
      return `${a}${Math.floor(rand() * 50)}`;
    }).join(" "),
  );
}

describe("SavedTerms", () => {
  it("finds every term it was given by its index, and no other (any strings)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.string({ unit: "grapheme", maxLength: 12 }), { maxLength: 200 }),
        fc.array(fc.string({ unit: "grapheme", maxLength: 12 }), { maxLength: 30 }),
        async (terms, others) => {
          const saved = new SavedTerms(await SavedTerms.encode(terms, undefined, 16));
          expect(saved.count).toBe(terms.length);
          terms.forEach((t, k) => {
            expect(saved.find(t, 0, t.length)).toBe(k);
            expect(saved.keyAt(k)).toBe(t);
            // A span of a longer string finds the same term.
            const text = `<${t}>`;
            expect(saved.find(text, 1, text.length - 1)).toBe(k);
          });
          for (const o of others)
            if (!terms.includes(o)) expect(saved.find(o, 0, o.length)).toBe(-1);
        },
      ),
    );
  });

  it("refuses parts of the wrong shape, and a damaged table throws CorruptPostingsError", async () => {
    const parts = await SavedTerms.encode(["otter", "beaver", "水獭"]);
    expect(
      () => new SavedTerms({ ...parts, starts: Uint32Array.of(0, 9, 3, parts.bytes.length) }),
    ).toThrow(/term 0 ends before|term 1 ends before/);
    expect(() => new SavedTerms({ ...parts, starts: Uint32Array.of(1, 2) })).toThrow(/do not span/);
    expect(() => new SavedTerms({ ...parts, slots: new Uint32Array(3) })).toThrow(
      /3 slots for 3 terms/,
    );
    const wrong = new SavedTerms({ ...parts, slots: parts.slots.map((s) => (s === 0 ? 0 : 9)) });
    expect(() => wrong.find("otter", 0, 5)).toThrow(CorruptPostingsError);
    const full = new SavedTerms({ ...parts, slots: new Uint32Array(parts.slots.length).fill(1) });
    expect(() => full.find("beaver", 0, 6)).toThrow(/no empty slot/);
  });
});

describe("a SearchEngine restored from its saved dictionary (format 11)", () => {
  it("finds every term with its postings, no other, then a term added after load and not one removed", async () => {
    const e = engine();
    const texts = randomTexts(5, 300);
    texts.forEach((t, i) => e.addText(`n${i}.md`, [t.slice(0, 20), t, ""], FIELDS));
    e.flush();
    const { restored, binary } = await roundTrip(e);
    const terms = termsOf(e);
    expect(terms.length).toBeGreaterThan(100);
    expect(new SavedTerms(binary.terms).count).toBe(terms.length);
    for (const term of terms) expect(lookup(restored, term), term).toEqual(lookup(e, term));
    for (const absent of ["otter99", "zebra", "鲸", "", "🦦1000", "otter7x"]) {
      expect(inside(restored)._index.has(absent), absent).toBe(false);
      expect(lookup(restored, absent), absent).toBeUndefined();
    }
    const query = (x: SearchEngine<Doc>, q: string): [string, number][] =>
      x.search(q, { boost: { title: 3 } }).map((r) => [String(r.id), r.score]);
    for (const q of ["otter7", "水獭3 河狸4", "café12", "🦦5"])
      expect(query(restored, q)).toEqual(query(e, q));

    // A term added after load (into the overlay), and one removed with its only note.
    restored.addText("new.md", ["brandnewterm", "otter7 zebrafish", ""], FIELDS);
    e.addText("new.md", ["brandnewterm", "otter7 zebrafish", ""], FIELDS);
    expect(query(restored, "zebrafish")).toEqual([["new.md", query(e, "zebrafish")[0]?.[1]]]);
    expect(query(restored, "otter7")).toEqual(query(e, "otter7"));
    const only = terms.find((t) => lookup(e, t)?.length === 3);
    expect(only).toBeDefined();
    const p = lookup(e, only ?? "") ?? new Int32Array(0);
    const doc = inside(e)._documentIds.get(p[1] ?? -1) ?? "";
    for (const x of [restored, e]) {
      x.discard(doc);
      await x.vacuum();
    }
    expect(inside(restored)._index.has(only ?? "")).toBe(false);

    // Saved again: the overlay is merged, the removed term is gone, the rest as before.
    const again = await roundTrip(restored);
    const kept = termsOf(restored);
    expect(kept).toContain("zebrafish");
    expect(kept).not.toContain(only);
    expect(new SavedTerms(again.binary.terms).count).toBe(kept.length);
    for (const term of kept) expect(lookup(again.restored, term), term).toEqual(lookup(e, term));
    expect(query(again.restored, "zebrafish otter7")).toEqual(query(e, "zebrafish otter7"));
    expect(inside(again.restored)._index.has(only ?? "")).toBe(false);
  });

  const DATA = HELP_PAGES;
  it.skipIf(!existsSync(DATA))(
    "finds every term of the Obsidian help pages with its postings",
    async () => {
      const files = markdownFilesUnder(DATA);
      const e = engine();
      files.forEach((f, i) => {
        const t = readFileSync(f, "utf8");
        e.addText(`${i}.md`, [/^# (.*)$/m.exec(t)?.[1] ?? "", t, ""], FIELDS);
      });
      e.flush();
      const { restored } = await roundTrip(e);
      const terms = termsOf(e);
      expect(terms.length).toBeGreaterThan(1000);
      for (const term of terms) expect(lookup(restored, term), term).toEqual(lookup(e, term));
      expect(inside(restored)._index.has("definitelynotawordinthehelp")).toBe(false);
    },
  );
});
