/** Postings as bytes (src/core/search/engine/postings-bytes.ts): the saved index's format 10. */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  ByteWriter,
  CorruptPostingsError,
  hashBytes,
  readCompact,
  writeCompact,
} from "../../../src/core/search/engine/postings-bytes";
import { compactOf, type Postings } from "../../../src/core/search/engine/postings";
import { TermMap } from "../../../src/core/search/engine/term-map";

/** Random map postings: fields 0–5, documents below 5000, frequencies 1–300. */
const postingsArb = fc
  .array(
    fc.tuple(
      fc.integer({ min: 0, max: 5 }),
      fc.integer({ min: 0, max: 4999 }),
      fc.integer({ min: 1, max: 300 }),
    ),
    { minLength: 1, maxLength: 60 },
  )
  .map((rows) => {
    const p: Postings = new Map();
    for (const [f, d, tf] of rows) {
      const docs = p.get(f) ?? new Map<number, number>();
      docs.set(d, tf);
      p.set(f, docs);
    }
    return p;
  });

describe("postings as bytes", () => {
  it("hashBytes continued from the hash of a first piece is the hash of the whole", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.nat(), (bytes, at) => {
        const cut = bytes.length === 0 ? 0 : at % bytes.length;
        expect(hashBytes(bytes, cut, bytes.length, hashBytes(bytes, 0, cut))).toBe(
          hashBytes(bytes),
        );
      }),
    );
    // A different seed gives another hash.
    expect(hashBytes(Uint8Array.of(1, 2), 0, 2, 7)).not.toBe(hashBytes(Uint8Array.of(1, 2)));
  });

  it("round-trip any postings (fields, then documents, ascending)", () => {
    fc.assert(
      fc.property(postingsArb, (p) => {
        const c = compactOf(p);
        const out = new ByteWriter(16);
        writeCompact(c, out);
        expect(readCompact(out.bytes, 0, out.length, 5000)).toEqual(c);
      }),
    );
  });

  it("refuse bytes cut short, trailing, or holding a document at or past the index's next id", () => {
    const c = compactOf(
      new Map([
        [
          0,
          new Map([
            [3, 1],
            [700, 2],
          ]),
        ],
        [2, new Map([[9, 1]])],
      ]),
    );
    const out = new ByteWriter();
    writeCompact(c, out);
    const bytes = out.view();
    expect(readCompact(bytes, 0, bytes.length, 701)).toEqual(c);
    expect(() => readCompact(bytes, 0, bytes.length, 700)).toThrow(/out of range/);
    expect(() => readCompact(bytes, 0, bytes.length - 1, 701)).toThrow(/cut short|order/);
    const longer = new Uint8Array([...bytes, 0]);
    expect(() => readCompact(longer, 0, longer.length, 701)).toThrow(/bad postings/);
  });

  it("a TermMap restored from bytes answers like the one saved, copies unused terms as they are, and names a damaged one", () => {
    const source = new TermMap();
    source.append("otter", 0, 0, 2);
    source.append("otter", 5, 1, 1);
    source.append("beaver", 0, 1, 3);
    source.append("水獭", 5, 2, 1);
    const out = new ByteWriter();
    const terms: string[] = [];
    const ends: number[] = [];
    source.writeRange(out, terms, ends, 0, source.idCount);
    const bytes = out.view().slice();
    const restore = (data: Uint8Array, verify = (): void => undefined): TermMap =>
      TermMap.fromBytes(terms.join("\n"), {
        bytes: data,
        start: Uint32Array.from(ends.map((_, k) => (k === 0 ? 0 : (ends[k - 1] ?? 0)))),
        end: Uint32Array.from(ends),
        verify,
        maxDoc: 3,
      });
    const restored = restore(bytes);
    for (const term of terms) expect(restored.lookup(term)).toEqual(source.lookup(term));
    // Saved again without being used: the same bytes, checked first.
    const fresh = restore(bytes);
    const again = new ByteWriter();
    const checked: [number, number][] = [];
    const checking = restore(bytes, () => void checked.push([0, 0]));
    checking.writeRange(again, [], [], 0, checking.idCount);
    expect(again.view()).toEqual(bytes);
    expect(checked).toHaveLength(terms.length);
    expect(hashBytes(again.view())).toBe(hashBytes(bytes));
    expect(fresh.has("otter")).toBe(true);
    // A damaged byte is found when the term is first read.
    const damaged = bytes.slice();
    damaged[0] = 0x7f;
    expect(() => restore(damaged).lookup(terms[0] ?? "")).toThrow(CorruptPostingsError);
    expect(() =>
      restore(bytes, () => {
        throw new CorruptPostingsError("block 0 checksum mismatch");
      }).lookup("beaver"),
    ).toThrow(/block 0 checksum mismatch for term "beaver"/);
  });
});
