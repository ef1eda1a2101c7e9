// One item date (itemDate in src/core/trackers/fields.ts): `decided`, else `created`, else a `date`
// a person wrote. The brief and the review note read it so already; supersession read only
// `decided`/`created` before (docs/decisions.md, "One item date"), so a line dated by `date` alone
// now counts as dated for docs/contradictions.md, "Out of order".
import { afterEach, describe, expect, it } from "vitest";
import { applyPlan, planExtraction } from "../../../src/core/extraction/pipeline";
import { OfflineExtractor } from "../../../src/core/extraction/offline";
import { MemoryLayout } from "../../../src/core/layout";
import { defaultSettings } from "../../../src/core/settings";
import { itemDate } from "../../../src/core/trackers/fields";
import { tempVault } from "../../helpers/temp-vault";

const settings = defaultSettings();
const layout = new MemoryLayout(settings);
const DECISIONS = "Memory/Agents/link/Trackers/Decisions.md";
const JOURNAL = "Memory/Agents/link/Journal/2026-03-05.md";

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

const f = (...pairs: [string, string][]) => ({
  fields: pairs.map(([key, value]) => ({ key, value })),
});

describe("itemDate", () => {
  it("is decided, else created, else a person's date, else null", () => {
    expect(itemDate(f(["created", "2026-03-01"], ["decided", "2026-03-02"]))).toBe("2026-03-02");
    expect(itemDate(f(["date", "2026-03-03"], ["created", "2026-03-01"]))).toBe("2026-03-01");
    expect(itemDate(f(["date", "2026-03-03"]))).toBe("2026-03-03");
    expect(itemDate(f(["due", "2026-03-04"]))).toBeNull();
  });

  it("gives the value as written, the last of a key written twice", () => {
    expect(itemDate(f(["Created", "last week"], ["created", "2026-03-01"]))).toBe("2026-03-01");
    expect(itemDate(f(["decided", "soon"]))).toBe("soon");
  });

  /** Plans the 2026-03-05 journal's decision against a logged one dated only by `[date:: …]`. */
  async function planAgainst(date: string) {
    const t = tempVault({
      [DECISIONS]: `# Decisions\n\n- [x] ship on Fridays [date:: ${date}] ^d-001\n`,
      [JOURNAL]: "# 2026-03-05\n\nDecision: do not ship on Fridays\n",
    });
    cleanup = t.cleanup;
    const now = () => new Date("2026-03-05T10:00:00Z");
    const plan = await planExtraction({
      vault: t.vault,
      settings,
      layout,
      journalPath: JOURNAL,
      extractor: new OfflineExtractor(),
      now,
    });
    const applied = await applyPlan(t.vault, layout, plan, now);
    expect(applied.failed).toEqual([]);
    return plan.items.filter((p) => p.tracker === "decisions").map((p) => p.action);
  }

  it("a decision dated by `date` before the journal is superseded by the journal's opposite", async () => {
    expect(await planAgainst("2026-03-04")).toEqual(["supersede"]);
  });

  it("a decision dated by `date` after the journal is newer: never superseded by it", async () => {
    expect(await planAgainst("2026-03-06")).toEqual(["add"]);
  });
});
