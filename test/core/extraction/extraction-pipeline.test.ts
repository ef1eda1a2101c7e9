import { readFileSync, statSync, readdirSync, existsSync, rmSync } from "node:fs";
import { seededRandom } from "../../helpers/seeded-random";
import { randomId } from "../../../src/core/util/ids";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { applyPlan, planExtraction } from "../../../src/core/extraction/pipeline";
import { OfflineExtractor } from "../../../src/core/extraction/offline";
import type {
  ExtractionInput,
  ExtractionResult,
  Extractor,
} from "../../../src/core/extraction/types";
import { MemoryLayout } from "../../../src/core/layout";
import { defaultSettings } from "../../../src/core/settings";
import { FrontmatterError, UsageError } from "../../../src/core/errors";
import { listItems } from "../../../src/core/trackers/format";
import { tempVault } from "../../helpers/temp-vault";

const settings = defaultSettings();
const layout = new MemoryLayout(settings);
const J = "Memory/Agents/link/Journal/2026-11-24.md";
const TASKS = "Memory/Agents/link/Trackers/Tasks.md";
const now = () => new Date("2026-11-24T10:00:00Z");

const journal = `---
id: journal-link-2026-11-24
type: journal
created_at: 2026-11-24T18:40:00+08:00
---
# 2026-11-24

## SEO audit

- [ ] Renew passport
- [ ] Get the top-10 pages by traffic
Decision: audit the home page before the blog
Learned: bounce rate matters more than the framework

Progress: first audit done, blog 79 [goal:: g-006]
`;

const goals = `# Goals

- [ ] Content quality scoring system [target:: 2026-12-31] ^g-006
`;

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

function setup(files: Record<string, string> = {}) {
  const t = tempVault({ [J]: journal, "Memory/Agents/link/Trackers/Goals.md": goals, ...files });
  cleanup = t.cleanup;
  return t;
}

/** The ids a run with `random: seededRandom(SEED)` gives its new tracker items, in routing order. */
const SEED = 1;
function drawn(...prefixes: string[]): string[] {
  const random = seededRandom(SEED);
  return prefixes.map((p) => randomId(`${p}-`, new Set(), random));
}

async function run(
  t: ReturnType<typeof setup>,
  extractor: Extractor = new OfflineExtractor(),
  force = false,
) {
  const plan = await planExtraction({
    vault: t.vault,
    settings,
    layout,
    journalPath: J,
    extractor,
    force,
    now,
    random: seededRandom(SEED),
  });
  const applied = await applyPlan(t.vault, layout, plan, now);
  return { plan, applied };
}

function mtimes(root: string): Map<string, number> {
  const out = new Map<string, number>();
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(p, statSync(p).mtimeMs);
    }
  };
  walk(root);
  return out;
}

describe("extraction pipeline", () => {
  it("routes items into trackers and topic notes, with block ids and sources", async () => {
    const t = setup();
    const { plan, applied } = await run(t);
    expect(plan.items.map((p) => `${p.item.category}:${p.action}`)).toEqual([
      "task:add",
      "task:add",
      "decision:add",
      "decision:add",
      "knowledge:add",
      "goal:progress",
    ]);
    const tasks = listItems(readFileSync(join(t.root, TASKS), "utf8"));
    expect(tasks.map((i) => i.id)).toEqual(drawn("t", "t"));
    const source = tasks[0]?.fields.find((f) => f.key === "source")?.value ?? "";
    const blockId = /#\^(am-[a-z0-9]+)/.exec(source)?.[1];
    expect(blockId).toBeDefined();
    const after = readFileSync(join(t.root, J), "utf8");
    expect(after).toContain(`- [ ] Renew passport ^${blockId}`);
    expect(after).toMatch(/extraction_hash: /);
    expect(after).toContain("created_at: 2026-11-24T18:40:00+08:00");
    const topic = readFileSync(
      join(t.root, "Memory/Agents/link/Knowledge/learning/SEO audit.md"),
      "utf8",
    );
    expect(topic).toContain("## Insights");
    expect(topic).toContain("> [!insight] 2026-11-24 · confidence 0.9");
    expect(topic).toContain("## Decisions");
    expect(readFileSync(join(t.root, "Memory/Agents/link/Trackers/Goals.md"), "utf8")).toMatch(
      /\^g-006\n\s+- 2026-11-24: first audit done, blog 79/,
    );
    expect(applied.writes).toContain(J);
  });

  it("case 10: running twice changes nothing and reports nothing new", async () => {
    const t = setup({ [TASKS]: "# Tasks\n\n- [ ] Renew passport [created:: 2026-11-01] ^t-007\n" });
    await run(t);
    const before = mtimes(t.root);
    const second = await run(t);
    expect(second.plan.skipped).toBe("unchanged");
    expect(second.applied.writes).toEqual([]);
    // --force extracts the unchanged journal again (not skipped: the mutant that ignores it when
    // the hash matches dies here, docs/testing.md); every item is then already recorded.
    const forced = await run(t, new OfflineExtractor(), true);
    expect(forced.plan.skipped).toBeUndefined();
    expect(forced.plan.items.map((p) => p.action)).toEqual([
      "skip",
      "skip",
      "skip",
      "skip",
      "skip",
      "skip",
    ]);
    expect(forced.applied.writes).toEqual([]);
    expect(mtimes(t.root)).toEqual(before);
    const tasks = listItems(readFileSync(join(t.root, TASKS), "utf8"));
    expect(tasks.filter((i) => i.text === "Renew passport").map((i) => i.id)).toEqual(["t-007"]);
    expect(tasks.map((i) => i.id)).toEqual(["t-007", ...drawn("t")]);
  });

  it("a duplicate of an existing item gets the new source instead of a second item", async () => {
    const t = setup({
      [TASKS]: "# Tasks\n\n- [ ] renew the passport [source:: [[2026-11-01#^am-aaaa]]] ^t-001\n",
    });
    const { plan } = await run(t);
    expect(plan.items[0]?.action).toBe("add-source");
    const text = readFileSync(join(t.root, TASKS), "utf8");
    expect(text).toMatch(
      /\[source:: \[\[2026-11-01#\^am-aaaa\]\], \[\[Memory\/Agents\/link\/Journal\/2026-11-24#\^am-[a-z0-9]+\]\]\] \^t-001/,
    );
  });

  it("case 07: edits made to the journal and a tracker during extraction survive", async () => {
    const t = setup({ [TASKS]: "# Tasks\n" });
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const slow: Extractor = {
      name: "offline",
      async extract(input: ExtractionInput): Promise<ExtractionResult> {
        await gate;
        return new OfflineExtractor().extract(input);
      },
    };
    const planning = planExtraction({
      vault: t.vault,
      settings,
      layout,
      journalPath: J,
      extractor: slow,
      now,
      random: seededRandom(SEED),
    });
    await new Promise((r) => setTimeout(r, 50));
    t.write(J, journal.replace("## SEO audit\n", "## SEO audit\n\n- [ ] call Person B\n"));
    t.write(TASKS, "# Tasks\n\n- [ ] Water the plants ^t-001\n");
    release();
    const plan = await planning;
    await applyPlan(t.vault, layout, plan, now);
    const after = readFileSync(join(t.root, J), "utf8");
    expect(after).toContain("- [ ] call Person B");
    expect(after).toMatch(/- \[ \] Renew passport \^am-[a-z0-9]+/);
    const tasks = listItems(readFileSync(join(t.root, TASKS), "utf8"));
    const [a, b] = drawn("t", "t");
    expect(tasks.map((i) => `${i.id} ${i.text}`)).toEqual([
      "t-001 Water the plants",
      `${a} Renew passport`,
      `${b} Get the top-10 pages by traffic`,
    ]);
  });

  it("one block's item reported twice in a run, reworded, with the same evidence, is planned once per note", async () => {
    const t = setup({
      [J]: "# 2026-11-24\n\n## SEO audit\n\n- [ ] Renew passport\n- [ ] Get the top-10 pages\n\nDecision: audit the home page before the blog\n",
    });
    const twice: Extractor = {
      name: "offline",
      extract: (input) => {
        const blockIndex = input.blocks.findIndex((b) => b.text.startsWith("Decision:"));
        const evidence = "Decision: audit the home page before the blog";
        const base = {
          category: "decision" as const,
          evidence,
          blockId: null,
          blockIndex,
          confidence: 0.9,
          topic: "SEO audit",
          origin: "offline" as const,
        };
        return Promise.resolve({
          items: [
            { ...base, text: "audit the home page before the blog" },
            { ...base, text: "Decision: audit the home page before the blog, then the rest" },
          ],
          rejected: [],
          passes: 1,
          usage: { calls: 0, promptTokens: 0, completionTokens: 0, wallMs: 0 },
          notes: [],
        });
      },
    };
    const { plan } = await run(t, twice);
    expect(plan.items.map((p) => `${p.action} ${p.destination.split("/").pop() ?? ""}`)).toEqual([
      "add Decisions.md",
      "add SEO audit.md",
      "skip Decisions.md",
      "skip SEO audit.md",
    ]);
    expect(
      listItems(readFileSync(join(t.root, "Memory/Agents/link/Trackers/Decisions.md"), "utf8")).map(
        (i) => i.text,
      ),
    ).toEqual(["audit the home page before the blog"]);
  });

  it("case 12: a topic chosen by a model cannot write outside the memory root", async () => {
    const t = setup();
    const evil: Extractor = {
      name: "openai",
      extract: (input) =>
        Promise.resolve({
          items: [
            {
              category: "knowledge",
              text: "x is y",
              evidence: "Learned: bounce rate matters more than the framework",
              blockId: null,
              blockIndex: input.blocks.findIndex((b) => b.text.includes("Learned")),
              confidence: 0.7,
              topic: "../../.obsidian/plugins/x/main",
              origin: "llm",
            },
          ],
          rejected: [],
          passes: 1,
          usage: { calls: 1, promptTokens: 1, completionTokens: 1, wallMs: 1 },
          notes: [],
        }),
    };
    const { plan, applied } = await run(t, evil);
    expect(existsSync(join(t.root, ".obsidian"))).toBe(false);
    for (const w of applied.writes) expect(w.startsWith("Memory/")).toBe(true);
    expect(plan.items[0]?.destination.startsWith("Memory/Agents/link/Knowledge/")).toBe(true);
  });

  it("a journal outside the memory root (Daily notes folder) writes its items under the root", async () => {
    const t = setup({ "Daily/2026-11-25.md": "- [ ] Renew passport\n" });
    const plan = await planExtraction({
      vault: t.vault,
      settings,
      layout,
      journalPath: "Daily/2026-11-25.md",
      extractor: new OfflineExtractor(),
      now,
    });
    expect(plan.agentReason).toBe("default-agent");
    const applied = await applyPlan(t.vault, layout, plan, now);
    expect(applied.writes.sort()).toEqual([
      "Daily/2026-11-25.md",
      "Memory/Agents/me/Trackers/Tasks.md",
    ]);
    expect(readFileSync(join(t.root, "Memory/Agents/me/Trackers/Tasks.md"), "utf8")).toContain(
      "[source:: [[Daily/2026-11-25#^am-",
    );
  });

  it("an unknown --agent is refused and nothing is written", async () => {
    const t = setup();
    const before = mtimes(t.root);
    await expect(
      planExtraction({
        vault: t.vault,
        settings,
        layout,
        journalPath: J,
        agent: "nobody",
        extractor: new OfflineExtractor(),
        now,
      }),
    ).rejects.toThrow(/unknown agent "nobody" \(known: link\)/);
    expect(mtimes(t.root)).toEqual(before);
  });

  it("an agent named by the caller must exist, even the default one; a journal in no agent's folder may be refused", async () => {
    const t = setup({ "Daily/2026-11-25.md": "- [ ] Renew passport\n" });
    const before = mtimes(t.root);
    const daily = {
      vault: t.vault,
      settings,
      layout,
      journalPath: "Daily/2026-11-25.md",
      extractor: new OfflineExtractor(),
      now,
    };
    await expect(planExtraction({ ...daily, agent: "me" })).rejects.toThrow(
      /unknown agent "me" \(known: link\); pass --agent with a known agent, or create it with: agent-memory init <vault> --agent me/,
    );
    await expect(planExtraction({ ...daily, newAgent: "refuse" })).rejects.toThrow(
      /Daily\/2026-11-25\.md is in no agent's folder, and the default agent "me" does not exist yet \(known: link\); pass --agent NAME to choose one, or create it with: agent-memory init <vault> --agent me/,
    );
    expect(mtimes(t.root)).toEqual(before);
    expect((await planExtraction({ ...daily, agent: "link" })).agentReason).toBe("named");
    expect(
      (
        await planExtraction({
          vault: t.vault,
          settings,
          layout,
          journalPath: J,
          extractor: new OfflineExtractor(),
          now,
          newAgent: "refuse",
        })
      ).agentReason,
    ).toBe("journal-folder");
  });

  it("notes in an isolated zone, trackers and topic notes are not extracted", async () => {
    const t = setup({
      "Memory/Restricted/INC-1.md": "Decision: tell nobody\n",
      "Memory/Library/SEO/CWV.md": "Learned: x\n",
    });
    for (const journalPath of [
      "Memory/Restricted/INC-1.md",
      "Memory/Library/SEO/CWV.md",
      "Memory/Agents/link/Trackers/Goals.md",
    ]) {
      await expect(
        planExtraction({
          vault: t.vault,
          settings,
          layout,
          journalPath,
          extractor: new OfflineExtractor(),
          now,
        }),
      ).rejects.toThrow(UsageError);
    }
  });

  it("a closed task written down again is a new task; an item without an id is recognised, not duplicated", async () => {
    const t = setup({
      [TASKS]: "# Tasks\n\n- [x] Renew passport ^t-001\n- [ ] Get the top-10 pages by traffic\n",
    });
    const { plan } = await run(t);
    expect(plan.items.slice(0, 2).map((p) => p.action)).toEqual(["add", "skip"]);
    const tasks = listItems(readFileSync(join(t.root, TASKS), "utf8"));
    expect(tasks.map((i) => `${i.id ?? "-"} ${i.status} ${i.text}`)).toEqual([
      "t-001 done Renew passport",
      "- open Get the top-10 pages by traffic",
      `${drawn("t")[0]} open Renew passport`,
    ]);
  });

  it("a failed destination leaves the journal unmarked but gives the written notes their block ids", async () => {
    const t = setup({ [TASKS]: "---\nbad: [yaml\n---\n- [ ] x ^t-001\n" });
    const { plan, applied } = await run(t);
    expect(applied.failed.map((f) => f.text)).toEqual([
      "Renew passport",
      "Get the top-10 pages by traffic",
    ]);
    const after = readFileSync(join(t.root, J), "utf8");
    expect(after).not.toMatch(/extraction_hash/);
    const topic = readFileSync(
      join(t.root, "Memory/Agents/link/Knowledge/learning/SEO audit.md"),
      "utf8",
    );
    for (const id of topic.match(/am-[a-z0-9]{10}/g) ?? []) expect(after).toContain(`^${id}`);
    const renew = plan.items[0]?.item.blockId ?? "";
    expect(after).not.toContain(`^${renew}`);
  });

  it("a topic note's updated_at is the time of the write, never the older journal's date", async () => {
    const topicPath = "Memory/Agents/link/Knowledge/learning/SEO audit.md";
    const t = setup({
      [topicPath]:
        "---\nid: k1\ntype: knowledge\nupdated_at: 2026-11-10T19:15:00+08:00\n---\n# SEO audit\n",
    });
    const later = () => new Date("2026-11-29T10:00:00Z");
    const plan = await planExtraction({
      vault: t.vault,
      settings,
      layout,
      journalPath: J,
      extractor: new OfflineExtractor(),
      now: later,
    });
    await applyPlan(t.vault, layout, plan, later);
    // Written in the host's local time with its offset: the same instant in any time zone.
    const written =
      /updated_at: (\S+)/.exec(readFileSync(join(t.root, topicPath), "utf8"))?.[1] ?? "";
    expect(written).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
    expect(Date.parse(written)).toBe(later().getTime());
  });

  it("a journal whose frontmatter does not parse is an error naming it, and nothing is written", async () => {
    const t = setup({ [J]: "---\ntitle: [unclosed\n---\n- [ ] Renew passport\n" });
    const before = mtimes(t.root);
    await expect(run(t)).rejects.toThrow(FrontmatterError);
    await expect(run(t)).rejects.toThrow(/2026-11-24\.md/);
    expect(mtimes(t.root)).toEqual(before);
  });
  it("a journal whose frontmatter is never closed is an error naming it, and nothing is written; once closed it extracts", async () => {
    const t = setup({ [J]: "---\ntype: journal\n# 2026-11-24\n\n- [ ] Renew passport\n" });
    const before = mtimes(t.root);
    await expect(run(t)).rejects.toThrow(FrontmatterError);
    await expect(run(t)).rejects.toThrow(
      /2026-11-24\.md: frontmatter opened by the first line \(---\) is never closed/,
    );
    expect(mtimes(t.root)).toEqual(before);
    t.write(J, "---\ntype: journal\n---\n# 2026-11-24\n\n- [ ] Renew passport\n");
    const { applied } = await run(t);
    expect(applied.failed).toEqual([]);
    expect(readFileSync(join(t.root, J), "utf8")).toMatch(/^---\ntype: journal\nextract/);
  });

  it.each(["a#b", "a|b", "a[b]", "a^b"])(
    "a journal named %s is refused before anything is written, naming the characters",
    async (name) => {
      const path = `Memory/Agents/link/Journal/${name}.md`;
      const t = setup({ [path]: "# x\n\n- [ ] Renew passport\n" });
      const before = mtimes(t.root);
      await expect(
        planExtraction({
          vault: t.vault,
          settings,
          layout,
          journalPath: path,
          extractor: new OfflineExtractor(),
          now,
        }),
      ).rejects.toThrow(/its name holds "[#|[^]"/);
      expect(mtimes(t.root)).toEqual(before);
    },
  );

  it("a journal named with spaces, dots, dashes or Chinese extracts, its source links working", async () => {
    const path = "Memory/Agents/link/Journal/2026-11-24 周会 v1.2 (draft).md";
    const t = setup({ [path]: "# x\n\n- [ ] Renew passport\n" });
    const plan = await planExtraction({
      vault: t.vault,
      settings,
      layout,
      journalPath: path,
      extractor: new OfflineExtractor(),
      now,
    });
    await applyPlan(t.vault, layout, plan, now);
    expect(readFileSync(join(t.root, TASKS), "utf8")).toContain(
      "[[Memory/Agents/link/Journal/2026-11-24 周会 v1.2 (draft)#^am-",
    );
  });

  it("progress naming a goal this same run creates goes under that goal", async () => {
    const goalsPath = "Memory/Agents/link/Trackers/Goals.md";
    const [g] = drawn("g");
    const t = setup({
      [J]: `# 2026-11-24\n\n目标：完成新版官网上线\n\n进展：首页设计稿已完成 [goal:: ${g}]\n`,
      [goalsPath]: "",
    });
    rmSync(join(t.root, goalsPath));
    const { plan, applied } = await run(t);
    expect(plan.rejected).toEqual([]);
    expect(plan.items.map((p) => `${p.item.category}:${p.action}:${p.existingId ?? ""}`)).toEqual([
      "goal:add:",
      `goal:progress:${g}`,
    ]);
    expect(applied.failed).toEqual([]);
    const goal = listItems(readFileSync(join(t.root, goalsPath), "utf8"))[0];
    expect(goal?.id).toBe(g);
    expect(goal?.children.join("\n")).toContain("首页设计稿已完成");
    expect(readFileSync(join(t.root, J), "utf8")).toMatch(/extraction_hash/);
  });

  it("the same-run goal keeps its progress when another writer took its id meanwhile", async () => {
    const goalsPath = "Memory/Agents/link/Trackers/Goals.md";
    const [g] = drawn("g");
    const t = setup({
      [J]: `# 2026-11-24\n\nGoal: ship the new site\n\nProgress: home page designed [goal:: ${g}]\n`,
    });
    const plan = await planExtraction({
      vault: t.vault,
      settings,
      layout,
      journalPath: J,
      extractor: new OfflineExtractor(),
      now,
      random: seededRandom(SEED),
    });
    expect(plan.items.map((p) => `${p.action}:${p.existingId ?? ""}`)).toEqual([
      "add:",
      `progress:${g}`,
    ]);
    t.write(goalsPath, `${goals}- [ ] Someone else's goal ^${g}\n`);
    await applyPlan(t.vault, layout, plan, now);
    const items = listItems(readFileSync(join(t.root, goalsPath), "utf8"));
    expect(items.find((it) => it.id === g)?.children).toEqual([]);
    expect(items.find((it) => it.text === "ship the new site")?.children.join("\n")).toContain(
      "home page designed",
    );
  });

  it("an item rejected for an id that names nothing yet leaves the journal unmarked, so a plain re-run tries again", async () => {
    const t = setup({ [J]: "# 2026-11-24\n\nProgress: home page designed [goal:: g-042]\n" });
    const first = await run(t);
    expect(first.plan.rejected.map((r) => r.retry)).toEqual([true]);
    expect(readFileSync(join(t.root, J), "utf8")).not.toMatch(/extraction_hash/);
    t.write("Memory/Agents/link/Trackers/Goals.md", `${goals}- [ ] The new site ^g-042\n`);
    const second = await run(t);
    expect(second.plan.skipped).toBeUndefined();
    expect(second.plan.items.map((p) => `${p.action}:${p.existingId ?? ""}`)).toEqual([
      "progress:g-042",
    ]);
    expect(readFileSync(join(t.root, J), "utf8")).toMatch(/extraction_hash/);
  });
});
