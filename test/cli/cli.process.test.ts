// The CLI as users run it: the built dist/cli.js spawned on a temporary vault (docs/testing.md,
// "How the suite is organised").
import { readdirSync, statSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cliRun, cliRunWith } from "../helpers/cli-run";
import { tempVault } from "../helpers/temp-vault";

const J = "Memory/Agents/link/Journal/2026-11-24.md";
const journal = `---
id: journal-link-2026-11-24
type: journal
status: active
created_at: 2026-11-24T18:40:00+08:00
---
# 2026-11-24

## SEO audit

- [ ] Renew passport
Decision: audit the home page before the blog
Learned: bounce rate matters more than the framework
`;

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(p, `${statSync(p).mtimeMs}:${readFileSync(p, "utf8")}`);
    }
  };
  walk(dir);
  return out;
}

function setup(files: Record<string, string> = { [J]: journal }) {
  const t = tempVault(files);
  cleanup = t.cleanup;
  return t;
}

describe("agent-memory CLI", () => {
  it("extract --json reports the run in the documented shape and writes the notes", () => {
    const t = setup();
    const r = cliRun("extract", t.root, J, "--json");
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as Record<string, unknown>;
    for (const key of [
      "journal",
      "agent",
      "extractor",
      "passes",
      "gate",
      "items",
      "rejected",
      "usage",
      "writes",
    ])
      expect(report).toHaveProperty(key);
    expect(report.extractor).toBe("offline");
    expect(report.agent).toBe("link");
    expect(report.gate).toEqual({ fired: [], before: 4, after: 4 });
    const items = report.items as {
      category: string;
      blockId: string;
      destination: string;
      action: string;
      evidence: string;
      confidence: number;
      text: string;
    }[];
    expect(items.map((i) => i.category)).toEqual(["task", "decision", "decision", "knowledge"]);
    for (const i of items) {
      expect(i.blockId).toMatch(/^am-[a-z0-9]{10}$/);
      expect(i.action).toBe("add");
      expect(typeof i.confidence).toBe("number");
    }
    expect(report.writes).toContain("Memory/Agents/link/Trackers/Tasks.md");
    expect(readFileSync(join(t.root, "Memory/Agents/link/Trackers/Tasks.md"), "utf8")).toContain(
      "- [ ] Renew passport",
    );
  });

  it("the wrote line names at most 10 notes and counts the rest; --json lists them all", () => {
    const topics = (n: number) =>
      [
        "# 2026-11-24",
        "",
        ...Array.from({ length: n }, (_, i) => [
          `## Topic${i} area`,
          "",
          `Learned: the topic${i} cache keeps entries for ten minutes.`,
          "",
        ]).flat(),
      ].join("\n");
    // 9 topic notes and the journal: 10 notes, all named.
    const ten = setup({ [J]: topics(9) });
    const wroteTen = /wrote (\d+) note\(s\): (.*)$/m.exec(cliRun("extract", ten.root, J).stdout);
    expect(wroteTen?.[1]).toBe("10");
    expect(wroteTen?.[2]?.split(", ")).toHaveLength(10);
    expect(wroteTen?.[2]).not.toContain("more");
    cleanup?.();
    // 10 topic notes and the journal: 11 notes, 10 named and one counted.
    const json = setup({ [J]: topics(10) });
    const report = JSON.parse(cliRun("extract", json.root, J, "--json").stdout) as {
      writes: string[];
    };
    expect(report.writes).toHaveLength(11);
    cleanup?.();
    const eleven = setup({ [J]: topics(10) });
    const wrote = /wrote (\d+) note\(s\): (.*)$/m.exec(cliRun("extract", eleven.root, J).stdout);
    expect(wrote?.[1]).toBe("11");
    expect(wrote?.[2]).toMatch(/ and 1 more \(--json lists them all\)$/);
    expect(wrote?.[2]?.replace(/ and 1 more.*$/, "").split(", ")).toHaveLength(10);
  });

  it("prints a readable report that says which extractor ran", () => {
    const t = setup();
    const r = cliRun("extract", t.root, J);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/extractor: offline \(no LLM configured/);
    expect(r.stdout).toMatch(/task\s+Renew passport/);
    expect(cliRun("extract", t.root, J).stdout).toMatch(/unchanged since the last extraction/);
  });

  it("--force extracts an unchanged journal again, and its items are already recorded (docs/testing.md)", () => {
    const t = setup();
    expect(cliRun("extract", t.root, J).code).toBe(0);
    type Report = { skipped?: string; items: { action: string }[]; writes: string[] };
    const again = JSON.parse(cliRun("extract", t.root, J, "--json").stdout) as Report;
    expect(again).toMatchObject({ skipped: "unchanged", items: [], writes: [] });
    const before = snapshot(t.root);
    const forced = cliRun("extract", t.root, J, "--force", "--json");
    expect(forced.code).toBe(0);
    const report = JSON.parse(forced.stdout) as Report;
    expect(report.skipped).toBeUndefined();
    expect(report.items.map((i) => i.action)).toEqual(["skip", "skip", "skip", "skip"]);
    expect(report.writes).toEqual([]);
    expect(snapshot(t.root)).toEqual(before);
  });

  it("a decision written to the log and to its topic is printed once, with an arrow per note", () => {
    const t = setup();
    const out = cliRun("extract", t.root, J).stdout;
    expect(out.match(/decision\s+audit the home page before the blog/g)).toHaveLength(1);
    expect(out).toMatch(
      /decision\s+audit the home page before the blog\n\s+→ Memory\/Agents\/link\/Trackers\/Decisions\.md \(new note\)\n\s+→ Memory\/Agents\/link\/Knowledge\/learning\/SEO audit\.md \(new note\)\n/,
    );
  });

  it('says "new note" once per note created, and "added" of the other items written into it', () => {
    const t = setup({
      [J]: journal.replace(
        "- [ ] Renew passport\n",
        "- [ ] Renew passport\n- [ ] Book the dentist\n- [ ] Pay the invoice\n",
      ),
    });
    const out = cliRun("extract", t.root, J).stdout;
    const arrows = out.split("\n").filter((l) => l.includes(" → "));
    expect(arrows.map((l) => l.trim())).toEqual([
      "→ Memory/Agents/link/Trackers/Tasks.md (new note)",
      "→ Memory/Agents/link/Trackers/Tasks.md (added)",
      "→ Memory/Agents/link/Trackers/Tasks.md (added)",
      "→ Memory/Agents/link/Trackers/Decisions.md (new note)",
      "→ Memory/Agents/link/Knowledge/learning/SEO audit.md (new note)",
      "→ Memory/Agents/link/Knowledge/learning/SEO audit.md (added)",
    ]);
    expect(out.match(/\(new note\)/g)).toHaveLength(3);
  });

  it("--dry-run writes nothing", () => {
    const t = setup();
    const before = snapshot(t.root);
    const r = cliRun("extract", t.root, J, "--dry-run", "--json");
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { items: unknown[]; writes: unknown[] }).items.length).toBe(4);
    expect(JSON.parse(r.stdout)).toMatchObject({ writes: [], dryRun: true });
    expect(snapshot(t.root)).toEqual(before);
  });

  it("the plan shows the due date, owner and addressee each item will be written with, as applying writes them", () => {
    const t = setup({
      [J]: "# 2026-11-24\n\n- [ ] @ming review the pricing page 📅 2026-12-05\n\nTODO: renew the TLS certificate, due 2026-12-10, owner: ming\n",
    });
    const plan = cliRun("extract", t.root, J, "--dry-run");
    expect(plan.stdout).toMatch(/task\s+Review the pricing page \(due 2026-12-05, owner ming\)\n/);
    expect(plan.stdout).toMatch(
      /task\s+renew the TLS certificate \(due 2026-12-10, owner ming\)\n/,
    );
    const json = JSON.parse(cliRun("extract", t.root, J, "--dry-run", "--json").stdout) as {
      items: { text: string; due?: string; owner?: string }[];
    };
    expect(json.items.map((i) => [i.text, i.due, i.owner])).toEqual([
      ["Review the pricing page", "2026-12-05", "ming"],
      ["renew the TLS certificate", "2026-12-10", "ming"],
    ]);
    cliRun("extract", t.root, J);
    const tasks = readFileSync(join(t.root, "Memory/Agents/link/Trackers/Tasks.md"), "utf8");
    expect(tasks).toMatch(
      /- \[ \] renew the TLS certificate \[owner:: ming\].*\[due:: 2026-12-10\]/,
    );
  });

  it("an unreadable journal exits 2 with one line on stderr and writes nothing", () => {
    const t = setup();
    const before = snapshot(t.root);
    const r = cliRun("extract", t.root, "Memory/Agents/link/Journal/missing.md");
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/missing\.md/);
    expect(r.stdout).toBe("");
    expect(snapshot(t.root)).toEqual(before);
  });

  it("a journal with bad YAML exits 2 naming it, and nothing is written", () => {
    const t = setup({ [J]: "---\ntitle: [unclosed\n---\n- [ ] Renew passport\n" });
    const before = snapshot(t.root);
    const r = cliRun("extract", t.root, J);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/2026-11-24\.md/);
    expect(snapshot(t.root)).toEqual(before);
  });

  it("bad usage exits 2", () => {
    const t = setup();
    expect(cliRun("frobnicate", t.root).code).toBe(2);
    expect(cliRun("extract", t.root).code).toBe(2);
    expect(cliRun("extract", t.root, J, "--llm", "magic").code).toBe(2);
    expect(cliRun("extract", join(t.root, "nope"), J).code).toBe(2);
    expect(cliRun("trackers", t.root, "--kind", "bogus").code).toBe(2);
    expect(cliRun("extract", t.root, "../outside.md").code).toBe(2);
    // A server prints no JSON: --json is refused before it starts, not ignored.
    for (const cmd of ["serve", "mcp"]) {
      const r = cliRun(cmd, t.root, "--json");
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(
        new RegExp(`^agent-memory ${cmd}: --json is not an option of ${cmd}`),
      );
    }
  });

  it("git setup and git resolve refuse --json, an unknown option and a wrong count by name, as the other commands do; --help prints their usage", () => {
    const t = setup();
    const before = snapshot(t.root);
    for (const sub of ["setup", "resolve"]) {
      const usage = `(usage: agent-memory git ${sub} <vault>)`;
      for (const args of [
        [t.root, "--json"],
        ["--json", t.root],
      ]) {
        const r = cliRun("git", sub, ...args);
        expect(r.code).toBe(2);
        expect(r.stdout).toBe("");
        expect(r.stderr).toBe(
          `agent-memory git ${sub}: --json is not an option of git ${sub} ${usage}\n`,
        );
      }
      expect(cliRun("git", sub, t.root, "--bogus").stderr).toBe(
        `agent-memory git ${sub}: unknown option '--bogus' ${usage}\n`,
      );
      expect(cliRun("git", sub, t.root, "extra").stderr).toBe(
        `agent-memory git ${sub}: wrong number of arguments ${usage}\n`,
      );
      expect(cliRun("git", sub, "").stderr).toMatch(
        new RegExp(`^agent-memory git ${sub}: the vault argument is empty`),
      );
      const help = cliRun("git", sub, t.root, "--help");
      expect([help.code, help.stdout]).toEqual([0, `usage: agent-memory git ${sub} <vault>\n`]);
    }
    const unknown = cliRun("git", "frobnicate", t.root);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^agent-memory git: unknown git command "frobnicate"; usage: /);
    const driver = cliRun("git", "merge-driver", "a", "b");
    expect(driver.code).toBe(2);
    expect(driver.stderr).toMatch(/^agent-memory git merge-driver: wrong number of arguments/);
    expect(snapshot(t.root)).toEqual(before);
  });

  it("a journal path given from the vault's parent folder (as a shell completes it) is the vault's note", () => {
    const t = setup();
    const parent = dirname(t.root);
    const name = basename(t.root);
    const r = cliRunWith({ cwd: parent }, "extract", name, `${name}/${J}`, "--dry-run", "--json");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { journal: string }).journal).toBe(J);
    // A path that is a note neither way is still read (and missed) from the vault.
    const missing = cliRunWith({ cwd: parent }, "extract", name, `${name}/Memory/none.md`);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(new RegExp(`${name}/Memory/none\\.md`));
  });

  it("token revoke --json says what it did", () => {
    const t = setup();
    const made = JSON.parse(cliRun("token", "add", t.root, "--agent", "link", "--json").stdout) as {
      id: string;
    };
    const first = cliRun("token", "revoke", t.root, made.id, "--json");
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({ id: made.id, revoked: true, already: false });
    const again = cliRun("token", "revoke", t.root, made.id, "--json");
    expect(JSON.parse(again.stdout)).toEqual({ id: made.id, revoked: true, already: true });
  });

  it("a folder without the memory root is refused by every command but init", () => {
    const t = setup();
    for (const args of [
      ["trackers", join(t.root, "Memory")],
      ["health", join(t.root, "Memory")],
      ["search", join(t.root, "Memory"), "x"],
    ]) {
      const r = cliRun(...args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(/no Memory\/ folder in .*agent-memory init/);
    }
    expect(cliRun("init", join(t.root, "Memory")).code).toBe(0);
  });

  it("extract says which agent it chose and why, and never creates one", () => {
    const t = setup({ [J]: journal, "Daily/2026-11-25.md": "- [ ] Renew passport\n" });
    const before = snapshot(t.root);
    const r = cliRun("extract", t.root, "Daily/2026-11-25.md");
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /no agent's folder, and the default agent "me" does not exist yet \(known: link\); pass --agent NAME .* agent-memory init <vault> --agent me/,
    );
    expect(snapshot(t.root)).toEqual(before);
    expect(cliRun("extract", t.root, "Daily/2026-11-25.md", "--agent", "me").stderr).toMatch(
      /unknown agent "me"/,
    );
    expect(
      cliRun("extract", t.root, "Daily/2026-11-25.md", "--agent", "link", "--dry-run").stdout,
    ).toMatch(/^Daily\/2026-11-25\.md \(agent link: from --agent\)/);
    expect(cliRun("extract", t.root, J, "--dry-run").stdout).toMatch(
      /\(agent link: the journal is in its folder\)/,
    );
    expect(cliRun("init", t.root, "--agent", "me").code).toBe(0);
    const json = JSON.parse(cliRun("extract", t.root, "Daily/2026-11-25.md", "--json").stdout) as {
      agent: string;
      agentReason: string;
    };
    expect(json).toMatchObject({ agent: "me", agentReason: "default-agent" });
  });

  it("a progress note a later run could place leaves the journal unmarked and says so", () => {
    const t = setup({ [J]: "Progress: halfway there [goal:: g-999]\n" });
    const r = cliRun("extract", t.root, J);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /not marked as extracted: the next run tries the rejected items again/,
    );
    expect(readFileSync(join(t.root, J), "utf8")).not.toMatch(/extraction_hash/);
  });

  it("exits 1 when an item is rejected", () => {
    const t = setup({ [J]: "Progress: halfway there [goal:: g-999]\n" });
    const r = cliRun("extract", t.root, J, "--json");
    expect(r.code).toBe(1);
    expect(
      (JSON.parse(r.stdout) as { rejected: { reason: string }[] }).rejected[0]?.reason,
    ).toMatch(/g-999/);
  });

  it("init creates the agent's trackers once; trackers lists open items", () => {
    const t = setup();
    const first = cliRun("init", t.root, "--agent", "link", "--json");
    expect(first.code).toBe(0);
    expect((JSON.parse(first.stdout) as { created: string[] }).created).toContain(
      "Memory/Agents/link/Trackers/Decisions.md",
    );
    expect(
      (
        JSON.parse(cliRun("init", t.root, "--agent", "link", "--json").stdout) as {
          created: string[];
        }
      ).created,
    ).toEqual([]);
    cliRun("extract", t.root, J);
    const list = cliRun("trackers", t.root, "--agent", "link", "--kind", "tasks", "--json");
    expect(list.code).toBe(0);
    const items = (
      JSON.parse(list.stdout) as { items: { id: string; text: string; status: string }[] }
    ).items;
    expect(items).toEqual([expect.objectContaining({ text: "Renew passport", status: "open" })]);
    expect(items[0]?.id).toMatch(/^t-[a-z][0-9a-z]{9}$/);
    expect(cliRun("trackers", t.root, "--status", "done", "--kind", "tasks").stdout).toMatch(
      /no done tracker items/,
    );
  });

  it("trackers shows links as Obsidian does, lists numbered items and names owners; a bad agent name says what is allowed", () => {
    const tasks = "Memory/Agents/link/Trackers/Tasks.md";
    const t = setup({
      [J]: journal,
      [tasks]:
        "# Tasks\n\n- [ ] Review the [[Pricing page|pricing draft]] with [[Agents/ming]] ^t-001\n1. [ ] Send the [[Memo]] [owner:: [[dana]]] [due:: 2026-01-02] ^t-002\n2) [x] Old numbered one ^t-003\n",
    });
    const r = cliRun("trackers", t.root, "--kind", "tasks");
    expect(r.stdout).toContain("[ ] t-001  Review the pricing draft with ming\n");
    expect(r.stdout).toContain("[ ] t-002  Send the Memo  (owner dana; OVERDUE, due 2026-01-02)\n");
    expect(r.stdout).not.toContain("[[");
    const json = JSON.parse(
      cliRun("trackers", t.root, "--kind", "tasks", "--status", "all", "--json").stdout,
    ) as { items: { id: string; text: string; owner?: string }[] };
    expect(json.items.map((i) => [i.id, i.text, i.owner ?? null])).toEqual([
      ["t-001", "Review the [[Pricing page|pricing draft]] with [[Agents/ming]]", null],
      ["t-002", "Send the [[Memo]]", "dana"],
      ["t-003", "Old numbered one", null],
    ]);
    const bad = cliRun("init", t.root, "--agent", "a/b");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /invalid agent name: a\/b \(an agent name is its folder's name: letters, digits, spaces and - _ \. are fine/,
    );
  });

  it("init makes a vault folder that does not exist yet; search prints blocks without their ids", () => {
    const t = setup();
    const fresh = join(t.root, "new", "vault");
    const r = cliRun("init", fresh, "--agent", "link");
    expect(r.code).toBe(0);
    expect(readFileSync(join(fresh, "Memory/Agents/link/Trackers/Tasks.md"), "utf8")).toContain(
      "# Tasks",
    );
    expect(cliRun("trackers", join(t.root, "other")).code).toBe(2);
    cliRun("extract", t.root, J);
    const out = cliRun("search", t.root, "audit home page", "--blocks", "5").stdout;
    expect(out).toMatch(/audit the home page/);
    expect(out).not.toMatch(/\^am-[a-z0-9]{10} /);
    expect(out).not.toMatch(/\[source::/);
  });

  it("index names a note it cannot read once, on one line with the reason", () => {
    const t = setup({ [J]: journal, "Memory/Library/Library.md": "# Library\n" });
    writeFileSync(join(t.root, "Memory/Library/latin.md"), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    symlinkSync("/etc/passwd", join(t.root, "Memory/Library/passwd.md"));
    const r = cliRun("index", t.root);
    expect(r.code).toBe(1);
    const lines = r.stderr.trim().split("\n");
    expect(lines).toEqual([
      expect.stringMatching(/^index: left out Memory\/Library\/latin\.md: not valid UTF-8 /),
      expect.stringMatching(
        /^index: left out Memory\/Library\/passwd\.md: a symbolic link to \/etc\/passwd, outside the vault/,
      ),
    ]);
    for (const [i, name] of ["latin.md", "passwd.md"].entries())
      expect(lines[i]?.split(name)).toHaveLength(2);
    // The same exit code with --json, which lists them instead.
    const j = cliRun("index", t.root, "--json");
    expect(j.code).toBe(1);
    expect(
      (JSON.parse(j.stdout) as { unreadable: { path: string }[] }).unreadable.map((u) => u.path),
    ).toEqual(["Memory/Library/latin.md", "Memory/Library/passwd.md"]);
  });

  it("index builds a vault of 2,100 notes through the bundled worker (dist/index-worker.mjs) and finds their Chinese words", () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 2100; i++)
      files[`Memory/Library/notes/会议纪要 ${i}.md`] =
        `# 数据库迁移 ${i}\n\n今天完成了认证系统的重构，编号 X${i}Q。\n`;
    files["Memory/Library/notes/unique.md"] = "跨境转账限额调整已经批准\n";
    const t = setup(files);
    const r = cliRun("index", t.root, "--json");
    expect(r.stderr).toBe(""); // no "index: the index worker failed …"
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { notes: number; indexed: number }).indexed).toBe(2101);
    const found = JSON.parse(cliRun("search", t.root, "限额调整", "--json").stdout) as {
      results: { path: string }[];
    };
    expect(found.results.map((x) => x.path)).toEqual(["Memory/Library/notes/unique.md"]);
  });
});
