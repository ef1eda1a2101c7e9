import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { applyPlan, planExtraction } from "../../../src/core/extraction/pipeline";
import { OfflineExtractor } from "../../../src/core/extraction/offline";
import { actionWords } from "../../../src/core/extraction/action-words";
import { MemoryLayout } from "../../../src/core/layout";
import { listItems } from "../../../src/core/trackers/format";
import { fieldValue } from "../../../src/core/trackers/fields";
import { defaultSettings } from "../../../src/core/settings";
import { tempVault } from "../../helpers/temp-vault";

const settings = defaultSettings();
const layout = new MemoryLayout(settings);
const J = "Memory/Agents/link/Journal/2026-11-24.md";
const TASKS = "Memory/Agents/link/Trackers/Tasks.md";
const now = () => new Date("2026-11-24T10:00:00Z");

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

async function run(t: ReturnType<typeof setup>, force = false) {
  const plan = await planExtraction({
    vault: t.vault,
    settings,
    layout,
    journalPath: J,
    extractor: new OfflineExtractor(),
    force,
    now,
  });
  const applied = await applyPlan(t.vault, layout, plan, now);
  return { plan, applied };
}

const read = (t: ReturnType<typeof setup>, p: string) => readFileSync(join(t.root, p), "utf8");

const QUESTIONS = "Memory/Agents/link/Trackers/Questions.md";
const DECISIONS = "Memory/Agents/link/Trackers/Decisions.md";
const AGENTS = {
  "Memory/Agents/atlas/Journal/2026-11-20.md": "# 2026-11-20\n",
  "Memory/Agents/dana/Journal/2026-11-20.md": "# 2026-11-20\n",
};
/** The line of `text` that holds `words`, or ends with a block id `^…` given as `words`. */
const lineOf = (text: string, words: string) =>
  text
    .split("\n")
    .find((l) => (words.startsWith("^") ? l.endsWith(` ${words}`) : l.includes(words))) ?? "";

describe("a reworded journal line", () => {
  it("supersedes the task it produced, though the new wording reads as a duplicate", async () => {
    const t = setup({ [J]: "# 2026-11-24\n\n- [ ] book the Berlin flights\n" });
    await run(t);
    const j = read(t, J);
    writeFileSync(
      join(t.root, J),
      j.replace("book the Berlin flights", "book the Berlin flights and the hotel"),
    );
    const second = await run(t);
    expect(second.plan.items.map((p) => p.action)).toEqual(["supersede"]);
    const tasks = read(t, TASKS);
    const first = second.plan.items[0]?.supersedes?.id ?? "";
    const added = second.plan.items[0]?.newId ?? "";
    expect(first).toMatch(/^t-/);
    expect(lineOf(tasks, `^${first}`)).toMatch(/^- \[-\] book the Berlin flights .*superseded_by/);
    expect(lineOf(tasks, `^${added}`)).toMatch(/^- \[ \] book the Berlin flights and the hotel /);
  });

  it("a restatement (case, punctuation, a stop word) is the same task, skipped", async () => {
    const t = setup({ [J]: "# 2026-11-24\n\n- [ ] book the Berlin flights\n" });
    await run(t);
    writeFileSync(
      join(t.root, J),
      read(t, J).replace("book the Berlin flights", "Book Berlin flights!"),
    );
    const second = await run(t);
    expect(second.plan.items.map((p) => p.action)).toEqual(["skip"]);
    expect(read(t, TASKS)).not.toContain("t-002");
  });

  it("a reworded decision supersedes its callout in the topic note", async () => {
    const t = setup({ [J]: "# 2026-11-24\n\n## Pricing\n\nDecision: raise the Pro plan price\n" });
    await run(t);
    writeFileSync(
      join(t.root, J),
      read(t, J).replace("raise the Pro plan price", "raise the Pro plan price in March"),
    );
    const second = await run(t);
    expect(second.plan.items.map((p) => `${p.item.category}:${p.action}`)).toEqual([
      "decision:supersede",
      "decision:supersede",
    ]);
  });
});

describe("what a journal line says reaches its item", () => {
  it("inline fields of a task line, bracket and emoji, are kept on the tracker line", async () => {
    const t = setup({
      ...AGENTS,
      [J]:
        "# 2026-11-24\n\n- [ ] renew the TLS certificate [priority:: high] [owner:: dana] [effort:: 2h]\n" +
        "- [ ] rotate the API keys ⏫ ⏳ 2026-11-30 🛫 2026-11-26 📅 2026-12-02\n" +
        "TODO: update the runbook [owner:: [[dana]]] [priority:: low]\n",
    });
    await run(t);
    const tasks = read(t, TASKS);
    const cert = lineOf(tasks, "renew the TLS certificate");
    expect(cert).toMatch(/^- \[ \] renew the TLS certificate \[/);
    expect(cert).toContain("[owner:: dana]");
    expect(cert).toContain("[priority:: high]");
    expect(cert).toContain("[effort:: 2h]");
    const keys = lineOf(tasks, "rotate the API keys");
    expect(keys).toMatch(/^- \[ \] rotate the API keys \[/);
    expect(keys).toContain("[priority:: high]");
    expect(keys).toContain("[scheduled:: 2026-11-30]");
    expect(keys).toContain("[start:: 2026-11-26]");
    expect(keys).toContain("[due:: 2026-12-02]");
    expect(keys).not.toContain("⏳");
    const runbook = lineOf(tasks, "update the runbook");
    expect(runbook).toMatch(/^- \[ \] update the runbook \[/);
    expect(runbook).toContain("[owner:: dana]");
    expect(runbook).toContain("[priority:: low]");
  });

  it("an in-progress checkbox stays in progress", async () => {
    const t = setup({ [J]: "# 2026-11-24\n\n- [/] migrate the billing tables\n" });
    await run(t);
    expect(lineOf(read(t, TASKS), "migrate the billing tables")).toMatch(/^- \[\/\] /);
  });

  it("a topic field on a 'We decided' line names the decision's topic", async () => {
    const t = setup({
      [J]: "# 2026-11-24\n\nWe decided to freeze the schema until launch [topic:: Data model].\n",
    });
    const { plan } = await run(t);
    const decision = plan.items.find((p) => p.item.category === "decision");
    expect(decision?.item.topic).toBe("Data model");
    expect(decision?.item.text).toBe("Freeze the schema until launch");
    expect(lineOf(read(t, DECISIONS), "Freeze the schema")).toContain("[topic:: [[Data model]]]");
  });

  it.each([
    ["should we cache the search index? [to:: [[atlas]]]", "should we cache the search index?"],
    ["@atlas should we cache the search index?", "should we cache the search index?"],
    ["should we cache the search index? @atlas", "should we cache the search index?"],
  ])("a question addressed as in %j reaches atlas's inbox", async (line, text) => {
    const t = setup({ ...AGENTS, [J]: `# 2026-11-24\n\n${line}\n` });
    const { plan } = await run(t);
    const q = plan.items.find((p) => p.item.category === "question");
    expect(q?.item.target).toBe("atlas");
    expect(q?.item.text.toLowerCase()).toContain(text.replace("should we ", ""));
    expect(lineOf(read(t, QUESTIONS), "cache the search index")).toContain("[to:: [[atlas]]]");
  });
});

describe("identity for re-extraction", () => {
  it("a goal's target date on the journal line is its target", async () => {
    const t = setup({ [J]: "# 2026-11-24\n\nGoal: ship the mobile app [target:: 2027-03-31]\n" });
    await run(t);
    const goals = read(t, "Memory/Agents/link/Trackers/Goals.md");
    expect(lineOf(goals, "ship the mobile app")).toContain("[target:: 2027-03-31]");
  });

  it("a task with Tasks' date emoji is not added again when the edited journal is extracted again", async () => {
    const t = setup({
      [J]: "# 2026-11-24\n\n- [ ] water the plants ⏳ 2026-11-30 ➕ 2026-11-24 🔼\n",
    });
    await run(t);
    writeFileSync(join(t.root, J), `${read(t, J)}\n- [ ] call the plumber\n`);
    const second = await run(t);
    expect(second.plan.items.map((p) => `${p.item.text}:${p.action}`)).toEqual([
      "water the plants:skip",
      "call the plumber:add",
    ]);
    expect(read(t, TASKS).match(/water the plants/g)).toHaveLength(1);
  });

  it("a task ticked done in the tracker (Tasks adds ✅) stays done when the edited journal is extracted again", async () => {
    const t = setup({ [J]: "# 2026-11-24\n\n- [ ] water the plants 📅 2026-11-30\n" });
    await run(t);
    writeFileSync(
      join(t.root, TASKS),
      read(t, TASKS).replace(
        /- \[ \] (water the plants.*?) (\^t-[0-9a-z]+)$/m,
        "- [x] $1 ✅ 2026-11-25 $2",
      ),
    );
    writeFileSync(join(t.root, J), `${read(t, J)}\n- [ ] call the plumber\n`);
    await run(t);
    const tasks = read(t, TASKS);
    expect(tasks.match(/water the plants/g)).toHaveLength(1);
    expect(lineOf(tasks, "water the plants")).toMatch(/^- \[x\] /);
  });
});

describe("a half-typed [[ on a journal line", () => {
  it("keeps the item's source link whole, and the item is not added again", async () => {
    const t = setup({ [J]: "# 2026-11-24\n\n- [ ] ask dana about [[Project Alpha\n" });
    await run(t);
    writeFileSync(join(t.root, J), `${read(t, J)}\n- [ ] call the plumber\n`);
    const second = await run(t);
    expect(second.plan.items.map((p) => `${p.item.text}:${p.action}`)).toEqual([
      "ask dana about [[Project Alpha:skip",
      "call the plumber:add",
    ]);
    const tasks = read(t, TASKS);
    expect(tasks.match(/ask dana about/g)).toHaveLength(1);
    const item = listItems(tasks).find((i) => i.text.startsWith("ask dana"));
    expect(item?.text).toBe("ask dana about [[Project Alpha");
    expect(fieldValue(item?.fields ?? [], "source")).toMatch(
      /^\[\[Memory\/Agents\/link\/Journal\/2026-11-24#\^am-[0-9a-z]+\]\]$/,
    );
  });
});

describe("progress finds its goal without a [goal::] field", () => {
  const EARLIER = "Memory/Agents/link/Journal/2026-11-20.md";
  const GOALS = "Memory/Agents/link/Trackers/Goals.md";
  async function runOn(t: ReturnType<typeof setup>, path: string, force = false) {
    const plan = await planExtraction({
      vault: t.vault,
      settings,
      layout,
      journalPath: path,
      extractor: new OfflineExtractor(),
      force,
      now,
    });
    await applyPlan(t.vault, layout, plan, now);
    return plan;
  }

  it.each([
    [
      "English",
      "Goal: ship the mobile app by March\n\nGoal: halve first-month churn\n",
      "Progress: the mobile app beta went out to 40 testers\n\nProgress: churn down 12% since the onboarding call\n",
      ["ship the mobile app by March", "halve first-month churn"],
    ],
    [
      "Chinese",
      "目标：年底前上线移动应用\n\n目标：把首月流失率减半\n",
      "进展：移动应用测试版已发给 40 位测试用户\n\n进展：首月流失率下降了 12%\n",
      ["年底前上线移动应用", "把首月流失率减半"],
    ],
  ])(
    "in %s, each progress line goes under the goal it shares words with, and --force adds nothing",
    async (_language, goals, progress, goalTexts) => {
      const t = setup({
        [EARLIER]: `# 2026-11-20\n\n${goals}`,
        [J]: `# 2026-11-24\n\n${progress}`,
      });
      await runOn(t, EARLIER);
      const before = listItems(read(t, GOALS));
      expect(before.map((g) => g.text)).toEqual(goalTexts);
      const plan = await runOn(t, J);
      expect(plan.items.map((p) => `${p.action}:${p.existingId}`)).toEqual(
        before.map((g) => `progress:${g.id}`),
      );
      const after = listItems(read(t, GOALS));
      expect(after.map((g) => g.text)).toEqual(goalTexts);
      expect(after.map((g) => g.children.length)).toEqual([1, 1]);
      const written = read(t, GOALS);
      const forced = await runOn(t, J, true);
      expect(forced.items.map((p) => p.action)).toEqual(["skip", "skip"]);
      expect(read(t, GOALS)).toBe(written);
    },
  );

  it("a progress line that fits no goal is not made a goal: the plan says it found none", async () => {
    const t = setup({
      [EARLIER]: "# 2026-11-20\n\nGoal: ship the mobile app by March\n",
      [J]: "# 2026-11-24\n\nProgress: the release notes are written\n",
    });
    await runOn(t, EARLIER);
    const goalsBefore = read(t, GOALS);
    const plan = await runOn(t, J);
    expect(plan.items).toEqual([]);
    expect(plan.rejected.map((r) => r.reason)).toEqual([
      `progress names no goal, and it shares no words with an open goal in ${GOALS}; add [goal:: g-…] to the line`,
    ]);
    expect(read(t, GOALS)).toBe(goalsBefore);
  });
});

describe("a journal grown by consecutive lines", () => {
  const HEAD = "---\ntype: journal\nagent: link\ndate: 2026-11-24\n---\n";
  const LINES = [
    "TODO: renew the TLS certificate",
    "TODO: rotate the backup keys",
    "TODO: update the status page",
  ];
  /** The journal's body lines after the frontmatter (which extraction edits). */
  const bodyLines = (text: string) => text.slice(text.indexOf("\n---\n") + 5).split("\n");
  /** Each task's text → the block ids its sources name. */
  const sourcesByTask = (tasks: string) =>
    Object.fromEntries(
      listItems(tasks).map((it) => [
        it.text,
        [...(fieldValue(it.fields, "source") ?? "").matchAll(/#\^([a-z0-9-]+)/g)].map((m) => m[1]),
      ]),
    );

  it("gives each line's task only that line's block id, keeps the lines written, and says new only of a note created", async () => {
    const t = setup({ [J]: `${HEAD}${LINES[0]}\n` });
    const first = await run(t);
    // The tracker is created by this run: the one "new" of the three runs.
    expect(first.plan.items.map((p) => [p.action, actionWords(p)])).toEqual([["add", "new note"]]);
    for (const line of LINES.slice(1)) {
      const before = bodyLines(read(t, J)).filter((l) => l !== "");
      writeFileSync(join(t.root, J), `${read(t, J)}${line}\n`);
      const again = await run(t);
      expect(again.plan.items.map((p) => p.action)).toEqual([...before.map(() => "skip"), "add"]);
      expect(again.plan.items.map(actionWords).at(-1)).toBe("added");
      // What the journal held is kept byte for byte; the new line only gains its id.
      const lines = bodyLines(read(t, J));
      expect(lines.slice(0, before.length)).toEqual(before);
      expect(lines[before.length]).toMatch(new RegExp(`^${line} \\^am-[a-z0-9]+$`));
    }
    const ids = bodyLines(read(t, J))
      .filter((l) => l !== "")
      .map((l) => /\^([a-z0-9-]+)$/.exec(l)?.[1]);
    expect(new Set(ids).size).toBe(3);
    expect(sourcesByTask(read(t, TASKS))).toEqual({
      "renew the TLS certificate": [ids[0]],
      "rotate the backup keys": [ids[1]],
      "update the status page": [ids[2]],
    });
  });

  it("a paragraph whose lines each carry an id (written before) still works: nothing is added to its tasks", async () => {
    const link = (id: string) => `[[Memory/Agents/link/Journal/2026-11-24#^${id}]]`;
    const tasks =
      "# Tasks\n\n" +
      `- [ ] renew the TLS certificate [source:: ${link("am-aaaa1")}, ${link("am-bbbb2")}] [created:: 2026-11-24] ^t-001\n` +
      `- [ ] rotate the backup keys [source:: ${link("am-bbbb2")}] [created:: 2026-11-24] ^t-002\n`;
    const t = setup({
      [J]: `${HEAD}${LINES[0]} ^am-aaaa1\n${LINES[1]} ^am-bbbb2\n${LINES[2]}\n`,
      [TASKS]: tasks,
    });
    const { plan } = await run(t);
    expect(plan.items.map((p) => p.action)).toEqual(["skip", "skip", "add"]);
    const after = read(t, TASKS);
    expect(after.startsWith(tasks)).toBe(true);
    const body = bodyLines(read(t, J));
    expect(body.slice(0, 2)).toEqual([`${LINES[0]} ^am-aaaa1`, `${LINES[1]} ^am-bbbb2`]);
    const id = /\^([a-z0-9-]+)$/.exec(body[2] ?? "")?.[1];
    expect(sourcesByTask(after)["update the status page"]).toEqual([id]);
  });
});
