// The session brief's core (docs/decisions.md, "The brief cuts by value, not by section") on the
// sample vault after extraction: sections and links, order, the token budget on both sides of a
// boundary, omissions, Chinese text.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SECTION_WEIGHT, buildBrief, type Brief, type BriefOptions } from "../../../src/core/brief";
import { UsageError } from "../../../src/core/errors";
import { MemoryLayout } from "../../../src/core/layout";
import { estimateTokens } from "../../../src/core/llm/tokens";
import { SearchService } from "../../../src/core/search/search-service";
import { defaultSettings } from "../../../src/core/settings";
import { buildCli, extractedSample } from "../../helpers/brief-vault";

const TODAY = "2026-12-01";
/** A new item id (docs/decisions.md, "Random item ids across clones"). */
const NEW_ID = /^[a-z]-[a-z][0-9a-z]{9}$/;
const settings = defaultSettings();
const layout = new MemoryLayout(settings);
let sample: ReturnType<typeof extractedSample>;
let search: SearchService;

beforeAll(async () => {
  buildCli();
  sample = extractedSample(["link", "ming", "me"]);
  search = new SearchService({ vault: sample.vault, layout });
  await search.open();
}, 120_000);
afterAll(() => sample.cleanup());

function brief(agent: string, extra: Partial<BriefOptions> = {}): Promise<Brief> {
  return buildBrief({
    vault: sample.vault,
    layout,
    settings,
    agent,
    today: TODAY,
    search,
    ...extra,
  });
}

/** Every item of every section, in display order. */
const itemsOf = (b: Brief) => b.sections.flatMap((s) => s.items);

describe("session brief", () => {
  it("lists each section with a link on every line to a block or note that exists", async () => {
    const b = await brief("link", { budgetTokens: 100_000 });
    for (const title of [
      "Due reviews",
      "Open tasks",
      "Open questions",
      "Goals",
      "Open proposals",
      "Recent decisions",
      "Recent knowledge",
    ]) {
      expect(b.markdown).toContain(`\n## ${title} (`);
    }
    // Extraction has just updated every topic note the journals name, so none may be stale here
    // (test/core/health/staleness.test.ts covers that section).
    for (const s of b.sections)
      if (s.kind !== "stale") expect(s.items.length, s.kind).toBeGreaterThan(0);
    const itemLines = b.markdown
      .split("\n")
      .filter((l) => l.startsWith("- ") && !b.omitted.some((o) => l.includes(o.how)));
    expect(itemLines).toHaveLength(itemsOf(b).length);
    for (const item of itemsOf(b)) {
      expect(b.markdown).toContain(item.line);
      expect(item.line.endsWith(` ${item.link}`)).toBe(true);
      const target = /^\[\[([^\]#]+)(?:#\^([^\]]+))?\]\]$/.exec(item.link);
      expect(target, item.link).not.toBeNull();
      const file = join(sample.root, `${target?.[1] ?? ""}.md`);
      expect(existsSync(file), file).toBe(true);
      if (target?.[2])
        expect(readFileSync(file, "utf8")).toMatch(new RegExp(`\\^${target[2]}\\s*$`, "m"));
      expect(item.link).toBe(
        target?.[2]
          ? `[[${item.path.replace(/\.md$/, "")}#^${item.id}]]`
          : `[[${item.path.replace(/\.md$/, "")}]]`,
      );
    }
  });

  it("orders open tasks overdue first, then by priority and due date, and leaves closed ones out", async () => {
    const b = await brief("link", { budgetTokens: 100_000 });
    const tasks = b.sections.find((s) => s.kind === "tasks")?.items ?? [];
    // Two tasks extraction adds (new random ids) are due 2026-11-21 and 2026-11-30 (both before
    // today); t-005 has priority high, t-001 medium. (Another new task is the one the "I need to ask
    // Ming …" phrasing finds in 2026-11-24; no due date.)
    expect(tasks.slice(0, 4).map((t) => t.id)).toEqual([
      expect.stringMatching(NEW_ID),
      expect.stringMatching(NEW_ID),
      "t-005",
      "t-001",
    ]);
    expect(tasks[0]).toMatchObject({ overdue: true, due: "2026-11-21" });
    expect(tasks[0]?.line).toContain("OVERDUE, due 2026-11-21");
    expect(tasks[3]).toMatchObject({ status: "in-progress", priority: "medium" });
    expect(tasks[2]?.line).toContain("due 2026-12-04; high priority");
    // Done (t-002, t-004) and abandoned (t-003) tasks are not open.
    expect(tasks.some((t) => ["t-002", "t-003", "t-004"].includes(t.id ?? ""))).toBe(false);
  });

  it("shows goals with their latest progress, the due review, and questions to and from the agent", async () => {
    const b = await brief("link", { budgetTokens: 100_000 });
    const goal = itemsOf(b).find((i) => i.id === "g-006" && i.kind === "goals");
    expect(goal?.latest).toMatch(/^2026-11-27: all 50 top pages scored/);
    expect(goal?.line).toContain("latest 2026-11-27: all 50 top pages scored");
    expect(
      itemsOf(b).some((i) => i.kind === "goals" && (i.id === "g-001" || i.id === "g-003")),
    ).toBe(false);
    const reviews = b.sections.find((s) => s.kind === "reviews")?.items ?? [];
    // r-001 was due 2026-11-27; r-002 is next due 2026-12-15.
    expect(reviews.map((r) => [r.id, r.daysOverdue])).toEqual([["r-001", 4]]);
    const questions = b.sections.find((s) => s.kind === "questions")?.items ?? [];
    const toLink = questions.filter((q) => q.direction === "to");
    expect(toLink.map((q) => `${q.counterpart} ${q.path}`)).toContain(
      "ming Memory/Agents/ming/Trackers/Questions.md",
    );
    // ming's q-001 to link is answered (done): not listed.
    expect(questions.some((q) => q.path.includes("/ming/") && q.id === "q-001")).toBe(false);
    expect(
      questions.find(
        (q) => q.direction === "from" && q.counterpart === "me" && NEW_ID.test(q.id ?? ""),
      ),
    ).toMatchObject({
      counterpart: "me",
      path: "Memory/Agents/link/Trackers/Questions.md",
    });
    // Questions to the agent come first.
    expect(questions.findIndex((q) => q.direction === "from")).toBe(toLink.length);
    const decisions = b.sections.find((s) => s.kind === "decisions")?.items ?? [];
    // The decision the "we agreed …" phrasing finds in 2026-11-24 gets a new random id too.
    expect(decisions[0]?.id).toMatch(NEW_ID);
    expect(decisions[0]).toMatchObject({ date: "2026-11-27" });
  });

  it("measures the Markdown with estimateTokens and never goes over the budget", async () => {
    for (const budget of [200, 350, 500, 800, 1200, 2000, 5000]) {
      const b = await brief("link", { budgetTokens: budget });
      expect(b.budget).toMatchObject({
        unit: "tokens",
        limit: budget,
        used: estimateTokens(b.markdown),
      });
      expect(b.budget.used).toBeLessThanOrEqual(budget);
    }
  });

  it("keeps a line at a budget just large enough for it and drops it, named, at one token less", async () => {
    const base = await brief("link", { budgetTokens: 600 });
    const kept = itemsOf(base);
    expect(kept.length).toBeGreaterThan(3);
    const exact = await brief("link", { budgetTokens: base.budget.used });
    expect(exact.markdown).toBe(base.markdown);
    const less = await brief("link", { budgetTokens: base.budget.used - 1 });
    expect(less.budget.used).toBeLessThan(base.budget.used);
    const lost = kept.filter((i) => !itemsOf(less).some((j) => j.line === i.line));
    expect(lost.length).toBeGreaterThan(0);
    for (const item of lost) {
      expect(less.markdown).not.toContain(item.line);
      const section = less.sections.find((s) => s.kind === item.kind);
      const omission = less.omitted.find((o) => o.section === item.kind);
      expect(omission?.count).toBe((section?.total ?? 0) - (section?.items.length ?? 0));
      expect(less.markdown).toContain(`- ${omission?.what} not shown: \`${omission?.how}\``);
    }
    // The one dropped first is the lowest-value line: the last one shown of its section.
    const first = lost[0];
    const before = base.sections.find((s) => s.kind === first?.kind)?.items ?? [];
    expect(before[before.length - 1]?.line).toBe(first?.line);
  });

  it("cuts the lowest-value lines first: the tail of every section before the head of any", async () => {
    const full = await brief("link", { budgetTokens: 100_000 });
    const b = await brief("link", { budgetTokens: 700 });
    expect(b.omitted.length).toBeGreaterThan(0);
    // Every section that has lines keeps its first one at this budget; tasks (12) lose their tail.
    // Extraction has just updated every topic note the journals name, so none may be stale here
    // (test/core/health/staleness.test.ts covers that section).
    for (const s of b.sections)
      if (s.kind !== "stale") expect(s.items.length, s.kind).toBeGreaterThan(0);
    expect(b.sections.find((s) => s.kind === "tasks")?.items.length).toBeLessThan(12);
    const value = (kind: keyof typeof SECTION_WEIGHT, rank: number) =>
      SECTION_WEIGHT[kind] / (1 + rank);
    const keptValues = b.sections.flatMap((s) => s.items.map((_, r) => value(s.kind, r)));
    const cutValues = full.sections.flatMap((s) =>
      s.items
        .map((_, r) => value(s.kind, r))
        .slice(b.sections.find((x) => x.kind === s.kind)?.items.length ?? 0),
    );
    expect(cutValues.length).toBeGreaterThan(0);
    expect(Math.min(...keptValues)).toBeGreaterThanOrEqual(Math.max(...cutValues));
  });

  it("names what it left out with the command that lists it, never silently", async () => {
    const b = await brief("link", { budgetTokens: 400, vaultLabel: "/vaults/my vault" });
    const shown = new Map(b.sections.map((s) => [s.kind, s.items.length]));
    for (const s of b.sections) {
      const o = b.omitted.find((x) => x.section === s.kind);
      if (s.items.length < s.total) expect(o?.count, s.kind).toBe(s.total - s.items.length);
      else expect(o, s.kind).toBeUndefined();
    }
    const decisions = b.omitted.find((o) => o.section === "decisions");
    expect(decisions?.how).toBe(
      "agent-memory trackers '/vaults/my vault' --agent link --kind decisions",
    );
    expect(decisions?.what).toMatch(
      shown.get("decisions") ? /^\d+ older decisions?$/ : /^\d+ decisions?$/,
    );
    // Questions to link live in other agents' trackers: the command lists every agent's.
    const questions = b.omitted.find((o) => o.section === "questions");
    if (questions)
      expect(questions.how).toBe("agent-memory trackers '/vaults/my vault' --kind questions");
    const knowledge = b.omitted.find((o) => o.section === "knowledge");
    expect(knowledge?.how).toMatch(
      /^agent-memory search '\/vaults\/my vault' 'path:Memory\/Agents\/link\/Knowledge\/ path:Memory\/Library\/' --scope agent:link --limit \d+$/,
    );
  });

  it("ranks knowledge by the search for the query, and says when no search was given", async () => {
    const b = await brief("link", { query: "image compression", budgetTokens: 100_000 });
    const knowledge = b.sections.find((s) => s.kind === "knowledge");
    expect(knowledge?.title).toBe("Knowledge");
    expect(knowledge?.items[0]?.path).toBe("Memory/Agents/link/Knowledge/learning/Page speed.md");
    expect(knowledge?.items[0]?.text).toContain("image compression happens in the CMS upload step");
    expect(
      knowledge?.items.every(
        (i) =>
          i.path.startsWith("Memory/Agents/link/Knowledge/") ||
          i.path.startsWith("Memory/Library/"),
      ),
    ).toBe(true);
    const scores = knowledge?.items.map((i) => i.score ?? 0) ?? [];
    expect([...scores].sort((x, y) => y - x)).toEqual(scores);
    expect(b.markdown).toContain("Knowledge searched for: image compression");

    const none = await buildBrief({
      vault: sample.vault,
      layout,
      settings,
      agent: "link",
      today: TODAY,
    });
    expect(none.sections.find((s) => s.kind === "knowledge")?.items).toEqual([]);
    expect(none.omitted.find((o) => o.section === "knowledge")?.what).toContain(
      "no search index was given",
    );
  });

  it("takes a search function as well as the service", async () => {
    const calls: string[] = [];
    const b = await brief("link", {
      search: (q, o) => (calls.push(`${q} | ${o.scope}`), search.search(q, o)),
      budgetTokens: 100_000,
    });
    expect(calls).toEqual(["path:Memory/Agents/link/Knowledge/ path:Memory/Library/ | agent:link"]);
    expect(b.sections.find((s) => s.kind === "knowledge")?.items.length).toBeGreaterThan(0);
  });

  it("handles Chinese text: CJK characters count one token each, and the budget holds", async () => {
    const b = await brief("ming", { query: "续费", budgetTokens: 100_000 });
    const tasks = b.sections.find((s) => s.kind === "tasks")?.items ?? [];
    expect(tasks[0]?.text).toBe("给要求降级的 2 家客户准备功能对比表");
    expect(tasks[0]?.link).toMatch(
      /^\[\[Memory\/Agents\/ming\/Trackers\/Tasks#\^t-[a-z][0-9a-z]{9}\]\]$/,
    );
    expect(b.markdown).toContain("latest 2026-11-26: A 类续费率");
    expect(
      itemsOf(b).some(
        (i) => i.kind === "knowledge" && i.path === "Memory/Library/客户运营/续费流程.md",
      ),
    ).toBe(true);
    // A line of Chinese text costs about four times what its length would suggest in ASCII.
    expect(estimateTokens(tasks[0]?.line ?? "")).toBeGreaterThan(
      (tasks[0]?.line.length ?? 0) / 4 + 10,
    );
    for (const budget of [300, 700]) {
      const cut = await brief("ming", { query: "续费", budgetTokens: budget });
      expect(cut.budget.used).toBe(estimateTokens(cut.markdown));
      expect(cut.budget.used).toBeLessThanOrEqual(budget);
      expect(cut.omitted.length).toBeGreaterThan(0);
    }
  });

  it("refuses a budget that is not a positive whole number, two budgets, or one too small to say what is left out", async () => {
    await expect(brief("link", { budgetTokens: 0 })).rejects.toThrow(UsageError);
    await expect(brief("link", { budgetTokens: 1.5 })).rejects.toThrow(UsageError);
    await expect(brief("link", { budgetTokens: 100, budgetBytes: 100 })).rejects.toThrow(
      /not both/,
    );
    await expect(brief("link", { budgetTokens: 20 })).rejects.toThrow(
      /too small for this brief.*need \d+/,
    );
  });

  it("counts UTF-8 bytes when given a byte budget, header included", async () => {
    const header = ["<!-- mark -->"];
    for (const budget of [1500, 4000]) {
      const b = await brief("ming", { budgetBytes: budget, header });
      expect(b.budget).toMatchObject({
        unit: "bytes",
        limit: budget,
        used: new TextEncoder().encode(b.markdown).length,
      });
      expect(b.budget.used).toBeLessThanOrEqual(budget);
      expect(b.markdown.startsWith("<!-- mark -->\n# Session brief: ming, 2026-12-01\n")).toBe(
        true,
      );
    }
  });
});
