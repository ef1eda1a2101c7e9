/**
 * Frontmatter rules (docs/architecture.md, "The health check";
 * test/core/health/health-rules.test.ts, "case 03: …" and "case 04: …"): `frontmatter-invalid`,
 * `unquoted-wikilink`, `frontmatter-not-mapping`, `required-field-missing`, `wrong-type`,
 * `misread-value` (docs/decisions.md, "Required fields per collection").
 * A note whose frontmatter does not parse gets only the first two: nothing else can be trusted.
 */
import { isIso8601 } from "../util/dates";
import { asWikilink } from "../markdown/wikilinks";
import { fieldOf, type NoteInfo } from "./note-info";
import type { HealthProblem } from "./types";

/**
 * Frontmatter keys holding an ISO 8601 date or date-time (docs/architecture.md, "Note formats").
 */
export const DATE_FIELDS = ["created_at", "updated_at", "expires_at", "extracted_at"] as const;

/**
 * A frontmatter line whose value starts a flow sequence with a wikilink left unquoted, as in
 * test/core/health/health-rules.test.ts, "case 04: …":
 * `project: [[Project Alpha]]` (reads as a nested list) or `people: [[A]], [[B]]` (does not parse).
 * Returns the line with its wikilinks quoted, or `null` when the line is fine.
 */
export function quoteUnquotedWikilinks(line: string): string | null {
  const m = /^(\s*(?:-\s+)?(?:(?:"[^"]*"|'[^']*'|[^\s"'#:][^:#]*?)\s*:\s+)?)(\[.*)$/.exec(line);
  if (!m) return null;
  const head = m[1] ?? "";
  const value = (m[2] ?? "").replace(/\s+#.*$/, "").trimEnd();
  if (!/(^|[^"'])\[\[/.test(value)) return null;
  const links = value.match(/\[\[[^\]\r\n]*\]\]/g);
  if (!links) return null;
  const quoted = links.map((l) => JSON.stringify(l));
  const single = links.length === 1 && value === links[0];
  return `${head}${single ? quoted[0] : `[${quoted.join(", ")}]`}`;
}

/**
 * True when a value with unquoted wikilinks is still valid YAML, read as nested lists: `[[A]]` or
 * `[[[A]], [[B]]]`. Anything else around the links (`[[A]], [[B]]`, `[[A]] text`) breaks the YAML.
 */
function readsAsNestedList(value: string): boolean {
  const v = value.replace(/\s+#.*$/, "").trim();
  return (
    /^\[\[[^[\]\r\n]*\]\]$/.test(v) ||
    /^\[\s*\[\[[^[\]\r\n]*\]\](?:\s*,\s*\[\[[^[\]\r\n]*\]\])*\s*\]$/.test(v)
  );
}

/** The frontmatter block's own problems: YAML errors, unquoted wikilinks, `---` that is not frontmatter. */
export function checkFrontmatterSyntax(note: NoteInfo): HealthProblem[] {
  const out: HealthProblem[] = [];
  const wikilinkLines = new Map<number, { fixed: string; nested: boolean }>();
  for (const { line, text } of note.frontmatterLines) {
    const fixed = quoteUnquotedWikilinks(text);
    if (fixed === null) continue;
    const value =
      /^\s*(?:-\s+)?(?:(?:"[^"]*"|'[^']*'|[^\s"'#:][^:#]*?)\s*:\s+)?(\[.*)$/.exec(text)?.[1] ?? "";
    wikilinkLines.set(line, { fixed, nested: readsAsNestedList(value) });
  }
  for (const p of note.frontmatterProblems) {
    // The line-level wikilink finding below replaces the parser's report of the same line.
    if (wikilinkLines.has(p.line)) continue;
    if (p.severity === "warning") {
      out.push({
        path: note.path,
        rule: "frontmatter-not-mapping",
        severity: "warning",
        message: p.message,
        line: p.line,
      });
    } else if (note.invalid) {
      out.push({
        path: note.path,
        rule: "frontmatter-invalid",
        severity: "error",
        message: withHint(p.message, p.hint),
        line: p.line,
      });
    } else {
      // An error of a frontmatter that parses: a value that is not what was written.
      out.push({
        path: note.path,
        rule: "wrong-type",
        severity: "error",
        message: withHint(p.message, p.hint),
        line: p.line,
      });
    }
  }
  for (const [line, { fixed, nested }] of wikilinkLines) {
    const what = nested
      ? "Unquoted wikilink reads as a nested list, not as a link"
      : "Unquoted wikilink makes the frontmatter invalid YAML";
    out.push({
      path: note.path,
      rule: "unquoted-wikilink",
      severity: "error",
      message: `${what}; quote it: ${fixed.trim()}`,
      line,
    });
  }
  if (note.invalid && out.every((p) => p.severity !== "error")) {
    // parseNote refused the note but no line-level finding says why (e.g. an alias bomb).
    out.push({
      path: note.path,
      rule: "frontmatter-invalid",
      severity: "error",
      message: "Frontmatter cannot be read.",
      line: 1,
    });
  }
  return out.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
}

function withHint(message: string, hint: string | undefined): string {
  return hint ? `${message} ${hint}` : message;
}

/** Keys whose value is a list (Obsidian's list properties and ours). */
const LIST_KEYS = new Set(["tags", "aliases", "cssclasses", "related_to"]);

/** A top-level `key: value` line (the key plain, double- or single-quoted). */
const KEY_VALUE_RE = /^("[^"]*"|'[^']*'|[^\s"'#:-][^:#]*?)\s*:(?:[ \t]+(.*))?$/;
/** A block list entry `  - value`. */
const LIST_ENTRY_RE = /^(\s*-[ \t]+)(.*)$/;

/**
 * What YAML reads of a plain value that has ` #` followed by a non-space (`Fix bug #42`, `#seo`):
 * everything before it, or `null` when the value starts with it. A `# note` with a space after
 * the `#` is a comment someone meant; a value in quotes, brackets or braces is not plain.
 */
function lostToComment(value: string): { kept: string | null; written: string } | null {
  if (/^["'[{|>&*!]/.test(value)) return null;
  const m = /(^|[ \t])#\S/.exec(value);
  if (!m) return null;
  const kept = value.slice(0, m.index).trim();
  return { kept: kept === "" ? null : kept, written: value.trim() };
}

/**
 * `misread-value`: a frontmatter value YAML reads as something other than what the writer evidently
 * meant (docs/decisions.md, "Required fields per collection"), found line by line and checked
 * against what the parser read: part of the value or all of it lost to a ` #` read as a comment
 * (`title: Fix bug #42`, `tags: #a #b`), or a list key (`tags`, `aliases`, `cssclasses`,
 * `related_to`) written as comma-separated text. A warning: the note parses, but a field holds less
 * than its line says.
 */
export function checkMisreadValues(note: NoteInfo): HealthProblem[] {
  const data = note.data;
  if (note.invalid || data === null) return [];
  const out: HealthProblem[] = [];
  const push = (line: number, message: string): void => {
    out.push({ path: note.path, rule: "misread-value", severity: "warning", message, line });
  };
  const lostMessage = (
    key: string,
    lost: { kept: string | null; written: string },
    fixed: string,
  ): string =>
    `${key} reads as ${lost.kept === null ? "empty" : JSON.stringify(lost.kept)}: YAML takes " #" as the start of a comment; quote it: ${fixed}`;
  let listKey: string | null = null;
  for (const { line, text } of note.frontmatterLines) {
    const kv = KEY_VALUE_RE.exec(text);
    if (kv) {
      const key = (kv[1] ?? "").replace(/^["']|["']$/g, "");
      const value = kv[2] ?? "";
      const read = data[key];
      listKey = value.trim() === "" || value.trim().startsWith("#") ? key : null;
      const lost = lostToComment(value);
      if (lost && (read ?? null) === lost.kept) {
        push(line, lostMessage(key, lost, `${key}: ${JSON.stringify(lost.written)}`));
        continue;
      }
      if (
        LIST_KEYS.has(key) &&
        typeof read === "string" &&
        read.includes(",") &&
        !/^["']/.test(value.trim())
      ) {
        const entries = read
          .split(",")
          .map((e) => e.trim())
          .filter((e) => e !== "");
        push(
          line,
          `${key} reads as one text, not a list; write it as a list: ${key}: [${entries.join(", ")}]`,
        );
      }
      continue;
    }
    const entry = LIST_ENTRY_RE.exec(text);
    if (!entry || listKey === null) {
      if (!/^\s/.test(text)) listKey = null;
      continue;
    }
    const list = data[listKey];
    const lost = lostToComment(entry[2] ?? "");
    if (lost && Array.isArray(list) && list.includes(lost.kept))
      push(line, lostMessage(listKey, lost, `- ${JSON.stringify(lost.written)}`));
  }
  return out;
}

function isEmpty(v: unknown): boolean {
  return v === undefined || v === null || (typeof v === "string" && v.trim() === "");
}

/** `required-field-missing`: the fields of `settings.health.requiredFields` that are absent or empty. */
export function checkRequiredFields(note: NoteInfo, required: readonly string[]): HealthProblem[] {
  if (note.invalid || required.length === 0) return [];
  const missing = required.filter((k) => isEmpty(fieldOf(note, k)));
  if (missing.length === 0) return [];
  const message =
    note.data === null
      ? `No frontmatter; required fields missing: ${missing.join(", ")}.`
      : `Required fields missing: ${missing.join(", ")}.`;
  return [{ path: note.path, rule: "required-field-missing", severity: "error", message, line: 1 }];
}

function describe(v: unknown): string {
  if (v === null) return "empty";
  if (Array.isArray(v)) return `a list (${JSON.stringify(v).slice(0, 60)})`;
  if (typeof v === "object") return "a mapping";
  if (typeof v === "string") return JSON.stringify(v.length > 60 ? `${v.slice(0, 57)}...` : v);
  if (typeof v === "number" || typeof v === "boolean") return `${typeof v} ${String(v)}`;
  return typeof v;
}

/**
 * `wrong-type`: `related_to` not a list of wikilinks; date fields not ISO 8601; `confidence` not a
 * number 0–1; `tags`/`aliases` not text or a list of text; `id`, `type`, `status`, `domain`,
 * `agent`, `category` not a single value. Keys already reported on their line (an unquoted
 * wikilink) are skipped, so one defect gives one finding.
 */
export function checkTypes(note: NoteInfo, reportedLines: ReadonlySet<number>): HealthProblem[] {
  if (note.data === null) return [];
  const out: HealthProblem[] = [];
  const push = (key: string, message: string): void => {
    const line = note.keyLines.get(key);
    if (line !== undefined && reportedLines.has(line)) return;
    out.push({
      path: note.path,
      rule: "wrong-type",
      severity: "error",
      message,
      ...(line !== undefined ? { line } : {}),
    });
  };
  const data = note.data;
  if (Object.hasOwn(data, "related_to")) {
    const v = data.related_to;
    if (v !== null) {
      if (!Array.isArray(v))
        push("related_to", `related_to must be a list of wikilinks, found ${describe(v)}.`);
      else {
        const bad = v.filter((e) => asWikilink(e) === null);
        if (bad.length > 0)
          push(
            "related_to",
            `related_to entries that are not wikilinks: ${bad.map(describe).join(", ")}.`,
          );
      }
    }
  }
  for (const key of DATE_FIELDS) {
    if (!Object.hasOwn(data, key)) continue;
    const v = data[key];
    if (v === null) continue;
    if (typeof v !== "string" || !isIso8601(v.trim())) {
      push(
        key,
        `${key} must be an ISO 8601 date (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS±HH:MM), found ${describe(v)}.`,
      );
    }
  }
  if (Object.hasOwn(data, "confidence") && data.confidence !== null) {
    const c = data.confidence;
    if (typeof c !== "number" || !Number.isFinite(c) || c < 0 || c > 1)
      push("confidence", `confidence must be a number from 0 to 1, found ${describe(c)}.`);
  }
  for (const key of ["tags", "aliases"]) {
    const v = data[key];
    if (v === undefined || v === null || typeof v === "string") continue;
    if (!Array.isArray(v) || v.some((e) => typeof e !== "string" && typeof e !== "number")) {
      push(key, `${key} must be text or a list of text, found ${describe(v)}.`);
    }
  }
  for (const key of ["id", "type", "status", "domain", "agent", "category"]) {
    const v = data[key];
    if (v === undefined || v === null || typeof v === "string" || typeof v === "number") continue;
    push(key, `${key} must be a single value, found ${describe(v)}.`);
  }
  if (Object.hasOwn(data, "source") && data.source !== null) {
    const v = data.source;
    const ok = typeof v === "string" || (Array.isArray(v) && v.every((e) => typeof e === "string"));
    if (!ok)
      push("source", `source must be a wikilink, a URL or a list of them, found ${describe(v)}.`);
  }
  return out;
}
