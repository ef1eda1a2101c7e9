import { describe, expect, it } from "vitest";
import { MemoryLayout, sanitizeFileName } from "../../src/core/layout";
import { defaultSettings } from "../../src/core/settings";
import { PathError } from "../../src/core/errors";

const layout = new MemoryLayout(defaultSettings());

describe("MemoryLayout", () => {
  it("places each layer as the architecture says", () => {
    expect(layout.journalPath("link", "2026-03-24")).toBe(
      "Memory/Agents/link/Journal/2026-03-24.md",
    );
    expect(layout.trackerPath("link", "tasks")).toBe("Memory/Agents/link/Trackers/Tasks.md");
    expect(layout.topicPath("link", "Content quality")).toBe(
      "Memory/Agents/link/Knowledge/learning/Content quality.md",
    );
    expect(layout.libraryPath("SEO", "Core Web Vitals")).toBe(
      "Memory/Library/SEO/Core Web Vitals.md",
    );
  });

  it("the memory root is a folder, not a name prefix: Memory does not hold MemoryArchive/ (docs/testing.md)", () => {
    expect(layout.isInside("Memory")).toBe(true);
    expect(layout.isInside("Memory/Agents/link/Journal/2026-03-24.md")).toBe(true);
    expect(layout.isInside("MemoryArchive/Agents/link/Journal/2026-03-24.md")).toBe(false);
    expect(layout.isInside("Memory.md")).toBe(false);
    expect(layout.under("Memory/Library/x.md")).toBe("Memory/Library/x.md");
    expect(() => layout.under("MemoryArchive/Library/x.md")).toThrow(PathError);
    expect(layout.collectionOf("MemoryArchive/Library/SEO/x.md")).toBe("other");
    expect(layout.collectionOf("Memory/Library/SEO/x.md")).toBe("library");
    // Zones likewise: Restricted does not hold RestrictedOld/.
    expect(layout.zoneOf("Memory/Restricted/x.md")).toBe("Restricted");
    expect(layout.zoneOf("Memory/RestrictedOld/x.md")).toBeNull();
  });

  it("uses the folder settings", () => {
    const s = defaultSettings();
    s.memoryRoot = "Brain";
    s.agentsFolder = "Bots";
    s.trackerFiles.tasks = "待办";
    const l = new MemoryLayout(s);
    expect(l.trackerPath("x", "tasks")).toBe("Brain/Bots/x/Trackers/待办.md");
    expect(l.collectionOf("Brain/Bots/x/Journal/2026-01-01.md")).toBe("journal");
  });

  it("case 11: Chinese topic names make distinct files, only unsafe characters replaced", () => {
    expect(layout.topicPath("ming", "睡眠质量")).toMatch(/\/睡眠质量\.md$/);
    expect(layout.topicPath("ming", "早起习惯")).toMatch(/\/早起习惯\.md$/);
    expect(sanitizeFileName('a/b:c*d?"e<f>g|h')).toBe("a-b-c-d--e-f-g-h");
    expect(sanitizeFileName(".hidden")).toBe("hidden");
    expect(sanitizeFileName("???")).toBeNull();
  });

  it("case 12: a topic chosen by a model cannot escape the knowledge folder", () => {
    const p = layout.topicPath("link", "../../.obsidian/plugins/x/main");
    expect(p.startsWith("Memory/Agents/link/Knowledge/")).toBe(true);
    expect(p.split("/").includes("..")).toBe(false);
    expect(() => layout.under("Memory/../.obsidian/x.md")).toThrow(PathError);
    expect(() => layout.under(".obsidian/plugins/x/main.md")).toThrow(PathError);
    expect(() => layout.agentRoot("../x")).toThrow(PathError);
  });

  it("Windows device names get a `_` so the note can exist on Windows, whatever the case or extension", () => {
    for (const name of ["CON", "PRN", "AUX", "NUL", "COM1", "COM9", "LPT1", "LPT9"])
      expect(sanitizeFileName(name)).toBe(`${name}_`);
    expect(sanitizeFileName("con")).toBe("con_");
    expect(sanitizeFileName("Nul")).toBe("Nul_");
    expect(sanitizeFileName("con.txt")).toBe("con_.txt");
    expect(sanitizeFileName("Com1.backup.md")).toBe("Com1_.backup.md");
    expect(sanitizeFileName("LPT3 .notes")).toBe("LPT3_ .notes");
    expect(sanitizeFileName("AUX.")).toBe("AUX_");
    expect(sanitizeFileName("  prn  ")).toBe("prn_");
    // Only the device name itself is reserved.
    for (const name of [
      "Console",
      "CON game",
      "COM10",
      "LPT",
      "Nullable",
      "auxiliary",
      "ACON",
      "com1x",
    ])
      expect(sanitizeFileName(name)).toBe(name);
    expect(layout.topicPath("link", "CON")).toBe("Memory/Agents/link/Knowledge/learning/CON_.md");
    expect(layout.libraryPath("nul", "aux")).toBe("Memory/Library/nul_/aux_.md");
  });

  it("trailing dots and spaces are removed, also after the 120-character cap, without splitting a character", () => {
    expect(sanitizeFileName("Why this works...")).toBe("Why this works");
    expect(sanitizeFileName("note . . ")).toBe("note");
    expect(sanitizeFileName(`${"a".repeat(118)}. .b`)).toBe("a".repeat(118));
    const emoji = sanitizeFileName("😀".repeat(130));
    expect(emoji).toBe("😀".repeat(120));
    expect(sanitizeFileName("...")).toBeNull();
  });

  it("classifies collections, agents and isolated zones", () => {
    expect(layout.collectionOf("Memory/Agents/a/Trackers/Tasks.md")).toBe("tracker");
    expect(layout.collectionOf("Memory/Agents/a/Knowledge/learning/T.md")).toBe("knowledge");
    expect(layout.collectionOf("Memory/Library/SEO/T.md")).toBe("library");
    expect(layout.collectionOf("Memory/Restricted/x.md")).toBe("isolated");
    expect(layout.collectionOf("Other/x.md")).toBe("other");
    expect(layout.agentOf("Memory/Agents/ming/Journal/2026-11-01.md")).toBe("ming");
    expect(layout.zoneOf("Memory/Restricted/a/b.md")).toBe("Restricted");
  });

  it("names the agent of a path only when the path goes on below the agent's folder", () => {
    const cases: [string, string | null][] = [
      ["Memory/Agents/ming/Journal/2026-11-01.md", "ming"],
      ["Memory/Agents/ming/x.md", "ming"],
      ["Memory/Agents/ming.md", null],
      ["Memory/Agents/ming", null],
      ["Memory/Agents//x.md", null],
      ["Memory/Agents/", null],
      ["Memory/AgentsX/ming/x.md", null],
      ["Other/Agents/ming/x.md", null],
    ];
    for (const [path, agent] of cases) expect(layout.agentOf(path), path).toBe(agent);
  });
});
