/**
 * The Claude Code hook events `agent-memory hook claude-code` answers (docs/agents.md, "The
 * automatic loop"): kept apart from everything else so that the launcher (dist/cli.js), the hooks'
 * own bundle and the full CLI name them from one place without loading each other's code.
 */

/** Events that only read: the brief (`SessionStart`) and a prompt's passages (`UserPromptSubmit`). */
export const READ_ONLY_EVENTS: ReadonlySet<string> = new Set(["SessionStart", "UserPromptSubmit"]);

/** Events that ingest the session's transcript (only what is new). */
export const INGEST_EVENTS: ReadonlySet<string> = new Set([
  "Stop",
  "SubagentStop",
  "SessionEnd",
  "PreCompact",
]);

/**
 * Why a parsed Claude Code hook event gets nothing done, in words for the hook's one stderr line,
 * or `null` when it is one the hook answers: no `hook_event_name`, an event the hook does not
 * answer, a `UserPromptSubmit` without a prompt string.
 */
export function claudeCodeEventProblem(event: Record<string, unknown>): string | null {
  const name = event["hook_event_name"];
  if (typeof name !== "string" || name === "")
    return "the event has no hook_event_name; nothing done";
  if (!READ_ONLY_EVENTS.has(name) && !INGEST_EVENTS.has(name))
    return `the ${name} event is not one this hook answers (${[...READ_ONLY_EVENTS, ...INGEST_EVENTS].join(", ")}); nothing done`;
  if (name === "UserPromptSubmit" && typeof event["prompt"] !== "string")
    return "the UserPromptSubmit event has no prompt text; nothing added";
  return null;
}
