/**
 * The language model as the plugin reaches it: the API key from Obsidian's secret storage
 * (`app.secretStorage`, Obsidian ≥ 1.11.4; settings hold only the secret's name) and `requestUrl`
 * as the SDK's fetch (network through `requestUrl`, which has no CORS limits).
 */
import { requestUrl, type App } from "obsidian";
import { errorMessage } from "../../core/errors";
import { ok, type Result } from "../../core/util/result";
import {
  createChatClient,
  requestUrlFetch,
  type ChatClientOptions,
  type FetchLike,
} from "../../core/llm/client";
import { baseUrlSettingError, type Settings } from "../../core/settings";

/** `fetch` for the OpenAI SDK over Obsidian's `requestUrl` (4xx/5xx resolve, so the SDK retries on real statuses). */
export function obsidianFetch(): FetchLike {
  return requestUrlFetch((req) => requestUrl({ ...req, throw: false }));
}

/** The API key named by `settings.llm.apiKeySecret`, or `""` when none is set or stored. */
export function apiKeyOf(app: App, settings: Settings): string {
  const name = settings.llm.apiKeySecret.trim();
  if (!name) return "";
  return app.secretStorage.getSecret(name) ?? "";
}

/** True when a base URL is set: extraction then uses the model instead of the offline extractor. */
export function llmConfigured(settings: Settings): boolean {
  return settings.llm.baseUrl.trim() !== "";
}

/** Client options for the configured server, key from secret storage, `requestUrl` as fetch. */
export function chatClientOptions(
  app: App,
  settings: Settings,
  fetch: FetchLike = obsidianFetch(),
): ChatClientOptions {
  return {
    baseUrl: settings.llm.baseUrl.trim(),
    apiKey: apiKeyOf(app, settings),
    model: settings.llm.model.trim(),
    timeoutMs: settings.llm.timeoutMs,
    maxRetries: settings.llm.maxRetries,
    fetch,
  };
}

/** Outcome of "Test connection": the server's models, or the exact error. */
export type ConnectionResult = Result<string[]>;

/**
 * Lists the server's models (`GET /models`) with the current settings. Never throws: the error the
 * client reports (status, server, what to check) is returned as text, without the user name and
 * password of any URL in it. A base URL that cannot be used (credentials in it, not http/https, not
 * a URL) is reported before any request is made.
 */
export async function testConnection(
  app: App,
  settings: Settings,
  fetch?: FetchLike,
): Promise<ConnectionResult> {
  if (!llmConfigured(settings)) return { ok: false, error: "Set the base URL first." };
  const badUrl = baseUrlSettingError(settings.llm.baseUrl);
  if (badUrl) return { ok: false, error: `${badUrl.charAt(0).toUpperCase()}${badUrl.slice(1)}.` };
  try {
    const client = createChatClient({ ...chatClientOptions(app, settings, fetch), maxRetries: 0 });
    return ok(await client.listModels());
  } catch (err) {
    return { ok: false, error: errorMessage(err) };
  }
}
