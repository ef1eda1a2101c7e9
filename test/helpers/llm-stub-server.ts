/**
 * A local OpenAI-compatible stub server for tests and the extraction bench
 * (docs/testing.md, "How the suite is organised"):
 * `node:http` on 127.0.0.1 with a random port, serving scripted `/v1/chat/completions` replies and
 * `/v1/models`, and recording every request, so the real `openai` SDK path (headers, JSON bodies,
 * status codes, retries, timeouts) is exercised. Test code only, not a product mode.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";

/** One scripted reply. */
export interface StubReply {
  /** HTTP status; default 200. */
  status?: number;
  /** Message content of a 200 reply. */
  content?: string;
  /** Shorthand: content = `{"items": items}`. */
  items?: unknown[];
  /** `finish_reason`; default `stop`. */
  finishReason?: string;
  /** Usage to report; default estimated from the request and reply; `null` omits it. */
  usage?: { prompt_tokens: number; completion_tokens: number } | null;
  /** Raw JSON body, sent as is (error replies). */
  body?: unknown;
  /** A body that is not JSON, sent as is with its content type (a web page at the wrong URL). */
  raw?: { contentType: string; text: string };
  headers?: Record<string, string>;
  /** Extra delay before replying, milliseconds. */
  delayMs?: number;
  /** Never reply (a hung server). */
  hang?: boolean;
}

/** A recorded request. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body, or `undefined`. */
  body: unknown;
  /** Chat messages of a chat completion request. */
  messages: { role: string; content: string }[];
  /** `response_format.type` of a chat completion request. */
  responseFormat?: string;
  /** True once the client closed the connection before the reply was sent (an aborted request). */
  abandoned?: boolean;
}

export type StubHandler =
  StubReply | ((request: RecordedRequest) => StubReply | Promise<StubReply>);

export interface StubServerOptions {
  /** Latency added to every reply, milliseconds (the bench uses it). */
  latencyMs?: number;
  /** Ids listed by `/v1/models`. */
  models?: string[];
  /** Used when the script is empty; default: HTTP 500 "no scripted reply". */
  fallback?: StubHandler;
  /** `response_format` types answered with HTTP 400, like servers that do not support them. */
  rejectResponseFormats?: string[];
}

export interface StubServer {
  /** Base URL including `/v1`, e.g. `http://127.0.0.1:41234/v1`. */
  baseUrl: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Chat completion requests only. */
  chatRequests(): RecordedRequest[];
  /** Appends scripted replies, consumed one per chat completion request. */
  enqueue(...handlers: StubHandler[]): void;
  /** Scripted replies not consumed yet. */
  pending(): number;
  close(): Promise<void>;
}

function estimate(text: string): number {
  return Math.ceil(text.length / 4);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** Starts a stub server on 127.0.0.1 with a random port. */
export async function startStubServer(options: StubServerOptions = {}): Promise<StubServer> {
  const queue: StubHandler[] = [];
  const requests: RecordedRequest[] = [];
  let counter = 0;

  const server = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      let body: unknown;
      try {
        body = raw ? (JSON.parse(raw) as unknown) : undefined;
      } catch {
        body = undefined;
      }
      const b = (body ?? {}) as {
        messages?: { role: string; content: string }[];
        response_format?: { type?: string };
        model?: string;
      };
      const recorded: RecordedRequest = {
        method: req.method ?? "GET",
        path: (req.url ?? "").split("?")[0] ?? "",
        headers: { ...req.headers },
        body,
        messages: Array.isArray(b.messages) ? b.messages : [],
      };
      if (b.response_format?.type) recorded.responseFormat = b.response_format.type;
      requests.push(recorded);
      res.on("close", () => {
        if (!res.writableEnded) recorded.abandoned = true;
      });
      if (options.latencyMs) await sleep(options.latencyMs);

      if (recorded.method === "GET" && recorded.path.endsWith("/models")) {
        sendJson(res, 200, {
          object: "list",
          data: (options.models ?? ["stub-model"]).map((id) => ({
            id,
            object: "model",
            created: 0,
            owned_by: "stub",
          })),
        });
        return;
      }
      if (!recorded.path.endsWith("/chat/completions")) {
        sendJson(res, 404, { error: { message: `stub: no route ${recorded.path}` } });
        return;
      }
      if (
        recorded.responseFormat &&
        options.rejectResponseFormats?.includes(recorded.responseFormat)
      ) {
        sendJson(res, 400, {
          error: {
            message: `response_format ${recorded.responseFormat} is not supported`,
            type: "invalid_request_error",
          },
        });
        return;
      }
      const handler = queue.shift() ?? options.fallback;
      if (!handler) {
        sendJson(res, 500, { error: { message: "stub: no scripted reply" } });
        return;
      }
      const reply = typeof handler === "function" ? await handler(recorded) : handler;
      if (reply.hang) return; // the socket stays open until the client gives up or close() runs
      if (reply.delayMs) await sleep(reply.delayMs);
      const status = reply.status ?? 200;
      if (reply.raw) {
        res.writeHead(status, {
          "content-type": reply.raw.contentType,
          "content-length": Buffer.byteLength(reply.raw.text),
          ...reply.headers,
        });
        res.end(reply.raw.text);
        return;
      }
      if (reply.body !== undefined || status !== 200) {
        sendJson(
          res,
          status,
          reply.body ?? { error: { message: `stub error ${status}` } },
          reply.headers,
        );
        return;
      }
      const content = reply.content ?? JSON.stringify({ items: reply.items ?? [] });
      const usage =
        reply.usage === null
          ? undefined
          : (reply.usage ?? {
              prompt_tokens: estimate(recorded.messages.map((m) => m.content).join("\n")),
              completion_tokens: estimate(content),
            });
      counter++;
      sendJson(
        res,
        200,
        {
          id: `chatcmpl-stub-${counter}`,
          object: "chat.completion",
          created: 0,
          model: b.model ?? "stub-model",
          choices: [
            {
              index: 0,
              message: { role: "assistant", content },
              finish_reason: reply.finishReason ?? "stop",
            },
          ],
          ...(usage
            ? { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } }
            : {}),
        },
        reply.headers,
      );
    })().catch((err: unknown) => {
      if (!res.headersSent)
        sendJson(res, 500, { error: { message: `stub failure: ${String(err)}` } });
    });
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    chatRequests: () => requests.filter((r) => r.path.endsWith("/chat/completions")),
    enqueue: (...handlers) => {
      queue.push(...handlers);
    },
    pending: () => queue.length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
