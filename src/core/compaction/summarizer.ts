/**
 * The generated summary on top of a digest (docs/compaction.md), from an OpenAI-compatible chat
 * model through the project's client ({@link createChatClient}), plain text, in the language of
 * the journals.
 */
import type { ChatClient } from "../llm/client";
import type { Summarizer } from "./compact";

/** Longest summary kept, in characters (a few sentences). */
export const MAX_SUMMARY_CHARS = 1200;

const SYSTEM = [
  "You summarise one week of an agent's work journal for the agent and the person it works with.",
  "You are given the week's digest: its journals, the items extracted from them by category, and the blocks nothing was extracted from.",
  "Write 2 to 5 plain sentences (no headings, no lists, no links) in the language most of the digest is written in:",
  "what was done and decided, what is still open, and anything in the unextracted blocks that looks worth keeping.",
  "Use only what the digest says.",
].join(" ");

/**
 * A {@link Summarizer} over `client`. The client should be created with `responseFormat: "text"`
 * (a summary is prose, not JSON). The reply is trimmed and cut to {@link MAX_SUMMARY_CHARS}.
 * @throws LlmError from the client after its retries.
 */
export function chatSummarizer(client: ChatClient, temperature = 0.2): Summarizer {
  return {
    model: client.model,
    async summarize(input, signal) {
      const reply = await client.complete({
        messages: [
          { role: "system", content: SYSTEM },
          {
            role: "user",
            content: `Agent: ${input.agent}\nWeek: ${input.week}\n\n${input.listing}`,
          },
        ],
        temperature,
        ...(signal ? { signal } : {}),
      });
      const text = reply.content.trim();
      return text.length > MAX_SUMMARY_CHARS
        ? `${text.slice(0, MAX_SUMMARY_CHARS - 1).trimEnd()}…`
        : text;
    },
  };
}
