/**
 * The CLI's staleness cache (src/core/health/stale-cache.ts; docs/decisions.md, "The brief keeps
 * what each note gave the staleness scan"): one file per agent under the vault's `.agent-memory/`,
 * `stale-<agent>.json`, keyed by the build that wrote it.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import * as nodePath from "node:path";
import { randomBytes } from "node:crypto";
import type { StaleCacheStore } from "../core/health/stale-cache";
import { INDEX_DIR } from "./index-store";
import type { NodeVault } from "./node-vault";

declare const __AGENT_MEMORY_BUILD__: string | undefined;

/**
 * The id of the running build: random per `node esbuild.config.mjs` and the same in each of its
 * bundles (esbuild's `define`), so a cache written by other code is never used; `source` when run
 * from the TypeScript sources (tests).
 */
export const BUILD_ID: string =
  typeof __AGENT_MEMORY_BUILD__ === "string" ? __AGENT_MEMORY_BUILD__ : "source";

/**
 * The {@link StaleCacheStore} of `agent` (a plain folder name, as `layout.agentRoot` checks) in
 * `vault`: `<vault>/.agent-memory/stale-<agent>.json`, written to a temporary file and renamed over
 * it, so a reader sees the old cache or the new one. `null` when `.agent-memory` is a link out of
 * the vault (nothing is then kept). Loading and saving never throw: a cache that cannot be read is
 * none, one that cannot be written is not kept.
 */
export function staleCacheFile(vault: NodeVault, agent: string): StaleCacheStore | null {
  let file: string;
  try {
    file = vault.resolve(`${INDEX_DIR}/stale-${agent}.json`);
  } catch {
    return null;
  }
  return {
    key: BUILD_ID,
    load() {
      try {
        return Promise.resolve(readFileSync(file, "utf8"));
      } catch {
        return Promise.resolve(null);
      }
    },
    save(text) {
      const tmp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
      try {
        mkdirSync(nodePath.dirname(file), { recursive: true });
        writeFileSync(tmp, text);
        renameSync(tmp, file);
      } catch {
        // Not kept (a read-only folder, a full disk, `.agent-memory` a file): the temporary file
        // is removed where it was made, and nothing is thrown.
        try {
          rmSync(tmp, { force: true });
        } catch {
          // nothing to remove (its folder is not one)
        }
      }
      return Promise.resolve();
    },
  };
}
