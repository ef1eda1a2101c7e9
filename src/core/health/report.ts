/**
 * Renders a {@link HealthReport}: the CLI's JSON ({@link toHealthJson}, exactly the
 * docs/architecture.md, "The health check" shape) and text ({@link renderHealthText}), and the
 * plugin's report note ({@link renderHealthReport}, docs/architecture.md, "The health check"). All
 * pure.
 */
import { replaceWikilinks, noteName } from "../markdown/wikilinks";
import { HEALTH_RULES, healthRule } from "./rules";
import type { HealthJson, HealthProblem, HealthReport, HealthRuleId } from "./types";
import { HEALTH_REPORT_TYPE } from "../note-types";

/** Compliance as a percentage with one decimal, e.g. `98.0%`. */
export function formatCompliance(compliance: number): string {
  return `${(Math.floor(compliance * 1000) / 10).toFixed(1)}%`;
}

/**
 * The `health --json` object: `{checked, compliant, compliance, errors: [{path, rule, message,
 * line?}], warnings: [...]}`; `compliance` is a ratio 0–1 rounded to 4 decimals.
 */
export function toHealthJson(report: HealthReport): HealthJson {
  const strip = (p: HealthProblem): HealthJson["errors"][number] => ({
    path: p.path,
    rule: p.rule,
    message: p.message,
    ...(p.line !== undefined ? { line: p.line } : {}),
  });
  return {
    checked: report.checked,
    compliant: report.compliant,
    compliance: Math.round(report.compliance * 10_000) / 10_000,
    errors: report.errors.map(strip),
    warnings: report.warnings.map(strip),
  };
}

function groupByRule(problems: readonly HealthProblem[]): Map<HealthRuleId, HealthProblem[]> {
  const groups = new Map<HealthRuleId, HealthProblem[]>();
  for (const p of problems) {
    const list = groups.get(p.rule);
    if (list) list.push(p);
    else groups.set(p.rule, [p]);
  }
  return groups;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** The one-line summary both renderings start with. */
export function summaryLine(report: HealthReport): string {
  return (
    `${plural(report.checked, "note")} checked on ${report.today}: compliance ${formatCompliance(report.compliance)} ` +
    `(${report.compliant} without errors), ${plural(report.errors.length, "error")}, ${plural(report.warnings.length, "warning")}`
  );
}

/**
 * The CLI's text report: the summary, then one group per rule with a finding (`path:line  message`
 * under a `rule (severity), count` heading and the rule's fix), errors first.
 */
export function renderHealthText(report: HealthReport): string {
  const lines = [summaryLine(report)];
  const all = [...report.errors, ...report.warnings];
  if (all.length === 0) {
    lines.push("", "No problems found.");
    return lines.join("\n");
  }
  for (const [rule, list] of groupByRule(all)) {
    const def = healthRule(rule);
    lines.push("", `${rule} (${def.severity}), ${list.length}: ${def.title}`);
    const where = list.map((p) => (p.line !== undefined ? `${p.path}:${p.line}` : p.path));
    const width = Math.min(70, Math.max(...where.map((w) => w.length)));
    list.forEach((p, i) => lines.push(`  ${(where[i] ?? "").padEnd(width)}  ${p.message}`));
    // A finding's own fix (an unreadable note: not UTF-8, or a link out of the vault) replaces
    // the rule's; each distinct one is said once.
    for (const fix of new Set(list.map((p) => p.fix ?? def.fix))) lines.push(`  fix: ${fix}`);
  }
  lines.push("", "rule                      errors  warnings");
  for (const rule of HEALTH_RULES) {
    const n = all.filter((p) => p.rule === rule.id).length;
    if (n === 0) continue;
    const e = rule.severity === "error" ? n : 0;
    lines.push(`${rule.id.padEnd(26)}${String(e).padStart(6)}${String(n - e).padStart(10)}`);
  }
  return lines.join("\n");
}

/** Options of {@link renderHealthReport}. */
export interface HealthReportNoteOptions {
  /** When the report was made, ISO 8601 (written as `updated_at`). */
  generatedAt: string;
  /** `created_at` of the report note: keep the first run's value when regenerating. Default `generatedAt`. */
  createdAt?: string;
  /**
   * Link for a line of a note, e.g. an `obsidian://` URI the plugin handles by opening the note at
   * that line; `null` or omitted: the line number is plain text (Obsidian wikilinks cannot target a
   * line, only headings and blocks).
   */
  lineLink?: (path: string, line: number) => string | null;
}

/**
 * Text for a Markdown table cell: pipes escaped, line breaks removed, and wikilinks outside code
 * shown as code, so that clicking one in the report never creates the missing note it names.
 */
function cell(text: string): string {
  return text
    .replace(/\r?\n/g, " ")
    .split("`")
    .map((part, i) => (i % 2 === 0 ? replaceWikilinks(part, (link) => `\`${link.raw}\``) : part))
    .join("`")
    .replace(/\|/g, "\\|");
}

function noteLink(p: HealthProblem): string {
  const target = p.path.replace(/\.md$/i, "");
  const name = noteName(p.path);
  const anchor = p.blockId ? `#^${p.blockId}` : "";
  return `[[${target}${anchor}\\|${name}]]`;
}

function lineCell(p: HealthProblem, options: HealthReportNoteOptions): string {
  if (p.line === undefined) return "";
  const href = options.lineLink?.(p.path, p.line) ?? null;
  return href ? `[${p.line}](${href.replace(/[()\s|]/g, encodeURIComponent)})` : String(p.line);
}

/**
 * The report note's Markdown (docs/architecture.md, "The health check"): frontmatter (`type:
 * health-report`, which marks the note as regenerable), the compliance figure, a table of counts
 * per rule with its fix, then one table per rule with a link to each note (to the block when the
 * finding names one) and its line. The same report always renders the same text, so regenerating an
 * unchanged vault changes only `updated_at`.
 */
export function renderHealthReport(report: HealthReport, options: HealthReportNoteOptions): string {
  const out: string[] = [
    "---",
    "id: health-report",
    `type: ${HEALTH_REPORT_TYPE}`,
    "status: active",
    `created_at: ${options.createdAt ?? options.generatedAt}`,
    `updated_at: ${options.generatedAt}`,
    `compliance: ${Math.round(report.compliance * 10_000) / 10_000}`,
    "---",
    "# Health report",
    "",
    `**Compliance ${formatCompliance(report.compliance)}**: ${report.compliant} of ${plural(report.checked, "memory note")} have no error. ` +
      `${plural(report.errors.length, "error")}, ${plural(report.warnings.length, "warning")}; checked on ${report.today}.`,
    "",
    "This note is regenerated by the health check; edits to it are replaced on the next run.",
    "",
    "| Rule | Severity | Count | Fix |",
    "| --- | --- | ---: | --- |",
  ];
  const all = [...report.errors, ...report.warnings];
  const groups = groupByRule(all);
  for (const rule of HEALTH_RULES) {
    const n = groups.get(rule.id)?.length ?? 0;
    const name = n > 0 ? `[[#${rule.id}\\|${rule.id}]]` : rule.id;
    out.push(`| ${name} | ${rule.severity} | ${n} | ${cell(rule.fix)} |`);
  }
  if (all.length === 0) out.push("", "No problems found.");
  for (const rule of HEALTH_RULES) {
    const list = groups.get(rule.id);
    if (!list) continue;
    out.push(
      "",
      `## ${rule.id}`,
      "",
      `${rule.title} (${rule.severity}, ${list.length}).`,
      "",
      "| Note | Line | Problem |",
      "| --- | ---: | --- |",
    );
    for (const p of list)
      out.push(
        `| ${noteLink(p)} | ${lineCell(p, options)} | ${cell(p.fix ? `${p.message} Fix: ${p.fix}` : p.message)} |`,
      );
  }
  out.push("");
  return out.join("\n");
}
