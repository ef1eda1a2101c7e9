/**
 * Health check report types (docs/architecture.md, "The health check"). The JSON the CLI prints is
 * exactly
 * `{checked, compliant, compliance, errors: [{path, rule, message, line?}], warnings: [...]}`
 * ({@link HealthJson}); the richer {@link HealthReport} also feeds the plugin's report note.
 */

/** Error: the note is not compliant. Warning: worth a look, the note still counts as compliant. */
export type Severity = "error" | "warning";

/** Stable kebab-case ids of the health rules; see {@link HEALTH_RULES} for severity and fix. */
export type HealthRuleId =
  | "unreadable"
  | "frontmatter-invalid"
  | "unquoted-wikilink"
  | "frontmatter-not-mapping"
  | "required-field-missing"
  | "wrong-type"
  | "misread-value"
  | "broken-link"
  | "duplicate-id"
  | "missing-source-block"
  | "stale-draft"
  | "stale-knowledge"
  | "may-be-stale"
  | "expired"
  | "over-size-cap"
  | "review-due"
  | "duplicate-field"
  | "unresolved-contradiction"
  | "conflict-markers"
  | "possible-change"
  | "conflict-copy"
  | "merge-choice";

/** One finding about one note. */
export interface HealthProblem {
  /** Vault-relative path of the note. */
  path: string;
  rule: HealthRuleId;
  severity: Severity;
  message: string;
  /** 1-based line in the note's text (frontmatter lines included), when the finding has one. */
  line?: number;
  /** Block id (without `^`) the finding is about, so a report can link the exact item. */
  blockId?: string;
  /**
   * How to fix this finding when its rule's fix ({@link HEALTH_RULES}) does not fit every case:
   * an `unreadable` note that is not UTF-8 and one that is a link out of the vault need different
   * advice. Reports show it instead of the rule's.
   */
  fix?: string;
}

/** Everything one health run found. */
export interface HealthReport {
  /** Memory notes checked (every Markdown note under the memory root but the report note itself). */
  checked: number;
  /** Checked notes with no error. */
  compliant: number;
  /** `compliant / checked`, 0–1 (1 for an empty memory). */
  compliance: number;
  errors: HealthProblem[];
  warnings: HealthProblem[];
  /** The day the check ran for (`YYYY-MM-DD`); staleness, expiry and due reviews are relative to it. */
  today: string;
}

/** One entry of {@link HealthJson}. */
export interface HealthJsonProblem {
  path: string;
  rule: string;
  message: string;
  line?: number;
}

/** The CLI's `health --json` shape (docs/architecture.md, "The health check"), nothing more. */
export interface HealthJson {
  checked: number;
  compliant: number;
  compliance: number;
  errors: HealthJsonProblem[];
  warnings: HealthJsonProblem[];
}
