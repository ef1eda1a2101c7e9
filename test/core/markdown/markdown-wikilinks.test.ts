// The one wikilink parser and formatter (src/core/markdown/wikilinks.ts): tracker sources, topic
// notes, review notes, the CLI and the MCP tools build and read links with these.
import { describe, expect, it } from "vitest";
import {
  formatWikilink,
  linkTarget,
  replaceWikilinks,
  stripWikilinkBrackets,
  toWikilink,
  unwrapWikilink,
  wikilinkTargets,
} from "../../../src/core/markdown/wikilinks";

describe("building wikilinks", () => {
  it("formats a path with a block id, a heading or an alias, dropping .md", () => {
    expect(
      formatWikilink({ path: "Memory/Agents/a/Journal/2026-11-24.md", blockId: "am-k3f9" }),
    ).toBe("[[Memory/Agents/a/Journal/2026-11-24#^am-k3f9]]");
    expect(formatWikilink({ path: "Topics/SEO.MD", heading: "Findings" })).toBe(
      "[[Topics/SEO#Findings]]",
    );
    expect(
      formatWikilink({ path: "Reviews", blockId: "r-1", heading: "ignored", alias: "weekly" }),
    ).toBe("[[Reviews#^r-1|weekly]]");
    expect(formatWikilink({ path: "Note", blockId: null, heading: "" })).toBe("[[Note]]");
  });

  it("wraps a target once, whether or not it came with brackets", () => {
    expect(toWikilink("Note")).toBe("[[Note]]");
    expect(toWikilink(" [[Note|alias]] ")).toBe("[[Note|alias]]");
    expect(toWikilink("[[Note")).toBe("[[Note]]");
    expect(unwrapWikilink("[[a]] and [[b]]")).toBe("a]] and [[b");
  });
});

describe("reading wikilinks", () => {
  it("gives each link's target without alias, embeds included", () => {
    expect(
      wikilinkTargets("[source:: [[2026-03-24#^am-k3f9]]] and ![[chart.png|c]] [[ Note | n ]]"),
    ).toEqual(["2026-03-24#^am-k3f9", "chart.png", "Note"]);
    expect(linkTarget("[[Note#Heading|alias]]")).toBe("Note#Heading");
  });

  it("replaces each link by what the caller renders, with its inside and alias", () => {
    const seen: [string, string, string | null][] = [];
    const out = replaceWikilinks("a [[X|y]] b ![[Z#^id]]", (link, inner, alias) => {
      seen.push([link.path, inner, alias]);
      return "L";
    });
    expect(out).toBe("a L b L");
    expect(seen).toEqual([
      ["X", "X|y", "y"],
      ["Z", "Z#^id", null],
    ]);
  });

  it("strips the brackets of links, leaving the words", () => {
    expect(stripWikilinkBrackets("see [[A]] and [[B|b]]")).toBe("see A and B|b");
    expect(stripWikilinkBrackets("[[A]]", " ")).toBe(" A ");
  });
});
