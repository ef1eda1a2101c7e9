// The warm index of the long-lived hosts (src/node/live-index.ts): a start reads the vault once.
import { afterEach, describe, expect, it, vi } from "vitest";
import { MemoryLayout } from "../../src/core/layout";
import { SearchService } from "../../src/core/search/search-service";
import { defaultSettings } from "../../src/core/settings";
import { LiveIndex } from "../../src/node/live-index";
import { tempVault } from "../helpers/temp-vault";

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function opened() {
  const tv = tempVault({
    "Memory/Agents/me/Journal/2026-03-02.md": "# 2026-03-02\n\n- [ ] Renew passport\n",
    "Memory/Library/ops/Staging.md": "# Staging\n\nThe staging DB is on port 5433.\n",
  });
  cleanups.push(tv.cleanup);
  const layout = new MemoryLayout(defaultSettings());
  const service = new SearchService({ vault: tv.vault, layout });
  const list = vi.spyOn(tv.vault, "list");
  const report = await service.open();
  const live = new LiveIndex(service, tv.vault, layout, { at: 0, source: report.source }, () => {});
  cleanups.push(() => live.close());
  return { report, live, list };
}

describe("LiveIndex.start", () => {
  it("takes the paths the index's open listed, and lists the vault no second time", async () => {
    const { report, live, list } = await opened();
    expect(list).toHaveBeenCalledTimes(1);
    await live.start(report.listed);
    expect(list).toHaveBeenCalledTimes(1);
    expect([...live.notePaths()].sort()).toEqual([
      "Memory/Agents/me/Journal/2026-03-02.md",
      "Memory/Library/ops/Staging.md",
    ]);
  });

  it("lists the vault itself when no listing is given", async () => {
    const { live, list } = await opened();
    await live.start();
    expect(list).toHaveBeenCalledTimes(2);
    expect([...live.notePaths()]).toContain("Memory/Library/ops/Staging.md");
  });
});
