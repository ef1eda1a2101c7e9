// Passage search (docs/architecture.md, "Passages"): SearchService.searchPassages on real temporary
// vaults — blocks ranked across notes, limits, scopes and isolated zones, filters, blocks without
// ids, the neighbour rule (docs/decisions.md, "Passage search").
import { afterEach, describe, expect, it } from "vitest";
import { tempVault } from "../../helpers/temp-vault";
import { MemoryLayout } from "../../../src/core/layout";
import { defaultSettings } from "../../../src/core/settings";
import {
  passageLink,
  SearchService,
  type PassageOptions,
  type PassageResponse,
} from "../../../src/core/search/search-service";

const NOW = Date.parse("2026-12-01T12:00:00Z");

let cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});

async function open(files: Record<string, string>): Promise<SearchService> {
  const tv = tempVault(files);
  cleanups.push(tv.cleanup);
  const service = new SearchService({
    vault: tv.vault,
    layout: new MemoryLayout(defaultSettings()),
    now: () => NOW,
  });
  await service.open();
  return service;
}

async function passages(
  service: SearchService,
  query: string,
  options: PassageOptions = {},
): Promise<PassageResponse> {
  const r = await service.searchPassages(query, options);
  if (!r.ok) throw new Error(r.error);
  return r.value;
}

/** `path#^id` (or `path:line` for a block without an id) of each passage, best first. */
async function refs(
  service: SearchService,
  query: string,
  options: PassageOptions = {},
): Promise<string[]> {
  return (await passages(service, query, options)).results.map((p) =>
    p.blockId ? `${p.path}#^${p.blockId}` : `${p.path}:${p.line}`,
  );
}

const DEPLOYS = "Memory/Library/ops/Deploys.md";
const JOURNAL = "Memory/Agents/link/Journal/2026-11-20.md";
const MING = "Memory/Agents/ming/Journal/2026-11-21.md";
const SECRET = "Memory/Restricted/hr/Incidents.md";

/**
 * A journal with two blocks about canary rollbacks (one strong, one weaker) among filler, and a
 * library note with one block between them in strength.
 */
const CROSS = {
  [DEPLOYS]:
    "# Deploys\n\nRoll back the canary when the canary error rate doubles: canary rollback first, questions later. ^a1\n\nLunch is at noon on Fridays. ^a2\n\nThe release train leaves on Tuesdays. ^a3\n",
  [JOURNAL]:
    "---\ntype: journal\n---\nToday the canary rollback worked, canary rollback in two minutes. ^b1\n\nThe coffee machine is broken. ^b2\n\nThe printer is out of toner. ^b3\n\nNext time the rollback starts sooner. ^b4\n",
};

describe("searchPassages: ranking across notes", () => {
  it("a note with two good blocks supplies both, and a better block of another note ranks between them", async () => {
    const service = await open(CROSS);
    const res = await passages(service, "canary rollback");
    expect(res.results.slice(0, 3).map((p) => `${p.path}#^${p.blockId}`)).toEqual([
      `${JOURNAL}#^b1`,
      `${DEPLOYS}#^a1`,
      `${JOURNAL}#^b4`,
    ]);
    // Ranked together: scores fall, whichever note holds the block.
    const scores = res.results.map((p) => p.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(res.total).toBe(2);
  });

  it("each passage carries path, title, block id, text, score, agent, collection, file line, heading and link", async () => {
    const service = await open(CROSS);
    const [second, first] = (await passages(service, "canary rollback")).results;
    expect(first).toEqual({
      path: DEPLOYS,
      title: "Deploys",
      blockId: "a1",
      line: 3,
      heading: "Deploys",
      text: "Roll back the canary when the canary error rate doubles: canary rollback first, questions later.",
      score: first?.score,
      agent: null,
      collection: "library",
      link: "[[Memory/Library/ops/Deploys#^a1]]",
    });
    expect(first?.score).toBeGreaterThan(0);
    expect(second).toMatchObject({
      path: JOURNAL,
      title: "2026-11-20",
      blockId: "b1",
      line: 4,
      heading: null,
      agent: "link",
      collection: "journal",
      link: "[[Memory/Agents/link/Journal/2026-11-20#^b1]]",
    });
  });

  it("respects the limit on both sides: exactly N when more match, only what matches when fewer do", async () => {
    const service = await open(CROSS);
    expect(await refs(service, "canary rollback", { limit: 1 })).toEqual([`${JOURNAL}#^b1`]);
    expect(await refs(service, "canary rollback", { limit: 2 })).toEqual([
      `${JOURNAL}#^b1`,
      `${DEPLOYS}#^a1`,
    ]);
    // Three blocks hold the words, and their neighbours score through them (docs/decisions.md,
    // "Passage search"); a block with no score at all (a3: not next to a match) is never padding.
    const many = await passages(service, "canary rollback", { limit: 50 });
    expect(many.results.map((p) => p.blockId)).toEqual(["b1", "a1", "b4", "b2", "a2", "b3"]);
    expect(many.results.every((p) => p.score > 0)).toBe(true);
    // 0 asks for no passages, only the total.
    const none = await passages(service, "canary rollback", { limit: 0 });
    expect(none.results).toEqual([]);
    expect(none.total).toBe(2);
  });

  it("a block without the query's words right after a matching one is found through its neighbour (a reply)", async () => {
    const service = await open({
      [JOURNAL]: [
        "Did anyone fix the flaky login test? ^q1",
        "",
        "Yes: it was a race in the setup, now awaited. ^r1",
        "",
        "Printer toner ordered. ^p1",
        "",
      ].join("\n"),
    });
    const res = await passages(service, "flaky login test");
    expect(res.results.map((p) => p.blockId)).toEqual(["q1", "r1"]);
    // The reply gets a share of the question's score, less than the question's own.
    expect(res.results[1]?.score).toBeLessThan(res.results[0]?.score ?? 0);
  });

  it("heading blocks are never passages, and a section's heading never lends to the section before it", async () => {
    const service = await open({
      [DEPLOYS]:
        "# Kubernetes\n\nPods restart on failure.\n\n## Billing\n\nInvoices go out monthly.\n\n## Kubernetes upgrades\n\nPlan them quarterly.\n",
    });
    const res = await passages(service, "kubernetes");
    expect(res.results.map((p) => p.text)).toEqual([
      "Pods restart on failure.",
      "Plan them quarterly.",
    ]);
    expect(res.results.map((p) => p.heading)).toEqual(["Kubernetes", "Kubernetes upgrades"]);
  });
});

describe("searchPassages: scopes, isolated zones and filters", () => {
  const FILES = {
    [JOURNAL]: "---\ntype: journal\n---\nThe zebrafish migration moved the billing tables. ^j1\n",
    [MING]:
      "---\ntype: decision\nstatus: active\n---\nZebrafish migration approved for December. ^m1\n",
    [DEPLOYS]:
      "---\ntype: reference\nexpires_at: 2026-11-30\n---\nZebrafish migration runbook, expired copy. ^x1\n",
    "Memory/Library/ops/Runbook.md":
      "---\ntype: reference\n---\nZebrafish migration runbook, step by step. ^l1\n",
    [SECRET]:
      "Zebrafish migration zebrafish migration zebrafish migration: the payroll incident. ^s1\n",
  };

  it("an isolated note's blocks never appear in another scope, and its zone sees only itself", async () => {
    const service = await open(FILES);
    for (const scope of ["all", "library", "agent:link", "agent:ming"]) {
      const res = await passages(service, "zebrafish migration", { scope, limit: 50 });
      expect(res.results.length).toBeGreaterThan(0);
      expect(res.results.map((p) => p.path)).not.toContain(SECRET);
    }
    expect(await refs(service, "zebrafish migration", { scope: "Restricted" })).toEqual([
      `${SECRET}#^s1`,
    ]);
  });

  it("agent and library scopes keep to their notes", async () => {
    const service = await open(FILES);
    expect(
      new Set(
        (await passages(service, "zebrafish migration", { scope: "agent:link" })).results.map(
          (p) => p.path,
        ),
      ),
    ).toEqual(new Set([JOURNAL, "Memory/Library/ops/Runbook.md"]));
    expect(
      (await passages(service, "zebrafish migration", { scope: "library" })).results.map(
        (p) => p.path,
      ),
    ).toEqual(["Memory/Library/ops/Runbook.md"]);
  });

  it("filters, phrases and expiry apply as in search", async () => {
    const service = await open(FILES);
    expect(await refs(service, "zebrafish migration type:decision")).toEqual([`${MING}#^m1`]);
    expect(await refs(service, "zebrafish -type:decision -type:reference")).toEqual([
      `${JOURNAL}#^j1`,
    ]);
    expect(await refs(service, 'zebrafish "step by step"')).toEqual([
      "Memory/Library/ops/Runbook.md#^l1",
    ]);
    // The expired note is left out unless asked for.
    expect(await refs(service, "runbook")).toEqual(["Memory/Library/ops/Runbook.md#^l1"]);
    expect(new Set(await refs(service, "runbook", { includeExpired: true }))).toEqual(
      new Set(["Memory/Library/ops/Runbook.md#^l1", `${DEPLOYS}#^x1`]),
    );
  });

  it("with a quoted phrase, only blocks holding it are passages, as search lists blocks", async () => {
    const service = await open({
      "Memory/Library/a/Deploys.md":
        "# Deploys\n\nThe canary rollout starts on Monday. ^d1\n\nRollout of the canary is slow, and canary pages roll out later. ^d2\n",
    });
    expect(await refs(service, '"canary rollout"')).toEqual(["Memory/Library/a/Deploys.md#^d1"]);
    // The other side: the same words unquoted find both blocks.
    expect(new Set(await refs(service, "canary rollout"))).toEqual(
      new Set(["Memory/Library/a/Deploys.md#^d1", "Memory/Library/a/Deploys.md#^d2"]),
    );
  });

  it("a query of filters alone gives the first block of each matching note, newest first, score 0", async () => {
    const service = await open({
      "Memory/Library/a/Old.md":
        "---\ntype: reference\ncreated_at: 2026-01-01\n---\n# Old\n\nFirst old block.\n\nSecond old block.\n",
      "Memory/Library/a/New.md":
        "---\ntype: reference\ncreated_at: 2026-06-01\n---\nFirst new block. ^n1\n",
      "Memory/Library/a/Other.md": "---\ntype: journal\n---\nNot a reference.\n",
    });
    const res = await passages(service, "type:reference");
    expect(res.total).toBe(2);
    expect(res.results.map((p) => [p.text, p.score])).toEqual([
      ["First new block.", 0],
      ["First old block.", 0],
    ]);
    expect(await refs(service, "type:reference", { limit: 1 })).toEqual([
      "Memory/Library/a/New.md#^n1",
    ]);
  });

  it("a bad filter, a bad date or an unknown scope is an error value", async () => {
    const service = await open(FILES);
    expect(await service.searchPassages("zebrafish colour:red")).toMatchObject({ ok: false });
    expect(await service.searchPassages("zebrafish after:2026-02-30")).toMatchObject({ ok: false });
    expect(await service.searchPassages("zebrafish", { scope: "Nowhere" })).toMatchObject({
      ok: false,
      error: expect.stringContaining("unknown scope") as unknown,
    });
  });
});

describe("searchPassages: blocks without ids", () => {
  it("are placed by their 1-based line in the file (frontmatter counted) and linked to their heading", async () => {
    const path = "Memory/Library/a/Pricing.md";
    const service = await open({
      [path]: [
        "---",
        "type: reference",
        "---",
        "Seats are billed monthly before any heading.",
        "",
        "## Plans: seats & billing",
        "",
        "- Team plan: seats billed per month",
        "  with a yearly discount",
        "",
        "Seats with an id. ^s-1",
        "",
      ].join("\n"),
    });
    const res = await passages(service, "seats billed", { limit: 10 });
    const byLine = new Map(res.results.map((p) => [p.line, p]));
    expect(byLine.get(4)).toMatchObject({
      blockId: null,
      heading: null,
      text: "Seats are billed monthly before any heading.",
      link: "[[Memory/Library/a/Pricing]]",
    });
    // Obsidian drops `:` (and `[]|#^`) from a heading link; the list item keeps its indented line.
    expect(byLine.get(8)).toMatchObject({
      blockId: null,
      heading: "Plans: seats & billing",
      text: "- Team plan: seats billed per month\n  with a yearly discount",
      link: "[[Memory/Library/a/Pricing#Plans seats & billing]]",
    });
    expect(byLine.get(11)).toMatchObject({
      blockId: "s-1",
      link: "[[Memory/Library/a/Pricing#^s-1]]",
    });
  });

  it("passageLink: by id, else by heading, else the note", () => {
    expect(passageLink("A/B.md", "x1", "H")).toBe("[[A/B#^x1]]");
    expect(passageLink("A/B.md", null, "Q&A: [draft] #2")).toBe("[[A/B#Q&A draft 2]]");
    expect(passageLink("A/B.md", null, null)).toBe("[[A/B]]");
    expect(passageLink("A/B.md", null, " :: ")).toBe("[[A/B]]");
  });
});
