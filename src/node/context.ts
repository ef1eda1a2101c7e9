/**
 * What every CLI command gets: the vault, its settings and output streams (docs/architecture.md,
 * "The CLI contract").
 */
import { promises as fs, statSync } from "node:fs";
import * as nodePath from "node:path";
import { MemoryLayout } from "../core/layout";
import { parseSettings, usableSettings, type Settings } from "../core/settings";
import { UsageError } from "../core/errors";
import { NodeVault } from "./node-vault";
import { resolveVaultArg, shownVault } from "./vault-arg";
import type { LockOptions } from "./note-lock";
import type { OpenReport, SearchService } from "../core/search/search-service";

/**
 * A search index a server keeps open (docs/mcp.md, "One-shot searches through a running server"):
 * `search` asks it instead of opening the saved index. It throws when it will not serve this
 * context (another vault, other settings); the server then lets the CLI run on its own.
 */
export interface WarmSearch {
  open(ctx: CliContext): Promise<{ service: SearchService; report: OpenReport }>;
  /**
   * The server's time slicer for the run's vault reads (`NodeVaultOptions.slice`), so a long
   * served run (a brief at 50k notes) lets the server's other requests in.
   */
  slice?: () => Promise<void>;
}

export interface CliContext {
  /** Absolute path of the vault. */
  vaultRoot: string;
  /**
   * The vault argument as the user typed it (for messages); what a command prints names the vault
   * by its `shownVault` (src/node/vault-arg.ts).
   */
  vaultArg: string;
  /** The folder the command was run in: a relative vault argument was taken from it. */
  cwd?: string;
  vault: NodeVault;
  settings: Settings;
  /** Where the settings came from (`data.json` path), or `null` for defaults. */
  settingsSource: string | null;
  layout: MemoryLayout;
  env: NodeJS.ProcessEnv;
  /** Writes a line to stdout. */
  out: (line: string) => void;
  /** Writes a line to stderr. */
  err: (line: string) => void;
  /** A server's open search index, when a server runs this command (docs/mcp.md). */
  warm?: WarmSearch;
  /**
   * `false`: notes left out because they cannot be read (not UTF-8, a link out of the vault), and
   * folders skipped as links out of the vault, are not named on stderr. The hooks' read-only events (src/cli/hook-read.ts): `index`, `search`,
   * `health` and the server's log name them, and a hook's stderr is kept for its own problems, so
   * a served hook's output stays the CLI's (docs/agents.md, "The automatic loop").
   */
  namesLeftOut?: boolean;
}

/**
 * Finds the plugin's `data.json` in the vault's config folder: `.obsidian` or any other dot-folder
 * holding `plugins/agent-memory/data.json` (Obsidian lets a vault rename its config folder).
 */
export async function findSettingsFile(vaultRoot: string): Promise<string | null> {
  const candidates = [".obsidian"];
  try {
    for (const e of await fs.readdir(vaultRoot, { withFileTypes: true })) {
      if (e.isDirectory() && e.name.startsWith(".") && e.name !== ".obsidian")
        candidates.push(e.name);
    }
  } catch {
    // An unreadable vault folder has no config folder to find; the caller reports the vault itself.
    return null;
  }
  for (const dir of candidates) {
    const file = nodePath.join(vaultRoot, dir, "plugins", "agent-memory", "data.json");
    try {
      await fs.access(file);
      return file;
    } catch {
      // try the next folder
    }
  }
  return null;
}

/**
 * Builds the context for a vault folder (`vaultArg` resolved by {@link resolveVaultArg}: `~/…` is
 * the home folder, anything else relative to `io.cwd`). Throws {@link UsageError} when the folder does not exist
 * (unless `create`: `init` makes it, with its parents;
 * test/cli/cli.process.test.ts, "init makes a vault folder that does not exist yet …"), is not a folder, or its
 * settings file is not valid JSON. Invalid settings values fall back to defaults with a warning.
 */
export async function openVault(
  vaultArg: string,
  io: {
    out: (line: string) => void;
    err: (line: string) => void;
    env: NodeJS.ProcessEnv;
    cwd?: string;
    warm?: WarmSearch;
    /** The vault's time slicer (`NodeVaultOptions.slice`); a served run's is `warm.slice`. */
    slice?: () => Promise<void>;
    /** {@link CliContext.namesLeftOut}; `false` also keeps folders skipped as links out unnamed. */
    namesLeftOut?: boolean;
  },
  create = false,
): Promise<CliContext> {
  const vaultRoot = resolveVaultArg(vaultArg, io.cwd ?? process.cwd());
  // A missing vault folder (ENOENT and the like) is `null`: created below with `init`, else reported as not found.
  let st = await fs.stat(vaultRoot).catch(() => null);
  if (!st && create) {
    await fs.mkdir(vaultRoot, { recursive: true });
    st = await fs.stat(vaultRoot).catch(() => null);
  }
  if (st && !st.isDirectory()) throw new UsageError(`not a folder: ${vaultArg}`, vaultArg);
  if (!st?.isDirectory()) throw new UsageError(`vault folder not found: ${vaultArg}`, vaultArg);
  const settingsSource = await findSettingsFile(vaultRoot);
  let raw: unknown = undefined;
  if (settingsSource) {
    try {
      raw = JSON.parse(await fs.readFile(settingsSource, "utf8"));
    } catch (err) {
      throw new UsageError(
        `settings file is not valid JSON: ${settingsSource}: ${(err as Error).message}`,
        settingsSource,
      );
    }
  }
  const parsed = parseSettings(raw);
  if (!parsed.ok)
    io.err(`warning: ${settingsSource ?? "settings"}: ${parsed.error.message}; using defaults`);
  const settings = usableSettings(parsed);
  const slice = io.slice ?? io.warm?.slice;
  return {
    vaultRoot,
    vaultArg,
    cwd: io.cwd ?? process.cwd(),
    vault: new NodeVault(vaultRoot, {
      lock: lockOptionsFromEnv(io.env),
      onSkippedLink: (message) => {
        if (io.namesLeftOut !== false) io.err(`warning: ${message}`);
      },
      ...(slice ? { slice } : {}),
    }),
    settings,
    settingsSource,
    layout: new MemoryLayout(settings),
    env: io.env,
    out: io.out,
    err: io.err,
    ...(io.warm ? { warm: io.warm } : {}),
    ...(io.namesLeftOut === false ? { namesLeftOut: false } : {}),
  };
}

/**
 * Lock timings from the environment: `AGENT_MEMORY_LOCK_STALE_MS` (a lock untouched this long was
 * left by a killed process; at least 2,000, default 10,000) and `AGENT_MEMORY_LOCK_WAIT_MS` (how
 * long to wait for a note's lock; default 30,000). For slow network folders and tests.
 * Throws {@link UsageError} for a value that is not a whole number in range.
 */
export function lockOptionsFromEnv(env: NodeJS.ProcessEnv): Partial<LockOptions> {
  const read = (name: string, min: number): number | undefined => {
    const raw = env[name];
    if (raw === undefined || raw === "") return undefined;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min)
      throw new UsageError(
        `${name} must be a whole number of milliseconds, at least ${min} (got "${raw}")`,
        name,
      );
    return n;
  };
  const staleMs = read("AGENT_MEMORY_LOCK_STALE_MS", 2000);
  const waitMs = read("AGENT_MEMORY_LOCK_WAIT_MS", 0);
  return {
    ...(staleMs !== undefined ? { staleMs } : {}),
    ...(waitMs !== undefined ? { waitMs } : {}),
  };
}

/**
 * Resolves a note argument (relative to the vault, absolute inside it, or `~/…` inside it, `~`
 * being the home folder as for the vault argument) to a vault path. A relative argument that
 * names no file in the vault but one inside it from the folder the command runs in (the path a
 * shell completes: `v/Memory/…` for the vault `v`) is taken as that file.
 * Throws {@link UsageError} when it is outside the vault.
 */
export function toVaultPath(ctx: CliContext, arg: string): string {
  // `~/…` is the home folder here too, by the vault argument's rule (shownVault).
  const given = shownVault(arg);
  const inside = (abs: string): string | null => {
    const rel = nodePath.relative(ctx.vaultRoot, abs);
    return rel.startsWith("..") || nodePath.isAbsolute(rel) ? null : rel;
  };
  const rel = inside(nodePath.resolve(ctx.vaultRoot, given));
  if (rel === null) throw new UsageError(`not inside the vault: ${arg}`, arg);
  if (ctx.cwd !== undefined && !nodePath.isAbsolute(given) && !isFile(ctx.vaultRoot, rel)) {
    const fromCwd = inside(nodePath.resolve(ctx.cwd, given));
    if (fromCwd !== null && isFile(ctx.vaultRoot, fromCwd))
      return fromCwd.split(nodePath.sep).join("/");
  }
  return rel.split(nodePath.sep).join("/");
}

/** True when `rel` under `root` is a file now (a link is followed; the read checks where to). */
function isFile(root: string, rel: string): boolean {
  try {
    return statSync(nodePath.join(root, rel)).isFile();
  } catch {
    return false;
  }
}

/**
 * Throws {@link UsageError} when the vault has no memory root folder (`Memory/` by default): the
 * usual cause is a wrong vault path (the memory folder itself, or a parent folder), and every
 * command but `init` would otherwise report "nothing found" or write to a new root.
 */
export async function requireMemoryRoot(ctx: CliContext): Promise<void> {
  const root = ctx.layout.root;
  if (root === "") return;
  // Missing or unreadable: reported just below as "no <root>/ folder".
  const st = await fs.stat(nodePath.join(ctx.vaultRoot, ...root.split("/"))).catch(() => null);
  if (!st?.isDirectory()) {
    throw new UsageError(
      `no ${root}/ folder in ${ctx.vaultRoot}: give the vault folder that holds ${root}/, or create it with: agent-memory init ${ctx.vaultArg}`,
      ctx.vaultRoot,
    );
  }
}
