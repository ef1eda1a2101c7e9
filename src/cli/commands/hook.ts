/**
 * `agent-memory hook claude-code|codex --vault V --agent NAME [--budget-chars N] ['<json>']`
 * (docs/agents.md, "The automatic loop"): one command for the agents' hooks.
 *
 * - `claude-code` reads the hook event's JSON on stdin (or as its last argument):
 *   `SessionStart` prints `{"hookSpecificOutput": {"hookEventName": "SessionStart",
 *   "additionalContext": <the brief>}}` within {@link SESSION_START_CHARS} characters;
 *   `UserPromptSubmit` the same shape with the passages relevant enough to the prompt within the
 *   `hooks.promptContextChars` setting (or `--budget-chars`), and nothing at all when none is;
 *   `Stop`, `SubagentStop`, `SessionEnd` and `PreCompact` ingest `transcript_path` (only what is
 *   new) and extract. Other events are ignored.
 * - `codex` is Codex's `notify` program: the `agent-turn-complete` JSON as the last argument
 *   (`thread-id`, `turn-id`, `cwd`, `input-messages`, `last-assistant-message`) is written as one
 *   turn of the thread's section, then extracted.
 *
 * A hook never breaks or blocks a session (docs/agents.md, "A hook never breaks a session"):
 * every problem (bad JSON, a missing vault, agent or transcript, a locked or refused note) ends
 * with exit 0 and one line on stderr, and since each session is one locked write, nothing is
 * half-written. It never exits 2, which Claude Code reads as "block".
 */
import { spawn } from "node:child_process";
import { UsageError } from "../../core/errors";
import { ingestSessions } from "../../core/ingest/ingest";
import type { TranscriptSession } from "../../core/ingest/types";
import type { CliCommand, DirectIo } from "../command";
import type { CliContext } from "../../node/context";
import { extractJournals, ingestFiles, journalsToExtract, readTranscripts } from "../ingest-run";
import { createCliExtractor } from "../../node/llm-env";
import { HOOK_USAGE, field, readOnlyEvent, runHookWith } from "../hook-read";
import { INGEST_EVENTS } from "../../core/ingest/hook-events";

export { HOOK_LOCK_WAIT_MS, SESSION_START_CHARS } from "../hook-read";

/** Events that write the transcript into the journal. */

/**
 * Extracts the journals written (and those a killed run wrote without extracting): inline with the offline extractor; with a model configured, in
 * a detached `agent-memory extract` process per journal, so a slow model never holds the session
 * (the journal section is already written).
 */
async function extractAfter(
  ctx: CliContext,
  journals: readonly string[],
  agent: string,
): Promise<void> {
  if (journals.length === 0) return;
  const { extractor } = createCliExtractor(ctx, undefined);
  const script = process.argv[1];
  if (extractor.name === "offline" || !script) {
    await extractJournals(ctx, journals, agent);
    return;
  }
  for (const journal of journals) {
    const child = spawn(
      process.execPath,
      [script, "extract", ctx.vaultRoot, journal, "--agent", agent],
      {
        detached: true,
        stdio: "ignore",
        env: ctx.env,
      },
    );
    child.on("error", () => undefined);
    child.unref();
  }
}

async function claudeCode(
  ctx: CliContext,
  io: DirectIo,
  agent: string,
  event: Record<string, unknown>,
  budgetChars: number | undefined,
): Promise<void> {
  if (await readOnlyEvent(ctx, io, agent, event, budgetChars)) return;
  const name = field(event, "hook_event_name") ?? "";
  if (INGEST_EVENTS.has(name)) {
    const path = field(event, "transcript_path");
    if (!path) throw new UsageError(`the ${name} event has no transcript_path`);
    const files = await readTranscripts(
      ctx,
      [path],
      "claude-code",
      field(event, "cwd") ?? process.cwd(),
    );
    for (const { report } of files) {
      // A file of other lines (a wrong path in the hook's event) is said, not taken as a session
      // with nothing new (test/cli/hook.process.test.ts, the bad inputs).
      if (report.sessions.length > 0) continue;
      const seen = [
        ...(report.badLines.length > 0 ? [`${report.badLines.length} line(s) not JSON`] : []),
        ...(report.unknownTypes.length > 0
          ? [`line types ${report.unknownTypes.slice(0, 3).join(", ")}`]
          : []),
      ];
      if (seen.length > 0)
        throw new UsageError(
          `${path}: not a Claude Code transcript (${seen.join("; ")}; no session); nothing written`,
          path,
        );
    }
    const run = await ingestFiles(ctx, files, { agent, dryRun: false, extract: false });
    await extractAfter(ctx, run.toExtract, agent);
  }
  // Other events (PreToolUse, Notification…) are not this hook's.
}

async function codex(
  ctx: CliContext,
  agent: string,
  event: Record<string, unknown>,
): Promise<void> {
  if (field(event, "type") !== "agent-turn-complete") return;
  const thread = field(event, "thread-id");
  const turn = field(event, "turn-id");
  if (!thread || !turn)
    throw new UsageError("the agent-turn-complete event has no thread-id or turn-id");
  const inputs = Array.isArray(event["input-messages"]) ? event["input-messages"] : [];
  const request = inputs
    .filter(
      (m): m is string =>
        typeof m === "string" && !/^\s*<(?:environment_context|user_instructions)>/.test(m),
    )
    .join("\n\n")
    .trim();
  const conclusion = field(event, "last-assistant-message")?.trim() || null;
  if (request === "" && conclusion === null) return;
  const cwd = field(event, "cwd");
  const session: TranscriptSession = {
    id: thread,
    format: "codex",
    ...(cwd ? { cwd } : {}),
    turns: [
      {
        key: turn,
        at: new Date().toISOString(),
        request: request || "(no request text)",
        conclusion,
        actions: [],
        interrupted: false,
      },
    ],
    pendingTurn: false,
    incremental: true,
  };
  const outcome = await ingestSessions([session], {
    vault: ctx.vault,
    layout: ctx.layout,
    agent,
    now: new Date(),
  });
  await extractAfter(ctx, await journalsToExtract(ctx, [outcome]), agent);
}

export const hookCommand: CliCommand = {
  name: "hook",
  usage: HOOK_USAGE,
  options: {},
  positionals: { min: 0, max: 2 },
  direct: (argv, io) => runHookWith(argv, io, { claudeCode, codex }),
  run: () => Promise.reject(new UsageError("hook runs directly")),
};
