/** Watch and extract (docs/compaction.md): quiet timers, the review queue, the run. */
export * from "./auto-extract";
export * from "./quiet-timers";
export * from "./review-queue";
