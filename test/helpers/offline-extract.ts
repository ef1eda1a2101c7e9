// One offline extraction of a journal as the CLI's `extract` runs it (plan, then apply), for core
// tests on a temporary vault (test/helpers/temp-vault.ts).
import { applyPlan, planExtraction, type ExtractionPlan } from "../../src/core/extraction/pipeline";
import { OfflineExtractor } from "../../src/core/extraction/offline";
import { MemoryLayout } from "../../src/core/layout";
import { defaultSettings } from "../../src/core/settings";
import type { VaultPort } from "../../src/core/vault";

/**
 * Plans the offline extraction of `journalPath` with the default settings and writes it.
 * @returns the plan that was written
 */
export async function extractOffline(
  vault: VaultPort,
  journalPath: string,
  now: () => Date,
): Promise<ExtractionPlan> {
  const settings = defaultSettings();
  const layout = new MemoryLayout(settings);
  const plan = await planExtraction({
    vault,
    settings,
    layout,
    journalPath,
    extractor: new OfflineExtractor(),
    now,
  });
  await applyPlan(vault, layout, plan, now);
  return plan;
}
