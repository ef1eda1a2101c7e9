// Semantic recall (docs/architecture.md, "Semantic recall"): block vectors built by embedIndex on
// real temporary vaults through the real embeddings client against a local stub server whose
// vectors follow a concept table, and hybrid, semantic and BM25 searches over them.
import { appendFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempVault } from "../../helpers/temp-vault";
import { startEmbeddingsStub, type EmbeddingsStub } from "../../helpers/embeddings-stub-server";
import { MemoryLayout } from "../../../src/core/layout";
import { defaultSettings, type Settings } from "../../../src/core/settings";
import { SearchService } from "../../../src/core/search/search-service";
import { rankFactor } from "../../../src/core/search/ranking";
import { embeddableBlocks, VectorIndex } from "../../../src/core/search/vectors";
import { createEmbeddingsClient, type EmbeddingsClient } from "../../../src/core/llm/embeddings";
import { embedIndex, loadVectors } from "../../../src/core/semantic/embed-index";
import {
  searchPassagesWith,
  searchWith,
  type SemanticSource,
} from "../../../src/core/semantic/hybrid";
import { FileVectorFiles } from "../../../src/node/embeddings-env";
import { LlmError, UsageError } from "../../../src/core/errors";
import type { NodeVault } from "../../../src/node/node-vault";

const NOW = Date.parse("2026-12-01T12:00:00Z");
const CONCEPTS = [
  ["任务堆积", "瓶颈", "piling up", "bottleneck"],
  ["deploy", "release"],
  ["salary", "payroll"],
];
const TARGET = "Memory/Agents/link/Journal/2026-11-20.md";
const OTHER = "Memory/Library/ops/Deploys.md";
const SECRET = "Memory/Restricted/hr/Pay.md";
const FILES: Record<string, string> = {
  [TARGET]: "# 2026-11-20\n\n审核环节存在瓶颈。\n\nThe review step is the bottleneck this week.\n",
  [OTHER]: "# Deploys\n\nWe release on Tuesdays after the smoke tests.\n",
  [SECRET]: "# Pay\n\nThe payroll run for the team moves to the 25th.\n",
};

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

async function setup(
  files: Record<string, string> = FILES,
  settings: Settings = defaultSettings(),
): Promise<{ stub: EmbeddingsStub; service: SearchService; vault: NodeVault; root: string }> {
  const tv = tempVault(files);
  cleanups.push(tv.cleanup);
  const stub = await startEmbeddingsStub({ concepts: CONCEPTS });
  cleanups.push(() => stub.close());
  const service = new SearchService({
    vault: tv.vault,
    layout: new MemoryLayout(settings),
    now: () => NOW,
  });
  await service.open();
  return { stub, service, vault: tv.vault, root: tv.root };
}

function client(stub: EmbeddingsStub, model = "stub-embed", timeoutMs = 2000): EmbeddingsClient {
  return createEmbeddingsClient({
    baseUrl: stub.baseUrl,
    apiKey: "",
    model,
    timeoutMs,
    maxRetries: 0,
    batchSize: 2,
    encoding: "base64",
  });
}

async function embed(
  ctx: { stub: EmbeddingsStub; service: SearchService; vault: NodeVault },
  extra: Partial<Parameters<typeof embedIndex>[0]> = {},
  settings: Settings["embeddings"] = defaultSettings().embeddings,
) {
  return embedIndex({
    notes: ctx.service.notes(),
    vault: ctx.vault,
    client: client(ctx.stub),
    files: new FileVectorFiles(ctx.vault),
    settings,
    ...extra,
  });
}

async function source(stub: EmbeddingsStub, vault: NodeVault): Promise<SemanticSource> {
  const c = client(stub);
  return { client: c, index: await loadVectors(new FileVectorFiles(vault), c.model) };
}

async function paths(
  service: SearchService,
  query: string,
  retrieval: "bm25" | "hybrid" | "semantic",
  src: SemanticSource | null,
  options: { scope?: string } = {},
) {
  const lines: string[] = [];
  const res = await searchWith(service, query, { retrieval, ...options }, src, (l) =>
    lines.push(l),
  );
  if (!res.ok) throw new Error(res.error);
  return { paths: res.value.results.map((r) => r.path), res: res.value, lines };
}

describe("semantic recall: hybrid search over block vectors", () => {
  it("a query that shares no word with its target finds it in hybrid mode and not in BM25", async () => {
    const ctx = await setup();
    await embed(ctx);
    const src = await source(ctx.stub, ctx.vault);
    for (const query of ["任务堆积", "work piling up"]) {
      const bm25 = await paths(ctx.service, query, "bm25", src);
      expect(bm25.paths).not.toContain(TARGET);
      expect(bm25.res.retrieval).toBe("bm25");
      const hybrid = await paths(ctx.service, query, "hybrid", src);
      expect(hybrid.paths[0]).toBe(TARGET);
      expect(hybrid.res.retrieval).toBe("hybrid");
      expect(hybrid.lines).toEqual([]);
      const semantic = await paths(ctx.service, query, "semantic", src);
      expect(semantic.paths[0]).toBe(TARGET);
    }
  });

  it("took_ms counts the wait for the query's vector, answered or failed", async () => {
    const ctx = await setup();
    await embed(ctx);
    const src = await source(ctx.stub, ctx.vault);
    const WAIT_MS = 250;
    const late = <T>(then: () => Promise<T>) =>
      new Promise<void>((r) => setTimeout(r, WAIT_MS)).then(then);
    const embedQuery = src.client.embed.bind(src.client);
    const answered = await paths(ctx.service, "work piling up", "hybrid", {
      ...src,
      client: { ...src.client, embed: (t) => late(() => embedQuery(t)) },
    });
    expect(answered.res.retrieval).toBe("hybrid");
    expect(answered.res.took_ms).toBeGreaterThanOrEqual(WAIT_MS - 1);
    const failed = await paths(ctx.service, "release", "hybrid", {
      ...src,
      client: { ...src.client, embed: () => late(() => Promise.reject(new Error("no answer"))) },
    });
    expect(failed.res.retrieval).toBe("bm25");
    expect(failed.lines).toHaveLength(1);
    expect(failed.res.took_ms).toBeGreaterThanOrEqual(WAIT_MS - 1);
    // BM25 asked for asks nothing (a call would have failed with a line).
    const bm25 = await paths(ctx.service, "release", "bm25", {
      ...src,
      client: { ...src.client, embed: () => late(() => Promise.reject(new Error("asked"))) },
    });
    expect(bm25.lines).toEqual([]);
  });

  it("hybrid keeps what BM25 finds and adds what only the vectors find", async () => {
    const ctx = await setup({
      ...FILES,
      "Memory/Library/ops/Queue.md": "# Queue\n\nThe work queue is piling up again.\n",
    });
    await embed(ctx);
    const src = await source(ctx.stub, ctx.vault);
    const hybrid = await paths(ctx.service, "piling up", "hybrid", src);
    // BM25 and the vectors both rank Queue first; the journal comes from the vectors alone.
    expect(hybrid.paths.slice(0, 2)).toEqual(["Memory/Library/ops/Queue.md", TARGET]);
    expect(hybrid.res.total).toBe(2);
  });

  it("hybrid ranks BM25's 20 best notes for the fusion but reads only the notes it shows", async () => {
    const files: Record<string, string> = { ...FILES };
    for (let i = 0; i < 30; i++)
      files[`Memory/Library/ops/Release ${i}.md`] =
        `# Release ${i}\n\n${"release ".repeat(1 + (i % 7))}notes of train ${i}.\n\nOther text.\n`;
    const ctx = await setup(files);
    await embed(ctx);
    const src = await source(ctx.stub, ctx.vault);
    const read = new Set<string>();
    const vault = ctx.vault as unknown as { read(path: string): Promise<string> };
    const readNote = vault.read.bind(vault);
    vault.read = (path) => (read.add(path), readNote(path));
    const res = await searchWith(
      ctx.service,
      "release",
      { retrieval: "hybrid", limit: 3 },
      src,
      () => {},
    );
    if (!res.ok) throw new Error(res.error);
    expect(res.value.results).toHaveLength(3);
    // Each note shown was read for its snippet and blocks, and no other (the fusion ranked 20).
    expect([...read].sort()).toEqual(res.value.results.map((r) => r.path).sort());
    for (const r of res.value.results) {
      expect(r.snippet).toMatch(/release/i);
      expect(r.blocks[0]?.text).toMatch(/release/i);
    }
  });

  it("passages: the block that means the query, with its line and link", async () => {
    const ctx = await setup();
    await embed(ctx);
    const res = await searchPassagesWith(
      ctx.service,
      "work piling up",
      { limit: 2, retrieval: "hybrid" },
      await source(ctx.stub, ctx.vault),
      () => undefined,
    );
    if (!res.ok) throw new Error(res.error);
    expect(res.value.retrieval).toBe("hybrid");
    const lines = res.value.results.map((p) => `${p.path}:${p.line}`);
    expect(lines).toEqual([`${TARGET}:3`, `${TARGET}:5`]);
  });

  it("filters and expiry apply to the vector list", async () => {
    const ctx = await setup({
      ...FILES,
      "Memory/Library/ops/Old.md":
        "---\nexpires_at: 2026-01-01\n---\n# Old\n\nThe old bottleneck was the build.\n",
    });
    await embed(ctx);
    const src = await source(ctx.stub, ctx.vault);
    const all = await paths(ctx.service, "work piling up", "semantic", src);
    expect(all.paths).not.toContain("Memory/Library/ops/Old.md");
    const filtered = await paths(
      ctx.service,
      "work piling up path:Memory/Library",
      "semantic",
      src,
    );
    expect(filtered.paths).toEqual([]);
  });

  it("a block whose text changed since index is left out until the next index", async () => {
    const ctx = await setup();
    await embed(ctx);
    const src = await source(ctx.stub, ctx.vault);
    await ctx.vault.process(TARGET, () => "# 2026-11-20\n\nNothing to report.\n");
    await ctx.service.update(TARGET);
    expect((await paths(ctx.service, "work piling up", "semantic", src)).paths).toEqual([]);
  });

  it("a second run over an unchanged vault sends nothing; a changed block alone is sent", async () => {
    const ctx = await setup();
    const first = await embed(ctx);
    expect(first.sent).toBe(3);
    const sentBefore = ctx.stub.inputs.length;
    expect((await embed(ctx)).sent).toBe(0);
    expect(ctx.stub.inputs.length).toBe(sentBefore);
    await ctx.vault.process(OTHER, (t) => `${t ?? ""}\nA new release train starts in January.\n`);
    await ctx.service.update(OTHER);
    const again = await embed(ctx);
    expect(again.sent).toBe(1);
    expect(ctx.stub.inputs.at(-1)).toBe("A new release train starts in January.");
  });

  it("resumes after a kill: the batches written are kept, a record cut short is dropped", async () => {
    const ctx = await setup();
    const real = client(ctx.stub);
    let calls = 0;
    const dying: EmbeddingsClient = {
      baseUrl: real.baseUrl,
      model: real.model,
      embed: (texts, o) => {
        if (++calls === 2) throw new Error("killed");
        return real.embed(texts, o);
      },
    };
    await expect(embed(ctx, { client: dying, chunkTexts: 2 })).rejects.toThrow("killed");
    // What a kill in the middle of an append leaves: half a record.
    appendFileSync(join(ctx.root, ".agent-memory/vectors.bin"), Buffer.from([0x41, 0x4d, 0x56]));
    const before = ctx.stub.inputs.length;
    const resumed = await embed(ctx, { chunkTexts: 2 });
    expect(resumed.sent).toBe(1);
    expect(ctx.stub.inputs.length - before).toBe(1);
    expect(resumed.blocks).toBe(3);
    const src = await source(ctx.stub, ctx.vault);
    expect((await paths(ctx.service, "任务堆积", "hybrid", src)).paths[0]).toBe(TARGET);
  });

  it("another model embeds every block again and never reads the first model's vectors", async () => {
    const ctx = await setup();
    await embed(ctx);
    const resets: string[] = [];
    const other = await embed(ctx, {
      client: client(ctx.stub, "other-model"),
      onReset: (r) => resets.push(r),
    });
    expect(other.sent).toBe(3);
    expect(resets[0]).toContain('of model "stub-embed", not "other-model"');
    expect(await loadVectors(new FileVectorFiles(ctx.vault), "stub-embed")).toBeNull();
    expect((await loadVectors(new FileVectorFiles(ctx.vault), "other-model"))?.size).toBe(3);
  });

  it("a dimension mismatch or an unknown model is a clear error naming the setting", async () => {
    const ctx = await setup();
    const settings = { ...defaultSettings().embeddings, dimensions: 384 };
    const err = await embed(ctx, {}, settings).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toContain("gives 4-dimensional vectors");
    expect((err as Error).message).toContain("embeddings.dimensions");
    ctx.stub.set({ models: ["nomic-embed-text"] });
    const unknown = await embed(ctx, { client: client(ctx.stub, "nope") }).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(LlmError);
    expect((unknown as Error).message).toContain("AGENT_MEMORY_EMBEDDINGS_MODEL");
  });

  it("sends nothing of an isolated zone by default", async () => {
    const ctx = await setup();
    const report = await embed(ctx);
    expect(report.zonesLeftOut).toEqual({ Restricted: 1 });
    expect(ctx.stub.inputs.join("\n")).not.toContain("payroll");
    const notes = readFileSync(join(ctx.root, ".agent-memory/vector-notes.json"), "utf8");
    expect(notes).not.toContain("Restricted");
    const src = await source(ctx.stub, ctx.vault);
    const zone = await paths(ctx.service, "salary", "semantic", src, { scope: "Restricted" });
    expect(zone.paths).toEqual([]);
  });

  it("a zone listed in embeddings.zones is embedded, and its vectors serve only its own scope", async () => {
    const ctx = await setup();
    const settings = { ...defaultSettings().embeddings, zones: ["Restricted"] };
    await embed(ctx, {}, settings);
    expect(ctx.stub.inputs.join("\n")).toContain("payroll");
    const src = await source(ctx.stub, ctx.vault);
    expect((await paths(ctx.service, "salary", "semantic", src)).paths).not.toContain(SECRET);
    expect(
      (await paths(ctx.service, "salary", "semantic", src, { scope: "library" })).paths,
    ).not.toContain(SECRET);
    expect(
      (await paths(ctx.service, "salary", "semantic", src, { scope: "Restricted" })).paths,
    ).toEqual([SECRET]);
  });

  it("a dead, hung or unconfigured server never fails a search: BM25 answers and one line says why", async () => {
    const ctx = await setup();
    await embed(ctx);
    const src = await source(ctx.stub, ctx.vault);
    ctx.stub.set({ failStatus: 500 });
    const dead = await paths(ctx.service, "release", "hybrid", src);
    expect(dead.res.retrieval).toBe("bm25");
    expect(dead.paths).toEqual([OTHER]);
    expect(dead.lines).toHaveLength(1);
    expect(dead.lines[0]).toMatch(/^search: BM25 only: embeddings at .* failed: HTTP 500/);
    ctx.stub.set({ failStatus: undefined, hang: true });
    const hung = await paths(ctx.service, "release", "hybrid", {
      client: client(ctx.stub, "stub-embed", 100),
      index: src.index,
    });
    expect(hung.res.retrieval).toBe("bm25");
    expect(hung.lines[0]).toContain("timed out after 100 ms");
    const none = await paths(ctx.service, "release", "hybrid", null);
    expect(none.res.retrieval).toBe("bm25");
    expect(none.lines[0]).toContain("AGENT_MEMORY_EMBEDDINGS_BASE_URL");
    // No vectors yet for the model: BM25, and the line says to run index.
    const fresh = await paths(ctx.service, "release", "hybrid", {
      client: src.client,
      index: null,
    });
    expect(fresh.lines[0]).toContain("run agent-memory index");
  });

  it("a query of filters alone is listed by date and needs no embedding", async () => {
    const ctx = await setup();
    await embed(ctx);
    const src = await source(ctx.stub, ctx.vault);
    const before = ctx.stub.inputs.length;
    const listed = await paths(ctx.service, "path:Memory/Library", "hybrid", src);
    expect(listed.paths).toEqual([OTHER]);
    expect(listed.res.retrieval).toBe("bm25");
    expect(listed.lines).toEqual([]);
    expect(ctx.stub.inputs.length).toBe(before);
  });
});

describe("semantic recall: quoted phrases", () => {
  it("a note holding the phrase is found past many nearer notes that lack it", async () => {
    // Forty notes, earlier in block order, with the same vector as the target but without the
    // phrase: the vector search passes over them by their phrase filters, not by reading them.
    const files: Record<string, string> = { ...FILES };
    for (let d = 1; d <= 40; d++)
      files[`Memory/Agents/link/Journal/2026-10-${String(d).padStart(2, "0")}.md`] =
        `# Day ${d}\n\nThe bottleneck is in the queue again.\n`;
    // One holds the phrase's words apart, not the phrase: the notes holding the words are found
    // from the postings, and the phrase is still checked in the text.
    files["Memory/Agents/link/Journal/2026-10-41.md"] =
      "# Apart\n\nStep one of the review: the bottleneck is here.\n";
    const ctx = await setup(files);
    await embed(ctx);
    const src = await source(ctx.stub, ctx.vault);
    for (const retrieval of ["semantic", "hybrid"] as const) {
      const found = await paths(ctx.service, '"review step" bottleneck', retrieval, src);
      expect(found.paths).toEqual([TARGET]);
    }
    // Without the quotes, BM25 finds it: it holds all three words.
    expect((await paths(ctx.service, "review step bottleneck", "bm25", src)).paths).toContain(
      "Memory/Agents/link/Journal/2026-10-41.md",
    );
    // Without the phrase, the nearer notes come first.
    const plain = await paths(ctx.service, "bottleneck", "semantic", src);
    expect(plain.paths.length).toBeGreaterThan(1);
  });
});

describe("semantic recall: quoted phrases, notes read", () => {
  it("the best blocks are checked first, and no more notes are read once enough hold the phrase", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 35; i++)
      files[`Memory/Library/ops/Queue ${i}.md`] =
        `# Queue ${i}\n\nThe review step is the bottleneck again, week ${i}.\n`;
    const ctx = await setup(files);
    await embed(ctx);
    const src = await source(ctx.stub, ctx.vault);
    const read: string[] = [];
    const vault = ctx.vault as unknown as { read(path: string): Promise<string> };
    const readNote = vault.read.bind(vault);
    vault.read = (path) => (read.push(path), readNote(path));
    const found = await paths(ctx.service, '"review step" bottleneck', "semantic", src);
    expect(found.paths).toHaveLength(10);
    // The vector list is 20 deep (FUSE_DEPTH) and its top holds 30: the first 20 hold the phrase,
    // so the 10 after them are never read (each note is read once, then cached).
    expect(read.length).toBe(20);
  });
});

// What the vector search keeps between queries (the block table, each table note's metadata per
// shard version: src/core/search/semantic.ts, tableNotes). Each test queries first, then changes one
// thing: a cache that is never cleared would answer the second query as the first.
describe("semantic recall: what is kept between queries follows every change", () => {
  const QUERY = "work piling up";

  it("a note changed: the next query judges it by its new metadata", async () => {
    const ctx = await setup();
    await embed(ctx);
    const src = await source(ctx.stub, ctx.vault);
    expect((await paths(ctx.service, QUERY, "semantic", src)).paths).toContain(TARGET);
    // Its blocks stay as embedded; it has expired.
    await ctx.vault.process(TARGET, (t) => `---\nexpires_at: 2026-01-01\n---\n${t ?? ""}`);
    await ctx.service.update(TARGET);
    expect((await paths(ctx.service, QUERY, "semantic", src)).paths).not.toContain(TARGET);
  });

  it("a note removed: the next query does not list it", async () => {
    const ctx = await setup();
    await embed(ctx);
    const src = await source(ctx.stub, ctx.vault);
    expect((await paths(ctx.service, QUERY, "semantic", src)).paths).toContain(TARGET);
    expect(await ctx.service.remove(TARGET)).toBe(true);
    expect((await paths(ctx.service, QUERY, "semantic", src)).paths).not.toContain(TARGET);
  });

  it("another scope or filter: the next query sees that scope's notes only", async () => {
    const ctx = await setup();
    await embed(ctx);
    const src = await source(ctx.stub, ctx.vault);
    const agent = await paths(ctx.service, QUERY, "semantic", src, { scope: "agent:link" });
    expect(agent.paths).toContain(TARGET);
    const library = await paths(ctx.service, QUERY, "semantic", src, { scope: "library" });
    expect(library.paths).not.toContain(TARGET);
    expect((await paths(ctx.service, `${QUERY} type:topic`, "semantic", src)).paths).toEqual([]);
    // And back: the first scope's entry still answers right.
    expect(
      (await paths(ctx.service, QUERY, "semantic", src, { scope: "agent:link" })).paths,
    ).toContain(TARGET);
  });

  it("a vector set replaced, or a note's vectors changed: the next query ranks by the new ones", async () => {
    const ctx = await setup();
    await embed(ctx);
    const src = await source(ctx.stub, ctx.vault);
    expect((await paths(ctx.service, QUERY, "semantic", src)).paths).toContain(TARGET);
    const replaced = await source(ctx.stub, ctx.vault);
    const target = replaced.index?.notes.get(TARGET);
    if (!replaced.index || !target) throw new Error("no vectors for the target");
    replaced.index.setNote(TARGET, target.mtime, target.size, []);
    expect((await paths(ctx.service, QUERY, "semantic", replaced)).paths).not.toContain(TARGET);
    // The same vector set, changed in place.
    src.index?.setNote(TARGET, target.mtime, target.size, []);
    expect((await paths(ctx.service, QUERY, "semantic", src)).paths).not.toContain(TARGET);
  });

  it("a note whose expiry instant passes between two queries drops out of the second", async () => {
    const tv = tempVault({
      ...FILES,
      [TARGET]: `---\nexpires_at: "2026-12-01T13:00:00+00:00"\n---\n${FILES[TARGET] ?? ""}`,
    });
    cleanups.push(tv.cleanup);
    const stub = await startEmbeddingsStub({ concepts: CONCEPTS });
    cleanups.push(() => stub.close());
    let now = Date.parse("2026-12-01T12:59:59Z");
    const service = new SearchService({
      vault: tv.vault,
      layout: new MemoryLayout(defaultSettings()),
      now: () => now,
    });
    await service.open();
    await embed({ stub, service, vault: tv.vault });
    const src = await source(stub, tv.vault);
    expect((await paths(service, QUERY, "semantic", src)).paths).toContain(TARGET);
    now = Date.parse("2026-12-01T13:00:00Z"); // the instant itself: not yet past
    expect((await paths(service, QUERY, "semantic", src)).paths).toContain(TARGET);
    now = Date.parse("2026-12-01T13:00:01Z");
    expect((await paths(service, QUERY, "semantic", src)).paths).not.toContain(TARGET);
  });
});

// The vector side passes over a candidate that could not enter its top even with the largest note
// factor, before working its note's factor out (src/core/search/semantic.ts, semanticBlocks): what
// it keeps must be what ranking every block by cosine × note factor × block factor keeps.
describe("semantic recall: ranking factors of the vector list", () => {
  it("the blocks kept are those of every block ranked by cosine times both factors", async () => {
    const DIMS = 64;
    const files: Record<string, string> = {};
    const cosines = new Map<string, number>();
    for (let i = 0; i < 80; i++) {
      const path = `Memory/Library/t/n${String(i).padStart(2, "0")}.md`;
      // One note in three ranks lower (superseded), one in five has a low confidence, one in
      // seven holds a superseded entry.
      const front = [
        i % 3 === 0 ? "status: superseded" : "",
        i % 5 === 0 ? "confidence: 0.2" : "",
      ].filter(Boolean);
      const body = i % 7 === 0 ? `Entry ${i} [superseded_by:: x]\n` : `Entry ${i} text\n`;
      files[path] =
        `${front.length > 0 ? `---\n${front.join("\n")}\n---\n` : ""}# N${i}\n\n${body}`;
      cosines.set(path, 0.2 + i * 0.009);
    }
    const tv = tempVault(files);
    cleanups.push(tv.cleanup);
    const service = new SearchService({
      vault: tv.vault,
      layout: new MemoryLayout(defaultSettings()),
      now: () => NOW,
    });
    await service.open();
    const index = new VectorIndex("m", DIMS);
    const query = new Float32Array(DIMS);
    query[0] = 1;
    const expected: { path: string; score: number }[] = [];
    // The nearest notes come last in block order, when the top the vectors keep is fullest.
    const metas = service.notes().sort((a, b) => cosines.get(a.path)! - cosines.get(b.path)!);
    for (const meta of metas) {
      const blocks = embeddableBlocks(await tv.vault.read(meta.path), meta.path, false);
      const c = cosines.get(meta.path)!;
      for (const [k, b] of blocks.entries()) {
        const v = new Float32Array(DIMS);
        v[0] = c;
        v[1 + ((meta.path.length + k) % (DIMS - 1))] = Math.sqrt(1 - c * c);
        const slot = index.add(b.hash, v);
        const score =
          index.similarity(query, slot) *
          rankFactor(meta, defaultSettings().search, NOW) *
          b.factor;
        expected.push({ path: meta.path, score });
      }
      index.setNote(meta.path, meta.mtime, meta.size, blocks);
    }
    expected.sort((a, b) => b.score - a.score);
    // Some block's note factor or block factor must change the order, or the test proves nothing.
    expect(expected.map((e) => e.path)).not.toEqual(
      [...expected].sort((a, b) => cosines.get(b.path)! - cosines.get(a.path)!).map((e) => e.path),
    );
    const res = await service.search("entry", {
      limit: 10,
      semantic: { mode: "semantic", vector: query, index },
    });
    if (!res.ok) throw new Error(res.error);
    expect(res.value.results.map((h) => h.path)).toEqual(expected.slice(0, 10).map((e) => e.path));
    expect(res.value.results.map((h) => h.blocks?.[0]?.score)).toEqual(
      expected.slice(0, 10).map((e) => Math.round(e.score * 1000) / 1000),
    );
  });
});
