/**
 * Health check (docs/architecture.md, "The health check"): the public API for the CLI and the
 * plugin.
 */
export type {
  HealthJson,
  HealthJsonProblem,
  HealthProblem,
  HealthReport,
  HealthRuleId,
  Severity,
} from "./types";
export { HEALTH_RULES, LINK_OUT_FIX, NOT_UTF8_FIX, healthRule, type HealthRule } from "./rules";
export {
  HEALTH_REPORT_NAME,
  checkReviews,
  healthReportPath,
  runHealthCheck,
  sortProblems,
  type HealthCheckOptions,
} from "./check";
export {
  formatCompliance,
  renderHealthReport,
  renderHealthText,
  summaryLine,
  toHealthJson,
  type HealthReportNoteOptions,
} from "./report";
export { HEALTH_REPORT_TYPE, writeHealthReport } from "./report-note";
export { lastUpdated } from "../knowledge/last-updated";
export { isExpired, localDate, today, isIso8601, isIsoDate, type IsoDate } from "../util/dates";
