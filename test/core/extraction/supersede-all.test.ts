// Facts recorded at once on two clones are both current after the merge (docs/sync.md, "Stress"):
// the next fact that contradicts them supersedes every one, not only the most similar, so one
// stays current (docs/decisions.md, "A new fact supersedes every current fact it contradicts").
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { listTopicEntries } from "../../../src/core/knowledge/callouts";
import { isSuperseded } from "../../../src/core/knowledge/supersede";
import { actionWords } from "../../../src/core/extraction/action-words";
import { supersessionLabel } from "../../../src/core/extraction/contradiction";
import { extractionReport } from "../../../src/core/extraction/pipeline";
import { extractOffline } from "../../helpers/offline-extract";
import { tempVault } from "../../helpers/temp-vault";

const J = "Memory/Agents/link/Journal/2026-11-24.md";
const TOPIC = "Memory/Agents/link/Knowledge/learning/Build.md";
const now = () => new Date("2026-11-24T10:00:00Z");
const fact = (n: number, block: string, id?: string) =>
  `> [!insight] 2026-11-23 · confidence 0.9\n> the build takes ${n} minutes on the CI runner.\n> Source: [[Memory/Agents/link/Journal/2026-11-23#^am-${block}]]\n${id ? `\n^${id}\n` : ""}`;

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

it("a new fact supersedes both current facts it contradicts, and only it is current", async () => {
  const t = tempVault({
    [TOPIC]: `---\ntype: knowledge\n---\n# Build\n\n## Insights\n\n${fact(40, "aaaa")}\n${fact(50, "bbbb")}`,
    [J]: "# 2026-11-24\n\n## Build\n\nLearned: the build takes 58 minutes on the CI runner.\n",
  });
  cleanup = t.cleanup;
  const plan = await extractOffline(t.vault, J, now);
  expect(plan.items.map((p) => p.action)).toEqual(["supersede"]);
  const entries = listTopicEntries(readFileSync(join(t.root, TOPIC), "utf8"));
  expect(entries.map((e) => [e.text, isSuperseded(e.fields)])).toEqual([
    ["the build takes 40 minutes on the CI runner.", true],
    ["the build takes 50 minutes on the CI runner.", true],
    ["the build takes 58 minutes on the CI runner.", false],
  ]);
  const newId = entries[2]?.id;
  expect(newId).toMatch(/^c-/);
  for (const old of entries.slice(0, 2))
    expect(old.fields.find((f) => f.key === "superseded_by")?.value).toContain(`#^${newId}`);
  // The new callout names both: the history reads either way.
  const named = entries[2]?.fields.find((f) => f.key === "supersedes")?.value ?? "";
  const ids = entries.slice(0, 2).map((e) => e.id);
  expect(ids.every((id) => id !== undefined && id !== null)).toBe(true);
  expect(named).toBe(ids.map((id) => `[[${TOPIC.replace(/\.md$/, "")}#^${id}]]`).join(", "));
});

/**
 * A topic note holding two current values of one subject (facts recorded at once on two clones)
 * and a fact of another subject that shares the first words of it, then a journal that changes
 * the subject's value. @returns each callout's text and whether it is superseded, in note order
 */
async function supersedeAll(
  topic: string,
  journal: string,
  facts: readonly string[],
): Promise<[string, boolean][]> {
  const callout = (text: string, i: number) =>
    `> [!insight] 2026-11-23 · confidence 0.9\n> ${text}\n> Source: [[Memory/Agents/link/Journal/2026-11-23#^am-000${i}]]\n`;
  const t = tempVault({
    [topic]: `---\ntype: knowledge\n---\n# ${topic.replace(/^.*\/|\.md$/g, "")}\n\n## Insights\n\n${facts.map(callout).join("\n")}`,
    [J]: journal,
  });
  cleanup = t.cleanup;
  const plan = await extractOffline(t.vault, J, now);
  expect(plan.items.map((p) => p.action)).toEqual(["supersede"]);
  const entries = listTopicEntries(readFileSync(join(t.root, topic), "utf8"));
  return entries.map((e) => [e.text, isSuperseded(e.fields)]);
}

// A change marker joins the new fact to every current value of its subject, and not to a fact of
// another subject that only shares a prefix with it (docs/decisions.md, "A change marker does not
// join two subjects").
it("supersede-all, Chinese: both values of the pool limit, not the pool timeout", async () => {
  const topic = "Memory/Agents/link/Knowledge/learning/数据库.md";
  const entries = await supersedeAll(
    topic,
    "# 2026-11-24\n\n## 数据库\n\n心得：数据库连接池上限改为50。\n",
    ["数据库连接池上限是20。", "数据库连接池超时改为30秒。", "数据库连接池上限是30。"],
  );
  expect(entries).toEqual([
    ["数据库连接池上限是20。", true],
    ["数据库连接池超时改为30秒。", false],
    ["数据库连接池上限是30。", true],
    ["数据库连接池上限改为50。", false],
  ]);
});

it("supersede-all, English: both values of the server timeout, not the server region", async () => {
  const entries = await supersedeAll(
    TOPIC,
    "# 2026-11-24\n\n## Build\n\nLearned: the build server timeout is now 60s.\n",
    [
      "the build server timeout is 30s.",
      "the build server region is now eu-west.",
      "the build server timeout is 45s.",
    ],
  );
  expect(entries).toEqual([
    ["the build server timeout is 30s.", true],
    ["the build server region is now eu-west.", false],
    ["the build server timeout is 45s.", true],
    ["the build server timeout is now 60s.", false],
  ]);
});

it("the report names every entry a new fact supersedes, the most similar first", async () => {
  const t = tempVault({
    [TOPIC]: `---\ntype: knowledge\n---\n# Build\n\n## Insights\n\n${fact(40, "aaaa", "c-1")}\n${fact(50, "bbbb", "c-2")}\n${fact(45, "cccc", "c-3")}`,
    [J]: "# 2026-11-24\n\n## Build\n\nLearned: the build takes 58 minutes on the CI runner.\n",
  });
  cleanup = t.cleanup;
  const plan = await extractOffline(t.vault, J, now);
  const [item] = extractionReport(plan, null).items;
  expect(item && actionWords(item)).toBe("added, supersedes c-1 (another value), also c-2 and c-3");
  // Each one named is superseded in the note.
  const entries = listTopicEntries(readFileSync(join(t.root, TOPIC), "utf8"));
  expect(entries.filter((e) => isSuperseded(e.fields)).map((e) => e.id)).toEqual([
    "c-1",
    "c-2",
    "c-3",
  ]);
});

it('a supersession label lists the other entries with commas and a last "and"', () => {
  const one = { id: "d-004", text: "", reason: "polarity" as const };
  const other = (id: string) => ({ id, text: "" });
  expect(supersessionLabel(one)).toBe("supersedes d-004 (says the opposite)");
  expect(supersessionLabel({ ...one, also: [] })).toBe("supersedes d-004 (says the opposite)");
  expect(supersessionLabel({ ...one, also: [other("c-2")] })).toBe(
    "supersedes d-004 (says the opposite), also c-2",
  );
  expect(supersessionLabel({ ...one, also: ["c-2", "c-3", "callout 4"].map(other) })).toBe(
    "supersedes d-004 (says the opposite), also c-2, c-3 and callout 4",
  );
});
