// The Tasks plugin's rules for task lines, written from its documentation ("Dataview Format",
// "About Task Formats", "Statuses", "Priority", "Dates") to test tracker lines against them
// (docs/decisions.md, "Tracker line order follows Tasks' reader"): Tasks is not on the npm
// registry. Not Tasks' code: only what its documentation says it does.
//
// - A task is a list item with a checkbox; the status symbol is the character in the box: ` ` Todo,
//   `x`/`X` Done, `/` In Progress, `-` Cancelled (the default statuses).
// - A block link ` ^id` at the very end is kept apart from the description.
// - In its Dataview format, Tasks reads `[key:: value]` or `(key:: value)` fields from the END of
//   the line backwards (a trailing ` ,` allowed), each only when its key is one Tasks knows and its
//   value has the form Tasks expects (a `YYYY-MM-DD` date, a priority word…); it stops at the first
//   field or text it does not know: that and everything before it is the description. Tags at the
//   end are read past too.
// - Priorities are `highest`, `high`, `medium`, `low`, `lowest`; dates are `created`, `start`,
//   `scheduled`, `due`, `cancelled`, `completion` (done).
// - When Tasks writes a line it writes the description, then its own fields in its order, each as
//   `  [key:: value]` (two spaces before), then the block link. Toggling to Done adds today's
//   `completion` date; cancelling adds `cancelled`.
// - In its default (emoji) format it reads emoji signifiers from the end instead (✅ done date,
//   📅 due, ➕ created, ⏫ high…), and no Dataview fields at all.

/** What Tasks reads from one line. */
export interface TasksTask {
  indentation: string;
  listMarker: string;
  statusSymbol: string;
  /** `TODO`, `DONE`, `IN_PROGRESS`, `CANCELLED`, or `UNKNOWN` for another symbol. */
  statusType: "TODO" | "DONE" | "IN_PROGRESS" | "CANCELLED" | "UNKNOWN";
  description: string;
  priority: "highest" | "high" | "medium" | "low" | "lowest" | "none";
  created: string | null;
  start: string | null;
  scheduled: string | null;
  due: string | null;
  cancelled: string | null;
  done: string | null;
  recurrence: string | null;
  id: string | null;
  dependsOn: string | null;
  /** ` ^id`, or `""`. */
  blockLink: string;
  /** Keys read, in the order they were read (from the end). */
  read: string[];
}

const TASK_LINE = /^([\s\t>]*)([-*+]|[0-9]+[.)]) +\[(.)\] *(.*)$/u;
const BLOCK_LINK = / \^[a-zA-Z0-9-]+$/u;
const STATUS: Readonly<Record<string, TasksTask["statusType"]>> = {
  " ": "TODO",
  x: "DONE",
  X: "DONE",
  "/": "IN_PROGRESS",
  "-": "CANCELLED",
};
const DATE = "(\\d{4}-\\d{2}-\\d{2})";
/** Dataview-format keys Tasks knows, with the value form each needs. */
const VALUE: Readonly<Record<string, string>> = {
  priority: "(highest|high|medium|low|lowest)",
  created: DATE,
  start: DATE,
  scheduled: DATE,
  due: DATE,
  cancelled: DATE,
  completion: DATE,
  repeat: "([a-zA-Z0-9, !]+)",
  id: "([a-zA-Z0-9-_]+)",
  dependsOn: "([a-zA-Z0-9-_]+(?: *, *[a-zA-Z0-9-_]+ *)*)",
};
/** One known field at the end of the text, in brackets or parentheses (never mixed). */
const FIELD_AT_END = Object.entries(VALUE).map(([key, value]) => ({
  key,
  re: new RegExp(`(?:\\[ *${key}:: *${value} *\\]|\\( *${key}:: *${value} *\\))(?: *,)?$`, "u"),
}));
const TAGS_AT_END = /(^|\s)#[^ !@#$%^&*(),.?":{}|<>]+$/u;

const EMOJI_AT_END: { key: string; re: RegExp }[] = [
  { key: "priority", re: /([🔺⏫🔼🔽⏬])\uFE0F?$/u },
  { key: "completion", re: /✅ *(\d{4}-\d{2}-\d{2})$/u },
  { key: "cancelled", re: /❌ *(\d{4}-\d{2}-\d{2})$/u },
  { key: "due", re: /[📅📆🗓] *(\d{4}-\d{2}-\d{2})$/u },
  { key: "scheduled", re: /[⏳⌛] *(\d{4}-\d{2}-\d{2})$/u },
  { key: "start", re: /🛫 *(\d{4}-\d{2}-\d{2})$/u },
  { key: "created", re: /➕ *(\d{4}-\d{2}-\d{2})$/u },
];
const EMOJI_PRIORITY: Readonly<Record<string, TasksTask["priority"]>> = {
  "🔺": "highest",
  "⏫": "high",
  "🔼": "medium",
  "🔽": "low",
  "⏬": "lowest",
};

/** Reads a line as Tasks does (`format` `dataview` or its default `emoji`); `null` for a line that is not a task. */
export function readTasksLine(
  line: string,
  format: "dataview" | "emoji" = "dataview",
): TasksTask | null {
  const m = TASK_LINE.exec(line);
  if (!m) return null;
  const symbol = m[3] ?? " ";
  let body = (m[4] ?? "").trim();
  const link = BLOCK_LINK.exec(body);
  const blockLink = link ? link[0] : "";
  if (link) body = body.slice(0, link.index).trim();
  const task: TasksTask = {
    indentation: m[1] ?? "",
    listMarker: m[2] ?? "-",
    statusSymbol: symbol,
    statusType: STATUS[symbol] ?? "UNKNOWN",
    description: "",
    priority: "none",
    created: null,
    start: null,
    scheduled: null,
    due: null,
    cancelled: null,
    done: null,
    recurrence: null,
    id: null,
    dependsOn: null,
    blockLink,
    read: [],
  };
  let trailingTags = "";
  const matchers = format === "dataview" ? FIELD_AT_END : EMOJI_AT_END;
  for (let runs = 0; runs < 20; runs++) {
    let matched = false;
    for (const { key, re } of matchers) {
      const f = re.exec(body);
      if (!f) continue;
      const value = f[1] ?? "";
      set(
        task,
        key,
        format === "emoji" && key === "priority" ? (EMOJI_PRIORITY[value] ?? "none") : value,
      );
      body = body.slice(0, f.index).trim();
      matched = true;
    }
    const tag = TAGS_AT_END.exec(body);
    if (tag) {
      trailingTags = trailingTags ? `${tag[0].trim()} ${trailingTags}` : tag[0].trim();
      body = body.slice(0, tag.index).trim();
      matched = true;
    }
    if (!matched) break;
  }
  task.description = trailingTags ? `${body} ${trailingTags}` : body;
  return task;
}

function set(task: TasksTask, key: string, value: string): void {
  task.read.push(key);
  switch (key) {
    case "priority":
      task.priority = value as TasksTask["priority"];
      break;
    case "completion":
      task.done = value;
      break;
    case "repeat":
      task.recurrence = value;
      break;
    case "created":
    case "start":
    case "scheduled":
    case "due":
    case "cancelled":
    case "id":
    case "dependsOn":
      task[key] = value;
      break;
  }
}

/** Tasks' order of its own fields when it writes a line. */
const WRITE_ORDER: [keyof TasksTask, string][] = [
  ["id", "id"],
  ["dependsOn", "dependsOn"],
  ["priority", "priority"],
  ["recurrence", "repeat"],
  ["created", "created"],
  ["start", "start"],
  ["scheduled", "scheduled"],
  ["due", "due"],
  ["cancelled", "cancelled"],
  ["done", "completion"],
];
const EMOJI_WRITE: [keyof TasksTask, string][] = [
  ["priority", ""],
  ["created", "➕"],
  ["start", "🛫"],
  ["scheduled", "⏳"],
  ["due", "📅"],
  ["cancelled", "❌"],
  ["done", "✅"],
];

/** Writes a task as Tasks does in `format`. */
export function writeTasksLine(task: TasksTask, format: "dataview" | "emoji" = "dataview"): string {
  let out = `${task.indentation}${task.listMarker} [${task.statusSymbol}] ${task.description}`;
  if (format === "dataview") {
    for (const [prop, key] of WRITE_ORDER) {
      const v = task[prop];
      if (typeof v === "string" && v !== "" && v !== "none") out += `  [${key}:: ${v}]`;
    }
  } else {
    for (const [prop, sym] of EMOJI_WRITE) {
      const v = task[prop];
      if (prop === "priority") {
        const e = Object.entries(EMOJI_PRIORITY).find(([, w]) => w === v)?.[0];
        if (e) out += ` ${e}`;
      } else if (typeof v === "string" && v !== "") out += ` ${sym} ${v}`;
    }
  }
  return out + task.blockLink;
}

/** Tasks' "Toggle task done" on a line: Todo/In Progress → Done with today's done date; Done → Todo without it. */
export function toggleWithTasks(
  line: string,
  today: string,
  format: "dataview" | "emoji" = "dataview",
): string {
  const t = readTasksLine(line, format);
  if (!t) return line;
  if (t.statusType === "DONE")
    return writeTasksLine({ ...t, statusSymbol: " ", statusType: "TODO", done: null }, format);
  return writeTasksLine({ ...t, statusSymbol: "x", statusType: "DONE", done: today }, format);
}

/** Tasks setting a task's status to Cancelled (`-`), with today's cancelled date. */
export function cancelWithTasks(
  line: string,
  today: string,
  format: "dataview" | "emoji" = "dataview",
): string {
  const t = readTasksLine(line, format);
  return t
    ? writeTasksLine({ ...t, statusSymbol: "-", statusType: "CANCELLED", cancelled: today }, format)
    : line;
}

/** Tasks' edit modal setting a due date (and, when given, a priority). */
export function editWithTasks(
  line: string,
  edit: { due?: string; priority?: TasksTask["priority"] },
  format: "dataview" | "emoji" = "dataview",
): string {
  const t = readTasksLine(line, format);
  return t
    ? writeTasksLine(
        {
          ...t,
          ...(edit.due ? { due: edit.due } : {}),
          ...(edit.priority ? { priority: edit.priority } : {}),
        },
        format,
      )
    : line;
}
