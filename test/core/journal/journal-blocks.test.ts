import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NodeVault } from "../../../src/node/node-vault";
import { parseNote } from "../../../src/core/frontmatter";
import {
  addBlockIds,
  blockIdAt,
  blockPlace,
  existingBlockIds,
  extractionHash,
  newBlockId,
  splitBlocks,
  stripBlockIds,
} from "../../../src/core/journal/blocks";
import type { JournalBlock } from "../../../src/core/journal/blocks";
import { appendJournalBlock } from "../../../src/core/journal/append";

const JOURNAL = [
  "# 2026-03-24 周二",
  "",
  "## Morning · 上午",
  "",
  "Met Person A about Project Alpha. 讨论了认证系统的重构，决定使用JWT令牌。",
  "The audit found the blog at 79 and the home page at 38. ^am-k3f9",
  "",
  "- [ ] Send the draft to Person A",
  "- [x] 完成审计清单 ^t-047",
  "    - blog 79, home page 38",
  "    - 跳出率比框架更重要",
  "- Learned: bounce rate matters more than the framework",
  "",
  "> [!decision] 决定",
  "> 下周起每篇文章发布前先过质量检查。",
  "",
  "^dec-01",
  "",
  "## Afternoon",
  "",
  "| page | score |",
  "|------|-------|",
  "| blog | 79 |",
  "",
  "```ts",
  "const score = a ^b",
  "```",
  "",
  "> A plain quote from Person B",
  "",
  "### 复盘",
  "今天的节奏太赶，下次先列出优先级。",
  "",
].join("\n");

function summary(blocks: JournalBlock[]): [JournalBlock["kind"], string, string | null, string][] {
  return blocks.map((b) => [
    b.kind,
    b.text.split("\n")[0] ?? "",
    b.blockId,
    b.headings.join(" > "),
  ]);
}

describe("splitBlocks", () => {
  it("splits a mixed English/Chinese journal into blocks with headings as context", () => {
    const blocks = splitBlocks(JOURNAL);
    expect(summary(blocks)).toEqual([
      ["heading", "# 2026-03-24 周二", null, ""],
      ["heading", "## Morning · 上午", null, "2026-03-24 周二"],
      [
        "paragraph",
        "Met Person A about Project Alpha. 讨论了认证系统的重构，决定使用JWT令牌。",
        "am-k3f9",
        "2026-03-24 周二 > Morning · 上午",
      ],
      ["list-item", "- [ ] Send the draft to Person A", null, "2026-03-24 周二 > Morning · 上午"],
      ["list-item", "- [x] 完成审计清单", "t-047", "2026-03-24 周二 > Morning · 上午"],
      [
        "list-item",
        "- Learned: bounce rate matters more than the framework",
        null,
        "2026-03-24 周二 > Morning · 上午",
      ],
      ["callout", "> [!decision] 决定", "dec-01", "2026-03-24 周二 > Morning · 上午"],
      ["heading", "## Afternoon", null, "2026-03-24 周二"],
      ["table", "| page | score |", null, "2026-03-24 周二 > Afternoon"],
      ["code", "```ts", null, "2026-03-24 周二 > Afternoon"],
      ["callout", "> A plain quote from Person B", null, "2026-03-24 周二 > Afternoon"],
      ["heading", "### 复盘", null, "2026-03-24 周二 > Afternoon"],
      [
        "paragraph",
        "今天的节奏太赶，下次先列出优先级。",
        null,
        "2026-03-24 周二 > Afternoon > 复盘",
      ],
    ]);
    expect(blocks[2]?.text).toBe(
      "Met Person A about Project Alpha. 讨论了认证系统的重构，决定使用JWT令牌。\nThe audit found the blog at 79 and the home page at 38.",
    );
    expect(blocks[4]).toMatchObject({
      text: "- [x] 完成审计清单\n    - blog 79, home page 38\n    - 跳出率比框架更重要",
      startLine: 8,
      endLine: 11,
    });
    expect(blocks[6]).toMatchObject({ calloutType: "decision", idLine: 16, endLine: 15 });
    expect(blocks[10]?.calloutType).toBeUndefined();
    expect(blocks[9]?.blockId).toBeNull(); // `a ^b` inside code is code
  });

  it("gives the same blocks for a CRLF body", () => {
    const crlf = splitBlocks(JOURNAL.replace(/\n/g, "\r\n"));
    expect(crlf).toEqual(splitBlocks(JOURNAL));
    expect(crlf.some((b) => b.text.includes("\r"))).toBe(false);
  });

  it("keeps list children, including after a blank line, and ends an item at its sibling", () => {
    const blocks = splitBlocks("- a\n  - a.1\n\n  a continued\n- b\n\nafter\n");
    expect(blocks.map((b) => b.text)).toEqual(["- a\n  - a.1\n\n  a continued", "- b", "after"]);
  });

  it("reads a setext heading, a thematic break and an unclosed fence", () => {
    const blocks = splitBlocks("Title\n=====\ntext\n\n***\n\n```\nnever closed\n");
    expect(summary(blocks)).toEqual([
      ["heading", "Title", null, ""],
      ["paragraph", "text", null, "Title"],
      ["other", "***", null, "Title"],
      ["code", "```", null, "Title"],
    ]);
  });

  it("a paragraph line ending in a block id ends its block; a setext heading's id does not", () => {
    const whole = (body: string) => splitBlocks(body).map((b) => [b.kind, b.text, b.blockId]);
    // Lines written under an id'd line later are blocks of their own, each named by its own id
    // (docs/decisions.md, "A block id ends its paragraph's block").
    expect(whole("first ^am-1\nsecond\nthird ^am-3\nfourth\n")).toEqual([
      ["paragraph", "first", "am-1"],
      ["paragraph", "second\nthird", "am-3"],
      ["paragraph", "fourth", null],
    ]);
    // Without an id inside, consecutive lines stay one paragraph with its id at the end.
    expect(whole("one\ntwo ^am-2\n")).toEqual([["paragraph", "one\ntwo", "am-2"]]);
    expect(whole("Title ^am-t\n---\ntext\n")).toEqual([
      ["heading", "Title\n---", "am-t"],
      ["paragraph", "text", null],
    ]);
  });

  it("never throws, and every non-blank line outside id lines lies in exactly one block", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...LINE_POOL), { maxLength: 30 }), (lines) => {
        const body = lines.join("\n");
        const blocks = splitBlocks(body);
        const covered = new Array<number>(lines.length).fill(0);
        for (const b of blocks) {
          expect(b.endLine).toBeGreaterThan(b.startLine);
          for (let i = b.startLine; i < b.endLine; i++) covered[i] = (covered[i] ?? 0) + 1;
        }
        lines.forEach((line, i) => {
          if (line.trim() === "" || /^\^[A-Za-z0-9-]+$/.test(line))
            expect(covered[i]).toBeLessThanOrEqual(1);
          else expect(covered[i]).toBe(1);
        });
      }),
    );
  });
});

describe("block ids", () => {
  it("stripBlockIds removes inline and standalone ids but not code", () => {
    expect(stripBlockIds("para ^am-1\r\n\r\n> q\r\n\r\n^q-1\r\n\r\n```\nx ^y\n```\n")).toBe(
      "para\r\n\r\n> q\r\n\r\n\r\n```\nx ^y\n```\n",
    );
    expect([...existingBlockIds(JOURNAL)].sort()).toEqual(["am-k3f9", "dec-01", "t-047"]);
  });

  it("newBlockId is deterministic, am- and ten base32 characters, and avoids taken ids", () => {
    const id = newBlockId("Memory/j/2026-03-24.md\n- [ ] call Person B");
    expect(id).toMatch(/^am-[0-9a-hjkmnp-tv-z]{10}$/);
    expect(newBlockId("Memory/j/2026-03-24.md\n- [ ] call Person B")).toBe(id);
    const other = newBlockId("Memory/j/2026-03-24.md\n- [ ] call Person B", new Set([id]));
    expect(other).toMatch(/^am-[0-9a-hjkmnp-tv-z]{10}$/);
    expect(other).not.toBe(id);
    expect(newBlockId("x", [newBlockId("x")])).toBe(newBlockId("x", new Set([newBlockId("x")])));
  });

  it("adds ids Obsidian's way: end of paragraph, first line of a list item, own line after a structured block", () => {
    const body =
      "Para line one\nPara line two  \n\n- task\n  - child\n> [!insight] x\n> y\n| a |\n|---|\n| 1 |";
    const blocks = splitBlocks(body);
    const wanted = blocks.map((b, i) => ({ text: b.text, id: `am-000${i}` }));
    const result = addBlockIds(body, wanted);
    expect(result.body).toBe(
      "Para line one\nPara line two ^am-0000\n\n- task ^am-0001\n  - child\n> [!insight] x\n> y\n\n^am-0002\n\n| a |\n|---|\n| 1 |\n\n^am-0003",
    );
    expect(result).toMatchObject({
      added: ["am-0000", "am-0001", "am-0002", "am-0003"],
      missing: [],
      kept: [],
    });
    // The ids read back on the same blocks, whose texts are unchanged (but for spaces before the id).
    const again = splitBlocks(result.body);
    expect(again.map((b) => [b.text, b.blockId])).toEqual(
      wanted.map((w) => [w.text.replace(/ +$/gm, ""), w.id]),
    );
  });

  it("reuses existing ids: never a second id, and a different wanted id is reported as kept", () => {
    const blocks = splitBlocks(JOURNAL);
    const wanted = blocks
      .filter((b) => b.blockId)
      .map((b) => ({ text: b.text, id: b.blockId ?? "" }));
    expect(addBlockIds(JOURNAL, wanted)).toEqual({
      body: JOURNAL,
      added: [],
      missing: [],
      kept: [],
    });
    const paragraph = blocks[2];
    const result = addBlockIds(JOURNAL, [{ text: paragraph?.text ?? "", id: "am-zzzz" }]);
    expect(result.body).toBe(JOURNAL);
    expect(result.kept).toEqual([{ id: "am-zzzz", existingId: "am-k3f9" }]);
    expect(blockIdAt(JOURNAL, paragraph?.text ?? "")).toBe("am-k3f9");
  });

  it("case 07: ids land on the planned blocks of the CURRENT text; the line added meanwhile survives", () => {
    const planned = splitBlocks(JOURNAL);
    const send = planned[3];
    const learned = planned[5];
    const table = planned[8];
    const wanted = [send, learned, table].map((b, i) => ({
      text: b?.text ?? "",
      id: `am-c07${i}`,
    }));
    // Meanwhile the person adds a task above the cited ones, and removes the plain quote.
    const edited = JOURNAL.replace(
      "- [ ] Send the draft",
      "- [ ] call Person B\n- [ ] Send the draft",
    ).replace("> A plain quote from Person B\n", "");
    const result = addBlockIds(edited, [
      ...wanted,
      { text: planned[10]?.text ?? "", id: "am-gone" },
    ]);
    expect(result.added).toEqual(["am-c070", "am-c071", "am-c072"]);
    expect(result.missing).toEqual(["am-gone"]);
    expect(result.body).toContain(
      "- [ ] call Person B\n- [ ] Send the draft to Person A ^am-c070\n",
    );
    expect(result.body).toContain(
      "- Learned: bounce rate matters more than the framework ^am-c071\n",
    );
    expect(result.body).toContain("| blog | 79 |\n\n^am-c072\n\n```ts");
    expect(stripBlockIds(result.body).replace(/\n{2,}/g, "\n")).toBe(
      stripBlockIds(edited).replace(/\n{2,}/g, "\n"),
    );
  });

  it("case 07: a child line added under a cited list item still gets the id (first-line match)", () => {
    const before = "- [ ] Renew passport\n- [ ] Book the dentist\n";
    const wanted = [{ text: "- [ ] Renew passport", id: "am-pass" }];
    const result = addBlockIds(
      "- [ ] Renew passport\n    - photos taken\n- [ ] Book the dentist\n",
      wanted,
    );
    expect(result.body).toBe(
      "- [ ] Renew passport ^am-pass\n    - photos taken\n- [ ] Book the dentist\n",
    );
    expect(addBlockIds(before, wanted).body).toBe(
      "- [ ] Renew passport ^am-pass\n- [ ] Book the dentist\n",
    );
  });

  it("equal blocks take the wanted ids in order; a first line two blocks share matches neither", () => {
    const body = "- same\n\nPara\n\n- same\n\n- same\n\n- two\n  - a\n- two\n  - b\n";
    const result = addBlockIds(body, [
      { text: "- same", id: "am-s1" },
      { text: "Para", id: "am-p" },
      { text: "- same", id: "am-s2" },
      { text: "- same", id: "am-s3" },
      { text: "- same", id: "am-s4" },
      { text: "- two", id: "am-two" },
    ]);
    expect(result.body).toBe(
      "- same ^am-s1\n\nPara ^am-p\n\n- same ^am-s2\n\n- same ^am-s3\n\n- two\n  - a\n- two\n  - b\n",
    );
    expect(result.added).toEqual(["am-s1", "am-p", "am-s2", "am-s3"]);
    expect(result.missing).toEqual(["am-s4", "am-two"]);
  });

  it("a thousand equal blocks appended get a thousand distinct ids, each on its own block", () => {
    const chunk = Array.from({ length: 1000 }, () => "- [ ] Check the case").join("\n\n");
    const { text, ids } = appendJournalBlock(null, chunk, {
      agent: "a",
      date: "2026-11-30",
      path: "Memory/Agents/a/Journal/2026-11-30.md",
    });
    expect(new Set(ids).size).toBe(1000);
    const blocks = splitBlocks(parseNote(text, "j").body).filter((b) => b.kind === "list-item");
    expect(blocks.map((b) => b.blockId)).toEqual(ids);
  });

  it("case 07: through NodeVault.process, a concurrent edit and the added ids both survive", async () => {
    const dir = await mkdtemp(join(tmpdir(), "am-blocks-"));
    try {
      const vault = new NodeVault(dir);
      const path = "Memory/Agents/me/Journal/2026-03-24.md";
      const text = `---\ntype: journal\n---\n${JOURNAL}`;
      await vault.process(path, () => text);
      const planned = splitBlocks(parseNote(text, path).body);
      const wanted = [{ text: planned[3]?.text ?? "", id: "am-send" }];
      vault.beforeCommit = async () => {
        vault.beforeCommit = null;
        const current = await readFile(join(dir, path), "utf8");
        await writeFile(
          join(dir, path),
          current.replace("- Learned:", "- [ ] call Person B\n- Learned:"),
        );
      };
      await vault.process(path, (current) => {
        const note = parseNote(current ?? "", path);
        return (current ?? "").slice(0, note.bodyOffset) + addBlockIds(note.body, wanted).body;
      });
      const final = await readFile(join(dir, path), "utf8");
      expect(final).toContain("- [ ] call Person B\n");
      expect(final).toContain("- [ ] Send the draft to Person A ^am-send\n");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("preserves CRLF and an unterminated last line", () => {
    const body = "> quote\r\n> more";
    const result = addBlockIds(body, [{ text: "> quote\n> more", id: "am-q001" }]);
    expect(result.body).toBe("> quote\r\n> more\r\n\r\n^am-q001");
    expect(addBlockIds("a\r\nb\r\n", [{ text: "a\nb", id: "am-p001" }]).body).toBe(
      "a\r\nb ^am-p001\r\n",
    );
  });

  it("extractionHash is unchanged by the ids it adds (CRLF too) and changes when the words change", () => {
    const blocks = splitBlocks(JOURNAL);
    const wanted = blocks
      .filter((b) => !b.blockId)
      .map((b, i) => ({ text: b.text, id: `am-h${String(i).padStart(3, "0")}` }));
    const withIds = addBlockIds(JOURNAL, wanted).body;
    expect(withIds).not.toBe(JOURNAL);
    expect(extractionHash(withIds)).toBe(extractionHash(JOURNAL));
    expect(extractionHash(JOURNAL)).toMatch(/^[0-9a-f]{28}$/);
    const crlf = JOURNAL.replace(/\n/g, "\r\n");
    expect(extractionHash(addBlockIds(crlf, wanted).body)).toBe(extractionHash(crlf));
    expect(extractionHash(JOURNAL.replace("79", "80"))).not.toBe(extractionHash(JOURNAL));
    expect(extractionHash(`${JOURNAL}- [ ] call Person B\n`)).not.toBe(extractionHash(JOURNAL));
  });

  it("property: adding ids keeps every block's text, puts each id on its block, and keeps the hash", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...SNIPPETS), fc.constantFrom("\n", "\n\n", "\n\n\n")), {
          minLength: 1,
          maxLength: 12,
        }),
        fc.constantFrom("\n", "\r\n"),
        fc.func(fc.boolean()),
        (parts, eol, pick) => {
          const body = parts
            .map(([snippet, sep]) => snippet + sep)
            .join("")
            .replace(/\n/g, eol);
          const blocks = splitBlocks(body);
          const wanted = blocks
            .map((b, i) => ({ b, i }))
            .filter(({ b, i }) => b.kind !== "other" && pick(i))
            .map(({ b, i }) => ({ text: b.text, id: b.blockId ?? `am-p${i.toString(36)}` }));
          const result = addBlockIds(body, wanted);
          expect(result.missing).toEqual([]);
          const after = splitBlocks(result.body);
          expect(after.map((b) => b.text)).toEqual(blocks.map((b) => b.text));
          for (const w of wanted)
            expect(after.find((b) => b.text === w.text && b.blockId === w.id)).toBeDefined();
          expect(extractionHash(result.body)).toBe(extractionHash(body));
          if (eol === "\r\n") expect(result.body.replace(/\r\n/g, "")).not.toContain("\n");
          expect(addBlockIds(result.body, wanted).body).toBe(result.body);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a block reworded in place is found between the same neighbours, and only when one block of its kind is there", () => {
    const body = "# Day\n\n- [ ] Renew passport\n- [ ] Pay rent\n\nDecision: ship it\n";
    const blocks = splitBlocks(body);
    const at = (text: string) => blocks.findIndex((b) => b.text === text);
    const wanted = [
      {
        text: "- [ ] Renew passport",
        id: "am-a",
        place: blockPlace(blocks, at("- [ ] Renew passport")),
      },
      { text: "Decision: ship it", id: "am-b", place: blockPlace(blocks, at("Decision: ship it")) },
    ];
    const reworded = body
      .replace("- [ ] Renew passport", "- [ ] Renew the passport in May")
      .replace("Decision: ship it", "Decision: ship it on Monday");
    const result = addBlockIds(reworded, wanted);
    expect(result.added).toEqual(["am-a", "am-b"]);
    expect(result.body).toBe(
      "# Day\n\n- [ ] Renew the passport in May ^am-a\n- [ ] Pay rent\n\nDecision: ship it on Monday ^am-b\n",
    );
    // Another list item now between the same neighbours, or a paragraph in the list item's place: not guessed.
    const two = body.replace(
      "- [ ] Renew passport",
      "- [ ] Renew the passport\n- [ ] Book flights",
    );
    expect(addBlockIds(two, wanted.slice(0, 1)).missing).toEqual(["am-a"]);
    const kind = body.replace("- [ ] Renew passport\n", "Renew the passport\n\n");
    expect(addBlockIds(kind, wanted.slice(0, 1)).missing).toEqual(["am-a"]);
  });
});

const LINE_POOL = [
  "",
  "# Heading",
  "## 小标题",
  "Plain text line.",
  "今天完成了认证系统的重构。",
  "- [ ] a task",
  "- item",
  "    - child",
  "  continued",
  "1. first",
  "> quote",
  "> [!note] callout",
  "```",
  "~~~",
  "| a | b |",
  "|---|---|",
  "---",
  "===",
  "^am-0001",
  "text ^am-0002",
  "\tindented with a tab",
];

const SNIPPETS = [
  "Met Person A about Project Alpha.",
  "Two line paragraph,\nsecond line 第二行。",
  "Paragraph with id ^am-old1",
  "- [ ] call Person B",
  "- [x] done item ^t-001\n    - progress note",
  "- parent\n  - child\n  - child 2",
  "1. ordered\n2. second",
  "> [!insight] 心得\n> 跳出率比框架更重要。",
  "> plain quote",
  "> quoted with id\n\n^q-001",
  "| a | b |\n|---|---|\n| 1 | 2 |",
  "```\ncode ^notid\n```",
  "## Heading",
  "---",
];
