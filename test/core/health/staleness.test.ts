// Staleness (docs/compaction.md): a knowledge note whose topic journal blocks newer than its last
// update mention is flagged "may be stale" by the health check (`may-be-stale`, the blocks linked),
// in the brief and in the review material; a mention on or before the update is not one.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { UnreadableNote } from "../../../src/core/errors";
import { runHealthCheck } from "../../../src/core/health";
import { findStaleTopics, staleTopicsOf } from "../../../src/core/health/stale-rules";
import { readNoteInfo } from "../../../src/core/health/note-info";
import { buildBrief } from "../../../src/core/brief";
import { collectReviewMaterial } from "../../../src/core/review/material";
import { MemoryLayout } from "../../../src/core/layout";
import { defaultSettings } from "../../../src/core/settings";
import { tempVault } from "../../helpers/temp-vault";

const settings = defaultSettings();
const layout = new MemoryLayout(settings);
const A = "Memory/Agents/ada";
const TOPIC = `${A}/Knowledge/learning/Page speed.md`;

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

function topic(updated: string, extra = ""): string {
  return `---\nid: ada/page-speed\ntype: knowledge\nstatus: active\ncreated_at: 2026-10-01\nupdated_at: ${updated}\naliases: [LCP]\n${extra}---\n# Page speed\n\n## Insights\n> [!insight] 2026-10-01 · confidence 0.8\n> Hero images dominate LCP.\n`;
}

function vault(updated: string, journals: Record<string, string>, extra = "") {
  const files: Record<string, string> = { [TOPIC]: topic(updated, extra) };
  for (const [day, body] of Object.entries(journals)) files[`${A}/Journal/${day}.md`] = body;
  const t = tempVault(files);
  cleanup = t.cleanup;
  return t;
}

const staleOf = async (t: ReturnType<typeof vault>, today = "2026-11-30") =>
  (await runHealthCheck(t.vault, layout, settings, { today })).warnings.filter(
    (w) => w.rule === "may-be-stale",
  );

describe("may be stale", () => {
  it("flags a note mentioned in a journal block dated after its last update, linking the block", async () => {
    const t = vault("2026-11-10", {
      "2026-11-12":
        "# 2026-11-12\n\nThe page speed budget moved to 2.0 s. ^am-ps01\n\nNothing else today.\n",
    });
    const found = await staleOf(t);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ path: TOPIC, severity: "warning" });
    expect(found[0]?.message).toBe(
      `May be stale: mentioned in 1 journal block newer than its last update (2026-11-10): [[${A}/Journal/2026-11-12#^am-ps01]].`,
    );
  });

  it("does not flag a mention on the day of the update or before it", async () => {
    for (const day of ["2026-11-10", "2026-11-09"]) {
      const t = vault("2026-11-10", { [day]: `# ${day}\n\nPage speed is fine. ^am-ps01\n` });
      expect(await staleOf(t), day).toEqual([]);
      cleanup?.();
      cleanup = null;
    }
  });

  it("reads the last update from the newest callout when it is later than updated_at", async () => {
    const withCallout = `${topic("2026-11-01")}\n> [!insight] 2026-11-20 · confidence 0.7\n> Fonts add 200 ms.\n`;
    const t = tempVault({
      [TOPIC]: withCallout,
      [`${A}/Journal/2026-11-15.md`]: "# d\n\nPage speed again.\n",
      [`${A}/Journal/2026-11-21.md`]: "# d\n\n## Perf\n\nPage speed after the fonts change.\n",
    });
    cleanup = t.cleanup;
    const found = await staleOf(t);
    // Only the block after 2026-11-20 counts; it has no id, so its heading is linked.
    expect(found.map((f) => f.message)).toEqual([
      `May be stale: mentioned in 1 journal block newer than its last update (2026-11-20): [[${A}/Journal/2026-11-21#Perf]].`,
    ]);
  });

  it("reads no journal its name dates on or before the oldest topic update, or after today", async () => {
    const t = vault("2026-11-10", {});
    // Not UTF-8: a journal that is read is named in `unreadable`, one that is not read is not.
    const bad = Buffer.from([0x23, 0x20, 0xff, 0xfe, 0x0a]);
    mkdirSync(join(t.root, `${A}/Journal`), { recursive: true });
    for (const day of ["2026-11-09", "2026-11-10", "2026-11-11", "2026-11-30", "2026-12-01"])
      writeFileSync(join(t.root, `${A}/Journal/${day}.md`), bad);
    writeFileSync(join(t.root, `${A}/Journal/notes without a date.md`), bad);
    const unreadable: UnreadableNote[] = [];
    expect(await staleTopicsOf(t.vault, layout, "ada", "2026-11-30", unreadable)).toEqual([]);
    expect(unreadable.map((u) => u.path).sort()).toEqual([
      `${A}/Journal/2026-11-11.md`,
      `${A}/Journal/2026-11-30.md`,
      `${A}/Journal/notes without a date.md`,
    ]);
  });

  it("matches the title, an alias, whole words only, and skips blocks the note cites, future journals, digests and retired notes", async () => {
    const t = vault("2026-11-10", {
      "2026-11-11":
        "# d\n\nLCP went up on mobile. ^am-a001\n\nThe CLCPX counter and pagespeed.io are other words.\n",
      "2026-11-12": "# d\n\nPage speed was the source. ^am-c001\n",
      "2026-12-05": "# d\n\nPage speed in the future.\n",
    });
    // The note cites the 11-12 block: it was updated from it.
    await t.vault.process(
      TOPIC,
      (c) => `${c ?? ""}> Source: [[${A}/Journal/2026-11-12#^am-c001]]\n`,
    );
    t.write(
      `${A}/Journal/Digests/2026-W46.md`,
      "---\ntype: digest\n---\n# digest\n\nPage speed, LCP.\n",
    );
    const topics = await staleTopicsOf(t.vault, layout, "ada", "2026-11-30");
    expect(topics).toHaveLength(1);
    expect(topics[0]?.blocks.map((b) => b.link)).toEqual([`[[${A}/Journal/2026-11-11#^am-a001]]`]);
    t.write(TOPIC, topic("2026-11-10", "status: archived\n").replace("status: active\n", ""));
    expect(await staleTopicsOf(t.vault, layout, "ada", "2026-11-30")).toEqual([]);
  });

  it("counts an agent's own journals for its knowledge, everyone's for the library", () => {
    const note = (
      path: string,
      text: string,
      collection: "knowledge" | "library" | "journal",
      agent: string | null,
    ) => readNoteInfo(path, text, { size: text.length, mtime: 0 }, { collection, agent });
    const notes = [
      note(TOPIC, topic("2026-11-10"), "knowledge", "ada"),
      note("Memory/Library/Web/Page speed.md", topic("2026-11-10"), "library", null),
      note(
        "Memory/Agents/bo/Journal/2026-11-12.md",
        "# d\n\nPage speed at bo's. ^am-b001\n",
        "journal",
        "bo",
      ),
    ];
    expect(findStaleTopics(notes, "2026-11-30").map((t) => t.path)).toEqual([
      "Memory/Library/Web/Page speed.md",
    ]);
  });

  it("lists many blocks in the finding: the first five linked, the rest counted", async () => {
    const journals: Record<string, string> = {};
    for (let d = 11; d <= 18; d++)
      journals[`2026-11-${d}`] = `# d\n\nPage speed note ${d}. ^am-p0${d}\n`;
    const found = await staleOf(vault("2026-11-10", journals));
    expect(found[0]?.message).toMatch(
      /^May be stale: mentioned in 8 journal blocks newer than its last update \(2026-11-10\): (\[\[[^\]]+\]\], ){4}\[\[[^\]]+\]\] and 3 more\.$/,
    );
  });

  it("shows in the brief with the newer blocks and the note's link, and in the review material", async () => {
    const t = vault("2026-11-10", {
      "2026-11-12": "# d\n\nPage speed budget is now 2.0 s. ^am-ps01\n",
    });
    const brief = await buildBrief({
      vault: t.vault,
      layout,
      settings,
      agent: "ada",
      today: "2026-11-30",
      budgetTokens: 10_000,
    });
    const section = brief.sections.find((s) => s.kind === "stale");
    expect(section?.title).toBe("May be stale");
    expect(section?.items.map((i) => i.line)).toEqual([
      `- Page speed: updated 2026-11-10, since then mentioned in 1 journal block: [[${A}/Journal/2026-11-12#^am-ps01]] [[${A}/Knowledge/learning/Page speed]]`,
    ]);
    expect(brief.markdown).toContain("## May be stale (1)");
    const material = await collectReviewMaterial(t.vault, layout, "ada", {
      start: "2026-11-01",
      end: "2026-11-30",
    });
    expect(material.stale.map((s) => s.path)).toEqual([TOPIC]);
    // Judged at the period's end: a review that ended before the mention lists nothing.
    const earlier = await collectReviewMaterial(t.vault, layout, "ada", {
      start: "2026-11-01",
      end: "2026-11-11",
    });
    expect(earlier.stale).toEqual([]);
  });
});
