// The rules of a server started by a hook (src/serve/autostart.ts; docs/agents.md, "A server
// started for you"): when one may start, the idle time it runs with. Nothing is spawned here; the
// start itself is test/serve/autoserve.process.test.ts.
import { linkSync, mkdirSync, renameSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  AUTOSERVE_IDLE_SECONDS,
  AUTOSERVE_MARK_VAULT_PATH,
  autoserveIdleSeconds,
  RETRY_AFTER_MS,
  socketState,
  whyNoStart,
} from "../../src/serve/autostart";
import { parseIdleSeconds } from "../../src/cli/commands/serve";
import { tempVault } from "../helpers/temp-vault";

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function vault() {
  const t = tempVault({ "Memory/Library/a.md": "# A\n" });
  cleanups.push(t.cleanup);
  mkdirSync(join(t.root, ".agent-memory"));
  return t;
}

describe("when a hook may start a server", () => {
  it("a vault with .agent-memory/ and no socket: yes; off by either variable: no", async () => {
    const t = vault();
    expect(await whyNoStart(t.root, {})).toBeNull();
    expect(await whyNoStart(t.root, { AGENT_MEMORY_AUTOSERVE: "off" })).toMatch(/AUTOSERVE=off/);
    expect(await whyNoStart(t.root, { AGENT_MEMORY_SERVER: "off" })).toMatch(/SERVER=off/);
    expect(await whyNoStart(t.root, { AGENT_MEMORY_AUTOSERVE: "on" })).toBeNull();
  });

  it("no .agent-memory/ (not a vault a hook ran on): no", async () => {
    const t = tempVault({});
    cleanups.push(t.cleanup);
    expect(await whyNoStart(t.root, {})).toMatch(/^no .*\.agent-memory$/);
  });

  it("the last start: within the retry wait no, after it yes (both sides of the boundary)", async () => {
    const t = vault();
    const mark = join(t.root, ...AUTOSERVE_MARK_VAULT_PATH.split("/"));
    writeFileSync(mark, "123\n");
    const at = Math.floor(Date.now() / 1000) * 1000 - 10_000;
    utimesSync(mark, at / 1000, at / 1000);
    expect(await whyNoStart(t.root, {}, at + RETRY_AFTER_MS - 1)).toMatch(/less than a minute/);
    expect(await whyNoStart(t.root, {}, at + RETRY_AFTER_MS)).toBeNull();
  });

  it("a socket: live is left to its server, a stale one (nobody listens) may be replaced, a file is not a socket", async () => {
    const t = vault();
    const sock = join(t.root, ".agent-memory", "serve.sock");
    expect(await socketState(sock)).toBe("none");
    const server = createServer((c) => c.destroy());
    await new Promise<void>((r) => server.listen(sock, r));
    expect(await socketState(sock)).toBe("live");
    expect(await whyNoStart(t.root, {})).toMatch(/a server answers/);
    // A second name for the socket outlives the server's close, as a killed server's file does.
    const kept = join(t.root, ".agent-memory", "kept.sock");
    linkSync(sock, kept);
    await new Promise<void>((r) => server.close(() => r()));
    expect(await socketState(kept)).toBe("stale");
    renameSync(kept, sock);
    expect(await whyNoStart(t.root, {})).toBeNull();
    rmSync(sock);
    writeFileSync(sock, "not a socket");
    expect(await socketState(sock)).toBe("other");
    expect(await whyNoStart(t.root, {})).toMatch(/is not a server's socket/);
  });

  it("idle seconds: the variable when 1…86400, else 30 minutes", () => {
    expect(AUTOSERVE_IDLE_SECONDS).toBe(1800);
    expect(autoserveIdleSeconds({})).toBe(1800);
    expect(autoserveIdleSeconds({ AGENT_MEMORY_AUTOSERVE_IDLE_SECONDS: "1" })).toBe(1);
    expect(autoserveIdleSeconds({ AGENT_MEMORY_AUTOSERVE_IDLE_SECONDS: "86400" })).toBe(86400);
    for (const bad of ["0", "86401", "1.5", "-3", "ten", ""])
      expect(autoserveIdleSeconds({ AGENT_MEMORY_AUTOSERVE_IDLE_SECONDS: bad })).toBe(1800);
  });

  it("serve --idle-exit: whole seconds from 1 to 86400, anything else a usage error", () => {
    expect(parseIdleSeconds("1")).toBe(1);
    expect(parseIdleSeconds("86400")).toBe(86400);
    for (const bad of ["0", "86401", "1.5", "-1", "x", ""])
      expect(() => parseIdleSeconds(bad)).toThrow(/--idle-exit must be a whole number of seconds/);
  });
});
