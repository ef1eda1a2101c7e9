/**
 * Compaction (docs/compaction.md): weekly digest notes of an agent's journals.
 */
export * from "./compact";
export * from "./digest-note";
export * from "./produced";
export * from "./summarizer";
