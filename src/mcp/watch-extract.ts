/**
 * `agent-memory mcp --watch-extract MINUTES [--watch-auto-apply]` (docs/compaction.md):
 * the server extracts a journal of its agent once it has been left unchanged for MINUTES. The plan
 * waits in the agent's review queue (`Memory/Agents/<agent>/Review queue.md`) unless auto-apply is
 * on. Off unless the flag is given. Changes are seen by a {@link DirWatcher} on the agent's folder;
 * timing is {@link QuietTimers} with the host's timers, injectable for tests.
 */
import * as nodePath from "node:path";
import type { CliContext } from "../node/context";
import { UsageError, errorMessage } from "../core/errors";
import {
  QuietTimers,
  extractQuietJournal,
  isWatchedJournal,
  type QuietOutcome,
  type Scheduler,
} from "../core/watch";
import { createCliExtractor } from "../node/llm-env";
import type { MemoryAccess } from "./access";
import { DirWatcher } from "../node/dir-watcher";
import type { LiveIndex } from "../node/live-index";

/** Longest quiet time accepted, minutes (one day). */
export const MAX_WATCH_MINUTES = 1440;

/**
 * Reads `--watch-extract MINUTES`: a whole number from 1 to {@link MAX_WATCH_MINUTES}.
 * @throws UsageError naming the flag for anything else (`0` included: leave the flag out for off).
 */
export function parseWatchMinutes(raw: string): number {
  const n = /^\s*\d+\s*$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_WATCH_MINUTES) {
    throw new UsageError(
      `--watch-extract must be a whole number of minutes from 1 to ${MAX_WATCH_MINUTES} (leave it out to keep watching off), not "${raw}"`,
      "--watch-extract",
    );
  }
  return n;
}

/** Node's timers, unref'd so a pending timer never keeps the server alive. */
export const NODE_SCHEDULER: Scheduler = {
  set(fn, ms) {
    const t = setTimeout(fn, ms);
    t.unref();
    return t;
  },
  clear(handle) {
    clearTimeout(handle as ReturnType<typeof setTimeout>);
  },
};

/** What the server runs: feed it changed files; it extracts them when quiet. */
export interface WatchExtract {
  /** A file changed (absolute path, as the watcher reports it). */
  changed(abs: string): void;
  /** Notes waiting to fall quiet (vault paths). */
  waiting(): string[];
  /** Resolves when every extraction started so far has finished. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts watching the agent's folder. `watch: false` (tests) starts no file watcher: changes are
 * fed through {@link WatchExtract.changed}.
 * @param onOutcome told what became of each quiet journal (the server logs it)
 */
export function startWatchExtract(options: {
  ctx: CliContext;
  access: MemoryAccess;
  live: Pick<LiveIndex, "wrote">;
  minutes: number;
  autoApply: boolean;
  log: (line: string) => void;
  scheduler?: Scheduler;
  watch?: boolean;
  now?: () => Date;
  onOutcome?: (path: string, outcome: QuietOutcome) => void;
}): WatchExtract {
  const { ctx, access, log } = options;
  const vault = access.writeGuarded();
  const timers = new QuietTimers(
    options.minutes * 60_000,
    async (path) => {
      const { extractor } = createCliExtractor(ctx, undefined);
      const outcome = await extractQuietJournal({
        vault,
        layout: ctx.layout,
        settings: ctx.settings,
        journalPath: path,
        extractor,
        autoApply: options.autoApply,
        agent: access.agent,
        ...(options.now ? { now: options.now } : {}),
      });
      if (outcome.kind === "applied") for (const p of outcome.writes) await options.live.wrote(p);
      if (outcome.kind === "queued" && outcome.written) await options.live.wrote(outcome.queuePath);
      if (outcome.kind === "queued")
        log(
          `watch: ${path} quiet for ${options.minutes} min: ${outcome.items} item(s) ${outcome.written ? "queued for review in" : "already queued in"} ${outcome.queuePath}`,
        );
      else if (outcome.kind === "applied")
        log(
          `watch: ${path} quiet for ${options.minutes} min: applied, wrote ${outcome.writes.length} note(s)${outcome.failed ? `, ${outcome.failed} item(s) failed` : ""}`,
        );
      else if (outcome.kind === "nothing-new")
        log(`watch: ${path} quiet for ${options.minutes} min: nothing new to review`);
      options.onOutcome?.(path, outcome);
    },
    options.scheduler ?? NODE_SCHEDULER,
    (path, err) => log(`watch: ${path}: not extracted: ${errorMessage(err)}`),
  );
  const rel = (abs: string) => nodePath.relative(ctx.vault.root, abs).split(nodePath.sep).join("/");
  const changed = (abs: string) => {
    const path = rel(abs);
    if (path.startsWith(`${access.writeRoot}/`) && isWatchedJournal(ctx.layout, path))
      timers.touch(path);
  };
  let watcher: DirWatcher | null = null;
  if (options.watch !== false) {
    watcher = new DirWatcher(ctx.vault.abs(access.writeRoot), {
      file: changed,
      folderGone: () => undefined,
      error: log,
    });
    watcher.start();
  }
  return {
    changed,
    waiting: () => timers.waiting(),
    idle: () => timers.idle(),
    close: async () => {
      watcher?.close();
      await timers.close();
    },
  };
}
