// `agent-memory search` and `agent-memory index` (docs/architecture.md, "The CLI contract"), run
// in-process on temporary vaults.
import { afterEach, describe, expect, it } from "vitest";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { main } from "../../src/cli/main";
import { readSavedIndex, serializeShards } from "../../src/core/search/persistence";
import { miniSearchOptions } from "../../src/core/search/search-service";
import { tokenize } from "../../src/core/search/engine/tokenizer";
import { tempVault } from "../helpers/temp-vault";

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, {
    out: (l) => void out.push(l),
    err: (l) => void err.push(l),
    env: {},
  });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

function vault() {
  const tv = tempVault({
    "Memory/Agents/link/Journal/2026-11-02.md":
      "---\ntype: journal\nstatus: active\n---\n# Audit\n\n- [ ] Get the top-10 pages by bounce rate ^t-048\n",
    "Memory/Agents/ming/Journal/2026-11-03.md":
      "---\ntype: journal\n---\n今天完成了认证系统的重构，使用JWT令牌。\n",
    "Memory/Library/seo/Bounce rate.md": "Bounce rate: share of single-page sessions.\n",
    "Memory/Restricted/hr/Payroll.md": "zebrafish payroll bonus\n",
  });
  cleanup = tv.cleanup;
  return tv;
}

describe("agent-memory index", () => {
  it("builds, saves under .agent-memory/ and reloads; --json gives counts, times and size", async () => {
    const { root } = vault();
    const first = await run("index", root, "--json");
    expect(first.code).toBe(0);
    const built = JSON.parse(first.out) as Record<string, unknown>;
    expect(built).toMatchObject({
      notes: 4,
      source: "built",
      indexed: 4,
      collections: { journal: 2, library: 1 },
      zones: { Restricted: 1 },
      capped: [],
      frontmatter_errors: [],
    });
    expect(built.index_bytes).toBeGreaterThan(100);
    expect(existsSync(join(root, ".agent-memory", "search-index.bin"))).toBe(true);
    const second = JSON.parse((await run("index", root, "--json")).out) as Record<string, unknown>;
    expect(second).toMatchObject({ notes: 4, source: "saved", indexed: 0, removed: 0 });
    expect(typeof second.load_ms).toBe("number");
    const text = await run("index", root);
    expect(text.out).toMatch(/^4 notes indexed \(loaded in/);
  });

  it("warns about an isolated zone that holds no notes (a misspelt zone isolates nothing)", async () => {
    const { root, write } = vault();
    write(
      ".obsidian/plugins/agent-memory/data.json",
      JSON.stringify({ isolatedZones: ["Restricted", "Memory/Restricted", "Secrets/"] }),
    );
    // The default zone is not reported when it is empty: a new vault has no Restricted folder yet.
    const fresh = tempVault({ "Memory/Library/a.md": "alpha" });
    try {
      expect((await run("index", fresh.root)).err).toBe("");
    } finally {
      fresh.cleanup();
    }
    const res = await run("index", root, "--json");
    expect(res.code).toBe(0);
    expect(res.err.split("\n")).toEqual([
      'index: isolated zone "Memory/Restricted" holds no notes (folder Memory/Memory/Restricted/); check the isolatedZones setting',
      'index: isolated zone "Secrets" holds no notes (folder Memory/Secrets/); check the isolatedZones setting',
    ]);
    expect((await run("index", root)).err).toContain('isolated zone "Secrets" holds no notes');
  });

  it("an index that cannot be saved exits 2 with one line naming the file (fresh-user finding)", async () => {
    const { root } = vault();
    writeFileSync(join(root, ".agent-memory"), "a file where the index folder should be");
    for (const args of [[], ["--rebuild"], ["--json"]]) {
      const res = await run("index", root, ...args);
      expect(res.code).toBe(2);
      expect(res.err.split("\n")).toEqual([
        expect.stringMatching(
          /^agent-memory index: .*search-index\.bin.*ENOTDIR|^agent-memory index: .*ENOTDIR.*search-index\.bin/,
        ) as string,
      ]);
      expect(res.out).toBe("");
    }
  });

  it("a corrupt saved index is rebuilt with a message on stderr, not a crash", async () => {
    const { root } = vault();
    await run("index", root);
    const file = join(root, ".agent-memory", "search-index.bin");
    const good = readFileSync(file);
    for (const bad of [Buffer.from("{ truncated"), good.subarray(0, good.length - 3)]) {
      writeFileSync(file, bad);
      const res = await run("index", root, "--json");
      expect(res.code).toBe(0);
      expect(res.err.trim().split("\n")).toEqual([
        expect.stringMatching(
          /^index: saved index is corrupt .* in .*search-index\.bin; rebuilt/,
        ) as string,
      ]);
      expect(JSON.parse(res.out)).toMatchObject({ source: "built", notes: 4 });
      expect(readFileSync(file).equals(good)).toBe(false);
    }
  });

  it("an index saved in the JSON format 9 is read, then replaced by the binary one", async () => {
    const { root } = vault();
    await run("index", root);
    const dir = join(root, ".agent-memory");
    const bin = readFileSync(join(dir, "search-index.bin"));
    const saved = readSavedIndex(new Uint8Array(bin), miniSearchOptions(tokenize));
    if (!saved.ok) throw new Error(saved.error);
    writeFileSync(
      join(dir, "search-index.json"),
      serializeShards(saved.value.shards, saved.value.key, saved.value.savedAt),
    );
    rmSync(join(dir, "search-index.bin"));
    const res = await run("index", root, "--json");
    expect(res.err).toBe("");
    expect(JSON.parse(res.out)).toMatchObject({ source: "saved", notes: 4, indexed: 0 });
    expect(existsSync(join(dir, "search-index.json"))).toBe(false);
    expect(existsSync(join(dir, "search-index.bin"))).toBe(true);
    const again = JSON.parse((await run("index", root, "--json")).out) as Record<string, unknown>;
    expect(again).toMatchObject({ source: "saved", indexed: 0 });
  });
});

describe("agent-memory search", () => {
  it("--json gives {query, scope, took_ms, results: [{path, title, score, agent, collection, snippet, blocks}]}", async () => {
    const { root } = vault();
    const res = await run("search", root, "bounce", "rate", "--json", "--scope", "agent:link");
    expect(res.code).toBe(0);
    const json = JSON.parse(res.out) as {
      query: string;
      scope: string;
      took_ms: number;
      results: Record<string, unknown>[];
    };
    expect(json.query).toBe("bounce rate");
    expect(json.scope).toBe("agent:link");
    expect(typeof json.took_ms).toBe("number");
    // The library note's title matches, so it ranks first (docs/architecture.md, "The index": title
    // boosted).
    expect(json.results.map((r) => r.path)).toEqual([
      "Memory/Library/seo/Bounce rate.md",
      "Memory/Agents/link/Journal/2026-11-02.md",
    ]);
    const journal = json.results[1] ?? {};
    expect(Object.keys(journal).sort()).toEqual([
      "agent",
      "blocks",
      "collection",
      "path",
      "score",
      "snippet",
      "title",
    ]);
    expect(journal).toMatchObject({ title: "2026-11-02", agent: "link", collection: "journal" });
    expect(journal.blocks).toEqual([
      { id: "t-048", text: "- [ ] Get the top-10 pages by bounce rate" },
    ]);
    expect(json.results[0]).toMatchObject({ agent: null, collection: "library" });
  });

  it("case 05 from the command line; text output links the best block", async () => {
    const { root } = vault();
    const zh = await run("search", root, "重构", "--json");
    expect(
      (JSON.parse(zh.out) as { results: { path: string }[] }).results.map((r) => r.path),
    ).toEqual(["Memory/Agents/ming/Journal/2026-11-03.md"]);
    const text = await run("search", root, "bounce rate");
    expect(text.out).toContain("[[Memory/Agents/link/Journal/2026-11-02#^t-048]]");
  });

  it("isolated zones: only their own scope sees them", async () => {
    const { root } = vault();
    const all = await run("search", root, "zebrafish", "--json");
    expect((JSON.parse(all.out) as { results: unknown[] }).results).toEqual([]);
    const zone = await run("search", root, "zebrafish", "--scope", "Restricted", "--json");
    expect(
      (JSON.parse(zone.out) as { results: { path: string }[] }).results.map((r) => r.path),
    ).toEqual(["Memory/Restricted/hr/Payroll.md"]);
  });

  it("negated filters (-type:journal) are query text, not options", async () => {
    const { root } = vault();
    const all = await run("search", root, "bounce", "--json");
    expect((JSON.parse(all.out) as { results: unknown[] }).results).toHaveLength(2);
    const res = await run("search", root, "bounce", "-type:journal", "--json", "--limit", "5");
    expect(res.code).toBe(0);
    expect(
      (JSON.parse(res.out) as { results: { path: string }[] }).results.map((r) => r.path),
    ).toEqual(["Memory/Library/seo/Bounce rate.md"]);
    expect((await run("search", root, "-type:journal")).code).toBe(0);
    expect((await run("search", root, '"no such phrase"')).out).toBe(
      `no results for '"no such phrase"' in scope all`,
    );
    // Options keep working around them, and an unknown long option is still an error.
    expect((await run("search", root, "bounce", "--bogus")).code).toBe(2);
  });

  it("a status: filter naming an item state that finds nothing says where open items are listed; another status does not", async () => {
    const { root } = vault();
    const open = await run("search", root, "bounce", "status:open");
    expect(open.code).toBe(0);
    expect(open.out).toBe(
      [
        `no results for "bounce status:open" in scope all`,
        `status:open matches the status in a note's frontmatter (active, archived …); tracker items that are open: agent-memory trackers ${root} --status open`,
      ].join("\n"),
    );
    const passages = await run("search", root, "status:done", "--passages", "3");
    expect(passages.out).toContain("agent-memory trackers");
    expect((await run("search", root, "bounce", "status:nosuch")).out).toBe(
      `no results for "bounce status:nosuch" in scope all`,
    );
  });

  it("an agent scope with no indexed notes warns that it sees the library only", async () => {
    const { root } = vault();
    const typo = await run("search", root, "bounce", "--scope", "agent:lnik");
    expect(typo.code).toBe(0);
    expect(typo.err).toBe(
      'search: no notes of agent "lnik" are indexed; scope agent:lnik sees the library only (agents: link, ming)',
    );
    expect(typo.out).toContain("Memory/Library/seo/Bounce rate.md");
    const known = await run("search", root, "bounce", "--scope", "agent:link");
    expect(known.err).toBe("");
  });

  it("a phrase query's total says whether it is exact, an estimate or a lower bound", async () => {
    const { root, write } = vault();
    for (let i = 0; i < 14; i++)
      write(`Memory/Library/seo/p${i}.md`, `Notes on bounce rate number ${i}.\n`);
    const json = async (...args: string[]) =>
      JSON.parse((await run("search", root, ...args, "--json")).out) as {
        total: number;
        total_bound?: string;
        results: unknown[];
      };
    // Fewer matches than the limit: every candidate was read, so the total is exact.
    expect(await json('"bounce rate"', "--limit", "20")).toMatchObject({ total: 16 });
    expect((await json('"bounce rate"', "--limit", "20")).total_bound).toBeUndefined();
    // Reading stopped at the limit: the rest are counted by their phrase filters.
    expect(await json('"bounce rate"', "--limit", "5")).toMatchObject({
      total: 16,
      total_bound: "about",
    });
    expect((await run("search", root, '"bounce rate"', "--limit", "5")).out).toMatch(
      /^about 16 notes in scope all/,
    );
    // One-word phrases are not filtered: only the notes read count.
    expect(await json('"bounce"', "--limit", "5")).toMatchObject({
      total: 5,
      total_bound: "at-least",
    });
  });

  it("an unknown filter, a bad date, an unknown scope or a bad limit exits 2 with a one-line reason", async () => {
    const { root } = vault();
    for (const args of [
      ["owner:me"],
      ["after:2026-02-30", "x"],
      ["x", "--scope", "Secret"],
      ["x", "--limit", "0"],
    ]) {
      const res = await run("search", root, ...args);
      expect(res.code, args.join(" ")).toBe(2);
      expect(res.err.split("\n")).toHaveLength(1);
      expect(res.out).toBe("");
    }
    expect((await run("search", root)).code).toBe(2);
  });
});
