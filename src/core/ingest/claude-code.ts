/**
 * Claude Code session transcripts (`~/.claude/projects/<project>/<session>.jsonl`; docs/agents.md,
 * "What is captured"). Each line is one record: `user` (a prompt, or `tool_result` parts),
 * `assistant` (`text`, `thinking`, `tool_use` parts), `summary` (a title, tied to the session by
 * `leafUuid`), `system` (compact boundaries and other events), and others (file snapshots, queue
 * operations) that carry nothing for the journal. Records name their session (`sessionId`); a
 * resumed session's file repeats the earlier session's records under its id, so one file may hold
 * several sessions. Subagent records (`isSidechain`) add only what they did to the current turn.
 */
import { arr, obj, readJsonl, str, type JsonlRecord } from "./jsonl";
import { TurnBuilder, shownCommand, shownPath } from "./turns";
import type { TranscriptReport, TranscriptSession, TurnAction } from "./types";

/** Record types that carry nothing for the journal. */
const SKIPPED_TYPES = new Set([
  "system",
  "file-history-snapshot",
  "queue-operation",
  "progress",
  "attachment",
]);

/** Markers Claude Code puts in a user message when the person stopped a turn. */
const INTERRUPTED = /^\[Request interrupted by user(?: for tool use)?\]/;

/** Wrappers of local commands and their output, and reminders the harness adds to prompts. */
const NOISE_TAGS =
  /<(system-reminder|local-command-stdout|local-command-stderr|local-command-caveat|bash-input|bash-stdout|bash-stderr|user-prompt-submit-hook)>[\s\S]*?<\/\1>/g;

/** What a tool call did, for the tools that write files or run commands; `null` for the others. */
function actionOf(name: string, input: unknown, cwd: string | undefined): TurnAction | null {
  const file = str(input, "file_path") ?? str(input, "notebook_path");
  switch (name) {
    case "Write":
      return file ? { kind: "wrote", target: shownPath(file, cwd) } : null;
    case "Edit":
    case "MultiEdit":
    case "NotebookEdit":
      return file ? { kind: "edited", target: shownPath(file, cwd) } : null;
    case "Bash": {
      const command = str(input, "command");
      return command ? { kind: "ran", target: shownCommand(command) } : null;
    }
    default:
      return null;
  }
}

/**
 * The person's words in a user message, or `null` when it holds none (a tool result, a local
 * command's output); a slash command's wrapper becomes `/name args`.
 */
function promptText(text: string): string | null {
  const name = /<command-name>([\s\S]*?)<\/command-name>/.exec(text)?.[1]?.trim();
  if (name) {
    const args = /<command-args>([\s\S]*?)<\/command-args>/.exec(text)?.[1]?.trim() ?? "";
    const slash = name.startsWith("/") ? name : `/${name}`;
    return `${slash}${args ? ` ${args}` : ""}`;
  }
  const rest = text
    .replace(NOISE_TAGS, "")
    .replace(/<command-message>[\s\S]*?<\/command-message>/g, "")
    .trim();
  return rest === "" ? null : rest;
}

interface Group {
  session: TranscriptSession;
  builder: TurnBuilder;
  uuids: Set<string>;
}

/**
 * Reads a Claude Code transcript. Never throws: lines that are not JSON are counted in
 * `badLines`, a cut last line in `cutLastLine`, unknown record types in `unknownTypes`.
 */
export function parseClaudeCode(text: string): TranscriptReport {
  const { records, badLines, cutLastLine } = readJsonl(text);
  const groups = new Map<string, Group>();
  const summaries = new Map<string, string>();
  const unknown = new Set<string>();

  const groupOf = (rec: JsonlRecord): Group | null => {
    const id = str(rec.value, "sessionId");
    if (!id) return null;
    let g = groups.get(id);
    if (!g) {
      g = {
        session: { id, format: "claude-code", turns: [], pendingTurn: false },
        builder: new TurnBuilder(),
        uuids: new Set(),
      };
      groups.set(id, g);
    }
    const cwd = str(rec.value, "cwd");
    if (cwd && g.session.cwd === undefined) g.session.cwd = cwd;
    const uuid = str(rec.value, "uuid");
    if (uuid) g.uuids.add(uuid);
    return g;
  };

  for (const rec of records) {
    const v = rec.value;
    const type = str(v, "type") ?? "";
    if (type === "summary") {
      const leaf = str(v, "leafUuid");
      const summary = str(v, "summary");
      if (leaf && summary) summaries.set(leaf, summary);
      continue;
    }
    if (type !== "user" && type !== "assistant") {
      if (!SKIPPED_TYPES.has(type)) unknown.add(type || "(none)");
      continue;
    }
    const g = groupOf(rec);
    if (!g) continue;
    const sidechain = v.isSidechain === true;
    const content = obj(v, "message")?.content;
    const parts: unknown[] =
      typeof content === "string"
        ? [{ type: "text", text: content }]
        : arr(obj(v, "message"), "content");
    if (type === "assistant") {
      if (v.isApiErrorMessage === true) continue;
      for (const part of parts) {
        const kind = str(part, "type");
        if (kind === "text" && !sidechain) g.builder.text(str(part, "text") ?? "");
        else if (kind === "tool_use") {
          const input = obj(part, "input");
          g.builder.toolCall(
            str(part, "id"),
            actionOf(str(part, "name") ?? "", input, g.session.cwd),
          );
        }
        // `thinking` and `redacted_thinking` are never read.
      }
      continue;
    }
    // A user record: the person's prompt, or tool results.
    if (v.isMeta === true || v.isCompactSummary === true) continue;
    const words: string[] = [];
    for (const part of parts) {
      const kind = str(part, "type");
      if (kind === "tool_result") {
        // The result's content is never read: only whether the tool said it failed.
        g.builder.toolResult(
          str(part, "tool_use_id"),
          (part as { is_error?: unknown }).is_error === true,
        );
      } else if (kind === "text" && !sidechain) {
        const t = str(part, "text") ?? "";
        if (INTERRUPTED.test(t.trim())) g.builder.interrupt();
        else words.push(t);
      }
    }
    if (words.length === 0) continue;
    const prompt = promptText(words.join("\n\n"));
    if (prompt !== null)
      g.builder.request(str(v, "uuid") ?? `line-${rec.line}`, str(v, "timestamp") ?? "", prompt);
  }

  const sessions: TranscriptSession[] = [];
  for (const g of groups.values()) {
    const { turns, pendingTurn } = g.builder.finish();
    g.session.turns = turns;
    g.session.pendingTurn = pendingTurn;
    for (const [leaf, summary] of summaries) if (g.uuids.has(leaf)) g.session.title = summary;
    if (turns.length > 0 || pendingTurn) sessions.push(g.session);
  }
  return { format: "claude-code", sessions, badLines, cutLastLine, unknownTypes: [...unknown] };
}
