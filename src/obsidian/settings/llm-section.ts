/**
 * Settings: the OpenAI-compatible server. The API key is picked with `SecretComponent` and lives in
 * Obsidian's secret storage; the settings keep only the secret's name (docs/architecture.md,
 * "Invariants").
 */
import { Setting } from "obsidian";
import { testConnection } from "../adapters/llm-host";
import {
  heading,
  numberSetting,
  secretSetting,
  textSetting,
  type SectionContext,
} from "./controls";

/** Base URL, model, API key, limits, prices and "Test connection". */
export function llmSection(sc: SectionContext): void {
  heading(
    sc,
    "Language model",
    "Any OpenAI-compatible server: OpenAI, Ollama, LM Studio, OpenRouter, DeepSeek… Without a base URL, extraction uses the offline extractor.",
  );
  textSetting(sc, {
    name: "Base URL",
    desc: "For example https://api.openai.com/v1 or http://localhost:11434/v1.",
    placeholder: "https://api.openai.com/v1",
    get: (s) => s.llm.baseUrl,
    set: (s, v) => (s.llm.baseUrl = v),
  });
  textSetting(sc, {
    name: "Model",
    desc: "Model name as the server knows it.",
    placeholder: "gpt-4o-mini",
    get: (s) => s.llm.model,
    set: (s, v) => (s.llm.model = v),
  });
  secretSetting(sc, {
    name: "API key",
    desc: "Kept in Obsidian's secret storage, never in the plugin's data. Local servers may need none.",
    get: (s) => s.llm.apiKeySecret,
    set: (s, v) => (s.llm.apiKeySecret = v),
  });

  const test = new Setting(sc.containerEl)
    .setName("Test connection")
    .setDesc("Lists the models the server offers.");
  const resultEl = test.descEl.createDiv({ cls: "am-connection-result" });
  test.addButton((button) =>
    button.setButtonText("Test connection").onClick(async () => {
      button.setDisabled(true);
      resultEl.removeClass("am-ok", "am-error");
      resultEl.setText("Connecting…");
      const result = await testConnection(sc.app, sc.settings());
      button.setDisabled(false);
      if (result.ok) {
        resultEl.addClass("am-ok");
        const models = result.value;
        const shown = models.slice(0, 12).join(", ");
        const more = models.length > 12 ? ` and ${models.length - 12} more` : "";
        resultEl.setText(
          models.length
            ? `Connected. Models: ${shown}${more}.`
            : "Connected. The server lists no models.",
        );
      } else {
        resultEl.addClass("am-error");
        resultEl.setText(result.error);
      }
    }),
  );

  numberSetting(sc, {
    name: "Timeout",
    desc: "Seconds to wait for one reply.",
    scale: 1000,
    get: (s) => s.llm.timeoutMs,
    set: (s, v) => (s.llm.timeoutMs = v),
  });
  numberSetting(sc, {
    name: "Retries",
    desc: "Further attempts after a rate limit, a server error or a network error (0–10).",
    get: (s) => s.llm.maxRetries,
    set: (s, v) => (s.llm.maxRetries = v),
  });
  numberSetting(sc, {
    name: "Temperature",
    desc: "0–2; low values keep extraction steady.",
    get: (s) => s.llm.temperature,
    set: (s, v) => (s.llm.temperature = v),
  });
  numberSetting(sc, {
    name: "Prompt price",
    desc: "USD per million prompt tokens, to report each run's cost (0 = unknown).",
    get: (s) => s.llm.pricePromptPerM,
    set: (s, v) => (s.llm.pricePromptPerM = v),
  });
  numberSetting(sc, {
    name: "Completion price",
    desc: "USD per million completion tokens (0 = unknown).",
    get: (s) => s.llm.priceCompletionPerM,
    set: (s, v) => (s.llm.priceCompletionPerM = v),
  });
}
