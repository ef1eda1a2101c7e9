// A journal whose frontmatter is a YAML list or a single value, through the built CLI on a real
// vault made by `agent-memory init`
// (docs/decisions.md, "Frontmatter that is a YAML list or a single value is never wrapped"):
// extract refuses it with one line and writes nothing; health and search read the note as having no
// fields.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cliRun } from "../helpers/cli-run";
import { tempVault } from "../helpers/temp-vault";

const J = "Memory/Agents/me/Journal/2026-11-27.md";
const BODY =
  "# 2026-11-27\n\n- [ ] Renew passport\nDecision: audit the home page before the blog\nLearned: bounce rate matters more than the framework\n";

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

/** Every file of the vault: its bytes (base64) and mtime. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const p = join(e.parentPath, e.name);
    out[p] = `${statSync(p).mtimeMs}:${readFileSync(p).toString("base64")}`;
  }
  return out;
}

describe("extract from a journal whose frontmatter is not a mapping (CLI)", () => {
  for (const [label, frontmatter, what] of [
    ["a YAML list", "---\n- a\n- b\n---\n", "a YAML list"],
    ["a single value", "---\nhello\n---\n", "a single YAML value"],
  ] as const) {
    it(`${label}: exit 2 with one line naming the file, and every file of the vault unchanged`, () => {
      const t = tempVault();
      cleanup = t.cleanup;
      expect(cliRun("init", t.root).code).toBe(0);
      t.write(J, frontmatter + BODY);
      const before = snapshot(t.root);
      expect(Object.keys(before).some((p) => p.endsWith("Trackers/Tasks.md"))).toBe(true);

      for (const args of [[], ["--dry-run"], ["--force", "--json"]]) {
        const r = cliRun("extract", t.root, J, ...args);
        expect(r.code).toBe(2);
        expect(r.stderr).toBe(
          `agent-memory extract: ${J}: frontmatter is ${what}, not a mapping of fields; nothing written\n`,
        );
        expect(r.stdout).toBe("");
      }
      expect(snapshot(t.root)).toEqual(before);

      // Health reports the note and search reads it as body, without fields; neither fails on it.
      const health = cliRun("health", t.root, "--json");
      expect(health.stderr).toBe("");
      expect([0, 1]).toContain(health.code);
      expect(health.stdout).toContain("not a YAML mapping");
      const search = cliRun("search", t.root, "passport", "--json");
      expect(search.code).toBe(0);
      expect(search.stdout).toContain(J);
    });
  }
});
