// Two processes saving one vault's index at once (src/node/index-store.ts, core/search/delta.ts):
// appends and whole rewrites hold the index's lock, so the delta on disk always follows the base on
// disk and reads whole, and a later open finds every note. (Their races are narrow: that the lock
// keeps concurrent appends whole is shown in test/node/index-store.test.ts.)
import { afterEach, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { tempVault } from "../helpers/temp-vault";
import { MemoryLayout } from "../../src/core/layout";
import { defaultSettings } from "../../src/core/settings";
import { SearchService } from "../../src/core/search/search-service";
import { vaultIndexStore } from "../../src/node/index-store";
import { savedIndexId } from "../../src/core/search/persistence";
import { scanDelta } from "../../src/core/search/delta";
import { uniqueWord } from "../helpers/index-save-words";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const WORKER = fileURLToPath(new URL("../helpers/index-save-worker.ts", import.meta.url));
const ROUNDS = 40;

let cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});

function run(
  root: string,
  tag: string,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", WORKER, root, tag, String(ROUNDS)], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, out, err }));
  });
}

describe("two processes saving one index", () => {
  it("never corrupt it: the delta follows the base and reads whole, and every note is found", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 150; i++)
      files[`Memory/Agents/me/Journal/2026-04-${i}.md`] = `# n${i}\n\notter heron ${i}\n`;
    const tv = tempVault(files);
    cleanups.push(tv.cleanup);
    const layout = new MemoryLayout(defaultSettings());
    await new SearchService({ vault: tv.vault, layout, store: vaultIndexStore(tv.vault) }).open();

    const results = await Promise.all([run(tv.root, "p"), run(tv.root, "q")]);
    for (const r of results) {
      expect(r.err).toBe("");
      expect(r.code).toBe(0);
      expect(JSON.parse(r.out)).toEqual({ failed: 0 });
    }

    const store = vaultIndexStore(tv.vault);
    const service = new SearchService({ vault: tv.vault, layout, store });
    // Read before the open, which may save.
    const base = new Uint8Array(readFileSync(store.file));
    const delta = new Uint8Array(readFileSync(store.deltaFile));
    const report = await service.open();
    expect(report.rebuildReason).toBeUndefined();
    expect(report.deltaIgnored).toBeUndefined();
    const head = delta.subarray(16, 16 + new DataView(delta.buffer).getUint32(8, true));
    const key = (JSON.parse(new TextDecoder().decode(head)) as { key: string }).key;
    const scanned = scanDelta(delta, key, savedIndexId(base) ?? "");
    expect(scanned.ok && scanned.value.length).toBe(delta.length);
    for (const tag of ["p", "q"])
      for (let i = 0; i < ROUNDS; i++) {
        const r = await service.search(uniqueWord(tag, i));
        expect(r.ok && r.value.results.map((h) => h.path)).toEqual([
          `Memory/Agents/me/Journal/2026-05-01-${tag}${i}.md`,
        ]);
      }
  });
});
