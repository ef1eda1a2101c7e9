/**
 * Worker thread of {@link WorkerNoteReader} (worker-reader.ts): reads the notes it is sent and
 * segments their CJK runs (core/search/segment-memo.ts), so the thread that builds the index does
 * neither. Messages: in `{ id, paths }`, out `{ id, notes: ReadNote[] }` (errors as their message).
 */
import { parentPort, workerData } from "node:worker_threads";
import { errorMessage } from "../core/errors";
import { prepareSegments } from "../core/search/segment-memo";
import type { ReadNote } from "../core/search/search-types";
import { NodeVault } from "./node-vault";

/** A request from the reader: notes to read, by vault path. */
export interface ReadRequest {
  id: number;
  paths: string[];
}

/** The answer to a {@link ReadRequest}. */
export interface ReadReply {
  id: number;
  notes: ReadNote[];
}

const port = parentPort;
if (port) {
  const vault = new NodeVault((workerData as { root: string }).root);
  port.on("message", (request: ReadRequest) => {
    void (async () => {
      const notes: ReadNote[] = [];
      const transfer: ArrayBuffer[] = [];
      for (const path of request.paths) {
        try {
          const text = await vault.read(path);
          const segments = prepareSegments(text, path);
          transfer.push(segments.cuts.buffer as ArrayBuffer);
          notes.push({ path, ok: true, text, segments });
        } catch (err) {
          notes.push({ path, ok: false, error: errorMessage(err) });
        }
      }
      port.postMessage({ id: request.id, notes } satisfies ReadReply, transfer);
    })();
  });
}
