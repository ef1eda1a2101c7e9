import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { listItems } from "../../src/core/trackers/format";
import { fieldValue } from "../../src/core/trackers/fields";
import { cliRun } from "../helpers/cli-run";
import { tempVault } from "../helpers/temp-vault";

const J1 = "Memory/Agents/link/Journal/2026-03-02.md";
const J2 = "Memory/Agents/link/Journal/2026-03-09.md";
const TASKS = "Memory/Agents/link/Trackers/Tasks.md";
const DECISIONS = "Memory/Agents/link/Trackers/Decisions.md";

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

type Report = {
  items: { action: string; text: string; supersedes?: { id: string; reason: string } }[];
};

describe("agent-memory extract: facts that change (docs/contradictions.md)", () => {
  it("a task whose journal wording changed after extraction supersedes the task it produced: the old one cancelled with a link, not deleted", () => {
    const t = tempVault({
      [J1]: "# 2026-03-02\n\n- [ ] Send the draft to Ana\n\n- [ ] Book the dentist\n",
    });
    cleanup = t.cleanup;
    expect(cliRun("extract", t.root, J1).code).toBe(0);
    const [ana, dentist] = listItems(readFileSync(join(t.root, TASKS), "utf8")).map((it) => it.id);
    const journal = readFileSync(join(t.root, J1), "utf8");
    expect(journal).toMatch(/Send the draft to Ana \^am-/);
    writeFileSync(
      join(t.root, J1),
      journal.replace("Send the draft to Ana", "Send the signed contract to Bo"),
    );
    const r = cliRun("extract", t.root, J1);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /task\s+Send the signed contract to Bo\n\s+→ Memory\/Agents\/link\/Trackers\/Tasks\.md/,
    );
    // "new" is said of a note created only: Tasks.md is there since the first run.
    expect(r.stdout).toContain(`(added, supersedes ${ana} (its journal block was reworded))`);
    const tasks = listItems(readFileSync(join(t.root, TASKS), "utf8"));
    const bo = tasks[2]?.id;
    expect(tasks.map((it) => [it.id, it.text, it.status])).toEqual([
      [ana, "Send the draft to Ana", "abandoned"],
      [dentist, "Book the dentist", "open"],
      [bo, "Send the signed contract to Bo", "open"],
    ]);
    expect(fieldValue(tasks[0]!.fields, "cancelled")).toBe("2026-03-02");
    expect(fieldValue(tasks[0]!.fields, "superseded_by")).toBe(
      `[[Memory/Agents/link/Trackers/Tasks#^${bo}]]`,
    );
    expect(fieldValue(tasks[2]!.fields, "supersedes")).toBe(
      `[[Memory/Agents/link/Trackers/Tasks#^${ana}]]`,
    );
    // The unchanged block's task is untouched, and a third run changes nothing.
    expect(fieldValue(tasks[1]!.fields, "superseded_by")).toBeNull();
    const before = readFileSync(join(t.root, TASKS), "utf8");
    const again = JSON.parse(cliRun("extract", t.root, J1, "--force", "--json").stdout) as Report;
    expect(again.items.map((i) => i.action)).toEqual(["skip", "skip"]);
    expect(readFileSync(join(t.root, TASKS), "utf8")).toBe(before);
  });

  it("extract says which decision it supersedes in its text and --json, and --dry-run writes nothing", () => {
    const t = tempVault({
      [J1]: "# 2026-03-02\n\nDecision: ship on Fridays\n",
      [J2]: "# 2026-03-09\n\nDecision: do not ship on Fridays\n",
    });
    cleanup = t.cleanup;
    expect(cliRun("extract", t.root, J1).code).toBe(0);
    const log = readFileSync(join(t.root, DECISIONS), "utf8");
    const first = listItems(log)[0]?.id;
    const dry = cliRun("extract", t.root, J2, "--dry-run");
    expect(dry.stdout).toContain(`(added, supersedes ${first} (says the opposite))`);
    expect(readFileSync(join(t.root, DECISIONS), "utf8")).toBe(log);
    const r = JSON.parse(cliRun("extract", t.root, J2, "--json").stdout) as Report;
    expect(r.items).toMatchObject([
      {
        action: "supersede",
        text: "do not ship on Fridays",
        supersedes: { id: first, reason: "polarity" },
      },
    ]);
    const items = listItems(readFileSync(join(t.root, DECISIONS), "utf8"));
    expect(items.map((it) => it.text)).toEqual(["ship on Fridays", "do not ship on Fridays"]);
  });

  it("extract names every callout a new fact supersedes, not only the most similar", () => {
    const topic = "Memory/Agents/link/Knowledge/learning/Build.md";
    const fact = (n: number, id: string) =>
      `> [!insight] 2026-03-01 · confidence 0.9\n> the build takes ${n} minutes on the CI runner.\n\n^${id}\n`;
    const t = tempVault({
      [topic]: `---\ntype: knowledge\n---\n# Build\n\n## Insights\n\n${fact(40, "c-1")}\n${fact(50, "c-2")}\n${fact(45, "c-3")}`,
      [J2]: "# 2026-03-09\n\n## Build\n\nLearned: the build takes 58 minutes on the CI runner.\n",
    });
    cleanup = t.cleanup;
    const r = cliRun("extract", t.root, J2);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      `→ ${topic} (added, supersedes c-1 (another value), also c-2 and c-3)\n`,
    );
  });

  it("trackers --status all marks the superseded decision, in its text and --json, and not the current one", () => {
    const t = tempVault({
      [J1]: "# 2026-03-02\n\nDecision: ship on Fridays\n",
      [J2]: "# 2026-03-09\n\nDecision: do not ship on Fridays\n",
    });
    cleanup = t.cleanup;
    expect(cliRun("extract", t.root, J1).code).toBe(0);
    expect(cliRun("extract", t.root, J2).code).toBe(0);
    const [old, current] = listItems(readFileSync(join(t.root, DECISIONS), "utf8")).map(
      (it) => it.id,
    );
    const r = cliRun("trackers", t.root, "--status", "all");
    expect(r.code).toBe(0);
    const lines = r.stdout.split("\n");
    expect(lines.find((l) => l.includes(`${old} `))).toMatch(
      new RegExp(`\\[x\\] ${old} ship on Fridays  \\(SUPERSEDED by ${current}\\)$`),
    );
    expect(lines.find((l) => l.includes(`${current} `))).toMatch(/do not ship on Fridays$/);
    const json = JSON.parse(cliRun("trackers", t.root, "--status", "all", "--json").stdout) as {
      items: { id: string; superseded?: boolean }[];
    };
    expect(json.items.map((it) => [it.id, it.superseded ?? false])).toEqual([
      [old, true],
      [current, false],
    ]);
  });
});
