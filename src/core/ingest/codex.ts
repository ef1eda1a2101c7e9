/**
 * Codex rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`; docs/agents.md, "What is
 * captured"). Each line is `{timestamp, type, payload}`: `session_meta` (the session's id and
 * folder), `response_item` (a `message` of the user or the assistant, a `function_call` /
 * `custom_tool_call` / `local_shell_call` and its `…_output`, `reasoning`), `event_msg` (the UI's
 * events: `turn_aborted` is read, the rest repeats the response items), `turn_context` and
 * `compacted`. The user messages Codex adds itself (`<environment_context>`, `<user_instructions>`,
 * the AGENTS.md text) are not requests; `reasoning` (a summary and encrypted content) is never read.
 */
import { cyrb53Hex } from "../util/hash";
import { arr, obj, readJsonl, str } from "./jsonl";
import { TurnBuilder, shownCommand, shownPath } from "./turns";
import type { TranscriptReport, TranscriptSession, TurnAction } from "./types";

/** Line types read or knowingly skipped. */
const KNOWN_TYPES = new Set([
  "session_meta",
  "response_item",
  "event_msg",
  "turn_context",
  "compacted",
]);

/** User messages that are Codex's own context, not the person's words. */
const BOILERPLATE =
  /^\s*(?:<environment_context>|<user_instructions>|<INSTRUCTIONS>|<user_shell_command>|<turn_aborted>|# AGENTS\.md instructions)/;

/** Shell tools' names across Codex versions. */
const SHELL_TOOLS = new Set([
  "shell",
  "container.exec",
  "shell_command",
  "exec_command",
  "local_shell",
]);

/** Files an `apply_patch` patch touches (`*** Add File: p`, `*** Update File: p`, `*** Delete File: p`). */
function patchActions(patch: string, cwd: string | undefined): TurnAction[] {
  const out: TurnAction[] = [];
  for (const m of patch.matchAll(/^\*\*\* (Add|Update|Delete) File: (.+)$/gm)) {
    const kind = m[1] === "Add" ? "wrote" : m[1] === "Update" ? "edited" : "deleted";
    out.push({ kind, target: shownPath((m[2] ?? "").trim(), cwd) });
  }
  return out;
}

/** The command of a shell call's arguments: `["bash", "-lc", "npm test"]` → `npm test`. */
function commandOf(args: unknown): string | null {
  const c =
    (args as { command?: unknown } | null)?.command ?? (args as { cmd?: unknown } | null)?.cmd;
  if (typeof c === "string") return c;
  if (Array.isArray(c) && c.every((x) => typeof x === "string")) {
    const parts = c;
    if (
      parts.length >= 3 &&
      /(?:^|\/)(?:ba|z)?sh$/.test(parts[0] ?? "") &&
      /^-l?c$/.test(parts[1] ?? "")
    )
      return parts.slice(2).join(" ");
    return parts.join(" ");
  }
  return null;
}

/** What a tool call did, or `null` for calls the journal does not record. */
function actionsOf(name: string, args: unknown, cwd: string | undefined): TurnAction[] | null {
  if (name === "apply_patch") {
    const input =
      typeof args === "string" ? args : (str(args, "input") ?? str(args, "patch") ?? "");
    return patchActions(input, cwd);
  }
  if (!SHELL_TOOLS.has(name)) return null;
  const command = commandOf(args);
  if (!command) return null;
  // `apply_patch` run through the shell is a patch, not a command.
  if (/^\s*apply_patch\b/.test(command)) return patchActions(command, cwd);
  return [{ kind: "ran", target: shownCommand(command) }];
}

/** Whether a tool's output says it failed: a non-zero exit code in its metadata or first line. */
function outputFailed(output: unknown): boolean {
  let text = typeof output === "string" ? output : str(output, "content");
  if (text === undefined) return false;
  try {
    const parsed: unknown = JSON.parse(text);
    const code = obj(parsed, "metadata")?.exit_code;
    if (typeof code === "number") return code !== 0;
    const out = str(parsed, "output");
    if (out !== undefined) text = out;
  } catch {
    // plain text output
  }
  const m = /^(?:Exit code|Process exited with code):?\s*(-?\d+)/m.exec(text.slice(0, 400));
  return m ? Number(m[1]) !== 0 : false;
}

/** The text parts of a message's content (`input_text`, `output_text`, `text`). */
function messageText(payload: unknown): string {
  return arr(payload, "content")
    .map((p) =>
      /^(?:input_|output_)?text$/.test(str(p, "type") ?? "") ? (str(p, "text") ?? "") : "",
    )
    .filter((t) => t.trim() !== "")
    .join("\n\n");
}

/**
 * Reads a Codex rollout. Never throws: lines that are not JSON are counted in `badLines`, a cut
 * last line in `cutLastLine`, unknown line types in `unknownTypes`. A `session_meta` with another
 * id starts another session. Older rollouts without the `{type, payload}` envelope (items at the
 * top level, the first line holding the session's `id`) are read too.
 */
export function parseCodex(text: string, fallbackId = "codex-session"): TranscriptReport {
  const { records, badLines, cutLastLine } = readJsonl(text);
  const sessions: TranscriptSession[] = [];
  const unknown = new Set<string>();
  // Assigned in `open`: typed by a cast so that narrowing does not take it for always `null`.
  let session = null as TranscriptSession | null;
  let builder = new TurnBuilder();
  const close = (): void => {
    if (!session) return;
    const { turns, pendingTurn } = builder.finish();
    session.turns = turns;
    session.pendingTurn = pendingTurn;
    if (turns.length > 0 || pendingTurn) sessions.push(session);
  };
  const open = (id: string, cwd: string | undefined): void => {
    if (session?.id === id) {
      if (cwd && session.cwd === undefined) session.cwd = cwd;
      return;
    }
    close();
    session = { id, format: "codex", turns: [], pendingTurn: false, ...(cwd ? { cwd } : {}) };
    builder = new TurnBuilder();
  };

  for (const rec of records) {
    const v = rec.value;
    let type = str(v, "type") ?? "";
    let payload = obj(v, "payload");
    const at = str(v, "timestamp") ?? str(payload, "timestamp") ?? "";
    if (!payload) {
      // An older rollout: the first line is the session, then items at the top level.
      if (type === "" && str(v, "id") && rec === records[0]) {
        open(str(v, "id") as string, undefined);
        continue;
      }
      if (str(v, "record_type") === "state") continue;
      payload = v;
      type = "response_item";
    }
    if (!KNOWN_TYPES.has(type)) {
      unknown.add(type || "(none)");
      continue;
    }
    if (type === "session_meta") {
      open(str(payload, "id") ?? fallbackId, str(payload, "cwd"));
      continue;
    }
    if (type === "turn_context") {
      if (session && !session.cwd) {
        const cwd = str(payload, "cwd");
        if (cwd) session.cwd = cwd;
      }
      continue;
    }
    if (!session) open(fallbackId, undefined);
    const cwd = session?.cwd;
    const kind = str(payload, "type") ?? "";
    if (type === "event_msg") {
      if (kind === "turn_aborted") builder.interrupt();
      continue;
    }
    if (type !== "response_item") continue;
    switch (kind) {
      case "message": {
        const role = str(payload, "role");
        const words = messageText(payload);
        if (role === "user") {
          if (words.trim() === "" || BOILERPLATE.test(words)) break;
          builder.request(`c-${cyrb53Hex(`${at}\n${words}`, [7])}`, at, words.trim());
        } else if (role === "assistant") builder.text(words);
        break;
      }
      case "function_call":
      case "custom_tool_call": {
        const name = str(payload, "name") ?? "";
        const rawArgs = str(payload, "arguments") ?? str(payload, "input") ?? "";
        let args: unknown = rawArgs;
        try {
          args = JSON.parse(rawArgs);
        } catch {
          // a freeform tool's input (apply_patch) is plain text
        }
        builder.toolCall(str(payload, "call_id"), actionsOf(name, args, cwd));
        break;
      }
      case "local_shell_call": {
        const command = commandOf(obj(payload, "action"));
        builder.toolCall(
          str(payload, "call_id"),
          command ? [{ kind: "ran", target: shownCommand(command) }] : null,
        );
        break;
      }
      case "function_call_output":
      case "custom_tool_call_output":
      case "local_shell_call_output":
        // The output is never kept: only whether the command failed.
        builder.toolResult(str(payload, "call_id"), outputFailed(payload.output));
        break;
      default:
        // `reasoning` (summary and encrypted content), web searches and others: never read.
        break;
    }
  }
  close();
  return { format: "codex", sessions, badLines, cutLastLine, unknownTypes: [...unknown] };
}
