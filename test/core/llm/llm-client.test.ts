import { request as httpRequest } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import {
  createChatClient,
  requestUrlFetch,
  type ChatClientOptions,
  type RequestUrlLike,
} from "../../../src/core/llm/client";
import { LlmError } from "../../../src/core/errors";
import { startStubServer, type StubServer } from "../../helpers/llm-stub-server";

const KEY = "sk-test-0123456789-SECRET-abcdef";
const noSleep = () => Promise.resolve();
let server: StubServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function stub(options: Parameters<typeof startStubServer>[0] = {}): Promise<StubServer> {
  server = await startStubServer(options);
  return server;
}

function client(s: StubServer, extra: Partial<ChatClientOptions> = {}) {
  return createChatClient({
    baseUrl: s.baseUrl,
    apiKey: KEY,
    model: "stub-model",
    timeoutMs: 2000,
    maxRetries: 2,
    retryBaseMs: 1,
    sleep: noSleep,
    ...extra,
  });
}

const ask = { messages: [{ role: "user" as const, content: "Reply with JSON." }] };

async function failure(p: Promise<unknown>): Promise<LlmError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(LlmError);
    return err as LlmError;
  }
  throw new Error("expected the call to fail");
}

const PAGE =
  "<!DOCTYPE html>\n<html><head><title>Open WebUI</title></head><body><div id=app></div></body></html>\n";

describe("chat client: replies that are not a chat completion, and waiting", () => {
  it("a 200 reply that is an HTML page says so and asks whether the base URL is right", async () => {
    const s = await stub();
    s.enqueue({ raw: { contentType: "text/html; charset=utf-8", text: PAGE } });
    const err = await failure(client(s).complete(ask));
    expect(err.message).toMatch(
      /^chat completion at http:\/\/127\.0\.0\.1:\d+\/v1: the server answered with HTML, not a chat completion — is the base URL right\?/,
    );
    expect(s.chatRequests()).toHaveLength(1);
  });

  it("a 200 reply of other text says what it began with", async () => {
    const s = await stub();
    s.enqueue({ raw: { contentType: "text/plain", text: "Ollama is running" } });
    const err = await failure(client(s).complete(ask));
    expect(err.message).toContain(
      'the server answered with text, not a chat completion ("Ollama is running")',
    );
  });

  it("reports progress while it waits for a slow reply, and stops when the reply comes", async () => {
    const s = await stub();
    s.enqueue({ delayMs: 600, content: "{}" });
    const seen: { attempt: number; of: number; waitedMs: number }[] = [];
    const reply = await client(s, {
      timeoutMs: 1000,
      maxRetries: 0,
      onWaiting: (w) => seen.push({ attempt: w.attempt, of: w.attempts, waitedMs: w.waitedMs }),
    }).complete(ask);
    expect(reply.content).toBe("{}");
    expect(seen.length).toBeGreaterThanOrEqual(1);
    expect(seen[0]).toMatchObject({ attempt: 1, of: 1 });
    const count = seen.length;
    await new Promise((r) => setTimeout(r, 700));
    expect(seen.length).toBe(count);
  });
});

describe("chat client", () => {
  it("sends the model, the messages and the key, and returns content, finish reason and usage", async () => {
    const s = await stub();
    s.enqueue({ content: '{"items":[]}', usage: { prompt_tokens: 120, completion_tokens: 7 } });
    const reply = await client(s).complete({ ...ask, temperature: 0.2 });
    expect(reply).toMatchObject({
      content: '{"items":[]}',
      finishReason: "stop",
      promptTokens: 120,
      completionTokens: 7,
      attempts: 1,
    });
    const req = s.chatRequests()[0];
    expect(req?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req?.body).toMatchObject({
      model: "stub-model",
      temperature: 0.2,
      messages: ask.messages,
    });
    expect(req?.responseFormat).toBe("json_object");
  });

  it("retries a 429 and then succeeds", async () => {
    const s = await stub();
    s.enqueue(
      {
        status: 429,
        body: { error: { message: "Rate limit reached" } },
        headers: { "retry-after-ms": "5" },
      },
      { content: "{}" },
    );
    const reply = await client(s).complete(ask);
    expect(reply.attempts).toBe(2);
    expect(s.chatRequests()).toHaveLength(2);
  });

  it("waits a Retry-After of up to a minute, and fails at once on a longer one, naming the 429", async () => {
    const waits: number[] = [];
    const record = (ms: number) => {
      waits.push(ms);
      return Promise.resolve();
    };
    const s = await stub();
    s.enqueue({ status: 429, headers: { "retry-after": "60" } }, { content: "{}" });
    const reply = await client(s, { sleep: record }).complete(ask);
    expect(reply.attempts).toBe(2);
    expect(waits).toEqual([60_000]);

    s.enqueue(
      { status: 429, body: { error: { message: "quota" } }, headers: { "retry-after": "61" } },
      { content: "{}" },
    );
    const err = await failure(client(s, { sleep: record }).complete(ask));
    expect(waits).toEqual([60_000]);
    expect(s.chatRequests()).toHaveLength(3);
    expect(err.message).toContain("HTTP 429 (quota) after 1 attempt;");
  });

  it("retries 5xx and then names the server, the status and the attempts", async () => {
    const s = await stub();
    s.enqueue({ status: 503 }, { status: 503 }, { status: 503 });
    const err = await failure(client(s).complete(ask));
    expect(s.chatRequests()).toHaveLength(3);
    expect(err.message).toContain(s.baseUrl);
    expect(err.message).toContain("HTTP 503");
    expect(err.message).toContain("after 3 attempts");
    expect(err.message).not.toContain("\n");
  });

  it("does not retry a 401, says to check the key, and never shows the key the server echoed", async () => {
    const s = await stub();
    s.enqueue({ status: 401, body: { error: { message: `Incorrect API key provided: ${KEY}` } } });
    const err = await failure(client(s).complete(ask));
    expect(s.chatRequests()).toHaveLength(1);
    expect(err.message).toMatch(/HTTP 401 .*check the API key/);
    expect(err.message).not.toContain(KEY);
    expect(JSON.stringify({ ...err, message: err.message, stack: err.stack })).not.toContain(KEY);
  });

  it("says to check the model name on a 404", async () => {
    const s = await stub();
    s.enqueue({ status: 404, body: { error: { message: "model 'nope' not found" } } });
    const err = await failure(client(s, { model: "nope" }).complete(ask));
    expect(err.message).toContain('check the model name "nope"');
    expect(err.message).toContain("model 'nope' not found");
  });

  it("times out on a hung server with a clear error", async () => {
    const s = await stub();
    s.enqueue({ hang: true }, { hang: true });
    const err = await failure(client(s, { timeoutMs: 150, maxRetries: 1 }).complete(ask));
    expect(err.message).toContain("timed out after 150 ms after 2 attempts");
    expect(err.message).toContain("raise the timeout");
    expect(err.subject).toBe(s.baseUrl);
  });

  it("says it could not connect when nothing listens", async () => {
    const s = await stub();
    const url = s.baseUrl;
    await s.close();
    server = undefined;
    const err = await failure(
      createChatClient({
        baseUrl: url,
        apiKey: KEY,
        model: "m",
        timeoutMs: 1000,
        maxRetries: 1,
        retryBaseMs: 1,
        sleep: noSleep,
      }).complete(ask),
    );
    expect(err.message).toContain(`at ${url} could not connect`);
    expect(err.message).toContain("check the base URL");
  });

  it("falls back from structured outputs to JSON mode to plain JSON when the server rejects response_format", async () => {
    const s = await stub({ rejectResponseFormats: ["json_schema", "json_object"] });
    s.enqueue({ content: '{"items":[]}' }, { content: '{"items":[]}' });
    const c = client(s);
    const schema = { name: "x", schema: { type: "object" } };
    const first = await c.complete({ ...ask, jsonSchema: schema });
    expect(first.responseFormat).toBe("text");
    expect(first.notes.join(" ")).toContain("rejected response_format json_schema");
    expect(s.chatRequests().map((r) => r.responseFormat ?? "none")).toEqual([
      "json_schema",
      "json_object",
      "none",
    ]);
    // Later calls start with what worked.
    const second = await c.complete({ ...ask, jsonSchema: schema });
    expect(second.notes).toEqual([]);
    expect(s.chatRequests()).toHaveLength(4);
  });

  it("asks again without temperature when the model rejects it", async () => {
    const s = await stub();
    s.enqueue(
      {
        status: 400,
        body: { error: { message: "Unsupported value: 'temperature' does not support 0.2" } },
      },
      { content: "{}" },
    );
    const reply = await client(s).complete({ ...ask, temperature: 0.2 });
    expect(reply.notes.join(" ")).toContain("temperature");
    expect((s.chatRequests()[1]?.body as { temperature?: number }).temperature).toBeUndefined();
  });

  it("estimates usage when the server reports none", async () => {
    const s = await stub();
    s.enqueue({ content: '{"items":[]}', usage: null });
    const reply = await client(s).complete(ask);
    expect(reply.estimatedUsage).toBe(true);
    expect(reply.promptTokens).toBeGreaterThan(0);
  });

  it("reads a 200 reply without choices as empty content instead of crashing", async () => {
    const s = await stub();
    s.enqueue({ status: 200, body: { error: { message: "model is loading" } } });
    const reply = await client(s).complete(ask);
    expect(reply).toMatchObject({ content: "", finishReason: null });
  });

  it("lists models for the connection test", async () => {
    const s = await stub({ models: ["llama3.1", "qwen2.5"] });
    expect(await client(s).listModels()).toEqual(["llama3.1", "qwen2.5"]);
  });
});

/**
 * A stand-in for Obsidian's `requestUrl` over `node:http`, with its documented behaviour: it
 * throws on a status ≥ 400 unless `throw: false`, and cannot be cancelled.
 */
const fakeRequestUrl: RequestUrlLike = (req) =>
  new Promise((resolve, reject) => {
    const out = httpRequest(
      req.url,
      { method: req.method ?? "GET", headers: req.headers ?? {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const status = res.statusCode ?? 0;
          if (status >= 400 && req.throw !== false)
            return reject(new Error(`Request failed, status ${status}`));
          const headers: Record<string, string> = {};
          for (const [k, v] of Object.entries(res.headers))
            if (typeof v === "string") headers[k] = v;
          const body = Buffer.concat(chunks);
          resolve({
            status,
            headers,
            arrayBuffer: body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength),
          });
        });
      },
    );
    out.on("error", reject);
    if (req.body !== undefined)
      out.write(typeof req.body === "string" ? req.body : Buffer.from(req.body));
    out.end();
  });

describe("requestUrl fetch", () => {
  it("returns 4xx/5xx responses so the retries see the real status", async () => {
    const s = await stub();
    s.enqueue({ status: 429, headers: { "retry-after-ms": "1" } }, { content: '{"items":[]}' });
    const c = client(s, { fetch: requestUrlFetch(fakeRequestUrl) });
    const reply = await c.complete(ask);
    expect(reply.content).toBe('{"items":[]}');
    expect(reply.attempts).toBe(2);
    expect(s.chatRequests()[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it("reports the status of a failed request through it", async () => {
    const s = await stub();
    s.enqueue({ status: 401 });
    const err = await failure(client(s, { fetch: requestUrlFetch(fakeRequestUrl) }).complete(ask));
    expect(err.message).toContain("HTTP 401");
  });

  it("gives up on a hung server when the SDK's timeout aborts", async () => {
    const s = await stub();
    s.enqueue({ hang: true });
    const err = await failure(
      client(s, { fetch: requestUrlFetch(fakeRequestUrl), timeoutMs: 100, maxRetries: 0 }).complete(
        ask,
      ),
    );
    expect(err.message).toContain("timed out after 100 ms");
  });

  it("passes the body and method and keeps a null-body status empty", async () => {
    const seen: { method?: string; body?: string | ArrayBuffer; throw?: boolean }[] = [];
    const f = requestUrlFetch((req) => {
      seen.push(req);
      return Promise.resolve({ status: 204, headers: {}, arrayBuffer: new ArrayBuffer(0) });
    });
    const res = await f("http://example.invalid/x", {
      method: "POST",
      body: "{}",
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(204);
    expect(seen[0]).toMatchObject({ method: "POST", body: "{}", throw: false });
  });
});
