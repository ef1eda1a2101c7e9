/**
 * A session's transport for the HTTP server (docs/decisions.md, "MCP over HTTP answers a plain
 * request itself"): the SDK's `StreamableHTTPServerTransport` in JSON-response mode, with the
 * common request answered without it. A `POST` of one JSON-RPC request (not `initialize`) whose
 * headers the SDK would accept as they are goes straight to the session's `McpServer`, and its
 * answer is written as the SDK writes it (status 200, `Content-Type: application/json`, the
 * session id, the JSON of the response); everything else — `initialize`, batches, notifications,
 * the `GET` stream, `DELETE`, and every request the SDK would refuse — is the SDK's. The SDK's
 * Node transport turns each request into a web `Request` and each answer into a web `Response`
 * read back as a stream, which cost more CPU than the search it carried. A request taken here is
 * cancelled, as the SDK's protocol cancels one, when its client sends `notifications/cancelled`
 * or closes the connection before the answer.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type {
  Transport,
  TransportSendOptions,
} from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  JSONRPCMessageSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type MessageExtraInfo,
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";

/**
 * `Content-Type` values taken as JSON here; any other is left to the SDK, which parses the media
 * type (and may accept it too).
 */
const PLAIN_JSON = /^application\/json(?:\s*;\s*charset=utf-8)?$/i;

/**
 * True when the SDK's transport would take `req` as it is (a JSON body it may answer with JSON,
 * the session it is, a protocol version it supports): the checks of its `handlePostRequest`, or
 * stricter.
 */
export function plainPost(req: IncomingMessage, sessionId: string | undefined): boolean {
  if (req.method !== "POST" || sessionId === undefined) return false;
  const accept = req.headers.accept ?? "";
  if (!accept.includes("application/json") || !accept.includes("text/event-stream")) return false;
  if (!PLAIN_JSON.test((req.headers["content-type"] ?? "").trim())) return false;
  if (req.headers["mcp-session-id"] !== sessionId) return false;
  const version = req.headers["mcp-protocol-version"];
  return (
    version === undefined ||
    (typeof version === "string" && SUPPORTED_PROTOCOL_VERSIONS.includes(version))
  );
}

/** True for a JSON-RPC request (a method and an id; a notification has no id). */
function isRequest(message: JSONRPCMessage): message is JSONRPCRequest {
  return "method" in message && "id" in message;
}

/** True for a JSON-RPC response (a result or an error), which answers the request of its id. */
function isResponse(message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId } {
  return "id" in message && ("result" in message || "error" in message);
}

/** See the module comment. */
export class JsonSessionTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  /**
   * The requests taken here and not yet answered, by the id the server saw: each request gets
   * one of its own (`<prefix><n>`), so two requests of one id in flight at once, or a retry of a
   * request whose client went away, each get their own answer, never another's.
   */
  private readonly waiting = new Map<
    string,
    { clientId: RequestId; answer: (message: JSONRPCMessage | null) => void }
  >();
  /** Starts every id given here; random, so no id a client sends is one. */
  private readonly prefix = `agent-memory-${randomUUID()}-`;
  private next = 0;
  private closed = false;

  constructor(private readonly sdk: StreamableHTTPServerTransport) {
    sdk.onmessage = (message, extra) => this.onmessage?.(this.ownCancel(message), extra);
    sdk.onerror = (error) => this.onerror?.(error);
    sdk.onclose = () => {
      // Requests still waiting are answered that the session ended (their HTTP requests would
      // otherwise stay open, and a server's stop waits for them).
      this.closed = true;
      for (const { answer } of this.waiting.values()) answer(null);
      this.waiting.clear();
      this.onclose?.();
    };
  }

  /**
   * A client's `notifications/cancelled` of a request taken here, renamed to the id the server saw
   * (so the tool's signal is aborted); every other message as it is.
   */
  private ownCancel(message: JSONRPCMessage): JSONRPCMessage {
    if (!("method" in message) || message.method !== "notifications/cancelled") return message;
    const params = (message.params ?? {}) as { requestId?: unknown };
    for (const [own, w] of this.waiting)
      if (w.clientId === params.requestId)
        return { ...message, params: { ...params, requestId: own } };
    return message;
  }

  /** Tells the server that the request `own` is cancelled, as a client's notification would. */
  private cancel(own: string, reason: string): void {
    this.onmessage?.({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: own, reason },
    });
  }

  get sessionId(): string | undefined {
    return this.sdk.sessionId;
  }

  start(): Promise<void> {
    return this.sdk.start();
  }

  close(): Promise<void> {
    return this.sdk.close();
  }

  /**
   * The answer to a request taken here goes to its HTTP response, under the id the client gave;
   * an answer whose request is no longer waiting (its client went away) and a notification or
   * request related to one taken here are dropped, as the SDK drops them in JSON-response mode (no
   * stream to carry them). Everything else is the SDK's.
   */
  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const id = isResponse(message) ? message.id : options?.relatedRequestId;
    if (typeof id === "string" && id.startsWith(this.prefix)) {
      if (isResponse(message)) {
        const waiting = this.waiting.get(id);
        this.waiting.delete(id);
        waiting?.answer(message);
      }
      return Promise.resolve();
    }
    return this.sdk.send(message, options);
  }

  /**
   * Answers one HTTP request of the session: a plain request here ({@link plainPost}, one JSON-RPC
   * request that is not `initialize`), anything else through the SDK's transport.
   * @param body the parsed JSON body of a `POST`; `undefined` for other methods
   */
  async handle(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const sessionId = this.sessionId;
    const parsed =
      !this.closed &&
      plainPost(req, sessionId) &&
      body !== null &&
      typeof body === "object" &&
      !Array.isArray(body)
        ? JSONRPCMessageSchema.safeParse(body)
        : null;
    const message = parsed?.success ? parsed.data : null;
    if (
      sessionId === undefined ||
      message === null ||
      !isRequest(message) ||
      message.method === "initialize"
    ) {
      await this.sdk.handleRequest(req, res, body);
      return;
    }
    let url: URL;
    try {
      url = new URL(req.url ?? "/mcp", `http://${req.headers.host ?? "localhost"}`);
    } catch {
      // A Host that names no host: the SDK's to answer.
      await this.sdk.handleRequest(req, res, body);
      return;
    }
    const own = `${this.prefix}${this.next++}`;
    const answer = new Promise<JSONRPCMessage | null>((resolve) =>
      this.waiting.set(own, { clientId: message.id, answer: resolve }),
    );
    // A client that goes away is not waited for: its answer is dropped when it comes, and the
    // call is cancelled (a long tool stops at its next checkpoint; docs/mcp.md, "Cancelling").
    res.on("close", () => {
      if (!this.waiting.delete(own)) return;
      this.cancel(own, "the client closed the connection before the answer");
    });
    this.onmessage?.({ ...message, id: own }, { requestInfo: { headers: req.headers, url } });
    const got = await answer;
    if (res.destroyed) return;
    const json = JSON.stringify(
      got === null
        ? { jsonrpc: "2.0", id: message.id, error: { code: -32000, message: "the session ended" } }
        : { ...got, id: message.id },
    );
    res.writeHead(200, {
      "Content-Type": "application/json",
      "mcp-session-id": sessionId,
      "Content-Length": Buffer.byteLength(json),
    });
    res.end(json);
  }
}
