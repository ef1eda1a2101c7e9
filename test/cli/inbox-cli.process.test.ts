// Issue 17 items 2 and 3 through the CLI on real temporary vaults (docs/inbox.md): promotion writes
// what its plan says and a re-run changes nothing; isolated content and bad areas are refused with
// nothing written; the inbox lists what is addressed; answers are written under the sender's item;
// an agent cannot approve its own proposal.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cliRun } from "../helpers/cli-run";
import { sampleVaultCopy, tempVault } from "../helpers/temp-vault";

const KNOW = "Memory/Agents/link/Knowledge/learning/SEO audit.md";
const knowNote = [
  "---",
  "id: knowledge-link-seo-audit",
  "type: knowledge",
  "agent: link",
  "status: active",
  "created_at: 2026-11-02T10:00:00+08:00",
  "---",
  "# SEO audit",
  "",
  "## Insights",
  "> [!insight] 2026-11-10 · confidence 0.8",
  "> Canonical tags fix duplicate pages faster than redirects.",
  "> Source: [[Memory/Agents/link/Journal/2026-11-10#^am-c4n0]]",
  "^ins-1",
  "",
  "A paragraph a person wrote, kept as it is.",
  "",
].join("\n");
const PROPOSALS = "Memory/Agents/link/Trackers/Proposals.md";
const QUESTIONS = "Memory/Agents/ming/Trackers/Questions.md";
const files = {
  [KNOW]: knowNote,
  [PROPOSALS]:
    "# Proposals\n\n- [ ] Tag churned accounts with their first-touch channel [state:: proposed] [to:: [[ming]]] [created:: 2026-11-17] ^p-001\n- [ ] Publish on Tuesdays [state:: proposed] [created:: 2026-11-18] ^p-002\n",
  [QUESTIONS]:
    "# Questions\n\n- [ ] Which pages bring the most trial users? [to:: [[link]]] [created:: 2026-11-05] ^q-001\n- [ ] Can the discount go to 15%? [to:: [[me]]] [created:: 2026-11-12] ^q-002\n",
  "Memory/Agents/me/Journal/2026-11-28.md": "# 2026-11-28\n",
  "Memory/Restricted/Incidents/INC-1.md":
    "---\nid: inc-1\ntype: note\nstatus: active\ncreated_at: 2026-11-07\n---\n# Incident\n\n> [!insight] 2026-11-07 · confidence 0.9\n> The code word is PLOVER.\n^z-1\n",
};

/** Every file under the vault with its content, to compare before and after. */
function snapshot(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const abs = join(dir, name);
      if (statSync(abs).isDirectory()) walk(abs);
      else out.set(abs.slice(root.length + 1), readFileSync(abs, "utf8"));
    }
  };
  walk(root);
  return out;
}

let cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});
function vault() {
  const v = tempVault(files);
  cleanups.push(v.cleanup);
  return { ...v, read: (p: string) => readFileSync(join(v.root, p), "utf8") };
}

describe("promote", () => {
  it("without --yes prints the plan and writes nothing; with --yes writes exactly the plan; again changes nothing", () => {
    const v = vault();
    const before = snapshot(v.root);
    const plan = cliRun("promote", v.root, `${KNOW}#^ins-1`, "--area", "SEO");
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain("destination: Memory/Library/SEO/SEO audit.md");
    expect(plan.stdout).toContain("plan only");
    expect(snapshot(v.root)).toEqual(before);

    const json = JSON.parse(
      cliRun("promote", v.root, `${KNOW}#^ins-1`, "--area", "SEO", "--json").stdout,
    ) as { content: string };
    const done = cliRun("promote", v.root, `${KNOW}#^ins-1`, "--area", "SEO", "--yes");
    expect(done.code, done.stderr).toBe(0);
    const lib = v.read("Memory/Library/SEO/SEO audit.md");
    expect(lib).toContain(json.content);
    expect(lib).toContain("> Canonical tags fix duplicate pages faster than redirects.");
    expect(lib).toMatch(
      /> \[promoted_from:: \[\[Memory\/Agents\/link\/Knowledge\/learning\/SEO audit#\^ins-1\]\]\] \[promoted_at:: \d{4}-\d{2}-\d{2}\]\n\^ins-1/,
    );
    const src = v.read(KNOW);
    expect(src).toContain("> [promoted_to:: [[Memory/Library/SEO/SEO audit#^ins-1]]]\n^ins-1");
    // The rest of the source is kept byte for byte.
    expect(src.replace("> [promoted_to:: [[Memory/Library/SEO/SEO audit#^ins-1]]]\n", "")).toBe(
      knowNote,
    );

    const after = snapshot(v.root);
    const again = cliRun("promote", v.root, `${KNOW}#^ins-1`, "--area", "SEO", "--yes");
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("already promoted");
    expect(snapshot(v.root)).toEqual(after);
  });

  it("a callout whose id sits after a blank line (as supersession writes it) is promoted; after two it is not the callout's", () => {
    const v = vault();
    v.write(
      KNOW,
      knowNote.replace(
        "> Source: [[Memory/Agents/link/Journal/2026-11-10#^am-c4n0]]\n^ins-1",
        "> Source: [[Memory/Agents/link/Journal/2026-11-10#^am-c4n0]]\n\n^ins-1",
      ),
    );
    const done = cliRun("promote", v.root, `${KNOW}#^ins-1`, "--area", "SEO", "--yes");
    expect(done.code, done.stderr).toBe(0);
    expect(v.read("Memory/Library/SEO/SEO audit.md")).toContain(
      "> Canonical tags fix duplicate pages faster than redirects.",
    );
    expect(v.read(KNOW)).toContain(
      "> [promoted_to:: [[Memory/Library/SEO/SEO audit#^ins-1]]]\n\n^ins-1",
    );
    const w = vault();
    w.write(KNOW, knowNote.replace("]]\n^ins-1", "]]\n\n\n^ins-1"));
    const before = snapshot(w.root);
    const refused = cliRun("promote", w.root, `${KNOW}#^ins-1`, "--area", "SEO", "--yes");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/no callout with \^ins-1/);
    expect(snapshot(w.root)).toEqual(before);
  });

  it("a whole note: frontmatter promoted_from and promoted_at on the copy, promoted_to on the source", () => {
    const v = vault();
    expect(cliRun("promote", v.root, KNOW, "--area", "SEO", "--yes").code).toBe(0);
    const lib = v.read("Memory/Library/SEO/SEO audit.md");
    expect(lib).toContain('promoted_from: "[[Memory/Agents/link/Knowledge/learning/SEO audit]]"');
    expect(lib).toMatch(/promoted_at: \d{4}-\d{2}-\d{2}/);
    expect(lib).toContain("type: library");
    expect(lib).toContain("id: library-knowledge-link-seo-audit");
    expect(v.read(KNOW)).toContain('promoted_to: "[[Memory/Library/SEO/SEO audit]]"');
    const after = snapshot(v.root);
    expect(cliRun("promote", v.root, KNOW, "--area", "SEO", "--yes").code).toBe(0);
    expect(snapshot(v.root)).toEqual(after);
  });

  it("refuses an isolated zone, a bad area and a missing callout, naming them, with nothing written", () => {
    const v = vault();
    const before = snapshot(v.root);
    for (const [args, message] of [
      [["Memory/Restricted/Incidents/INC-1.md#^z-1", "--area", "SEO"], /isolated zone Restricted/],
      [["Memory/Restricted/Incidents/INC-1.md", "--area", "SEO"], /isolated zone Restricted/],
      [[KNOW, "--area", "../Agents"], /invalid library area/],
      [[KNOW, "--area", "SEO/../../x"], /invalid library area/],
      [[`${KNOW}#^nope`, "--area", "SEO"], /no callout with \^nope/],
    ] as const) {
      const r = cliRun("promote", v.root, ...args, "--yes");
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    expect(snapshot(v.root)).toEqual(before);
  });
});

describe("inbox", () => {
  it("lists what is addressed to an agent, and to the person (with every proposal waiting for approval)", () => {
    const v = vault();
    const link = JSON.parse(
      cliRun("trackers", v.root, "--inbox", "--agent", "link", "--json").stdout,
    ) as { items: { id: string; from: string }[] };
    expect(link.items.map((i) => `${i.from}/${i.id}`)).toEqual(["ming/q-001"]);
    const ming = JSON.parse(cliRun("inbox", v.root, "--agent", "ming", "--json").stdout) as {
      items: { id: string; from: string }[];
    };
    expect(ming.items.map((i) => `${i.from}/${i.id}`)).toEqual(["link/p-001"]);
    const person = JSON.parse(cliRun("trackers", v.root, "--inbox", "--json").stdout) as {
      items: { id: string; from: string }[];
    };
    expect(person.items.map((i) => `${i.from}/${i.id}`).sort()).toEqual([
      "link/p-001",
      "link/p-002",
      "ming/q-002",
    ]);
  });

  it("an answer is written under the sender's item and the question leaves the inbox", () => {
    const v = vault();
    const r = cliRun(
      "inbox",
      v.root,
      "answer",
      "q-001",
      "The pricing guide and the SEO checklist.",
      "--agent",
      "link",
    );
    expect(r.code, r.stderr).toBe(0);
    const q = v.read(QUESTIONS);
    expect(q).toMatch(
      /- \[x\] Which pages bring the most trial users\? \[to:: \[\[link\]\]\] \[state:: answered\] \[created:: 2026-11-05\] \[completion:: \d{4}-\d{2}-\d{2}\] \^q-001\n {4}- Answer \(link, \d{4}-\d{2}-\d{2}\): The pricing guide and the SEO checklist\.\n/,
    );
    expect(q).toContain(
      "- [ ] Can the discount go to 15%? [to:: [[me]]] [created:: 2026-11-12] ^q-002\n",
    );
    expect(
      (
        JSON.parse(cliRun("inbox", v.root, "--agent", "link", "--json").stdout) as {
          items: unknown[];
        }
      ).items,
    ).toEqual([]);
    // Answering again changes nothing.
    const after = snapshot(v.root);
    expect(
      cliRun(
        "inbox",
        v.root,
        "answer",
        "q-001",
        "The pricing guide and the SEO checklist.",
        "--agent",
        "link",
        "--from",
        "ming",
      ).code,
    ).toBe(0);
    expect(snapshot(v.root)).toEqual(after);
    // Also without --from, though the item has left the inbox; another verb says why it is refused.
    const again = cliRun(
      "inbox",
      v.root,
      "answer",
      "q-001",
      "The pricing guide and the SEO checklist.",
      "--agent",
      "link",
    );
    expect(again.code, again.stderr).toBe(0);
    expect(snapshot(v.root)).toEqual(after);
    const decline = cliRun("inbox", v.root, "decline", "q-001", "--agent", "link");
    expect(decline.code).toBe(2);
    expect(decline.stderr).not.toMatch(/no \^q-001 in the inbox/);
    expect(snapshot(v.root)).toEqual(after);
  });

  it("an addressee may decline a proposal but never accept it; the proposer cannot approve its own", () => {
    const v = vault();
    const before = snapshot(v.root);
    const accept = cliRun("inbox", v.root, "accept", "p-001", "--agent", "ming");
    expect(accept.code).toBe(2);
    expect(accept.stderr).toContain("only a person can accept a proposal");
    const own = cliRun("inbox", v.root, "approve", "p-001", "--agent", "link", "--from", "link");
    expect(own.code).toBe(2);
    expect(own.stderr).toContain("agent link cannot approve its own proposal");
    expect(snapshot(v.root)).toEqual(before);
    const decline = cliRun(
      "inbox",
      v.root,
      "decline",
      "p-001",
      "Not this quarter.",
      "--agent",
      "ming",
    );
    expect(decline.code, decline.stderr).toBe(0);
    expect(v.read(PROPOSALS)).toMatch(
      /- \[-\] Tag churned accounts .*\[state:: declined\].*\[cancelled:: \d{4}-\d{2}-\d{2}\] \^p-001\n {4}- Declined \(ming, \d{4}-\d{2}-\d{2}\): Not this quarter\.\n/,
    );
  });

  it("a person approves a proposal: accepted and ticked", () => {
    const v = vault();
    const r = cliRun("inbox", v.root, "approve", "p-002", "--from", "link");
    expect(r.code, r.stderr).toBe(0);
    expect(v.read(PROPOSALS)).toMatch(
      /- \[x\] Publish on Tuesdays \[state:: accepted\] \[created:: 2026-11-18\] \[completion:: \d{4}-\d{2}-\d{2}\] \^p-002/,
    );
  });

  it("a promotion proposal reaches the library only when a person accepts it, and a zone's never", () => {
    const v = vault();
    v.write(
      PROPOSALS,
      `${files[PROPOSALS]}- [ ] Promote it [state:: proposed] [to:: [[me]]] [promote:: [[${KNOW.replace(/\.md$/, "")}#^ins-1]]] [area:: SEO] [created:: 2026-11-20] ^p-003\n- [ ] Promote the incident [state:: proposed] [to:: [[me]]] [promote:: [[Memory/Restricted/Incidents/INC-1#^z-1]]] [area:: SEO] [created:: 2026-11-20] ^p-004\n`,
    );
    expect(
      cliRun("inbox", v.root, "accept", "p-003", "--agent", "link", "--from", "link").code,
    ).toBe(2);
    const zone = cliRun("inbox", v.root, "accept", "p-004", "--from", "link");
    expect(zone.code).toBe(2);
    expect(zone.stderr).toContain("isolated zone Restricted");
    expect(snapshot(v.root).has("Memory/Library/SEO/SEO audit.md")).toBe(false);
    const ok = cliRun("inbox", v.root, "approve", "p-003", "--from", "link");
    expect(ok.code, ok.stderr).toBe(0);
    expect(v.read("Memory/Library/SEO/SEO audit.md")).toContain(
      "[promoted_from:: [[Memory/Agents/link/Knowledge/learning/SEO audit#^ins-1]]]",
    );
    expect(v.read(PROPOSALS)).toMatch(
      /- \[x\] Promote it \[state:: accepted\] .*\[promoted_to:: \[\[Memory\/Library\/SEO\/SEO audit#\^ins-1\]\]\].*\^p-003/,
    );
  });

  it("an @agent question in a journal becomes [to:: [[agent]]] and reaches that agent's inbox", () => {
    const s = sampleVaultCopy();
    cleanups.push(s.cleanup);
    const r = cliRun("extract", s.root, "Memory/Agents/link/Journal/2026-11-17.md");
    expect(r.code, r.stderr).toBe(0);
    const ming = JSON.parse(cliRun("inbox", s.root, "--agent", "ming", "--json").stdout) as {
      items: { from: string; text: string; to: string[] }[];
    };
    const churn = ming.items.find((i) => i.text.includes("churned in Q3"));
    expect(churn).toMatchObject({ from: "link", to: ["ming"] });
    const link = JSON.parse(cliRun("inbox", s.root, "--agent", "link", "--json").stdout) as {
      items: { from: string }[];
    };
    expect(link.items.every((i) => i.from !== "link")).toBe(true);
  });
});
