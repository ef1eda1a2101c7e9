// A person's edit of an extracted entry in its note, then a re-extraction of its journal
// (docs/sync.md, "Stress"): while the journal block is unchanged since its id was given (the id
// still derives from its text), the entry citing it is its item, however it was edited
// (docs/decisions.md, "An unchanged journal block's entry is its item"). A block reworded in place
// still supersedes its entry (test/cli/contradictions-cli.process.test.ts, "a task whose journal
// wording changed after extraction supersedes …").
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { listTopicEntries } from "../../../src/core/knowledge/callouts";
import { isSuperseded } from "../../../src/core/knowledge/supersede";
import { listItems } from "../../../src/core/trackers/format";
import { extractOffline } from "../../helpers/offline-extract";
import { tempVault } from "../../helpers/temp-vault";

const J = "Memory/Agents/link/Journal/2026-11-24.md";
const TASKS = "Memory/Agents/link/Trackers/Tasks.md";
const now = () => new Date("2026-11-24T10:00:00Z");

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

type Vault = ReturnType<typeof tempVault>;

const run = (t: Vault) => extractOffline(t.vault, J, now);

const read = (t: Vault, p: string) => readFileSync(join(t.root, p), "utf8");
const append = (t: Vault, p: string, text: string) =>
  writeFileSync(join(t.root, p), `${read(t, p)}\n${text}\n`);
const edit = (t: Vault, p: string, from: string, to: string) =>
  writeFileSync(join(t.root, p), read(t, p).replace(from, to));

describe("an extracted task edited in the tracker, its unchanged journal extracted again", () => {
  for (const [name, from, to] of [
    ["a word added", "xk-c1r1", "xk-c1r1 e-c1r2"],
    ["reworded past the duplicate threshold", "Prepare xk-c1r1 the brief", "Draft the launch memo"],
  ] as const)
    it(`${name}: the task is kept once, as edited, and nothing is added`, async () => {
      const t = tempVault({ [J]: "# 2026-11-24\n\n- [ ] Prepare xk-c1r1 the brief\n" });
      cleanup = t.cleanup;
      await run(t);
      edit(t, TASKS, from, to);
      const before = read(t, TASKS);
      append(t, J, "- [ ] Book the room for the review");
      const plan = await run(t);
      expect(plan.items.map((p) => `${p.item.text}: ${p.action}`)).toEqual([
        "Prepare xk-c1r1 the brief: skip",
        "Book the room for the review: add",
      ]);
      const items = listItems(read(t, TASKS));
      expect(items.map((i) => `${i.status} ${i.text}`)).toEqual([
        `open ${listItems(before)[0]?.text ?? "?"}`,
        "open Book the room for the review",
      ]);
      expect(items[0]?.text).toContain(to);
    });

  it("ticked done and edited: it is neither reopened, nor superseded, nor added again", async () => {
    const t = tempVault({ [J]: "# 2026-11-24\n\n- [ ] Prepare xk-c1r1 the brief\n" });
    cleanup = t.cleanup;
    await run(t);
    edit(t, TASKS, "- [ ] Prepare xk-c1r1", "- [x] Prepare xk-c1r1 e-c1r2");
    append(t, J, "The room is booked.");
    const plan = await run(t);
    expect(plan.items.filter((p) => p.item.category === "task").map((p) => p.action)).toEqual([
      "skip",
    ]);
    expect(listItems(read(t, TASKS)).map((i) => `${i.status} ${i.text}`)).toEqual([
      "done Prepare xk-c1r1 e-c1r2 the brief",
    ]);
  });

  it("the journal line reworded in place, its id kept: it no longer derives the id, and supersedes the task", async () => {
    const t = tempVault({ [J]: "# 2026-11-24\n\n- [ ] Prepare xk-c1r1 the brief\n" });
    cleanup = t.cleanup;
    await run(t);
    edit(t, TASKS, "xk-c1r1", "xk-c1r1 e-c1r2");
    edit(t, J, "Prepare xk-c1r1 the brief", "Prepare xk-c1r1 the brief and the deck");
    const plan = await run(t);
    expect(plan.items.map((p) => `${p.item.text}: ${p.action}`)).toEqual([
      "Prepare xk-c1r1 the brief and the deck: supersede",
    ]);
  });

  it("a block id not derived from its text (given by hand) keeps the text rule: the edited task is added again", async () => {
    const t = tempVault({ [J]: "# 2026-11-24\n\n- [ ] Prepare xk-c1r1 the brief ^am-k3f9\n" });
    cleanup = t.cleanup;
    await run(t);
    edit(t, TASKS, "Prepare xk-c1r1 the brief", "Draft the launch memo");
    const plan = await run(t);
    expect(plan.items.map((p) => p.action)).not.toContain("skip");
  });
});

describe("an extracted fact edited in its topic note, its unchanged journal extracted again", () => {
  it("the callout is kept once, as edited, and stays current", async () => {
    const t = tempVault({
      [J]: "# 2026-11-24\n\n## Build\n\nLearned: the build takes 40 minutes on the CI runner.\n",
    });
    cleanup = t.cleanup;
    await run(t);
    const topic = "Memory/Agents/link/Knowledge/learning/Build.md";
    edit(t, topic, "takes 40 minutes on the CI runner", "takes 40 minutes on the old CI runner");
    append(t, J, "- [ ] Book the room for the review");
    const plan = await run(t);
    expect(plan.items.map((p) => p.action)).toEqual(["skip", "add"]);
    const facts = listTopicEntries(read(t, topic)).filter((e) => /build takes/.test(e.text));
    expect(facts.map((e) => [e.text, isSuperseded(e.fields)])).toEqual([
      ["the build takes 40 minutes on the old CI runner.", false],
    ]);
  });
});
