/**
 * Worker thread of {@link WorkerNoteReader} (worker-reader.ts): reads the notes it is sent and
 * prepares them for the index (core/search/prepared-note.ts: document, metadata, phrase filter,
 * CJK segments) with the index's settings, so the thread that builds the index does none of it.
 * Messages: in `{ id, files }`, out `{ id, notes: ReadNote[] }` (errors as their message).
 */
import { parentPort, workerData } from "node:worker_threads";
import { errorMessage } from "../core/errors";
import { MemoryLayout } from "../core/layout";
import type { Settings } from "../core/settings";
import { prepareNote } from "../core/search/prepared-note";
import type { ReadNote } from "../core/search/search-types";
import type { FileStat } from "../core/vault";
import { NodeVault } from "./node-vault";

/** What the worker is started with. */
export interface IndexWorkerData {
  /** Absolute path of the vault. */
  root: string;
  /** The index's settings. */
  settings: Settings;
}

/** A request from the reader: notes to read and prepare. */
export interface ReadRequest {
  id: number;
  files: FileStat[];
}

/** The answer to a {@link ReadRequest}: one note per file, in order. */
export interface ReadReply {
  id: number;
  notes: ReadNote[];
}

const port = parentPort;
if (port) {
  const { root, settings } = workerData as IndexWorkerData;
  const vault = new NodeVault(root);
  const layout = new MemoryLayout(settings);
  port.on("message", (request: ReadRequest) => {
    void (async () => {
      const notes: ReadNote[] = [];
      const transfer: ArrayBuffer[] = [];
      for (const file of request.files) {
        try {
          const prepared = prepareNote(file.path, await vault.read(file.path), file, layout);
          transfer.push(prepared.segments.cuts.buffer as ArrayBuffer);
          if (prepared.pairs) transfer.push(prepared.pairs.buffer as ArrayBuffer);
          notes.push({ path: file.path, ok: true, prepared });
        } catch (err) {
          notes.push({ path: file.path, ok: false, error: errorMessage(err) });
        }
      }
      port.postMessage({ id: request.id, notes } satisfies ReadReply, transfer);
    })();
  });
}
