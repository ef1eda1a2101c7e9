// The staleness cache (src/core/health/stale-cache.ts; docs/decisions.md, "The brief keeps what
// each note gave the staleness scan"): with a cache, `staleTopicsOf` gives what it gives without
// one, reads no note that is unchanged since the cache was saved, and any change of a note it
// depends on (a topic's date, terms or citations, a journal's text, a note added or removed) is
// seen on the next run.
import { rmSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { staleTopicsOf, type StaleCacheStore } from "../../../src/core/health/stale-rules";
import { parseStaleCache } from "../../../src/core/health/stale-cache";
import { buildBrief } from "../../../src/core/brief";
import { MemoryLayout } from "../../../src/core/layout";
import { defaultSettings } from "../../../src/core/settings";
import type { VaultPort } from "../../../src/core/vault";
import { rng } from "../../../bench/lib/synthetic-vault";
import { tempVault } from "../../helpers/temp-vault";

const settings = defaultSettings();
const layout = new MemoryLayout(settings);
const A = "Memory/Agents/ada";
const TODAY = "2026-11-30";

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

/** A store in memory, counting saves. */
function memoryStore(key = "k"): StaleCacheStore & { text: string | null; saves: number } {
  const store = {
    key,
    text: null as string | null,
    saves: 0,
    load: () => Promise.resolve(store.text),
    save: (text: string) => {
      store.text = text;
      store.saves++;
      return Promise.resolve();
    },
  };
  return store;
}

/** `vault` with its reads counted. */
function counting(vault: VaultPort): VaultPort & { reads: string[] } {
  const reads: string[] = [];
  return Object.assign(Object.create(vault) as VaultPort, {
    reads,
    read: (path: string) => {
      reads.push(path);
      return vault.read(path);
    },
    list: (folder?: string) => vault.list(folder),
  });
}

const topic = (name: string, updated: string, extra = "") =>
  `---\ntype: knowledge\nstatus: active\ncreated_at: 2026-10-01\nupdated_at: ${updated}\n${extra}---\n# ${name}\n\nAbout ${name}.\n`;

/** A vault whose files get strictly increasing mtimes, so every write is seen as a change. */
function scene(files: Record<string, string>) {
  const t = tempVault();
  cleanup = t.cleanup;
  let clock = Date.parse("2026-11-01T00:00:00Z") / 1000;
  const write = (path: string, text: string) => {
    t.write(path, text);
    clock += 10;
    utimesSync(join(t.root, path), clock, clock);
  };
  for (const [path, text] of Object.entries(files)) write(path, text);
  return { ...t, write, remove: (path: string) => rmSync(join(t.root, path)) };
}

const base = (): Record<string, string> => ({
  [`${A}/Knowledge/web/Page speed.md`]: topic("Page speed", "2026-11-10", "aliases: [LCP]\n"),
  [`${A}/Knowledge/web/Fonts.md`]: topic("Fonts", "2026-11-01"),
  "Memory/Library/Ops/Deploys.md": topic("Deploys", "2026-11-05").replace("knowledge", "library"),
  [`${A}/Journal/2026-11-12.md`]:
    "# d\n\nThe page speed budget moved to 2.0 s. ^am-ps01\n\nFonts load late. ^am-f001\n",
  [`${A}/Journal/2026-11-13.md`]: "# d\n\n## Ops\n\nDeploys run at noon now.\n",
  [`${A}/Journal/2026-11-02.md`]: "# d\n\nNothing about anything.\n",
});

describe("the staleness cache", () => {
  it("gives what no cache gives and reads nothing unchanged the second time", async () => {
    const t = scene(base());
    const plain = await staleTopicsOf(t.vault, layout, "ada", TODAY);
    expect(plain.map((s) => s.path)).toEqual([
      `${A}/Knowledge/web/Fonts.md`,
      `${A}/Knowledge/web/Page speed.md`,
      "Memory/Library/Ops/Deploys.md",
    ]);
    const store = memoryStore();
    const first = counting(t.vault);
    expect(await staleTopicsOf(first, layout, "ada", TODAY, [], store)).toEqual(plain);
    expect(first.reads.length).toBe(6);
    expect(store.saves).toBe(1);
    const second = counting(t.vault);
    expect(await staleTopicsOf(second, layout, "ada", TODAY, [], store)).toEqual(plain);
    expect(second.reads).toEqual([]);
    expect(store.saves).toBe(1);
    // One journal edited: that one is read, and the cache saved again, so the next run reads none.
    t.write(`${A}/Journal/2026-11-13.md`, "# d\n\n## Ops\n\nDeploys run at ten now.\n");
    const third = counting(t.vault);
    await staleTopicsOf(third, layout, "ada", TODAY, [], store);
    expect(third.reads).toEqual([`${A}/Journal/2026-11-13.md`]);
    const fourth = counting(t.vault);
    await staleTopicsOf(fourth, layout, "ada", TODAY, [], store);
    expect(fourth.reads).toEqual([]);
  });

  it("sees a topic updated after the mention, a journal edited, added or removed", async () => {
    const t = scene(base());
    const store = memoryStore();
    const run = async () => {
      const cached = await staleTopicsOf(t.vault, layout, "ada", TODAY, [], store);
      expect(cached).toEqual(await staleTopicsOf(t.vault, layout, "ada", TODAY));
      return cached.map((s) => `${s.title}: ${s.blocks.map((b) => b.link).join(" ")}`);
    };
    expect(await run()).toEqual([
      `Fonts: [[${A}/Journal/2026-11-12#^am-f001]]`,
      `Page speed: [[${A}/Journal/2026-11-12#^am-ps01]]`,
      `Deploys: [[${A}/Journal/2026-11-13#Ops]]`,
    ]);
    t.write(`${A}/Knowledge/web/Fonts.md`, topic("Fonts", "2026-11-20"));
    expect(await run()).toEqual([
      `Page speed: [[${A}/Journal/2026-11-12#^am-ps01]]`,
      `Deploys: [[${A}/Journal/2026-11-13#Ops]]`,
    ]);
    t.write(`${A}/Journal/2026-11-13.md`, "# d\n\n## Ops\n\nNo release today.\n");
    expect(await run()).toEqual([`Page speed: [[${A}/Journal/2026-11-12#^am-ps01]]`]);
    t.write(`${A}/Journal/2026-11-25.md`, "# d\n\nLCP is 2.4 s on mobile. ^am-l001\n");
    expect(await run()).toEqual([
      `Page speed: [[${A}/Journal/2026-11-12#^am-ps01]] [[${A}/Journal/2026-11-25#^am-l001]]`,
    ]);
    t.remove(`${A}/Journal/2026-11-12.md`);
    expect(await run()).toEqual([`Page speed: [[${A}/Journal/2026-11-25#^am-l001]]`]);
  });

  it("scans the journals again for a topic's new term, and sees a new citation", async () => {
    const t = scene(base());
    const store = memoryStore();
    const run = () => staleTopicsOf(t.vault, layout, "ada", TODAY, [], store);
    await run();
    t.write(`${A}/Knowledge/web/Deploy windows.md`, topic("Deploy windows", "2026-11-01"));
    t.write(`${A}/Journal/2026-11-14.md`, "# d\n\nThe deploy windows moved. ^am-d001\n");
    expect((await run()).map((s) => s.title)).toContain("Deploy windows");
    // An alias no journal was scanned for: the old journals are read again and it is found.
    t.write(
      `${A}/Knowledge/web/Deploy windows.md`,
      topic("Deploy windows", "2026-11-01", "aliases: [noon]\n"),
    );
    const reader = counting(t.vault);
    const found = await staleTopicsOf(reader, layout, "ada", TODAY, [], store);
    expect(found).toEqual(await staleTopicsOf(t.vault, layout, "ada", TODAY));
    expect(reader.reads).toContain(`${A}/Journal/2026-11-13.md`);
    expect(found.find((s) => s.title === "Deploy windows")?.blocks.map((b) => b.link)).toEqual([
      `[[${A}/Journal/2026-11-13#Ops]]`,
      `[[${A}/Journal/2026-11-14#^am-d001]]`,
    ]);
    // The note now cites the block it was updated from: that block no longer counts.
    t.write(
      `${A}/Knowledge/web/Deploy windows.md`,
      `${topic("Deploy windows", "2026-11-01", "aliases: [noon]\n")}> Source: [[${A}/Journal/2026-11-14#^am-d001]]\n`,
    );
    expect(
      (await run()).find((s) => s.title === "Deploy windows")?.blocks.map((b) => b.link),
    ).toEqual([`[[${A}/Journal/2026-11-13#Ops]]`]);
  });

  it("dates a note without dates by its mtime's local day in the time zone of each run", async () => {
    const t = scene(base());
    const path = `${A}/Knowledge/web/Night shift.md`;
    t.write(path, "# Night shift\n\nNo dates at all.\n");
    // 23:30 UTC on the 10th: the 10th in UTC, the 11th in Shanghai, the day of the mention.
    const at = Date.parse("2026-11-10T23:30:00Z") / 1000;
    utimesSync(join(t.root, path), at, at);
    t.write(`${A}/Journal/2026-11-11.md`, "# d\n\nThe night shift starts at ten. ^am-n001\n");
    const store = memoryStore();
    const saved = process.env.TZ;
    const night = async () =>
      (await staleTopicsOf(t.vault, layout, "ada", TODAY, [], store)).find(
        (s) => s.title === "Night shift",
      )?.last;
    try {
      process.env.TZ = "UTC";
      expect(await night()).toBe("2026-11-10");
      process.env.TZ = "Asia/Shanghai";
      expect(await night()).toBeUndefined();
      expect(await staleTopicsOf(t.vault, layout, "ada", TODAY, [], store)).toEqual(
        await staleTopicsOf(t.vault, layout, "ada", TODAY),
      );
      process.env.TZ = "UTC";
      expect(await night()).toBe("2026-11-10");
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });

  it("does not use a cache of another key or agent, or one that does not parse", async () => {
    const t = scene(base());
    const plain = await staleTopicsOf(t.vault, layout, "ada", TODAY);
    const store = memoryStore("build-1");
    await staleTopicsOf(t.vault, layout, "ada", TODAY, [], store);
    const saved = store.text;
    expect(parseStaleCache(saved, "build-1", "ada")).not.toBeNull();
    expect(parseStaleCache(saved, "build-2", "ada")).toBeNull();
    expect(parseStaleCache(saved, "build-1", "bo")).toBeNull();
    for (const text of ["{", "null", (saved ?? "").replace('"terms":[', '"terms":[1,')]) {
      expect(parseStaleCache(text, "build-1", "ada")).toBeNull();
      store.text = text;
      const reader = counting(t.vault);
      expect(await staleTopicsOf(reader, layout, "ada", TODAY, [], store)).toEqual(plain);
      expect(reader.reads.length).toBe(6);
    }
    // A cache whose facts were tampered with is of the wrong shape: not used.
    const other = memoryStore("build-1");
    other.text = (saved ?? "").replace(/"last":"[^"]*"/, '"last":5');
    const reader = counting(t.vault);
    expect(await staleTopicsOf(reader, layout, "ada", TODAY, [], other)).toEqual(plain);
    expect(reader.reads.length).toBe(6);
  });

  it("agrees with no cache over random edits", async () => {
    const rand = rng(23);
    const t = scene(base());
    const store = memoryStore();
    const words = ["page speed", "fonts", "deploys", "LCP", "noon", "weather", "deploy windows"];
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
    const topics = ["Page speed", "Fonts", "Deploy windows", "Cache"];
    for (let step = 0; step < 40; step++) {
      const r = rand();
      const day = `2026-11-${String(3 + Math.floor(rand() * 28)).padStart(2, "0")}`;
      if (r < 0.4) {
        const id = `am-${step}`;
        t.write(
          `${A}/Journal/${day}.md`,
          `# d\n\n${pick(words)} again. ^${id}\n\nand ${pick(words)}.\n`,
        );
      } else if (r < 0.7) {
        const name = pick(topics);
        const cites = rand() < 0.3 ? `> Source: [[${A}/Journal/${day}#^am-${step - 1}]]\n` : "";
        const alias = rand() < 0.4 ? `aliases: [${pick(words)}]\n` : "";
        const status = rand() < 0.15 ? "status: archived\n" : "";
        t.write(
          `${A}/Knowledge/web/${name}.md`,
          topic(name, day, alias).replace("status: active\n", status) + cites,
        );
      } else if (r < 0.85) {
        try {
          t.remove(`${A}/Journal/${day}.md`);
        } catch {
          // not there
        }
      } else {
        t.write(
          `Memory/Library/Ops/${pick(topics)}.md`,
          topic(pick(topics), day).replace("knowledge", "library"),
        );
      }
      const cached = await staleTopicsOf(t.vault, layout, "ada", TODAY, [], store);
      expect(cached, `step ${step}`).toEqual(await staleTopicsOf(t.vault, layout, "ada", TODAY));
    }
  });

  it("gives the same brief with a cache, hit or miss", async () => {
    const t = scene(base());
    const store = memoryStore();
    const brief = (staleCache?: StaleCacheStore) =>
      buildBrief({
        vault: t.vault,
        layout,
        settings,
        agent: "ada",
        today: TODAY,
        budgetTokens: 10_000,
        ...(staleCache ? { staleCache } : {}),
      });
    const plain = (await brief()).markdown;
    expect(plain).toContain("## May be stale (3)");
    expect((await brief(store)).markdown).toBe(plain);
    expect((await brief(store)).markdown).toBe(plain);
    t.write(`${A}/Knowledge/web/Fonts.md`, topic("Fonts", "2026-11-20"));
    const after = (await brief(store)).markdown;
    expect(after).toContain("## May be stale (2)");
    expect(after).toBe((await brief()).markdown);
  });
});
