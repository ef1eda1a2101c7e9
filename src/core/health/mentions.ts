/**
 * Finds many terms in many texts at once: an Aho–Corasick automaton (Aho and Corasick, "Efficient
 * string matching", CACM 1975), so the staleness rule scans each journal once whatever the number
 * of topic titles, even when thousands of titles share a prefix ("Topic …", "客户…").
 */
import type { IsoDate } from "../util/dates";

interface AcNode {
  next: Map<number, number>;
  fail: number;
  /** Indexes of the terms ending at this node (own and through fail links). */
  out: number[];
}

/** Whole-word check for Latin letters, digits and `_`; CJK text has no word spaces, so it always passes. */
function isWordChar(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 97 && code <= 122) || code === 95;
}

/** A set of lower-case terms to look for. */
export class TermMatcher {
  private readonly nodes: AcNode[] = [{ next: new Map(), fail: 0, out: [] }];
  private readonly terms: string[];

  /** `terms` must already be normalised the way texts will be (NFKC, lower case). */
  constructor(terms: readonly string[]) {
    this.terms = [...terms];
    this.terms.forEach((term, index) => {
      let state = 0;
      for (let i = 0; i < term.length; i++) {
        const c = term.charCodeAt(i);
        const node = this.nodes[state];
        if (!node) break;
        let to = node.next.get(c);
        if (to === undefined) {
          to = this.nodes.length;
          this.nodes.push({ next: new Map(), fail: 0, out: [] });
          node.next.set(c, to);
        }
        state = to;
      }
      this.nodes[state]?.out.push(index);
    });
    const queue: number[] = [];
    for (const child of this.nodes[0]?.next.values() ?? []) queue.push(child);
    for (let head = 0; head < queue.length; head++) {
      const s = queue[head] ?? 0;
      const node = this.nodes[s];
      if (!node) continue;
      for (const [c, t] of node.next) {
        queue.push(t);
        let f = node.fail;
        while (f !== 0 && !this.nodes[f]?.next.has(c)) f = this.nodes[f]?.fail ?? 0;
        const target = this.nodes[f]?.next.get(c);
        const child = this.nodes[t];
        if (!child) continue;
        child.fail = target !== undefined && target !== t ? target : 0;
        child.out.push(...(this.nodes[child.fail]?.out ?? []));
      }
    }
  }

  /**
   * Indexes of the terms occurring in `text` (already normalised like the terms), each once. A term
   * that starts or ends with a Latin letter or digit must not touch another one there (whole words).
   */
  find(text: string): Set<number> {
    const found = new Set<number>();
    let state = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      let node = this.nodes[state];
      while (state !== 0 && node && !node.next.has(c)) {
        state = node.fail;
        node = this.nodes[state];
      }
      state = node?.next.get(c) ?? 0;
      const out = this.nodes[state]?.out;
      if (!out || out.length === 0) continue;
      for (const index of out) {
        if (found.has(index)) continue;
        const term = this.terms[index] ?? "";
        const start = i - term.length + 1;
        if (isWordChar(term.charCodeAt(0)) && start > 0 && isWordChar(text.charCodeAt(start - 1)))
          continue;
        if (isWordChar(term.charCodeAt(term.length - 1)) && isWordChar(text.charCodeAt(i + 1)))
          continue;
        found.add(index);
      }
    }
    return found;
  }
}

/** What {@link mentionIndex} builds. */
export interface MentionIndex<C> {
  /** Finds every term of every candidate; `matcher.find` gives term indexes into `owners`. */
  matcher: TermMatcher;
  /** The terms, by term index (each once). */
  terms: string[];
  /** The candidates each term belongs to, by term index. */
  owners: C[][];
  /** The oldest `last` among the candidates (`today` when none is older): older journals mention nothing new. */
  oldest: IsoDate;
}

/**
 * Journal text as topic terms are matched in it: NFKC (only when the text is not plain ASCII: it
 * changes nothing there and costs), lower case, whitespace runs as one space — so a title split
 * across a line break still counts.
 */
export function mentionText(text: string): string {
  const t = /[^\t\n\r -~]/.test(text) ? text.normalize("NFKC") : text;
  return t.toLowerCase().replace(/\s+/g, " ");
}

/**
 * One {@link TermMatcher} over the terms of all `candidates` (`termsOf`, each term once), with the
 * candidates owning each term: the staleness rules scan each journal once for every topic.
 */
export function mentionIndex<C extends { last: IsoDate }>(
  candidates: readonly C[],
  termsOf: (c: C) => Iterable<string>,
  today: IsoDate,
): MentionIndex<C> {
  const terms: string[] = [];
  const owners: C[][] = [];
  const index = new Map<string, number>();
  let oldest = today;
  for (const c of candidates) {
    if (c.last < oldest) oldest = c.last;
    for (const term of termsOf(c)) {
      let i = index.get(term);
      if (i === undefined) {
        i = terms.length;
        index.set(term, i);
        terms.push(term);
        owners.push([]);
      }
      owners[i]?.push(c);
    }
  }
  return { matcher: new TermMatcher(terms), terms, owners, oldest };
}
