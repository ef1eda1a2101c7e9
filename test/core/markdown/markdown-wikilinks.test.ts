// The one wikilink parser and formatter (src/core/markdown/wikilinks.ts): tracker sources, topic
// notes, review notes, the CLI and the MCP tools build and read links with these.
import { describe, expect, it } from "vitest";
import {
  formatWikilink,
  LinkResolver,
  linkTarget,
  noteName,
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

describe("note names", () => {
  it("is the file name without its folder and a trailing .md of any case", () => {
    expect(noteName("Memory/Agents/a/Journal/2026-11-24.md")).toBe("2026-11-24");
    expect(noteName("Library/Ops/SEO.MD")).toBe("SEO");
    expect(noteName("Top.md")).toBe("Top");
    expect(noteName("Top")).toBe("Top");
  });

  it("keeps another extension, a .md inside the name and dots before it", () => {
    expect(noteName("files/chart.png")).toBe("chart.png");
    expect(noteName("a/notes.md.bak")).toBe("notes.md.bak");
    expect(noteName("a/v1.2 plan.md")).toBe("v1.2 plan");
    expect(noteName("a.md/b")).toBe("b");
  });

  it("gives an empty name for a folder path or a bare .md", () => {
    expect(noteName("Memory/Agents/")).toBe("");
    expect(noteName("a/.md")).toBe("");
  });

  it("is the name a bare wikilink resolves by", () => {
    const links = new LinkResolver(["Memory/Agents/a/Journal/2026-11-24.md", "Library/SEO.MD"]);
    expect(links.resolve(noteName("Library/SEO.MD"), "x.md")).toBe("Library/SEO.MD");
    expect(links.resolve("2026-11-24", "x.md")).toBe("Memory/Agents/a/Journal/2026-11-24.md");
  });
});
