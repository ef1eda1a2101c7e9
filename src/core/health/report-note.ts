/**
 * Writes the health report note (docs/architecture.md, "The health check"): `<memory root>/Health
 * report.md`, regenerated in place through {@link VaultPort.process}, never duplicated. A note
 * already at that path that is not a report of ours (no `type: health-report`) is a person's note
 * and is never overwritten.
 */
import { VaultError } from "../errors";
import { parseNote } from "../frontmatter";
import type { MemoryLayout } from "../layout";
import type { VaultPort } from "../vault";
import { HEALTH_REPORT_TYPE } from "../note-types";
import { healthReportPath } from "./check";
import { renderHealthReport, type HealthReportNoteOptions } from "./report";
import type { HealthReport } from "./types";

export { HEALTH_REPORT_TYPE };

/**
 * Renders `report` and writes it to the report note, keeping the first run's `created_at`.
 * @returns the note's path and whether the file changed.
 * Throws {@link VaultError} naming the path when a note that is not a health report is in the way,
 * or when the write fails.
 */
export async function writeHealthReport(
  vault: VaultPort,
  layout: MemoryLayout,
  report: HealthReport,
  options: HealthReportNoteOptions,
): Promise<{ path: string; written: boolean }> {
  const path = healthReportPath(layout);
  const written = await vault.process(path, (current) => {
    if (current === null) return renderHealthReport(report, options);
    let data: Record<string, unknown> | null = null;
    try {
      data = parseNote(current, path).data;
    } catch {
      // Frontmatter that does not parse: not a health report, refused just below.
      data = null;
    }
    if (data?.type !== HEALTH_REPORT_TYPE) {
      throw new VaultError(
        `${path} exists and is not a health report (no "type: ${HEALTH_REPORT_TYPE}"); rename it to let the health check write its report`,
        path,
      );
    }
    const createdAt = typeof data.created_at === "string" ? data.created_at : undefined;
    return renderHealthReport(report, { ...options, ...(createdAt ? { createdAt } : {}) });
  });
  return { path, written };
}
