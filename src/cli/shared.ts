/**
 * Helpers more than one CLI command uses, in one place so that no command imports another:
 * option readers (`--date`, positive numbers, `--agent`), the CLI's brief, and the CLI's search
 * index (opening the saved index of src/node/index-store.ts with its stderr reports).
 */
import { statSync } from "node:fs";
import * as nodePath from "node:path";
import { errorMessage, PathError, unreadableLine, UsageError } from "../core/errors";
import { buildBrief, type Brief } from "../core/brief";
import { SearchService, type OpenReport, type SearchOptions } from "../core/search/search-service";
import type { Result } from "../core/util/result";
import { isIsoDate, today } from "../core/util/dates";
import { isKnownAgent, knownAgents, unknownAgentError } from "../core/init";
import type { Actor, InboxItem } from "../core/inbox/inbox";
import { wikilinkDisplayText } from "../core/markdown/wikilinks";
import type { CliContext } from "../node/context";
import { requireMemoryRoot } from "../node/context";
import { nextTurn } from "../node/event-loop";
import { shownVault } from "../node/vault-arg";
import { savedIndexTime, vaultIndexStore } from "../node/index-store";
import { staleCacheFile } from "../node/stale-cache-file";
import { WorkerNoteReader } from "../node/worker-reader";
import { LiveIndex } from "../node/live-index";
import { searchWith } from "../core/semantic/hybrid";

/**
 * Reads `--date`, default {@link today} at `nowMs` (the user's local date). Throws
 * {@link UsageError} for a bad date.
 */
export function todayOption(value: unknown, nowMs: number = Date.now()): string {
  if (value === undefined) return today(nowMs);
  if (typeof value !== "string" || !isIsoDate(value))
    throw new UsageError(`--date must be a date YYYY-MM-DD, got ${JSON.stringify(value)}`);
  return value;
}

/** A positive whole number option, or `undefined` when not given. Throws {@link UsageError}. */
export function positiveOption(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || !/^\d+$/.test(value) || Number(value) < 1)
    throw new UsageError(`--${name} must be a positive whole number`);
  return Number(value);
}

/** The `--agent` option, checked against the agents of the vault. Throws {@link UsageError}. */
export async function agentOption(ctx: CliContext, value: unknown): Promise<string> {
  if (typeof value !== "string" || value.trim() === "")
    throw new UsageError("--agent NAME is required");
  // One folder listed when the agent exists; every agent's only to name them when it does not.
  let known = false;
  try {
    known = await isKnownAgent(ctx.vault, ctx.layout, value);
  } catch (err) {
    // A name that is no plain folder name (PathError) is no agent of the vault: reported below.
    if (!(err instanceof PathError)) throw err;
  }
  if (known) return value;
  const agents = await knownAgents(ctx.vault, ctx.layout);
  throw new UsageError(`unknown agent "${value}" (known: ${agents.join(", ") || "none"})`, value);
}

/**
 * The brief of the CLI's options: trackers and reviews of the vault, knowledge through the CLI's
 * search index (`openSearch`: the saved index, re-indexed where notes changed; with `open.saved`,
 * the saved index as it is, checked against the disk where the brief quotes it: {@link checkedSearch}).
 */
export async function cliBrief(
  ctx: CliContext,
  options: Record<string, string | boolean | string[] | undefined>,
  budget: { budgetTokens?: number; budgetBytes?: number; header?: string[] },
  open: { saved?: boolean } = {},
): Promise<Brief> {
  await requireMemoryRoot(ctx);
  const agent = await agentOption(ctx, options.agent);
  const today = todayOption(options.date);
  const { service, report } = await openSearch(ctx, open);
  // The brief's relevant knowledge uses hybrid search when embeddings are configured.
  // Imported when used: the embeddings client (and the model SDK) stays out of the hooks' bundle
  // until a brief with a query needs it (esbuild.config.mjs, the hooks' bundle is split).
  const env = typeof options.query === "string" ? await import("../node/embeddings-env") : null;
  // One line says why the search fell back to BM25 (embeddings-env.ts, oneFallbackLine).
  const warn = env ? env.oneFallbackLine((line) => ctx.err(line)) : (line: string) => ctx.err(line);
  const source = env ? await env.cliSemanticSource(ctx, warn) : null;
  const staleCache = staleCacheFile(ctx.vault, agent);
  const brief = await buildBrief({
    vault: ctx.vault,
    layout: ctx.layout,
    settings: ctx.settings,
    agent,
    today,
    ...(typeof options.query === "string" ? { query: options.query } : {}),
    search: checkedSearch(ctx, service, report, (q: string, o: SearchOptions) =>
      searchWith(service, q, o, source, warn),
    ),
    vaultLabel: shownVault(ctx.vaultArg),
    // The index holds every note's path: the agents without listing their folders again.
    agents: ctx.layout.agentsIn(service.notes().map((m) => m.path)),
    // What each note gave the "may be stale" scan, kept under .agent-memory/ between briefs.
    ...(staleCache ? { staleCache } : {}),
    ...budget,
  });
  // Left out and named once: the index has named those it could not read already.
  const named = new Set(report.unreadable.map((u) => u.path));
  if (ctx.namesLeftOut === false) return brief;
  for (const u of brief.unreadable)
    if (!named.has(u.path)) ctx.err(`brief: left out ${unreadableLine(u)}`);
  return brief;
}

/**
 * Notes whose blocks the CLI's search service keeps between searches (512 in the plugin): a server
 * (`mcp`, `serve`) answers many searches, and on 10k notes the 200 queries of the benchmark show
 * about 1,400 different notes (docs/decisions.md, "The CLI keeps 2,048 notes' blocks"). A one-shot
 * command reads only the notes of its search.
 */
export const CLI_NOTE_CACHE_NOTES = 2048;

/**
 * The CLI's search service for a vault: the index saved under `.agent-memory/`, notes read and
 * prepared on a worker thread when many are to be indexed (a worker that fails is reported on
 * stderr and the notes are read on the main thread).
 */
export function cliSearchService(ctx: CliContext): SearchService {
  return new SearchService({
    vault: ctx.vault,
    layout: ctx.layout,
    store: vaultIndexStore(ctx.vault),
    // A macrotask between batches of a save or a build, so a server answers meanwhile.
    yieldToHost: nextTurn,
    reader: new WorkerNoteReader(ctx.vault, {
      onFallback: (reason) => ctx.err(`index: ${reason}`),
    }),
    onBackgroundError: (message) => ctx.err(`warning: ${message}`),
    noteCacheNotes: CLI_NOTE_CACHE_NOTES,
  });
}

/**
 * The stderr line for a saved index that was not used (docs/architecture.md, "The saved index": a
 * message, never a crash).
 */
export function rebuiltLine(reason: string): string {
  return `index: ${reason}; rebuilt from the notes`;
}

/**
 * Opens the vault's search index (saved index reloaded, changed notes re-indexed) and reports a
 * rebuild of a bad saved index on stderr (docs/architecture.md, "The saved index": a message, never
 * a crash). With `saved`, a usable saved index is taken as it is, without listing the vault
 * (`SearchService.openSaved`; the caller checks what it returns with {@link changedOnDisk}).
 */
export async function openSearch(
  ctx: CliContext,
  options: { saved?: boolean } = {},
): Promise<{ service: SearchService; report: OpenReport }> {
  // A server running this command lends its open index (docs/mcp.md); its report says what a
  // cold open would (the notes it cannot read), so the output is the same.
  let service: SearchService;
  let report: OpenReport;
  if (ctx.warm) {
    ({ service, report } = await ctx.warm.open(ctx));
  } else {
    service = cliSearchService(ctx);
    report = options.saved ? await service.openSaved() : await service.open();
  }
  reportOpen(ctx, report);
  return { service, report };
}

/**
 * True when any of the notes at `paths` differs on disk from what the index holds (mtime or size,
 * as `SearchService.open` compares them), is gone, or is not in the index: a search on a saved
 * index opened unsynced (`openSaved`) is then run again after `SearchService.sync`.
 */
export function changedOnDisk(
  ctx: Pick<CliContext, "vault">,
  service: Pick<SearchService, "meta">,
  paths: Iterable<string>,
): boolean {
  for (const path of paths) {
    const meta = service.meta(path);
    const st = ctx.vault.stat(path);
    if (!meta || !st || meta.mtime !== st.mtime || meta.size !== st.size) return true;
  }
  return false;
}

/**
 * Slack (ms) between a note's modification time and its folder's: a write through the vault sets
 * the note's time when it writes the temporary file and the folder's when it renames it into place.
 */
const FOLDER_SLACK_MS = 1_000;

/**
 * True when a folder holding indexed notes (or one of its parents up to the memory root) was
 * changed after the saved index was written (`savedAtMs`, {@link savedIndexTime}; `null` when
 * unknown), or later than the newest of the notes beneath it that the index knows by more than
 * {@link FOLDER_SLACK_MS}: a note was created, renamed into place (every write through the vault
 * is a rename) or deleted there since. One `stat` per folder, not per note; a note edited in place
 * leaves its folder's time alone and is caught by {@link changedOnDisk} when a search returns it
 * (docs/decisions.md, "A hook answers from the saved index").
 */
export function foldersChanged(
  ctx: Pick<CliContext, "vaultRoot" | "layout">,
  service: Pick<SearchService, "notes">,
  savedAtMs: number | null,
): boolean {
  const newest = new Map<string, number>();
  const root = ctx.layout.root;
  for (const meta of service.notes()) {
    let folder = meta.path;
    for (;;) {
      const cut = folder.lastIndexOf("/");
      folder = cut < 0 ? "" : folder.slice(0, cut);
      const known = newest.get(folder);
      if (known !== undefined && known >= meta.mtime) break;
      newest.set(folder, Math.max(known ?? -1, meta.mtime));
      if (folder === root || folder === "") break;
    }
  }
  for (const [folder, mtime] of newest) {
    // A note whose time is unknown (-1) makes its folders count as changed: the sync finds out.
    let st;
    try {
      st = statSync(nodePath.join(ctx.vaultRoot, folder));
    } catch {
      return true;
    }
    if (st.mtimeMs > mtime + FOLDER_SLACK_MS) return true;
    if (savedAtMs !== null && st.mtimeMs > savedAtMs) return true;
  }
  return false;
}

/**
 * A search on an index opened with `saved` ({@link openSearch}), checked against the disk: when
 * the index is unsynced and a folder of its notes changed since ({@link foldersChanged}), the
 * index is brought up to date before the first search; when a note of the results changed on
 * disk ({@link changedOnDisk}), it is brought up to date (`SearchService.sync`, its report printed
 * as an open's) and the search runs again; once synced, a search runs once. `run` does the search.
 */
export function checkedSearch<
  A extends unknown[],
  T extends { results: readonly { path: string }[] },
>(
  ctx: CliContext,
  service: SearchService,
  report: OpenReport,
  run: (...args: A) => Promise<Result<T>>,
): (...args: A) => Promise<Result<T>> {
  let synced = report.unsynced !== true;
  return async (...args: A) => {
    if (!synced && foldersChanged(ctx, service, savedIndexTime(ctx.vault))) {
      synced = true;
      reportOpen(ctx, await service.sync());
    }
    const found = await run(...args);
    if (
      synced ||
      !found.ok ||
      !changedOnDisk(
        ctx,
        service,
        found.value.results.map((r) => r.path),
      )
    )
      return found;
    synced = true;
    reportOpen(ctx, await service.sync());
    return run(...args);
  };
}

/** Prints the stderr lines of an open's report (a rebuild, a failed save, notes left out). */
export function reportOpen(
  ctx: Pick<CliContext, "err" | "namesLeftOut">,
  report: OpenReport,
): void {
  if (report.rebuildReason) ctx.err(rebuiltLine(report.rebuildReason));
  if (report.saveError)
    ctx.err(`index: not saved (${report.saveError}); this search used the index built in memory`);
  // A note that cannot be read (not UTF-8, a link out of the vault) is left out and named, every
  // time, except in a hook (CliContext.namesLeftOut).
  if (ctx.namesLeftOut === false) return;
  for (const u of report.unreadable) ctx.err(`index: left out ${unreadableLine(u)}`);
}

/**
 * Opens the search index ({@link openSearch}) and starts a {@link LiveIndex} over it, the warm index
 * a long-lived host (`mcp`, `serve`) keeps up to date as notes change (docs/mcp.md). `log` takes
 * the live index's one-line messages.
 */
export async function openLiveIndex(
  ctx: CliContext,
  log: (line: string) => void,
): Promise<{ live: LiveIndex; report: OpenReport }> {
  const { service, report } = await openSearch(ctx);
  const live = new LiveIndex(
    service,
    ctx.vault,
    ctx.layout,
    { at: Date.now(), source: report.source, unreadable: report.unreadable },
    log,
  );
  await live.start(report.listed);
  return { live, report };
}

/** The actor of a CLI run: the agent of `--agent` (checked to exist), else the person. */
export async function cliActor(
  ctx: CliContext,
  agent: unknown,
): Promise<{ actor: Actor; agents: string[] }> {
  const agents = await knownAgents(ctx.vault, ctx.layout);
  if (typeof agent !== "string")
    return { actor: { person: true, name: ctx.settings.defaultAgent }, agents };
  if (!agents.includes(agent))
    throw unknownAgentError(agent, agents, "pass --agent with a known agent");
  return { actor: { person: false, name: agent }, agents };
}

/** Prints an inbox as `trackers --inbox` and `inbox` do. */
export function printInbox(ctx: CliContext, who: Actor, items: readonly InboxItem[]): void {
  const whose = who.person ? `the person (${who.name})` : who.name;
  if (items.length === 0) {
    ctx.out(`inbox of ${whose}: empty`);
    return;
  }
  ctx.out(`inbox of ${whose}: ${items.length} item${items.length === 1 ? "" : "s"}`);
  for (const it of items) {
    const what = it.promotion
      ? `promotion to ${it.promotion.area}`
      : it.kind === "questions"
        ? "question"
        : "proposal";
    ctx.out(
      `  ${it.id.padEnd(6)} from ${it.from} (${what}, ${it.state}): ${wikilinkDisplayText(it.text)}`,
    );
    for (const r of it.replies) ctx.out(`         ${wikilinkDisplayText(r)}`);
  }
}

/**
 * Keeps a long-running server (`mcp`, `serve`) alive when a promise rejects with nobody waiting on
 * it: Node would end the process with a stack trace, and every client with it. The rejection is
 * logged as one line (`<name>: internal error, kept running: <message>`) through `log`; the request
 * that made it has already had its own answer or error. Returns the function that removes the
 * handler (call it when the server stops). test/cli/out-of-vault.process.test.ts.
 */
export function keepServingOnRejection(name: string, log: (line: string) => void): () => void {
  const onRejection = (reason: unknown): void => {
    log(`${name}: internal error, kept running: ${errorMessage(reason)}`);
  };
  process.on("unhandledRejection", onRejection);
  return () => {
    process.off("unhandledRejection", onRejection);
  };
}

/** Notes a "wrote" line names; the rest are counted (`--json` lists every one). */
export const WRITES_SHOWN = 10;

/**
 * `a, b, c` of the first {@link WRITES_SHOWN} `paths`, then ` and N more (--json lists them all)`
 * when there are more: a run that wrote hundreds of notes prints one readable line.
 */
export function shownWrites(paths: readonly string[]): string {
  const more = paths.length - WRITES_SHOWN;
  return `${paths.slice(0, WRITES_SHOWN).join(", ")}${more > 0 ? ` and ${more} more (--json lists them all)` : ""}`;
}

/**
 * Ctrl-C for a command that writes note by note (`extract`, `ingest`): the first SIGINT aborts
 * `signal`, so the command stops after the write under way (a note is written whole or not at
 * all) and says what it did; a second one exits at once with 130. Call `done()` when the command
 * ends, to take the handler away.
 */
export function ctrlC(): { signal: AbortSignal; done: () => void } {
  const stop = new AbortController();
  const onSigint = (): void => {
    if (stop.signal.aborted) process.exit(130);
    stop.abort();
  };
  process.on("SIGINT", onSigint);
  return { signal: stop.signal, done: () => process.off("SIGINT", onSigint) };
}
