import { afterEach, describe, expect, it } from "vitest";
import { PlanReadCache } from "../../../src/core/extraction/plan-cache";
import { MemoryLayout } from "../../../src/core/layout";
import { defaultSettings } from "../../../src/core/settings";
import type { VaultPort } from "../../../src/core/vault";
import { tempVault } from "../../helpers/temp-vault";

const settings = defaultSettings();
const layout = new MemoryLayout(settings);
const KNOWLEDGE = "Memory/Agents/link/Knowledge";

let cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});

// A second listing started and dropped rejected unobserved when the folder is a link out of the
// vault, which ended the CLI with a stack trace and the MCP server with it
// (test/cli/out-of-vault.process.test.ts).
describe("PlanReadCache.topics", () => {
  it("lists the knowledge folder once per plan, however often it is asked", async () => {
    const t = tempVault({ [`${KNOWLEDGE}/learning/API.md`]: "# API\n" });
    cleanups.push(t.cleanup);
    const listed: string[] = [];
    const counting = new Proxy(t.vault, {
      get(target, prop, receiver) {
        if (prop === "list")
          return (folder: string) => {
            listed.push(folder);
            return target.list(folder);
          };
        return Reflect.get(target, prop, receiver) as unknown;
      },
    }) as VaultPort;
    const cache = new PlanReadCache(counting);
    const first = await cache.topics(layout, "link");
    const second = await cache.topics(layout, "link");
    expect(listed).toEqual([KNOWLEDGE]);
    expect(second).toBe(first);
    expect([...first.values()]).toEqual([`${KNOWLEDGE}/learning/API.md`]);
  });
});
