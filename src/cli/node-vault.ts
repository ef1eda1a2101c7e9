/**
 * NodeVault: {@link VaultPort} over the file system, for the CLI and tests (DESIGN §6).
 * `process` writes a temporary file beside the target and renames it over the target; when the
 * file changed on disk between the read and the rename, it reads again and re-applies the edit
 * function, so a concurrent writer's change is never overwritten (case 07).
 * The rename must not change what the user set up: a symlinked note is edited at its real target
 * (the link stays a link), the file keeps its mode (a private 600 note stays 600) and, where the
 * process may, its owner; a file the user cannot write is refused rather than replaced.
 *
 * `read`, `exists` and `list` use the synchronous file-system calls: a CLI has nothing else to do
 * while it waits, and for small notes they are 2–4× faster than `fs.promises` (10k notes on this
 * machine: read 0.46 s against 0.88 s 16 at a time, stat 0.09 s against 0.38 s all at once).
 */
import { constants as fsConstants, promises as fs, readdirSync, readFileSync, statSync, type Dirent, type Stats } from "node:fs";
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

  read(path: string): Promise<string> {
    try {
      return Promise.resolve(readFileSync(this.abs(path), "utf8"));
    } catch (err) {
      return Promise.reject(new VaultError(`cannot read ${path}: ${describeFsError(err)}`, path, { cause: err }));
    }
  }

  exists(path: string): Promise<boolean> {
    try {
      return Promise.resolve(statSync(this.abs(path)).isFile());
    } catch {
      return Promise.resolve(false);
    }
  }

  list(folder = ""): Promise<FileStat[]> {
    const out: FileStat[] = [];
    const start = folder ? normalizeVaultPath(folder) : "";
    const walk = (rel: string): void => {
      let entries: Dirent[];
      try {
        entries = readdirSync(rel ? this.abs(rel) : this.root, { withFileTypes: true });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ENOENT") return;
        throw new VaultError(`cannot list ${rel || "."}: ${describeFsError(err)}`, rel, { cause: err });
      }
      for (const entry of entries) {
        if (entry.name.startsWith(".")) continue;
        const child = rel ? `${rel}/${entry.name}` : entry.name;
        if (entry.isDirectory()) walk(child);
        else if (entry.isFile() && entry.name.toLowerCase().endsWith(".md")) {
          const st = statOrNull(this.abs(child)); // deleted meanwhile: not listed
          if (st) out.push({ path: child, mtime: st.mtimeMs, size: st.size });
        }
      }
    };
    try {
      walk(start);
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return Promise.resolve(out);
  }

  /**
   * Atomic read–modify–write (VaultPort.process, DESIGN §8). Returns true when the file was written.
   * Throws {@link VaultError} naming `path` when it cannot be read or written ("permission denied"
   * for a file the user may not write), or when it kept changing during {@link MAX_ATTEMPTS} tries.
   */
  async process(path: string, fn: ProcessFn): Promise<boolean> {
    const target = this.abs(path);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      // Resolved on every attempt: the link may be re-pointed between two attempts.
      const real = await resolveTarget(target, path);
      const current = await readIfExists(real, path);
      const next = fn(current);
      if (next === null || next === current) return false;
      const original = current === null ? null : await statIfExists(real, path);
      if (original) await assertWritable(real, path);
      await fs.mkdir(nodePath.dirname(real), { recursive: true }).catch((err: unknown) => {
        throw new VaultError(`cannot create folder for ${path}: ${describeFsError(err)}`, path, { cause: err });
      });
      const tmp = nodePath.join(nodePath.dirname(real), `.${nodePath.basename(real)}.${randomBytes(4).toString("hex")}.tmp`);
      try {
        await fs.writeFile(tmp, next, { encoding: "utf8", flag: "wx" });
        if (original) await keepOwnership(tmp, original);
        if (this.beforeCommit) await this.beforeCommit(path);
        const now = await readIfExists(real, path);
        if (now !== current) {
          // Someone wrote the file meanwhile: apply the edit again on what they wrote.
          await fs.rm(tmp, { force: true });
          continue;
        }
        await fs.rename(tmp, real);
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

/** Symlinks followed before giving up, as the kernel's own limit (ELOOP) would. */
const MAX_LINKS = 40;

/**
 * The file `process` must replace: `abs` itself, or for a symlink the file it finally points to, so
 * the rename lands on the real file and the link survives. A dangling link resolves to the path it
 * names (the edit creates that file). Throws {@link VaultError} for a link loop.
 */
async function resolveTarget(abs: string, path: string): Promise<string> {
  let current = abs;
  for (let hop = 0; hop <= MAX_LINKS; hop++) {
    let st;
    try {
      st = await fs.lstat(current);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return current;
      throw new VaultError(`cannot read ${path}: ${describeFsError(err)}`, path, { cause: err });
    }
    if (!st.isSymbolicLink()) return hop === 0 ? current : await fs.realpath(current).catch(() => current);
    current = nodePath.resolve(nodePath.dirname(current), await fs.readlink(current));
  }
  throw new VaultError(`cannot write ${path}: too many symbolic links`, path);
}

async function statIfExists(abs: string, path: string): Promise<Stats | null> {
  try {
    return await fs.stat(abs);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new VaultError(`cannot read ${path}: ${describeFsError(err)}`, path, { cause: err });
  }
}

/**
 * Refuses to replace a file the user may not write. The rename only needs the folder to be
 * writable, so without this check a read-only (444) note would silently be overwritten.
 * Root passes every access check, as it would for a direct write.
 */
async function assertWritable(abs: string, path: string): Promise<void> {
  try {
    await fs.access(abs, fsConstants.W_OK);
  } catch (err) {
    throw new VaultError(`cannot write ${path}: ${describeFsError(err)}`, path, { cause: err });
  }
}

/**
 * Gives the temporary file the replaced file's permission bits and, when the process may (root),
 * its owner, so the rename leaves both as they were. A failed chown is not an error: an ordinary
 * user can only own the files they write, as with any editor that saves by rename.
 */
async function keepOwnership(tmp: string, original: Stats): Promise<void> {
  await fs.chmod(tmp, original.mode & 0o7777);
  const uid = process.getuid?.();
  const gid = process.getgid?.();
  if (uid === undefined || (uid === original.uid && gid === original.gid)) return;
  await fs.chown(tmp, original.uid, original.gid).catch(() => undefined);
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

/** `statSync`, or `null` when the file cannot be stat'ed (deleted meanwhile, no permission). */
function statOrNull(abs: string): Stats | null {
  try {
    return statSync(abs);
  } catch {
    return null;
  }
}
