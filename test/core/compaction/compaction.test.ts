// Compaction (docs/compaction.md): weekly digests of an agent's journals on a real temporary copy of
// the sample vault. Nothing deleted (every file listed with its bytes before and after), journals
// untouched, re-runs change nothing, digest content checked against the trackers it lists.
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { compactJournals, digestPath, type Summarizer } from "../../../src/core/compaction";
import { isoWeekOf } from "../../../src/core/util/dates";
import { applyPlan, planExtraction } from "../../../src/core/extraction/pipeline";
import { OfflineExtractor } from "../../../src/core/extraction/offline";
import { MemoryLayout } from "../../../src/core/layout";
import { defaultSettings } from "../../../src/core/settings";
import { UsageError } from "../../../src/core/errors";
import { listItems } from "../../../src/core/trackers/format";
import { fieldValue } from "../../../src/core/trackers/fields";
import { splitBlocks } from "../../../src/core/journal/blocks";
import { parseNote } from "../../../src/core/frontmatter";
import { sampleVaultCopy, tempVault } from "../../helpers/temp-vault";

const settings = defaultSettings();
const layout = new MemoryLayout(settings);
const NOW = () => new Date("2026-12-01T10:00:00+08:00");
const JOURNALS = "Memory/Agents/link/Journal";

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

/** Every file of the folder (the search index and locks aside) with its bytes. */
function snapshot(root: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const e of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const abs = join(e.parentPath, e.name);
    const rel = abs
      .slice(root.length + 1)
      .split("\\")
      .join("/");
    if (rel.startsWith(".agent-memory/")) continue;
    out.set(rel, readFileSync(abs));
  }
  return out;
}

async function extractAll(t: ReturnType<typeof sampleVaultCopy>, agent: string): Promise<void> {
  for (const f of await t.vault.list(layout.journalFolder(agent))) {
    const plan = await planExtraction({
      vault: t.vault,
      settings,
      layout,
      journalPath: f.path,
      extractor: new OfflineExtractor(),
      now: NOW,
    });
    await applyPlan(t.vault, layout, plan, NOW);
  }
}

async function sample() {
  const t = sampleVaultCopy();
  cleanup = t.cleanup;
  await extractAll(t, "link");
  return t;
}

const compact = (
  t: { vault: ReturnType<typeof sampleVaultCopy>["vault"] },
  before: string,
  extra: { dryRun?: boolean; summarizer?: Summarizer } = {},
) =>
  compactJournals({ vault: t.vault, layout, settings, agent: "link", before, now: NOW, ...extra });

describe("ISO weeks", () => {
  it("numbers weeks from the one holding the first Thursday, Monday to Sunday", () => {
    expect(isoWeekOf("2026-11-23")).toEqual({
      year: 2026,
      week: 48,
      label: "2026-W48",
      start: "2026-11-23",
      end: "2026-11-29",
    });
    expect(isoWeekOf("2026-11-29").label).toBe("2026-W48");
    expect(isoWeekOf("2026-11-30").label).toBe("2026-W49");
    // Across the new year: 2027-01-01 is a Friday, still in 2026's last week; 2024-12-30 starts 2025-W01.
    expect(isoWeekOf("2027-01-01").label).toBe("2026-W53");
    expect(isoWeekOf("2021-01-03").label).toBe("2020-W53");
    expect(isoWeekOf("2024-12-30")).toMatchObject({
      label: "2025-W01",
      start: "2024-12-30",
      end: "2025-01-05",
    });
    expect(() => isoWeekOf("2026-02-30")).toThrow(RangeError);
  });
});

describe("compact (core)", () => {
  it("writes one digest per week, deletes nothing, leaves journals untouched, and a re-run changes nothing", async () => {
    const t = await sample();
    const before = snapshot(t.root);
    const report = await compact(t, "2026-11-30");
    const after = snapshot(t.root);
    // Nothing deleted or changed: every file of before is there with the same bytes.
    for (const [path, bytes] of before) expect(after.get(path)?.equals(bytes), path).toBe(true);
    const added = [...after.keys()].filter((p) => !before.has(p)).sort();
    expect(added).toEqual(report.digests.map((d) => d.path).sort());
    expect(added).toEqual(
      ["2026-W45", "2026-W46", "2026-W47", "2026-W48"].map((w) => `${JOURNALS}/Digests/${w}.md`),
    );
    expect(report.writes.sort()).toEqual(added);

    const again = await compact(t, "2026-11-30");
    expect(again.writes).toEqual([]);
    expect(again.digests.map((d) => d.action)).toEqual([
      "unchanged",
      "unchanged",
      "unchanged",
      "unchanged",
    ]);
    const third = snapshot(t.root);
    expect([...third.keys()].sort()).toEqual([...after.keys()].sort());
    for (const [path, bytes] of after) expect(third.get(path)?.equals(bytes), path).toBe(true);
  });

  it("lists every item a week's blocks produced, linked to its block, and every block nothing came from", async () => {
    const t = await sample();
    const report = await compact(t, "2026-11-30");
    const w48 = report.digests.find((d) => d.week === "2026-W48");
    expect(w48?.journals).toEqual([`${JOURNALS}/2026-11-24.md`, `${JOURNALS}/2026-11-27.md`]);
    const digest = readFileSync(
      join(t.root, digestPath(layout, "link", { label: "2026-W48" })),
      "utf8",
    );
    expect(parseNote(digest).data).toMatchObject({
      type: "digest",
      agent: "link",
      week: "2026-W48",
      period_start: "2026-11-23",
      period_end: "2026-11-29",
    });
    // Every task whose source is a block of that week's journals has a line linking the block.
    const tasks = listItems(
      readFileSync(join(t.root, layout.trackerPath("link", "tasks")), "utf8"),
    );
    const weekTasks = tasks.filter((i) =>
      /2026-11-2[4-7]#\^/.test(fieldValue(i.fields, "source") ?? ""),
    );
    expect(weekTasks.length).toBeGreaterThan(0);
    const tasksSection = digest.slice(
      digest.indexOf("## Tasks"),
      digest.indexOf("\n## ", digest.indexOf("## Tasks") + 1),
    );
    for (const task of weekTasks) {
      const block = /#\^([\w-]+)/.exec(fieldValue(task.fields, "source") ?? "")?.[1] ?? "";
      expect(tasksSection).toContain(
        `[[Memory/Agents/link/Trackers/Tasks#^${task.id ?? ""}|${task.id ?? ""}]]`,
      );
      expect(tasksSection).toMatch(
        new RegExp(`from \\[\\[Memory/Agents/link/Journal/2026-11-2[47]#\\^${block}\\]\\]`),
      );
    }
    expect(w48?.items.task).toBe(weekTasks.length);
    // A goal's progress note cites its block, so that block is not "nothing extracted".
    expect(digest).toMatch(
      /## Goals \(\d+\)[\s\S]*Progress on "Content quality scoring system": 2026-11-27: all 50 top pages scored/,
    );
    // Blocks nothing cites: every paragraph and list item of the journals without a cited id is listed.
    const idle = digest.slice(digest.indexOf("## Nothing extracted"));
    const cited = new Set(
      [
        ...digest
          .slice(0, digest.indexOf("## Nothing extracted"))
          .matchAll(/from \[\[[^\]]*#\^([\w-]+)\]\]/g),
      ].map((m) => m[1]),
    );
    let uncited = 0;
    for (const path of w48?.journals ?? []) {
      const { body } = parseNote(readFileSync(join(t.root, path), "utf8"));
      for (const b of splitBlocks(body)) {
        if (b.kind === "heading" || b.kind === "other" || (b.blockId && cited.has(b.blockId)))
          continue;
        uncited++;
        expect(idle).toContain(b.text.replace(/\s+/g, " ").trim().slice(0, 60));
      }
    }
    expect(w48?.notExtracted).toBe(uncited);
    expect(idle).toContain(
      "Tired, but a useful day. [[Memory/Agents/link/Journal/2026-11-24#2026-11-24]]",
    );
  });

  it("digests only weeks that end before --before: Sunday the 29th is not enough, Monday the 30th is", async () => {
    const t = await sample();
    const sunday = await compact(t, "2026-11-29", { dryRun: true });
    expect(sunday.digests.map((d) => d.week)).toEqual(["2026-W45", "2026-W46", "2026-W47"]);
    expect(sunday.laterJournals).toBe(2);
    const monday = await compact(t, "2026-11-30", { dryRun: true });
    expect(monday.digests.map((d) => d.week)).toEqual([
      "2026-W45",
      "2026-W46",
      "2026-W47",
      "2026-W48",
    ]);
    expect(monday.laterJournals).toBe(0);
  });

  it("a dry run writes nothing", async () => {
    const t = await sample();
    const before = snapshot(t.root);
    const report = await compact(t, "2026-12-01", { dryRun: true });
    expect(report.digests.map((d) => d.action)).toEqual(["create", "create", "create", "create"]);
    expect(report.writes).toEqual([]);
    const after = snapshot(t.root);
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
  });

  it("keeps a person's edits outside the generated part, and updates the listing when a new item is extracted", async () => {
    const t = await sample();
    await compact(t, "2026-11-30");
    const path = digestPath(layout, "link", { label: "2026-W48" });
    const abs = join(t.root, path);
    const mine = "\n## My notes\n\nThe campaign week. Worth re-reading before the January retro.\n";
    writeFileSync(
      abs,
      readFileSync(abs, "utf8").replace("---\n# link", "reviewed_by: dana\n---\n# link") + mine,
    );
    const edited = readFileSync(abs, "utf8");
    expect((await compact(t, "2026-11-30")).writes).toEqual([]);
    expect(readFileSync(abs, "utf8")).toBe(edited);

    // A new task in a journal of that week, extracted: the digest lists it, the person's part stays.
    const journal = join(t.root, JOURNALS, "2026-11-24.md");
    writeFileSync(
      journal,
      `${readFileSync(journal, "utf8")}\n- [ ] Send the editor the rubric calendar\n`,
    );
    const plan = await planExtraction({
      vault: t.vault,
      settings,
      layout,
      journalPath: `${JOURNALS}/2026-11-24.md`,
      extractor: new OfflineExtractor(),
      now: NOW,
    });
    await applyPlan(t.vault, layout, plan, NOW);
    const report = await compact(t, "2026-11-30");
    expect(report.digests.find((d) => d.week === "2026-W48")?.action).toBe("update");
    expect(report.writes).toEqual([path]);
    const now = readFileSync(abs, "utf8");
    expect(now).toContain("- Send the editor the rubric calendar (open)");
    expect(now.endsWith(mine)).toBe(true);
    expect(now).toContain("reviewed_by: dana\n");
    expect(parseNote(now).data?.updated_at).toBeDefined();
  });

  it("refuses a note at a digest's path that has no digest markers, and leaves it as it is", async () => {
    const t = await sample();
    const path = digestPath(layout, "link", { label: "2026-W47" });
    const own = "# My own week note\n\nNot a digest.\n";
    const abs = join(t.root, path);
    await t.vault.process(path, () => own);
    const report = await compact(t, "2026-11-30");
    const row = report.digests.find((d) => d.week === "2026-W47");
    expect(row?.action).toBe("refused");
    expect(row?.reason).toContain(path);
    expect(readFileSync(abs, "utf8")).toBe(own);
    expect(report.writes).not.toContain(path);
  });

  it("asks the model for a summary once per changed listing: a re-run makes no call", async () => {
    const t = await sample();
    const calls: string[] = [];
    const summarizer: Summarizer = {
      model: "stub-model",
      summarize: (input) => {
        calls.push(input.week);
        return Promise.resolve(`Week ${input.week}: the audit moved on.`);
      },
    };
    await compact(t, "2026-11-30", { summarizer });
    expect(calls).toEqual(["2026-W45", "2026-W46", "2026-W47", "2026-W48"]);
    const digest = readFileSync(
      join(t.root, digestPath(layout, "link", { label: "2026-W48" })),
      "utf8",
    );
    expect(digest).toContain(
      "> [!summary] Summary (generated by model stub-model)\n> Week 2026-W48: the audit moved on.\n",
    );
    // The summary sits above the listing.
    expect(digest.indexOf("[!summary]")).toBeLessThan(digest.indexOf("## Journals"));
    const before = snapshot(t.root);
    const again = await compact(t, "2026-11-30", { summarizer });
    expect(calls).toHaveLength(4);
    expect(again.writes).toEqual([]);
    expect(again.digests.map((d) => d.summary)).toEqual(["kept", "kept", "kept", "kept"]);
    const after = snapshot(t.root);
    for (const [p, bytes] of before) expect(after.get(p)?.equals(bytes), p).toBe(true);
  });

  it("writes the digest without a summary when the model fails, and says so", async () => {
    const t = await sample();
    const failing: Summarizer = {
      model: "down",
      summarize: () => Promise.reject(new Error("connection refused")),
    };
    const report = await compact(t, "2026-11-10", { summarizer: failing });
    expect(report.digests[0]).toMatchObject({
      week: "2026-W45",
      action: "create",
      summary: "failed",
    });
    expect(report.digests[0]?.reason).toContain("connection refused");
    expect(readFileSync(join(t.root, report.digests[0]?.path ?? ""), "utf8")).not.toContain(
      "[!summary]",
    );
  });

  it("refuses a bad date or an unknown agent before reading anything", async () => {
    const t = tempVault({ "Memory/Agents/link/Journal/2026-11-02.md": "# x\n\nText.\n" });
    cleanup = t.cleanup;
    await expect(
      compactJournals({ vault: t.vault, layout, settings, agent: "link", before: "2026-13-01" }),
    ).rejects.toThrow(UsageError);
    await expect(
      compactJournals({ vault: t.vault, layout, settings, agent: "nobody", before: "2026-12-01" }),
    ).rejects.toThrow(/unknown agent "nobody"/);
  });

  it("a digest is not a journal: extraction refuses it", async () => {
    const t = await sample();
    const report = await compact(t, "2026-11-30");
    const path = report.digests[0]?.path ?? "";
    const before = readFileSync(join(t.root, path));
    await expect(
      planExtraction({
        vault: t.vault,
        settings,
        layout,
        journalPath: path,
        extractor: new OfflineExtractor(),
      }),
    ).rejects.toThrow(/weekly digest/);
    expect(readFileSync(join(t.root, path)).equals(before)).toBe(true);
  });
});
