/**
 * Settings: semantic search through an OpenAI-compatible embeddings server (docs/plugin.md,
 * "Semantic search"). The API key is picked with `SecretComponent` and lives in Obsidian's secret
 * storage, as the language model's does; isolated zones are embedded only when listed here.
 */
import {
  dropdownSetting,
  heading,
  listSetting,
  numberSetting,
  secretSetting,
  textSetting,
  type SectionContext,
} from "./controls";

/** Base URL, model, API key, encoding, the zones that may be sent, and limits. */
export function embeddingsSection(sc: SectionContext): void {
  heading(
    sc,
    "Semantic search",
    "Any OpenAI-compatible embeddings server: OpenAI, Ollama, LM Studio, llama.cpp, vLLM… With a base URL and a model, notes are embedded in the background and search is hybrid (words and meaning); without them, search is by words alone.",
  );
  textSetting(sc, {
    name: "Embeddings base URL",
    desc: "For example http://localhost:11434/v1 (Ollama) or https://api.openai.com/v1.",
    placeholder: "http://localhost:11434/v1",
    get: (s) => s.embeddings.baseUrl,
    set: (s, v) => (s.embeddings.baseUrl = v),
  });
  textSetting(sc, {
    name: "Embeddings model",
    desc: "Model name as the server knows it, e.g. nomic-embed-text or text-embedding-3-small. Another model embeds every block again.",
    placeholder: "nomic-embed-text",
    get: (s) => s.embeddings.model,
    set: (s, v) => (s.embeddings.model = v),
  });
  secretSetting(sc, {
    name: "Embeddings API key",
    desc: "Kept in Obsidian's secret storage, never in the plugin's data. Local servers may need none.",
    get: (s) => s.embeddings.apiKeySecret,
    set: (s, v) => (s.embeddings.apiKeySecret = v),
  });
  listSetting(sc, {
    name: "Isolated zones to embed",
    desc: "Isolated zones whose text may be sent to the embeddings server, comma-separated. None by default: a zone's text never leaves this device unless it is listed here.",
    get: (s) => s.embeddings.zones,
    set: (s, v) => (s.embeddings.zones = v),
  });
  dropdownSetting(sc, {
    name: "Vector encoding",
    desc: "How the server sends vectors: base64 (compact) or float (JSON numbers, for servers that need it).",
    options: { base64: "base64", float: "float" },
    get: (s) => s.embeddings.encoding,
    set: (s, v) => (s.embeddings.encoding = v === "float" ? "float" : "base64"),
  });
  numberSetting(sc, {
    name: "Search timeout",
    desc: "Seconds to wait for the query's embedding; past it the search answers by words alone.",
    scale: 1000,
    get: (s) => s.embeddings.queryTimeoutMs,
    set: (s, v) => (s.embeddings.queryTimeoutMs = Math.round(v)),
  });
  numberSetting(sc, {
    name: "Texts per request",
    desc: "Blocks sent in one embeddings request (1–2048).",
    get: (s) => s.embeddings.batchSize,
    set: (s, v) => (s.embeddings.batchSize = v),
  });
}
