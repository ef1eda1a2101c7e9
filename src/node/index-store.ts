/**
 * The CLI's saved search index as a file (docs/architecture.md, "The saved index"): where it lives
 * under the vault's `.agent-memory/` and the {@link IndexStore} that loads and saves it.
 */
import { isAscii } from "node:buffer";
import { promises as fs, readFileSync, statSync, type Stats } from "node:fs";
import * as nodePath from "node:path";
import { randomBytes } from "node:crypto";
import { VaultError, errorMessage } from "../core/errors";
import type { DeltaWrite, IndexStore } from "../core/search/search-service";
import type { NodeVault } from "./node-vault";
import { NoteLocks } from "./note-lock";

/**
 * Folder under the vault where the CLI keeps its saved search index
 * (docs/architecture.md, "The saved index").
 */
export const INDEX_DIR = ".agent-memory";
const INDEX_FILE = "search-index.bin";
/** The JSON index (format 9) saved before format 10: still read, then replaced. */
const JSON_INDEX_FILE = "search-index.json";
/** The changes saved since the index file was last written whole (core/search/delta.ts). */
const DELTA_FILE = "search-index.delta";

/**
 * {@link IndexStore} on a file: `load` returns its bytes, or else the text of `jsonFile` (an index
 * saved in the JSON format 9), or `null` when neither exists; `save` writes a temporary file beside
 * `file` and renames it over, so a crash never leaves half an index, then does the same for the
 * delta when given one, then removes `jsonFile`. The delta (`deltaFile`, default `file` with
 * `.delta` for its extension) is appended in place. Saves and delta writes hold one lock across
 * processes (a {@link NoteLocks} lock on `file`, under `locks/` beside it: `.agent-memory/locks`
 * for the CLI's), so a one-shot CLI and a server never interleave their writes. Throws
 * {@link VaultError} naming the file on any other I/O failure, or when the lock cannot be had.
 */
export class FileIndexStore implements IndexStore {
  readonly deltaFile: string;
  private readonly locks: NoteLocks;

  constructor(
    readonly file: string,
    readonly jsonFile?: string,
    deltaFile?: string,
  ) {
    this.deltaFile = deltaFile ?? `${file.replace(/\.[^./\\]*$/, "")}.delta`;
    this.locks = new NoteLocks(nodePath.join(nodePath.dirname(file), "locks"));
  }

  get location(): string {
    return this.file;
  }

  load(): Promise<Uint8Array | string | null> {
    try {
      // One synchronous read: the saved index is read before anything else can run.
      const bytes = readFileSync(this.file);
      return Promise.resolve(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT")
        return Promise.reject(this.readError(this.file, err));
    }
    if (this.jsonFile === undefined) return Promise.resolve(null);
    try {
      // One synchronous read, and Latin-1 decoding when the bytes are ASCII (the saved index escapes
      // everything else, see serializeIndex): 16 MB in 0.04–0.1 s against 0.25 s for
      // readFileSync(…, "utf8") and more for fs.promises, which reads through a string decoder.
      const bytes = readFileSync(this.jsonFile);
      return Promise.resolve(isAscii(bytes) ? bytes.toString("latin1") : bytes.toString("utf8"));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return Promise.resolve(null);
      return Promise.reject(this.readError(this.jsonFile, err));
    }
  }

  /** The delta's bytes (one synchronous read, as {@link load}), or `null` when there is none. */
  loadDelta(): Promise<Uint8Array | null> {
    try {
      const bytes = readFileSync(this.deltaFile);
      return Promise.resolve(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return Promise.resolve(null);
      return Promise.reject(this.readError(this.deltaFile, err));
    }
  }

  /**
   * See {@link IndexStore.writeDelta}: under the lock, reads the delta, then writes where `plan`
   * says: a new file through a temporary file renamed over, or bytes written at `at` after cutting
   * the file there (a torn record left by a killed process). Throws `RangeError` for an `at` past
   * the delta's end.
   */
  writeDelta(plan: (current: Uint8Array | null) => DeltaWrite | null): Promise<boolean> {
    return this.locked(async () => {
      let current: Uint8Array | null = null;
      try {
        const bytes = await fs.readFile(this.deltaFile);
        current = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "ENOENT")
          throw this.readError(this.deltaFile, err);
      }
      const write = plan(current);
      if (write === null) return false;
      if (write.at > (current?.length ?? 0))
        throw new RangeError(`delta write at ${write.at} is past its end`);
      if (write.at === 0) {
        await this.replace(this.deltaFile, write.bytes);
        return true;
      }
      try {
        const handle = await fs.open(this.deltaFile, "r+");
        try {
          if ((current?.length ?? 0) > write.at) await handle.truncate(write.at);
          await handle.write(write.bytes, 0, write.bytes.length, write.at);
        } finally {
          await handle.close();
        }
      } catch (err) {
        throw this.writeError(this.deltaFile, err);
      }
      return true;
    });
  }

  private readError(file: string, err: unknown): VaultError {
    return new VaultError(`cannot read the saved index ${file}: ${errorMessage(err)}`, file, {
      cause: err,
    });
  }

  async save(data: Uint8Array, delta?: Uint8Array): Promise<void> {
    await this.locked(async () => {
      await this.replace(this.file, data);
      if (delta !== undefined) await this.replace(this.deltaFile, delta);
      try {
        // The format 9 file is only an older copy of this index now.
        if (this.jsonFile !== undefined) await fs.rm(this.jsonFile, { force: true });
      } catch (err) {
        throw this.writeError(this.file, err);
      }
    });
  }

  /** Runs `fn` holding the lock of {@link file} (see the class comment). */
  private locked<T>(fn: () => Promise<T>): Promise<T> {
    return this.locks.withLock(this.file, `${INDEX_DIR}/${nodePath.basename(this.file)}`, fn);
  }

  /** Writes `data` to a temporary file beside `file` and renames it over `file`. */
  private async replace(file: string, data: Uint8Array): Promise<void> {
    const tmp = `${file}.${randomBytes(4).toString("hex")}.tmp`;
    try {
      await fs.mkdir(nodePath.dirname(file), { recursive: true });
      // fs.promises writes on libuv's thread pool: the event loop keeps answering meanwhile.
      await fs.writeFile(tmp, data);
      await fs.rename(tmp, file);
    } catch (err) {
      await fs.rm(tmp, { force: true });
      throw this.writeError(file, err);
    }
  }

  private writeError(file: string, err: unknown): VaultError {
    return new VaultError(`cannot save the index ${file}: ${errorMessage(err)}`, file, {
      cause: err,
    });
  }
}

/**
 * The CLI's index file for a vault: `<vault>/.agent-memory/search-index.bin`, as a real path.
 * Throws a `PathError` when `.agent-memory` is a link out of the vault (nothing is read or
 * written outside the vault; docs/write-safety.md).
 */
export function indexFileOf(vault: NodeVault): string {
  return vault.resolve(`${INDEX_DIR}/${INDEX_FILE}`);
}

/** The CLI's index file of the JSON format 9, `<vault>/.agent-memory/search-index.json` (see {@link indexFileOf}). */
export function jsonIndexFileOf(vault: NodeVault): string {
  return vault.resolve(`${INDEX_DIR}/${JSON_INDEX_FILE}`);
}

/** The CLI's delta beside its index file, `<vault>/.agent-memory/search-index.delta` (see {@link indexFileOf}). */
function deltaFileOf(vault: NodeVault): string {
  return vault.resolve(`${INDEX_DIR}/${DELTA_FILE}`);
}

/** The CLI's {@link FileIndexStore} for a vault (see {@link indexFileOf}), its delta `search-index.delta`. */
export function vaultIndexStore(vault: NodeVault): FileIndexStore {
  return new FileIndexStore(indexFileOf(vault), jsonIndexFileOf(vault), deltaFileOf(vault));
}

/**
 * When the CLI's saved index was last written (ms since the epoch): the later modification time of
 * its index file and its delta, `null` when neither exists or `.agent-memory` is a link out of the
 * vault. Every save writes one of them, after the notes it holds were listed.
 */
export function savedIndexTime(vault: NodeVault): number | null {
  let files: string[];
  try {
    files = [indexFileOf(vault), deltaFileOf(vault)];
  } catch {
    return null;
  }
  const times = files.map((f) => statOrNull(f)?.mtimeMs).filter((t) => t !== undefined);
  return times.length > 0 ? Math.max(...times) : null;
}

/** Stats of `file`, or `null` when it cannot be stat-ed (not there). */
function statOrNull(file: string): Stats | null {
  try {
    return statSync(file);
  } catch {
    return null;
  }
}
