// A person edits the journal while `extract` runs (docs/write-safety.md, "A person's edit
// survives"): every item written must cite a block id that the journal holds afterwards. The edit
// is made between planning and applying, or injected while applying (after a destination is written
// and before the journal is), never by timing.
import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { applyPlan, planExtraction } from "../../../src/core/extraction/pipeline";
import { OfflineExtractor } from "../../../src/core/extraction/offline";
import { MemoryLayout } from "../../../src/core/layout";
import { defaultSettings } from "../../../src/core/settings";
import type { VaultPort } from "../../../src/core/vault";
import { seededRandom } from "../../helpers/seeded-random";
import { tempVault } from "../../helpers/temp-vault";

const settings = defaultSettings();
const layout = new MemoryLayout(settings);
const J = "Memory/Agents/link/Journal/2026-11-24.md";
const TASKS = "Memory/Agents/link/Trackers/Tasks.md";
const now = () => new Date("2026-11-24T10:00:00Z");

const journal = `---
type: journal
---
# 2026-11-24

## SEO audit

- [ ] Renew passport
- [ ] Get the top-10 pages by traffic

Decision: audit the home page before the blog

Learned: bounce rate matters more than the framework
`;

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

function setup(files: Record<string, string> = {}) {
  const t = tempVault({ [J]: journal, ...files });
  cleanup = t.cleanup;
  return t;
}

function plan(vault: VaultPort) {
  return planExtraction({
    vault,
    settings,
    layout,
    journalPath: J,
    extractor: new OfflineExtractor(),
    now,
    random: seededRandom(1),
  });
}

/** Every `^id` of the journal that a note other than the journal links to, with the note. */
function citedBlocks(root: string): { note: string; id: string }[] {
  const out: { note: string; id: string }[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(".md") && relative(root, p) !== J)
        for (const m of readFileSync(p, "utf8").matchAll(/2026-11-24#\^([\w-]+)/g))
          out.push({ note: relative(root, p), id: m[1] ?? "" });
    }
  };
  walk(join(root, "Memory"));
  return out;
}

/** Cited block ids the journal does not hold (a broken source link), `note: ^id` each. */
function brokenSources(root: string): string[] {
  const text = readFileSync(join(root, J), "utf8");
  return citedBlocks(root)
    .filter(({ id }) => !new RegExp(`\\^${id}(?:\\s|$)`, "m").test(text))
    .map(({ note, id }) => `${note}: ^${id}`);
}

/**
 * `t.vault`, with `edit` applied to the journal once, right after the first note other than the
 * journal is written: a person saving the journal while the run writes its destinations.
 */
function editedAfterFirstNote(t: ReturnType<typeof setup>, edit: (text: string) => string) {
  let edited = false;
  return new Proxy(t.vault, {
    get(target, prop, receiver) {
      if (prop !== "process") return Reflect.get(target, prop, receiver) as unknown;
      return async (path: string, fn: Parameters<VaultPort["process"]>[1]) => {
        const out = await target.process(path, fn);
        if (path !== J && !edited) {
          edited = true;
          t.write(J, edit(readFileSync(join(t.root, J), "utf8")));
        }
        return out;
      };
    },
  });
}

describe("a journal edited while extraction runs", () => {
  it("a line reworded between planning and applying gets the id its item cites, the rewording kept", async () => {
    const t = setup();
    const p = await plan(t.vault);
    const reworded = "- [ ] Renew the passport before the May trip";
    t.write(J, journal.replace("- [ ] Renew passport", reworded));
    const applied = await applyPlan(t.vault, layout, p, now);
    expect(applied.failed).toEqual([]);
    expect(citedBlocks(t.root).length).toBeGreaterThan(3);
    expect(brokenSources(t.root)).toEqual([]);
    const after = readFileSync(join(t.root, J), "utf8");
    const renew = p.items.find((i) => i.item.text === "Renew passport")?.item.blockId ?? "";
    expect(after).toContain(`${reworded} ^${renew}\n`);
  });

  it("a line reworded while the destinations are written gets the id its item cites", async () => {
    const t = setup();
    const p = await plan(t.vault);
    const reworded = "Decision: audit the home page and the pricing page before the blog";
    const vault = editedAfterFirstNote(t, (text) =>
      text.replace("Decision: audit the home page before the blog", reworded),
    );
    const applied = await applyPlan(vault, layout, p, now);
    expect(applied.failed).toEqual([]);
    expect(brokenSources(t.root)).toEqual([]);
    expect(readFileSync(join(t.root, J), "utf8")).toMatch(
      new RegExp(`${reworded} \\^am-[a-z0-9]+\\n`),
    );
  });

  it("a line removed while the destinations are written: the run says which links broke and leaves the journal unmarked", async () => {
    const t = setup();
    const p = await plan(t.vault);
    const vault = editedAfterFirstNote(t, (text) =>
      text.replace("Learned: bounce rate matters more than the framework\n", ""),
    );
    const applied = await applyPlan(vault, layout, p, now);
    expect(applied.failed.map((f) => `${f.text}: ${f.reason}`)).toEqual([
      expect.stringMatching(
        /^bounce rate matters more than the framework: written to .*SEO audit\.md, but .*\^am-[a-z0-9]+.*edited or removed .*run extract again/,
      ),
    ]);
    expect(readFileSync(join(t.root, J), "utf8")).not.toMatch(/extraction_hash/);
  });

  it("a line removed before applying: its item is not written, the run says why, the journal stays unmarked", async () => {
    const t = setup({ [TASKS]: "# Tasks\n" });
    const p = await plan(t.vault);
    t.write(J, journal.replace("- [ ] Renew passport\n", ""));
    const applied = await applyPlan(t.vault, layout, p, now);
    expect(applied.failed.map((f) => `${f.text}: ${f.reason}`)).toEqual([
      expect.stringMatching(
        /^Renew passport: .*2026-11-24\.md.*edited or removed .*during extraction.*run extract again/,
      ),
    ]);
    const tasks = readFileSync(join(t.root, TASKS), "utf8");
    expect(tasks).not.toContain("Renew passport");
    expect(tasks).toContain("Get the top-10 pages by traffic");
    expect(brokenSources(t.root)).toEqual([]);
    expect(readFileSync(join(t.root, J), "utf8")).not.toMatch(/extraction_hash/);
  });

  it("a block given its own id meanwhile: the item cites that id", async () => {
    const t = setup();
    const p = await plan(t.vault);
    t.write(J, journal.replace("- [ ] Renew passport", "- [ ] Renew passport ^passport"));
    const applied = await applyPlan(t.vault, layout, p, now);
    expect(applied.failed).toEqual([]);
    expect(brokenSources(t.root)).toEqual([]);
    expect(readFileSync(join(t.root, TASKS), "utf8")).toMatch(
      /Renew passport .*2026-11-24#\^passport\]\]/,
    );
  });
});
