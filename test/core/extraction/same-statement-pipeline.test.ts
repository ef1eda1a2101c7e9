// The reported changes and separate facts, end to end: two journals extracted one after the
// other into a temporary vault through the pipeline (docs/contradictions.md, "The rule").
// A change supersedes: the older entry gets `valid_to` and `superseded_by`, the newer one
// `supersedes`. A separate fact is added beside the first: both stay current. Either way the
// health check has nothing unresolved to report.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { applyPlan, planExtraction } from "../../../src/core/extraction/pipeline";
import { OfflineExtractor } from "../../../src/core/extraction/offline";
import { MemoryLayout } from "../../../src/core/layout";
import { defaultSettings } from "../../../src/core/settings";
import { listItems } from "../../../src/core/trackers/format";
import { listTopicEntries } from "../../../src/core/knowledge/topic";
import { fieldValue } from "../../../src/core/trackers/fields";
import { runHealthCheck } from "../../../src/core/health";
import { tempVault } from "../../helpers/temp-vault";

const settings = defaultSettings();
const layout = new MemoryLayout(settings);
const DECISIONS = "Memory/Agents/link/Trackers/Decisions.md";
const topicPath = (topic: string) => `Memory/Agents/link/Knowledge/learning/${topic}.md`;
const journalPath = (day: string) => `Memory/Agents/link/Journal/${day}.md`;

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

/** Extracts the first line on 2026-03-02 and the second on 2026-03-09; returns the vault. */
async function extractTwo(first: string, second: string) {
  const days: [string, string][] = [
    ["2026-03-02", first],
    ["2026-03-09", second],
  ];
  const t = tempVault(
    Object.fromEntries(days.map(([day, body]) => [journalPath(day), `# ${day}\n\n${body}\n`])),
  );
  cleanup = t.cleanup;
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
  }
  const read = (p: string) => readFileSync(join(t.root, p), "utf8");
  const warnings = async () =>
    (await runHealthCheck(t.vault, layout, settings, { today: "2026-03-10" })).warnings.filter(
      (w) => w.rule === "unresolved-contradiction" || w.rule === "possible-change",
    );
  return { read, warnings };
}

/** Entries of a tracker or topic note: text, and the supersession fields. */
function entriesOf(path: string, text: string) {
  const entries = path.includes("/Trackers/") ? listItems(text) : listTopicEntries(text);
  return entries.map((e) => ({
    text: e.text,
    id: e.id,
    validTo: fieldValue(e.fields, "valid_to"),
    supersededBy: fieldValue(e.fields, "superseded_by"),
    supersedes: fieldValue(e.fields, "supersedes"),
  }));
}

const CHANGES: { name: string; first: string; second: string; note: string }[] = [
  {
    name: "we will not deploy on Fridays any more",
    first: "Decision: we deploy on Fridays",
    second: "Decision: we will not deploy on Fridays any more",
    note: DECISIONS,
  },
  {
    name: "deploys are no longer allowed on Fridays",
    first: "Decision: we deploy on Fridays",
    second: "Decision: deploys are no longer allowed on Fridays",
    note: DECISIONS,
  },
  {
    name: "the rate limit changed from 100 to 200/s",
    first: "Learned: the API rate limit is 100 per second [topic:: API]",
    second: "Learned: the rate limit changed from 100 to 200/s [topic:: API]",
    note: topicPath("API"),
  },
  {
    name: "standup moved to 10:00",
    first: "Decision: standup is at 9:30",
    second: "Decision: standup moved to 10:00",
    note: DECISIONS,
  },
  {
    name: "我们周五不再部署了 after 我们周五部署",
    first: "决定：我们周五部署",
    second: "决定：我们周五不再部署了",
    note: DECISIONS,
  },
  {
    name: "a Chinese decision changed in a later journal (周会改为周四下午三点)",
    first: "决定：周会定在周三下午三点",
    second: "决定：周会改为周四下午三点",
    note: DECISIONS,
  },
  {
    name: "we deploy on Thursdays from now on after we deploy on Tuesdays",
    first: "Decision: we deploy on Tuesdays",
    second: "Decision: we deploy on Thursdays from now on",
    note: DECISIONS,
  },
];

const SEPARATE: { name: string; first: string; second: string; note: string }[] = [
  {
    name: "Q3 revenue was 1.2M, then Q4 revenue was 1.5M",
    first: "Learned: Q3 revenue was 1.2M [topic:: Finance]",
    second: "Learned: Q4 revenue was 1.5M [topic:: Finance]",
    note: topicPath("Finance"),
  },
  {
    name: "invoice 1042 was paid, then invoice 1043 was paid",
    first: "Learned: invoice 1042 was paid [topic:: Finance]",
    second: "Learned: invoice 1043 was paid [topic:: Finance]",
    note: topicPath("Finance"),
  },
  {
    name: "ticket PROJ-101 is blocked, then ticket PROJ-202 is blocked",
    first: "Decision: ticket PROJ-101 is blocked",
    second: "Decision: ticket PROJ-202 is blocked",
    note: DECISIONS,
  },
  {
    name: "the deploy day, then the deploy method (blue-green from now on)",
    first: "Decision: we will deploy on Tuesdays only.",
    second: "Decision: we deploy with blue-green from now on.",
    note: DECISIONS,
  },
];

describe("a change supersedes the entry it changes, both kept", () => {
  it.each(CHANGES)("$name", async ({ first, second, note }) => {
    const { read, warnings } = await extractTwo(first, second);
    const entries = entriesOf(note, read(note));
    expect(entries).toHaveLength(2);
    const [old, next] = entries;
    expect(old!.validTo).toBe("2026-03-09");
    expect(old!.supersededBy).toContain(`#^${next!.id}]]`);
    expect(next!.supersedes).toContain(`#^${old!.id}]]`);
    expect(next!.validTo).toBeNull();
    expect(next!.supersededBy).toBeNull();
    expect(await warnings()).toEqual([]);
  });
});

describe("a separate fact is added beside the first: both current", () => {
  it.each(SEPARATE)("$name", async ({ first, second, note }) => {
    const { read, warnings } = await extractTwo(first, second);
    const entries = entriesOf(note, read(note));
    expect(entries).toHaveLength(2);
    for (const e of entries)
      expect([e.validTo, e.supersededBy, e.supersedes]).toEqual([null, null, null]);
    expect(await warnings()).toEqual([]);
  });
});

describe("a restatement adds its source to the entry it restates, no new entry", () => {
  it.each([
    ["Decision: we do not deploy on Fridays", "Decision: no deploys on Fridays", DECISIONS],
    [
      "Learned: the events store is on ClickHouse now [topic:: API]",
      "Learned: we switched the events store to ClickHouse [topic:: API]",
      topicPath("API"),
    ],
    ["决定：周会改为周四下午三点", "决定：周会在周四下午三点", DECISIONS],
  ])("%s / %s", async (first, second, note) => {
    const { read, warnings } = await extractTwo(first, second);
    const text = read(note);
    const entries = entriesOf(note, text);
    expect(entries).toHaveLength(1);
    expect(text).toContain("2026-03-02#^am-");
    expect(text).toContain("2026-03-09#^am-");
    expect(await warnings()).toEqual([]);
  });
});

describe("a change the rule cannot decide is left to a person", () => {
  it("both stay current and the health check lists the pair as a possible change", async () => {
    const { read, warnings } = await extractTwo(
      "Decision: the standup is remote on Wednesdays",
      "Decision: the standup is in person on Wednesdays",
    );
    for (const e of entriesOf(DECISIONS, read(DECISIONS)))
      expect([e.validTo, e.supersededBy, e.supersedes]).toEqual([null, null, null]);
    expect((await warnings()).map((w) => [w.rule, w.path])).toEqual([
      ["possible-change", DECISIONS],
    ]);
  });
});

describe("a decision restated with a word more, by the same agent or another", () => {
  const decisions = (agent: string) => `Memory/Agents/${agent}/Trackers/Decisions.md`;
  const journalOf = (agent: string, day: string) => `Memory/Agents/${agent}/Journal/${day}.md`;

  /** Extracts each `[agent, day, line]` in turn; returns the plans' actions and a reader. */
  async function extractAll(entries: [string, string, string][]) {
    const t = tempVault(
      Object.fromEntries(
        entries.map(([agent, day, line]) => [journalOf(agent, day), `# ${day}\n\n${line}\n`]),
      ),
    );
    cleanup = t.cleanup;
    const actions: string[][] = [];
    for (const [agent, day] of entries) {
      const now = () => new Date(`${day}T10:00:00Z`);
      const plan = await planExtraction({
        vault: t.vault,
        settings,
        layout,
        journalPath: journalOf(agent, day),
        extractor: new OfflineExtractor(),
        now,
      });
      actions.push(
        plan.items.map((p) => `${p.action}${p.supersedes ? ` ${p.supersedes.id}` : ""}`),
      );
      expect((await applyPlan(t.vault, layout, plan, now)).failed).toEqual([]);
    }
    return { actions, read: (p: string) => readFileSync(join(t.root, p), "utf8") };
  }

  it("another agent's restatement or change never supersedes this agent's decision", async () => {
    const { actions, read } = await extractAll([
      ["a", "2026-03-02", "Decision: use Postgres for the job queue"],
      ["b", "2026-03-09", "Decision: use Postgres for the job queue now"],
      ["b", "2026-03-10", "Decision: use MySQL for the job queue"],
    ]);
    const [first] = listItems(read(decisions("a")));
    expect(first?.text).toBe("use Postgres for the job queue");
    expect(fieldValue(first!.fields, "superseded_by")).toBeNull();
    expect(listItems(read(decisions("a")))).toHaveLength(1);
    // b's own log: its first decision, then its change of it.
    const own = listItems(read(decisions("b")));
    expect(actions.slice(1)).toEqual([["add"], [`supersede ${own[0]?.id}`]]);
  });

  it.each([
    ["we ship on Friday", "we ship on Friday today", "add-source"],
    ["use Postgres for the job queue", "use Postgres for the job queue now", "add-source"],
    ["we ship on Friday", "we ship on Monday", "supersede"],
    ["use Postgres for the job queue", "use MySQL for the job queue", "supersede"],
  ])("by the same agent, %s then %s: %s", async (older, newer, action) => {
    const { actions, read } = await extractAll([
      ["a", "2026-03-02", `Decision: ${older}`],
      ["a", "2026-03-09", `Decision: ${newer}`],
    ]);
    const log = listItems(read(decisions("a")));
    expect(actions[1]?.map((a) => a.split(" ")[0])).toEqual([action]);
    expect(log.filter((d) => fieldValue(d.fields, "superseded_by") === null)).toHaveLength(1);
    expect(log).toHaveLength(action === "supersede" ? 2 : 1);
  });
});
