import { readFileSync } from "node:fs";
import { seededRandom } from "../../helpers/seeded-random";
import { randomId } from "../../../src/core/util/ids";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { FrontmatterError } from "../../../src/core/errors";
import { parseNote } from "../../../src/core/frontmatter";
import { listItems, type TrackerStatus } from "../../../src/core/trackers/format";
import { splitLines, type NoteLine } from "../../../src/core/markdown/lines";
import { fieldValue } from "../../../src/core/trackers/fields";
import {
  TrackerEditor,
  addItemSource,
  addProgressNote,
  addTrackerItem,
  findItem,
  setItemField,
  setItemStatus,
} from "../../../src/core/trackers/store";
import { tempVault } from "../../helpers/temp-vault";
import { trackerNote, type GeneratedNote } from "../../helpers/tracker-arbitraries";
import { changedOf, textOf } from "../../helpers/edit-result";

const META = { agent: "link", title: "Tasks", createdAt: "2026-03-24T09:00:00+08:00" };
const STATUSES: TrackerStatus[] = ["open", "in-progress", "done", "abandoned"];

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

/** A generated note with at least one item that has an id, and one of those ids. */
const noteWithItem = trackerNote
  .filter((g) => g.items.some((i) => i.id !== null))
  .chain((g) =>
    fc.constantFrom(...g.items.filter((i) => i.id !== null)).map((i) => ({ g, id: i.id ?? "" })),
  );

const ids = (text: string) => listItems(text).map((i) => i.id);

/** Lines of `after` equal those of `before` except the ones at `changed` (indices in `before`). */
function expectOnlyLinesChanged(before: string, after: string, changed: number[]): void {
  const a = splitLines(before).lines;
  const b = splitLines(after).lines;
  expect(b.length).toBe(a.length);
  a.forEach((line, i) => {
    if (!changed.includes(i)) expect(b[i]).toEqual(line);
  });
  expect(after.startsWith("\uFEFF")).toBe(before.startsWith("\uFEFF"));
}

/** `after` is `before` with `count` lines inserted at `at`; a last line may have gained its line ending. */
function expectLinesInserted(before: string, after: string, at: number, count: number): NoteLine[] {
  const a = splitLines(before).lines;
  const b = splitLines(after).lines;
  expect(b.length).toBe(a.length + count);
  a.forEach((line, i) => {
    const j = i < at ? i : i + count;
    if (i === a.length - 1 && line.eol === "") expect(b[j]?.text).toBe(line.text);
    else expect(b[j]).toEqual(line);
  });
  expect(after.startsWith("\uFEFF")).toBe(before.startsWith("\uFEFF"));
  return b.slice(at, at + count);
}

describe("tracker store: properties over generated notes", () => {
  it("setItemStatus changes only the item's line and keeps every item", () => {
    fc.assert(
      fc.property(noteWithItem, fc.constantFrom(...STATUSES), ({ g, id }, status) => {
        const before = findItem(g.text, id);
        const r = setItemStatus(g.text, id, status);
        expect(r.ok).toBe(true);
        expect(changedOf(r)).toBe(before?.status !== status);
        expectOnlyLinesChanged(g.text, textOf(r), [before?.line ?? -1]);
        expect(findItem(textOf(r), id)?.status).toBe(status);
        expect(findItem(textOf(r), id)?.text).toBe(before?.text);
        expect(findItem(textOf(r), id)?.fields).toEqual(before?.fields);
        expect(ids(textOf(r))).toEqual(ids(g.text));
      }),
      { numRuns: 200 },
    );
  });

  it("addProgressNote inserts one indented line after the item's children, once", () => {
    fc.assert(
      fc.property(
        noteWithItem,
        fc.constantFrom("framework built", "第一次审计：博客 79 分"),
        ({ g, id }, note) => {
          const before = findItem(g.text, id);
          const r = addProgressNote(g.text, id, note, "2026-03-27");
          expect(changedOf(r)).toBe(true);
          const [inserted] = expectLinesInserted(g.text, textOf(r), before?.endLine ?? -1, 1);
          expect(inserted?.text).toMatch(new RegExp(`^[ \\t]+- 2026-03-27: ${note}$`));
          expect(inserted?.eol).toBe(splitLines(g.text).lines.find((l) => l.eol)?.eol ?? "\n");
          expect(findItem(textOf(r), id)?.children).toEqual([
            ...(before?.children ?? []),
            inserted?.text,
          ]);
          expect(ids(textOf(r))).toEqual(ids(g.text));
          expect(addProgressNote(textOf(r), id, note, "2026-03-27")).toMatchObject({
            ok: true,
            value: { changed: false, text: textOf(r) },
          });
        },
      ),
      { numRuns: 200 },
    );
  });

  it("addItemSource changes only the item's line, and adding the same link again changes nothing (case 10)", () => {
    fc.assert(
      fc.property(
        noteWithItem,
        fc.constantFrom("2026-03-27#^am-9k2f", "[[Agents/link/Journal/2026-03-28#^am-x1]]"),
        ({ g, id }, link) => {
          const before = findItem(g.text, id);
          const r = addItemSource(g.text, id, link);
          expectOnlyLinesChanged(g.text, textOf(r), [before?.line ?? -1]);
          const after = findItem(textOf(r), id);
          const source = fieldValue(after?.fields ?? [], "source") ?? "";
          expect(source).toContain(link.startsWith("[[") ? link : `[[${link}]]`);
          expect(after?.text).toBe(before?.text);
          expect(after?.children).toEqual(before?.children);
          expect(after?.status).toBe(before?.status);
          const again = addItemSource(textOf(r), id, link);
          expect(again).toMatchObject({ ok: true, value: { changed: false, text: textOf(r) } });
          expect(ids(textOf(r))).toEqual(ids(g.text));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("setItemField changes only the item's line", () => {
    fc.assert(
      fc.property(
        noteWithItem,
        fc.constantFrom("next", "every", "status"),
        fc.constantFrom("2026-12-27", "每两周", "[[editor]]"),
        ({ g, id }, key, value) => {
          const before = findItem(g.text, id);
          const r = setItemField(g.text, id, key, value);
          expect(r.ok).toBe(true);
          expectOnlyLinesChanged(g.text, textOf(r), [before?.line ?? -1]);
          expect(fieldValue(findItem(textOf(r), id)?.fields ?? [], key)).toBe(value);
          expect(setItemField(textOf(r), id, key, value)).toMatchObject({
            ok: true,
            value: { changed: false },
          });
        },
      ),
      { numRuns: 200 },
    );
  });

  it("addTrackerItem inserts one line with a new id after the last item, and keeps every other line", () => {
    fc.assert(
      fc.property(
        trackerNote.filter((g) => g.text.replace("\uFEFF", "").trim() !== ""),
        fc.constantFrom<("tasks" | "goals" | "decisions")[]>("tasks", "goals", "decisions"),
        (g: GeneratedNote, kind) => {
          const prefix = { tasks: "t", goals: "g", decisions: "d" }[kind];
          const r = addTrackerItem(
            g.text,
            kind,
            { text: "续签护照 Renew passport", fields: [["created", "2026-03-24"]] },
            META,
          );
          const expected = r.id;
          expect(expected).toMatch(new RegExp(`^${prefix}-[a-z][0-9a-z]{9}$`));
          expect(ids(g.text)).not.toContain(expected);
          const last = listItems(g.text).at(-1);
          const at = last ? last.endLine : splitLines(g.text).lines.length;
          const [line] = expectLinesInserted(g.text, r.text, at, 1);
          expect(line?.text).toBe(
            `- [ ] 续签护照 Renew passport [created:: 2026-03-24] ^${expected}`,
          );
          expect([...ids(r.text)].sort()).toEqual([...ids(g.text), expected].sort());
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("tracker store: operations", () => {
  it("a new item goes after the last item, above a person's sections and notes below the list", () => {
    const text = "# Tasks\n\n- [ ] A ^t-001\n    - note\n\n## Someday\n\nMaybe learn Go.\n";
    const r = addTrackerItem(text, "tasks", { text: "B", fields: [] }, META);
    expect(r.text).toBe(
      `# Tasks\n\n- [ ] A ^t-001\n    - note\n- [ ] B ^${r.id}\n\n## Someday\n\nMaybe learn Go.\n`,
    );
  });

  it("add twice gives two new ids from the random source; a new note has frontmatter and a heading", () => {
    const random = seededRandom(1);
    const first = addTrackerItem(
      null,
      "tasks",
      { text: "Renew passport", fields: [["created", "2026-03-24"]] },
      META,
      "Tasks.md",
      random,
    );
    const again = seededRandom(1);
    expect(first.id).toBe(randomId("t-", new Set(), again));
    const second = addTrackerItem(
      first.text,
      "tasks",
      { text: "Book the dentist", fields: [] },
      META,
      "Tasks.md",
      random,
    );
    expect(second.id).toBe(randomId("t-", new Set(), again));
    expect(second.id).not.toBe(first.id);
    const data = parseNote(second.text).data;
    expect(data).toEqual({
      id: "link-tasks",
      type: "tracker",
      agent: "link",
      kind: "tasks",
      status: "active",
      created_at: "2026-03-24T09:00:00+08:00",
    });
    expect(parseNote(second.text).body).toBe(
      `# Tasks\n\n- [ ] Renew passport [created:: 2026-03-24] ^${first.id}\n- [ ] Book the dentist ^${second.id}\n`,
    );
  });

  it("never reuses an id of any line of the note, old or new form, even on unusual lines", () => {
    // A source that first yields the bytes of an id already in the note, then another.
    const taken = randomId("t-", new Set(), seededRandom(5));
    const text = `- [>] forwarded ^${taken}\n    - [ ] nested ^t-121\n- [ ] a ^t-003\n`;
    const r = addTrackerItem(
      text,
      "tasks",
      { text: "b", fields: [] },
      META,
      "T.md",
      seededRandom(5),
    );
    expect(r.id).not.toBe(taken);
    expect(r.id).toMatch(/^t-[a-z][0-9a-z]{9}$/);
    expect(listItems(r.text).map((i) => i.id)).toEqual(["t-003", r.id]);
    // A wanted id (the one a plan showed) is used only while it is free.
    const wanted = addTrackerItem(
      text,
      "tasks",
      { text: "c", fields: [], id: "t-zzzzzzzzzz" },
      META,
    );
    expect(wanted.id).toBe("t-zzzzzzzzzz");
    const clash = addTrackerItem(text, "tasks", { text: "c", fields: [], id: "t-121" }, META);
    expect(clash.id).not.toBe("t-121");
  });

  it("a blank existing note is created as new", () => {
    expect(
      addTrackerItem("\n", "tasks", { text: "a", fields: [] }, META, "T.md", seededRandom(2)).text,
    ).toBe(
      addTrackerItem(null, "tasks", { text: "a", fields: [] }, META, "T.md", seededRandom(2)).text,
    );
  });

  it("keeps CRLF and adds a newline to a last line without one", () => {
    const text = "# Tasks\r\n- [ ] a ^t-001";
    const r = addTrackerItem(
      text,
      "tasks",
      {
        text: "b",
        status: "in-progress",
        fields: [],
        children: ["Observation: x", "\tindented as given"],
      },
      META,
    );
    expect(r.text).toBe(
      `# Tasks\r\n- [ ] a ^t-001\r\n- [/] b ^${r.id}\r\n    - Observation: x\r\n\tindented as given\r\n`,
    );
  });

  it("new item text is one line and cannot smuggle a block id", () => {
    const r = addTrackerItem(
      "# Tasks\n",
      "tasks",
      { text: "Renew\npassport ^am-k3f9", fields: [["source", "[[2026-03-24#^am-k3f9]]"]] },
      META,
    );
    expect(r.text).toBe(
      `# Tasks\n- [ ] Renew passport [source:: [[2026-03-24#^am-k3f9]]] ^${r.id}\n`,
    );
    expect(findItem(r.text, r.id)?.text).toBe("Renew passport");
  });

  it("setItemStatus writes x for done and treats X as done already", () => {
    const text = "- [ ] a ^t-001\n- [X] b ^t-002\n";
    expect(textOf(setItemStatus(text, "t-001", "done"))).toBe("- [x] a ^t-001\n- [X] b ^t-002\n");
    expect(setItemStatus(text, "t-002", "done")).toEqual({
      ok: true,
      value: { text, changed: false },
    });
    expect(textOf(setItemStatus(text, "t-002", "abandoned"))).toBe(
      "- [ ] a ^t-001\n- [-] b ^t-002\n",
    );
  });

  it("a missing id changes nothing and says so", () => {
    const text = "- [ ] a ^t-001\n";
    for (const r of [
      setItemStatus(text, "t-404", "done"),
      addProgressNote(text, "t-404", "x", "2026-03-27"),
      addItemSource(text, "t-404", "a#^b"),
      setItemField(text, "t-404", "next", "2026-04-01"),
    ]) {
      expect(r).toEqual({ ok: false, error: { found: false, message: "no item ^t-404" } });
    }
    expect(findItem(text, "t-404")).toBeNull();
  });

  it("addItemSource adds the field before Tasks' fields (or the block id), then comma-separates further sources", () => {
    let text = "- [ ] Renew passport [created:: 2026-03-24] ^t-001\n";
    text = textOf(addItemSource(text, "t-001", "2026-03-24#^am-k3f9"));
    expect(text).toBe(
      "- [ ] Renew passport [source:: [[2026-03-24#^am-k3f9]]] [created:: 2026-03-24] ^t-001\n",
    );
    text = textOf(addItemSource(text, "t-001", "[[2026-03-27#^am-9k2f]]"));
    expect(text).toBe(
      "- [ ] Renew passport [source:: [[2026-03-24#^am-k3f9]], [[2026-03-27#^am-9k2f]]] [created:: 2026-03-24] ^t-001\n",
    );
    expect(textOf(addItemSource("- [ ] Renew passport [to:: [[ming]]] ^t-001", "t-001", "a"))).toBe(
      "- [ ] Renew passport [to:: [[ming]]] [source:: [[a]]] ^t-001",
    );
    expect(changedOf(addItemSource(text, "t-001", "[[2026-03-24#^am-k3f9|alias]]"))).toBe(false);
    expect(addItemSource("- [ ] no id here", "t-001", "a")).toMatchObject({
      ok: false,
      error: { found: false },
    });
  });

  it("addProgressNote reuses the children's indentation and goes after the last child", () => {
    const text =
      "- [ ] Goal ^g-006\n\t- 2026-03-24: started\n\n\t- 2026-03-25: more\n\n- [ ] Other ^g-007\n";
    const r = addProgressNote(text, "g-006", "bounce rate matters\nmore", "2026-03-27");
    expect(textOf(r)).toBe(
      "- [ ] Goal ^g-006\n\t- 2026-03-24: started\n\n\t- 2026-03-25: more\n\t- 2026-03-27: bounce rate matters more\n\n- [ ] Other ^g-007\n",
    );
    expect(textOf(addProgressNote("- [ ] G ^g-001", "g-001", "x", "2026-03-27"))).toBe(
      "- [ ] G ^g-001\n    - 2026-03-27: x\n",
    );
  });

  it("setItemField replaces a value in place, adds a missing field, refuses a value that would break the line", () => {
    const text = "- [ ] Self-review loop [every:: biweekly] [next:: 2026-12-13] ^r-002\n";
    expect(textOf(setItemField(text, "r-002", "next", "2026-12-27"))).toBe(
      "- [ ] Self-review loop [every:: biweekly] [next:: 2026-12-27] ^r-002\n",
    );
    expect(textOf(setItemField(text, "r-002", "last", "2026-12-13"))).toBe(
      "- [ ] Self-review loop [every:: biweekly] [next:: 2026-12-13] [last:: 2026-12-13] ^r-002\n",
    );
    const bad = setItemField(text, "r-002", "next", "2026]");
    expect(bad).toMatchObject({ ok: false, error: { found: true } });
  });

  it("never rewrites a note whose frontmatter does not parse", () => {
    const text = "---\npeople: [[Person A]], [[Person B]]\n---\n- [ ] a ^t-001\n";
    expect(() =>
      setItemStatus(text, "t-001", "done", "Memory/Agents/link/Trackers/Tasks.md"),
    ).toThrow(FrontmatterError);
    expect(() =>
      setItemStatus(text, "t-001", "done", "Memory/Agents/link/Trackers/Tasks.md"),
    ).toThrow(/Tasks\.md/);
    expect(() => addTrackerItem(text, "tasks", { text: "b", fields: [] }, META)).toThrow(
      FrontmatterError,
    );
  });

  it("case 10: through NodeVault, re-adding a source already present writes nothing and keeps the id", async () => {
    const t = tempVault();
    cleanup = t.cleanup;
    const path = "Memory/Agents/link/Trackers/Tasks.md";
    const { result: id } = await t.vault.process(path, (cur) => {
      const r = addTrackerItem(
        cur,
        "tasks",
        { text: "Renew passport", fields: [["source", "[[2026-03-24#^am-k3f9]]"]] },
        META,
      );
      return { content: r.text, result: r.id };
    });
    expect(id).toMatch(/^t-[a-z][0-9a-z]{9}$/);
    const written = readFileSync(join(t.root, path), "utf8");
    expect(
      await t.vault.process(path, (cur) =>
        cur === null ? null : textOf(addItemSource(cur, id, "2026-03-24#^am-k3f9", path)),
      ),
    ).toBe(false);
    expect(readFileSync(join(t.root, path), "utf8")).toBe(written);
    expect(listItems(written).map((i) => i.id)).toEqual([id]);
  });
});

describe("TrackerEditor", () => {
  it("TrackerEditor gives what addTrackerItem and addItemSource give, edit after edit", () => {
    const line = fc.constantFrom(
      "- [ ] Renew passport [source:: [[2026-11-24#^am-k3f9]]] ^t-001",
      "- [x] Pay invoice ^t-007",
      "- [ ] No id here",
      "    - 2026-11-24: a child",
      "",
      "Some paragraph",
      "## Someday",
      "```",
      "- [ ] in a fence ^t-050",
      "- [>] forwarded ^t-020",
      "- [ ] Ship it [due:: 2026-12-01] ^g-004",
    );
    const edit = fc.oneof(
      fc.record({
        add: fc.constantFrom(
          "Write the report",
          "Call @ming about 续费",
          "Check ^t-999 trick",
          "  spaced   text  ",
        ),
      }),
      fc.record({
        source: fc.nat(20),
        link: fc.constantFrom("[[2026-11-24#^am-k3f9]]", "[[2026-11-25#^am-aaaa]]"),
      }),
    );
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 12 }),
        fc.constantFrom("\n", "\r\n"),
        fc.array(edit, { maxLength: 8 }),
        (lines, eol, edits) => {
          const start = `---\ntype: tracker\n---\n- [ ] First ^t-002${eol}${lines.join(eol)}`;
          const editor = new TrackerEditor(start, "tracker note", seededRandom(9));
          const random = seededRandom(9);
          fc.pre(editor.hasItems());
          let text = start;
          for (const e of edits) {
            if ("add" in e) {
              const item = {
                text: e.add,
                fields: [["source", "[[2026-11-26#^am-bbbb]]"]] as [string, string][],
              };
              const want = addTrackerItem(
                text,
                "tasks",
                item,
                { agent: "a", title: "Tasks", createdAt: "2026-11-26T10:00:00+08:00" },
                "tracker note",
                random,
              );
              text = want.text;
              expect(editor.add("tasks", item).id).toBe(want.id);
            } else {
              const items = listItems(text);
              const target = items[e.source % items.length];
              if (
                !target?.id ||
                items.findIndex((it) => it.id === target.id) !== e.source % items.length
              )
                continue;
              const r = addItemSource(text, target.id, e.link);
              if (!r.ok) throw new Error(r.error.message);
              text = r.value.text;
              editor.addSource(e.source % items.length, e.link);
            }
            expect(editor.text()).toBe(text);
            expect(editor.items).toEqual(listItems(text));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
