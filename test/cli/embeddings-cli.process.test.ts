// Semantic recall through the CLI (docs/architecture.md, "Semantic recall"): `index` embeds the
// blocks through a local stub embeddings server, `search --retrieval` ranks by them, and a dead
// server leaves BM25 answering with one line on stderr.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CLI_PATH, offlineEnv } from "../helpers/cli-run";
import { startEmbeddingsStub, type EmbeddingsStub } from "../helpers/embeddings-stub-server";
import { tempVault } from "../helpers/temp-vault";
import { startMcp } from "../helpers/mcp-client";

const TARGET = "Memory/Agents/link/Journal/2026-11-20.md";
const FILES: Record<string, string> = {
  [TARGET]: "# 2026-11-20\n\n审核环节存在瓶颈。\n",
  "Memory/Library/ops/Deploys.md": "# Deploys\n\nWe release on Tuesdays.\n",
  "Memory/Restricted/hr/Pay.md": "# Pay\n\nThe payroll run moves to the 25th.\n",
  "Memory/Agents/link/Trackers/Tasks.md": "# Tasks\n",
};
const KEY = "sk-embed-do-not-leak-42";

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

/** Runs the CLI without blocking the event loop (the stub server lives in this process). */
function run(
  env: Record<string, string>,
  ...args: string[]
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI_PATH, ...args], {
      env: { ...offlineEnv(), AGENT_MEMORY_SERVER: "off", ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

async function setup(): Promise<{
  dir: string;
  stub: EmbeddingsStub;
  env: Record<string, string>;
}> {
  const tv = tempVault(FILES);
  cleanups.push(tv.cleanup);
  const stub = await startEmbeddingsStub({ concepts: [["任务堆积", "瓶颈"], ["release"]] });
  cleanups.push(() => stub.close());
  return {
    dir: tv.root,
    stub,
    env: {
      AGENT_MEMORY_EMBEDDINGS_BASE_URL: stub.baseUrl,
      AGENT_MEMORY_EMBEDDINGS_MODEL: "stub-embed",
      AGENT_MEMORY_EMBEDDINGS_API_KEY: KEY,
    },
  };
}

describe("agent-memory index and search with embeddings", () => {
  it("index embeds new blocks only, with progress on stderr; search defaults to hybrid", async () => {
    const { dir, stub, env } = await setup();
    const first = await run(env, "index", dir, "--json");
    expect(first.code).toBe(0);
    const report = JSON.parse(first.stdout) as { embeddings: Record<string, unknown> };
    expect(report.embeddings).toMatchObject({ model: "stub-embed", dims: 3, sent: 2, blocks: 2 });
    expect(report.embeddings.zones_left_out).toEqual({ Restricted: 1 });
    expect(first.stderr).toContain("index: embedding blocks 2/2 (model stub-embed)");
    expect(stub.inputs.join("\n")).not.toContain("payroll");
    const second = await run(env, "index", dir, "--json");
    expect((JSON.parse(second.stdout) as typeof report).embeddings.sent).toBe(0);
    expect(stub.inputs).toHaveLength(2);

    const hybrid = await run(env, "search", dir, "任务堆积", "--json");
    expect(hybrid.code).toBe(0);
    const out = JSON.parse(hybrid.stdout) as { retrieval: string; results: { path: string }[] };
    expect(out.retrieval).toBe("hybrid");
    expect(out.results.map((r) => r.path)).toEqual([TARGET]);
    const bm25 = await run(env, "search", dir, "任务堆积", "--retrieval", "bm25", "--json");
    expect(JSON.parse(bm25.stdout)).toMatchObject({ retrieval: "bm25", results: [] });
    const passages = await run(env, "search", dir, "任务堆积", "--passages", "1");
    expect(passages.stdout).toContain("in scope all, hybrid");
    expect(passages.stdout).toContain(`${TARGET}:3`);
  });

  it("a dead server never fails a search: BM25 answers and one line says why", async () => {
    const { dir, stub, env } = await setup();
    expect((await run(env, "index", dir)).code).toBe(0);
    stub.set({ failStatus: 503 });
    const res = await run(env, "search", dir, "release", "--json");
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ retrieval: "bm25" });
    const lines = res.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^search: BM25 only: embeddings at .* failed: HTTP 503/);
    expect(res.stderr).not.toContain(KEY);
  });

  it("a setting that cannot be used gives one line saying why, not a second saying none is configured", async () => {
    const { dir } = await setup();
    for (const [env, why] of [
      [
        {
          AGENT_MEMORY_EMBEDDINGS_BASE_URL: "http://u:p@127.0.0.1:1/v1",
          AGENT_MEMORY_EMBEDDINGS_MODEL: "m",
        },
        /credentials/,
      ],
      [{ AGENT_MEMORY_EMBEDDINGS_BASE_URL: "http://127.0.0.1:1/v1" }, /MODEL/],
    ] as const) {
      for (const extra of [[], ["--passages", "2"]]) {
        const res = await run(env, "search", dir, "release", "--retrieval", "hybrid", ...extra);
        expect(res.code).toBe(0);
        const lines = res.stderr.trim().split("\n");
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatch(/^search: BM25 only: /);
        expect(lines[0]).toMatch(why);
      }
    }
  });

  it("without embeddings configured search is BM25 and says so in its JSON", async () => {
    const { dir } = await setup();
    const res = await run({}, "search", dir, "release", "--json");
    expect(JSON.parse(res.stdout)).toMatchObject({ retrieval: "bm25" });
    expect(res.stderr).toBe("");
  });

  it("index refuses a base URL with credentials and a model the server lacks, naming the setting", async () => {
    const { dir, stub, env } = await setup();
    const creds = await run(
      { ...env, AGENT_MEMORY_EMBEDDINGS_BASE_URL: "http://u:secret@127.0.0.1:9/v1" },
      "index",
      dir,
    );
    expect(creds.code).toBe(2);
    expect(creds.stderr).toContain("AGENT_MEMORY_EMBEDDINGS_BASE_URL");
    expect(creds.stderr).not.toContain("secret");
    stub.set({ models: ["nomic-embed-text"] });
    const unknown = await run(env, "index", dir);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain("AGENT_MEMORY_EMBEDDINGS_MODEL");
    const bad = await run(env, "search", dir, "x", "--retrieval", "vector");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--retrieval must be one of bm25, hybrid, semantic");
  });
});

describe("the MCP search tool with embeddings", () => {
  it("search uses hybrid retrieval in both modes, with the SDK's own client over stdio", async () => {
    const { dir, env } = await setup();
    expect((await run(env, "index", dir)).code).toBe(0);
    const mcp = await startMcp(dir, ["--agent", "link"], env);
    cleanups.push(() => mcp.close());
    const notes = await mcp.call("search", { query: "任务堆积", scope: "all" });
    expect(notes.isError).toBeFalsy();
    expect(notes.structuredContent).toMatchObject({ retrieval: "hybrid", total: 1 });
    const passages = await mcp.call("search", {
      query: "任务堆积",
      mode: "passages",
      scope: "all",
    });
    expect(passages.structuredContent).toMatchObject({ retrieval: "hybrid", mode: "passages" });
    const bm25 = await mcp.call("search", { query: "任务堆积", retrieval: "bm25", scope: "all" });
    expect(bm25.structuredContent).toMatchObject({ retrieval: "bm25", total: 0 });
  });
});

describe("agent-memory index resumes after a kill", () => {
  it("a killed index keeps the vectors it received; the rerun sends only the rest", async () => {
    // 50 notes of 4 blocks: 200 texts, 64 a request (embeddings.batchSize), a slow server.
    const files: Record<string, string> = {};
    for (let n = 0; n < 50; n++)
      files[`Memory/Library/notes/N${n}.md`] = `# N${n}\n\n${[0, 1, 2, 3]
        .map((b) => `Block ${b} of note ${n}: release notes, part ${n * 4 + b}.`)
        .join("\n\n")}\n`;
    const tv = tempVault(files);
    cleanups.push(tv.cleanup);
    const stub = await startEmbeddingsStub({ concepts: [["release"]], delayMs: 400 });
    cleanups.push(() => stub.close());
    const env = {
      ...offlineEnv(),
      AGENT_MEMORY_SERVER: "off",
      AGENT_MEMORY_EMBEDDINGS_BASE_URL: stub.baseUrl,
      AGENT_MEMORY_EMBEDDINGS_MODEL: "stub-embed",
    };
    const child = spawn(process.execPath, [CLI_PATH, "index", tv.root], { env });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise((resolve) => child.on("close", resolve));
    // Killed once the first request's vectors are on disk and while the second is under way.
    const vectors = join(tv.root, ".agent-memory", "vectors.bin");
    while (!(existsSync(vectors) && stub.inputs.length > 64))
      await new Promise((r) => setTimeout(r, 20));
    child.kill("SIGKILL");
    await exited;
    expect(stderr).not.toContain("200/200");
    const sentFirst = stub.inputs.length;
    expect(sentFirst).toBeLessThan(200);

    stub.set({ delayMs: 0 });
    const rerun = await run(env, "index", tv.root, "--json");
    expect(rerun.code).toBe(0);
    const report = JSON.parse(rerun.stdout) as { embeddings: Record<string, number> };
    const sent = stub.inputs.length - sentFirst;
    expect(report.embeddings.sent).toBe(sent);
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThanOrEqual(200 - 64);
    expect(report.embeddings).toMatchObject({ blocks: 200, vectors: 200 });
    // Progress counts what this run sends.
    expect(rerun.stderr).toContain(`index: embedding blocks ${sent}/${sent} (model stub-embed)`);
    const third = await run(env, "index", tv.root, "--json");
    expect((JSON.parse(third.stdout) as typeof report).embeddings.sent).toBe(0);
    expect(third.stderr).not.toContain("embedding blocks");
    expect(stub.inputs.length).toBe(sentFirst + sent);
  }, 30_000);
});
