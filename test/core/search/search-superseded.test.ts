// Superseded entries rank lower (docs/contradictions.md): a callout or tracker line marked
// `[superseded_by:: …]` scores half, whichever comes first in the note.
import { afterEach, describe, expect, it } from "vitest";
import { tempVault } from "../../helpers/temp-vault";
import { MemoryLayout } from "../../../src/core/layout";
import { defaultSettings } from "../../../src/core/settings";
import { SearchService } from "../../../src/core/search/search-service";
import { blockRankFactor, DEMOTED_FACTOR } from "../../../src/core/search/ranking";
import { splitSearchBlocks } from "../../../src/core/search/blocks";

const NOW = Date.parse("2026-12-01T12:00:00Z");
const TOPIC = "Memory/Agents/link/Knowledge/learning/API.md";
const DECISIONS = "Memory/Agents/link/Trackers/Decisions.md";

let cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});

async function blockIds(files: Record<string, string>, query: string): Promise<string[]> {
  const tv = tempVault(files);
  cleanups.push(tv.cleanup);
  const service = new SearchService({
    vault: tv.vault,
    layout: new MemoryLayout(defaultSettings()),
    now: () => NOW,
  });
  await service.open();
  const r = await service.searchPassages(query, {});
  if (!r.ok) throw new Error(r.error);
  return r.value.results.map((p) => p.blockId ?? `line ${p.line}`);
}

const OLD =
  "> [!insight] 2026-03-02 · confidence 0.9\n> API rate limit is 100 per second\n> Source: [[J1#^am-aaaa]]\n> [valid_to:: 2026-03-09] [superseded_by:: [[API#^c-0new]]]\n\n^c-0old\n";
const NEW =
  "> [!insight] 2026-03-09 · confidence 0.9\n> API rate limit is 200 per second\n> Source: [[J2#^am-bbbb]]\n> [supersedes:: [[API#^c-0old]]]\n\n^c-0new\n";

describe("search ranks superseded entries lower", () => {
  it("the factor: half for a superseded entry, 1 otherwise", () => {
    expect(blockRankFactor(OLD)).toBe(DEMOTED_FACTOR);
    expect(blockRankFactor("- [x] ship on Fridays [valid_to:: 2026-03-09] ^d-001")).toBe(
      DEMOTED_FACTOR,
    );
    expect(blockRankFactor(NEW)).toBe(1);
    expect(blockRankFactor("API rate limit is 100 per second")).toBe(1);
  });

  it("a callout's id after one blank line is its block id", () => {
    expect(splitSearchBlocks(OLD).map((b) => b.id)).toEqual(["c-0old"]);
  });

  it("the current callout first, whether the superseded one comes before or after it in the note", async () => {
    expect(
      await blockIds(
        { [TOPIC]: `# API\n\n## Insights\n\n${OLD}\n${NEW}` },
        "API rate limit per second",
      ),
    ).toEqual(["c-0new", "c-0old"]);
    expect(
      await blockIds(
        { [TOPIC]: `# API\n\n## Insights\n\n${NEW}\n${OLD}` },
        "API rate limit per second",
      ),
    ).toEqual(["c-0new", "c-0old"]);
  });

  it("the current decision line first, in both orders", async () => {
    const old =
      "- [x] ship on Fridays [valid_to:: 2026-03-09] [superseded_by:: [[Decisions#^d-002]]] ^d-001";
    const current = "- [x] do not ship on Fridays [supersedes:: [[Decisions#^d-001]]] ^d-002";
    expect(
      await blockIds({ [DECISIONS]: `# Decisions\n\n${old}\n\n${current}\n` }, "ship Fridays"),
    ).toEqual(["d-002", "d-001"]);
    expect(
      await blockIds({ [DECISIONS]: `# Decisions\n\n${current}\n\n${old}\n` }, "ship Fridays"),
    ).toEqual(["d-002", "d-001"]);
  });
});
