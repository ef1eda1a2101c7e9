/**
 * JSON Lines as transcripts are written (docs/agents.md, "Importing past sessions"): one JSON
 * object a line, appended while the session runs, so the last line may be cut mid-way.
 */

/** One line of a JSONL file, parsed. */
export interface JsonlRecord {
  /** 1-based line number. */
  line: number;
  value: Record<string, unknown>;
}

/** What {@link readJsonl} returns. */
export interface JsonlRead {
  records: JsonlRecord[];
  /** 1-based numbers of non-blank lines that are not a JSON object. */
  badLines: number[];
  /** True when the text does not end with a newline and its last line is not JSON. */
  cutLastLine: boolean;
}

/**
 * Splits `text` into lines and parses each as a JSON object. Blank lines are skipped; a line that
 * is not a JSON object is listed in `badLines`, except a last line without a final newline that
 * does not parse: that is a line still being written (`cutLastLine`), not a bad one.
 */
export function readJsonl(text: string): JsonlRead {
  const records: JsonlRecord[] = [];
  const badLines: number[] = [];
  let cutLastLine = false;
  let start = 0;
  let line = 0;
  while (start < text.length) {
    line++;
    const nl = text.indexOf("\n", start);
    const end = nl < 0 ? text.length : nl;
    const raw = text.slice(start, end).trim();
    start = end + 1;
    if (raw === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      if (nl < 0) cutLastLine = true;
      else badLines.push(line);
      continue;
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) badLines.push(line);
    else records.push({ line, value: value as Record<string, unknown> });
  }
  return { records, badLines, cutLastLine };
}

/** `value[key]` when it is a string, else `undefined`. */
export function str(value: unknown, key: string): string | undefined {
  if (value === null || typeof value !== "object") return undefined;
  const v = (value as Record<string, unknown>)[key];
  return typeof v === "string" ? v : undefined;
}

/** `value[key]` when it is an object (not an array), else `undefined`. */
export function obj(value: unknown, key: string): Record<string, unknown> | undefined {
  if (value === null || typeof value !== "object") return undefined;
  const v = (value as Record<string, unknown>)[key];
  return v !== null && typeof v === "object" && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : undefined;
}

/** `value[key]` when it is an array, else `[]`. */
export function arr(value: unknown, key: string): unknown[] {
  if (value === null || typeof value !== "object") return [];
  const v = (value as Record<string, unknown>)[key];
  return Array.isArray(v) ? v : [];
}
