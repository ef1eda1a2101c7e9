// Git conflict markers (docs/sync.md, "Without the driver"): health reports them as errors naming
// the note; extract refuses a journal holding them, exit 2, nothing written.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runHealthCheck } from "../../src/core/health/check";
import { MemoryLayout } from "../../src/core/layout";
import { findConflictMarkers, hasConflictMarkers } from "../../src/core/markdown/conflict-markers";
import { defaultSettings } from "../../src/core/settings";
import { cliRun } from "../helpers/cli-run";
import { tempVault } from "../helpers/temp-vault";

const CONFLICT = "<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> origin/main\n";

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

describe("findConflictMarkers", () => {
  it("finds the three markers of a conflict, and diff3's base marker, at line start", () => {
    expect(findConflictMarkers(`# T\n\n${CONFLICT}`)).toEqual([
      { line: 3, marker: "<<<<<<<" },
      { line: 5, marker: "=======" },
      { line: 7, marker: ">>>>>>>" },
    ]);
    const diff3 = "<<<<<<< ours\r\na\r\n||||||| base\r\nb\r\n=======\r\nc\r\n>>>>>>> theirs\r\n";
    expect(findConflictMarkers(diff3).map((m) => m.marker)).toEqual([
      "<<<<<<<",
      "|||||||",
      "=======",
      ">>>>>>>",
    ]);
  });

  it("ignores markers in fenced code, indented or inside a line, and a setext underline", () => {
    expect(findConflictMarkers("```\n" + CONFLICT + "```\n")).toEqual([]);
    expect(findConflictMarkers("~~~~ diff\n" + CONFLICT + "~~~~\n")).toEqual([]);
    expect(findConflictMarkers("Title\n=======\n\ntext\n")).toEqual([]);
    expect(findConflictMarkers(" <<<<<<< HEAD\nsee <<<<<<< here\n<<<<<<<<< eight\n")).toEqual([]);
    expect(hasConflictMarkers("a\n=======\nb\n")).toBe(false);
    // After the fence closes, a marker counts again.
    expect(findConflictMarkers("```\nx\n```\n>>>>>>> theirs\n")).toEqual([
      { line: 4, marker: ">>>>>>>" },
    ]);
  });
});

describe("health and extract on a note with conflict markers", () => {
  it("health reports conflict markers as an error naming the note and its line", async () => {
    const settings = defaultSettings();
    const layout = new MemoryLayout(settings);
    const tasks = "Memory/Agents/link/Trackers/Tasks.md";
    const t = tempVault({
      [tasks]: `# Tasks\n\n- [ ] a ^t-001\n${CONFLICT}`,
      "Memory/Agents/link/Knowledge/learning/Fine.md": "# Fine\n\n```\n" + CONFLICT + "```\n",
    });
    cleanup = t.cleanup;
    const report = await runHealthCheck(t.vault, layout, settings, { today: "2026-12-01" });
    const found = report.errors.filter((e) => e.rule === "conflict-markers");
    expect(found).toEqual([
      expect.objectContaining({ path: tasks, line: 4, severity: "error" }) as unknown,
    ]);
    expect(found[0]?.message).toMatch(/3 git conflict markers \(first <<<<<<< at line 4\)/);
  });

  it("extract refuses a journal holding markers: exit 2, one line naming it, nothing written", () => {
    const j = "Memory/Agents/link/Journal/2026-12-01.md";
    const t = tempVault({
      [j]: `# 2026-12-01\n\n- [ ] Renew passport\n\n${CONFLICT}`,
      "Memory/Agents/link/Trackers/Tasks.md": "# Tasks\n",
    });
    cleanup = t.cleanup;
    const before = readFileSync(join(t.root, j), "utf8");
    const r = cliRun("extract", t.root, j);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain(`${j}: git conflict marker <<<<<<< at line 5`);
    expect(readFileSync(join(t.root, j), "utf8")).toBe(before);
    expect(readFileSync(join(t.root, "Memory/Agents/link/Trackers/Tasks.md"), "utf8")).toBe(
      "# Tasks\n",
    );
  });
});
