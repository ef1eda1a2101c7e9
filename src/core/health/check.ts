/**
 * The health check run (docs/architecture.md, "The health check"): reads every memory note once
 * through the {@link VaultPort}, applies every rule of {@link HEALTH_RULES} and computes
 * compliance, the share of memory notes with no error. It never writes: a note that does not parse
 * is only reported.
 */
import { EncodingError, isUnreadableNote } from "../errors";
import { joinPath, type MemoryLayout } from "../layout";
import { requiredFieldsOf, type Settings } from "../settings";
import type { FileStat, VaultPort } from "../vault";
import { listReviews } from "../trackers/reviews";
import type { IsoDate } from "../util/dates";
import { daysOverdue, isOpenStatus } from "../trackers/status";
import {
  checkFrontmatterSyntax,
  checkMisreadValues,
  checkRequiredFields,
  checkTypes,
} from "./frontmatter-rules";
import {
  checkBrokenLinks,
  checkDuplicateIds,
  checkTrackerSources,
  type LinkContext,
} from "./link-rules";
import { LinkResolver } from "../markdown/wikilinks";
import { scanAnchors, type NoteAnchors } from "../markdown/anchors";
import { readNoteInfo, type NoteInfo } from "./note-info";
import { HEALTH_RULES, LINK_OUT_FIX, NOT_UTF8_FIX } from "./rules";
import { checkExpired, checkSize, checkStaleDraft, checkStaleKnowledge } from "./time-rules";
import { checkDuplicateFields } from "./tracker-rules";
import { checkContradictions } from "./contradiction-rules";
import { checkMayBeStale } from "./stale-rules";
import { checkConflictCopy, checkConflictMarkers, checkMergeChoices } from "./sync-rules";
import type { HealthProblem, HealthReport } from "./types";
import { HEALTH_REPORT_NAME } from "../note-types";

export { HEALTH_REPORT_NAME };

/** Vault path of the report note: `<memory root>/Health report.md`. */
export function healthReportPath(layout: MemoryLayout): string {
  return joinPath(layout.root, HEALTH_REPORT_NAME);
}

/** Options of a run. */
export interface HealthCheckOptions {
  /**
   * The day to judge staleness, expiry and due reviews against, `YYYY-MM-DD`: `today(nowMs)`
   * (the user's local date, src/core/util/dates.ts), unless the user named a day (`--date`).
   */
  today: IsoDate;
  /** The instant to judge an `expires_at` date-time against, milliseconds since the epoch. Default: now. */
  nowMs?: number;
  /** Notes read at once; default 32. */
  concurrency?: number;
}

/**
 * Reads `stats` with at most `limit` reads in flight; results in input order. A note refused for
 * what it is (not UTF-8, a link out of the vault) gives an {@link Error} in its place, to be
 * reported as `unreadable`; any other read failure throws.
 */
async function readAll(
  vault: VaultPort,
  stats: readonly FileStat[],
  limit: number,
): Promise<(string | Error)[]> {
  const out: (string | Error)[] = new Array<string | Error>(stats.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < stats.length) {
      const i = next++;
      const s = stats[i];
      if (!s) continue;
      try {
        out[i] = await vault.read(s.path);
      } catch (err) {
        if (isUnreadableNote(err)) out[i] = err;
        else throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, stats.length)) }, worker));
  return out;
}

const RULE_ORDER = new Map(HEALTH_RULES.map((r, i) => [r.id, i]));

/** Sorts findings as reports show them: by rule (catalogue order), then path, then line. */
export function sortProblems(list: HealthProblem[]): HealthProblem[] {
  return list.sort(
    (a, b) =>
      (RULE_ORDER.get(a.rule) ?? 99) - (RULE_ORDER.get(b.rule) ?? 99) ||
      (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) ||
      (a.line ?? 0) - (b.line ?? 0),
  );
}

/**
 * `review-due` and schedule `wrong-type` findings of one agent's reviews tracker: reviews whose
 * `next` date is `today` or earlier, and review items whose `every` or `next` cannot be read.
 */
export function checkReviews(note: NoteInfo, today: IsoDate): HealthProblem[] {
  if (note.invalid) return [];
  const out: HealthProblem[] = [];
  for (const r of listReviews(note.text)) {
    if (!isOpenStatus(r.status)) continue;
    const label = r.id ? `^${r.id}` : `"${r.text.slice(0, 40)}"`;
    const where = { line: r.line + 1, ...(r.id ? { blockId: r.id } : {}) };
    if (r.problem !== null) {
      out.push({
        path: note.path,
        rule: "wrong-type",
        severity: "error",
        message: `Review ${label}: ${r.problem}.`,
        ...where,
      });
      continue;
    }
    if (r.next === null) continue;
    const overdue = daysOverdue(r.next, today);
    if (overdue === null) continue;
    const when =
      overdue === 0
        ? "due today"
        : `due since ${r.next} (${overdue} day${overdue === 1 ? "" : "s"})`;
    out.push({
      path: note.path,
      rule: "review-due",
      severity: "warning",
      message: `Review ${label} "${r.text}" is ${when}.`,
      ...where,
    });
  }
  return out;
}

/**
 * Runs the health check over every Markdown note under the memory root (the report note itself
 * excepted). Links resolve against the whole vault. Never writes. A note that is not UTF-8 or is
 * a link out of the vault is an `unreadable` error and is not checked further.
 * Throws {@link VaultError} when a note cannot be read for another reason, naming it.
 */
export async function runHealthCheck(
  vault: VaultPort,
  layout: MemoryLayout,
  settings: Settings,
  options: HealthCheckOptions,
): Promise<HealthReport> {
  const { today } = options;
  const nowMs = options.nowMs ?? Date.now();
  const reportPath = healthReportPath(layout);
  const everything = await vault.list();
  const memory = everything.filter((f) => layout.isInside(f.path) && f.path !== reportPath);
  const read = await readAll(vault, memory, options.concurrency ?? 32);
  const problems: HealthProblem[] = [];
  const readable: { stat: FileStat; text: string }[] = [];
  memory.forEach((stat, i) => {
    const text = read[i];
    if (text instanceof Error)
      problems.push({
        path: stat.path,
        rule: "unreadable",
        severity: "error",
        message: text.message,
        fix: text instanceof EncodingError ? NOT_UTF8_FIX : LINK_OUT_FIX,
      });
    else readable.push({ stat, text: text ?? "" });
  });
  const notes = readable.map(({ stat, text }) =>
    readNoteInfo(stat.path, text, stat, {
      collection: layout.collectionOf(stat.path),
      agent: layout.agentOf(stat.path),
    }),
  );
  const byPath = new Map(notes.map((n) => [n.path, n]));
  const outside = new Map<string, Promise<NoteAnchors | null>>();
  const ctx: LinkContext = {
    resolver: new LinkResolver(everything.map((f) => f.path)),
    anchorsOf(path) {
      const known = byPath.get(path);
      if (known) return Promise.resolve(known.anchors());
      let pending = outside.get(path);
      if (!pending) {
        pending = vault.read(path).then(
          (text) => {
            const note = readNoteInfo(
              path,
              text,
              { size: text.length, mtime: 0 },
              { collection: "other", agent: null },
            );
            return scanAnchors(note.body, note.bodyLine);
          },
          () => null,
        );
        outside.set(path, pending);
      }
      return pending;
    },
  };
  const reviewTrackers = new Set<string>();
  for (const agent of layout.agentsIn(notes.map((n) => n.path))) {
    try {
      reviewTrackers.add(layout.trackerPath(agent, "reviews"));
    } catch {
      // An agent folder whose name is not a safe agent name has no trackers of ours.
    }
  }
  const { draftDays, staleDays } = settings.health;
  for (const note of notes) {
    problems.push(...checkConflictMarkers(note));
    problems.push(...checkConflictCopy(note));
    problems.push(...checkMergeChoices(note));
    const syntax = checkFrontmatterSyntax(note);
    problems.push(...syntax);
    const reported = new Set(syntax.map((p) => p.line ?? 0));
    problems.push(...checkRequiredFields(note, requiredFieldsOf(settings.health, note.collection)));
    problems.push(...checkTypes(note, reported));
    problems.push(...checkMisreadValues(note));
    problems.push(...(await checkBrokenLinks(note, ctx)));
    problems.push(...(await checkTrackerSources(note, ctx)));
    problems.push(...checkDuplicateFields(note));
    problems.push(...checkContradictions(note));
    problems.push(...checkStaleDraft(note, today, draftDays));
    problems.push(...checkExpired(note, today, nowMs));
    problems.push(...checkSize(note, settings.search.sizeCapBytes));
    if (reviewTrackers.has(note.path)) problems.push(...checkReviews(note, today));
  }
  problems.push(...checkDuplicateIds(notes));
  problems.push(...checkStaleKnowledge(notes, today, staleDays));
  problems.push(...checkMayBeStale(notes, today));
  sortProblems(problems);
  const errors = problems.filter((p) => p.severity === "error");
  const warnings = problems.filter((p) => p.severity === "warning");
  const failing = new Set(errors.map((p) => p.path));
  const checked = memory.length;
  const compliant = memory.filter((n) => !failing.has(n.path)).length;
  return {
    checked,
    compliant,
    compliance: checked === 0 ? 1 : compliant / checked,
    errors,
    warnings,
    today,
  };
}
