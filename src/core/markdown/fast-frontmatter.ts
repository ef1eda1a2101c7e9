/**
 * A fast path for reading frontmatter while indexing. Building the index of 10k notes must take
 * seconds (bench/results/search.md), and a full YAML parse costs a few tenths of a millisecond per
 * note. Most memory notes have plain `key: value` frontmatter, so this reader handles exactly that
 * subset — plain, simply quoted and flow-list scalars, block lists, comments — with the YAML 1.2
 * core schema types that {@link parseNote} gives (and `0123` kept as a string,
 * test/core/frontmatter.test.ts, "case 02: …"). Anything else (nested maps, multi-line or escaped
 * strings, anchors, tags, comments after values, duplicate keys, `: ` inside a plain value…)
 * returns `null` and the caller uses {@link parseNote}. test/core/search/search-frontmatter.test.ts checks that
 * both agree on every note this reader accepts;
 * where the block ends is src/core/markdown/frontmatter-block.ts's rule, the one parseNote follows.
 */
import { isFrontmatterDelimiter, locateFrontmatterBlock } from "./frontmatter-block";

const BOM = "\uFEFF";
const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_-]*):(?:[ ]+(.*?))?[ ]*$/;
const LIST_ITEM = /^[ ]*-[ ]+(.*?)[ ]*$/;
const INT = /^[-+]?(?:0|[1-9][0-9]*)$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*|(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+)$/;
/** First characters that make a YAML plain scalar something else, or need the full parser. */
const SPECIAL_START = /^[[\]{}&*!|>%@`,?#'"-]/;

type Scalar = string | number | boolean | null;

/** A plain scalar typed as the YAML 1.2 core schema does; `undefined` when the full parser is needed. */
function plain(value: string): Scalar | undefined {
  if (value === "" || value === "~" || value === "null" || value === "Null" || value === "NULL")
    return null;
  if (value === "true" || value === "True" || value === "TRUE") return true;
  if (value === "false" || value === "False" || value === "FALSE") return false;
  if (INT.test(value) || FLOAT.test(value)) return Number(value);
  if (/^[-+]?\.(?:inf|Inf|INF|nan|NaN|NAN)$/.test(value) || /^0[xo]/.test(value)) return undefined;
  if (SPECIAL_START.test(value) && !/^-[^\s-]/.test(value)) return undefined;
  if (value.includes(": ") || value.includes(" #") || value.endsWith(":") || value.includes("\t"))
    return undefined;
  return value;
}

/** A scalar that may be quoted; `undefined` when the full parser is needed. */
function scalar(value: string): Scalar | undefined {
  if (value.startsWith('"')) return /^"[^"\\]*"$/.test(value) ? value.slice(1, -1) : undefined;
  if (value.startsWith("'")) return /^'[^']*'$/.test(value) ? value.slice(1, -1) : undefined;
  return plain(value);
}

/** A flow list `[a, b, "c"]` of scalars; `undefined` when the full parser is needed. */
function flowList(value: string): Scalar[] | undefined {
  const m = /^\[([^[\]{}]*)\]$/.exec(value);
  if (!m) return undefined;
  const inner = (m[1] ?? "").trim();
  if (inner === "") return [];
  const items: Scalar[] = [];
  const parts = inner.split(",");
  for (let i = 0; i < parts.length; i++) {
    const part = (parts[i] ?? "").trim();
    // A trailing comma is allowed in YAML flow lists; an empty item elsewhere is not.
    if (part === "") {
      if (i === parts.length - 1 && i > 0) break;
      return undefined;
    }
    if (/^["']/.test(part) ? false : part.includes(":")) return undefined;
    const v = scalar(part);
    if (v === undefined) return undefined;
    items.push(v);
  }
  return items;
}

/**
 * Reads a note's frontmatter when it is in the simple subset.
 * @returns the mapping (empty when the note has no frontmatter) and the body, exactly as
 *   {@link parseNote} would; or `null` when the full parser must decide (including every case
 *   where the YAML might be invalid)
 */
export function readSimpleFrontmatter(
  text: string,
): { data: Record<string, unknown>; body: string } | null {
  const start = text.startsWith(BOM) ? 1 : 0;
  const firstBreak = text.indexOf("\n");
  const firstLine = text
    .slice(start, firstBreak === -1 ? text.length : firstBreak)
    .replace(/\r$/, "");
  if (!isFrontmatterDelimiter(firstLine) || firstBreak === -1)
    return { data: {}, body: text.slice(start) };
  const data: Record<string, unknown> = {};
  let listKey: string | null = null;
  let pos = firstBreak + 1;
  while (pos < text.length) {
    const brk = text.indexOf("\n", pos);
    const end = brk === -1 ? text.length : brk;
    const line = text.slice(pos, end).replace(/\r$/, "");
    const next = brk === -1 ? text.length : brk + 1;
    if (isFrontmatterDelimiter(line)) return { data, body: text.slice(next) };
    pos = next;
    if (line.trim() === "" || /^#/.test(line)) continue;
    if (line.includes("\t")) return null;
    const item = listKey !== null ? LIST_ITEM.exec(line) : null;
    if (item && listKey !== null) {
      const v = scalar(item[1] ?? "");
      if (v === undefined || (item[1] ?? "").startsWith("- ") || (item[1] ?? "") === "-")
        return null;
      const list = data[listKey];
      if (Array.isArray(list)) list.push(v);
      else data[listKey] = [v];
      continue;
    }
    const kv = KEY_LINE.exec(line);
    if (!kv) return null;
    const key = kv[1] ?? "";
    if (Object.prototype.hasOwnProperty.call(data, key)) return null;
    const raw = kv[2] ?? "";
    if (raw === "") {
      data[key] = null;
      listKey = key;
      continue;
    }
    listKey = null;
    const v = raw.startsWith("[") ? flowList(raw) : scalar(raw);
    if (v === undefined) return null;
    data[key] = v;
  }
  // No closing delimiter: the whole text is body (parseNote's rule).
  return { data: {}, body: text.slice(start) };
}

/**
 * {@link readSimpleFrontmatter} of a note whose frontmatter is a mapping with at least one key,
 * with the 1-based line its body starts on: the `data`, `body` and `bodyLine` {@link parseNote}
 * gives. `null` for a note without frontmatter, with an empty one, or one the full parser must
 * read.
 */
export function simpleFrontmatterNote(
  text: string,
): { data: Record<string, unknown>; body: string; bodyLine: number } | null {
  const simple = readSimpleFrontmatter(text);
  if (!simple || simple.body.length === text.length || Object.keys(simple.data).length === 0)
    return null;
  const block = locateFrontmatterBlock(text).block;
  // parseNote's rule: the line after the closing delimiter, whether or not a line break ends it.
  return block ? { data: simple.data, body: simple.body, bodyLine: block.closeLine + 2 } : null;
}
