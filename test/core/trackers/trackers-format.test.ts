import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CHAR_STATUS,
  KIND_PREFIX,
  PREFIX_KIND,
  STATUS_CHAR,
  checkboxOf,
  listItems,
  parseTracker,
  scanItemLine,
  serializeTracker,
} from "../../../src/core/trackers/format";
import { splitLines } from "../../../src/core/markdown/lines";
import { TRACKER_KINDS } from "../../../src/core/settings";
import { anyText, trackerNote } from "../../helpers/tracker-arbitraries";

/** The tracker example of docs/architecture.md, "Trackers", verbatim. */
const DOCUMENTED_EXAMPLE = [
  "- [ ] Get the top-10 pages by traffic and bounce rate [priority:: 2] [kind:: act] [created:: 2026-03-24] [source:: [[2026-03-24#^am-k3f9]]] ^t-048",
  "- [x] Draft the audit checklist [created:: 2026-03-20] ^t-047",
  "- [-] Rewrite the pricing page [created:: 2026-03-02] ^t-031",
  "- [ ] Content quality scoring system [target:: 2026-04-30] ^g-006",
  "    - 2026-03-24: framework built; first audit: blog 79, home page 38",
  "    - 2026-03-27: bounce rate matters more than the framework",
  "- [ ] Self-review loop [every:: biweekly] [next:: 2026-12-13] ^r-002",
  "- [ ] Add a quality checklist to content review [to:: [[editor]]] [status:: proposed] ^p-001",
  "    - Observation: blog scored 79%, home page 38%; nothing checked metrics before publishing",
  "    - Recommendation: a 7-point checklist at review, pass mark 10 of 14",
  "",
].join("\n");

describe("tracker format: round trip", () => {
  it("parse → serialise returns the same bytes for generated tracker notes", () => {
    fc.assert(
      fc.property(trackerNote, (g) => {
        expect(serializeTracker(parseTracker(g.text))).toBe(g.text);
      }),
      { numRuns: 400 },
    );
  });

  it("parse → serialise returns the same bytes for any text (lone CR, binary, fences, fences of frontmatter)", () => {
    fc.assert(
      fc.property(anyText, fc.boolean(), (t, bom) => {
        const text = (bom ? "\uFEFF" : "") + t;
        expect(serializeTracker(parseTracker(text))).toBe(text);
      }),
      { numRuns: 400 },
    );
  });

  it("reads the generated items: status, text, fields in order, id, children", () => {
    fc.assert(
      fc.property(trackerNote, (g) => {
        const items = listItems(g.text);
        expect(
          items.map((i) => ({
            statusChar: i.statusChar,
            text: i.text,
            fields: i.fields,
            id: i.id,
            children: i.children,
          })),
        ).toEqual(g.items.map((i) => ({ ...i, text: i.text.replace(/\s+/g, " ").trim() })));
        const lines = splitLines(g.text).lines;
        for (const item of items) {
          expect(lines[item.line]?.text.slice(0, 5)).toMatch(/^[-*+] \[.\]$/);
          expect(item.status).toBe(CHAR_STATUS[item.statusChar]);
          expect(item.prefix).toBe(item.id ? item.id.split("-")[0] : null);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("tracker format: items", () => {
  it("checkboxOf writes each status's checkbox, and [?] for any other word", () => {
    expect(["open", "in-progress", "done", "abandoned"].map(checkboxOf)).toEqual([
      "[ ]",
      "[/]",
      "[x]",
      "[-]",
    ]);
    expect(checkboxOf("proposed")).toBe("[?]");
  });

  it("reads the documented example", () => {
    const items = listItems(DOCUMENTED_EXAMPLE);
    expect(items.map((i) => [i.id, i.status])).toEqual([
      ["t-048", "open"],
      ["t-047", "done"],
      ["t-031", "abandoned"],
      ["g-006", "open"],
      ["r-002", "open"],
      ["p-001", "open"],
    ]);
    const first = items[0];
    expect(first?.text).toBe("Get the top-10 pages by traffic and bounce rate");
    expect(first?.fields).toEqual([
      { key: "priority", value: "2" },
      { key: "kind", value: "act" },
      { key: "created", value: "2026-03-24" },
      { key: "source", value: "[[2026-03-24#^am-k3f9]]" },
    ]);
    expect(first?.prefix).toBe("t");
    expect(items[3]?.children).toEqual([
      "    - 2026-03-24: framework built; first audit: blog 79, home page 38",
      "    - 2026-03-27: bounce rate matters more than the framework",
    ]);
    expect(items[3]?.line).toBe(3);
    expect(items[3]?.endLine).toBe(6);
    expect(items[5]?.fields).toEqual([
      { key: "to", value: "[[editor]]" },
      { key: "status", value: "proposed" },
    ]);
  });

  it("reads in-progress, upper-case X, and skips unknown status characters", () => {
    const items = listItems(
      "- [/] doing ^t-001\n- [X] done ^t-002\n- [>] forwarded ^t-003\n- [x]\n",
    );
    expect(items.map((i) => [i.id, i.status, i.statusChar, i.text])).toEqual([
      ["t-001", "in-progress", "/", "doing"],
      ["t-002", "done", "X", "done"],
      [null, "done", "x", ""],
    ]);
  });

  it("keeps fields in the middle of the text and wikilinks in the text", () => {
    const scan = scanItemLine(
      "- [ ] Call [who:: [[Person B]]] about [[Project Alpha]] (due:: 2026-04-01) ^q-1000",
    );
    expect(scan?.text).toBe("Call about [[Project Alpha]]");
    expect(scan?.fields.map((f) => [f.key, f.value, f.open])).toEqual([
      ["who", "[[Person B]]", "["],
      ["due", "2026-04-01", "("],
    ]);
    expect(scan?.id).toBe("q-1000");
  });

  it("an unclosed field is text, and a caret inside a word is not a block id", () => {
    const scan = scanItemLine("- [ ] Compute x^2 [note:: open bracket ^t-5");
    expect(scan?.fields).toEqual([]);
    expect(scan?.id).toBe("t-5");
    expect(scan?.text).toBe("Compute x^2 [note:: open bracket");
    expect(scanItemLine("- [ ] Compute x^2")?.id).toBeNull();
  });

  it("does not read items in frontmatter or code fences", () => {
    const text =
      "---\nnote: |\n  - [ ] not an item ^t-100\n---\n```\n- [ ] code ^t-101\n```\n- [ ] real ^t-001\n";
    const note = parseTracker(text);
    expect(note.bodyStart).toBe(4);
    expect(note.items.map((i) => i.id)).toEqual(["t-001"]);
  });

  it("case 03: a horizontal rule pair is not frontmatter; the note is body and stays writable", () => {
    const text = "---\n\nMet Person A about Project Alpha.\n\n---\n- [ ] Call Person A ^t-001\n";
    const note = parseTracker(text);
    expect(note.bodyStart).toBe(0);
    expect(note.frontmatterError).toBeNull();
    expect(note.items.map((i) => i.id)).toEqual(["t-001"]);
    expect(serializeTracker(note)).toBe(text);
  });

  it("reports frontmatter that does not parse without throwing and keeps it byte for byte", () => {
    const text = "---\npeople: [[Person A]], [[Person B]]\n---\n- [ ] x ^t-001\n";
    const note = parseTracker(text);
    expect(note.frontmatterError).toMatch(/YAML|yaml/);
    expect(note.items.map((i) => i.id)).toEqual(["t-001"]);
    expect(serializeTracker(note)).toBe(text);
  });

  it("children: indented lines, blank lines between them, not trailing blank lines", () => {
    const text =
      "- [ ] a ^t-001\n    - one\n\n\t- two\n\n- [ ] b ^t-002\n  - three\n\nprose\n    - not a child\n";
    const [a, b] = listItems(text);
    expect(a?.children).toEqual(["    - one", "", "\t- two"]);
    expect(a?.endLine).toBe(4);
    expect(b?.children).toEqual(["  - three"]);
    expect(b?.endLine).toBe(7);
  });

  it("keeps CRLF, BOM and a missing final newline; line numbers do not count the BOM", () => {
    const text =
      "\uFEFF# 任务\r\n- [ ] 续签护照 [created:: 2026-03-24] ^t-001\r\n    - 2026-03-25: 预约了";
    const note = parseTracker(text);
    expect(note.bom).toBe(true);
    expect(note.eol).toBe("\r\n");
    expect(note.items[0]?.line).toBe(1);
    expect(note.items[0]?.text).toBe("续签护照");
    expect(note.items[0]?.children).toEqual(["    - 2026-03-25: 预约了"]);
    expect(serializeTracker(note)).toBe(text);
  });

  it("kind prefixes and status characters are inverse maps", () => {
    for (const kind of TRACKER_KINDS) expect(PREFIX_KIND[KIND_PREFIX[kind]]).toBe(kind);
    for (const [status, ch] of Object.entries(STATUS_CHAR)) expect(CHAR_STATUS[ch]).toBe(status);
  });
});
