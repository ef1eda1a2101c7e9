// `agent-memory health` and `agent-memory review` through the CLI entry
// (docs/architecture.md, "The CLI contract", "The health check" and "Review loops").
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main";

const FIXTURE = fileURLToPath(new URL("../fixtures/health-vault", import.meta.url));
const SAMPLE = fileURLToPath(new URL("../../examples/vault", import.meta.url));

let root = "";
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "am-health-cli-"));
  cpSync(FIXTURE, root, { recursive: true });
  // The fixture's thresholds, as the plugin would store them.
  mkdirSync(join(root, ".obsidian/plugins/agent-memory"), { recursive: true });
  cpSync(
    fileURLToPath(new URL("../fixtures/health-vault.settings.json", import.meta.url)),
    join(root, ".obsidian/plugins/agent-memory/data.json"),
  );
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, {
    out: (l) => void out.push(l),
    err: (l) => void err.push(l),
    env: {},
  });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("agent-memory health", () => {
  it("prints findings grouped by rule with the compliance figure, and exits 1 when errors exist", async () => {
    const r = await run("health", root, "--date", "2026-06-01");
    expect(r.code).toBe(1);
    expect(r.out.split("\n")[0]).toBe(
      "23 notes checked on 2026-06-01: compliance 73.9% (17 without errors), 8 errors, 12 warnings",
    );
    expect(r.out).toContain(
      "\nbroken-link (error), 1: related_to or source link that resolves to no note or block\n",
    );
    expect(r.out).toContain("Memory/Agents/ada/Knowledge/strategy/Broken related.md:9");
    expect(r.out).toContain("\nover-size-cap (warning), 1:");
    expect(r.out).toContain("  fix: Quote each wikilink");
    expect(r.err).toBe("");
  });

  it("--json gives exactly {checked, compliant, compliance, errors, warnings}", async () => {
    const r = await run("health", root, "--json", "--date", "2026-06-01");
    expect(r.code).toBe(1);
    const json = JSON.parse(r.out) as Record<string, unknown> & {
      errors: { rule: string; path: string; line?: number }[];
    };
    expect(Object.keys(json)).toEqual(["checked", "compliant", "compliance", "errors", "warnings"]);
    expect(json).toMatchObject({ checked: 23, compliant: 17, compliance: 0.7391 });
    expect(json.errors).toContainEqual({
      path: "Memory/Agents/ada/Knowledge/learning/Case 04 wikilinks.md",
      rule: "unquoted-wikilink",
      message:
        'Unquoted wikilink reads as a nested list, not as a link; quote it: project: "[[Project Alpha]]"',
      line: 2,
    });
  });

  it("exits 0 on a vault with warnings only", async () => {
    const clean = mkdtempSync(join(tmpdir(), "am-health-clean-"));
    try {
      mkdirSync(join(clean, "Memory/Library/Ops"), { recursive: true });
      writeFileSync(
        join(clean, "Memory/Library/Ops/Old.md"),
        "---\nid: a\ntype: library\nstatus: active\ncreated_at: 2025-01-01\nexpires_at: 2025-06-01\n---\n# Old\n",
      );
      const r = await run("health", clean, "--date", "2026-06-01");
      expect(r.code).toBe(0);
      expect(r.out).toContain("compliance 100.0%");
      expect(r.out).toContain("expired (warning), 1");
    } finally {
      rmSync(clean, { recursive: true, force: true });
    }
  });

  it("writes nothing", async () => {
    const before = readFileSync(join(root, "Memory/Agents/ada/Knowledge/learning/Bad yaml.md"));
    await run("health", root, "--date", "2026-06-01");
    expect(
      readFileSync(join(root, "Memory/Agents/ada/Knowledge/learning/Bad yaml.md")).equals(before),
    ).toBe(true);
  });

  it("bad usage exits 2 with a one-line reason", async () => {
    const r = await run("health", root, "--date", "2026-02-30");
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^agent-memory health: --date must be a date YYYY-MM-DD/);
    for (const argv of [
      ["health", root, "extra"],
      ["health", join(root, "missing")],
      ["health", root, "--date"],
      ["health", root, "--bogus"],
    ]) {
      const bad = await run(...argv);
      expect(bad.code).toBe(2);
      expect(bad.out).toBe("");
      expect(bad.err).toMatch(/^agent-memory health: [^\n]+$/);
    }
    expect((await run("health", root, "extra")).err).toBe(
      "agent-memory health: wrong number of arguments (usage: agent-memory health <vault> [--json] [--date YYYY-MM-DD])",
    );
  });

  it("an empty vault argument (an unset AGENT_MEMORY_VAULT) is named as such, not a count", async () => {
    const empty = await run("health", "");
    expect(empty.code).toBe(2);
    expect(empty.err).toMatch(
      /^agent-memory health: the vault argument is empty \(given as "\$AGENT_MEMORY_VAULT"\? that variable is unset or empty\)/,
    );
    const none = await run("health");
    expect(none.err).toMatch(/^agent-memory health: wrong number of arguments/);
  });

  it("the sample vault examples/vault is healthy: no errors, 100% compliance", async () => {
    const r = await run("health", SAMPLE, "--json", "--date", "2026-11-29");
    const json = JSON.parse(r.out) as {
      checked: number;
      compliance: number;
      errors: unknown[];
      warnings: { rule: string }[];
    };
    expect(json.errors).toEqual([]);
    expect(json.compliance).toBe(1);
    expect(json.checked).toBeGreaterThan(20);
    expect(r.code).toBe(0);
  });
});

describe("agent-memory review", () => {
  it("start then done, <vault> first", async () => {
    const start = await run("review", root, "start", "ada", "r-001", "--date", "2026-06-01");
    expect(start.code).toBe(0);
    expect(start.out).toContain("created: Memory/Agents/ada/Journal/2026-06-01 review r-001.md");
    expect(start.out).toContain(
      "period 2026-05-19 to 2026-06-01: 3 journals, 3 knowledge notes updated, 2 open tasks, 1 goals, 1 decisions",
    );
    const done = await run(
      "review",
      root,
      "done",
      "ada",
      "^r-001",
      "--date",
      "2026-06-01",
      "--json",
    );
    expect(done.code).toBe(0);
    expect(JSON.parse(done.out)).toMatchObject({
      action: "done",
      review: "r-001",
      previous: "2026-05-25",
      next: "2026-06-08",
      changed: true,
    });
    expect(readFileSync(join(root, "Memory/Agents/ada/Trackers/Reviews.md"), "utf8")).toContain(
      "[next:: 2026-06-08] ^r-001",
    );
  });

  it("an unknown review, agent or action is bad input: exit 2 with one line naming it and what exists", async () => {
    const before = readFileSync(join(root, "Memory/Agents/ada/Trackers/Reviews.md"), "utf8");
    const missing = await run("review", root, "done", "ada", "r-404", "--date", "2026-06-01");
    expect(missing).toEqual({
      code: 2,
      out: "",
      err: "agent-memory review: no review ^r-404 in Memory/Agents/ada/Trackers/Reviews.md (reviews there: ^r-001, ^r-002)",
    });
    expect((await run("review", root, "start", "ada", "r-404", "--date", "2026-06-01")).code).toBe(
      2,
    );

    const nobody = await run("review", root, "done", "nobody", "r-001", "--date", "2026-06-01");
    expect(nobody).toEqual({
      code: 2,
      out: "",
      err: 'agent-memory review: unknown agent "nobody" (known agents: ada, bo)',
    });

    const action = await run("review", root, "finish", "ada", "r-001");
    expect(action).toEqual({
      code: 2,
      out: "",
      err: 'agent-memory review: the action must be "start" or "done", got "finish"',
    });

    const unsafe = await run("review", root, "start", "../x", "r-001");
    expect(unsafe.code).toBe(2);
    expect(unsafe.err).toMatch(
      /^agent-memory review: invalid agent name: \.\.\/x \(an agent name is its folder's name: letters, digits, spaces and - _ \. are fine; not \/ /,
    );
    expect((await run("review", root, "start", "ada")).code).toBe(2);
    expect(readFileSync(join(root, "Memory/Agents/ada/Trackers/Reviews.md"), "utf8")).toBe(before);
  });

  it("an agent without a reviews tracker, or an item that is not a review, exits 2 saying so", async () => {
    const bo = await run("review", root, "start", "bo", "r-001", "--date", "2026-06-01");
    expect(bo.code).toBe(2);
    expect(bo.err).toMatch(
      /^agent-memory review: agent bo has no reviews tracker: Memory\/Agents\/bo\/Trackers\/Reviews\.md not found$/,
    );
    writeFileSync(
      join(root, "Memory/Agents/ada/Trackers/Reviews.md"),
      `${readFileSync(join(root, "Memory/Agents/ada/Trackers/Reviews.md"), "utf8")}- [ ] Not a review ^t-009\n`,
    );
    const task = await run("review", root, "done", "ada", "t-009", "--date", "2026-06-01");
    expect(task.code).toBe(2);
    expect(task.err).toBe(
      "agent-memory review: ^t-009 in Memory/Agents/ada/Trackers/Reviews.md is not a review (no [every:: …] or [next:: …]) (reviews there: ^r-001, ^r-002)",
    );
  });

  it("a review whose schedule cannot be used still exits 1: the command ran and found a problem", async () => {
    const path = join(root, "Memory/Agents/ada/Trackers/Reviews.md");
    writeFileSync(
      path,
      readFileSync(path, "utf8").replace("[every:: monthly]", "[every:: sometimes]"),
    );
    const r = await run("review", root, "done", "ada", "r-002", "--date", "2026-06-01");
    expect(r.code).toBe(1);
    expect(r.err.split("\n")).toHaveLength(1);
  });
});
