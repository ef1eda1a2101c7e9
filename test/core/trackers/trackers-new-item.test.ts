// Which fields a new tracker item gets (src/core/trackers/new-item.ts), the one rule extraction
// (`trackerFields`) and the MCP `add_tracker_item` tool both write through, and the field-key
// table (FIELD_KEYS in src/core/trackers/fields.ts) it names the keys by.
import { describe, expect, it } from "vitest";
import { newItemFields } from "../../../src/core/trackers/new-item";
import { FIELD_KEYS, orderFields } from "../../../src/core/trackers/fields";
import { addTrackerItem } from "../../../src/core/trackers/store";
import { listItems } from "../../../src/core/trackers/format";
import { trackerFields } from "../../../src/core/extraction/write-item";
import type { ExtractedItem } from "../../../src/core/extraction/types";

const DAY = "2026-11-20";
const SRC = "[[J#^am-1]]";

function item(over: Partial<ExtractedItem>): ExtractedItem {
  return {
    category: "task",
    text: "Write the checklist",
    evidence: "Write the checklist",
    confidence: 0.9,
    blockId: "am-1",
    ...over,
  } as ExtractedItem;
}

describe("newItemFields", () => {
  it("a task: its owner among ours, then Tasks' created and due", () => {
    expect(
      newItemFields("tasks", { date: DAY, source: SRC, owner: "Dana", due: "2026-12-01" }),
    ).toEqual([
      ["owner", "Dana"],
      ["source", SRC],
      ["created", DAY],
      ["due", "2026-12-01"],
    ]);
  });

  it("a goal's due date is its target, never Tasks' due", () => {
    const fields = newItemFields("goals", { date: DAY, due: "2026-12-31" });
    expect(fields).toEqual([
      ["target", "2026-12-31"],
      ["created", DAY],
    ]);
  });

  it("a decision is dated decided and completion, with its topic, and has no created", () => {
    const fields = newItemFields("decisions", {
      date: DAY,
      source: SRC,
      topic: "[[Pricing]]",
      due: "2026-12-01",
    });
    expect(fields).toEqual([
      ["decided", DAY],
      ["topic", "[[Pricing]]"],
      ["source", SRC],
      ["due", "2026-12-01"],
      ["completion", DAY],
    ]);
  });

  it("owner is written on tasks only, topic on decisions only", () => {
    const facts = { date: DAY, owner: "Dana", topic: "[[Pricing]]" };
    expect(newItemFields("questions", facts)).toEqual([["created", DAY]]);
    expect(newItemFields(null, facts)).toEqual([["created", DAY]]);
  });

  it("writes ours in the tracker line order: state, to, supersedes and source before Tasks' fields", () => {
    const fields = newItemFields("proposals", {
      date: DAY,
      source: SRC,
      state: "proposed",
      to: "[[ming]]",
      priority: "high",
      supersedes: "[[Proposals#^p-001]]",
    });
    expect(fields.map(([k]) => k)).toEqual([
      "state",
      "to",
      "supersedes",
      "source",
      "priority",
      "created",
    ]);
    const keyed = fields.map(([key, value]) => ({ key, value }));
    expect(orderFields(keyed)).toEqual(keyed);
    const { text } = addTrackerItem(
      null,
      "proposals",
      { text: "Weekly sync", status: "open", fields },
      { agent: "me", title: "Proposals", createdAt: "2026-11-20T09:00:00+00:00" },
    );
    expect(listItems(text)[0]?.fields.map((f) => [f.key, f.value])).toEqual(fields);
  });

  it("extraction's trackerFields follow the item's category and agree with newItemFields", () => {
    expect(trackerFields(item({ category: "goal", due: "2026-12-31" }), DAY, SRC)).toEqual(
      newItemFields("goals", { date: DAY, source: SRC, due: "2026-12-31" }),
    );
    expect(
      trackerFields(item({ category: "decision", topic: "Pricing", owner: "Dana" }), DAY, SRC),
    ).toEqual([
      ["decided", DAY],
      ["topic", "[[Pricing]]"],
      ["source", SRC],
      ["completion", DAY],
    ]);
    expect(trackerFields(item({ category: "improvement", target: "ming" }), DAY, SRC)).toEqual([
      ["state", "proposed"],
      ["to", "[[ming]]"],
      ["source", SRC],
      ["created", DAY],
    ]);
    // An insight a person placed in a tracker gets none of the kinds' own rules.
    expect(
      trackerFields(item({ category: "knowledge", owner: "Dana", due: "2026-12-01" }), DAY, SRC),
    ).toEqual([
      ["source", SRC],
      ["created", DAY],
      ["due", "2026-12-01"],
    ]);
  });
});

describe("FIELD_KEYS", () => {
  it("names the keys as they are written in notes", () => {
    expect(FIELD_KEYS).toMatchObject({
      source: "source",
      to: "to",
      target: "target",
      decided: "decided",
      supersedes: "supersedes",
      supersededBy: "superseded_by",
      validTo: "valid_to",
      completion: "completion",
    });
    expect(new Set(Object.values(FIELD_KEYS)).size).toBe(Object.keys(FIELD_KEYS).length);
  });
});
