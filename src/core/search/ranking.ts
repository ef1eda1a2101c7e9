/**
 * Ranking on top of BM25 (docs/architecture.md, "Ranking"): optional recency half-life and
 * frontmatter confidence, a lower rank for superseded and archived notes, expired notes left out
 * unless asked for. Each factor is bounded below so that a strong text match is never buried by
 * metadata alone.
 */
import { startOfLocalDay } from "../util/dates";
import type { Settings } from "../settings";
import type { NoteMeta } from "./note-document";

/**
 * Statuses that rank lower (docs/architecture.md, "Note formats": notes are superseded or archived,
 * never deleted).
 */
const DEMOTED_STATUSES = new Set(["superseded", "archived", "deprecated", "abandoned"]);
/** Score multiplier of a demoted note. */
export const DEMOTED_FACTOR = 0.5;
const DAY_MS = 86_400_000;

/** A block marked superseded (docs/contradictions.md): a `superseded_by` or `valid_to` inline field. */
const SUPERSEDED_BLOCK = /[[(](?:superseded_by|valid_to)::/i;

/**
 * The factor a block's score is multiplied by: {@link DEMOTED_FACTOR} for an entry marked
 * superseded (a callout or tracker line with `[superseded_by:: …]` or `[valid_to:: …]`), else 1.
 * The entry that replaced it then ranks above it for the same words.
 */
export function blockRankFactor(text: string): number {
  return SUPERSEDED_BLOCK.test(text) ? DEMOTED_FACTOR : 1;
}

/** `YYYY-MM-DD` → the ms its local day begins (NaN when invalid): a vault has few distinct dates,
 * and parsing one for every matching note of every query was a visible part of a query's time. */
const parsedDates = new Map<string, number>();

/** Days from the start of a `YYYY-MM-DD` date, the user's local day (src/core/util/dates.ts), to `now` (ms); 0 for future or unknown dates. */
function ageDays(date: string | undefined, now: number): number {
  if (!date) return 0;
  let t = parsedDates.get(date);
  if (t === undefined) {
    t = startOfLocalDay(date) ?? Number.NaN;
    if (parsedDates.size > 100_000) parsedDates.clear();
    parsedDates.set(date, t);
  }
  return Number.isFinite(t) ? Math.max(0, (now - t) / DAY_MS) : 0;
}

/** The most {@link rankFactor} returns: every factor is at most 1 (searchTop's `maxBoost`). */
export const MAX_RANK_FACTOR = 1;

/**
 * The factor a note's BM25 score is multiplied by, in (0, {@link MAX_RANK_FACTOR}]:
 * - status superseded, archived, deprecated or abandoned: × {@link DEMOTED_FACTOR};
 * - `useConfidence` and a confidence c in 0–1: × (0.5 + 0.5·c);
 * - `recencyHalfLifeDays` h > 0 and an age of a days: × (0.5 + 0.5·2^(−a/h)).
 * @param now milliseconds since the epoch
 */
export function rankFactor(meta: NoteMeta, search: Settings["search"], now: number): number {
  let factor = 1;
  if (meta.status && DEMOTED_STATUSES.has(meta.status.toLowerCase())) factor *= DEMOTED_FACTOR;
  if (search.useConfidence && meta.confidence !== undefined) factor *= 0.5 + 0.5 * meta.confidence;
  if (search.recencyHalfLifeDays > 0) {
    factor *= 0.5 + 0.5 * Math.pow(2, -ageDays(meta.date, now) / search.recencyHalfLifeDays);
  }
  return factor;
}
