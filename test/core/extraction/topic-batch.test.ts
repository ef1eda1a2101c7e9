import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { writeItem, writeItems, type WriteContext } from "../../../src/core/extraction/write-item";
import type { PlannedItem } from "../../../src/core/extraction/types";
import { MemoryLayout } from "../../../src/core/layout";
import { defaultSettings } from "../../../src/core/settings";
import { errorMessage } from "../../../src/core/errors";

// A topic note's items are written to the note parsed once (docs/decisions.md, "Applying parses
// each note once"): the note and the outcome must be what writing them one at a time gives, each
// item on the text the one before left, whatever the note held before.

const PATH = "Memory/Agents/link/Knowledge/learning/Renewals.md";
const JOURNAL = "Memory/Agents/link/Journal/2026-12-01";

const TEXTS = [
  "customers reminded early renew more often",
  "Customers reminded early renew more often.",
  "customers reminded late renew more often",
  "customers reminded early do not renew more often",
  "the renewal rate is 40 percent",
  "the renewal rate is 55 percent",
  "short briefs produce faster first drafts",
  "提前发提醒的客户续费率更高",
  "提前发提醒的客户续费率不高",
  "每周导出报表能更早发现问题",
  "review drafts on Wednesday instead of Thursday",
];
const BLOCKS = ["am-aaaa", "am-bbbb", "am-cccc", "am-dddd", null];
const KINDS = ["insight", "pattern", "decision"] as const;
const HEADING = { insight: "Insights", pattern: "Patterns", decision: "Decisions" } as const;
const CATEGORY = { insight: "knowledge", pattern: "pattern", decision: "decision" } as const;

/** A callout as a person or an earlier run wrote it. */
const callout = fc
  .record({
    kind: fc.constantFrom(...KINDS, "note" as const),
    text: fc.constantFrom(...TEXTS),
    source: fc.constantFrom(...BLOCKS),
    id: fc.constantFrom(null, "c-1111111111", "c-2222222222", "own"),
    trailingId: fc.boolean(),
    superseded: fc.boolean(),
  })
  .map((c) => {
    const lines = [`> [!${c.kind}] 2026-11-20 · confidence 0.8`, `> ${c.text}`];
    if (c.source) lines.push(`> Source: [[${JOURNAL}#^${c.source}]]`);
    if (c.superseded) lines.push("> [valid_to:: 2026-11-25] [superseded_by:: [[X#^c-3333333333]]]");
    if (c.id && c.trailingId) lines[lines.length - 1] += ` ^${c.id}`;
    else if (c.id) lines.push("", `^${c.id}`);
    return lines;
  });

/** Other content, kept byte for byte. */
const unknown = fc.constantFrom(
  [""],
  ["", ""],
  ["## Insights"],
  ["## Patterns"],
  ["## Decisions"],
  ["### Notes", "a person's note"],
  ["# Renewals"],
  ["> a quote, not a callout"],
  ["```", "> [!insight] 2026-11-20 · confidence 0.8", "> inside a fence", "```"],
  ["```"],
  ["^stray-id"],
  ["客户说：续费提醒太晚了"],
  ["text with an id ^c-2222222222"],
);

const frontmatter = fc.constantFrom(
  "",
  "---\nid: renewals\ntype: knowledge\nupdated_at: 2026-11-01T09:00:00+08:00\n---\n",
  "---\ntitle: Renewals\n---\n",
  "---\nrelated_to:\n  - [[Pricing]]\n---\n",
  "---\nbad: [unclosed\n---\n",
  "---\nnever: closed\n",
  "---\n- a list\n---\n",
);

const note = fc
  .record({
    frontmatter,
    parts: fc.array(fc.oneof(callout, unknown), { maxLength: 12 }),
    crlf: fc.boolean(),
    bom: fc.boolean(),
    finalNewline: fc.boolean(),
    kind: fc.constantFrom("text", "text", "text", "null", "blank"),
  })
  .map(({ frontmatter, parts, crlf, bom, finalNewline, kind }) => {
    if (kind === "null") return null;
    if (kind === "blank") return bom ? "\uFEFF\n" : "  \n";
    const body = parts.flat().join("\n") + (finalNewline ? "\n" : "");
    const text = frontmatter + body;
    return (bom ? "\uFEFF" : "") + (crlf ? text.replace(/\n/g, "\r\n") : text);
  });

const planned = fc
  .record({
    kind: fc.constantFrom(...KINDS),
    text: fc.constantFrom(...TEXTS),
    blockId: fc.constantFrom(...BLOCKS),
    action: fc.constantFrom("add", "add", "add-source", "supersede"),
    old: fc.constantFrom(...TEXTS),
    oldId: fc.constantFrom("c-1111111111", "c-2222222222", "callout 1"),
    reason: fc.constantFrom("value", "polarity", "reworded"),
    also: fc.array(fc.constantFrom(...TEXTS), { maxLength: 2 }),
  })
  .map((p): PlannedItem => ({
    item: {
      category: CATEGORY[p.kind],
      text: p.text,
      evidence: p.text,
      blockId: p.blockId,
      blockIndex: 0,
      confidence: 0.8,
      origin: "offline",
    },
    destination: PATH,
    action: p.action,
    topic: { title: "Renewals", heading: HEADING[p.kind] },
    ...(p.action === "supersede"
      ? {
          supersedes: {
            id: p.oldId,
            text: p.old,
            reason: p.reason,
            ...(p.also.length ? { also: p.also.map((text) => ({ id: "callout 2", text })) } : {}),
          },
        }
      : {}),
  }));

function context(): WriteContext {
  return {
    agent: "link",
    journal: JOURNAL,
    date: "2026-12-01",
    timestamp: "2026-12-01T10:00:00+08:00",
    layout: new MemoryLayout(defaultSettings()),
  };
}

/** The note after the items, or the error that refused it. */
function outcome(write: () => string | null): { text: string | null } | { error: string } {
  try {
    return { text: write() };
  } catch (err) {
    return { error: errorMessage(err) };
  }
}

function oneAtATime(current: string | null, items: readonly PlannedItem[]) {
  const ctx = context();
  return outcome(() => items.reduce((text, p) => writeItem(text, p, ctx), current));
}

describe("a topic note's items written to the note parsed once", () => {
  it("case 01: give the note and the refusals that writing them one at a time gives", () => {
    fc.assert(
      fc.property(note, fc.array(planned, { maxLength: 14 }), (current, items) => {
        const batched = outcome(() => writeItems(current, items, context()));
        expect(batched).toEqual(oneAtATime(current, items));
      }),
      { numRuns: 400 },
    );
  });

  it("case 02: many similar items in two sections, added in turn", () => {
    const items: PlannedItem[] = [];
    for (let i = 0; i < 120; i++) {
      const kind = KINDS[i % 3] ?? "insight";
      const text = `${TEXTS[i % TEXTS.length] ?? ""} ${i % 7}`;
      items.push({
        item: {
          category: CATEGORY[kind],
          text,
          evidence: text,
          blockId: `am-${i % 40}`,
          blockIndex: 0,
          confidence: 0.8,
          origin: "offline",
        },
        destination: PATH,
        action: i % 11 === 5 ? "supersede" : "add",
        topic: { title: "Renewals", heading: HEADING[kind] },
        ...(i % 11 === 5 ? { supersedes: { id: "x", text, reason: "value" as const } } : {}),
      });
    }
    const current = "# Renewals\n\n## Patterns\n\n## Insights\n\nnotes\n";
    const batched = outcome(() => writeItems(current, items, context()));
    expect(batched).toEqual(oneAtATime(current, items));
    expect(batched).not.toEqual({ text: current });
  });
});
