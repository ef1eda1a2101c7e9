// promote note#^block records where the copy came from in the library note's frontmatter, as a
// whole note's copy does (src/core/library/promote.ts; docs/inbox.md).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { applyPromotion, planPromotion } from "../../../src/core/library/promote";
import { parseNote } from "../../../src/core/frontmatter";
import { MemoryLayout } from "../../../src/core/layout";
import { defaultSettings } from "../../../src/core/settings";
import { tempVault } from "../../helpers/temp-vault";

const layout = new MemoryLayout(defaultSettings());
const KNOW = "Memory/Agents/link/Knowledge/learning/SEO audit.md";
const LIB = "Memory/Library/SEO/SEO audit.md";
const NOTE =
  "---\ntype: knowledge\n---\n# SEO audit\n\n## Insights\n\n" +
  "> [!insight] 2026-11-02 · confidence 0.8\n> Slow pages lose clicks.\n^ins-1\n\n" +
  "> [!insight] 2026-11-10 · confidence 0.9\n> Canonicals point at the old URL. ^ins-2\n";

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

async function promote(t: ReturnType<typeof tempVault>, target: string, date: string) {
  const plan = await planPromotion(t.vault, layout, {
    target,
    area: "SEO",
    date,
    timestamp: `${date}T10:00:00Z`,
  });
  return applyPromotion(t.vault, plan, `${date}T10:00:00Z`);
}

describe("promote of a callout", () => {
  it("records promoted_from and promoted_at in the library note's frontmatter, one link per callout", async () => {
    const t = tempVault({ [KNOW]: NOTE });
    cleanup = t.cleanup;
    await promote(t, `${KNOW}#^ins-1`, "2026-12-01");
    const first = parseNote(readFileSync(join(t.root, LIB), "utf8"), LIB).data;
    expect(first).toMatchObject({
      type: "library",
      promoted_from: ["[[Memory/Agents/link/Knowledge/learning/SEO audit#^ins-1]]"],
      promoted_at: "2026-12-01",
    });
    await promote(t, `${KNOW}#^ins-2`, "2026-12-03");
    const text = readFileSync(join(t.root, LIB), "utf8");
    expect(parseNote(text, LIB).data).toMatchObject({
      promoted_from: [
        "[[Memory/Agents/link/Knowledge/learning/SEO audit#^ins-1]]",
        "[[Memory/Agents/link/Knowledge/learning/SEO audit#^ins-2]]",
      ],
      promoted_at: "2026-12-03",
    });
    expect(text).toContain(
      'promoted_from: ["[[Memory/Agents/link/Knowledge/learning/SEO audit#^ins-1]]", "[[Memory/Agents/link/Knowledge/learning/SEO audit#^ins-2]]"]',
    );
    // Promoting the same callout again writes nothing.
    expect(await promote(t, `${KNOW}#^ins-1`, "2026-12-05")).toEqual([]);
    expect(readFileSync(join(t.root, LIB), "utf8")).toBe(text);
  });
});
