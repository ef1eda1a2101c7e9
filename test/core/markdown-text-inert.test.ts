// inertMarkdown (src/core/markdown/text.ts): text from another tool shown in a heading adds no
// link, embed, tag or block id to the vault.
import { describe, expect, it } from "vitest";
import { inertMarkdown } from "../../src/core/markdown/text";
import { mergeSession } from "../../src/core/ingest/section";

describe("inertMarkdown", () => {
  it("escapes wikilinks, embeds, tags and a trailing block id; leaves other text alone", () => {
    expect(inertMarkdown("see [[evil]] and ![[img.png]]")).toBe(
      "see \\[\\[evil]] and !\\[\\[img.png]]",
    );
    expect(inertMarkdown("#tag fix the #42 bug, C# stays")).toBe(
      "\\#tag fix the \\#42 bug, C# stays",
    );
    expect(inertMarkdown("title ^abc-1")).toBe("title \\^abc-1");
    const plain = "Fix the CRLF parser bug (x^2, a [link](url), issue #)";
    expect(inertMarkdown(plain)).toBe(plain);
  });

  it("keeps a transcript's title from linking or tagging in the journal's heading", () => {
    const { text } = mergeSession(
      null,
      {
        id: "7f3a9c2e-0000",
        format: "claude-code",
        title: "Fix [[evil]] #tag",
        turns: [
          {
            key: "k1",
            at: "2026-11-30T10:00:00Z",
            request: "hi",
            conclusion: "ok",
            actions: [],
            interrupted: false,
          },
        ],
        pendingTurn: false,
      },
      { agent: "claude", date: "2026-11-30", path: "Memory/Agents/claude/Journal/2026-11-30.md" },
    );
    expect(text).toContain("## Claude Code session 7f3a9c2e · Fix \\[\\[evil]] \\#tag");
    expect(text).not.toContain(" [[evil]]");
  });
});
