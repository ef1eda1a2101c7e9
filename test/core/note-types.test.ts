// The one table of note types (src/core/note-types.ts): every note Agent Memory generates is
// recognised from it, memory a person or an agent writes is not, and search's `type:` filter reads a
// silent note's type from its collection.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseNote } from "../../src/core/frontmatter";
import { renderHealthReport } from "../../src/core/health/report";
import {
  BRIEF_EXPORT_MARK,
  HEALTH_REPORT_NAME,
  NOTE_TYPES,
  collectionNoteType,
  isBriefExportLine,
  isGeneratedNote,
} from "../../src/core/note-types";
import { appendQueueEntry } from "../../src/core/watch/review-queue";

const approved = (name: string): string =>
  readFileSync(new URL(`../cli/approved/${name}`, import.meta.url), "utf8");
const frontmatter = (text: string): Record<string, unknown> | null => parseNote(text, "x.md").data;

describe("note types", () => {
  it("recognises each note the code generates, as it writes it", () => {
    const review = approved("review-note-link-r-001.md");
    expect(
      isGeneratedNote("Memory/Agents/link/Journal/2026-11-30 review r-001.md", frontmatter(review)),
    ).toBe(true);
    const digest = approved("digest-link-2026-W47.md");
    expect(isGeneratedNote("anywhere/else.md", frontmatter(digest))).toBe(true);
    const report = renderHealthReport(
      { checked: 0, compliant: 0, compliance: 1, errors: [], warnings: [], today: "2026-12-01" },
      { generatedAt: "2026-12-01T00:00:00Z" },
    );
    expect(isGeneratedNote(`Memory/${HEALTH_REPORT_NAME}`, frontmatter(report))).toBe(true);
    const queue = appendQueueEntry(
      null,
      {
        journal: "Memory/Agents/a/Journal/2026-12-01.md",
        hash: "abc",
        queued: "2026-12-01T10:00:00Z",
        extractor: "offline",
        items: ["task: ship it → Tasks (new)"],
      },
      { agent: "a", path: "Memory/Agents/a/Review queue.md" },
    );
    expect(isGeneratedNote("Memory/Agents/a/Review queue.md", frontmatter(queue))).toBe(true);
    expect(isGeneratedNote("AGENTS.md", null, `${BRIEF_EXPORT_MARK}`)).toBe(true);
  });

  it("does not take memory for a generated note", () => {
    for (const type of ["journal", "tracker", "knowledge", "library", "reviews", ""])
      expect(isGeneratedNote("Memory/Agents/a/Journal/2026-12-01.md", { type })).toBe(false);
    expect(isGeneratedNote("Memory/Agents/a/Journal/2026-12-01.md", null)).toBe(false);
    // A person's note named like the report, without its type, is a person's note.
    expect(isGeneratedNote(`Memory/${HEALTH_REPORT_NAME}`, { type: "note" })).toBe(false);
    expect(isGeneratedNote("AGENTS.md", null, "# Agents")).toBe(false);
    expect(isGeneratedNote("AGENTS.md", null)).toBe(false);
  });

  it("reads the frontmatter type trimmed and in any case", () => {
    expect(isGeneratedNote("a.md", { type: " Digest " })).toBe(true);
    expect(isGeneratedNote("a.md", { type: "HEALTH-REPORT" })).toBe(true);
    expect(isGeneratedNote("a.md", { type: 3 })).toBe(false);
  });

  it("takes a digest by its week name in a Digests folder, and nothing else there", () => {
    expect(isGeneratedNote("Memory/Agents/a/Journal/Digests/2026-W48.md", null)).toBe(true);
    expect(isGeneratedNote("Memory/Agents/a/Journal/Digests/2026-W48.MD", {})).toBe(true);
    expect(isGeneratedNote("Memory/Agents/a/Journal/Digests/notes.md", null)).toBe(false);
    expect(isGeneratedNote("Memory/Agents/a/Journal/2026-W48.md", null)).toBe(false);
    expect(isGeneratedNote("Digests/2026-W48.md/x.md", null)).toBe(false);
  });

  it("takes the export mark as the whole first line, a BOM and trailing blanks allowed", () => {
    expect(isBriefExportLine(`\uFEFF${BRIEF_EXPORT_MARK}  `)).toBe(true);
    expect(isBriefExportLine(` ${BRIEF_EXPORT_MARK}`)).toBe(false);
    expect(isBriefExportLine(`${BRIEF_EXPORT_MARK} more`)).toBe(false);
  });

  it("gives a silent note its collection's type, and none outside the four collections", () => {
    expect(collectionNoteType("journal")).toBe("journal");
    expect(collectionNoteType("tracker")).toBe("tracker");
    expect(collectionNoteType("knowledge")).toBe("knowledge");
    expect(collectionNoteType("library")).toBe("library");
    expect(collectionNoteType("isolated")).toBeUndefined();
    expect(collectionNoteType("other")).toBeUndefined();
  });

  it("lists each type once", () => {
    const types = NOTE_TYPES.map((t) => t.type);
    expect(new Set(types).size).toBe(types.length);
  });
});
