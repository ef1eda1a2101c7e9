/**
 * A {@link NoteReader} for the CLI that reads notes and prepares them for the index on a worker
 * thread (index-worker.ts: parsing, phrase filter, CJK segmentation), so that building the index
 * uses a second core: on the 10k-note benchmark vault this was about half of the build
 * (bench/results/search.md: build 10k notes in about 5 s). The saved index is byte for byte the one
 * built without it (test/node/search-worker-reader.process.test.ts).
 *
 * Small builds (fewer than {@link WORKER_MIN_NOTES} notes) read on the calling thread: starting a
 * worker costs more than it saves. When the worker cannot start or fails, the notes it has not
 * returned are read on the calling thread and `onFallback` is told why; nothing is lost. A worker
 * fails when it cannot start, throws, exits, answers something else than the notes asked for, or
 * answers nothing for {@link REPLY_TIMEOUT_MS}.
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { errorMessage } from "../core/errors";
import type { NoteReader, ReadNote } from "../core/search/search-types";
import { vaultReader } from "../core/search/search-service";
import type { NodeVault } from "./node-vault";
import type { Settings } from "../core/settings";
import type { FileStat } from "../core/vault";
import type { IndexWorkerData, ReadReply, ReadRequest } from "./index-worker";

/**
 * Builds of fewer notes read on the calling thread. Measured on this 2-core machine (synthetic
 * notes, build only): 1,000 notes 0.86 s with the worker against 0.77–0.88 s without, 3,000 notes
 * 1.5–1.8 s against 1.7–1.8 s, 10,000 notes 3.9–4.9 s against 5.3–7.9 s.
 */
export const WORKER_MIN_NOTES = 2000;
/** Notes per request to the worker. */
const BATCH = 32;
/** Requests in flight per worker: it stays ahead of the index without holding the whole vault. */
const AHEAD = 4;
/**
 * A worker that answers nothing for this long while requests wait is given up (its notes are read
 * on the calling thread). A batch of 32 notes takes milliseconds; notes over the size cap are not
 * segmented, so only a stuck or mismatched worker comes near it.
 */
export const REPLY_TIMEOUT_MS = 60_000;

/** Options of {@link WorkerNoteReader}. */
export interface WorkerReaderOptions {
  /** Told when the worker could not be used and notes were read on the calling thread. */
  onFallback?: (reason: string) => void;
  /** Builds of fewer notes read on the calling thread (default {@link WORKER_MIN_NOTES}). */
  minNotes?: number;
  /** Worker threads (default: one per core beyond the index thread's, at least one, at most three). */
  workers?: number;
  /** Give up a worker that answers nothing for this long (ms, default {@link REPLY_TIMEOUT_MS}). */
  replyTimeoutMs?: number;
  /** Starts a worker (default {@link startIndexWorker}; tests pass failing ones). */
  startWorker?: (data: IndexWorkerData) => Worker;
}

/**
 * Starts the index worker with `workerData` (the vault's root and the index's settings): `script`
 * when given (a bundled `index-worker.mjs`), else the bundle beside `cli.js`, or, when running from
 * the TypeScript sources (tests under vitest, scripts under tsx), the source loaded through tsx.
 */
export function startIndexWorker(workerData: IndexWorkerData, script?: URL): Worker {
  if (script) return new Worker(script, { workerData });
  if (!import.meta.url.endsWith(".ts"))
    return new Worker(new URL("./index-worker.mjs", import.meta.url), { workerData });
  const source = new URL("./index-worker.ts", import.meta.url).href;
  return new Worker(
    `import { register } from "tsx/esm/api"; register(); await import(${JSON.stringify(source)});`,
    {
      eval: true,
      workerData,
    },
  );
}

/** One worker and the requests it has not answered yet. */
class WorkerChannel {
  private readonly waiting = new Map<
    number,
    { resolve: (notes: ReadNote[]) => void; reject: (err: Error) => void }
  >();
  private nextId = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly onExit = (code: number): void =>
    this.fail(new Error(`the index worker stopped (exit code ${code})`));

  /** @param replyTimeoutMs how long the worker may go without answering while requests wait */
  constructor(
    private readonly worker: Worker,
    private readonly replyTimeoutMs: number,
  ) {
    worker.on("message", (reply: unknown) => this.answer(reply));
    worker.on("error", (err) => this.fail(err));
    worker.on("exit", this.onExit);
  }

  /** The notes of `files`, prepared; rejects when the worker fails, stops or stalls first. */
  read(files: FileStat[]): Promise<ReadNote[]> {
    const id = this.nextId++;
    const promise = new Promise<ReadNote[]>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, files } satisfies ReadRequest);
    });
    promise.catch(() => undefined); // awaited in order by the reader, which handles the failure
    this.timer ??= this.watch();
    return promise;
  }

  async close(): Promise<void> {
    this.stopWatch();
    this.worker.off("exit", this.onExit);
    await this.worker.terminate();
  }

  private answer(reply: unknown): void {
    const { id, notes } = (reply ?? {}) as Partial<ReadReply>;
    const waiter = typeof id === "number" ? this.waiting.get(id) : undefined;
    if (!waiter || !Array.isArray(notes)) {
      this.fail(new Error("the index worker answered something else than notes"));
      return;
    }
    this.waiting.delete(id as number);
    waiter.resolve(notes);
    this.stopWatch();
    if (this.waiting.size > 0) this.timer = this.watch();
  }

  /** A timer that fails the waiting requests when the worker does not answer in time. */
  private watch(): ReturnType<typeof setTimeout> {
    const timer = setTimeout(
      () =>
        this.fail(new Error(`the index worker did not answer in ${this.replyTimeoutMs / 1000} s`)),
      this.replyTimeoutMs,
    );
    timer.unref();
    return timer;
  }

  private stopWatch(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private fail(err: Error): void {
    this.stopWatch();
    for (const w of this.waiting.values()) w.reject(err);
    this.waiting.clear();
  }
}

/** Reads a build's notes on worker threads, in order (see the module comment). */
export class WorkerNoteReader implements NoteReader {
  constructor(
    private readonly vault: NodeVault,
    private readonly options: WorkerReaderOptions = {},
  ) {}

  async *readNotes(files: readonly FileStat[], settings: Settings): AsyncIterable<ReadNote[]> {
    const local = vaultReader(this.vault);
    if (files.length < (this.options.minNotes ?? WORKER_MIN_NOTES)) {
      yield* local.readNotes(files, settings);
      return;
    }
    const channels: WorkerChannel[] = [];
    try {
      const count = this.options.workers ?? defaultWorkers();
      const start = this.options.startWorker ?? startIndexWorker;
      const timeout = this.options.replyTimeoutMs ?? REPLY_TIMEOUT_MS;
      for (let k = 0; k < count; k++)
        channels.push(new WorkerChannel(start({ root: this.vault.root, settings }), timeout));
    } catch (err) {
      await Promise.all(channels.map((c) => c.close()));
      this.options.onFallback?.(`cannot start the index worker: ${errorMessage(err)}`);
      yield* local.readNotes(files, settings);
      return;
    }
    // Batches go to the workers in turn and are yielded in order.
    const pending: { start: number; notes: Promise<ReadNote[]> }[] = [];
    let next = 0;
    try {
      while (next < files.length || pending.length > 0) {
        while (next < files.length && pending.length < AHEAD * channels.length) {
          const channel = channels[(next / BATCH) % channels.length] as WorkerChannel;
          pending.push({ start: next, notes: channel.read(files.slice(next, next + BATCH)) });
          next += BATCH;
        }
        const head = pending.shift();
        if (!head) break;
        let notes: ReadNote[];
        try {
          notes = await head.notes;
          const asked = files.slice(head.start, head.start + BATCH);
          if (notes.length !== asked.length || notes.some((n, k) => n.path !== asked[k]?.path)) {
            throw new Error("the index worker answered for other notes");
          }
        } catch (err) {
          this.options.onFallback?.(
            `the index worker failed (${errorMessage(err)}); reading on this thread`,
          );
          yield* local.readNotes(files.slice(head.start), settings);
          return;
        }
        yield notes;
      }
    } finally {
      await Promise.all(channels.map((c) => c.close()));
    }
  }
}

/** Workers by default: one per core beyond the index thread's, at least one, at most three. */
function defaultWorkers(): number {
  return Math.min(3, Math.max(1, availableParallelism() - 1));
}
