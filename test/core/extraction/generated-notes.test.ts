// Notes the product generated are never extracted as journals (src/core/note-types.ts); the review
// note's reflection is: test/core/review/reviews-notes.test.ts, "a review note is extracted only
// where a person wrote".
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { planExtraction } from "../../../src/core/extraction/pipeline";
import { OfflineExtractor } from "../../../src/core/extraction/offline";
import { UsageError } from "../../../src/core/errors";
import { MemoryLayout } from "../../../src/core/layout";
import { defaultSettings } from "../../../src/core/settings";
import { buildBrief } from "../../../src/core/brief";
import { runHealthCheck, writeHealthReport } from "../../../src/core/health";
import {
  BRIEF_EXPORT_MARK,
  generatedNoteKind,
  personWrittenPart,
} from "../../../src/core/note-types";
import { tempVault } from "../../helpers/temp-vault";

const settings = defaultSettings();
const layout = new MemoryLayout(settings);
const J = "Memory/Agents/link/Journal/2026-11-24.md";
const TASKS = "Memory/Agents/link/Trackers/Tasks.md";
const TASKS_TEXT =
  "---\ntype: tracker\n---\n# Tasks\n\n- [ ] renew the TLS certificate [due:: 2026-11-20] ^t-001\n";

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

function setup(files: Record<string, string>) {
  const t = tempVault(files);
  cleanup = t.cleanup;
  return t;
}

const plan = (t: ReturnType<typeof setup>, path: string) =>
  planExtraction({
    vault: t.vault,
    settings,
    layout,
    journalPath: path,
    extractor: new OfflineExtractor(),
    force: true,
  });

describe("a generated note is not a journal", () => {
  it("the health report is refused by name, and left as it was", async () => {
    const t = setup({ [J]: "# 2026-11-24\n\n- [ ] call the plumber\n" });
    const report = await runHealthCheck(t.vault, layout, settings, { today: "2026-11-24" });
    const { path } = await writeHealthReport(t.vault, layout, report, {
      generatedAt: "2026-11-24T10:00:00Z",
    });
    const before = readFileSync(join(t.root, path), "utf8");
    expect(before).toContain("type: health-report");
    const refusal = plan(t, path);
    await expect(refusal).rejects.toThrow(UsageError);
    await expect(refusal).rejects.toThrow(`${path} is the health report written by health`);
    expect(readFileSync(join(t.root, path), "utf8")).toBe(before);
  });

  it("an exported brief saved in a journal folder is refused, though it lists open tasks", async () => {
    const t = setup({ [TASKS]: TASKS_TEXT });
    const brief = await buildBrief({
      vault: t.vault,
      layout,
      settings,
      agent: "link",
      today: "2026-11-24",
      header: [BRIEF_EXPORT_MARK],
    });
    expect(brief.markdown).toContain("renew the TLS certificate");
    t.write(J, brief.markdown);
    await expect(plan(t, J)).rejects.toThrow(`${J} is a brief written by export-agents-md`);
    expect(readFileSync(join(t.root, J), "utf8")).toBe(brief.markdown);
  });

  it("a journal that only mentions the mark further down, or a type of its own, is a journal", async () => {
    const t = setup({
      [J]: `---\ntype: journal\n---\n# 2026-11-24\n\n${BRIEF_EXPORT_MARK}\n\n- [ ] call the plumber\n`,
    });
    const { items } = await plan(t, J);
    expect(items.map((p) => p.item.text)).toEqual(["call the plumber"]);
  });
});

describe("generatedNoteKind and personWrittenPart", () => {
  it("reads the frontmatter type without case, and the brief's mark only as the first line", () => {
    expect(generatedNoteKind({ type: "Digest" })).toBe("digest");
    expect(generatedNoteKind({ type: "review" })).toBe("review");
    expect(generatedNoteKind({ type: "health-report" })).toBe("health-report");
    expect(generatedNoteKind(null, `\uFEFF${BRIEF_EXPORT_MARK}\n# Brief\n`)).toBe("brief");
    expect(generatedNoteKind(null, `# Brief\n${BRIEF_EXPORT_MARK}\n`)).toBeNull();
    expect(generatedNoteKind({ type: "journal" }, "# 2026-11-24\n")).toBeNull();
  });

  it("a review note's person-written part starts at its first reflection heading", () => {
    const body = "# Review\n\n## Goals (1)\n\n- g-001\n\n## What slipped\n\n- the export\n";
    expect(personWrittenPart("review", body)).toBe("## What slipped\n\n- the export\n");
    expect(personWrittenPart("review", "# Review\n\n## Goals (1)\n\n- g-001\n")).toBe("");
    expect(personWrittenPart("digest", body)).toBe("");
  });
});
