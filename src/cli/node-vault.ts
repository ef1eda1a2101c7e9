/**
 * NodeVault: {@link VaultPort} over the file system, for the CLI and tests (DESIGN §6).
 * `process` writes a temporary file beside the target and renames it over the target; when the
 * file changed on disk between the read and the rename, it reads again and re-applies the edit
 * function, so a concurrent writer's change is never overwritten (case 07).
 */
import { promises as fs } from "node:fs";
import * as nodePath from "node:path";
import { randomBytes } from "node:crypto";
import { VaultError, errorMessage } from "../core/errors";
import { normalizeVaultPath } from "../core/layout";
import type { FileStat, ProcessFn, VaultPort } from "../core/vault";

/** Attempts of the read–apply–compare–rename loop before giving up. */
const MAX_ATTEMPTS = 5;

export class NodeVault implements VaultPort {
  /** Absolute path of the vault folder. */
  readonly root: string;
  /** Called between the read and the rename; tests use it to simulate a concurrent writer. */
  beforeCommit: ((path: string) => Promise<void>) | null = null;

  constructor(root: string) {
    this.root = nodePath.resolve(root);
  }

  /** Absolute file-system path of a vault path. Throws PathError for `..` or absolute paths. */
  abs(path: string): string {
    return nodePath.join(this.root, ...normalizeVaultPath(path).split("/"));
  }

  async read(path: string): Promise<string> {
    try {
      return await fs.readFile(this.abs(path), "utf8");
    } catch (err) {
      throw new VaultError(`cannot read ${path}: ${describeFsError(err)}`, path, { cause: err });
    }
  }

  async exists(path: string): Promise<boolean> {
    try {
      return (await fs.stat(this.abs(path))).isFile();
    } catch {
      return false;
    }
  }

  async list(folder = ""): Promise<FileStat[]> {
    const out: FileStat[] = [];
    const start = folder ? normalizeVaultPath(folder) : "";
    const walk = async (rel: string): Promise<void> => {
      let entries;
      try {
        entries = await fs.readdir(rel ? this.abs(rel) : this.root, { withFileTypes: true });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ENOENT") return;
        throw new VaultError(`cannot list ${rel || "."}: ${describeFsError(err)}`, rel, { cause: err });
      }
      for (const entry of entries) {
        if (entry.name.startsWith(".")) continue;
        const child = rel ? `${rel}/${entry.name}` : entry.name;
        if (entry.isDirectory()) await walk(child);
        else if (entry.isFile() && entry.name.toLowerCase().endsWith(".md")) {
          const st = await fs.stat(this.abs(child));
          out.push({ path: child, mtime: st.mtimeMs, size: st.size });
        }
      }
    };
    await walk(start);
    out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return out;
  }

  async process(path: string, fn: ProcessFn): Promise<boolean> {
    const target = this.abs(path);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const current = await readIfExists(target, path);
      const next = fn(current);
      if (next === null || next === current) return false;
      await fs.mkdir(nodePath.dirname(target), { recursive: true }).catch((err: unknown) => {
        throw new VaultError(`cannot create folder for ${path}: ${describeFsError(err)}`, path, { cause: err });
      });
      const tmp = `${target}.${randomBytes(4).toString("hex")}.tmp`;
      try {
        await fs.writeFile(tmp, next, "utf8");
        if (this.beforeCommit) await this.beforeCommit(path);
        const now = await readIfExists(target, path);
        if (now !== current) {
          // Someone wrote the file meanwhile: apply the edit again on what they wrote.
          await fs.rm(tmp, { force: true });
          continue;
        }
        await fs.rename(tmp, target);
        return true;
      } catch (err) {
        await fs.rm(tmp, { force: true });
        if (err instanceof VaultError) throw err;
        throw new VaultError(`cannot write ${path}: ${describeFsError(err)}`, path, { cause: err });
      }
    }
    throw new VaultError(`cannot write ${path}: it kept changing during ${MAX_ATTEMPTS} attempts`, path);
  }
}

async function readIfExists(abs: string, path: string): Promise<string | null> {
  try {
    return await fs.readFile(abs, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new VaultError(`cannot read ${path}: ${describeFsError(err)}`, path, { cause: err });
  }
}

function describeFsError(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case "ENOENT":
      return "no such file";
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "EISDIR":
      return "it is a folder";
    default:
      return errorMessage(err);
  }
}
