/**
 * A local OpenAI-compatible embeddings stub for tests and benches (docs/testing.md, "How the suite
 * is organised"): `node:http` on 127.0.0.1 with a random port, serving `POST /v1/embeddings` with
 * vectors from a deterministic rule (a concept table: dimension i counts the words of concept i in
 * the text, the last dimension is "none of them"), in the encoding the request asks for, and
 * recording every text it received. Test code only, not a product mode.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";

export interface EmbeddingsStubOptions {
  /** Concepts: each a list of words (matched as lower-case substrings, so CJK words work). */
  concepts: string[][];
  /** Status of every reply instead of vectors (a failing server). */
  failStatus?: number;
  /** Delay before each reply, milliseconds (a slow server). */
  delayMs?: number;
  /** Never reply (a hung server). */
  hang?: boolean;
  /** Always answer with JSON numbers, whatever `encoding_format` asks (some servers do). */
  alwaysFloat?: boolean;
  /** Models the server knows; another is answered 404 "model not found". Default: any. */
  models?: string[];
  /** Leave `usage` out of replies. */
  noUsage?: boolean;
}

export interface EmbeddingsStub {
  /** Base URL including `/v1`. */
  baseUrl: string;
  /** Every text received, in order. */
  inputs: string[];
  /** Every request's body. */
  bodies: { model?: string; encoding_format?: string; input?: unknown }[];
  /** Dimensions of the vectors served (concepts + 1). */
  dims: number;
  /** The rule's vector for `text`. */
  vectorOf(text: string): number[];
  /** Changes the options of later replies. */
  set(options: Partial<EmbeddingsStubOptions>): void;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Starts the stub on 127.0.0.1 with a random port. */
export async function startEmbeddingsStub(initial: EmbeddingsStubOptions): Promise<EmbeddingsStub> {
  let options = { ...initial };
  const inputs: string[] = [];
  const bodies: EmbeddingsStub["bodies"] = [];
  const dims = options.concepts.length + 1;
  const vectorOf = (text: string): number[] => {
    const lower = text.toLowerCase();
    const v = options.concepts.map((words) =>
      words.reduce((n, w) => n + (lower.includes(w.toLowerCase()) ? 1 : 0), 0),
    );
    v.push(v.every((x) => x === 0) ? 1 : 0);
    return v;
  };
  const server = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      const body = (raw ? JSON.parse(raw) : {}) as EmbeddingsStub["bodies"][number];
      bodies.push(body);
      const texts = Array.isArray(body.input) ? (body.input as string[]) : [String(body.input)];
      inputs.push(...texts);
      const send = (status: number, value: unknown) => {
        const text = JSON.stringify(value);
        res.writeHead(status, { "content-type": "application/json" });
        res.end(text);
      };
      if (options.hang) return;
      if (options.delayMs) await sleep(options.delayMs);
      if (!(req.url ?? "").endsWith("/embeddings"))
        return send(404, { error: { message: `stub: no route ${req.url}` } });
      if (options.failStatus)
        return send(options.failStatus, { error: { message: `stub error ${options.failStatus}` } });
      if (options.models && !options.models.includes(body.model ?? ""))
        return send(404, { error: { message: `model "${body.model}" not found` } });
      const base64 = body.encoding_format === "base64" && !options.alwaysFloat;
      send(200, {
        object: "list",
        model: body.model,
        data: texts.map((t, index) => {
          const v = vectorOf(t);
          return {
            object: "embedding",
            index,
            embedding: base64 ? Buffer.from(new Float32Array(v).buffer).toString("base64") : v,
          };
        }),
        ...(options.noUsage
          ? {}
          : {
              usage: {
                prompt_tokens: texts.reduce((n, t) => n + Math.ceil(t.length / 4), 0),
                total_tokens: 0,
              },
            }),
      });
    })().catch((err: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: `stub failure: ${String(err)}` } }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    inputs,
    bodies,
    dims,
    vectorOf,
    set(next) {
      options = { ...options, ...next };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
