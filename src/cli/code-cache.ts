/**
 * Loads a CommonJS bundle with V8's code cache (docs/decisions.md, "The hooks' bundle runs from a
 * code cache"): the launcher's way to load dist/hook-main.cjs. Compiling the hooks' bundle, and the
 * functions a hook then compiles as it runs, took about 100 ms of every hook that no server
 * answered; with the cache V8 deserializes them instead. Only `node:*` modules: this is bundled
 * into the small launcher.
 *
 * The cache lives beside the bundle (`<file>.cache`), never elsewhere: bytecode runs as the
 * bundle's own code, so it is only as trusted as a file its folder holds. It starts with a line
 * naming the bundle it was made from (Node's version and architecture, and the bundle file's size,
 * mtime and inode, which every build changes: a build writes a new file and renames it over the
 * old) and the SHA-256 of the V8 data after it: V8's own check compares only the source's length,
 * its version and flags, and Node 20's V8 runs damaged data as it is (a segmentation fault, found
 * by test/cli/code-cache.process.test.ts), so data whose hash differs is not given to V8. A cache that is missing, of
 * another bundle or rejected is written again after the run (to a temporary file renamed over it),
 * when the folder can be written; if it cannot, the bundle simply compiles as without a cache.
 */
import {
  closeSync,
  fstatSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createHash } from "node:crypto";
import { createRequire, wrap } from "node:module";
import * as nodePath from "node:path";
import { Script } from "node:vm";

/** First word of a cache file's first line; a new layout of the file is a new word. */
const MAGIC = "agent-memory-code-cache-2";

/** The hex SHA-256 of `bytes`. */
function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** A bundle loaded by {@link loadWithCodeCache}. */
export interface CachedBundle<T> {
  /** The bundle's `module.exports`. */
  exports: T;
  /** True when V8 took the cache (the bundle was not compiled from its source). */
  fromCache: boolean;
  /**
   * Writes the cache when none was taken, with every function compiled so far: call it once the
   * bundle has done its work. Never throws.
   */
  save(): void;
}

/**
 * Loads the CommonJS bundle `file` (absolute path) as Node's `require` would (its own `require`,
 * `module`, `exports`, `__filename`, `__dirname`), from the code cache beside it when that was made
 * from this very file. Throws what reading or running the bundle throws.
 */
export function loadWithCodeCache<T>(file: string): CachedBundle<T> {
  const fd = openSync(file, "r");
  let source: string;
  let stamp: string;
  try {
    const st = fstatSync(fd);
    stamp = `${MAGIC} ${process.version} ${process.arch} ${st.size} ${st.mtimeMs} ${st.ino}`;
    source = readFileSync(fd, "utf8");
  } finally {
    closeSync(fd);
  }
  const cacheFile = `${file}.cache`;
  let cachedData: Buffer | undefined;
  try {
    const bytes = readFileSync(cacheFile);
    const end = bytes.indexOf(0x0a);
    const line = end < 0 ? "" : bytes.toString("utf8", 0, end);
    const data = bytes.subarray(end + 1);
    if (end >= 0 && line === `${stamp} ${sha256(data)}`) cachedData = data;
  } catch {
    // No cache yet (or none readable): compiled from the source.
  }
  const script = new Script(wrap(source), {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
  });
  const fromCache = cachedData !== undefined && !script.cachedDataRejected;
  const module = { exports: {} as T };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(
    module.exports,
    module.exports,
    createRequire(file),
    module,
    file,
    nodePath.dirname(file),
  );
  return {
    get exports() {
      return module.exports;
    },
    fromCache,
    save() {
      if (fromCache) return;
      const tmp = `${cacheFile}.${process.pid}.tmp`;
      try {
        const data = script.createCachedData();
        const head = Buffer.from(`${stamp} ${sha256(data)}\n`, "utf8");
        writeFileSync(tmp, Buffer.concat([head, data]), { mode: 0o644 });
        renameSync(tmp, cacheFile);
      } catch {
        // A folder that cannot be written (a global install): no cache, as before.
        try {
          rmSync(tmp, { force: true });
        } catch {
          // nothing to remove
        }
      }
    },
  };
}
