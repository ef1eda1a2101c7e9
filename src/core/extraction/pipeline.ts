/**
 * The extraction pipeline (DESIGN §3): journal → blocks → extractor → dedupe → plan → apply.
 * TO BE IMPLEMENTED (lead). Signatures are the contract for the CLI and the plugin.
 */
import type { MemoryLayout } from "../layout";
import type { Settings } from "../settings";
import type { VaultPort } from "../vault";
import type { ExtractionResult, Extractor, GateReport, PlannedItem, RejectedItem, Usage } from "./types";

export interface ExtractionOptions {
  vault: VaultPort;
  settings: Settings;
  layout: MemoryLayout;
  /** Vault-relative path of the journal note. */
  journalPath: string;
  /** Agent the journal belongs to; default: from the path, else `settings.defaultAgent`. */
  agent?: string;
  extractor: Extractor;
  /** Re-extract even when the journal's `extraction_hash` says it is unchanged. */
  force?: boolean;
  /** Clock, for tests. */
  now?: () => Date;
}

/** A plan is plain data (DESIGN §3 "Plan and apply"): what would be written, item by item. */
export interface ExtractionPlan {
  journal: string;
  agent: string;
  extractor: Extractor["name"];
  /** `unchanged`: the journal's extraction hash matched and nothing was extracted (case 10). */
  skipped?: "unchanged";
  passes: number;
  gate?: GateReport;
  items: PlannedItem[];
  rejected: RejectedItem[];
  usage: Usage;
  notes: string[];
  /** Hash of the journal body as read, recorded as `extraction_hash` on apply. */
  extractionHash: string;
  /** Raw extractor result, for reports. */
  result?: ExtractionResult;
}

/** The outcome of applying a plan. */
export interface ApplyResult {
  /** Vault paths actually written. */
  writes: string[];
  /** Items that could not be written, with reasons (e.g. a topic name with nothing usable; case 12). */
  failed: RejectedItem[];
}

export async function planExtraction(options: ExtractionOptions): Promise<ExtractionPlan> {
  void options;
  return Promise.reject(new Error("not implemented"));
}

export async function applyPlan(
  vault: VaultPort,
  layout: MemoryLayout,
  plan: ExtractionPlan,
  now?: () => Date,
): Promise<ApplyResult> {
  void vault;
  void layout;
  void plan;
  void now;
  return Promise.reject(new Error("not implemented"));
}
