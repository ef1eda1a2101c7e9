// Health check over the seeded fixture vault (docs/architecture.md, "The health check"): one defect
// per rule beside clean notes; each defect reported once with the right rule and path; bad YAML
// left byte for byte.
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NodeVault } from "../../../src/node/node-vault";
import { MemoryLayout } from "../../../src/core/layout";
import { parseSettings, usableSettings, type Settings } from "../../../src/core/settings";
import {
  HEALTH_RULES,
  healthReportPath,
  LINK_OUT_FIX,
  NOT_UTF8_FIX,
  renderHealthReport,
  renderHealthText,
  runHealthCheck,
  toHealthJson,
  writeHealthReport,
  type HealthReport,
} from "../../../src/core/health";
import { applyPlan, planExtraction } from "../../../src/core/extraction/pipeline";
import { OfflineExtractor } from "../../../src/core/extraction/offline";
import { tempVault } from "../../helpers/temp-vault";

const FIXTURE = fileURLToPath(new URL("../../fixtures/health-vault", import.meta.url));
const SETTINGS = JSON.parse(
  readFileSync(
    fileURLToPath(new URL("../../fixtures/health-vault.settings.json", import.meta.url)),
    "utf8",
  ),
) as unknown;
const TODAY = "2026-06-01";
const NOW = Date.parse("2026-06-01T12:00:00Z");
const NOW_ISO = "2026-06-01T12:00:00Z";

const K = "Memory/Agents/ada/Knowledge";
/** Every seeded defect: rule, path, line. Nothing else may be reported. */
const EXPECTED: [string, string, number | undefined][] = [
  ["frontmatter-invalid", `${K}/learning/Bad yaml.md`, 6],
  ["unquoted-wikilink", `${K}/learning/Case 04 wikilinks.md`, 2],
  ["unquoted-wikilink", `${K}/learning/Case 04 wikilinks.md`, 3],
  ["frontmatter-not-mapping", "Memory/Agents/ada/Journal/2026-05-22.md", 1],
  // The note of "case 03: …" has no frontmatter at all; a journal needs no fields by default
  // (docs/decisions.md, "Required fields per collection").
  ["required-field-missing", `${K}/learning/Missing status.md`, 1],
  // `aliases: No status, Status missing` reads as one text
  // (docs/decisions.md, "Required fields per collection").
  ["misread-value", `${K}/learning/Missing status.md`, 6],
  ["wrong-type", `${K}/learning/Wrong date.md`, 6],
  ["broken-link", `${K}/strategy/Broken related.md`, 9],
  ["duplicate-id", "Memory/Library/Ops/Release checklist.md", 2],
  ["missing-source-block", "Memory/Agents/ada/Trackers/Tasks.md", 11],
  ["stale-draft", `${K}/team/Hiring plan.md`, 5],
  ["stale-knowledge", `${K}/strategy/Pricing experiments.md`, undefined],
  // The same note, found by the block-level rule (docs/compaction.md).
  ["may-be-stale", `${K}/strategy/Pricing experiments.md`, undefined],
  ["expired", "Memory/Library/Ops/Vendor contract.md", 7],
  ["over-size-cap", "Memory/Library/Ops/Meeting log archive.md", undefined],
  ["review-due", "Memory/Agents/ada/Trackers/Reviews.md", 10],
  // A second `due` as Tasks appends it
  // (docs/decisions.md, "Tracker line order follows Tasks' reader").
  ["duplicate-field", "Memory/Agents/ada/Trackers/Tasks.md", 13],
  // 800 GB after 500 GB a month, neither superseded (docs/contradictions.md).
  ["unresolved-contradiction", "Memory/Library/Ops/Vendor contract.md", 18],
  // A merge that stopped on the note (docs/sync.md, "Without the driver").
  ["conflict-markers", `${K}/learning/Bad yaml.md`, 12],
  // Remote, then in person: a change or a second review, the statement rule cannot tell.
  ["possible-change", "Memory/Library/Ops/Vendor contract.md", 24],
];

function listFiles(root: string, rel = ""): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(root, rel), { withFileTypes: true })) {
    const child = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...listFiles(root, child));
    else out.push(child);
  }
  return out.sort();
}

let root = "";
let vault: NodeVault;
let settings: Settings;
let layout: MemoryLayout;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "am-health-"));
  cpSync(FIXTURE, root, { recursive: true });
  vault = new NodeVault(root);
  const parsed = parseSettings(SETTINGS);
  expect(parsed.ok).toBe(true);
  settings = usableSettings(parsed);
  layout = new MemoryLayout(settings);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

async function check(): Promise<HealthReport> {
  return runHealthCheck(vault, layout, settings, { today: TODAY, nowMs: NOW });
}

describe("health check on the seeded fixture vault", () => {
  it("reports each seeded defect once, with the right rule, path and line, and nothing else", async () => {
    const report = await check();
    const found = [...report.errors, ...report.warnings].map(
      (p) => [p.rule, p.path, p.line] as const,
    );
    expect([...found].sort()).toEqual([...EXPECTED].sort());
  });

  it("covers every rule of the catalogue", async () => {
    // The one rule the fixture cannot hold as text: a note that is not UTF-8.
    writeFileSync(
      join(root, "Memory/Agents/ada/Journal/2026-05-21.md"),
      Buffer.from("# Caf\xe9\n", "latin1"),
    );
    // What a sync leaves (docs/sync.md, "Reconcile"): a conflict copy, a merge's choice.
    mkdirSync(join(root, "Memory/Agents/ada/Trackers"), { recursive: true });
    writeFileSync(
      join(root, "Memory/Agents/ada/Trackers/Tasks.sync-conflict-20261201-101500-ABCDEFG.md"),
      "---\ntype: tracker\nkind: tasks\nagent: ada\n---\n- [ ] Send it ^t-k3f9x2m7qa\n" +
        '    - Merge: kept "Send it" over "Send" (text)\n',
    );
    const report = await check();
    const rules = new Set([...report.errors, ...report.warnings].map((p) => p.rule));
    expect([...rules].sort()).toEqual(HEALTH_RULES.map((r) => r.id).sort());
  });

  it("encodings: a note that is not UTF-8 is an unreadable error naming its first bad byte; the rest is checked as before", async () => {
    const before = await check();
    writeFileSync(
      join(root, "Memory/Agents/ada/Journal/2026-05-21.md"),
      Buffer.from("# Caf\xe9\n", "latin1"),
    );
    const report = await check();
    const unreadable = report.errors.filter((p) => p.rule === "unreadable");
    expect(unreadable).toEqual([
      {
        path: "Memory/Agents/ada/Journal/2026-05-21.md",
        rule: "unreadable",
        severity: "error",
        message:
          "Memory/Agents/ada/Journal/2026-05-21.md is not valid UTF-8 (first bad byte 0xe9 at offset 5); convert it to UTF-8 to use it",
        fix: NOT_UTF8_FIX,
      },
    ]);
    expect(renderHealthText(report)).toContain(`fix: ${NOT_UTF8_FIX}`);
    expect(report.checked).toBe(before.checked + 1);
    expect(report.compliant).toBe(before.compliant);
    expect(report.errors.filter((p) => p.rule !== "unreadable")).toEqual(before.errors);
  });

  it("a note that is a link out of the vault is advised as a link (not followed), not re-encoded", async () => {
    const out = mkdtempSync(join(tmpdir(), "am-health-out-"));
    try {
      writeFileSync(join(out, "outside.md"), "# outside\n");
      symlinkSync(join(out, "outside.md"), join(root, "Memory/Library/Linked.md"));
      const report = await check();
      expect(report.errors.filter((p) => p.rule === "unreadable")).toEqual([
        expect.objectContaining({ path: "Memory/Library/Linked.md", fix: LINK_OUT_FIX }),
      ]);
      const text = renderHealthText(report);
      expect(text).toContain(`fix: ${LINK_OUT_FIX}`);
      expect(LINK_OUT_FIX).toMatch(/does not follow a symbolic link out of the vault/);
      expect(text).not.toMatch(/iconv/);
      expect(renderHealthReport(report, { generatedAt: NOW_ISO })).not.toMatch(/iconv/);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it("gives each finding the severity of its rule", async () => {
    const report = await check();
    for (const p of report.errors)
      expect(HEALTH_RULES.find((r) => r.id === p.rule)?.severity).toBe("error");
    for (const p of report.warnings)
      expect(HEALTH_RULES.find((r) => r.id === p.rule)?.severity).toBe("warning");
  });

  it("counts compliance as the share of memory notes with no error", async () => {
    const report = await check();
    // 23 notes under Memory/ ("Reading list.md" is outside the memory root); 6 of them have errors.
    expect(report.checked).toBe(23);
    expect(report.compliant).toBe(17);
    expect(report.compliance).toBeCloseTo(17 / 23, 10);
    const failing = new Set(report.errors.map((p) => p.path));
    expect(failing.size).toBe(6);
  });

  it("does not report the clean notes", async () => {
    const report = await check();
    const reported = new Set([...report.errors, ...report.warnings].map((p) => p.path));
    for (const clean of [
      "Memory/Agents/ada/Journal/2026-05-20.md",
      "Memory/Agents/ada/Journal/2026-05-28.md",
      `${K}/strategy/Onboarding.md`,
      `${K}/strategy/Old but quiet.md`,
      `${K}/team/Interview questions.md`,
      "Memory/Agents/ada/Trackers/Goals.md",
      "Memory/Agents/ada/Trackers/Decisions.md",
      "Memory/Library/Ops/Deploy checklist.md",
      "Memory/Restricted/Incidents/INC-2026-0001.md",
    ]) {
      expect(reported.has(clean), clean).toBe(false);
    }
  });

  it("case 04: reports both wikilink lines and says to quote them", async () => {
    const report = await check();
    const found = report.errors.filter((p) => p.path.endsWith("Case 04 wikilinks.md"));
    expect(found.map((p) => p.line)).toEqual([2, 3]);
    expect(found[0]?.message).toMatch(/nested list/);
    expect(found[0]?.message).toContain('project: "[[Project Alpha]]"');
    expect(found[1]?.message).toMatch(/invalid YAML/);
    expect(found[1]?.message).toContain('people: ["[[Person A]]", "[[Person B]]"]');
  });

  it("case 03: a horizontal rule note is a warning, not a parse error, and its text is body", async () => {
    const report = await check();
    const found = [...report.errors, ...report.warnings].filter((p) =>
      p.path.endsWith("2026-05-22.md"),
    );
    expect(found.map((p) => p.rule).sort()).toEqual(["frontmatter-not-mapping"]);
  });

  it("a note with bad YAML is reported and left byte for byte unchanged, like every other note", async () => {
    const before = new Map(listFiles(root).map((f) => [f, readFileSync(join(root, f))]));
    const mtimes = new Map(listFiles(root).map((f) => [f, statSync(join(root, f)).mtimeMs]));
    const report = await check();
    expect(
      report.errors.some((p) => p.path.endsWith("Bad yaml.md") && p.rule === "frontmatter-invalid"),
    ).toBe(true);
    await writeHealthReport(vault, layout, report, { generatedAt: "2026-06-01T12:00:00Z" });
    const after = listFiles(root);
    expect(after).toEqual([...before.keys(), "Memory/Health report.md"].sort());
    for (const [f, bytes] of before) {
      expect(readFileSync(join(root, f)).equals(bytes), f).toBe(true);
      expect(statSync(join(root, f)).mtimeMs, f).toBe(mtimes.get(f));
    }
  });

  it("--json shape is exactly {checked, compliant, compliance, errors, warnings}", async () => {
    const json = toHealthJson(await check());
    expect(Object.keys(json)).toEqual(["checked", "compliant", "compliance", "errors", "warnings"]);
    expect(json.compliance).toBe(0.7391);
    for (const p of [...json.errors, ...json.warnings]) {
      expect(
        Object.keys(p).filter((k) => !["path", "rule", "message", "line"].includes(k)),
      ).toEqual([]);
    }
    expect(json.warnings.find((p) => p.rule === "stale-knowledge")).not.toHaveProperty("line");
  });

  it("thresholds are settings: a longer draft limit and a higher size cap silence their rules", async () => {
    settings = usableSettings(parseSettings({ health: { draftDays: 365, staleDays: 400 } }));
    layout = new MemoryLayout(settings);
    const report = await check();
    const rules = new Set([...report.errors, ...report.warnings].map((p) => p.rule));
    expect(rules.has("stale-draft")).toBe(false);
    expect(rules.has("stale-knowledge")).toBe(false);
    expect(rules.has("over-size-cap")).toBe(false);
  });

  it("required fields are a setting, per collection; journals need none by default", async () => {
    settings = usableSettings(
      parseSettings({ ...(SETTINGS as object), health: { requiredFields: ["id", "type"] } }),
    );
    layout = new MemoryLayout(settings);
    expect((await check()).errors.filter((p) => p.rule === "required-field-missing")).toEqual([]);
    settings = usableSettings(
      parseSettings({
        ...(SETTINGS as object),
        health: { requiredFields: ["id", "type"], requiredFieldsBy: { journal: ["id"] } },
      }),
    );
    layout = new MemoryLayout(settings);
    const missing = (await check()).errors.filter((p) => p.rule === "required-field-missing");
    expect(missing.map((p) => [p.path, p.message])).toEqual([
      ["Memory/Agents/ada/Journal/2026-05-22.md", "No frontmatter; required fields missing: id."],
    ]);
    settings = usableSettings(
      parseSettings({ ...(SETTINGS as object), health: { requiredFieldsBy: { knowledge: [] } } }),
    );
    layout = new MemoryLayout(settings);
    expect((await check()).errors.filter((p) => p.rule === "required-field-missing")).toEqual([]);
  });

  it("staleness and expiry are relative to the day of the run", async () => {
    const report = await runHealthCheck(vault, layout, settings, {
      today: "2026-01-15",
      nowMs: Date.parse("2026-01-15T12:00:00Z"),
    });
    const rules = new Set([...report.errors, ...report.warnings].map((p) => p.rule));
    expect(rules.has("expired")).toBe(false);
    expect(rules.has("stale-draft")).toBe(false);
    expect(rules.has("review-due")).toBe(false);
  });
});

describe("the extractor and the health check agree", () => {
  it("hand-written journals and the notes extraction writes from them have no error", async () => {
    const journal = "Memory/Agents/ada/Journal/2026-05-20.md";
    const t = tempVault({
      [journal]:
        "# Monday\n\n- [ ] Send the pricing memo\nDecision: publish weekly [topic:: Cadence]\nLearned: short posts get read\nGoal: a weekly newsletter\n",
      "Memory/Agents/ada/Journal/2026-05-21.md": "Just notes, no frontmatter at all.\n",
    });
    try {
      const s = usableSettings(parseSettings({}));
      const l = new MemoryLayout(s);
      const now = () => new Date("2026-05-20T10:00:00Z");
      const plan = await planExtraction({
        vault: t.vault,
        settings: s,
        layout: l,
        journalPath: journal,
        extractor: new OfflineExtractor(),
        now,
      });
      expect(plan.items.length).toBeGreaterThanOrEqual(4);
      await applyPlan(t.vault, l, plan, now);
      const report = await runHealthCheck(t.vault, l, s, {
        today: "2026-05-21",
        nowMs: Date.parse("2026-05-21T12:00:00Z"),
      });
      expect(report.checked).toBeGreaterThanOrEqual(6);
      expect(report.errors).toEqual([]);
      expect(report.compliance).toBe(1);
    } finally {
      t.cleanup();
    }
  });
});

describe("health report note", () => {
  it("is written at the memory root and regenerated in place, never duplicated", async () => {
    const report = await check();
    const first = await writeHealthReport(vault, layout, report, {
      generatedAt: "2026-06-01T12:00:00Z",
    });
    expect(first).toEqual({ path: "Memory/Health report.md", written: true });
    const second = await writeHealthReport(vault, layout, report, {
      generatedAt: "2026-06-02T08:00:00Z",
    });
    expect(second.path).toBe(first.path);
    expect(listFiles(join(root, "Memory")).filter((f) => /health/i.test(f))).toEqual([
      "Health report.md",
    ]);
    const text = readFileSync(join(root, first.path), "utf8");
    expect(text).toContain("created_at: 2026-06-01T12:00:00Z");
    expect(text).toContain("updated_at: 2026-06-02T08:00:00Z");
    // The report note itself is not a memory note the check counts.
    expect((await check()).checked).toBe(23);
  });

  it("never overwrites a person's note that happens to have the report's name", async () => {
    const mine = "---\ntype: knowledge\n---\nMy own health notes.\n";
    await vault.process(healthReportPath(layout), () => mine);
    await expect(
      writeHealthReport(vault, layout, await check(), { generatedAt: "x" }),
    ).rejects.toThrow(/not a health report/);
    expect(readFileSync(join(root, "Memory/Health report.md"), "utf8")).toBe(mine);
  });

  it("renders counts per rule, compliance and a row per finding linking the note and line", async () => {
    const report = await check();
    const md = renderHealthReport(report, {
      generatedAt: "2026-06-01T12:00:00Z",
      lineLink: (p, l) => `obsidian://agent-memory-open?path=${encodeURIComponent(p)}&line=${l}`,
    });
    expect(md).toMatch(/^---\nid: health-report\ntype: health-report\n/);
    expect(md).toContain("**Compliance 73.9%**: 17 of 23 memory notes have no error.");
    expect(md).toContain("| [[#unquoted-wikilink\\|unquoted-wikilink]] | error | 2 |");
    expect(md).toContain("| [[#over-size-cap\\|over-size-cap]] | warning | 1 |");
    expect(md).toContain("| [[#frontmatter-invalid\\|frontmatter-invalid]] | error | 1 |");
    // Row: link to the note (to the block when the finding names one) and to the line.
    expect(md).toContain(
      "| [[Memory/Agents/ada/Trackers/Reviews#^r-001\\|Reviews]] | [10](obsidian://agent-memory-open?path=Memory%2FAgents%2Fada%2FTrackers%2FReviews.md&line=10) |",
    );
    // A broken link in a message is shown as code, so clicking the report never creates the missing note.
    expect(md).toContain("related_to `[[No such topic]]` resolves to nothing");
    expect(md).not.toMatch(/[^`]\[\[No such topic\]\][^`]/);
  });

  it("renders the same report to the same text", async () => {
    const a = renderHealthReport(await check(), { generatedAt: "t" });
    const b = renderHealthReport(await check(), { generatedAt: "t" });
    expect(a).toBe(b);
  });
});
