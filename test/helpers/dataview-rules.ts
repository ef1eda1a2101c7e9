// The Dataview plugin's rules for inline fields and tasks, written from its documentation ("Adding
// Metadata", "Types of Metadata", "Metadata on Tasks and Lists") and from what its task view does
// when "Automatic task completion tracking" is on, to test tracker lines against them
// (docs/decisions.md, "Tracker line order follows Tasks' reader"). The npm package
// `obsidian-dataview` (0.5.68) exports only its expression parser, not the inline-field scanner,
// and it cannot be installed without GitHub access (one of its dependencies is a GitHub URL), so
// these rules are encoded here instead.
//
// - Inline fields are `[key:: value]` (key shown) or `(key:: value)` (key hidden), anywhere in the
//   line; the value runs to the matching closing bracket (nested brackets, e.g. wikilinks, count).
// - A value's type: a date `YYYY-MM-DD` (optionally with a time), a duration `3 days`, a number, a
//   boolean, a link `[[…]]`, a list of those separated by commas; anything else is text.
// - A task's `status` is the character in its checkbox; `checked` is any character but a space,
//   `completed` only `x`/`X`; `completion`, `due` and `created` come from fields of those names.
// - Completion tracking (opt-in) on checking a task: every `^…` on the line is taken out, the
//   `completion` field is set (replaced, or appended as ` [completion:: date]`), and the first
//   `^…` that was found is put back at the end of the line.

/** A field as Dataview finds it. */
export interface DataviewField {
  key: string;
  value: string;
  wrapper: "[" | "(";
}

/** The type Dataview gives a value. */
export type DataviewType = "date" | "duration" | "number" | "boolean" | "link" | "list" | "text";

/** Every bracketed inline field of a line, in order. */
export function dataviewFields(line: string): DataviewField[] {
  const out: DataviewField[] = [];
  for (let i = 0; i < line.length; i++) {
    const open = line[i];
    if (open !== "[" && open !== "(") continue;
    const close = open === "[" ? "]" : ")";
    const sep = line.indexOf("::", i + 1);
    if (sep < 0) break;
    const key = line.slice(i + 1, sep);
    if (key.trim() === "" || /[[\]()]/.test(key)) continue;
    let depth = 0;
    let end = -1;
    for (let j = sep + 2; j < line.length; j++) {
      const c = line[j];
      if (c === "[" || c === "(") depth++;
      else if (c === "]" || c === ")") {
        if (depth === 0) {
          if (c === close) end = j;
          break;
        }
        depth--;
      }
    }
    if (end < 0) continue;
    out.push({ key: key.trim(), value: line.slice(sep + 2, end).trim(), wrapper: open });
    i = end;
  }
  return out;
}

const ATOMS: [DataviewType, RegExp][] = [
  ["date", /^\d{4}-\d{2}(-\d{2}(T\d{2}(:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}(:?\d{2})?)?)?)?$/],
  [
    "duration",
    /^\d+(\.\d+)?\s*(s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?|w|wks?|weeks?|mo|months?|y|yrs?|years?)$/i,
  ],
  ["number", /^-?\d+(\.\d+)?$/],
  ["boolean", /^(true|false)$/i],
  ["link", /^!?\[\[[^[\]]+\]\]$/],
];

/** The type Dataview gives one value (see the module comment). */
export function dataviewType(value: string): DataviewType {
  const v = value.trim();
  for (const [type, re] of ATOMS) if (re.test(v)) return type;
  const parts = v.split(/\s*,\s*/);
  if (parts.length > 1 && parts.every((p) => ATOMS.some(([, re]) => re.test(p)))) return "list";
  return "text";
}

/** The types of the elements of a list value (`[[a]], [[b]]` → link, link). */
export function dataviewListTypes(value: string): DataviewType[] {
  return value.split(/\s*,\s*/).map(dataviewType);
}

/** What Dataview reads from a task line. */
export interface DataviewTask {
  status: string;
  checked: boolean;
  completed: boolean;
  text: string;
  fields: DataviewField[];
  completion: string | null;
  due: string | null;
  created: string | null;
}

const LIST_ITEM = /^[\s>]*(\d+\.|\d+\)|\*|-|\+)\s*(\[.{0,1}\])?\s*(.*)$/u;

/** Reads a task line as Dataview does; `null` when the line is not a task. */
export function readDataviewTask(line: string): DataviewTask | null {
  const m = LIST_ITEM.exec(line);
  if (!m?.[2]) return null;
  const status = m[2].slice(1, -1) || " ";
  const text = (m[3] ?? "").trim();
  const fields = dataviewFields(text);
  const dateOf = (key: string): string | null => {
    const f = fields.find((x) => x.key === key);
    return f && dataviewType(f.value) === "date" ? f.value : null;
  };
  return {
    status,
    checked: status !== " ",
    completed: status === "x" || status === "X",
    text,
    fields,
    completion: dateOf("completion"),
    due: dateOf("due"),
    created: dateOf("created"),
  };
}

/** Dataview checking a task in a task view with completion tracking on (see the module comment). */
export function completeWithDataview(line: string, today: string): string {
  const m = /^([\s>]*(?:\d+\.|\d+\)|\*|-|\+)\s*)\[.\]\s*(.*)$/u.exec(line);
  if (!m) return line;
  const text = m[2] ?? "";
  const first = /\^[a-z0-9-]+/i.exec(text)?.[0];
  let rest = text.split(/\^[a-z0-9-]+/i).join("");
  const existing = dataviewFields(rest).filter((f) => f.key === "completion");
  if (existing.length > 0) rest = rest.replace(/\[completion::[^\]]*\]/, `[completion:: ${today}]`);
  else rest = `${rest.trimEnd()} [completion:: ${today}]`;
  return `${m[1] ?? "- "}[x] ${`${rest.trimEnd()}${first ? ` ${first}` : ""}`.trimEnd()}`;
}
