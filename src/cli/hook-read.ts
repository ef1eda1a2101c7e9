/**
 * What every `agent-memory hook` run shares, and the Claude Code events that only read
 * (`SessionStart`, `UserPromptSubmit`): small enough for the hook's own bundle, dist/hook-main.mjs
 * (src/cli/hook-main.ts; docs/decisions.md, "A bundle of its own for the hooks that read"). The
 * command and the events that write are in src/cli/commands/hook.ts.
 */
import { parseArgs } from "node:util";
import { UsageError, errorMessage } from "../core/errors";
import { fitChars, promptContext, promptQuery } from "../core/ingest/recall";
import type { DirectIo } from "./command";
import { MAX_EVENT_BYTES } from "./hook-event-size";
import { claudeCodeEventProblem } from "../core/ingest/hook-events";
import { openVault, requireMemoryRoot, type CliContext } from "../node/context";
import { oneLine } from "../node/one-line";
import { agentOption, checkedSearch, cliBrief, openSearch, positiveOption } from "./shared";

/** Claude Code's cap on the context a hook adds (characters). */
export const SESSION_START_CHARS = 10_000;
/** Brief budget of a SessionStart hook (tokens; cut to {@link SESSION_START_CHARS} after). */
const SESSION_START_TOKENS = 2400;
/** Passages a prompt's search asks for before the relevance check. */
const PROMPT_PASSAGES = 8;

/** How long a hook waits for a note's lock (ms) unless `AGENT_MEMORY_LOCK_WAIT_MS` says otherwise. */
export const HOOK_LOCK_WAIT_MS = 3000;

/** The hook's usage line. */
export const HOOK_USAGE =
  "hook claude-code|codex --vault V --agent NAME [--budget-chars N] ['<json>']";
const USAGE = HOOK_USAGE;

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
export function field(event: Record<string, unknown>, key: string): string | undefined {
  const v = event[key];
  return typeof v === "string" ? v : undefined;
}

/** Prints an additional-context reply of Claude Code's hooks. */
export function printContext(io: DirectIo, event: string, text: string): void {
  io.out(JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext: text } }));
}

/**
 * Answers a Claude Code event that only reads: `SessionStart` (the brief) and `UserPromptSubmit`
 * (the passages relevant to the prompt). Returns false, doing nothing, for any other event.
 */
export async function readOnlyEvent(
  ctx: CliContext,
  io: DirectIo,
  agent: string,
  event: Record<string, unknown>,
  budgetChars: number | undefined,
): Promise<boolean> {
  const name = field(event, "hook_event_name") ?? "";
  if (name === "SessionStart") {
    const brief = await cliBrief(
      ctx,
      { agent },
      { budgetTokens: SESSION_START_TOKENS },
      { saved: true },
    );
    printContext(io, name, fitChars(brief.markdown.trimEnd(), SESSION_START_CHARS));
    return true;
  }
  if (name !== "UserPromptSubmit") return false;
  const prompt = field(event, "prompt") ?? "";
  const query = promptQuery(prompt);
  if (query === null) return true;
  // The saved index as it is (no listing of the vault); when a note it returns changed on disk,
  // the index is brought up to date and the search run again (docs/decisions.md, "A hook
  // answers from the saved index").
  const { service, report } = await openSearch(ctx, { saved: true });
  const search = checkedSearch(ctx, service, report, () =>
    service.searchPassages(query, { scope: `agent:${agent}`, limit: PROMPT_PASSAGES }),
  );
  const found = await search();
  if (!found.ok) throw new UsageError(found.error);
  const context = promptContext(prompt, found.value.results, {
    budgetChars: Math.min(
      budgetChars ?? ctx.settings.hooks.promptContextChars,
      SESSION_START_CHARS,
    ),
    minCoverage: ctx.settings.hooks.promptMinCoverage,
  });
  if (context) printContext(io, name, context.text);
  return true;
}

/** What a hook does once its event is read and its vault and agent checked. */
export interface HookHandlers {
  claudeCode(
    ctx: CliContext,
    io: DirectIo,
    agent: string,
    event: Record<string, unknown>,
    budgetChars: number | undefined,
  ): Promise<void>;
  codex(ctx: CliContext, agent: string, event: Record<string, unknown>): Promise<void>;
}

/**
 * Runs `hook claude-code|codex …` (`argv` after `hook`) with `handlers`; always 0 (see the module
 * comment of src/cli/commands/hook.ts): every problem is one line on stderr.
 */
export async function runHookWith(
  argv: string[],
  io: DirectIo,
  handlers: HookHandlers,
): Promise<number> {
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
    if (vaultArg === "")
      return say(
        '--vault is empty (given as "$AGENT_MEMORY_VAULT"? that variable is unset or empty)',
      );
    if (!vaultArg) return say("--vault V is required");
    const budgetChars = positiveOption(parsed.values["budget-chars"], "budget-chars");
    // Codex passes the event as the last argument; Claude Code on stdin.
    const raw = kind === "codex" ? (extra.at(-1) ?? given) : (given ?? (await readStdin()));
    if (raw === undefined || raw.trim() === "") return say("no event JSON given");
    // The launcher stops reading stdin past the limit and hands over what it read.
    if (raw.length > MAX_EVENT_BYTES && Buffer.byteLength(raw, "utf8") > MAX_EVENT_BYTES)
      return say(`the event is over ${MAX_EVENT_BYTES} bytes`);
    let event: unknown;
    try {
      event = JSON.parse(raw);
    } catch (err) {
      return say(`the event is not JSON: ${errorMessage(err)}`);
    }
    if (event === null || typeof event !== "object" || Array.isArray(event))
      return say("the event is not a JSON object");
    // Codex's other notifications are passed over in silence (its `notify` sends them all).
    const problem =
      kind === "claude-code" ? claudeCodeEventProblem(event as Record<string, unknown>) : null;
    if (problem !== null) return say(problem);
    // A note locked by another writer is waited for briefly, not for the CLI's 30 s.
    const env = { AGENT_MEMORY_LOCK_WAIT_MS: String(HOOK_LOCK_WAIT_MS), ...io.env };
    // Notes left out are not named here: a served hook and the CLI's print the same, and a hook's
    // stderr is for its own problems (CliContext.namesLeftOut).
    const ctx = await openVault(vaultArg, {
      ...io,
      env,
      err: (line) => io.err(oneLine(line)),
      namesLeftOut: false,
    });
    await requireMemoryRoot(ctx);
    const agent = await agentOption(ctx, parsed.values.agent);
    if (kind === "claude-code")
      await handlers.claudeCode(ctx, io, agent, event as Record<string, unknown>, budgetChars);
    else await handlers.codex(ctx, agent, event as Record<string, unknown>);
    return 0;
  } catch (err) {
    return say(errorMessage(err));
  }
}
