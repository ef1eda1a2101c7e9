import { describe, expect, it } from "vitest";
import { splitBlocks } from "../../../src/core/journal/blocks";
import { buildEvidenceIndex, locateEvidence } from "../../../src/core/extraction/evidence";
import { foldForMatch } from "../../../src/core/markdown/text";
import { halveWindow, splitWindows } from "../../../src/core/extraction/windows";
import { estimateTokens } from "../../../src/core/llm/tokens";

const journal = [
  "# 2026-11-24",
  "",
  "## SEO audit",
  "",
  "Crawled the blog again; the **home page** scored 38 and the blog 79.",
  "",
  "- [ ] Send the audit to [[Person A|Alice]] before Friday ^am-k3f9",
  "",
  "## 今天",
  "",
  "今天完成了认证系统的重构，使用ＪＷＴ令牌。下一步：压测。",
].join("\n");

describe("evidence check", () => {
  const blocks = splitBlocks(journal);
  const index = buildEvidenceIndex(blocks);
  const where = (evidence: string) => {
    const m = locateEvidence(index, evidence);
    return m.found ? blocks[m.blockIndex]?.text : m.reason;
  };

  it("normalises whitespace, punctuation, case and full-width forms", () => {
    expect(foldForMatch("Ｈｅｌｌｏ，  World！")).toBe(foldForMatch("hello, world!"));
    expect(foldForMatch("使用ＪＷＴ令牌。")).toBe("使用jwt令牌");
  });

  it("finds a verbatim quote and the block it comes from", () => {
    expect(where("the home page scored 38 and the blog 79")).toContain("Crawled the blog again");
    expect(where("Crawled   the blog again; the home page SCORED 38")).toContain(
      "Crawled the blog again",
    );
  });

  it("matches across full- and half-width forms and Chinese punctuation", () => {
    expect(where("认证系统的重构,使用JWT令牌")).toContain("今天完成了认证系统的重构");
  });

  it("matches quotes of what a reader sees: link aliases and Markdown removed, block ids ignored", () => {
    expect(where("Send the audit to Alice before Friday")).toContain("Send the audit");
    expect(where("- [ ] Send the audit to [[Person A|Alice]] before Friday ^am-k3f9")).toContain(
      "Send the audit",
    );
  });

  it("accepts an elided quote whose parts occur in order in one block", () => {
    expect(where("Crawled the blog again … the blog 79")).toContain("Crawled the blog again");
    expect(where("the blog 79 … Crawled the blog again")).toBe(
      "evidence not found in the journal (unsupported)",
    );
  });

  it("rejects an invented quote, and quotes too short to mean anything", () => {
    expect(where("the pricing page converts at 4%")).toBe(
      "evidence not found in the journal (unsupported)",
    );
    expect(where("blog")).toBe("evidence is too short to check against the journal");
    expect(where("…")).toBe("evidence is empty");
    expect(where("重构")).toContain("今天完成了认证系统的重构");
  });
});

describe("windows", () => {
  it("keeps a short journal in one window, with its exact text", () => {
    const blocks = splitBlocks(journal);
    const windows = splitWindows(journal, blocks, 6000);
    expect(windows).toHaveLength(1);
    expect(windows[0]?.text).toBe(journal.slice(journal.indexOf("# 2026")));
    expect(windows[0]).toMatchObject({ blockStart: 0, blockEnd: blocks.length });
  });

  it("splits a 1 MB journal at block boundaries within the budget, covering every block once", () => {
    const paragraphs: string[] = [];
    for (let i = 0, size = 0; size < 1_000_000; i++) {
      if (i % 40 === 0) paragraphs.push(`## Section ${i / 40}`);
      paragraphs.push(
        `Paragraph ${i}: the crawl found ${i % 97} broken links and ${i % 13} redirects on the blog today.`,
      );
      size += (paragraphs.at(-1)?.length ?? 0) + 2;
    }
    const body = paragraphs.join("\n\n");
    const blocks = splitBlocks(body);
    const windows = splitWindows(body, blocks, 2000);
    expect(windows.length).toBeGreaterThan(100);
    for (const w of windows) expect(estimateTokens(w.text)).toBeLessThanOrEqual(2000);
    expect(windows[0]?.blockStart).toBe(0);
    for (let i = 1; i < windows.length; i++)
      expect(windows[i]?.blockStart).toBe(windows[i - 1]?.blockEnd);
    expect(windows.at(-1)?.blockEnd).toBe(blocks.length);
    // A window that starts mid-section knows its heading.
    expect(windows.some((w) => w.headings.some((h) => h.includes("Section")))).toBe(true);
  });

  it("cuts one block larger than the budget by lines, and one huge line by characters", () => {
    const line = "长".repeat(5000);
    const body = `intro\n\n${line}\n\noutro`;
    const blocks = splitBlocks(body);
    const windows = splitWindows(body, blocks, 1000);
    expect(windows.map((w) => w.text).join("")).toBe(`intro${line}outro`);
    for (const w of windows) expect(estimateTokens(w.text)).toBeLessThanOrEqual(1000);
  });

  it("halves a window at a block boundary, then by lines, and refuses a single character", () => {
    const body = [
      "First paragraph here.",
      "",
      "Second paragraph here.",
      "",
      "Third paragraph here.",
      "",
      "Fourth one.",
    ].join("\n");
    const blocks = splitBlocks(body);
    const [w] = splitWindows(body, blocks, 6000);
    expect(w).toBeDefined();
    if (!w) return;
    const halves = halveWindow(w, body, blocks);
    expect(halves?.map((h) => [h.blockStart, h.blockEnd])).toEqual([
      [0, 2],
      [2, 4],
    ]);
    expect(halves?.map((h) => h.text).join("\n\n")).toBe(body);
    const one = { text: "x", blockStart: 0, blockEnd: 1, headings: [], tokens: 1 };
    expect(halveWindow(one, "x", splitBlocks("x"))).toBeNull();
  });
});
