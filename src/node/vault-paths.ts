/**
 * Real paths stay inside the vault (docs/write-safety.md, "Inside the vault"). Every note the CLI
 * (or a later server) reads or writes is resolved to its real path, symbolic links and junctions
 * followed as the operating system would; a path whose real location leaves the vault is refused
 * with a {@link PathError} that names the link and where it points. A link whose target is inside
 * the vault is fine: the edit lands on the target and the link stays a link.
 */
import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import * as nodePath from "node:path";
import { PathError, VaultError } from "../core/errors";
import { normalizeVaultPath } from "../core/layout";

/** Symlinks followed before giving up, as the kernel's own limit (ELOOP) would. */
const MAX_LINKS = 40;

export class VaultPaths {
  /** Absolute path of the vault folder as given (not resolved). */
  readonly root: string;
  private realRootCache: string | null = null;

  constructor(root: string) {
    this.root = nodePath.resolve(root);
  }

  /** The vault folder's real path (resolved once; the vault folder itself may be a link). */
  get realRoot(): string {
    this.realRootCache ??= realpathOr(this.root);
    return this.realRootCache;
  }

  /** Absolute path of a vault path, without resolving links. Throws PathError for `..` or absolute paths. */
  abs(path: string): string {
    const normal = normalizeVaultPath(path);
    return normal === "" ? this.root : nodePath.join(this.root, ...normal.split("/"));
  }

  /** True when the absolute, resolved `real` is the vault folder or below it. */
  contains(real: string): boolean {
    const rel = nodePath.relative(this.realRoot, real);
    return (
      rel === "" ||
      (!rel.startsWith(`..${nodePath.sep}`) && rel !== ".." && !nodePath.isAbsolute(rel))
    );
  }

  /**
   * The real path of vault path `path`: every link on the way resolved, including a dangling link
   * at the end (the file it names is what a write creates), and missing folders kept as named.
   * @throws {@link PathError} when the real path is outside the vault, naming the link and its target
   * @throws {@link VaultError} for a loop of links
   */
  resolve(path: string): string {
    const real = resolveReal(this.abs(path), path);
    if (!this.contains(real)) throw this.escape(path, real);
    return real;
  }

  /** The error for `path`, whose real path `real` is outside the vault: names the first link on the way. */
  private escape(path: string, real: string): PathError {
    const parts = normalizeVaultPath(path).split("/");
    let current = this.root;
    for (let i = 0; i < parts.length; i++) {
      current = nodePath.join(current, parts[i] ?? "");
      let target: string | null = null;
      try {
        if (lstatSync(current).isSymbolicLink()) target = readlinkSync(current);
      } catch {
        // A missing part ends the walk: what follows cannot be a link yet.
        break;
      }
      if (target !== null) {
        const link = parts.slice(0, i + 1).join("/");
        return new PathError(
          `${link} is a symbolic link to ${target}, outside the vault (${real}); refused: nothing is read or written outside the vault`,
          path,
        );
      }
    }
    return new PathError(
      `${path} resolves to ${real}, outside the vault; refused: nothing is read or written outside the vault`,
      path,
    );
  }
}

/** `realpathSync.native`, or the path itself when it cannot be resolved (a vault folder not made yet). */
function realpathOr(abs: string): string {
  try {
    return realpathSync.native(abs);
  } catch {
    // Named case in the TSDoc above: a folder not made yet is its own real path.
    return abs;
  }
}

/**
 * Resolves `abs` as the kernel would for a create: existing parts through `realpath`, a dangling
 * link at the end through its target, missing parts appended as they are.
 */
function resolveReal(abs: string, path: string, hops = 0): string {
  if (hops > MAX_LINKS) throw new VaultError(`cannot use ${path}: too many symbolic links`, path);
  try {
    return realpathSync.native(abs);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ELOOP")
      throw new VaultError(`cannot use ${path}: too many symbolic links`, path, { cause: err });
    if (code !== "ENOENT" && code !== "ENOTDIR")
      throw new VaultError(`cannot use ${path}: ${(err as Error).message}`, path, { cause: err });
  }
  let st;
  try {
    st = lstatSync(abs);
  } catch {
    // Missing: a dangling path, resolved below as the file a write would create.
    st = null;
  }
  if (st?.isSymbolicLink())
    return resolveReal(nodePath.resolve(nodePath.dirname(abs), readlinkSync(abs)), path, hops + 1);
  const parent = nodePath.dirname(abs);
  if (parent === abs) return abs;
  return nodePath.join(resolveReal(parent, path, hops), nodePath.basename(abs));
}
