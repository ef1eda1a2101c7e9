/**
 * The CLI's process streams, shared by the full CLI (src/cli/main.ts) and the hooks' own bundle
 * (src/cli/hook-main.ts): lines written unless the reader has gone, and write failures noted.
 */
import { errorMessage } from "../core/errors";
import { oneLine } from "../node/one-line";

/** Writes a line to a process stream unless its reader has gone (EPIPE after `| head`). */
export function streamWriter(
  stream: NodeJS.WritableStream & { destroyed?: boolean },
): (line: string) => void {
  return (line) => {
    if (!stream.destroyed && stream.writable) stream.write(`${line}\n`);
  };
}

/** Set when stdout or stderr failed for a reason other than a closed pipe: the output is incomplete. */
let failed = false;

/** True once stdout or stderr failed for a reason other than a closed pipe (see {@link watchStream}). */
export function streamFailed(): boolean {
  return failed;
}

/**
 * A reader that goes away (`agent-memory … | head`) is not an error: later lines are dropped and the
 * command ends with its own exit code, without a stack trace. Any other write failure ends with 2.
 */
export function watchStream(stream: NodeJS.WriteStream, label: string): void {
  stream.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE" || err.code === "ERR_STREAM_DESTROYED") return;
    failed = true;
    if (stream !== process.stderr)
      streamWriter(process.stderr)(
        oneLine(`agent-memory: cannot write to ${label}: ${errorMessage(err)}`),
      );
  });
}
