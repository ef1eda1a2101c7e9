/**
 * OpenAI-compatible chat client (docs/architecture.md, "Extractors" and "The model's reply"): the
 * `openai` SDK against any base URL (OpenAI, Ollama, LM Studio, OpenRouter, DeepSeek, GLM …) with
 * an injected `fetch`, per-request timeout, retries with backoff, JSON output with graceful
 * fallback, and token usage. The API key is passed to the SDK only; it is never logged or put in a
 * message.
 */
import OpenAI from "openai";
import type { ChatCompletionCreateParamsNonStreaming } from "openai/resources/chat/completions";
import { LlmError, UsageError } from "../errors";
import { checkBaseUrl, redactUrl } from "../url";
import {
  classifyFailure,
  defaultSleep,
  describeFailure,
  withRetries,
  type FailureInfo,
} from "./retry";
import { estimateTokens } from "./tokens";
import type { FetchLike } from "./request-url-fetch";

export { requestUrlFetch } from "./request-url-fetch";
export type { FetchLike, RequestUrlLike } from "./request-url-fetch";

/** How the reply is asked to be JSON: structured outputs, JSON mode, or the prompt alone. */
export type ResponseFormatMode = "json_schema" | "json_object" | "text";

/**
 * The order tried when a server rejects a `response_format`
 * (docs/architecture.md, "The model's reply").
 */
const FALLBACK: Record<ResponseFormatMode, ResponseFormatMode | null> = {
  json_schema: "json_object",
  json_object: "text",
  text: null,
};

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface ChatRequest {
  messages: ChatMessage[];
  /** JSON schema for structured outputs; without it JSON mode is asked for. */
  jsonSchema?: { name: string; schema: Record<string, unknown> };
  temperature?: number;
  signal?: AbortSignal;
}

export interface ChatReply {
  /** The message content ("" when the server sent none). */
  content: string;
  /** `stop`, `length`, `content_filter` …, or `null` when the server gave none. */
  finishReason: string | null;
  promptTokens: number;
  completionTokens: number;
  /** True when the server reported no usage and the counts are estimates. */
  estimatedUsage: boolean;
  /** Attempts made, retries included. */
  attempts: number;
  /** Wall time of the request, retries and backoff included, milliseconds. */
  wallMs: number;
  /** The `response_format` the reply was produced under. */
  responseFormat: ResponseFormatMode;
  /** Non-fatal notes, e.g. a `response_format` fallback. */
  notes: string[];
}

export interface ChatClientOptions {
  /** OpenAI-compatible base URL, e.g. `https://api.openai.com/v1`, `http://localhost:11434/v1`. */
  baseUrl: string;
  /** API key; may be empty for local servers that need none. Never logged. */
  apiKey: string;
  model: string;
  /** Per-request timeout, milliseconds (settings `llm.timeoutMs`). */
  timeoutMs: number;
  /** Retries after the first attempt on 408/409/429/5xx, timeouts and network errors. */
  maxRetries: number;
  /** `fetch` to use: global fetch in the CLI, {@link requestUrlFetch} in the plugin. */
  fetch?: FetchLike;
  /** First backoff delay, milliseconds (default 500; tests use a few ms). */
  retryBaseMs?: number;
  /** Sleep used for backoff, for tests. */
  sleep?: (ms: number) => Promise<void>;
  /** Clock in milliseconds, for wall time. */
  now?: () => number;
  /** First `response_format` to try (default `json_schema` when a schema is given). */
  responseFormat?: ResponseFormatMode;
  /**
   * Called while a request waits for its reply
   * (docs/decisions.md, "Progress while waiting for a model"): every {@link waitingEveryMs} of an
   * attempt (a quarter of the timeout, 50 ms to 10 s), never after the reply came.
   */
  onWaiting?: (waiting: Waiting) => void;
}

/** A request still waiting for its reply, as {@link ChatClientOptions.onWaiting} is told. */
export interface Waiting {
  /** `chat completion` or `listing models`. */
  what: string;
  /** 1-based attempt, and how many the retries allow. */
  attempt: number;
  attempts: number;
  /** Time this attempt has waited, milliseconds. */
  waitedMs: number;
  timeoutMs: number;
}

/** How often a waiting request is reported: a quarter of the timeout, from 50 ms to 10 s. */
export function waitingEveryMs(timeoutMs: number): number {
  return Math.min(10_000, Math.max(50, Math.round(timeoutMs / 4)));
}

/** A short quote of a reply that is not JSON: its first line, at most 60 characters. */
function quoteOf(text: string): string {
  const line = text.trim().split(/\r?\n/, 1)[0] ?? "";
  return line.length > 60 ? `${line.slice(0, 57)}...` : line;
}

/**
 * The error for a 200 reply that is not a chat completion (the SDK hands back the text of a reply
 * that is not JSON): an HTML page is what a web app at the base URL serves, so the URL is the
 * likely fault.
 */
function notCompletion(value: unknown, baseUrl: string): LlmError | null {
  if (typeof value !== "string") return null;
  const shown = redactUrl(baseUrl);
  if (/^\s*(?:<!doctype html|<html|<head|<body|<\?xml)/i.test(value) || /<html[\s>]/i.test(value)) {
    return new LlmError(
      `chat completion at ${shown}: the server answered with HTML, not a chat completion — is the base URL right? (an OpenAI-compatible one usually ends in /v1)`,
      shown,
    );
  }
  const quote = quoteOf(value);
  return new LlmError(
    `chat completion at ${shown}: the server answered with text, not a chat completion${quote ? ` (${JSON.stringify(quote)})` : ""} — is the base URL right?`,
    shown,
  );
}

/** A chat client bound to one server and model. */
export interface ChatClient {
  /** The base URL without trailing slashes; never holds credentials ({@link createChatClient} refuses them). */
  readonly baseUrl: string;
  readonly model: string;
  /**
   * One chat completion. A server that rejects `response_format` with 400/422 is asked again with
   * the next simpler format (json_schema → json_object → none), and later calls start there; a model
   * that rejects `temperature` is asked again without it.
   * @throws LlmError naming the server, the status and what to check, after the retries.
   */
  complete(request: ChatRequest): Promise<ChatReply>;
  /**
   * Model ids the server lists (`GET /models`), for the plugin's "Test connection".
   * @throws LlmError as {@link ChatClient.complete} does.
   */
  listModels(signal?: AbortSignal): Promise<string[]>;
}

/** Placeholder key for servers that need none (the SDK refuses to start without a key). */
const NO_KEY = "no-key";

/**
 * The `openai` SDK client both the chat and the embeddings clients use: our own retry loop
 * (`maxRetries: 0`, docs/decisions.md), the given timeout in milliseconds, no logging, and explicit
 * nulls so that `OPENAI_ORG_ID` and friends in the environment are never picked up silently.
 * `baseUrl` must already have passed `checkBaseUrl`; an empty `apiKey` sends a placeholder.
 */
export function openAiSdk(options: {
  baseUrl: string;
  apiKey: string | undefined;
  timeoutMs: number;
  fetch?: FetchLike | undefined;
}): OpenAI {
  return new OpenAI({
    baseURL: options.baseUrl,
    apiKey: options.apiKey || NO_KEY,
    organization: null,
    project: null,
    adminAPIKey: null,
    webhookSecret: null,
    timeout: options.timeoutMs,
    maxRetries: 0,
    logLevel: "off",
    dangerouslyAllowBrowser: true,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}

/**
 * Creates a chat client. Nothing is sent until a method is called.
 * `dangerouslyAllowBrowser` is set because Obsidian is a browser-like host; the key stays on the
 * person's machine and goes only to the server they configured.
 * @throws UsageError when the base URL cannot be used ({@link checkBaseUrl}: not a URL, not http or
 *   https, or a user name or password in it); the message never repeats the credentials.
 */
export function createChatClient(options: ChatClientOptions): ChatClient {
  const baseUrl = options.baseUrl.trim().replace(/\/+$/, "");
  const problem = checkBaseUrl(baseUrl);
  if (problem) {
    const advice =
      problem.kind === "credentials"
        ? "; give the URL without them and the key as the API key"
        : "";
    throw new UsageError(`the base URL ${problem.reason}${advice}`, redactUrl(baseUrl));
  }
  const apiKey = options.apiKey;
  const now = options.now ?? (() => Date.now());
  const policy = {
    maxRetries: options.maxRetries,
    retryBaseMs: options.retryBaseMs ?? 500,
    sleep: options.sleep ?? defaultSleep,
  };
  const sdk = openAiSdk({ baseUrl, apiKey, timeoutMs: options.timeoutMs, fetch: options.fetch });
  let mode: ResponseFormatMode | null = options.responseFormat ?? null;
  let sendTemperature = true;

  const classify = (err: unknown) => classifyFailure(err, apiKey);

  /** Runs one attempt, telling `onWaiting` how long it has waited until it settles. */
  async function watched<T>(what: string, attempt: number, run: () => Promise<T>): Promise<T> {
    const onWaiting = options.onWaiting;
    if (!onWaiting) return run();
    const started = now();
    const timer = setInterval(() => {
      onWaiting({
        what,
        attempt,
        attempts: options.maxRetries + 1,
        waitedMs: now() - started,
        timeoutMs: options.timeoutMs,
      });
    }, waitingEveryMs(options.timeoutMs));
    try {
      return await run();
    } finally {
      clearInterval(timer);
    }
  }
  const failWith = (what: string) => (info: FailureInfo, attempts: number) =>
    describeFailure(info, {
      baseUrl,
      model: options.model,
      timeoutMs: options.timeoutMs,
      attempts,
      what,
    });

  function paramsFor(
    request: ChatRequest,
    format: ResponseFormatMode,
    withTemperature: boolean,
  ): ChatCompletionCreateParamsNonStreaming {
    const params: ChatCompletionCreateParamsNonStreaming = {
      model: options.model,
      messages: request.messages,
    };
    if (withTemperature && request.temperature !== undefined)
      params.temperature = request.temperature;
    if (format === "json_schema" && request.jsonSchema) {
      params.response_format = {
        type: "json_schema",
        json_schema: {
          name: request.jsonSchema.name,
          schema: request.jsonSchema.schema,
          strict: true,
        },
      };
    } else if (format !== "text") {
      params.response_format = { type: "json_object" };
    }
    return params;
  }

  async function complete(request: ChatRequest): Promise<ChatReply> {
    const started = now();
    const notes: string[] = [];
    let format: ResponseFormatMode = mode ?? (request.jsonSchema ? "json_schema" : "json_object");
    if (format === "json_schema" && !request.jsonSchema) format = "json_object";
    let attempts = 0;
    for (;;) {
      const withTemperature = sendTemperature && request.temperature !== undefined;
      try {
        let attempt = 0;
        const { value, attempts: made } = await withRetries(
          () =>
            watched("chat completion", ++attempt, () =>
              sdk.chat.completions.create(paramsFor(request, format, withTemperature), {
                signal: request.signal,
              }),
            ),
          policy,
          classify,
          (info, n) => {
            attempts += n;
            const rejected = info.kind === "status" && (info.status === 400 || info.status === 422);
            return rejected && (FALLBACK[format] || withTemperature)
              ? new RequestRejected(info)
              : failWith("chat completion")(info, attempts);
          },
        );
        attempts += made;
        const wrong = notCompletion(value, baseUrl);
        if (wrong) throw wrong;
        mode = format;
        // Some servers answer 200 with an error object and no choices.
        const choices: unknown = value.choices;
        const choice = Array.isArray(choices) ? value.choices[0] : undefined;
        const usage = value.usage;
        const content = choice?.message?.content ?? "";
        const promptTokens =
          usage?.prompt_tokens ?? estimateTokens(request.messages.map((m) => m.content).join("\n"));
        const completionTokens = usage?.completion_tokens ?? estimateTokens(content);
        return {
          content,
          finishReason: choice?.finish_reason ?? null,
          promptTokens,
          completionTokens,
          estimatedUsage: !usage,
          attempts,
          wallMs: now() - started,
          responseFormat: format,
          notes,
        };
      } catch (err) {
        if (!(err instanceof RequestRejected)) throw err;
        // Some models accept only their default temperature (HTTP 400 naming "temperature").
        if (withTemperature && /temperature/i.test(err.info.detail)) {
          sendTemperature = false;
          notes.push(
            `the model rejected the temperature setting (HTTP ${err.info.status ?? "?"}); asked again with the model's default`,
          );
          continue;
        }
        const next = FALLBACK[format];
        if (!next) throw failWith("chat completion")(err.info, attempts);
        notes.push(
          `the server rejected response_format ${format} (HTTP ${err.info.status ?? "?"}); asked again with ${next === "text" ? "plain JSON in the prompt" : next}`,
        );
        format = next;
      }
    }
  }

  async function listModels(signal?: AbortSignal): Promise<string[]> {
    const { value } = await withRetries(
      async () => {
        const ids: string[] = [];
        for await (const model of sdk.models.list({ signal })) ids.push(model.id);
        return ids;
      },
      policy,
      classify,
      failWith("listing models"),
    );
    return value;
  }

  return { baseUrl, model: options.model, complete, listModels };
}

/** Internal: a 400/422 that a simpler request (other format, no temperature) may avoid. */
class RequestRejected extends Error {
  constructor(readonly info: FailureInfo) {
    super(`response_format rejected (HTTP ${info.status ?? "?"})`);
  }
}
