// Credentials in URLs are never printed, and a base URL that cannot be used is refused before any
// request (docs/decisions.md, "Credentials never go in the base URL").
import { describe, expect, it } from "vitest";
import { UsageError, errorMessage } from "../../src/core/errors";
import { createChatClient } from "../../src/core/llm/client";
import { classifyFailure, describeFailure, redact } from "../../src/core/llm/retry";
import { redactUrl } from "../../src/core/url";

const CRED_URL = "http://user:secret@127.0.0.1:8080/v1";
/** What Node's fetch (undici) throws for such a URL: it echoes the URL. */
const FETCH_ERROR = `Request cannot be constructed from a URL that includes credentials: ${CRED_URL}/chat/completions`;

function clean(text: string): void {
  expect(text).not.toContain("secret");
  expect(text).not.toContain("user:");
}

describe("redacting URLs in messages", () => {
  it("an error text holding a URL with credentials loses the user name and password, and keeps the host", () => {
    const message = errorMessage(new TypeError(FETCH_ERROR));
    clean(message);
    expect(message).toBe(
      "Request cannot be constructed from a URL that includes credentials: http://[redacted]@127.0.0.1:8080/v1/chat/completions",
    );
    clean(errorMessage(`failed at ${CRED_URL}`));
  });

  it("a password holding @ or : is taken whole; text without user info, and a later e-mail address, are left alone", () => {
    const text = errorMessage(
      new Error(
        "at https://me:p@ss:w@rd@example.com/v1?x=a@b, mail ops@example.com or see http://example.com/a@b",
      ),
    );
    expect(text).toBe(
      "at https://[redacted]@example.com/v1?x=a@b, mail ops@example.com or see http://example.com/a@b",
    );
    expect(errorMessage(new Error("could not connect to http://localhost:11434/v1"))).toBe(
      "could not connect to http://localhost:11434/v1",
    );
  });

  it("the LLM error path redacts: SDK/fetch errors and the base URL in the final message", () => {
    const info = classifyFailure(new TypeError(FETCH_ERROR), "sk-key-1234");
    clean(info.detail);
    clean(redact(FETCH_ERROR, "sk-key-1234"));
    const err = describeFailure(info, {
      baseUrl: CRED_URL,
      model: "m",
      timeoutMs: 1000,
      attempts: 1,
      what: "chat completion",
    });
    clean(err.message);
    clean(err.subject ?? "");
    expect(err.message).toContain("127.0.0.1:8080");
  });
});

describe("base URLs that cannot be used", () => {
  const client = (baseUrl: string) =>
    createChatClient({ baseUrl, apiKey: "", model: "m", timeoutMs: 1000, maxRetries: 0 });

  it("a URL with credentials is a usage error naming the problem, without the credentials", () => {
    for (const url of [
      CRED_URL,
      "https://secret@api.example.com/v1",
      "http://:secret@127.0.0.1/v1",
    ]) {
      const thrown = catchIt(() => client(url));
      expect(thrown).toBeInstanceOf(UsageError);
      const message = errorMessage(thrown);
      clean(message);
      expect(message).toMatch(/credentials/);
    }
  });

  it("another scheme, or text that is not a URL, is a usage error saying so", () => {
    expect(() => client("ftp://127.0.0.1/v1")).toThrow(/http:\/\/ or https:\/\/.*ftp:\/\//);
    expect(() => client("not a url")).toThrow(/is not a URL/);
    // Without `://`, `user:secret@host` parses with the scheme `user:`; the reason never echoes it.
    expect(() => client("user:secret@127.0.0.1/v1")).toThrow(UsageError);
    expect(errorMessage(catchIt(() => client("user:secret@127.0.0.1/v1")))).not.toMatch(
      /user|secret/,
    );
  });

  it("http and https URLs are accepted", () => {
    expect(client("http://127.0.0.1:9/v1/").baseUrl).toBe("http://127.0.0.1:9/v1");
    expect(client("https://api.openai.com/v1").baseUrl).toBe("https://api.openai.com/v1");
  });
});

function catchIt(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  return undefined;
}

describe("redactUrl: secrets in the query string", () => {
  it("redacts the value of key, api_key, token and similar parameters, and leaves other parameters", () => {
    expect(redactUrl("chat completion at http://127.0.0.1:9/v1?key=secret could not connect")).toBe(
      "chat completion at http://127.0.0.1:9/v1?key=[redacted] could not connect",
    );
    expect(redactUrl("https://h/v1?model=m&api_key=abc123&x=1")).toBe(
      "https://h/v1?model=m&api_key=[redacted]&x=1",
    );
    expect(redactUrl("https://h/v1?access_token=t#frag")).toBe(
      "https://h/v1?access_token=[redacted]#frag",
    );
    // The other side: parameters that are not secrets stay as they are.
    expect(redactUrl("https://h/v1?model=gpt&keyboard=1")).toBe(
      "https://h/v1?model=gpt&keyboard=1",
    );
  });
});
