/**
 * The search query language (docs/architecture.md, "Query language"): free text, quoted phrases and
 * filters
 * `agent:` `type:` `status:` `domain:` `tag:` `path:` `after:YYYY-MM-DD` `before:YYYY-MM-DD`.
 * A filter may be negated with a leading `-` (`-status:archived`) and its value quoted
 * (`path:"Agents/link"`). The same filter given twice matches either value; different filters
 * must all match. An unknown filter or a bad date is an error value, never an empty result.
 */
import { LIST_STATUSES, type ListStatus } from "../trackers/list";
import { isIsoDate } from "../util/dates";
import type { Result } from "../util/result";

/** The filters of the query language. */
export const FILTER_NAMES = [
  "agent",
  "type",
  "status",
  "domain",
  "tag",
  "path",
  "after",
  "before",
] as const;
/** A filter name (`status` in `status:active`). */
export type FilterName = (typeof FILTER_NAMES)[number];

/** One `name:value` filter. Values are kept as written; matching is case-insensitive. */
export interface QueryFilter {
  name: FilterName;
  value: string;
  /** True for `-name:value`: notes matching it are left out. */
  negated: boolean;
}

/** A parsed query. */
export interface ParsedQuery {
  /** Free text outside quotes and filters, words joined by one space. */
  text: string;
  /** Quoted phrases, each required verbatim (after normalisation) in the note. */
  phrases: string[];
  filters: QueryFilter[];
}

const OPEN_QUOTES = new Set(['"', "“", "„", "「", "『"]);
const CLOSE_FOR: Record<string, string> = { '"': '"', "“": "”", "„": "“", "「": "」", "『": "』" };
const FILTER_RE = /^(-?)([A-Za-z][A-Za-z_]*):(.*)$/s;

interface Lexeme {
  text: string;
  quoted: boolean;
}

/** Splits on white space, keeping quoted runs (`"a b"`, `name:"a b"`) together. */
function lex(input: string): Lexeme[] {
  const out: Lexeme[] = [];
  let i = 0;
  const chars = Array.from(input);
  while (i < chars.length) {
    const ch = chars[i] ?? "";
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (OPEN_QUOTES.has(ch)) {
      const close = CLOSE_FOR[ch] ?? '"';
      let j = i + 1;
      while (j < chars.length && chars[j] !== close) j++;
      out.push({ text: chars.slice(i + 1, j).join(""), quoted: true });
      i = j + 1;
      continue;
    }
    let j = i;
    let word = "";
    while (j < chars.length && !/\s/.test(chars[j] ?? "")) {
      const c = chars[j] ?? "";
      // `name:"quoted value"` keeps its spaces.
      if (c === '"' && word.endsWith(":") && FILTER_RE.test(word)) {
        let k = j + 1;
        while (k < chars.length && chars[k] !== '"') k++;
        word += chars.slice(j + 1, k).join("");
        j = k + 1;
        break;
      }
      word += c;
      j++;
    }
    out.push({ text: word, quoted: false });
    i = j;
  }
  return out;
}

/** True when `value` is a real calendar date written `YYYY-MM-DD` (the rule of src/core/util/dates.ts). */
export { isIsoDate };

/**
 * Parses a query string (docs/architecture.md, "Query language").
 * @returns the query, or an error naming the offending part: an unknown filter (`foo:bar`), a
 *   filter without a value, or a date that is not a real `YYYY-MM-DD` date.
 */
export function parseQuery(input: string): Result<ParsedQuery> {
  const words: string[] = [];
  const phrases: string[] = [];
  const filters: QueryFilter[] = [];
  for (const lexeme of lex(input)) {
    if (lexeme.quoted) {
      // An empty phrase stays: alone it matches nothing, rather than turning into an empty query
      // that lists every note.
      phrases.push(lexeme.text.trim());
      continue;
    }
    const m = FILTER_RE.exec(lexeme.text);
    // `word:` followed by a space, a URL (`https://…`) or a time (`10:30`) is text, not a filter.
    if (!m || (m[3] ?? "").startsWith("//")) {
      words.push(lexeme.text);
      continue;
    }
    const negated = m[1] === "-";
    const name = (m[2] ?? "").toLowerCase();
    const value = (m[3] ?? "").trim();
    if (!(FILTER_NAMES as readonly string[]).includes(name)) {
      if (value === "") {
        words.push(lexeme.text);
        continue;
      }
      return {
        ok: false,
        error: `unknown filter "${name}:" in "${lexeme.text}" (filters: ${FILTER_NAMES.map((f) => `${f}:`).join(" ")}; quote the text to search for it literally)`,
      };
    }
    if (value === "") return { ok: false, error: `filter "${name}:" needs a value` };
    if ((name === "after" || name === "before") && !isIsoDate(value)) {
      return {
        ok: false,
        error: `bad date in "${lexeme.text}": expected a real date written YYYY-MM-DD`,
      };
    }
    filters.push({ name: name as FilterName, value, negated });
  }
  return { ok: true, value: { text: words.join(" "), phrases, filters } };
}

/**
 * The tracker item state (`open`, `done`, `abandoned`; see `LIST_STATUSES`) that a plain
 * `status:` filter of `parsed` names, or null. `status:` matches the `status` of a note's
 * frontmatter (`active`, `archived` …), while the items of a tracker have states of their own that
 * a tracker listing filters on; a search that finds nothing with such a filter says so
 * (test/core/search/search-query.test.ts, "a status: filter naming an item state …").
 */
export function itemStateFilter(parsed: ParsedQuery): Exclude<ListStatus, "all"> | null {
  for (const f of parsed.filters) {
    if (f.name !== "status" || f.negated) continue;
    const value = f.value.toLowerCase();
    if (value !== "all" && (LIST_STATUSES as readonly string[]).includes(value))
      return value as Exclude<ListStatus, "all">;
  }
  return null;
}
