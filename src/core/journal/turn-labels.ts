/**
 * The labels that open the parts of an ingested turn in a journal (docs/agents.md, "Where it
 * goes"): what the person asked, what was done, the assistant's answer. Ingest writes them
 * (src/core/ingest/section.ts); the offline extractor reads a convention right after the request's
 * or the answer's label (`**Answer:** Decision: …`; src/core/extraction/offline.ts).
 */
export const TURN_LABELS = {
  asked: "**Asked:**",
  done: "**Done:**",
  answer: "**Answer:**",
} as const;
