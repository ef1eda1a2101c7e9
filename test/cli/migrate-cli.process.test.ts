// Issue 15: `agent-memory migrate <vault> [--apply]` through the built CLI, on the sample vault as
// it was before the tracker line format (its lines written back the old way).
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { sampleVaultCopy } from "../helpers/temp-vault";

const root = fileURLToPath(new URL("../..", import.meta.url));
const cli = join(root, "dist", "cli.js");
const TASKS = "Memory/Agents/link/Trackers/Tasks.md";
const OLD =
  "- [/] Get the top-10 pages by traffic and bounce rate [priority:: 2] [kind:: act] [created:: 2026-11-02] [source:: [[2026-11-02#^am-k3f9]]] ^t-001";
const NEW =
  "- [/] Get the top-10 pages by traffic and bounce rate [kind:: act] [source:: [[2026-11-02#^am-k3f9]]] [priority:: medium] [created:: 2026-11-02] ^t-001";

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

function run(...args: string[]) {
  const res = spawnSync(process.execPath, [cli, ...args], { encoding: "utf8" });
  return { code: res.status, out: res.stdout, err: res.stderr };
}

describe("agent-memory migrate", () => {
  it("dry run first (exit 1, nothing written), --apply rewrites only the listed lines, then nothing is left to do", () => {
    const copy = sampleVaultCopy();
    cleanup = copy.cleanup;
    const path = join(copy.root, TASKS);
    const current = readFileSync(path, "utf8");
    expect(current).toContain(NEW);
    const old = current.replace(NEW, OLD);
    writeFileSync(path, old);

    const dry = run("migrate", copy.root);
    expect(dry.code).toBe(1);
    expect(dry.out).toContain(`    - ${OLD}\n    + ${NEW}\n`);
    expect(dry.out).toContain(
      "1 line in 1 tracker note would change; run again with --apply to write them",
    );
    expect(readFileSync(path, "utf8")).toBe(old);

    const json = run("migrate", copy.root, "--json");
    expect(JSON.parse(json.out)).toEqual({
      applied: false,
      lines: 1,
      notes: [
        {
          path: TASKS,
          changes: [{ line: 13, before: OLD, after: NEW }],
          lostIds: [],
          skipped: null,
        },
      ],
    });

    const applied = run("migrate", copy.root, "--apply");
    expect(applied).toMatchObject({ code: 0, err: "" });
    expect(applied.out).toContain("rewrote 1 line in 1 tracker note");
    expect(readFileSync(path, "utf8")).toBe(current);

    expect(run("migrate", copy.root)).toMatchObject({
      code: 0,
      out: "tracker lines are in the current format (7 tracker notes checked)\n",
    });
  }, 30_000);
});
