// The MCP server follows the disk and shares it (docs/mcp.md, "Following the disk"): a note written
// by another program between two calls is found by the second; hidden folders stay out; two servers
// writing one tracker through two clients lose nothing. Waits are bounded polls, never a fixed
// sleep.
import { mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listItems } from "../../src/core/trackers/format";
import { buildCli, pollUntil, startMcp, type McpSession } from "../helpers/mcp-client";
import { sampleVaultCopy } from "../helpers/temp-vault";

beforeAll(() => buildCli(), 60_000);

type Hits = { results: { path: string }[] };

describe("mcp server and changes made on disk", () => {
  let vault: ReturnType<typeof sampleVaultCopy>;
  let s: McpSession;
  const paths = async (query: string): Promise<string[]> =>
    ((await s.call("search", { query, scope: "all" })).structuredContent as Hits).results.map(
      (r) => r.path,
    );

  beforeAll(async () => {
    vault = sampleVaultCopy();
    s = await startMcp(vault.root, ["--agent", "link"]);
  }, 30_000);
  afterAll(async () => {
    await s?.close();
    vault?.cleanup();
  });

  it("a note written on disk between two calls is found by the second; edits, renames and removals follow", async () => {
    const path = "Memory/Library/SEO/Wombat sitemap.md";
    expect(await paths("wombatsitemap")).toEqual([]);
    writeFileSync(
      join(vault.root, path),
      "# Wombat sitemap\n\nThe wombatsitemap lists every landing page.\n",
    );
    expect(
      await pollUntil(async () =>
        (await paths("wombatsitemap")).includes(path) ? true : undefined,
      ),
    ).toBe(true);
    // An edit: the old word goes, the new one comes.
    writeFileSync(join(vault.root, path), "# Wombat sitemap\n\nNow the numbatindex lists them.\n");
    await pollUntil(async () => ((await paths("numbatindex")).includes(path) ? true : undefined));
    expect(await paths("wombatsitemap")).toEqual([]);
    // A rename: found at the new path only.
    const moved = "Memory/Library/SEO/Numbat index.md";
    renameSync(join(vault.root, path), join(vault.root, moved));
    await pollUntil(async () => {
      const found = await paths("numbatindex");
      return found.includes(moved) && !found.includes(path) ? true : undefined;
    });
    // A removal.
    rmSync(join(vault.root, moved));
    await pollUntil(async () => ((await paths("numbatindex")).length === 0 ? true : undefined));
    const status = (await s.call("status")).structuredContent as {
      last_change: { path: string } | null;
      pending: number;
    };
    expect(status.last_change?.path).toBe(moved);
    expect(status.pending).toBe(0);
  });

  it("a note that becomes unreadable is dropped from results and named once on stderr; fixed, it comes back", async () => {
    const path = "Memory/Library/SEO/Echidna notes.md";
    const abs = join(vault.root, path);
    writeFileSync(abs, "# Echidna notes\n\nThe echidnaword is here.\n");
    await pollUntil(async () => ((await paths("echidnaword")).includes(path) ? true : undefined));
    // Saved as Latin-1: the old text must not be served any more.
    writeFileSync(
      abs,
      Buffer.from("# Echidna notes\n\nThe echidnaword is here, caf\xe9.\n", "latin1"),
    );
    await pollUntil(async () => (s.stderr().includes(`left out ${path}`) ? true : undefined));
    expect(await paths("echidnaword")).toEqual([]);
    // Touched again while still unreadable: named once, not on every change.
    writeFileSync(
      abs,
      Buffer.from("# Echidna notes\n\nThe echidnaword, caf\xe9 again.\n", "latin1"),
    );
    const marker = "Memory/Library/SEO/Echidna marker.md";
    writeFileSync(join(vault.root, marker), "# Marker\n\nechidnamarker\n");
    await pollUntil(async () => ((await paths("echidnamarker")).length > 0 ? true : undefined));
    expect(await paths("echidnaword")).toEqual([]);
    const lines = s
      .stderr()
      .split("\n")
      .filter((l) => l.includes(path));
    expect(lines).toEqual([
      expect.stringMatching(
        /^index: left out Memory\/Library\/SEO\/Echidna notes\.md: not valid UTF-8 \(first bad byte 0xe9/,
      ),
    ]);
    // Frontmatter that does not parse: indexed by its body as it is now, not by the old text.
    writeFileSync(abs, "---\ntitle: [broken\n---\n# Echidna notes\n\nThe wallabyword now.\n");
    await pollUntil(async () => ((await paths("wallabyword")).includes(path) ? true : undefined));
    expect(await paths("echidnaword")).toEqual([]);
    // Fixed: found again. Then replaced by a link out of the vault: not served either.
    writeFileSync(abs, "# Echidna notes\n\nThe echidnaword is back.\n");
    await pollUntil(async () => ((await paths("echidnaword")).includes(path) ? true : undefined));
    rmSync(abs);
    symlinkSync("/etc/hostname", abs);
    await pollUntil(async () => ((await paths("echidnaword")).length === 0 ? true : undefined));
    rmSync(abs);
    rmSync(join(vault.root, marker));
  });

  it("a note in a new folder is followed too; hidden folders never are", async () => {
    mkdirSync(join(vault.root, "Memory/.drafts"), { recursive: true });
    writeFileSync(
      join(vault.root, "Memory/.drafts/Hidden.md"),
      "# Hidden\n\nquollword in a hidden folder\n",
    );
    mkdirSync(join(vault.root, "Memory/Library/New area/Deep"), { recursive: true });
    writeFileSync(
      join(vault.root, "Memory/Library/New area/Deep/Visible.md"),
      "# Visible\n\nquollword in a new folder\n",
    );
    const found = await pollUntil(async () => {
      const p = await paths("quollword");
      return p.includes("Memory/Library/New area/Deep/Visible.md") ? p : undefined;
    });
    expect(found).toEqual(["Memory/Library/New area/Deep/Visible.md"]);
    // The folder renamed: its notes move with it in the index.
    renameSync(
      join(vault.root, "Memory/Library/New area"),
      join(vault.root, "Memory/Library/Moved area"),
    );
    await pollUntil(async () => {
      const p = await paths("quollword");
      return p.length === 1 && p[0] === "Memory/Library/Moved area/Deep/Visible.md"
        ? true
        : undefined;
    });
    // And removed with it.
    rmSync(join(vault.root, "Memory/Library/Moved area"), { recursive: true });
    await pollUntil(async () => ((await paths("quollword")).length === 0 ? true : undefined));
  });

  it("a note in an isolated zone written on disk is indexed in its zone only, out of this server's reach", async () => {
    writeFileSync(
      join(vault.root, "Memory/Restricted/Incidents/New.md"),
      "# New\n\nplatypusword secret\n",
    );
    writeFileSync(join(vault.root, "Memory/Library/SEO/Marker.md"), "# Marker\n\nplatypusmarker\n");
    await pollUntil(async () => ((await paths("platypusmarker")).length > 0 ? true : undefined));
    expect(await paths("platypusword")).toEqual([]);
    expect(
      (await s.call("read_note", { note: "Memory/Restricted/Incidents/New.md" })).isError,
    ).toBe(true);
  });
});

describe("two servers on one vault", () => {
  let vault: ReturnType<typeof sampleVaultCopy>;
  let a: McpSession;
  let b: McpSession;
  beforeAll(async () => {
    vault = sampleVaultCopy();
    [a, b] = await Promise.all([
      startMcp(vault.root, ["--agent", "link"]),
      startMcp(vault.root, ["--agent", "link"]),
    ]);
  }, 30_000);
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    vault?.cleanup();
  });

  it("two clients adding and updating items of the same tracker at once lose nothing", async () => {
    const path = join(vault.root, "Memory/Agents/link/Trackers/Tasks.md");
    const before = listItems(readFileSync(path, "utf8"));
    const n = 12;
    const calls = [];
    for (let i = 0; i < n; i++) {
      calls.push(a.call("add_tracker_item", { kind: "tasks", text: `From A number ${i}` }));
      calls.push(b.call("add_tracker_item", { kind: "tasks", text: `From B number ${i}` }));
    }
    calls.push(
      a.call("update_tracker_item", { kind: "tasks", id: "t-005", progress: "A: 4 of 20 done" }),
    );
    calls.push(
      b.call("update_tracker_item", { kind: "tasks", id: "t-005", progress: "B: 9 of 20 done" }),
    );
    const results = await Promise.all(calls);
    expect(results.filter((r) => r.isError).map((r) => r.content[0]?.text)).toEqual([]);
    const text = readFileSync(path, "utf8");
    const items = listItems(text);
    const ids = items.map((i) => i.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(items.length).toBe(before.length + 2 * n);
    for (let i = 0; i < n; i++) {
      expect(items.filter((it) => it.text === `From A number ${i}`)).toHaveLength(1);
      expect(items.filter((it) => it.text === `From B number ${i}`)).toHaveLength(1);
    }
    for (const old of before) expect(items.find((it) => it.id === old.id)?.text).toBe(old.text);
    expect(text).toContain("A: 4 of 20 done");
    expect(text).toContain("B: 9 of 20 done");
    // The ids the clients were given are the ids in the note.
    const given = results.slice(0, 2 * n).map((r) => (r.structuredContent as { id: string }).id);
    expect(new Set(given).size).toBe(2 * n);
    for (const id of given) expect(ids).toContain(id);
    // Each server sees the other's writes through its watcher.
    await pollUntil(async () =>
      ((await b.call("search", { query: '"From A number 7"' })).structuredContent as Hits).results
        .length > 0
        ? true
        : undefined,
    );
  });
});
