// `agent-memory mcp --watch-extract MINUTES` (docs/compaction.md): the server's watch-and-extract
// wiring driven in-process with a clock turned by hand (no test waits on real time), and the flag
// through the built server with the SDK's own client over stdio.
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openVault } from "../../src/node/context";
import { MemoryAccess } from "../../src/mcp/access";
import { parseWatchMinutes, startWatchExtract } from "../../src/mcp/watch-extract";
import { listQueue, pendingQueueEntries, reviewQueuePath } from "../../src/core/watch";
import { listItems } from "../../src/core/trackers/format";
import { cliRun } from "../helpers/cli-run";
import { pollUntil, startMcp, type McpSession } from "../helpers/mcp-client";
import { MemoryLayout } from "../../src/core/layout";
import { defaultSettings } from "../../src/core/settings";
import { ManualClock } from "../helpers/manual-clock";
import { tempVault } from "../helpers/temp-vault";

const J = "Memory/Agents/link/Journal/2026-11-24.md";
const OTHER = "Memory/Agents/ming/Journal/2026-11-24.md";
const MIN = 60_000;

let cleanup: (() => void) | null = null;
let session: McpSession | null = null;
afterEach(async () => {
  await session?.close();
  session = null;
  cleanup?.();
  cleanup = null;
});

function setup() {
  const t = tempVault({
    [J]: "# 2026-11-24\n\n- [ ] Compress the hero images\n",
    [OTHER]: "# 2026-11-24\n\n- [ ] Not link's task\n",
    "Memory/Agents/link/Trackers/Tasks.md": "# Tasks\n",
  });
  cleanup = t.cleanup;
  return t;
}

function files(root: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of readdirSync(root, { recursive: true, withFileTypes: true })) {
    const abs = join(e.parentPath, e.name);
    if (e.isFile() && !abs.includes(".agent-memory"))
      out.set(abs.slice(root.length + 1), readFileSync(abs, "latin1"));
  }
  return out;
}

async function server(root: string, autoApply: boolean) {
  const logs: string[] = [];
  const ctx = await openVault(root, {
    out: () => undefined,
    err: (l) => logs.push(l),
    env: {
      AGENT_MEMORY_LLM_BASE_URL: "",
      AGENT_MEMORY_LLM_API_KEY: "",
      OPENAI_BASE_URL: "",
      OPENAI_API_KEY: "",
    },
  });
  const access = new MemoryAccess(ctx.vault, ctx.layout, "link", []);
  const clock = new ManualClock();
  const wrote: string[] = [];
  const watch = startWatchExtract({
    ctx,
    access,
    live: { wrote: (p) => (wrote.push(p), Promise.resolve()) },
    minutes: 10,
    autoApply,
    log: (l) => logs.push(l),
    scheduler: clock,
    watch: false,
    now: () => new Date("2026-11-24T20:00:00+08:00"),
  });
  return { ctx, watch, clock, logs, wrote, abs: (p: string) => join(root, p) };
}

describe("watch and extract in the MCP server (in-process, manual clock)", () => {
  it("queues a journal of its agent once quiet for the minutes given, only then, and a re-run changes nothing", async () => {
    const t = setup();
    const s = await server(t.root, false);
    const before = files(t.root);
    s.watch.changed(s.abs(J));
    s.watch.changed(s.abs(OTHER)); // another agent's journal: not this server's
    s.watch.changed(s.abs("Memory/Agents/link/Trackers/Tasks.md")); // not a journal
    expect(s.watch.waiting()).toEqual([J]);
    s.clock.advance(10 * MIN - 1);
    await s.watch.idle();
    expect(files(t.root)).toEqual(before);
    s.clock.advance(1);
    await s.watch.idle();
    const queuePath = reviewQueuePath(s.ctx.layout, "link");
    expect(s.wrote).toEqual([queuePath]);
    expect(s.logs.join("\n")).toContain(
      `watch: ${J} quiet for 10 min: 1 item(s) queued for review in ${queuePath}`,
    );
    const after = files(t.root);
    expect([...after.keys()].filter((p) => !before.has(p))).toEqual([queuePath]);
    for (const [p, text] of before) expect(after.get(p), p).toBe(text);
    expect(
      (await pendingQueueEntries(s.ctx.vault, s.ctx.layout, "link")).map((p) => p.items),
    ).toEqual([["task: Compress the hero images → Memory/Agents/link/Trackers/Tasks.md (added)"]]);

    // The journal saved again unchanged (an editor's save): quiet again, nothing new is written.
    s.watch.changed(s.abs(J));
    s.clock.advance(10 * MIN);
    await s.watch.idle();
    expect(files(t.root)).toEqual(after);
    expect(listQueue(after.get(queuePath) ?? "")).toHaveLength(1);
    await s.watch.close();
  });

  it("with auto-apply writes the items at once", async () => {
    const t = setup();
    const s = await server(t.root, true);
    s.watch.changed(s.abs(J));
    s.clock.advance(10 * MIN);
    await s.watch.idle();
    expect(
      listItems(readFileSync(join(t.root, "Memory/Agents/link/Trackers/Tasks.md"), "utf8")).map(
        (i) => i.text,
      ),
    ).toEqual(["Compress the hero images"]);
    expect(s.wrote).toContain("Memory/Agents/link/Trackers/Tasks.md");
    const once = files(t.root);
    // The journal gained its block id and hash: that change is seen, and the next run writes nothing.
    s.watch.changed(s.abs(J));
    s.clock.advance(10 * MIN);
    await s.watch.idle();
    expect(files(t.root)).toEqual(once);
    await s.watch.close();
  });
});

describe("--watch-extract through the built server", () => {
  it("takes whole minutes from 1 to 1440 and refuses anything else before starting", () => {
    expect(parseWatchMinutes("10")).toBe(10);
    expect(parseWatchMinutes("1440")).toBe(1440);
    for (const bad of ["0", "1441", "1.5", "ten", ""])
      expect(() => parseWatchMinutes(bad), bad).toThrow(
        /--watch-extract must be a whole number of minutes/,
      );
    const t = setup();
    for (const [args, reason] of [
      [["--watch-extract", "0"], /--watch-extract must be a whole number/],
      [["--watch-auto-apply"], /--watch-auto-apply needs --watch-extract MINUTES/],
      [["--watch-extract", "5", "--read-only"], /cannot be used with --read-only/],
    ] as const) {
      const r = cliRun("mcp", t.root, "--agent", "link", ...args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(reason);
    }
  });

  it("starts with the flag, says so, and serves its tools; a journal is not extracted before it has been quiet", async () => {
    const t = setup();
    session = await startMcp(t.root, ["--agent", "link", "--watch-extract", "30"]);
    const status = await session.call("status");
    expect(status.isError).toBeFalsy();
    const said = await pollUntil(async () =>
      session?.stderr().includes("watch and extract:") ? session.stderr() : undefined,
    );
    expect(said).toContain("watch and extract: journals quiet for 30 min go to the review queue");
    writeFileSync(
      join(t.root, J),
      "# 2026-11-24\n\n- [ ] Compress the hero images\n- [ ] And the logos\n",
    );
    // Thirty minutes have not passed: no queue note (the timing itself is tested with a manual clock above).
    expect((await session.call("list_trackers", { kind: "tasks" })).isError).toBeFalsy();
    expect(files(t.root).has(reviewQueuePath(new MemoryLayout(defaultSettings()), "link"))).toBe(
      false,
    );
  });
});
