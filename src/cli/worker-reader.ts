/**
 * A {@link NoteReader} for the CLI that reads notes and segments their CJK text on a worker
 * thread (index-worker.ts), so that building the index uses a second core: on the 10k-note
 * benchmark vault, reading and `Intl.Segmenter` were about a third of the build (issue 4 target:
 * build ≤ 5 s). The index's terms are the same as without it (test/search-worker-reader.test.ts).
 *
 * Small builds (fewer than {@link WORKER_MIN_NOTES} notes) read on the calling thread: starting a
 * worker costs more than it saves. When the worker cannot start or fails, the notes it has not
 * returned are read on the calling thread and `onFallback` is told why; nothing is lost.
 */
import { Worker } from "node:worker_threads";
import { errorMessage } from "../core/errors";
import type { NoteReader, ReadNote } from "../core/search/search-types";
import { vaultReader } from "../core/search/search-service";
import type { NodeVault } from "./node-vault";
import type { ReadReply, ReadRequest } from "./index-worker";

/** Builds of fewer notes read on the calling thread. */
export const WORKER_MIN_NOTES = 500;
/** Notes per request to the worker. */
const BATCH = 32;
/** Requests in flight: the worker stays ahead of the index without holding the whole vault. */
const AHEAD = 4;

/** Options of {@link WorkerNoteReader}. */
export interface WorkerReaderOptions {
  /** Told when the worker could not be used and notes were read on the calling thread. */
  onFallback?: (reason: string) => void;
  /** Builds of fewer notes read on the calling thread (default {@link WORKER_MIN_NOTES}). */
  minNotes?: number;
  /** Starts the worker for a vault root (default: index-worker.js; tests pass failing ones). */
  startWorker?: (root: string) => Worker;
}

/**
 * Starts the index worker for the vault at `root`: `script` when given (a bundled
 * `index-worker.js`), else the bundle beside `cli.js`, or, when running from the TypeScript
 * sources (tests under vitest, scripts under tsx), the source loaded through tsx.
 */
export function startIndexWorker(root: string, script?: URL): Worker {
  if (script) return new Worker(script, { workerData: { root } });
  if (!import.meta.url.endsWith(".ts")) return new Worker(new URL("./index-worker.js", import.meta.url), { workerData: { root } });
  const source = new URL("./index-worker.ts", import.meta.url).href;
  return new Worker(`import { register } from "tsx/esm/api"; register(); await import(${JSON.stringify(source)});`, {
    eval: true,
    workerData: { root },
  });
}

export class WorkerNoteReader implements NoteReader {
  constructor(
    private readonly vault: NodeVault,
    private readonly options: WorkerReaderOptions = {},
  ) {}

  async *readNotes(paths: readonly string[]): AsyncIterable<ReadNote[]> {
    const local = vaultReader(this.vault);
    if (paths.length < (this.options.minNotes ?? WORKER_MIN_NOTES)) {
      yield* local.readNotes(paths);
      return;
    }
    let worker: Worker;
    try {
      worker = (this.options.startWorker ?? startIndexWorker)(this.vault.root);
    } catch (err) {
      this.options.onFallback?.(`cannot start the index worker: ${errorMessage(err)}`);
      yield* local.readNotes(paths);
      return;
    }
    const waiting = new Map<number, { resolve: (notes: ReadNote[]) => void; reject: (err: Error) => void }>();
    const fail = (err: Error): void => {
      for (const w of waiting.values()) w.reject(err);
      waiting.clear();
    };
    worker.on("message", (reply: ReadReply) => {
      waiting.get(reply.id)?.resolve(reply.notes);
      waiting.delete(reply.id);
    });
    worker.on("error", (err) => fail(err));
    const onExit = (code: number): void => fail(new Error(`the index worker stopped (exit code ${code})`));
    worker.on("exit", onExit);
    const request = (start: number): Promise<ReadNote[]> => {
      const promise = new Promise<ReadNote[]>((resolve, reject) => {
        const id = start;
        waiting.set(id, { resolve, reject });
        worker.postMessage({ id, paths: paths.slice(start, start + BATCH) } satisfies ReadRequest);
      });
      promise.catch(() => undefined); // awaited in order below; a failure is handled there
      return promise;
    };
    const pending: { start: number; notes: Promise<ReadNote[]> }[] = [];
    let next = 0;
    try {
      while (next < paths.length || pending.length > 0) {
        while (next < paths.length && pending.length < AHEAD) {
          pending.push({ start: next, notes: request(next) });
          next += BATCH;
        }
        const head = pending.shift();
        if (!head) break;
        let notes: ReadNote[];
        try {
          notes = await head.notes;
        } catch (err) {
          this.options.onFallback?.(`the index worker failed (${errorMessage(err)}); reading on this thread`);
          yield* local.readNotes(paths.slice(head.start));
          return;
        }
        yield notes;
      }
    } finally {
      worker.off("exit", onExit);
      await worker.terminate();
    }
  }
}
