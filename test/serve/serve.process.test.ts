// One-shot `agent-memory search` through a running server (docs/mcp.md, "One-shot searches
// through a running server"): the built launcher (dist/cli.js) asks `agent-memory serve` (or
// `agent-memory mcp`) on the vault's socket and prints what a run of its own would print, and runs
// on its own when no server answers. Every wait is bounded; nothing here asserts a duration.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { askServer, servedVault } from "../../src/serve/client";
import { PROTOCOL_VERSION, socketPathFor, timeZone } from "../../src/serve/socket-path";
import { buildCli, cliPath, serverEnv, startMcp } from "../helpers/mcp-client";
import { tempVault } from "../helpers/temp-vault";

beforeAll(() => buildCli(), 120_000);

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const notes: Record<string, string> = {
  "Memory/Library/Ops/Deploys.md":
    "---\ntype: knowledge\n---\n# Deploys\n\nThe canary deploy runs before the fleet deploy. ^b1\n\nRollback takes two minutes.\n",
  "Memory/Library/Ops/Pager.md":
    "# Pager\n\nThe pager rotation changes on Mondays; a deploy freeze starts on Fridays.\n",
  "Memory/Agents/link/Knowledge/learning/Canary.md":
    "# Canary\n\nA canary catches a bad deploy early. 金丝雀发布先于全量发布。\n",
  "Memory/Agents/link/Journal/2026-06-01.md": "# 2026-06-01\n\nWorked on the deploy pipeline.\n",
};

function vault(files: Record<string, string> = notes) {
  const t = tempVault(files);
  cleanups.push(t.cleanup);
  return t;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI without blocking this process (a fake server in it must answer). */
function cli(args: string[], env: Record<string, string> = {}, cwd?: string): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cliPath, ...args],
      { env: { ...serverEnv(), ...env }, cwd, encoding: "utf8", maxBuffer: 16 * 2 ** 20 },
      (err, stdout, stderr) => {
        const code = err ? ((err as { code?: unknown }).code as number | null) : 0;
        resolve({ code: typeof code === "number" ? code : null, stdout, stderr });
      },
    );
  });
}

/** The same run without any server (the full CLI opening the saved index). */
const cold = (args: string[], cwd?: string) => cli(args, { AGENT_MEMORY_SERVER: "off" }, cwd);

/** The note paths of a `search --json` run. */
function pathsOf(r: Run): string[] {
  return (JSON.parse(r.stdout) as { results: { path: string }[] }).results.map((x) => x.path);
}

/** The run's output with its timings taken out (they differ between any two runs). */
function same(r: Run): Run {
  const strip = (s: string) =>
    s.replace(/"took_ms": [\d.e+-]+/g, '"took_ms": 0').replace(/\(\d+(\.\d+)? ms\)/g, "(0 ms)");
  return { code: r.code, stdout: strip(r.stdout), stderr: strip(r.stderr) };
}

/** A running `agent-memory serve`; `stop()` sends SIGTERM and resolves with its whole log. */
interface Serve {
  child: ChildProcess;
  log: () => string;
  stop: () => Promise<string>;
}

async function serve(root: string, env: Record<string, string> = {}): Promise<Serve> {
  const child = spawn(process.execPath, [cliPath, "serve", root], {
    env: { ...serverEnv(), ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let log = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${log}`)), 30_000);
    child.stderr?.on("data", (c: Buffer) => {
      log += c.toString("utf8");
      if (/listening on /.test(log)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited (${code}): ${log}`));
    });
  });
  let stopped: Promise<string> | null = null;
  const stop = () => {
    stopped ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
      return log;
    })();
    return stopped;
  };
  cleanups.push(async () => {
    await stop();
  });
  return { child, log: () => log, stop };
}

function sockOf(root: string): string {
  const where = socketPathFor(root);
  if (!("path" in where)) throw new Error(where.none);
  return where.path;
}

/** A server that accepts and then does `behave` with the connection (dies, stalls). */
async function fakeServer(
  path: string,
  behave: (conn: import("node:net").Socket) => void,
): Promise<{ server: Server; requests: () => number }> {
  mkdirSync(join(path, ".."), { recursive: true });
  let requests = 0;
  const server = createServer((conn) => {
    conn.once("data", () => {
      requests++;
      behave(conn);
    });
  });
  await new Promise<void>((resolve) => server.listen(path, () => resolve()));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { server, requests: () => requests };
}

const queries: string[][] = [
  ["deploy"],
  ["deploy", "--json"],
  ["canary", "--passages", "3", "--json"],
  ["金丝雀"],
  ["deploy", "-pager", "--scope", "library"],
  ["type:knowledge", "--limit", "1"],
];

describe("which runs a server may answer", () => {
  it("only a plain search, with its vault argument", () => {
    expect(servedVault(["search", "v", "deploy"])).toBe("v");
    expect(servedVault(["search", "--scope", "library", "v", "q"])).toBe("v");
    expect(servedVault(["search", "--limit=3", "--json", "v", "q"])).toBe("v");
    expect(servedVault(["search", "--help"])).toBeNull();
    expect(servedVault(["search", "--unknown", "v", "q"])).toBeNull();
    expect(servedVault(["health", "v"])).toBeNull();
    expect(servedVault(["search"])).toBeNull();
  });
});

describe("one-shot search through agent-memory serve", () => {
  it("prints what a run without a server prints, text and --json, and the server answered them", async () => {
    const t = vault();
    expect((await cold(["index", t.root])).code).toBe(0);
    const s = await serve(t.root);
    for (const q of queries) {
      const args = ["search", t.root, ...q];
      const [warm, own] = [await cli(args), await cold(args)];
      expect(same(warm), q.join(" ")).toEqual(same(own));
      expect(warm.code).toBe(0);
    }
    // A relative vault argument is resolved against the caller's folder, not the server's.
    const rel = await cli(["search", ".", "deploy"], {}, t.root);
    expect(same(rel)).toEqual(same(await cold(["search", ".", "deploy"], t.root)));
    // Usage errors come out as the CLI words them.
    const bad = await cli(["search", t.root, "deploy", "--limit", "0"]);
    expect(bad.code).toBe(2);
    expect(same(bad)).toEqual(same(await cold(["search", t.root, "deploy", "--limit", "0"])));
    expect(await s.stop()).toContain(`serve: stopped after ${queries.length + 2} searches`);
  }, 120_000);

  it("sees a note written just before the search", async () => {
    const t = vault();
    await serve(t.root);
    t.write("Memory/Library/Ops/New.md", "# New\n\nThe zorblax runbook.\n");
    const r = await cli(["search", t.root, "zorblax", "--json"]);
    expect(pathsOf(r)).toEqual(["Memory/Library/Ops/New.md"]);
  }, 60_000);

  it("a search with a folder linked out of the vault and a note not UTF-8 prints the CLI's warnings, and a plain search the CLI's output", async () => {
    const t = vault();
    writeFileSync(
      join(t.root, "Memory/Library/Ops/Latin1.md"),
      Buffer.from("# Latin1\n\nCaf\xe9 canary deploy notes\n", "latin1"),
    );
    const outside = mkdtempSync(join(tmpdir(), "am-outside-"));
    cleanups.push(() => rmSync(outside, { recursive: true, force: true }));
    writeFileSync(join(outside, "Out.md"), "# Out\n\ncanary\n");
    symlinkSync(outside, join(t.root, "Memory/Library/Outside"));
    expect((await cold(["index", t.root])).code).toBe(1);
    const s = await serve(t.root);
    for (const q of [["canary"], ["canary", "--json"]]) {
      const args = ["search", t.root, ...q];
      const [warm, own] = [await cli(args), await cold(args)];
      expect(same(warm), q.join(" ")).toEqual(same(own));
      expect(warm.stderr.split("\n").filter((l) => l !== "")).toEqual([
        `warning: skipped Memory/Library/Outside/: Memory/Library/Outside is a symbolic link to ${outside}, outside the vault (${outside}); its notes are not read`,
        "index: left out Memory/Library/Ops/Latin1.md: not valid UTF-8 (first bad byte 0xe9 at offset 13); convert it to UTF-8 to use it",
      ]);
    }
    // A link made while the server runs is warned of too (the watcher meets it), and once the
    // links are gone neither run warns of them.
    // So is a note linked out of the vault (left out, named).
    symlinkSync(outside, join(t.root, "Memory/Agents/link/Later"));
    symlinkSync(join(outside, "Out.md"), join(t.root, "Memory/Library/Ops/OutNote.md"));
    const args = ["search", t.root, "canary"];
    const [later, laterOwn] = [await cli(args), await cold(args)];
    expect(same(later)).toEqual(same(laterOwn));
    expect(later.stderr).toContain("warning: skipped Memory/Agents/link/Later/: ");
    expect(later.stderr).toContain("index: left out Memory/Library/Ops/OutNote.md: ");
    rmSync(join(t.root, "Memory/Library/Outside"));
    rmSync(join(t.root, "Memory/Agents/link/Later"));
    rmSync(join(t.root, "Memory/Library/Ops/OutNote.md"));
    const [warm, own] = [await cli(args), await cold(args)];
    expect(same(warm)).toEqual(same(own));
    expect(warm.stderr).not.toContain("warning: skipped");
    expect(warm.stderr).not.toContain("OutNote");
    expect(await s.stop()).toContain("serve: stopped after 4 searches");
  }, 120_000);

  it("a plain search, a search with no results and its hint, and a usage error print the CLI's output and exit code", async () => {
    const t = vault();
    expect((await cold(["index", t.root])).code).toBe(0);
    const s = await serve(t.root);
    for (const args of [
      ["search", t.root, "deploy"],
      ["search", t.root, "status:open zorblax"],
      ["search", t.root, "deploy", "--scope", "nowhere:x"],
    ]) {
      const [warm, own] = [await cli(args), await cold(args)];
      expect(same(warm), args.join(" ")).toEqual(same(own));
    }
    expect(await s.stop()).toMatch(/serve: stopped after [23] searches/);
  }, 120_000);

  it("listens on a socket of mode 600 that is gone once the server stops", async () => {
    const t = vault();
    const s = await serve(t.root);
    const path = sockOf(t.root);
    const st = lstatSync(path);
    expect(st.isSocket()).toBe(true);
    expect(st.mode & 0o777).toBe(0o600);
    await s.stop();
    expect(existsSync(path)).toBe(false);
    // Without the server the CLI runs on its own.
    const r = await cli(["search", t.root, "deploy"]);
    expect(same(r)).toEqual(same(await cold(["search", t.root, "deploy"])));
  }, 60_000);

  it("a second server on the same vault refuses to start (exit 2) and leaves the first one's socket", async () => {
    const t = vault();
    await serve(t.root);
    const second = await cli(["serve", t.root]);
    expect(second.code).toBe(2);
    expect(second.stderr).toMatch(
      /^agent-memory serve: another server answers on .*serve\.sock\n$/,
    );
    expect(lstatSync(sockOf(t.root)).isSocket()).toBe(true);
  }, 60_000);

  it("a server for vault A does not answer for vault B, even through a link to its socket", async () => {
    const a = vault();
    const b = vault({ "Memory/Library/B.md": "# B\n\nOnly vault B knows the deploy of qwerty.\n" });
    const s = await serve(a.root);
    // Asked directly with B's vault, A's server refuses.
    const reply = await askServer(sockOf(a.root), {
      v: PROTOCOL_VERSION,
      argv: ["search", b.root, "deploy"],
      cwd: b.root,
      vault: b.root,
      env: {},
      tz: timeZone(),
    });
    expect(reply).toEqual({ fallback: "another vault" });
    // B's socket path is a link to A's socket: the launcher reaches A, which refuses; B's own run answers.
    mkdirSync(join(b.root, ".agent-memory"), { recursive: true });
    symlinkSync(sockOf(a.root), sockOf(b.root));
    const r = await cli(["search", b.root, "deploy", "--json"]);
    expect(pathsOf(r)).toEqual(["Memory/Library/B.md"]);
    expect(same(r)).toEqual(same(await cold(["search", b.root, "deploy", "--json"])));
    // Nor does it run anything but search.
    expect(
      await askServer(sockOf(a.root), {
        v: PROTOCOL_VERSION,
        argv: ["init", a.root],
        cwd: a.root,
        vault: a.root,
        env: {},
        tz: timeZone(),
      }),
    ).toEqual({ fallback: '"init" is not run by a server' });
    expect(await s.stop()).toContain("serve: stopped after 0 searches");
  }, 60_000);

  it("settings changed since the server opened the index: the CLI runs on its own", async () => {
    const t = vault();
    const s = await serve(t.root);
    t.write(
      ".obsidian/plugins/agent-memory/data.json",
      JSON.stringify({ search: { recencyHalfLifeDays: 30 } }),
    );
    const r = await cli(["search", t.root, "deploy"]);
    expect(same(r)).toEqual(same(await cold(["search", t.root, "deploy"])));
    expect(await s.stop()).toContain("serve: stopped after 0 searches");
  }, 60_000);

  it("a caller in another time zone (expiry is judged by the local date): the CLI runs on its own", async () => {
    const t = vault();
    const s = await serve(t.root, { TZ: "UTC" });
    const r = await cli(["search", t.root, "deploy"], { TZ: "Asia/Tokyo" });
    expect(same(r)).toEqual(
      same(
        await cli(["search", t.root, "deploy"], { TZ: "Asia/Tokyo", AGENT_MEMORY_SERVER: "off" }),
      ),
    );
    expect((await cli(["search", t.root, "deploy"], { TZ: "UTC" })).code).toBe(0);
    expect(await s.stop()).toContain("serve: stopped after 1 search");
  }, 60_000);
});

describe("the launcher runs on its own when no server answers", () => {
  it("a stale socket (its server killed): the CLI runs on its own, and the next server replaces it", async () => {
    const t = vault();
    const first = await serve(t.root);
    first.child.kill("SIGKILL");
    await first.stop();
    expect(lstatSync(sockOf(t.root)).isSocket()).toBe(true);
    const r = await cli(["search", t.root, "deploy"]);
    expect(r.code).toBe(0);
    expect(same(r)).toEqual(same(await cold(["search", t.root, "deploy"])));
    const second = await serve(t.root);
    expect((await cli(["search", t.root, "deploy"])).code).toBe(0);
    expect(await second.stop()).toContain("serve: stopped after 1 search");
  }, 60_000);

  it("a server that dies in the middle of a request", async () => {
    const t = vault();
    const fake = await fakeServer(sockOf(t.root), (conn) => {
      conn.write('{"code": 0, "li');
      conn.destroy();
    });
    const r = await cli(["search", t.root, "deploy", "--json"]);
    expect(fake.requests()).toBe(1);
    expect(same(r)).toEqual(same(await cold(["search", t.root, "deploy", "--json"])));
  }, 60_000);

  it("a server that never answers: the wait is bounded", async () => {
    const t = vault();
    const fake = await fakeServer(sockOf(t.root), () => undefined);
    const r = await cli(["search", t.root, "deploy"], { AGENT_MEMORY_SERVER_TIMEOUT_MS: "200" });
    expect(fake.requests()).toBe(1);
    expect(same(r)).toEqual(same(await cold(["search", t.root, "deploy"])));
  }, 60_000);

  it("a file that is not a socket is left alone", async () => {
    const t = vault();
    mkdirSync(join(t.root, ".agent-memory"), { recursive: true });
    writeFileSync(sockOf(t.root), "not a socket");
    const r = await cli(["search", t.root, "deploy"]);
    expect(same(r)).toEqual(same(await cold(["search", t.root, "deploy"])));
    const s = await cli(["serve", t.root]);
    expect(s.code).toBe(2);
    expect(s.stderr).toMatch(/exists and is not a socket/);
  }, 60_000);
});

describe("agent-memory mcp answers one-shot searches too", () => {
  it("same output as a run of its own; the socket is gone when the client closes", async () => {
    const t = vault();
    const session = await startMcp(t.root, ["--agent", "link"]);
    let closed = false;
    cleanups.push(async () => {
      if (!closed) await session.close();
    });
    // The server logs its start line once the socket listens.
    for (let i = 0; i < 300 && !/CLI searches answered on/.test(session.stderr()); i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(session.stderr()).toMatch(/CLI searches answered on .*serve\.sock/);
    for (const q of queries.slice(0, 3)) {
      const args = ["search", t.root, ...q];
      expect(same(await cli(args))).toEqual(same(await cold(args)));
    }
    await session.close();
    closed = true;
    for (let i = 0; i < 100 && existsSync(sockOf(t.root)); i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(existsSync(sockOf(t.root))).toBe(false);
  }, 60_000);
});

/** The hook command line of agent `link` on `root` with the event's JSON as its last argument. */
const hookLine = (root: string, event: string) => [
  "hook",
  "claude-code",
  "--vault",
  root,
  "--agent",
  "link",
  event,
];

describe("Claude Code hooks through agent-memory serve", () => {
  const event = (e: Record<string, unknown>) => JSON.stringify(e);
  const hookArgs = (root: string, e: Record<string, unknown>) => hookLine(root, event(e));

  it("a server answers only the hooks that read", () => {
    expect(servedVault(hookArgs("v", { hook_event_name: "UserPromptSubmit", prompt: "x" }))).toBe(
      "v",
    );
    expect(servedVault(hookArgs("v", { hook_event_name: "SessionStart" }))).toBe("v");
    expect(
      servedVault(hookArgs("v", { hook_event_name: "Stop", transcript_path: "/t" })),
    ).toBeNull();
    expect(
      servedVault(["hook", "codex", "--vault", "v", event({ hook_event_name: "SessionStart" })]),
    ).toBeNull();
    expect(servedVault(["hook", "claude-code", "--vault", "v", "{not json"])).toBeNull();
  });

  it("UserPromptSubmit and SessionStart print what a run of their own prints", async () => {
    const t = vault();
    expect((await cold(["index", t.root])).code).toBe(0);
    const s = await serve(t.root);
    const prompt = hookArgs(t.root, {
      hook_event_name: "UserPromptSubmit",
      prompt: "Does the canary deploy run first?",
    });
    const start = hookArgs(t.root, { hook_event_name: "SessionStart", source: "startup" });
    for (const args of [prompt, start]) {
      const [warm, own] = [await cli(args), await cold(args)];
      expect(warm).toEqual(own);
      expect(warm.code).toBe(0);
      expect(warm.stdout).toContain("additionalContext");
    }
    expect(await s.stop()).toContain("serve: stopped after 2 searches");
  }, 120_000);

  it("SessionStart: the brief computed at start is given until a note changes, then the new one", async () => {
    const t = vault();
    expect((await cold(["index", t.root])).code).toBe(0);
    const s = await serve(t.root);
    for (let i = 0; i < 600 && !/session briefs of/.test(s.log()); i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(s.log()).toContain("serve: session briefs of 1 agent ready");
    const start = hookArgs(t.root, { hook_event_name: "SessionStart", source: "startup" });
    const kept = await cli(start);
    expect(kept).toEqual(await cold(start));
    expect(kept.stdout).not.toContain("zorblax");
    t.write(
      "Memory/Agents/link/Trackers/Tasks.md",
      "---\ntype: tracker\nkind: tasks\nagent: link\n---\n# Tasks\n\n- [ ] Write the zorblax runbook [created:: 2026-06-01] ^t-001\n",
    );
    const changed = await cli(start);
    expect(changed.stdout).toContain("zorblax");
    expect(changed).toEqual(await cold(start));
    // Another session's event fields do not matter; the reply is the one just computed.
    const resumed = hookArgs(t.root, { hook_event_name: "SessionStart", source: "resume" });
    expect(await cli(resumed)).toEqual(changed);
    expect(await s.stop()).toContain("serve: stopped after 3 searches");
  }, 120_000);
});

describe("the plugin's shell hook (hooks/claude-code-hook.sh)", () => {
  const script = fileURLToPath(new URL("../../hooks/claude-code-hook.sh", import.meta.url));

  /** A folder holding an `agent-memory` that runs the built CLI and counts its calls. */
  function shim(): { bin: string; calls: () => number } {
    const bin = mkdtempSync(join(tmpdir(), "am-bin-"));
    cleanups.push(() => rmSync(bin, { recursive: true, force: true }));
    const count = join(bin, "calls");
    writeFileSync(
      join(bin, "agent-memory"),
      `#!/bin/sh\necho x >> "${count}"\nexec "${process.execPath}" "${cliPath}" "$@"\n`,
      { mode: 0o755 },
    );
    return {
      bin,
      calls: () => (existsSync(count) ? readFileSync(count, "utf8").split("\n").length - 1 : 0),
    };
  }

  /** Runs the script as Claude Code runs a plugin's hook: the event on stdin, through sh. */
  function hook(root: string, event: string, env: Record<string, string>): Promise<Run> {
    return new Promise((resolve) => {
      const child = execFile(
        "/bin/sh",
        [script],
        {
          env: { ...serverEnv(), AGENT_MEMORY_VAULT: root, AGENT_MEMORY_AGENT: "link", ...env },
          encoding: "utf8",
        },
        (err, stdout, stderr) => {
          const code = err ? ((err as { code?: unknown }).code as number | null) : 0;
          resolve({ code: typeof code === "number" ? code : null, stdout, stderr });
        },
      );
      child.stdin?.end(event);
    });
  }

  const args = hookLine;
  const prompt = JSON.stringify({
    hook_event_name: "UserPromptSubmit",
    prompt: "Does the canary deploy run first?",
  });
  const start = JSON.stringify({ hook_event_name: "SessionStart", source: "startup" });

  /** A vault in a folder whose name needs quoting in a shell (a space and a quote). */
  function awkwardVault(): string {
    const t = vault({});
    const root = join(t.root, "my 'vault");
    for (const [path, text] of Object.entries(notes)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    return root;
  }

  it("a running server answers SessionStart and UserPromptSubmit without the CLI, as the CLI would", async () => {
    const root = awkwardVault();
    expect((await cold(["index", root])).code).toBe(0);
    const s = await serve(root);
    const { bin, calls } = shim();
    const env = { PATH: `${bin}:${process.env.PATH ?? ""}` };
    for (const event of [prompt, start]) {
      const fast = await hook(root, event, env);
      expect(fast).toEqual(await cold(args(root, event)));
      expect(fast.stdout).toContain("additionalContext");
    }
    expect(calls()).toBe(0);
    expect(await s.stop()).toContain("serve: stopped after 2 searches");
  }, 120_000);

  it("a note that is not UTF-8 and a folder linked out are named once in the server's log, and the hooks are still served, as the CLI answers them", async () => {
    const root = awkwardVault();
    mkdirSync(join(root, "Memory/Library/Ops"), { recursive: true });
    writeFileSync(
      join(root, "Memory/Library/Ops/Latin1.md"),
      Buffer.from("# Latin1\n\nCaf\xe9 canary deploy notes\n", "latin1"),
    );
    // And a folder that is a link out of the vault (skipped, its notes not read).
    const outside = mkdtempSync(join(tmpdir(), "am-outside-"));
    cleanups.push(() => rmSync(outside, { recursive: true, force: true }));
    writeFileSync(join(outside, "Out.md"), "# Out\n\ncanary\n");
    symlinkSync(outside, join(root, "Memory/Library/Outside"));
    // `index` names the note and exits 1 (a note left out); the saved index is written.
    expect((await cold(["index", root])).code).toBe(1);
    const s = await serve(root);
    const { bin, calls } = shim();
    const env = { PATH: `${bin}:${process.env.PATH ?? ""}` };
    for (const event of [prompt, start, prompt, start]) {
      const fast = await hook(root, event, env);
      expect(fast).toEqual(await cold(args(root, event)));
      expect(fast.stderr).toBe("");
      expect(fast.stdout).toContain("additionalContext");
    }
    expect(calls()).toBe(0);
    const log = await s.stop();
    expect(log).toContain("serve: stopped after 4 searches");
    expect(log.match(/left out Memory\/Library\/Ops\/Latin1\.md: not valid UTF-8/g)).toHaveLength(
      1,
    );
    expect(log.match(/skipped Memory\/Library\/Outside\/: /g)).toHaveLength(1);
  }, 120_000);

  it("a vault given as ~/…: the served brief names it as the CLI's own run does, in its Not shown line too", async () => {
    const home = mkdtempSync(join(tmpdir(), "am-home-"));
    cleanups.push(() => rmSync(home, { recursive: true, force: true }));
    const root = join(home, "v");
    for (const [path, text] of Object.entries(notes)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    // More open tasks than the SessionStart brief shows: its "Not shown" line names the vault.
    const tasks = Array.from(
      { length: 150 },
      (_, i) =>
        `- [ ] Task ${i} of the long deploy pipeline and its configuration [created:: 2026-06-01] ^t-${String(i).padStart(3, "0")}`,
    );
    mkdirSync(join(root, "Memory/Agents/link/Trackers"), { recursive: true });
    writeFileSync(
      join(root, "Memory/Agents/link/Trackers/Tasks.md"),
      `---\ntype: tracker\nkind: tasks\nagent: link\n---\n# Tasks\n\n${tasks.join("\n")}\n`,
    );
    const env = { HOME: home };
    const own = (argv: string[]) => cli(argv, { ...env, AGENT_MEMORY_SERVER: "off" });
    expect((await own(["index", root])).code).toBe(0);
    const s = await serve(root, env);
    const { bin, calls } = shim();
    const tilde = args("~/v", start);
    const expected = await own(tilde);
    expect(expected.code).toBe(0);
    expect(expected.stdout).toContain(
      `not shown: \`agent-memory trackers ${root} --agent link --kind tasks\``,
    );
    // The plugin's shell hook (it expands ~ itself), the launcher, and the vault given in full.
    const viaHook = await hook("~/v", start, {
      ...env,
      AGENT_MEMORY_VAULT: "~/v",
      PATH: `${bin}:${process.env.PATH ?? ""}`,
    });
    expect(calls()).toBe(0);
    expect(viaHook).toEqual(expected);
    expect(await cli(tilde, env)).toEqual(expected);
    expect(await own(args(root, start))).toEqual(expected);
    expect(await s.stop()).toContain("serve: stopped after 2 searches");
  }, 120_000);

  it("runs the CLI for another event, a bad event, AGENT_MEMORY_SERVER=off, or no server", async () => {
    const root = awkwardVault();
    expect((await cold(["index", root])).code).toBe(0);
    const { bin, calls } = shim();
    const env = { PATH: `${bin}:${process.env.PATH ?? ""}` };
    const stop = JSON.stringify({ hook_event_name: "Stop", transcript_path: join(root, "none") });
    const s = await serve(root);
    let expected = 0;
    for (const [event, extra] of [
      [stop, {}],
      ["{not json", {}],
      [prompt, { AGENT_MEMORY_SERVER: "off" }],
    ] as const) {
      const r = await hook(root, event, { ...env, ...extra });
      expect(r.code).toBe(0);
      expect(calls()).toBe(++expected);
      expect(same(r)).toEqual(same(await cold(args(root, event))));
    }
    expect(await s.stop()).toContain("serve: stopped after 0 searches");
    const alone = await hook(root, prompt, env);
    expect(calls()).toBe(++expected);
    expect(alone).toEqual(await cold(args(root, prompt)));
  }, 120_000);

  it("exits 0 with one line when no server answers and agent-memory is not on PATH", async () => {
    const t = vault();
    // A PATH of only the tools the script uses, so an agent-memory installed on this machine
    // (npm install -g puts one in /usr/bin) is not found.
    const bin = mkdtempSync(join(tmpdir(), "am-path-"));
    for (const tool of ["cat", "env", "sed"]) {
      const found = ["/usr/bin", "/bin"].map((d) => join(d, tool)).find((f) => existsSync(f));
      if (found) symlinkSync(found, join(bin, tool));
    }
    const r = await hook(t.root, start, { PATH: bin });
    rmSync(bin, { recursive: true, force: true });
    expect(r).toEqual({
      code: 0,
      stdout: "",
      stderr:
        'agent-memory: not on PATH; install it as docs/agents.md says ("Claude Code: the plugin")\n',
    });
  });
});
