import { afterEach, describe, expect, it } from "vitest";
import {
  createEmbeddingsClient,
  decodeEmbedding,
  type EmbeddingsClientOptions,
} from "../../../src/core/llm/embeddings";
import { LlmError, UsageError } from "../../../src/core/errors";
import { startEmbeddingsStub, type EmbeddingsStub } from "../../helpers/embeddings-stub-server";

const KEY = "sk-embed-0123456789-SECRET";
const CONCEPTS = [
  ["backlog", "queue", "任务堆积"],
  ["bottleneck", "瓶颈"],
];
let stub: EmbeddingsStub | undefined;

afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

async function start(options: Partial<Parameters<typeof startEmbeddingsStub>[0]> = {}) {
  stub = await startEmbeddingsStub({ concepts: CONCEPTS, ...options });
  return stub;
}

function client(s: EmbeddingsStub, extra: Partial<EmbeddingsClientOptions> = {}) {
  return createEmbeddingsClient({
    baseUrl: s.baseUrl,
    apiKey: KEY,
    model: "stub-embed",
    timeoutMs: 2000,
    maxRetries: 2,
    batchSize: 2,
    encoding: "base64",
    retryBaseMs: 1,
    sleep: () => Promise.resolve(),
    ...extra,
  });
}

async function failure(p: Promise<unknown>): Promise<LlmError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(LlmError);
    return err as LlmError;
  }
  throw new Error("expected the call to fail");
}

const TEXTS = ["a long backlog", "the bottleneck", "任务堆积", "nothing here", "queue backlog"];

describe("embeddings client", () => {
  for (const encoding of ["base64", "float"] as const) {
    it(`reads ${encoding} vectors, in order, batch by batch, with usage`, async () => {
      const s = await start();
      const batches: number[] = [];
      const res = await client(s, { encoding }).embed(TEXTS, {
        onBatch: (done) => batches.push(done),
      });
      expect(res.vectors.map((v) => [...v])).toEqual(TEXTS.map((t) => s.vectorOf(t)));
      expect(s.bodies.map((b) => b.encoding_format)).toEqual([encoding, encoding, encoding]);
      expect(s.bodies.map((b) => (b.input as string[]).length)).toEqual([2, 2, 1]);
      expect(batches).toEqual([2, 4, 5]);
      expect(res.requests).toBe(3);
      expect(res.estimatedUsage).toBe(false);
      expect(res.promptTokens).toBe(TEXTS.reduce((n, t) => n + Math.ceil(t.length / 4), 0));
    });
  }

  it("reads JSON numbers when base64 was asked for but the server ignores it", async () => {
    const s = await start({ alwaysFloat: true, noUsage: true });
    const res = await client(s).embed(["backlog"]);
    expect([...(res.vectors[0] ?? [])]).toEqual([1, 0, 0]);
    expect(res.estimatedUsage).toBe(true);
  });

  it("sends the key as a bearer token and never puts it in an error", async () => {
    const s = await start({ failStatus: 401 });
    const err = await failure(client(s).embed(["x"]));
    expect(err.message).toContain("HTTP 401");
    expect(err.message).toContain("check the API key");
    expect(err.message).not.toContain(KEY);
  });

  it("retries a failing server and says how many attempts were made", async () => {
    const s = await start({ failStatus: 503 });
    const err = await failure(client(s, { maxRetries: 2 }).embed(["x"]));
    expect(err.message).toMatch(/^embeddings at http:\/\/127\.0\.0\.1:\d+\/v1 failed: HTTP 503/);
    expect(err.message).toContain("after 3 attempts");
    expect(s.bodies).toHaveLength(3);
  });

  it("gives up on a server that does not answer within the timeout", async () => {
    const s = await start({ hang: true });
    const err = await failure(client(s, { timeoutMs: 100, maxRetries: 0 }).embed(["x"]));
    expect(err.message).toContain("timed out after 100 ms after 1 attempt");
  });

  it("names the model when the server does not know it", async () => {
    const s = await start({ models: ["other"] });
    const err = await failure(client(s).embed(["x"]));
    expect(err.message).toContain('check the model name "stub-embed"');
  });

  it("refuses a base URL with credentials before sending anything", () => {
    expect(() =>
      createEmbeddingsClient({
        baseUrl: "http://user:pw@127.0.0.1:9/v1",
        apiKey: "",
        model: "m",
        timeoutMs: 100,
        maxRetries: 0,
        batchSize: 1,
        encoding: "float",
      }),
    ).toThrow(UsageError);
  });

  it("decodes base64 float32 and refuses what is not a vector", () => {
    const b64 = Buffer.from(new Float32Array([0.5, -2]).buffer).toString("base64");
    expect([...(decodeEmbedding(b64) ?? [])]).toEqual([0.5, -2]);
    expect(decodeEmbedding("abc")).toBeNull();
    expect(decodeEmbedding([1, "x"])).toBeNull();
    expect(decodeEmbedding({})).toBeNull();
  });
});
