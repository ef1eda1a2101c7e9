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

describe("PlanReadCache.takenIds", () => {
  it("holds the note's block ids and the new ids planned for it, and no other note's", async () => {
    const TASKS = "Memory/Agents/link/Trackers/Tasks.md";
    const GOALS = "Memory/Agents/link/Trackers/Goals.md";
    const t = tempVault({ [TASKS]: "# Tasks\n\n- [ ] Send the draft ^t-k3f9x2m7qa\n" });
    cleanups.push(t.cleanup);
    const cache = new PlanReadCache(t.vault);
    const item = {
      category: "task" as const,
      text: "Book the room",
      evidence: "Book the room",
      blockId: null,
      blockIndex: 0,
      confidence: 1,
      origin: "offline" as const,
    };
    const before = await cache.takenIds(TASKS);
    expect([before.has("t-k3f9x2m7qa"), before.has("t-m2n4p6q8rs")]).toEqual([true, false]);
    cache.plan({ item, destination: TASKS, action: "add", newId: "t-m2n4p6q8rs" });
    // Asked for again after the plan, the set holds it.
    expect((await cache.takenIds(TASKS)).has("t-m2n4p6q8rs")).toBe(true);
    expect((await cache.takenIds(GOALS)).has("t-m2n4p6q8rs")).toBe(false);
    // A skipped item's id is no new id.
    cache.plan({ item, destination: TASKS, action: "skip", newId: "t-v7w8x9y0za" });
    expect((await cache.takenIds(TASKS)).has("t-v7w8x9y0za")).toBe(false);
  });
});
