/**
 * Frontmatter: parse, edit, serialise (docs/architecture.md, "Frontmatter";
 * test/core/frontmatter.test.ts, "case 01: …" to "case 04: …").
 *
 * The note is split by a line scanner of our own rather than by gray-matter: gray-matter caches
 * results by input string (test/core/frontmatter.test.ts, "case 01: …"), treats an unclosed `---` as a
 * frontmatter block that swallows the whole note, takes any line starting with `---` (such as
 * `----`) as the closing one, and calls Node's `Buffer` on every parse, which does not exist on
 * Obsidian mobile ("Buffer is not defined", beaussan/update-time-on-edit-obsidian#32). The scanner
 * keeps no state, so nothing can leak. YAML is read by the `yaml` package with YAML 1.2 core
 * semantics (test/core/frontmatter.test.ts, "case 02: …").
 */
import { Document, isMap, isScalar, isSeq, parseDocument, visit } from "yaml";
import type {
  DocumentOptions,
  Node as YamlNode,
  ParseOptions,
  SchemaOptions,
  YAMLError,
} from "yaml";
import { locateFrontmatterBlock } from "./markdown/frontmatter-block";
import { FrontmatterError } from "./errors";

/** Result of splitting a note into frontmatter and body. */
export interface ParsedNote {
  /**
   * The YAML mapping, or `null` when the note has no frontmatter (anything but a mapping is body:
   * test/core/frontmatter.test.ts, "case 03: …").
   */
  data: Record<string, unknown> | null;
  /** Body text (everything after the closing `---` line, or the whole text without BOM when no frontmatter). */
  body: string;
  /** Character offset in the original text where the body starts. */
  bodyOffset: number;
  /** 1-based line number in the original text where the body starts. */
  bodyLine: number;
  /** True when the text starts with a UTF-8 BOM. */
  bom: boolean;
  /** The note's line ending. */
  eol: "\n" | "\r\n";
  /**
   * Set when the note has a `---` … `---` block whose YAML is a list or a single value instead of a
   * mapping (`---\n- a\n---`, `---\nhello\n---`). Such a note reads as having no fields (`data` is
   * `null`, the whole text is body, test/core/frontmatter.test.ts, "case 03: …"), but it must never be
   * given frontmatter: a second block in front of the first is what Obsidian would show as the
   * note's properties
   * (docs/decisions.md, "Frontmatter that is a YAML list or a single value is never wrapped").
   * {@link setFrontmatter} refuses it; see {@link notMappingError}.
   */
  notMapping?: "list" | "scalar";
}

/**
 * One finding of {@link frontmatterProblems}, for the health check
 * (docs/architecture.md, "The health check").
 */
export interface FrontmatterProblem {
  /** 1-based line in the note. */
  line: number;
  /** `error`: the frontmatter does not parse, or a value is not what was written; `warning`: suspicious. */
  severity: "error" | "warning";
  message: string;
  /** How to fix it, when there is a known fix. */
  hint?: string;
}

const BOM = "\uFEFF";
const INT_TAG = "tag:yaml.org,2002:int";

/**
 * YAML 1.2 core schema (no timestamps, no `yes`/`no` booleans, no octal `0123`), with one change:
 * an integer written with a leading zero (`0123`) stays the string "0123" — an id, not a number —
 * so neither the YAML 1.1 octal 83 nor a silently dropped zero can happen
 * (test/core/frontmatter.test.ts, "case 02: …").
 */
const YAML_OPTIONS: ParseOptions & DocumentOptions & SchemaOptions = {
  version: "1.2",
  schema: "core",
  uniqueKeys: true,
  prettyErrors: true,
  customTags: (tags) =>
    tags.map((tag) =>
      typeof tag === "object" && tag.tag === INT_TAG && !tag.format && "test" in tag && tag.test
        ? { ...tag, test: /^[-+]?(?:0|[1-9][0-9]*)$/ }
        : tag,
    ),
};
const STRINGIFY_OPTIONS = { lineWidth: 0, flowCollectionPadding: false } as const;
/** Guards against alias bombs ("billion laughs") in a note's frontmatter. */
const MAX_ALIAS_COUNT = 100;

function parseYaml(source: string): Document.Parsed {
  return parseDocument(source, YAML_OPTIONS);
}

/**
 * The error for a note whose frontmatter block is a list or a single value ({@link ParsedNote.notMapping}),
 * e.g. `Memory/…/2026-11-27.md: frontmatter is a YAML list, not a mapping of fields; nothing written`;
 * `null` for any other note. Writers throw it before they change anything (test/core/frontmatter.test.ts).
 */
export function notMappingError(
  note: Pick<ParsedNote, "notMapping">,
  path: string,
): FrontmatterError | null {
  if (!note.notMapping) return null;
  const what = note.notMapping === "list" ? "a YAML list" : "a single YAML value";
  return new FrontmatterError(
    `${path}: frontmatter is ${what}, not a mapping of fields; nothing written`,
    path,
  );
}

/**
 * The error for a note whose first line opens frontmatter (`---`) that no later `---` line closes,
 * or `null`. Such a note is read as body text (test/core/frontmatter.test.ts, "the frontmatter
 * boundary"), but writing frontmatter on top of it would turn the person's own fields into body
 * text: writers refuse it, naming the file.
 */
export function unclosedFrontmatterError(text: string, path: string): FrontmatterError | null {
  const loc = locateFrontmatterBlock(text);
  if (!loc.opens || loc.block) return null;
  return new FrontmatterError(
    `${path}: frontmatter opened by the first line (---) is never closed by a --- line; close it, or remove that line; nothing written`,
    path,
  );
}

/**
 * `null` for a document that is not a mapping (it is then body text, test/core/frontmatter.test.ts,
 * "case 03: …").
 */
function mappingOf(doc: Document.Parsed, path: string): Record<string, unknown> | null {
  if (doc.contents === null) return {};
  if (!isMap(doc.contents)) return null;
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) as Record<string, unknown>;
  } catch (err) {
    throw new FrontmatterError(
      `${path}: frontmatter cannot be read: ${(err as Error).message}`,
      path,
      { cause: err },
    );
  }
}

/** The first line of a yaml error message, without the position the message repeats. */
function reasonOf(error: YAMLError): string {
  const first = error.message.split("\n")[0] ?? error.message;
  return first.replace(/ at line \d+, column \d+:?$/, "");
}

/**
 * 1-based note line of a yaml error (the YAML starts on note line 2), the one line every report of
 * it names (extraction's refusal, `health`, the journal append). The parser places an unterminated
 * quote or bracket at the end of the source, which is the closing `---` line (`closeLine`, 0-based,
 * as {@link locateFrontmatterBlock} gives it); the line a person must fix is then the last
 * frontmatter line that opened a quote or bracket, or else the last non-blank one
 * (test/core/frontmatter.test.ts, "a YAML error names the line that opened it").
 */
function noteLineOf(error: YAMLError, text: string, closeLine: number): number {
  const line = (error.linePos?.[0].line ?? 1) + 1;
  if (line <= closeLine) return line;
  const lines = text.split("\n");
  let lastFilled = 0;
  for (let i = closeLine - 1; i >= 1; i--) {
    const l = (lines[i] ?? "").trim();
    if (l === "") continue;
    if (lastFilled === 0) lastFilled = i + 1;
    if (/["'[{]/.test(l)) return i + 1;
  }
  return lastFilled || line;
}

/**
 * Splits and parses a note (YAML 1.2 core schema: dates stay strings, `0123` stays a string "0123"…).
 * A note whose first line is `---` has frontmatter only when a later line is `---` and the YAML
 * between them is a mapping (or empty); otherwise the whole text is body (test/core/frontmatter.test.ts,
 * "case 03: …"). Every call parses afresh, so mutating a result never affects another
 * (test/core/frontmatter.test.ts, "case 01: …"). Handles a BOM and CRLF. Throws {@link FrontmatterError}
 * naming `path`, with the line, when the YAML does not parse.
 */
export function parseNote(text: string, path = "note"): ParsedNote {
  const loc = locateFrontmatterBlock(text);
  const whole: ParsedNote = {
    data: null,
    body: text.slice(loc.start),
    bodyOffset: loc.start,
    bodyLine: 1,
    bom: loc.bom,
    eol: loc.eol,
  };
  if (!loc.block) return whole;
  const doc = parseYaml(text.slice(loc.block.yamlStart, loc.block.yamlEnd));
  const error = doc.errors[0];
  if (error) {
    throw new FrontmatterError(
      `${path}: frontmatter is not valid YAML (line ${noteLineOf(error, text, loc.block.closeLine)}): ${reasonOf(error)}${wikilinkAdvice(error, text, loc.block.closeLine)}`,
      path,
      { cause: error },
    );
  }
  const data = mappingOf(doc, path);
  if (data === null) return { ...whole, notMapping: isSeq(doc.contents) ? "list" : "scalar" };
  const { bodyStart, closeLine } = loc.block;
  return {
    data,
    body: text.slice(bodyStart),
    bodyOffset: bodyStart,
    bodyLine: closeLine + 2,
    bom: loc.bom,
    eol: loc.eol,
  };
}

function wikilinkAdvice(error: YAMLError, text: string, closeLine: number): string {
  const line = text.split("\n")[noteLineOf(error, text, closeLine) - 1] ?? "";
  const hint = quotedWikilinkHint(line.replace(/\r$/, ""));
  return hint ? `. ${hint}` : "";
}

// ---------------------------------------------------------------------------------------------
// Writing

type Plain = null | boolean | number | string | Plain[] | { [key: string]: Plain };

/** The value as it will read back: Dates become ISO strings, `undefined` members disappear. */
function toPlain(value: unknown): Plain {
  if (value === null || value === undefined) return null;
  if (typeof value === "string" || typeof value === "boolean" || typeof value === "number")
    return value;
  if (typeof value === "bigint") return Number(value);
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(toPlain);
  if (typeof value === "object") {
    const out: { [key: string]: Plain } = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = toPlain(v);
    return out;
  }
  return null; // a function or symbol has no YAML form
}

function samePlain(a: unknown, b: unknown): boolean {
  if (
    a === b ||
    (typeof a === "number" && typeof b === "number" && Number.isNaN(a) && Number.isNaN(b))
  )
    return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((x, i) => samePlain(x, b[i]))
    );
  }
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length &&
    ka.every(
      (k) =>
        Object.hasOwn(b, k) &&
        samePlain((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
    )
  );
}

/**
 * Whether `s` may be written as a plain scalar: it reads back as the same string under
 * {@link parseNote} (so an ISO timestamp stays plain), it holds no wikilink (always quoted:
 * test/core/frontmatter.test.ts, "case 04: …"), and it is not a number with a leading zero that other
 * YAML readers would take for octal (test/core/frontmatter.test.ts, "case 02: …").
 */
function isSafePlain(s: string): boolean {
  if (s === "" || s.includes("[[") || /[\r\n]/.test(s) || s !== s.trim() || /^[-+]?0\d/.test(s))
    return false;
  const doc = parseYaml(`k: ${s}\n`);
  if (doc.errors.length > 0 || doc.warnings.length > 0) return false;
  try {
    return (doc.toJS() as { k?: unknown } | null)?.k === s;
  } catch {
    return false; // `*x`: an alias to no anchor
  }
}

/** Plain or double-quoted style for every string of a value; lists of scalars in flow style. */
function styleValue(doc: Document): void {
  visit(doc, {
    Seq(_, node) {
      if (node.items.every((item) => isScalar(item))) node.flow = true;
    },
    Scalar(_, node) {
      // The stringifier still quotes a PLAIN string where its context (e.g. a flow list) needs it.
      if (typeof node.value === "string")
        node.type = isSafePlain(node.value) ? "PLAIN" : "QUOTE_DOUBLE";
    },
  });
}

/** YAML text of a value, one line for scalars and lists of scalars (flow style), else block lines. */
function renderValue(value: Plain): string[] {
  const doc = new Document(value, YAML_OPTIONS);
  styleValue(doc);
  return doc.toString(STRINGIFY_OPTIONS).replace(/\n$/, "").split("\n");
}

/** `key: value` lines for one entry; `indent` is the mapping's indentation. */
function renderEntry(keyText: string, value: Plain, indent: string): string[] {
  const lines = renderValue(value);
  const isBlock = value !== null && typeof value === "object" && !/^[[{]/.test(lines[0] ?? "");
  if (!isBlock) return [`${indent}${keyText}: ${lines.join(" ")}`];
  return [`${indent}${keyText}:`, ...lines.map((line) => `${indent}  ${line}`)];
}

function renderKey(key: string): string {
  return /^[A-Za-z_][\w-]*$/.test(key) && isSafePlain(key) ? key : JSON.stringify(key);
}

interface LineEdit {
  /** 0-based first and one-past-last line of the YAML source being replaced. */
  from: number;
  to: number;
  lines: string[];
}

function lineStartsOf(source: string): number[] {
  const starts = [0];
  for (let i = source.indexOf("\n"); i !== -1; i = source.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}

function lineIndexAt(lineStarts: number[], offset: number): number {
  let lo = 0;
  let hi = lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((lineStarts[mid] ?? 0) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Line edits for a block mapping, or `null` when the mapping's layout does not allow editing by
 * lines (a flow mapping `{a: 1}`, a complex key).
 */
function planLineEdits(
  doc: Document.Parsed,
  source: string,
  fields: [string, Plain][],
  current: Record<string, unknown>,
): LineEdit[] | null {
  const map = doc.contents;
  if (map !== null && (!isMap(map) || map.flow)) return null;
  const lines = source.split("\n");
  const lineStarts = lineStartsOf(source);
  const pairs = map?.items ?? [];
  const firstKey = pairs[0]?.key as YamlNode | undefined;
  const indent = firstKey?.range
    ? " ".repeat(firstKey.range[0] - (lineStarts[lineIndexAt(lineStarts, firstKey.range[0])] ?? 0))
    : "";
  const edits: LineEdit[] = [];
  const appended: string[] = [];
  for (const [key, value] of fields) {
    if (Object.hasOwn(current, key) && samePlain(current[key], value)) continue;
    const pair = pairs.find((p) => isScalar(p.key) && String(p.key.value) === key);
    if (!pair) {
      appended.push(...renderEntry(renderKey(key), value, indent));
      continue;
    }
    const keyNode = pair.key as YamlNode;
    const valueNode = pair.value as YamlNode | null;
    if (!keyNode.range) return null;
    const first = lineIndexAt(lineStarts, keyNode.range[0]);
    const keyColumn = keyNode.range[0] - (lineStarts[first] ?? 0);
    const lead = (lines[first] ?? "").slice(0, keyColumn);
    if (lead.trim() !== "") return null;
    let end = Math.max(valueNode?.range?.[1] ?? 0, keyNode.range[1]);
    while (end > keyNode.range[1] && /\s/.test(source[end - 1] ?? "")) end--;
    const last = lineIndexAt(lineStarts, Math.max(end - 1, keyNode.range[0]));
    const replacement = renderEntry(source.slice(keyNode.range[0], keyNode.range[1]), value, lead);
    // A comment after a one-line value is the person's; keep it.
    const tail = (lines[last] ?? "").replace(/\r$/, "").slice(end - (lineStarts[last] ?? 0));
    if (first === last && replacement.length === 1 && /^[ \t]+#/.test(tail)) replacement[0] += tail;
    edits.push({ from: first, to: last + 1, lines: replacement });
  }
  if (appended.length > 0) {
    const end = source === "" ? 0 : lines.length - 1; // source ends with a line break: last split item is ""
    edits.push({ from: end, to: end, lines: appended });
  }
  return edits;
}

function applyLineEdits(source: string, edits: LineEdit[], eol: string): string {
  const lines = source === "" ? [""] : source.split("\n");
  const sorted = [...edits].sort((a, b) => b.from - a.from);
  for (const edit of sorted)
    lines.splice(
      edit.from,
      edit.to - edit.from,
      ...edit.lines.map((l) => l + (eol === "\r\n" ? "\r" : "")),
    );
  return lines.join("\n");
}

/** The whole frontmatter re-serialised by the yaml library: only for layouts lines cannot edit. */
function reserialize(doc: Document.Parsed, fields: [string, Plain][], eol: string): string {
  for (const [key, value] of fields) {
    const node = new Document(value, YAML_OPTIONS);
    styleValue(node);
    doc.set(key, node.contents);
  }
  if (isMap(doc.contents)) doc.contents.flow = false;
  return doc.toString(STRINGIFY_OPTIONS).replace(/\n/g, eol);
}

/**
 * Sets (or adds, at the end of the frontmatter) the given keys, rewriting only their lines; creates
 * frontmatter when the note has none. Values are written as YAML with wikilinks quoted
 * (test/core/frontmatter.test.ts, "case 04: …"): lists of scalars in flow style (`related_to:
 * ["[[Project Alpha]]"]`), strings plain only when they read back unchanged (so
 * `2024-05-23T22:17:03+08:00` stays plain, test/core/frontmatter.test.ts, "case 02: …"), otherwise
 * double-quoted. Every other line — comments, key order, unknown keys, BOM, CRLF — is kept byte for
 * byte. A key set to `undefined` is left as it is; a key whose value is unchanged is not rewritten.
 * Throws {@link FrontmatterError} naming `path` when the existing frontmatter does not parse, when
 * it is a YAML list or a single value rather than a mapping ({@link notMappingError}: it is neither
 * wrapped nor duplicated), or when the edit would not read back as the given values; the note is
 * never rewritten then.
 */
export function setFrontmatter(
  text: string,
  fields: Record<string, unknown>,
  path = "note",
): string {
  const entries: [string, Plain][] = Object.entries(fields)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => [key, toPlain(value)]);
  const parsed = parseNote(text, path);
  const refused =
    notMappingError(parsed, path) ?? (entries.length ? unclosedFrontmatterError(text, path) : null);
  if (refused) throw refused;
  const loc = locateFrontmatterBlock(text);
  let result: string;
  if (parsed.data === null || !loc.block) {
    if (entries.length === 0) return text;
    const lines = entries.flatMap(([key, value]) => renderEntry(renderKey(key), value, ""));
    result = `${parsed.bom ? BOM : ""}---${loc.eol}${lines.join(loc.eol)}${loc.eol}---${loc.eol}${text.slice(loc.start)}`;
  } else {
    const { yamlStart, yamlEnd } = loc.block;
    const source = text.slice(yamlStart, yamlEnd);
    const edits = planLineEdits(parseYaml(source), source, entries, parsed.data);
    if (edits !== null && edits.length === 0) return text;
    if (edits !== null) {
      result =
        text.slice(0, yamlStart) + applyLineEdits(source, edits, loc.eol) + text.slice(yamlEnd);
      // Line edits can break what they do not see (an anchor that another key aliases).
      if (readsBack(result, parsed.data, entries, path)) return result;
    }
    let yaml: string;
    try {
      yaml = reserialize(parseYaml(source), entries, loc.eol);
    } catch (err) {
      throw new FrontmatterError(
        `${path}: the frontmatter cannot be edited safely (${(err as Error).message}); the note was left as it was`,
        path,
        { cause: err },
      );
    }
    result = text.slice(0, yamlStart) + yaml + text.slice(yamlEnd);
  }
  if (!readsBack(result, parsed.data ?? {}, entries, path)) {
    throw new FrontmatterError(
      `${path}: the frontmatter edit would not read back as written; the note was left as it was`,
      path,
    );
  }
  return result;
}

/** Whether the edited note reads back with the set keys holding their values and every other key unchanged. */
function readsBack(
  result: string,
  before: Record<string, unknown>,
  entries: [string, Plain][],
  path: string,
): boolean {
  let after: ParsedNote;
  try {
    after = parseNote(result, path);
  } catch {
    // An edit that no longer parses does not read back: the caller falls back to rewriting.
    return false;
  }
  const expected: Record<string, unknown> = { ...before };
  for (const [key, value] of entries) expected[key] = value;
  return after.data !== null && samePlain(toPlain(after.data), toPlain(expected));
}

// ---------------------------------------------------------------------------------------------
// Health

/**
 * For a line like `people: [[Person A]], [[Person B]]`, the advice to quote its wikilinks with the
 * corrected line (test/core/frontmatter.test.ts, "case 04: …"); `undefined` when the line has no
 * unquoted wikilink.
 */
function quotedWikilinkHint(line: string): string | undefined {
  const match = /^(\s*(?:-\s+)?(?:[^\s:#"'[][^:#]*:\s+)?)(\[\[.*)$/.exec(line);
  if (!match) return undefined;
  const [, head = "", value = ""] = match;
  const links = value.match(/\[\[[^\]]*\]\]/g);
  if (!links) return undefined;
  const quoted = links.map((link) => JSON.stringify(link));
  const fixed =
    links.length === 1 && value.trim() === links[0] ? quoted[0] : `[${quoted.join(", ")}]`;
  return `Quote wikilinks in frontmatter: ${head.trimStart()}${fixed}`;
}

const NESTED_LIST = "An unquoted wikilink in frontmatter reads as a nested list, not as a link.";

/**
 * Problems of a note's frontmatter for the health check (docs/architecture.md, "The health check";
 * test/core/health/health-rules.test.ts, "case 03: …" and "case 04: …"): YAML that does not parse (with its
 * line), wikilinks left unquoted (they read as nested lists, or break the YAML), and a note that
 * starts with `---` but has no frontmatter mapping (a horizontal rule, read as body). Never throws;
 * returns an empty list for a healthy note.
 */
export function frontmatterProblems(text: string): FrontmatterProblem[] {
  const loc = locateFrontmatterBlock(text);
  if (!loc.opens) return [];
  if (!loc.block) {
    return [
      {
        line: 1,
        severity: "warning",
        message:
          "The note starts with --- but has no closing ---: it is read as body text, without frontmatter.",
        hint: "Close the frontmatter with a --- line, or remove the first --- line if it is not meant as frontmatter.",
      },
    ];
  }
  const source = text.slice(loc.block.yamlStart, loc.block.yamlEnd);
  const lines = text.split("\n").map((line) => line.replace(/\r$/, ""));
  const doc = parseYaml(source);
  const problems: FrontmatterProblem[] = [];
  const seen = new Set<number>();
  for (const error of doc.errors) {
    const line = noteLineOf(error, text, loc.block.closeLine);
    if (seen.has(line)) continue;
    seen.add(line);
    const hint =
      quotedWikilinkHint(lines[line - 1] ?? "") ??
      "Fix the YAML: a value containing ': ', ' #', or starting with [ { * & ! | > ' \" % @ ` needs double quotes.";
    problems.push({
      line,
      severity: "error",
      message: `Frontmatter is not valid YAML: ${reasonOf(error)}.`,
      hint,
    });
  }
  if (problems.length > 0) {
    // The YAML stops at its first error; report the wikilink lines it did not reach too
    // (test/core/frontmatter.test.ts, "case 04: …").
    for (let line = 2; line < loc.block.closeLine + 1; line++) {
      const hint = seen.has(line) ? undefined : quotedWikilinkHint(lines[line - 1] ?? "");
      if (hint) problems.push({ line, severity: "error", message: NESTED_LIST, hint });
    }
    return problems.sort((a, b) => a.line - b.line);
  }
  if (doc.contents !== null && !isMap(doc.contents)) {
    return [
      {
        line: 1,
        severity: "warning",
        message:
          "The note starts with --- but what follows is not a YAML mapping: it is read as body text (a horizontal rule?), without fields, and no frontmatter can be written to it (extraction refuses the note).",
        hint: "Write frontmatter as key: value lines; for a horizontal rule at the top of a note, use *** instead of ---.",
      },
    ];
  }
  const lineStarts = lineStartsOf(source);
  visit(doc, {
    Seq(_, node) {
      if (!node.flow || !node.range || !source.startsWith("[[", node.range[0])) return undefined;
      const line = lineIndexAt(lineStarts, node.range[0]) + 2;
      problems.push({
        line,
        severity: "error",
        message: NESTED_LIST,
        hint:
          quotedWikilinkHint(lines[line - 1] ?? "") ??
          'Quote wikilinks in frontmatter, e.g. related_to: ["[[Note]]"].',
      });
      return visit.SKIP;
    },
  });
  return problems;
}
