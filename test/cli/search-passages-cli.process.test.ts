// `agent-memory search … --passages N` (docs/architecture.md, "Passages") as users run it: the
// built dist/cli.js spawned on a temporary vault — the JSON shape, one text entry per passage,
// usage errors, isolated zones.
import { afterEach, describe, expect, it } from "vitest";
import { cliRun } from "../helpers/cli-run";
import { tempVault } from "../helpers/temp-vault";

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

const JOURNAL = "Memory/Agents/link/Journal/2026-11-20.md";
const DEPLOYS = "Memory/Library/ops/Deploys.md";
const SECRET = "Memory/Restricted/hr/Rollbacks.md";

function vault(): string {
  const tv = tempVault({
    [DEPLOYS]:
      "# Deploys\n\nRoll back the canary when the canary error rate doubles: canary rollback first, questions later. ^a1\n\nLunch is at noon on Fridays. ^a2\n\nThe release train leaves on Tuesdays.\n",
    [JOURNAL]:
      "---\ntype: journal\n---\nToday the canary rollback worked, canary rollback in two minutes. ^b1\n\nThe coffee machine is broken. ^b2\n\nThe printer is out of toner. ^b3\n\nNext time the rollback starts sooner.\n",
    [SECRET]: "Canary rollback canary rollback canary rollback: the payroll outage. ^s1\n",
  });
  cleanup = tv.cleanup;
  return tv.root;
}

interface PassagesOut {
  query: string;
  scope: string;
  took_ms: number;
  total: number;
  passages: Record<string, unknown>[];
}

describe("agent-memory search --passages", () => {
  it("--json gives {query, scope, took_ms, total, passages}, the best blocks across notes", () => {
    const dir = vault();
    const res = cliRun("search", dir, "canary", "rollback", "--passages", "3", "--json");
    expect(res.code).toBe(0);
    const out = JSON.parse(res.stdout) as PassagesOut;
    expect(Object.keys(out)).toEqual([
      "query",
      "scope",
      "took_ms",
      "total",
      "retrieval",
      "passages",
    ]);
    expect(out).toMatchObject({ query: "canary rollback", scope: "all", total: 2 });
    expect(typeof out.took_ms).toBe("number");
    expect(out.passages).toHaveLength(3);
    expect(out.passages.map((p) => [p.path, p.block_id])).toEqual([
      [JOURNAL, "b1"],
      [DEPLOYS, "a1"],
      [JOURNAL, null],
    ]);
    expect(Object.keys(out.passages[0] ?? {})).toEqual([
      "path",
      "title",
      "block_id",
      "line",
      "heading",
      "text",
      "score",
      "agent",
      "collection",
      "link",
    ]);
    expect(out.passages[0]).toMatchObject({
      title: "2026-11-20",
      line: 4,
      heading: null,
      text: "Today the canary rollback worked, canary rollback in two minutes.",
      agent: "link",
      collection: "journal",
      link: "[[Memory/Agents/link/Journal/2026-11-20#^b1]]",
    });
    // A block without an id: its file line, and a link to the note (it sits under no heading).
    expect(out.passages[2]).toMatchObject({
      line: 10,
      text: "Next time the rollback starts sooner.",
      link: "[[Memory/Agents/link/Journal/2026-11-20]]",
    });
    const scores = out.passages.map((p) => p.score as number);
    expect(scores[0]).toBeGreaterThan(scores[1] ?? Infinity);
    expect(scores[1]).toBeGreaterThan(scores[2] ?? Infinity);
  });

  it("text output: a header, then one numbered entry per passage with its path:line, block id, text and link", () => {
    const dir = vault();
    const res = cliRun("search", dir, "canary rollback", "--passages", "2");
    expect(res.code).toBe(0);
    const lines = res.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^2 passages from 2 matching notes in scope all \(\d+\.\d ms\)$/);
    expect(lines.slice(1)).toEqual([
      "",
      expect.stringMatching(/^1\. 2026-11-20 {2}\[journal, link\] {2}score \d+\.\d\d$/) as unknown,
      `   ${JOURNAL}:4  ^b1`,
      "   Today the canary rollback worked, canary rollback in two minutes.",
      "   link: [[Memory/Agents/link/Journal/2026-11-20#^b1]]",
      "",
      expect.stringMatching(/^2\. Deploys {2}\[library\] {2}score \d+\.\d\d$/) as unknown,
      `   ${DEPLOYS}:3  ^a1`,
      "   Roll back the canary when the canary error rate doubles: canary rollback first, questions later.",
      "   link: [[Memory/Library/ops/Deploys#^a1]]",
    ]);
    expect(cliRun("search", dir, "zzzunknownword", "--passages", "2").stdout).toBe(
      'no passages for "zzzunknownword" in scope all\n',
    );
  });

  it("an isolated zone's passages appear only in its own scope", () => {
    const dir = vault();
    const all = JSON.parse(
      cliRun("search", dir, "canary rollback", "--passages", "50", "--json").stdout,
    ) as PassagesOut;
    expect(all.passages.length).toBeGreaterThan(2);
    expect(all.passages.map((p) => p.path)).not.toContain(SECRET);
    const zone = JSON.parse(
      cliRun(
        "search",
        dir,
        "canary rollback",
        "--passages",
        "50",
        "--scope",
        "Restricted",
        "--json",
      ).stdout,
    ) as PassagesOut;
    expect(zone.passages.map((p) => [p.path, p.block_id])).toEqual([[SECRET, "s1"]]);
  });

  it("a bad count, --passages with --limit or --blocks, or a bad filter exits 2 with one line", () => {
    const dir = vault();
    for (const args of [
      ["--passages", "0"],
      ["--passages", "x"],
      ["--passages", "3", "--limit", "2"],
      ["--passages", "3", "--blocks", "2"],
    ]) {
      const res = cliRun("search", dir, "canary", ...args);
      expect(res.code, args.join(" ")).toBe(2);
      expect(res.stdout).toBe("");
      expect(res.stderr.trimEnd().split("\n")).toHaveLength(1);
    }
    const bad = cliRun("search", dir, "canary colour:red", "--passages", "3");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown filter "colour:"');
  });
});
