// Three-way merge of memory notes (docs/sync.md, "The merge driver").
import { describe, expect, it } from "vitest";
import { hasConflictMarkers } from "../../../src/core/markdown/conflict-markers";
import { listItems } from "../../../src/core/trackers/format";
import { listTopicEntries } from "../../../src/core/knowledge/callouts";
import { isSuperseded } from "../../../src/core/knowledge/supersede";
import { mergeNote } from "../../../src/core/sync/merge";

const HEAD = "---\ntype: tracker\nkind: tasks\n---\n# Tasks\n\n";

describe("mergeNote on trackers", () => {
  it("a tick on one side and an edit on the other give one line, done, with the edit", () => {
    const base = `${HEAD}- [ ] Send the draft [created:: 2026-11-27] ^t-001\n`;
    const ticked = `${HEAD}- [x] Send the draft [created:: 2026-11-27] [completion:: 2026-12-01] ^t-001\n`;
    const edited = `${HEAD}- [ ] Send the signed draft [created:: 2026-11-27] ^t-001\n`;
    for (const [ours, theirs] of [
      [ticked, edited],
      [edited, ticked],
    ] as const) {
      const r = mergeNote(base, ours, theirs, "tracker");
      const items = listItems(r.text);
      expect(items).toHaveLength(1);
      expect(items[0]).toMatchObject({
        id: "t-001",
        status: "done",
        text: "Send the signed draft",
      });
      expect(r.text).toContain("[completion:: 2026-12-01]");
      expect(r.choices).toEqual([]);
    }
  });

  it("a line without an id: a tick on one side and an edit on the other give one line, done, with the edit", () => {
    const base = `${HEAD}- [ ] A ^t-001\n- [ ] Call hk-c2r1 the vendor\n- [ ] B ^t-002\n`;
    const ticked = base.replace("- [ ] Call", "- [x] Call");
    // The edit side also adds lines of its own after the edited one, one by hand and one with an id.
    const edited = base.replace(
      "- [ ] Call hk-c2r1 the vendor\n",
      "- [ ] Call hk-c2r1 e-c1r3 e-c1r4 the vendor\n- [ ] Call hk-c1r3 the vendor\n",
    );
    for (const [ours, theirs] of [
      [ticked, edited],
      [edited, ticked],
    ] as const) {
      const r = mergeNote(base, ours, theirs, "tracker");
      expect(listItems(r.text).map((i) => `${i.status} ${i.text}`)).toEqual([
        "open A",
        "done Call hk-c2r1 e-c1r3 e-c1r4 the vendor",
        "open Call hk-c1r3 the vendor",
        "open B",
      ]);
      expect(r.choices).toEqual([]);
    }
  });

  it("a line without an id edited on both sides is one line, the other text kept under it", () => {
    const base = `${HEAD}- [ ] Call hk-c2r1 the vendor\n`;
    const ours = `${HEAD}- [x] Call hk-c2r1 e-c2r4 the vendor\n`;
    const theirs = `${HEAD}- [ ] Call hk-c2r1 e-c1r3 the vendor\n`;
    const a = mergeNote(base, ours, theirs, "tracker");
    const b = mergeNote(base, theirs, ours, "tracker");
    expect(a.text).toBe(b.text);
    expect(listItems(a.text).map((i) => `${i.status} ${i.text}`)).toEqual([
      "done Call hk-c2r1 e-c2r4 the vendor",
    ]);
    expect(a.text).toContain(
      'Merge: kept "Call hk-c2r1 e-c2r4 the vendor" over "Call hk-c2r1 e-c1r3 the vendor"',
    );
  });

  it("a line given an id on one side and edited on the other is one line, with the id and the edit", () => {
    const base = `${HEAD}- [ ] Call hk-c2r1 the vendor\n- [ ] B ^t-002\n`;
    const withId = base.replace("the vendor\n", "the vendor ^t-k3f9x2m7qa\n");
    const edited = base.replace("hk-c2r1", "hk-c2r1 e-c1r3");
    for (const [ours, theirs] of [
      [withId, edited],
      [edited, withId],
    ] as const) {
      const r = mergeNote(base, ours, theirs, "tracker");
      expect(listItems(r.text).map((i) => `${i.id} ${i.text}`)).toEqual([
        "t-k3f9x2m7qa Call hk-c2r1 e-c1r3 the vendor",
        "t-002 B",
      ]);
    }
  });

  it("items added on both sides are all kept, once, and new ids never collide", () => {
    const base = `${HEAD}- [ ] A ^t-001\n`;
    const ours = `${HEAD}- [ ] A ^t-001\n- [ ] B ^t-k3f9x2m7qa\n`;
    const theirs = `${HEAD}- [ ] A ^t-001\n- [ ] C ^t-m7qak3f9x2\n    - 2026-12-01: note\n`;
    const r = mergeNote(base, ours, theirs, "tracker");
    expect(listItems(r.text).map((i) => i.text)).toEqual(["A", "B", "C"]);
    expect(r.text).toBe(
      `${HEAD}- [ ] A ^t-001\n- [ ] B ^t-k3f9x2m7qa\n- [ ] C ^t-m7qak3f9x2\n    - 2026-12-01: note\n`,
    );
    expect(hasConflictMarkers(r.text)).toBe(false);
  });

  it("children added on both sides are kept; the further state wins", () => {
    const base = `${HEAD}- [ ] Goal ^g-001\n    - 2026-11-01: start\n`;
    const ours = `${HEAD}- [/] Goal ^g-001\n    - 2026-11-01: start\n    - 2026-12-01: ours\n`;
    const theirs = `${HEAD}- [x] Goal [completion:: 2026-12-02] ^g-001\n    - 2026-11-01: start\n    - 2026-12-02: theirs\n`;
    const r = mergeNote(base, ours, theirs, "tracker");
    const [goal] = listItems(r.text);
    expect(goal?.status).toBe("done");
    expect(goal?.children.map((c) => c.trim())).toEqual([
      "- 2026-11-01: start",
      "- 2026-12-01: ours",
      "- 2026-12-02: theirs",
    ]);
  });

  it("the same field changed two ways: the greater (later) value, the same on either side, noted under the item", () => {
    const base = `${HEAD}- [ ] A [due:: 2026-12-01] ^t-001\n`;
    const a = `${HEAD}- [ ] A [due:: 2026-12-05] ^t-001\n`;
    const b = `${HEAD}- [ ] A [due:: 2026-12-09] ^t-001\n`;
    const ab = mergeNote(base, a, b, "tracker");
    const ba = mergeNote(base, b, a, "tracker");
    expect(ab.text).toBe(ba.text);
    expect(listItems(ab.text)[0]?.fields).toEqual([{ key: "due", value: "2026-12-09" }]);
    expect(ab.text).toContain('    - Merge: kept due "2026-12-09" over "2026-12-05"');
    expect(ab.choices).toEqual([
      { where: "t-001", what: "due", kept: "2026-12-09", setAside: "2026-12-05" },
    ]);
  });

  it("text changed two ways keeps the other text visible under the item", () => {
    const base = `${HEAD}- [ ] Call Ana ^t-001\n`;
    const r = mergeNote(
      base,
      `${HEAD}- [ ] Call Ana today ^t-001\n`,
      `${HEAD}- [ ] Call Ana and Bo ^t-001\n`,
      "tracker",
    );
    expect(listItems(r.text)).toHaveLength(1);
    expect(r.text).toContain('Merge: kept "Call Ana today" over "Call Ana and Bo" (text)');
  });
});

describe("mergeNote on journals and topic notes", () => {
  it("journals: blocks appended on both sides are all kept; frontmatter merges key by key", () => {
    const fm = (at: string, hash: string) =>
      `---\ntype: journal\nextracted_at: ${at}\nextraction_hash: ${hash}\n---\n`;
    const base = `${fm("2026-12-01T08:00:00Z", "aaa")}# 2026-12-01\n\nMorning.\n`;
    const ours = `${fm("2026-12-01T09:00:00Z", "bbb")}# 2026-12-01\n\nMorning. ^am-x1\n\nOurs.\n`;
    const theirs = `${fm("2026-12-01T10:00:00Z", "ccc")}# 2026-12-01\n\nMorning.\n\nTheirs.\n`;
    const r = mergeNote(base, ours, theirs, "text");
    expect(r.text).toBe(
      `${fm("2026-12-01T10:00:00Z", "ccc")}# 2026-12-01\n\nMorning. ^am-x1\n\nOurs.\n\nTheirs.\n`,
    );
    expect(mergeNote(base, theirs, ours, "text").text).toContain("extraction_hash: ccc");
  });

  it("topic notes: callouts added on both sides stay separate callouts", () => {
    const base = "# API\n\n## Insights\n\n> [!insight] 2026-12-01 · confidence 0.8\n> A\n";
    const ours = `${base}\n> [!insight] 2026-12-01 · confidence 0.8\n> B\n`;
    const theirs = `${base}\n> [!insight] 2026-12-01 · confidence 0.8\n> C\n`;
    const r = mergeNote(base, ours, theirs, "text");
    expect(r.text).toBe(
      `${base}\n> [!insight] 2026-12-01 · confidence 0.8\n> B\n\n> [!insight] 2026-12-01 · confidence 0.8\n> C\n`,
    );
  });

  it("a callout keeps its block id line: two clones superseding one fact give each id once", () => {
    const src = (b: string) => `> Source: [[Memory/Agents/link/Journal/2026-11-24#^am-${b}]]`;
    const link = (id: string) => `[[Memory/Agents/link/Knowledge/learning/Build#^${id}]]`;
    const fact = (n: number, b: string) =>
      `> [!insight] 2026-11-24 · confidence 0.9\n> the build takes ${n} minutes on the CI runner.\n${src(b)}`;
    const head = "# Build\n\n## Insights\n\n";
    const base = `${head}${fact(10, "k7j9")}\n`;
    const side = (n: number, b: string, id: string) =>
      `${head}${fact(10, "k7j9")}\n> [valid_to:: 2026-11-24] [superseded_by:: ${link(id)}]\n\n^c-old\n\n` +
      `${fact(n, b)}\n> [supersedes:: ${link("c-old")}]\n\n^${id}\n`;
    const ours = side(20, "wccj", "c-new20");
    const theirs = side(30, "fcqz", "c-new30");
    for (const [o, t] of [
      [ours, theirs],
      [theirs, ours],
    ] as const) {
      const text = mergeNote(base, o, t, "text").text;
      expect(text.match(/^\^c-[a-z0-9]+$/gm)?.sort()).toEqual(["^c-new20", "^c-new30", "^c-old"]);
      expect(text.match(/takes 10 minutes/g)).toHaveLength(1);
      // Each callout is followed by its own id, and the old one names one successor either way.
      expect(text).toMatch(/takes 20 minutes[^]*?\n\n\^c-new20\n/);
      expect(text).toMatch(/takes 30 minutes[^]*?\n\n\^c-new30(\n|$)/);
      expect(text).toMatch(
        /takes 10 minutes[^]*?superseded_by:: [^\n]*\^c-new30\]\]\]\n\n\^c-old\n/,
      );
    }
  });

  it("two clones superseding one fact at once: one successor stays current, the other is superseded by it", () => {
    const link = (id: string) => `[[Memory/Agents/link/Knowledge/learning/Build#^${id}]]`;
    const fact = (n: number) =>
      `> [!insight] 2026-11-24 · confidence 0.9\n> the build takes ${n} minutes on the CI runner.\n> Source: [[Memory/Agents/link/Journal/2026-11-24#^am-${n}]]`;
    const head = "# Build\n\n## Insights\n\n";
    const base = `${head}${fact(10)}\n\n^c-old\n`;
    const side = (n: number, id: string) =>
      `${head}${fact(10)}\n> [valid_to:: 2026-11-24] [superseded_by:: ${link(id)}]\n\n^c-old\n\n` +
      `${fact(n)}\n> [supersedes:: ${link("c-old")}]\n\n^${id}\n`;
    const current = (text: string) =>
      listTopicEntries(text)
        .filter((e) => !isSuperseded(e.fields))
        .map((e) => e.id);
    for (const b of [base, `${head}${fact(10)}\n`]) {
      const a = mergeNote(b, side(20, "c-new20"), side(30, "c-new30"), "text").text;
      const z = mergeNote(b, side(30, "c-new30"), side(20, "c-new20"), "text").text;
      expect([current(a), current(z)]).toEqual([["c-new30"], ["c-new30"]]);
      expect(a.match(/superseded_by::/g)).toHaveLength(2);
      expect(a).toMatch(
        /takes 20 minutes[^]*?\n> \[valid_to:: 2026-11-24\] \[superseded_by:: [^\n]*\^c-new30\]\]\]\n\n\^c-new20\n/,
      );
    }
  });

  it("a callout given a source on one side and superseded on the other keeps both", () => {
    const head = "# Build\n\n## Insights\n\n";
    const base = `${head}> [!insight] 2026-11-24 · confidence 0.9\n> A\n> Source: [[J#^am-1]]\n\n^c-a\n`;
    const sourced = base.replace("[[J#^am-1]]", "[[J#^am-1]], [[J#^am-2]]");
    const marked = base.replace(
      "\n\n^c-a",
      "\n> [valid_to:: 2026-11-24] [superseded_by:: [[B#^c-b]]]\n\n^c-a",
    );
    for (const [o, t] of [
      [sourced, marked],
      [marked, sourced],
    ] as const) {
      const text = mergeNote(base, o, t, "text").text;
      expect(text).toBe(
        `${head}> [!insight] 2026-11-24 · confidence 0.9\n> A\n> Source: [[J#^am-1]], [[J#^am-2]]\n> [valid_to:: 2026-11-24] [superseded_by:: [[B#^c-b]]]\n\n^c-a\n`,
      );
    }
  });

  it("two notes created for the same topic on two machines merge into one", () => {
    const a =
      "---\ntype: knowledge\ncreated_at: 2026-12-01T09:00:00Z\n---\n# API\n\n## Insights\n\n> [!insight] x\n> A\n";
    const b =
      "---\ntype: knowledge\ncreated_at: 2026-12-01T10:00:00Z\n---\n# API\n\n## Insights\n\n> [!insight] x\n> B\n";
    const r = mergeNote(null, a, b, "text");
    expect(r.text.match(/^---$/gm)).toHaveLength(2);
    expect(r.text).toContain("> A");
    expect(r.text).toContain("> B");
    expect(r.text.match(/## Insights/g)).toHaveLength(1);
  });
});
