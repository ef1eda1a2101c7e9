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
import { parseArgs } from "node:util";
import { UsageError, errorMessage } from "../../core/errors";
import { ingestSessions } from "../../core/ingest/ingest";
import { fitChars, promptContext, promptQuery } from "../../core/ingest/recall";
import type { TranscriptSession } from "../../core/ingest/types";
import type { CliCommand, DirectIo } from "../command";
import { openVault, requireMemoryRoot, type CliContext } from "../../node/context";
import { extractJournals, ingestFiles, journalsToExtract, readTranscripts } from "../ingest-run";
import { createCliExtractor } from "../../node/llm-env";
import { oneLine } from "../../node/one-line";
import {
  agentOption,
  changedOnDisk,
  cliBrief,
  openSearch,
  positiveOption,
  reportOpen,
} from "../shared";

/** Claude Code's cap on the context a hook adds (characters). */
export const SESSION_START_CHARS = 10_000;
/** Brief budget of a SessionStart hook (tokens; cut to {@link SESSION_START_CHARS} after). */
const SESSION_START_TOKENS = 2400;
/** Passages a prompt's search asks for before the relevance check. */
const PROMPT_PASSAGES = 8;
/** Largest event read from stdin (bytes); Claude Code's events are small. */
const MAX_EVENT_BYTES = 4 * 2 ** 20;

/** How long a hook waits for a note's lock (ms) unless `AGENT_MEMORY_LOCK_WAIT_MS` says otherwise. */
export const HOOK_LOCK_WAIT_MS = 3000;

/** Events that write the transcript into the journal. */
const INGEST_EVENTS = new Set(["Stop", "SubagentStop", "SessionEnd", "PreCompact"]);

const USAGE = "hook claude-code|codex --vault V --agent NAME [--budget-chars N] ['<json>']";

/** Reads all of stdin as text (empty when it is a terminal). */
async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return "";
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > MAX_EVENT_BYTES)
      throw new UsageError(`the event on stdin is over ${MAX_EVENT_BYTES} bytes`);
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** A string field of the event, or `undefined`. */
function field(event: Record<string, unknown>, key: string): string | undefined {
  const v = event[key];
  return typeof v === "string" ? v : undefined;
}

/** Prints an additional-context reply of Claude Code's hooks. */
function printContext(io: DirectIo, event: string, text: string): void {
  io.out(JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext: text } }));
}

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
  const name = field(event, "hook_event_name") ?? "";
  if (name === "SessionStart") {
    const brief = await cliBrief(ctx, { agent }, { budgetTokens: SESSION_START_TOKENS });
    printContext(io, name, fitChars(brief.markdown.trimEnd(), SESSION_START_CHARS));
    return;
  }
  if (name === "UserPromptSubmit") {
    const prompt = field(event, "prompt") ?? "";
    const query = promptQuery(prompt);
    if (query === null) return;
    // The saved index as it is (no listing of the vault); when a note it returns changed on disk,
    // the index is brought up to date and the search run again (docs/decisions.md, "A hook
    // answers from the saved index").
    const { service, report } = await openSearch(ctx, { saved: true });
    const search = () =>
      service.searchPassages(query, { scope: `agent:${agent}`, limit: PROMPT_PASSAGES });
    let found = await search();
    if (
      report.unsynced &&
      found.ok &&
      changedOnDisk(
        ctx,
        service,
        found.value.results.map((r) => r.path),
      )
    ) {
      reportOpen(ctx, await service.sync());
      found = await search();
    }
    if (!found.ok) throw new UsageError(found.error);
    const context = promptContext(prompt, found.value.results, {
      budgetChars: Math.min(
        budgetChars ?? ctx.settings.hooks.promptContextChars,
        SESSION_START_CHARS,
      ),
      minCoverage: ctx.settings.hooks.promptMinCoverage,
    });
    if (context) printContext(io, name, context.text);
    return;
  }
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

/** Runs a hook; always 0 (see the module comment). */
async function runHook(argv: string[], io: DirectIo): Promise<number> {
  const say = (message: string): number => {
    io.err(oneLine(`agent-memory hook: ${message}`));
    return 0;
  };
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        vault: { type: "string" },
        agent: { type: "string" },
        "budget-chars": { type: "string" },
        json: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (err) {
    return say(`${errorMessage(err)} (usage: agent-memory ${USAGE})`);
  }
  if (parsed.values.help) {
    io.out(`usage: agent-memory ${USAGE}`);
    return 0;
  }
  const [kind, given, ...extra] = parsed.positionals;
  try {
    if (kind !== "claude-code" && kind !== "codex")
      return say(`the first argument must be claude-code or codex (usage: agent-memory ${USAGE})`);
    if (extra.length > 0 && kind === "claude-code")
      return say(`too many arguments (usage: agent-memory ${USAGE})`);
    const vaultArg = parsed.values.vault;
    if (!vaultArg) return say("--vault V is required");
    const budgetChars = positiveOption(parsed.values["budget-chars"], "budget-chars");
    // Codex passes the event as the last argument; Claude Code on stdin.
    const raw = kind === "codex" ? (extra.at(-1) ?? given) : (given ?? (await readStdin()));
    if (raw === undefined || raw.trim() === "") return say("no event JSON given");
    let event: unknown;
    try {
      event = JSON.parse(raw);
    } catch (err) {
      return say(`the event is not JSON: ${errorMessage(err)}`);
    }
    if (event === null || typeof event !== "object" || Array.isArray(event))
      return say("the event is not a JSON object");
    // A note locked by another writer is waited for briefly, not for the CLI's 30 s.
    const env = { AGENT_MEMORY_LOCK_WAIT_MS: String(HOOK_LOCK_WAIT_MS), ...io.env };
    const ctx = await openVault(vaultArg, { ...io, env, err: (line) => io.err(oneLine(line)) });
    await requireMemoryRoot(ctx);
    const agent = await agentOption(ctx, parsed.values.agent);
    if (kind === "claude-code")
      await claudeCode(ctx, io, agent, event as Record<string, unknown>, budgetChars);
    else await codex(ctx, agent, event as Record<string, unknown>);
    return 0;
  } catch (err) {
    return say(errorMessage(err));
  }
}

export const hookCommand: CliCommand = {
  name: "hook",
  usage: USAGE,
  options: {},
  positionals: { min: 0, max: 2 },
  direct: runHook,
  run: () => Promise.reject(new UsageError("hook runs directly")),
};
