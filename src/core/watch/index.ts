/** Watch and extract (issue 17 item 6; docs/compaction.md): quiet timers, the review queue, the run. */
export * from "./auto-extract";
export * from "./quiet-timers";
export * from "./review-queue";
