/**
 * Lays out a session brief and cuts it to its budget
 * (docs/decisions.md, "The brief cuts by value, not by section") by whole lines, lowest value
 * first, naming what was cut and the command that lists it (never silently).
 *
 * **Value of a line.** Each section has a weight ({@link SECTION_WEIGHT}); the item at rank r in
 * its section (0 = first shown) is worth weight / (1 + r). So the tail of every section goes before
 * the head of any: the best task outlives the third-best review, the fifth task goes before the
 * first decision. Ties go to the section shown first, then to the better rank.
 *
 * **Size.** The Markdown is measured whole, lines joined with `\n` plus a final newline. Tokens are
 * `estimateTokens` of src/core/llm/tokens.ts (one per CJK character, one per four other
 * characters); that sum splits over lines exactly, so each line is measured once.
 */
import { UsageError } from "../errors";
import { countCjk } from "../llm/tokens";
import {
  BRIEF_SECTIONS,
  type Brief,
  type BriefItem,
  type BriefOmission,
  type BriefSection,
  type BriefSectionKind,
} from "./types";

/**
 * How a budget is counted: a line's two additive counts, and the size they add up to. The newline
 * after each line is added to the second count (one character, one byte).
 */
export interface Meter {
  unit: "tokens" | "bytes";
  counting: string;
  measure(line: string): [number, number];
  total(a: number, b: number): number;
}

/** Tokens as `estimateTokens` counts them, summed over lines. */
export const TOKEN_METER: Meter = {
  unit: "tokens",
  counting:
    "estimated: 1 token per CJK character, 1 per 4 other characters (rounded up), over the whole Markdown",
  measure(line) {
    const cjk = countCjk(line);
    return [cjk, line.length - cjk];
  },
  total: (cjk, other) => cjk + Math.ceil(other / 4),
};

const encoder = new TextEncoder();

/** Bytes of the UTF-8 encoding. */
export const BYTE_METER: Meter = {
  unit: "bytes",
  counting: "bytes of the UTF-8 encoding of the whole file",
  measure: (line) => [encoder.encode(line).length, 0],
  total: (bytes, newlines) => bytes + newlines,
};

/** Weight of a section's first line; see the module comment. */
export const SECTION_WEIGHT: Readonly<Record<BriefSectionKind, number>> = {
  reviews: 100,
  tasks: 90,
  questions: 80,
  goals: 70,
  knowledge: 60,
  proposals: 50,
  decisions: 50,
  stale: 40,
};

/** Everything collected for one section, before the cut. */
export interface SectionInput {
  kind: BriefSectionKind;
  title: string;
  items: BriefItem[];
  total: number;
  /** Why the section could not be collected (no search given), when so. */
  unavailable?: { what: string; how: string };
}

/** What {@link fitBrief} needs besides the sections. */
export interface FitContext {
  agent: string;
  today: string;
  query: string | null;
  header: string[];
  limit: number;
  meter: Meter;
  /** The omission phrase (`9 older decisions`) and its command, for `count` items left out of a section. */
  omission(section: SectionInput, count: number, shown: number): { what: string; how: string };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** `9 older decisions`, `3 more open tasks` (`more` only when some of the section is shown). */
export function omissionWhat(
  kind: BriefSectionKind,
  count: number,
  shown: number,
  hasQuery: boolean,
): string {
  const more = shown > 0;
  switch (kind) {
    case "reviews":
      return plural(count, `${more ? "more " : ""}due review`);
    case "tasks":
      return plural(count, `${more ? "more " : ""}open task`);
    case "questions":
      return plural(count, `${more ? "more " : ""}open question`);
    case "goals":
      return plural(count, `${more ? "more " : ""}open goal`);
    case "proposals":
      return plural(count, `${more ? "more " : ""}open proposal`);
    case "decisions":
      return plural(count, `${more ? "older " : ""}decision`);
    case "knowledge":
      return plural(count, `${more ? (hasQuery ? "less relevant " : "older ") : ""}knowledge note`);
    case "stale":
      return `${plural(count, `${more ? "more " : ""}note`)} that may be stale`;
  }
}

/**
 * Lays the sections out and keeps the most valuable lines that fit `ctx.limit`.
 * Throws {@link UsageError} when even the title and the omission notes do not fit.
 */
export function fitBrief(sections: SectionInput[], ctx: FitContext): Omit<Brief, "unreadable"> {
  const order = new Map(BRIEF_SECTIONS.map((k, i) => [k, i]));
  const candidates = sections.flatMap((s) =>
    s.items.map((item, rank) => ({
      kind: s.kind,
      rank,
      value: SECTION_WEIGHT[s.kind] / (1 + rank),
    })),
  );
  candidates.sort(
    (a, b) =>
      b.value - a.value || (order.get(a.kind) ?? 0) - (order.get(b.kind) ?? 0) || a.rank - b.rank,
  );

  const memo = new Map<string, [number, number]>();
  const size = (lines: readonly string[]): number => {
    let a = 0;
    let b = 0;
    for (const line of lines) {
      let m = memo.get(line);
      if (m === undefined) {
        m = ctx.meter.measure(line);
        memo.set(line, m);
      }
      a += m[0];
      b += m[1] + 1; // the newline after the line
    }
    return ctx.meter.total(a, b);
  };

  const layout = (k: number) => {
    const shown = new Map<BriefSectionKind, number>();
    for (const c of candidates.slice(0, k)) shown.set(c.kind, (shown.get(c.kind) ?? 0) + 1);
    const lines = [...ctx.header, `# Session brief: ${ctx.agent}, ${ctx.today}`];
    if (ctx.query) lines.push(`Knowledge searched for: ${ctx.query.replace(/\s+/g, " ")}`);
    const omitted: BriefOmission[] = [];
    const out: BriefSection[] = [];
    for (const s of sections) {
      const n = shown.get(s.kind) ?? 0;
      const items = s.items.slice(0, n);
      out.push({ kind: s.kind, title: s.title, items, total: s.total });
      if (s.unavailable)
        omitted.push({
          section: s.kind,
          what: s.unavailable.what,
          count: 0,
          how: s.unavailable.how,
        });
      else if (n < s.total)
        omitted.push({ section: s.kind, count: s.total - n, ...ctx.omission(s, s.total - n, n) });
      if (n === 0) continue;
      lines.push(
        "",
        `## ${s.title} (${n < s.total ? `${n} of ${s.total}` : s.total})`,
        ...items.map((i) => i.line),
      );
    }
    if (omitted.length > 0)
      lines.push("", "## Not shown", ...omitted.map((o) => `- ${o.what} not shown: \`${o.how}\``));
    return { lines, omitted, sections: out };
  };

  // No layout of the top k lines is smaller than those lines alone, and that lower bound grows
  // with k: start from the largest k it allows, so a tracker of thousands of items costs one pass.
  const sections0 = new Map(sections.map((s) => [s.kind, s.items]));
  let start = 0;
  let a = 0;
  let b = 0;
  for (const c of candidates) {
    const m = ctx.meter.measure(sections0.get(c.kind)?.[c.rank]?.line ?? "");
    a += m[0];
    b += m[1] + 1;
    if (ctx.meter.total(a, b) > ctx.limit) break;
    start++;
  }
  for (let k = start; k >= 0; k--) {
    const l = layout(k);
    const used = size(l.lines);
    if (used <= ctx.limit || k === 0) {
      if (used > ctx.limit) {
        throw new UsageError(
          `a budget of ${ctx.limit} ${ctx.meter.unit} is too small for this brief: its title and the notes on what is left out need ${used}`,
        );
      }
      return {
        agent: ctx.agent,
        today: ctx.today,
        query: ctx.query,
        budget: { unit: ctx.meter.unit, limit: ctx.limit, used, counting: ctx.meter.counting },
        markdown: `${l.lines.join("\n")}\n`,
        sections: l.sections,
        omitted: l.omitted,
      };
    }
  }
  throw new Error("unreachable: the loop returns at k = 0");
}
