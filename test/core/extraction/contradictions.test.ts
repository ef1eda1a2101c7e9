import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { applyPlan, extractionReport, planExtraction } from "../../../src/core/extraction/pipeline";
import { OfflineExtractor } from "../../../src/core/extraction/offline";
import { MemoryLayout } from "../../../src/core/layout";
import { defaultSettings } from "../../../src/core/settings";
import { listItems } from "../../../src/core/trackers/format";
import { listTopicEntries } from "../../../src/core/knowledge/topic";
import { fieldValue } from "../../../src/core/trackers/fields";
import { contradiction } from "../../../src/core/extraction/contradiction";
import { tempVault } from "../../helpers/temp-vault";
import { buildBrief } from "../../../src/core/brief";
import { runHealthCheck } from "../../../src/core/health";
import { SearchService } from "../../../src/core/search/search-service";

const settings = defaultSettings();
const layout = new MemoryLayout(settings);
const DECISIONS = "Memory/Agents/link/Trackers/Decisions.md";
const TASKS = "Memory/Agents/link/Trackers/Tasks.md";
const journalPath = (day: string) => `Memory/Agents/link/Journal/${day}.md`;

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

/** Extracts journals one after another, each on its own day, on one temporary vault. */
async function extractDays(days: [string, string][]) {
  const t = tempVault(
    Object.fromEntries(days.map(([day, body]) => [journalPath(day), `# ${day}\n\n${body}\n`])),
  );
  cleanup = t.cleanup;
  const reports = [];
  for (const [day] of days) {
    const now = () => new Date(`${day}T10:00:00Z`);
    const plan = await planExtraction({
      vault: t.vault,
      settings,
      layout,
      journalPath: journalPath(day),
      extractor: new OfflineExtractor(),
      now,
    });
    const applied = await applyPlan(t.vault, layout, plan, now);
    expect(applied.failed).toEqual([]);
    reports.push(extractionReport(plan, applied));
  }
  const read = (p: string) => readFileSync(join(t.root, p), "utf8");
  return { t, reports, read };
}

const TOPIC = "Memory/Agents/link/Knowledge/learning/API.md";

/** The decision lines of the log, in order. */
function decisions(text: string) {
  return listItems(text).map((it) => ({ id: it.id, text: it.text, fields: it.fields }));
}

describe("contradictions: never a duplicate, the later supersedes, both kept", () => {
  it("a journal extracted after a newer one never overrides it: both stay current and the health check lists the pair", async () => {
    // In date order, the later decision supersedes (case 17 above); here the later is extracted first.
    const { t, read, reports } = await extractDays([
      [
        "2026-03-09",
        "Decision: do not ship on Fridays\n\nLearned: the API rate limit is 200 per second [topic:: API]",
      ],
      [
        "2026-03-02",
        "Decision: ship on Fridays\n\nLearned: the API rate limit is 100 per second [topic:: API]",
      ],
    ]);
    expect(reports[1]!.items.map((i) => i.action)).toEqual(["add", "add"]);
    const log = decisions(read(DECISIONS));
    expect(log.map((d) => d.text)).toEqual(["do not ship on Fridays", "ship on Fridays"]);
    for (const d of log)
      expect([
        fieldValue(d.fields, "superseded_by"),
        fieldValue(d.fields, "valid_to"),
        fieldValue(d.fields, "supersedes"),
      ]).toEqual([null, null, null]);
    expect(read(TOPIC)).not.toMatch(/valid_to|superseded_by|supersedes/);
    const unresolved = (
      await runHealthCheck(t.vault, layout, settings, { today: "2026-03-10" })
    ).warnings
      .filter((w) => w.rule === "unresolved-contradiction")
      .map((w) => w.path);
    expect(unresolved).toEqual(expect.arrayContaining([DECISIONS, TOPIC]));
  });

  it("case 17: opposites are not duplicates: Decision: ship on Fridays / do not ship on Fridays, and the sync moved back", async () => {
    const { read, reports } = await extractDays([
      ["2026-03-02", "Decision: ship on Fridays\n\nDecision: move the sync from Monday to Friday"],
      [
        "2026-03-09",
        "Decision: do not ship on Fridays\n\nDecision: move the sync from Friday to Monday",
      ],
    ]);
    const log = decisions(read(DECISIONS));
    // Never merged: four lines, both of each pair kept.
    expect(log.map((d) => d.text)).toEqual([
      "ship on Fridays",
      "move the sync from Monday to Friday",
      "do not ship on Fridays",
      "move the sync from Friday to Monday",
    ]);
    // The later decision supersedes the earlier one.
    const [ship, sync, noShip, syncBack] = log;
    expect(fieldValue(ship!.fields, "superseded_by")).toBe(
      `[[Memory/Agents/link/Trackers/Decisions#^${noShip!.id}]]`,
    );
    expect(fieldValue(ship!.fields, "valid_to")).toBe("2026-03-09");
    expect(fieldValue(noShip!.fields, "supersedes")).toBe(
      `[[Memory/Agents/link/Trackers/Decisions#^${ship!.id}]]`,
    );
    expect(fieldValue(sync!.fields, "superseded_by")).toBe(
      `[[Memory/Agents/link/Trackers/Decisions#^${syncBack!.id}]]`,
    );
    expect(fieldValue(syncBack!.fields, "supersedes")).toBe(
      `[[Memory/Agents/link/Trackers/Decisions#^${sync!.id}]]`,
    );
    // The newer ones are current.
    expect(fieldValue(noShip!.fields, "superseded_by")).toBeNull();
    expect(fieldValue(syncBack!.fields, "valid_to")).toBeNull();
    // The report says so.
    const actions = reports[1]!.items.map((i) => [
      i.action,
      i.supersedes?.id,
      i.supersedes?.reason,
    ]);
    expect(actions).toEqual([
      ["supersede", ship!.id, "polarity"],
      ["supersede", sync!.id, "value"],
    ]);
  });

  it("Chinese: 「我们周五部署」 then 「我们周五不部署」, and the standup moved back", async () => {
    const { read } = await extractDays([
      ["2026-03-02", "决定：我们周五部署\n\n决定：把站会从周一改到周五"],
      ["2026-03-09", "决定：我们周五不部署\n\n决定：把站会从周五改到周一"],
    ]);
    const log = decisions(read(DECISIONS));
    expect(log.map((d) => d.text)).toEqual([
      "我们周五部署",
      "把站会从周一改到周五",
      "我们周五不部署",
      "把站会从周五改到周一",
    ]);
    expect(fieldValue(log[0]!.fields, "superseded_by")).toContain(`#^${log[2]!.id}]]`);
    expect(fieldValue(log[1]!.fields, "superseded_by")).toContain(`#^${log[3]!.id}]]`);
    expect(fieldValue(log[2]!.fields, "supersedes")).toContain(`#^${log[0]!.id}]]`);
  });

  it("an API rate limit of 100 then 200 per second: the callout is superseded, both kept (English and Chinese)", async () => {
    const { read, reports } = await extractDays([
      [
        "2026-03-02",
        "Learned: API rate limit is 100 per second [topic:: API]\n\n心得：API 速率限制为每秒 100 次 [topic:: API]",
      ],
      [
        "2026-03-09",
        "Learned: API rate limit is 200 per second [topic:: API]\n\n心得：API 速率限制为每秒 200 次 [topic:: API]",
      ],
    ]);
    const entries = listTopicEntries(read(TOPIC));
    expect(entries.map((e) => e.text)).toEqual([
      "API rate limit is 100 per second",
      "API 速率限制为每秒 100 次",
      "API rate limit is 200 per second",
      "API 速率限制为每秒 200 次",
    ]);
    const [en100, zh100, en200, zh200] = entries;
    for (const [old, next] of [
      [en100!, en200!],
      [zh100!, zh200!],
    ] as const) {
      expect(old.id).toMatch(/^c-[0-9a-z]{10}$/);
      expect(next.id).toMatch(/^c-[0-9a-z]{10}$/);
      expect(fieldValue(old.fields, "valid_to")).toBe("2026-03-09");
      expect(fieldValue(old.fields, "superseded_by")).toBe(
        `[[Memory/Agents/link/Knowledge/learning/API#^${next.id}]]`,
      );
      expect(fieldValue(next.fields, "supersedes")).toBe(
        `[[Memory/Agents/link/Knowledge/learning/API#^${old.id}]]`,
      );
    }
    expect(reports[1]!.items.map((i) => i.supersedes?.reason)).toEqual(["value", "value"]);
  });

  it("refund customer 3400 for order 1200 after customer 1200 for order 3400: a new task, and a different fact, not a contradiction", async () => {
    const { read } = await extractDays([
      [
        "2026-03-02",
        "- [ ] refund customer 1200 for order 3400\n\nLearned: customer 1200 placed order 3400 [topic:: API]",
      ],
      [
        "2026-03-09",
        "- [ ] refund customer 3400 for order 1200\n\nLearned: customer 3400 placed order 1200 [topic:: API]",
      ],
    ]);
    expect(listItems(read(TASKS)).map((t) => [t.text, t.status])).toEqual([
      ["refund customer 1200 for order 3400", "open"],
      ["refund customer 3400 for order 1200", "open"],
    ]);
    const entries = listTopicEntries(read(TOPIC));
    expect(entries.map((e) => e.text)).toEqual([
      "customer 1200 placed order 3400",
      "customer 3400 placed order 1200",
    ]);
    expect(entries.every((e) => e.fields.length === 0 && e.id === null)).toBe(true);
  });

  it("a restatement of the same decision is still a duplicate (a source added), not a supersession", async () => {
    const { read, reports } = await extractDays([
      ["2026-03-02", "Decision: we will not deploy on Fridays"],
      ["2026-03-09", "Decision: We will not deploy on Fridays."],
    ]);
    expect(decisions(read(DECISIONS))).toHaveLength(1);
    expect(reports[1]!.items[0]!.action).toBe("add-source");
  });

  it("flipping back supersedes the current decision, never the old superseded one", async () => {
    const { read } = await extractDays([
      ["2026-03-02", "Decision: ship on Fridays"],
      ["2026-03-09", "Decision: do not ship on Fridays"],
      ["2026-03-16", "Decision: ship on Fridays"],
    ]);
    const log = decisions(read(DECISIONS));
    expect(log.map((d) => d.text)).toEqual([
      "ship on Fridays",
      "do not ship on Fridays",
      "ship on Fridays",
    ]);
    expect(fieldValue(log[1]!.fields, "superseded_by")).toContain(`#^${log[2]!.id}]]`);
    expect(fieldValue(log[2]!.fields, "supersedes")).toContain(`#^${log[1]!.id}]]`);
    // The first keeps its one supersession: nothing rewritten.
    expect(fieldValue(log[0]!.fields, "superseded_by")).toContain(`#^${log[1]!.id}]]`);
  });

  it("a callout flipped back to its first value is a new callout superseding the current one", async () => {
    const { read } = await extractDays([
      ["2026-03-02", "Learned: the cache holds 32 GB [topic:: API]"],
      ["2026-03-09", "Learned: the cache holds 64 GB [topic:: API]"],
      ["2026-03-16", "Learned: the cache holds 32 GB [topic:: API]"],
    ]);
    const entries = listTopicEntries(read(TOPIC));
    expect(entries.map((e) => e.text)).toEqual([
      "the cache holds 32 GB",
      "the cache holds 64 GB",
      "the cache holds 32 GB",
    ]);
    const [first, second, third] = entries;
    expect(fieldValue(first!.fields, "superseded_by")).toContain(`#^${second!.id}]]`);
    expect(fieldValue(second!.fields, "superseded_by")).toContain(`#^${third!.id}]]`);
    expect(fieldValue(third!.fields, "supersedes")).toContain(`#^${second!.id}]]`);
    expect(fieldValue(third!.fields, "superseded_by")).toBeNull();
  });

  it("Chinese texts about two names are two subjects, however many bigrams they share", () => {
    expect(
      contradiction("alpha 接口的速率限制为每秒 300 次", "bravo 接口的速率限制为每秒 100 次"),
    ).toBeNull();
    expect(
      contradiction("alpha 接口的速率限制为每秒 300 次", "alpha 接口的速率限制为每秒 100 次"),
    ).toBe("value");
    expect(contradiction("我们周五不部署", "我们周五部署")).toBe("polarity");
    // Too short to contradict anything.
    expect(contradiction("Not Friday", "Friday")).toBeNull();
  });

  it("writes fields in the tracker order and keeps every other byte; a re-run changes nothing", async () => {
    const before =
      "- [x] ship on Fridays [decided:: 2026-03-01] [completion:: 2026-03-01] ^d-001\r\nA person's note ✍\r\n";
    const t = tempVault({
      [DECISIONS]: before,
      [journalPath("2026-03-09")]: "# 2026-03-09\n\nDecision: do not ship on Fridays\n",
    });
    cleanup = t.cleanup;
    const now = () => new Date("2026-03-09T10:00:00Z");
    const run = async (force: boolean) => {
      const plan = await planExtraction({
        vault: t.vault,
        settings,
        layout,
        journalPath: journalPath("2026-03-09"),
        extractor: new OfflineExtractor(),
        now,
        force,
      });
      return { plan, applied: await applyPlan(t.vault, layout, plan, now) };
    };
    await run(false);
    const after = readFileSync(join(t.root, DECISIONS), "utf8");
    const lines = after.split("\r\n");
    const newId = listItems(after)[1]?.id ?? "";
    expect(newId).toMatch(/^d-[a-z][0-9a-z]{9}$/);
    expect(lines[0]).toBe(
      `- [x] ship on Fridays [decided:: 2026-03-01] [valid_to:: 2026-03-09] [superseded_by:: [[Memory/Agents/link/Trackers/Decisions#^${newId}]]] [completion:: 2026-03-01] ^d-001`,
    );
    expect(lines[1]).toMatch(
      /^- \[x\] do not ship on Fridays \[decided:: 2026-03-09\] \[supersedes:: \[\[Memory\/Agents\/link\/Trackers\/Decisions#\^d-001\]\]\] \[source:: .*\] \[completion:: 2026-03-09\] \^d-[a-z][0-9a-z]{9}$/,
    );
    expect(lines[2]).toBe("A person's note ✍");
    const again = await run(true);
    expect(again.plan.items.map((p) => p.action)).toEqual(["skip"]);
    expect(readFileSync(join(t.root, DECISIONS), "utf8")).toBe(after);
  });
});

describe("the brief shows only the current entry, with a link to its history", () => {
  it("decisions and knowledge: the superseded ones are left out, the current ones link to them", async () => {
    const { t } = await extractDays([
      [
        "2026-03-02",
        "Decision: ship on Fridays\n\nLearned: API rate limit is 100 per second [topic:: API]",
      ],
      [
        "2026-03-09",
        "Decision: do not ship on Fridays\n\nLearned: API rate limit is 200 per second [topic:: API]",
      ],
    ]);
    const search = new SearchService({ vault: t.vault, layout });
    await search.open();
    const b = await buildBrief({
      vault: t.vault,
      layout,
      settings,
      agent: "link",
      today: "2026-03-10",
      search,
      budgetTokens: 100_000,
      query: "API rate limit",
    });
    const decisionsSection = b.sections.find((s) => s.kind === "decisions")?.items ?? [];
    expect(decisionsSection.map((i) => i.text)).toEqual(["do not ship on Fridays"]);
    const first = listItems(readFileSync(join(t.root, DECISIONS), "utf8"))[0]?.id ?? "";
    expect(decisionsSection[0]!.supersedes).toBe(
      `[[Memory/Agents/link/Trackers/Decisions#^${first}]]`,
    );
    expect(decisionsSection[0]!.line).toContain(
      `history: [[Memory/Agents/link/Trackers/Decisions#^${first}]]`,
    );
    const knowledge = b.sections.find((s) => s.kind === "knowledge")?.items ?? [];
    expect(knowledge.map((i) => i.text)).toEqual(["API rate limit is 200 per second"]);
    expect(knowledge[0]!.supersedes).toMatch(
      /^\[\[Memory\/Agents\/link\/Knowledge\/learning\/API#\^c-[0-9a-z]{10}\]\]$/,
    );
    expect(b.markdown).not.toContain("100 per second");
  });
});

describe("health check: unresolved contradictions", () => {
  it("warns on two current entries that disagree, not once one supersedes the other", async () => {
    const { t } = await extractDays([
      [
        "2026-03-02",
        "Decision: ship on Fridays\n\nLearned: API rate limit is 100 per second [topic:: API]",
      ],
      [
        "2026-03-09",
        "Decision: do not ship on Fridays\n\nLearned: API rate limit is 200 per second [topic:: API]",
      ],
    ]);
    const rule = async () =>
      (await runHealthCheck(t.vault, layout, settings, { today: "2026-03-10" })).warnings
        .filter((w) => w.rule === "unresolved-contradiction")
        .map((w) => [w.path, w.line, w.message]);
    // Extraction superseded the old ones: nothing unresolved.
    expect(await rule()).toEqual([]);
    // A person writes two decisions that disagree by hand, and a third on another subject.
    const log = readFileSync(join(t.root, DECISIONS), "utf8");
    t.write(
      DECISIONS,
      `${log}- [x] the API rate limit is 300 per second ^d-010\n- [x] the API rate limit is 400 per second ^d-011\n- [x] the API needs a key ^d-012\n`,
    );
    const lines = readFileSync(join(t.root, DECISIONS), "utf8").split("\n");
    expect(await rule()).toEqual([
      [
        DECISIONS,
        lines.findIndex((l) => l.endsWith("^d-011")) + 1,
        'Item ^d-011 "the API rate limit is 400 per second" gives another value than ^d-010 "the API rate limit is 300 per second", and neither supersedes the other.',
      ],
    ]);
  });
});
