// The served SessionStart replies (docs/decisions.md, "A server keeps the SessionStart brief"):
// after a change, only the replies a hook has asked for are computed again in the background.
import { homedir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ReplyCache } from "../../src/serve/socket-server";
import type { LiveIndex } from "../../src/node/live-index";
import type { ServeRequest } from "../../src/serve/socket-path";

afterEach(() => {
  vi.useRealTimers();
});

function setup() {
  const live = { generation: 0, service: { notes: () => [] } };
  const asked: string[] = [];
  const background: boolean[] = [];
  const cache = new ReplyCache(live as unknown as LiveIndex, (req, inBackground) => {
    asked.push(req.argv.join(" "));
    background.push(inBackground);
    return Promise.resolve({ code: 0, lines: [["o", `brief of ${req.argv.join(" ")}`]] });
  });
  const req = (agent: string) => ({ argv: ["hook", agent] }) as unknown as ServeRequest;
  return { live, asked, background, cache, req };
}

describe("ReplyCache", () => {
  it("a change recomputes the replies a hook asked for, not those computed ahead at start", async () => {
    vi.useFakeTimers();
    const { live, asked, cache, req } = setup();
    await cache.fill("a", req("a"));
    await cache.fill("b", req("b"));
    expect(cache.computed).toBe(2);
    // A hook asks for a's: kept, not computed again.
    expect(await cache.reply("a", req("a"))).toEqual({
      code: 0,
      lines: [["o", "brief of hook a"]],
    });
    expect(cache.computed).toBe(2);
    live.generation++;
    cache.changed();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(asked).toEqual(["hook a", "hook b", "hook a"]);
    // b's, never asked for, is computed when a hook asks, then kept up to date too.
    await cache.reply("b", req("b"));
    expect(cache.computed).toBe(4);
    live.generation++;
    cache.changed();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(asked.slice(4).sort()).toEqual(["hook a", "hook b"]);
  });

  it("with nothing asked for, a change computes nothing", async () => {
    vi.useFakeTimers();
    const { live, cache, req } = setup();
    await cache.fill("a", req("a"));
    live.generation++;
    cache.changed();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(cache.computed).toBe(1);
  });

  it("computes a hook's reply in the foreground, and those ahead of time or after a change in the background", async () => {
    // docs/decisions.md, "Background work waits for requests": only a reply no request waits for
    // yields to the requests being answered.
    vi.useFakeTimers();
    const { live, background, cache, req } = setup();
    await cache.fill("a", req("a")); // ahead of time, at start
    live.generation++;
    await cache.reply("a", req("a")); // a hook asks: out of date, computed while it waits
    live.generation++;
    cache.changed();
    await vi.advanceTimersByTimeAsync(1_000); // kept up to date after the change
    expect(background).toEqual([true, false, true]);
  });

  it("a kept reply's key: the folder and the routing variables do not split it, what can change the brief does", () => {
    const event = JSON.stringify({ hook_event_name: "SessionStart", source: "startup" });
    const request = (
      vault: string,
      cwd: string,
      env: Record<string, string> = {},
    ): ServeRequest => ({
      v: 1,
      argv: ["hook", "claude-code", "--vault", vault, "--agent", "claude", event],
      cwd,
      vault,
      env,
      tz: "UTC",
    });
    const key = (r: ServeRequest) => ReplyCache.keyOf(r, r.env);
    const base = key(request("/v", "/home/me"));
    expect(base).not.toBeNull();
    // A session in another project, asking through the shell hook or the launcher.
    expect(key(request("/v", "/work/project"))).toBe(base);
    expect(key(request("~/v", "/a"))).toBe(key(request("~/v", "/b")));
    // `~/v` as the CLI is given it and the home folder's `v` as the shell hook sends it.
    expect(key(request("~/v", "/a"))).toBe(key(request(join(homedir(), "v"), "/b")));
    for (const name of [
      "AGENT_MEMORY_VAULT",
      "AGENT_MEMORY_AGENT",
      "AGENT_MEMORY_SERVER",
      "AGENT_MEMORY_SERVER_TIMEOUT_MS",
      "AGENT_MEMORY_AUTOSERVE",
      "AGENT_MEMORY_AUTOSERVE_IDLE_SECONDS",
      "AGENT_MEMORY_LOCK_WAIT_MS",
      "AGENT_MEMORY_LOCK_STALE_MS",
    ])
      expect(key(request("/v", "/home/me", { [name]: "x" }))).toBe(base);
    // The other side: a vault given relative to the folder, and any other variable, split it.
    expect(key(request("v", "/a"))).not.toBe(key(request("v", "/b")));
    expect(key(request("/v", "/home/me", { AGENT_MEMORY_DEBUG: "1" }))).not.toBe(base);
    expect(key(request("/w", "/home/me"))).not.toBe(base);
    expect(key({ ...request("/v", "/home/me"), tz: "Asia/Shanghai" })).not.toBe(base);
  });
});
