/**
 * The CLI's saved search index as a file (docs/architecture.md, "The saved index"): where it lives
 * under the vault's `.agent-memory/` and the {@link IndexStore} that loads and saves it.
 */
import { isAscii } from "node:buffer";
import { promises as fs, readFileSync } from "node:fs";
import * as nodePath from "node:path";
import { randomBytes } from "node:crypto";
import { VaultError, errorMessage } from "../core/errors";
import type { IndexStore } from "../core/search/search-service";
import type { NodeVault } from "./node-vault";

/**
 * Folder under the vault where the CLI keeps its saved search index
 * (docs/architecture.md, "The saved index").
 */
export const INDEX_DIR = ".agent-memory";
const INDEX_FILE = "search-index.bin";
/** The JSON index (format 9) saved before format 10: still read, then replaced. */
const JSON_INDEX_FILE = "search-index.json";

/**
 * {@link IndexStore} on a file: `load` returns its bytes, or else the text of `jsonFile` (an index
 * saved in the JSON format 9), or `null` when neither exists; `save` writes a temporary file beside
 * `file` and renames it over, so a crash never leaves half an index, then removes `jsonFile`.
 * Throws {@link VaultError} naming the file on any other I/O failure.
 */
export class FileIndexStore implements IndexStore {
  constructor(
    readonly file: string,
    readonly jsonFile?: string,
  ) {}

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

  private readError(file: string, err: unknown): VaultError {
    return new VaultError(`cannot read the saved index ${file}: ${errorMessage(err)}`, file, {
      cause: err,
    });
  }

  async save(data: Uint8Array): Promise<void> {
    const tmp = `${this.file}.${randomBytes(4).toString("hex")}.tmp`;
    try {
      await fs.mkdir(nodePath.dirname(this.file), { recursive: true });
      // fs.promises writes on libuv's thread pool: the event loop keeps answering meanwhile.
      await fs.writeFile(tmp, data);
      await fs.rename(tmp, this.file);
      // The format 9 file is only an older copy of this index now.
      if (this.jsonFile !== undefined) await fs.rm(this.jsonFile, { force: true });
    } catch (err) {
      await fs.rm(tmp, { force: true });
      throw new VaultError(`cannot save the index ${this.file}: ${errorMessage(err)}`, this.file, {
        cause: err,
      });
    }
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

/** The CLI's {@link FileIndexStore} for a vault (see {@link indexFileOf}). */
export function vaultIndexStore(vault: NodeVault): FileIndexStore {
  return new FileIndexStore(indexFileOf(vault), jsonIndexFileOf(vault));
}
