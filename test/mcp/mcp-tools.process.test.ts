// The MCP server through the SDK's own client on the built dist/cli.js (docs/mcp.md, "Tools"): the
// tool list and its annotations, each tool's result and its error paths, --read-only and --tools.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { today } from "../../src/core/util/dates";
import {
  buildCli,
  cliPath,
  serverEnv,
  startMcp,
  textOf,
  type McpSession,
} from "../helpers/mcp-client";
import { sampleVaultCopy } from "../helpers/temp-vault";

const READ_TOOLS = ["brief", "search", "read_note", "list_trackers", "health", "status", "inbox"];
const WRITE_TOOLS = [
  "append_journal",
  "extract",
  "add_tracker_item",
  "update_tracker_item",
  "add_knowledge",
  "answer_inbox_item",
  "propose_promotion",
];
const TASKS = "Memory/Agents/link/Trackers/Tasks.md";
/** Tools that may replace a value (a status, a field, a state, a superseded entry): `destructiveHint`. */
const REPLACING_TOOLS = [
  "extract",
  "add_tracker_item",
  "update_tracker_item",
  "add_knowledge",
  "answer_inbox_item",
];
/** Tools whose result has a fixed shape, the only ones with an output schema. */
const FIXED_SHAPE = [
  "read_note",
  "append_journal",
  "add_tracker_item",
  "update_tracker_item",
  "add_knowledge",
  "status",
  "answer_inbox_item",
  "propose_promotion",
];

beforeAll(() => buildCli(), 60_000);

describe("mcp server started with --agent link on the sample vault", () => {
  let vault: ReturnType<typeof sampleVaultCopy>;
  let s: McpSession;
  const file = (p: string) => readFileSync(join(vault.root, p), "utf8");

  beforeAll(async () => {
    vault = sampleVaultCopy();
    s = await startMcp(vault.root, ["--agent", "link"]);
  }, 30_000);
  afterAll(async () => {
    await s?.close();
    vault?.cleanup();
  });

  it("lists every tool with a title, annotations as meant, output schemas for fixed shapes only", async () => {
    const { tools } = await s.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...READ_TOOLS, ...WRITE_TOOLS].sort());
    for (const t of tools) {
      const read = READ_TOOLS.includes(t.name);
      const replaces = REPLACING_TOOLS.includes(t.name);
      expect(t.annotations, t.name).toMatchObject({
        readOnlyHint: read,
        destructiveHint: replaces,
        openWorldHint: false,
      });
      expect(typeof t.annotations?.idempotentHint, t.name).toBe("boolean");
      expect(t.title, t.name).toBeTruthy();
      // Output schemas only where the result has a fixed shape (docs/mcp.md, "Tools").
      expect(t.outputSchema?.type, t.name).toBe(
        FIXED_SHAPE.includes(t.name) ? "object" : undefined,
      );
      expect((t.description ?? "").length, t.name).toBeLessThanOrEqual(220);
    }
    expect(tools.find((t) => t.name === "append_journal")?.annotations?.idempotentHint).toBe(false);
  });

  it("search: notes in the agent's scope with the library by default, each with a [[note#^block]] link", async () => {
    const r = await s.call("search", { query: "canonical tag" });
    expect(r.isError).toBeFalsy();
    const data = r.structuredContent as {
      scope: string;
      results: { path: string; link: string; snippet: string; score: number; title: string }[];
    };
    expect(data.scope).toBe("agent:link");
    expect(data.results.length).toBeGreaterThan(0);
    for (const hit of data.results) {
      expect(
        hit.path.startsWith("Memory/Agents/link/") || hit.path.startsWith("Memory/Library/"),
      ).toBe(true);
      expect(hit.link).toMatch(/^\[\[Memory\/[^\]]+\]\]$/);
      expect(hit.score).toBeGreaterThan(0);
    }
    expect(data.results.some((h) => /#\^[\w-]+\]\]$/.test(h.link))).toBe(true);
    expect(textOf(r)).toContain(data.results[0]?.link ?? "?");
  });

  it("search mode passages: the best blocks across notes, each linked to its block", async () => {
    const r = await s.call("search", { query: "canonical tag", mode: "passages", limit: 5 });
    expect(r.isError).toBeFalsy();
    const data = r.structuredContent as {
      mode: string;
      results: { path: string; link: string; snippet: string }[];
    };
    expect(data.mode).toBe("passages");
    expect(data.results.length).toBeGreaterThan(0);
    expect(data.results.length).toBeLessThanOrEqual(5);
    expect(data.results[0]?.snippet.toLowerCase()).toContain("canonical");
    expect(data.results[0]?.link).toMatch(/^\[\[Memory\/.+#.+\]\]$/);
  });

  it("search with status:open that finds nothing names list_trackers; with a frontmatter status it does not", async () => {
    const open = await s.call("search", { query: "canonical status:open" });
    expect(open.isError).toBeFalsy();
    expect(textOf(open)).toContain("tracker items that are open: list_trackers with status open");
    const passages = await s.call("search", { query: "status:done", mode: "passages" });
    expect(textOf(passages)).toContain("list_trackers with status done");
    const other = await s.call("search", { query: "canonical status:nosuch" });
    expect(textOf(other)).not.toContain("list_trackers");
  });

  it("search refuses an isolated zone not opened with --zone, and a bad query or argument, as tool errors", async () => {
    const zone = await s.call("search", { query: "Kestrelwind", scope: "Restricted" });
    expect(zone.isError).toBe(true);
    expect(textOf(zone)).toMatch(
      /isolated zone.*mcp --zone Restricted, or over HTTP a token made with token add --zone Restricted/,
    );
    const all = await s.call("search", { query: "Kestrelwind", scope: "all" });
    expect((all.structuredContent as { results: unknown[] }).results).toEqual([]);
    const filter = await s.call("search", { query: "colour:red" });
    expect(filter.isError).toBe(true);
    expect(textOf(filter)).not.toContain("\n");
    const bad = await s.call("search", { query: "x", limit: "ten" });
    expect(bad.isError).toBe(true);
    const missing = await s.call("search", {});
    expect(missing.isError).toBe(true);
    const two = await s.call("search", { query: 5, limit: "ten" });
    expect(two.isError).toBe(true);
    expect(textOf(two)).toMatch(/query.*limit|limit.*query/);
    expect(textOf(two)).not.toContain("\n");
    expect((await s.call("status")).isError).toBeFalsy();
  });

  it("read_note by path, frontmatter id, title and wikilink with block or heading, paged", async () => {
    const whole = file(TASKS);
    const byPath = await s.call("read_note", { note: TASKS });
    expect(byPath.structuredContent).toMatchObject({
      path: TASKS,
      total_chars: whole.length,
      offset: 0,
      next_offset: null,
      text: whole,
    });
    const byId = await s.call("read_note", { note: "tracker-link-tasks" });
    expect((byId.structuredContent as { path: string }).path).toBe(TASKS);
    const byTitle = await s.call("read_note", { note: "SEO audit" });
    expect((byTitle.structuredContent as { path: string }).path).toBe(
      "Memory/Agents/link/Knowledge/learning/SEO audit.md",
    );
    const block = await s.call("read_note", { note: "[[Tasks#^t-002]]" });
    const b = block.structuredContent as { text: string; anchor: string; path: string };
    expect(b.path).toBe(TASKS);
    expect(b.anchor).toBe("#^t-002");
    expect(b.text).toBe(
      "- [x] Draft the audit checklist [source:: [[2026-11-02#^am-2h7c]]] [created:: 2026-11-02] ^t-002\n    - 2026-11-06: 22 checks in 5 groups, shared with the editor",
    );
    const section = await s.call("read_note", {
      note: "[[Memory/Library/SEO/Core Web Vitals#Core Web Vitals]]",
    });
    expect(
      (section.structuredContent as { text: string }).text.startsWith("# Core Web Vitals"),
    ).toBe(true);
    // Pages of 100 characters put back together are the note.
    let offset: number | null = 0;
    let joined = "";
    let pages = 0;
    while (offset !== null && pages < 100) {
      const page = (await s.call("read_note", { note: TASKS, offset, limit: 100 }))
        .structuredContent as { text: string; next_offset: number | null; total_chars: number };
      expect(page.total_chars).toBe(whole.length);
      joined += page.text;
      offset = page.next_offset;
      pages++;
    }
    expect(joined).toBe(whole);
    expect(pages).toBe(Math.ceil(whole.length / 100));
  });

  it("read_note errors: unknown note, escape, isolated zone, a link into a zone, missing block, offset past the end", async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ note: "no-such-note-id" }, /no note found/],
      [{ note: "../outside.md" }, /leaves its folder/],
      [{ note: "/etc/passwd" }, /absolute path/],
      [{ note: "Memory/Restricted/Incidents/INC-2026-1107.md" }, /isolated zone Restricted/],
      [{ note: "restricted-inc-2026-1107" }, /no note found/],
      [{ note: ".obsidian/plugins/agent-memory/data.json" }, /hidden folder/],
      [{ note: "[[Tasks#^t-999]]" }, /no block \^t-999/],
      [{ note: TASKS, offset: 10_000_000 }, /past the end/],
      [{ note: TASKS, limit: 0 }, /limit/],
    ];
    for (const [args, reason] of cases) {
      const r = await s.call("read_note", args);
      expect(r.isError, JSON.stringify(args)).toBe(true);
      expect(textOf(r), JSON.stringify(args)).toMatch(reason);
    }
    // A link inside the memory to a note of the zone is refused by its real path.
    symlinkSync(
      join(vault.root, "Memory/Restricted/Incidents/INC-2026-1107.md"),
      join(vault.root, "Memory/Library/SEO/Alias.md"),
    );
    const linked = await s.call("read_note", { note: "Memory/Library/SEO/Alias.md" });
    expect(linked.isError).toBe(true);
    expect(textOf(linked)).toMatch(/isolated zone Restricted \(through a link/);
    expect(textOf(linked)).not.toContain("Kestrelwind");
  });

  it("append_journal creates today's journal in the init format and returns the block's id; search finds it at once", async () => {
    const day = today(Date.now());
    const path = `Memory/Agents/link/Journal/${day}.md`;
    expect(existsSync(join(vault.root, path))).toBe(false);
    const r = await s.call("append_journal", {
      text: "Learned: the zebrafinch export needs a retry",
    });
    const data = r.structuredContent as {
      path: string;
      id: string;
      link: string;
      created: boolean;
    };
    expect(data).toMatchObject({ path, created: true });
    expect(data.id).toMatch(/^am-[0-9a-z]{10}$/);
    const text = file(path);
    expect(text).toContain(`id: journal-link-${day}`);
    expect(text).toContain(`# ${day}`);
    expect(text).toContain(`Learned: the zebrafinch export needs a retry ^${data.id}`);
    const second = (await s.call("append_journal", { text: "- [ ] Ask about zebrafinch" }))
      .structuredContent as { id: string; created: boolean };
    expect(second.created).toBe(false);
    expect(second.id).not.toBe(data.id);
    expect(file(path).startsWith(text.trimEnd())).toBe(true);
    const found = (await s.call("search", { query: "zebrafinch" })).structuredContent as {
      results: { path: string; link: string }[];
    };
    expect(found.results[0]?.path).toBe(path);
    // A secret an agent sends is redacted before it is written, as a transcript's is.
    const secret = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A";
    await s.call("append_journal", { text: `Decision: rotate the token ${secret} weekly` });
    expect(file(path)).not.toContain(secret);
    expect(file(path)).toContain("Decision: rotate the token [redacted: github-token] weekly");
    const bad = await s.call("append_journal", { text: "  \n " });
    expect(bad.isError).toBe(true);
    // The journal is the server's agent's: another agent named is refused, its own is taken.
    const before = file(path);
    const other = await s.call("append_journal", { text: "Not mine to write", agent: "ming" });
    expect(other.isError).toBe(true);
    expect(textOf(other)).toBe(
      'append_journal: this server writes only the journal of agent "link", not of "ming" (the agent is the server\'s: mcp --agent, or the HTTP token\'s); nothing written',
    );
    expect(file(path)).toBe(before);
    expect(existsSync(join(vault.root, `Memory/Agents/ming/Journal/${day}.md`))).toBe(false);
    const own = await s.call("append_journal", { text: "Mine to write", agent: "link" });
    expect(own.isError, textOf(own)).toBeFalsy();
    expect(file(path)).toContain("Mine to write");
  });

  it("append_journal: a code block's id goes on a line after its fence, a fence left open is closed, and read_note resolves each id", async () => {
    const day = today(Date.now());
    const path = `Memory/Agents/link/Journal/${day}.md`;
    const block = async (link: string) =>
      ((await s.call("read_note", { note: link })).structuredContent as { text: string }).text;
    const closed = (await s.call("append_journal", { text: "Ran this:\n```sh\nnpm test\n```" }))
      .structuredContent as { ids: string[] };
    const open = (await s.call("append_journal", { text: "Output:\n```\nok" }))
      .structuredContent as { ids: string[] };
    const after = (await s.call("append_journal", { text: "Then it passed" }))
      .structuredContent as { link: string };
    const text = file(path);
    expect(text).toContain(`\`\`\`sh\nnpm test\n\`\`\`\n\n^${closed.ids[1]}\n`);
    expect(text).toContain(`Output: ^${open.ids[0]}\n\`\`\`\nok\n\`\`\`\n\n^${open.ids[1]}\n`);
    expect(await block(`[[${path}#^${closed.ids[1]}]]`)).toBe(
      `\`\`\`sh\nnpm test\n\`\`\`\n\n^${closed.ids[1]}`,
    );
    expect(await block(`[[${path}#^${open.ids[1]}]]`)).toBe(
      `\`\`\`\nok\n\`\`\`\n\n^${open.ids[1]}`,
    );
    expect(await block(after.link)).toMatch(/^Then it passed \^am-/);
  });

  it("extract returns the plan without writing by default and writes it with apply: true", async () => {
    const journal = "Memory/Agents/link/Journal/2026-11-29.md";
    writeFileSync(
      join(vault.root, journal),
      "---\nid: journal-link-2026-11-29\ntype: journal\nagent: link\nstatus: active\ncreated_at: 2026-11-29\n---\n# 2026-11-29\n\n- [ ] Renew the quokka certificate\nDecision: quokka pages move to the new CDN\n",
    );
    const before = file(journal);
    const tasks = file(TASKS);
    const plan = await s.call("extract", { journal });
    expect(plan.isError).toBeFalsy();
    const p = plan.structuredContent as {
      dryRun: boolean;
      items: { destination: string; text: string }[];
      writes: string[];
    };
    expect(p.dryRun).toBe(true);
    expect(p.items.map((i) => i.destination)).toEqual(
      expect.arrayContaining([TASKS, "Memory/Agents/link/Trackers/Decisions.md"]),
    );
    expect(p.writes).toEqual([]);
    expect(file(journal)).toBe(before);
    expect(file(TASKS)).toBe(tasks);
    const applied = (await s.call("extract", { journal: "2026-11-29", apply: true }))
      .structuredContent as { dryRun: boolean; writes: string[] };
    expect(applied.dryRun).toBe(false);
    expect(applied.writes).toEqual(expect.arrayContaining([journal, TASKS]));
    expect(file(TASKS)).toContain("Renew the quokka certificate");
    expect(file(journal)).toContain("extraction_hash:");
    const again = (await s.call("extract", { journal, apply: true })).structuredContent as {
      skipped?: string;
      writes: string[];
    };
    expect(again).toMatchObject({ skipped: "unchanged", writes: [] });
    const ming = await s.call("extract", { journal: "Memory/Agents/ming/Journal/2026-11-05.md" });
    expect(ming.isError).toBe(true);
    expect(textOf(ming)).toMatch(/outside the folder of agent link/);
    expect((await s.call("extract", { journal: "2020-01-01" })).isError).toBe(true);
  });

  it("extract says which decision a contradicting one supersedes (docs/contradictions.md)", async () => {
    const head = (day: string) =>
      `---\nid: journal-link-${day}\ntype: journal\nagent: link\nstatus: active\ncreated_at: ${day}\n---\n# ${day}\n\n`;
    writeFileSync(
      join(vault.root, "Memory/Agents/link/Journal/2026-12-02.md"),
      `${head("2026-12-02")}Decision: the wombat export runs on Mondays\n`,
    );
    writeFileSync(
      join(vault.root, "Memory/Agents/link/Journal/2026-12-03.md"),
      `${head("2026-12-03")}Decision: the wombat export runs on Thursdays\n`,
    );
    expect((await s.call("extract", { journal: "2026-12-02", apply: true })).isError).toBeFalsy();
    const old = /- \[x\] the wombat export runs on Mondays .*\^(d-[0-9a-z]+)$/m.exec(
      file("Memory/Agents/link/Trackers/Decisions.md"),
    )?.[1];
    expect(old).toMatch(/^d-[a-z][0-9a-z]{9}$/);
    const plan = await s.call("extract", { journal: "2026-12-03" });
    const items = (
      plan.structuredContent as {
        items: { action: string; supersedes?: { id: string; reason: string } }[];
      }
    ).items;
    expect(items).toMatchObject([
      { action: "supersede", supersedes: { id: old, reason: "value" } },
    ]);
    expect(textOf(plan)).toContain(`(added, supersedes ${old} (another value))`);
    // Applied, list_trackers tells the superseded entry from the current one, in text and data.
    expect((await s.call("extract", { journal: "2026-12-03", apply: true })).isError).toBeFalsy();
    const listed = await s.call("list_trackers", { kind: "decisions" });
    const lines = textOf(listed).split("\n");
    expect(lines.find((l) => l.includes(`^${old} `))).toMatch(/ \(superseded\)$/);
    expect(lines.find((l) => l.includes("runs on Thursdays"))).not.toContain("superseded");
    const data = (listed.structuredContent as { items: { id: string; superseded?: true }[] }).items;
    expect(data.find((i) => i.id === old)?.superseded).toBe(true);
    expect(data.filter((i) => i.superseded).map((i) => i.id)).toEqual([old]);
  });

  it("trackers: list, add (id returned, no duplicate), update status, progress, answer and fields; never removes a line", async () => {
    const listed = (await s.call("list_trackers", { kind: "tasks" })).structuredContent as {
      items: { id: string; status: string }[];
    };
    expect(listed.items.map((i) => i.id)).toEqual(expect.arrayContaining(["t-001", "t-005"]));
    expect(listed.items.every((i) => i.status === "open" || i.status === "in-progress")).toBe(true);
    const added = (
      await s.call("add_tracker_item", {
        kind: "tasks",
        text: "Check the hreflang tags",
        due: "2026-12-20",
      })
    ).structuredContent as { id: string; added: boolean };
    expect(added.added).toBe(true);
    expect(added.id).toMatch(/^t-[a-z][0-9a-z]{9}$/);
    const again = (
      await s.call("add_tracker_item", { kind: "tasks", text: "Check the  hreflang tags" })
    ).structuredContent as { id: string; added: boolean };
    expect(again).toMatchObject({ id: added.id, added: false });
    const lines = file(TASKS).split("\n").length;
    const upd = await s.call("update_tracker_item", {
      kind: "tasks",
      id: added.id,
      status: "in-progress",
      progress: "checked 3 of 12 templates",
      fields: { owner: "link" },
    });
    expect(upd.isError).toBeFalsy();
    expect(upd.structuredContent).toMatchObject({ changed: true, status: "in-progress" });
    const text = file(TASKS);
    expect(text.split("\n").length).toBe(lines + 1);
    const line = text.split("\n").find((l) => l.endsWith(`^${added.id}`)) ?? "";
    expect(line).toMatch(/^- \[\/\] Check the hreflang tags/);
    expect(line).toContain("[owner:: link]");
    expect(text).toContain(`: checked 3 of 12 templates`);
    const q = (
      await s.call("add_tracker_item", {
        kind: "questions",
        text: "Which pages need hreflang?",
        to: "ming",
      })
    ).structuredContent as { id: string };
    await s.call("update_tracker_item", {
      kind: "questions",
      id: q.id,
      answer: "only the pricing pages",
      status: "done",
    });
    expect(file("Memory/Agents/link/Trackers/Questions.md")).toMatch(
      /Answer \(link, \d{4}-\d{2}-\d{2}\): only the pricing pages/,
    );
    for (const [args, reason] of [
      [{ kind: "tasks", id: "t-999", status: "done" }, /no item \^t-999/],
      [{ kind: "tasks", id: added.id }, /nothing to update/],
      [{ kind: "tasks", id: added.id, fields: { note: "2026-12-01]] [x" } }, /brackets/],
      [{ kind: "tasks", id: added.id, fields: { due: "2026-12-01]] [x" } }, /must be a date/],
      [{ kind: "chores", id: added.id, status: "done" }, /kind/],
    ] as [Record<string, unknown>, RegExp][]) {
      const before = file(TASKS);
      const r = await s.call("update_tracker_item", args);
      expect(r.isError, JSON.stringify(args)).toBe(true);
      expect(textOf(r)).toMatch(reason);
      expect(file(TASKS)).toBe(before);
    }
    const broken = await s.call("add_tracker_item", {
      kind: "tasks",
      text: "x",
      fields: { note: "a ] b" },
    });
    expect(broken.isError).toBe(true);
    // Priority is one of Tasks' words, so Tasks and the tracker panel can sort by it.
    const before = file(TASKS);
    const urgent = await s.call("add_tracker_item", {
      kind: "tasks",
      text: "Renew the certificate",
      priority: "urgent",
    });
    expect(urgent.isError).toBe(true);
    expect(textOf(urgent)).toMatch(/priority/);
    expect(file(TASKS)).toBe(before);
    const high = (
      await s.call("add_tracker_item", {
        kind: "tasks",
        text: "Renew the certificate",
        priority: "high",
      })
    ).structuredContent as { id: string };
    expect(
      file(TASKS)
        .split("\n")
        .find((l) => l.endsWith(`^${high.id}`)),
    ).toContain("[priority:: high]");
  });

  it("add_knowledge supersedes through the statement rule: a change supersedes, a restatement and a separate fact do not", async () => {
    const add = async (text: string) =>
      (await s.call("add_knowledge", { topic: "Rate limits", text, confidence: 0.9 }))
        .structuredContent as {
        path: string;
        added: boolean;
        supersedes?: string;
      };
    const first = await add("the API rate limit is 100 per second");
    expect(first).toMatchObject({ added: true });
    expect(first.supersedes).toBeUndefined();
    const changed = await add("the rate limit changed from 100 to 200/s");
    expect(changed.added).toBe(true);
    expect(changed.supersedes).toMatch(/^\^c-[0-9a-z]+$/);
    const note = file(first.path);
    expect(note).toMatch(
      /> the API rate limit is 100 per second\n> \[valid_to:: \d{4}-\d{2}-\d{2}\] \[superseded_by:: /,
    );
    expect(note).toContain(
      `[supersedes:: [[${first.path.replace(/\.md$/, "")}#${changed.supersedes}]]]`,
    );
    const again = await s.call("add_knowledge", {
      topic: "Rate limits",
      text: "rate limit: 200 requests per second",
      confidence: 0.9,
    });
    expect(again.structuredContent).toMatchObject({ added: false });
    expect(textOf(again)).toMatch(/restates \^c-[0-9a-z]+/);
    const other = await add("the search API rate limit is 50 per second");
    expect(other).toMatchObject({ added: true });
    expect(other.supersedes).toBeUndefined();
    expect(file(first.path).match(/superseded_by/g)).toHaveLength(1);
  });

  it("add_tracker_item: a decision that changes a current one supersedes it; invoice 1043 after 1042 does not", async () => {
    const DECISIONS = "Memory/Agents/link/Trackers/Decisions.md";
    const add = async (text: string) =>
      (await s.call("add_tracker_item", { kind: "decisions", text })).structuredContent as {
        id: string;
        added: boolean;
        supersedes?: string;
      };
    const a = await add("we deploy on Fridays after 15:00");
    const b = await add("we will not deploy on Fridays after 15:00 any more");
    expect(b).toMatchObject({ added: true, supersedes: a.id });
    const line = (id: string) =>
      file(DECISIONS)
        .split("\n")
        .find((l) => l.endsWith(`^${id}`)) ?? "";
    expect(line(a.id)).toContain(
      `[superseded_by:: [[Memory/Agents/link/Trackers/Decisions#^${b.id}]]]`,
    );
    expect(line(b.id)).toContain(
      `[supersedes:: [[Memory/Agents/link/Trackers/Decisions#^${a.id}]]]`,
    );
    const same = await add("no deploys on Fridays after 15:00");
    expect(same).toMatchObject({ id: b.id, added: false });
    const i1 = await add("invoice 1042 is paid by the customer");
    const i2 = await add("invoice 1043 is paid by the customer");
    expect(i2.added).toBe(true);
    expect(i2.supersedes).toBeUndefined();
    expect(line(i1.id)).not.toContain("superseded_by");
  });

  it("add_knowledge appends a dated callout with confidence and source, creating the topic note", async () => {
    const r = await s.call("add_knowledge", {
      topic: "Hreflang",
      text: "Hreflang needs return links",
      confidence: 0.8,
      source: "Memory/Agents/link/Journal/2026-11-24#^am-x1",
    });
    const data = r.structuredContent as { path: string; created: boolean; added: boolean };
    expect(data).toMatchObject({ created: true, added: true });
    expect(data.path).toMatch(/^Memory\/Agents\/link\/Knowledge\/[^/]+\/Hreflang\.md$/);
    const text = file(data.path);
    expect(text).toMatch(
      /> \[!insight\] \d{4}-\d{2}-\d{2} · confidence 0\.8\n> Hreflang needs return links\n> Source: \[\[Memory\/Agents\/link\/Journal\/2026-11-24#\^am-x1\]\]/,
    );
    const dup = (
      await s.call("add_knowledge", {
        topic: "hreflang",
        text: "Hreflang needs return links",
        confidence: 0.9,
      })
    ).structuredContent as { path: string; added: boolean };
    expect(dup).toMatchObject({ path: data.path, added: false });
    // The topic note's frontmatter id holds a slash (`link/hreflang`): read_note finds it by that id,
    // while a path the guard refuses is still refused.
    const id = /^id: (.+)$/m.exec(text)?.[1] ?? "";
    expect(id).toContain("/");
    const byId = await s.call("read_note", { note: id });
    expect(byId.isError, JSON.stringify(byId)).toBeFalsy();
    expect((byId.structuredContent as { path: string }).path).toBe(data.path);
    const outside = await s.call("read_note", { note: "link/no-such-id" });
    expect(outside.isError).toBe(true);
    expect(textOf(outside)).toMatch(/outside the memory root/);
    const bad = await s.call("add_knowledge", { topic: "X", text: "y", confidence: 2 });
    expect(bad.isError).toBe(true);
    const empty = await s.call("add_knowledge", { topic: "///", text: "y", confidence: 0.5 });
    expect(empty.isError).toBe(true);
    expect(textOf(empty)).toMatch(/empty/);
  });

  it("brief, health and status answer with their facts", async () => {
    const brief = (await s.call("brief", { budget_tokens: 400 })).structuredContent as {
      agent: string;
      markdown: string;
      budget: { used: number; limit: number };
    };
    expect(brief.agent).toBe("link");
    expect(brief.budget.used).toBeLessThanOrEqual(400);
    expect(brief.markdown).toMatch(/\[\[Memory\/Agents\/link\//);
    expect((await s.call("brief", { budget_tokens: 5 })).isError).toBe(true);
    const badAgent = await s.call("list_trackers", { agent: "../ming" });
    expect(badAgent.isError).toBe(true);
    expect(textOf(badAgent)).toMatch(/invalid agent name/);
    const health = (await s.call("health")).structuredContent as {
      checked: number;
      warnings: { path: string }[];
      errors: { path: string }[];
    };
    expect(health.checked).toBeGreaterThan(20);
    expect(
      [...health.errors, ...health.warnings].some((p) => p.path.startsWith("Memory/Restricted/")),
    ).toBe(false);
    const status = (await s.call("status")).structuredContent as {
      agent: string;
      notes: number;
      pending: number;
      watching: boolean;
      index_age_s: number;
    };
    expect(status).toMatchObject({ agent: "link", watching: true });
    expect(status.notes).toBeGreaterThan(20);
    expect(status.index_age_s).toBeGreaterThanOrEqual(0);
  });

  it("stderr has the server's log and the protocol alone went to stdout (the client parsed every message)", () => {
    expect(s.stderr()).toMatch(/mcp: \d+ notes indexed/);
  });
});

describe("mcp server options", () => {
  let vault: ReturnType<typeof sampleVaultCopy>;
  beforeAll(() => {
    vault = sampleVaultCopy();
  });
  afterAll(() => vault?.cleanup());

  it("--read-only registers only the read tools; a write tool is then unknown and nothing is written", async () => {
    const s = await startMcp(vault.root, ["--agent", "link", "--read-only"]);
    try {
      const { tools } = await s.client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([...READ_TOOLS].sort());
      const r = await s.call("append_journal", { text: "should not land" });
      expect(r.isError).toBe(true);
      expect(
        existsSync(join(vault.root, `Memory/Agents/link/Journal/${today(Date.now())}.md`)),
      ).toBe(false);
    } finally {
      await s.close();
    }
  });

  it("--tools registers only those named; an unknown name is a usage error (exit 2)", async () => {
    const s = await startMcp(vault.root, ["--tools", "search,status"]);
    try {
      expect((await s.client.listTools()).tools.map((t) => t.name)).toEqual(["search", "status"]);
    } finally {
      await s.close();
    }
    const res = spawnSync(
      process.execPath,
      [cliPath, "mcp", vault.root, "--tools", "search,delete_note"],
      { encoding: "utf8", env: serverEnv(), input: "" },
    );
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(/unknown tool "delete_note"/);
    expect(res.stdout).toBe("");
    const zone = spawnSync(process.execPath, [cliPath, "mcp", vault.root, "--zone", "Nowhere"], {
      encoding: "utf8",
      env: serverEnv(),
      input: "",
    });
    expect(zone.status).toBe(2);
    expect(zone.stderr).toMatch(/not an isolated zone/);
    // --read-only with --tools naming only write tools would start a server with no tools.
    const none = spawnSync(
      process.execPath,
      [cliPath, "mcp", vault.root, "--read-only", "--tools", "append_journal"],
      { encoding: "utf8", env: serverEnv(), input: "" },
    );
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/--read-only leaves out: the server would have no tools/);
    const some = await startMcp(vault.root, ["--read-only", "--tools", "append_journal,search"]);
    try {
      expect((await some.client.listTools()).tools.map((t) => t.name)).toEqual(["search"]);
    } finally {
      await some.close();
    }
  });

  it("an --agent that does not exist is a usage error (exit 2) naming the known agents; nothing is created", () => {
    const res = spawnSync(process.execPath, [cliPath, "mcp", vault.root, "--agent", "ghost"], {
      encoding: "utf8",
      env: serverEnv(),
      input: "",
    });
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(
      /unknown agent "ghost" \(known: [^)]*link[^)]*\); pass --agent with a known agent, or create it with: agent-memory init <vault> --agent ghost/,
    );
    expect(res.stdout).toBe("");
    expect(existsSync(join(vault.root, "Memory/Agents/ghost"))).toBe(false);
  });

  it("--zone opens an isolated zone to search and read_note", async () => {
    const s = await startMcp(vault.root, ["--agent", "link", "--zone", "Restricted"]);
    try {
      const r = (await s.call("search", { query: "Kestrelwind", scope: "Restricted" }))
        .structuredContent as { results: { path: string }[] };
      expect(r.results[0]?.path).toBe("Memory/Restricted/Incidents/INC-2026-1107.md");
      const note = (await s.call("read_note", { note: "restricted-inc-2026-1107" }))
        .structuredContent as { text: string };
      expect(note.text).toContain("Kestrelwind");
    } finally {
      await s.close();
    }
  });

  it("--agent ming never writes outside ming's folder, also through a symbolic link", async () => {
    const ming = join(vault.root, "Memory/Agents/ming/Trackers");
    const linkTasks = readFileSync(join(vault.root, TASKS), "utf8");
    // ming's Decisions tracker is a link to link's Tasks: inside the vault, outside ming's folder.
    symlinkSync(join(vault.root, TASKS), join(ming, "Decisions.md"));
    const s = await startMcp(vault.root, ["--agent", "ming"]);
    try {
      const r = await s.call("add_tracker_item", {
        kind: "decisions",
        text: "Use the new template",
      });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/outside the folder of agent ming/);
      expect(readFileSync(join(vault.root, TASKS), "utf8")).toBe(linkTasks);
      const ok = (
        await s.call("add_tracker_item", { kind: "tasks", text: "Call the A-tier customers" })
      ).structuredContent as { path: string };
      expect(ok.path).toBe("Memory/Agents/ming/Trackers/Tasks.md");
    } finally {
      await s.close();
    }
  });

  it("a tracker linked out of the vault is refused with the real-path rule", async () => {
    const outside = join(tmpdir(), `am-outside-${process.pid}.md`);
    writeFileSync(outside, "- [ ] outside ^t-001\n");
    mkdirSync(join(vault.root, "Memory/Agents/me/Trackers"), { recursive: true });
    symlinkSync(outside, join(vault.root, "Memory/Agents/me/Trackers/Proposals.md"));
    const s = await startMcp(vault.root, ["--agent", "me"]);
    try {
      const r = await s.call("add_tracker_item", { kind: "proposals", text: "Weekly sync" });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/outside the vault/);
      expect(readFileSync(outside, "utf8")).toBe("- [ ] outside ^t-001\n");
    } finally {
      await s.close();
    }
  });
});
