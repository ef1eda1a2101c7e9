// `agent-memory mcp <vault> --http` through the SDK's own StreamableHTTPClientTransport on
// 127.0.0.1 (docs/mcp.md, "Remote use"): every refusal the issue lists, a read-only token's tool
// list, eight clients appending to one note at once, a revoke seen by the running server, a
// session ended by its client, and SIGTERM answering the request in flight and saving the index.
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { today } from "../../src/core/util/dates";
import { NodeVault } from "../../src/node/node-vault";
import { cliRun } from "../helpers/cli-run";
import { pollUntil } from "../helpers/mcp-client";
import { addTokenCli, startHttpMcp, type HttpServerProcess } from "../helpers/mcp-http";
import { fetchWithHost, httpClient } from "../helpers/mcp-http-client";
import { tempVault } from "../helpers/temp-vault";

type Call = {
  isError?: boolean;
  content: { text?: string }[];
  structuredContent?: Record<string, unknown>;
};

function initVault(): ReturnType<typeof tempVault> {
  const v = tempVault();
  const r = cliRun("init", v.root, "--agent", "ada", "--agent", "bob");
  if (r.code !== 0) throw new Error(r.stderr);
  return v;
}

const journal = (agent: string) => `Memory/Agents/${agent}/Journal/${today(Date.now())}.md`;

describe("mcp --http", () => {
  let v: ReturnType<typeof tempVault>;
  let s: HttpServerProcess;
  let ada: { id: string; token: string };
  let reader: { id: string; token: string };

  beforeAll(async () => {
    v = initVault();
    ada = addTokenCli(v.root, "--agent", "ada");
    reader = addTokenCli(v.root, "--agent", "bob", "--read-only");
    s = await startHttpMcp(v.root, ["--allow-origin", "https://app.example"]);
  }, 60_000);
  afterAll(async () => {
    await s?.stop();
    v?.cleanup();
  });

  it("refuses a request without a token: 401 with WWW-Authenticate", async () => {
    await expect(httpClient(s.url, undefined)).rejects.toThrow(/401|no bearer token/);
    const res = await fetch(s.url, { method: "POST", body: "{}" });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe('Bearer realm="agent-memory"');
  });

  it("refuses a wrong token: 401, invalid_token", async () => {
    await expect(httpClient(s.url, `${ada.token}x`)).rejects.toThrow(/unknown token/);
    const res = await fetch(s.url, {
      method: "POST",
      headers: { Authorization: "Bearer amt_nothing" },
      body: "{}",
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/error="invalid_token"/);
  });

  it("refuses a foreign Origin (403) and answers an allowed one", async () => {
    await expect(httpClient(s.url, ada.token, { origin: "https://evil.example" })).rejects.toThrow(
      /Origin https:\/\/evil\.example is not allowed/,
    );
    const ok = await httpClient(s.url, ada.token, { origin: "https://app.example" });
    expect((await ok.client.listTools()).tools.length).toBeGreaterThan(0);
    await ok.client.close();
  });

  it("answers an allowed origin's preflight and lets its page read each answer (CORS); a foreign origin gets none", async () => {
    const preflight = (origin: string) =>
      fetch(s.url, {
        method: "OPTIONS",
        headers: {
          Origin: origin,
          "Access-Control-Request-Method": "POST",
          "Access-Control-Request-Headers": "authorization, content-type, mcp-session-id",
        },
      });
    const pre = await preflight("https://app.example");
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect(pre.headers.get("access-control-allow-methods")).toMatch(/POST/);
    expect(pre.headers.get("access-control-allow-headers")).toMatch(/Authorization/);
    expect(pre.headers.get("access-control-allow-headers")).toMatch(/Mcp-Session-Id/);
    const foreign = await preflight("https://evil.example");
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get("access-control-allow-origin")).toBeNull();
    const init = await fetch(s.url, {
      method: "POST",
      headers: {
        Origin: "https://app.example",
        Authorization: `Bearer ${ada.token}`,
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "page", version: "1" },
        },
      }),
    });
    expect(init.status).toBe(200);
    expect(init.headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect(init.headers.get("access-control-expose-headers")).toMatch(/Mcp-Session-Id/);
    expect(init.headers.get("mcp-session-id")).toBeTruthy();
    const noToken = await fetch(s.url, {
      method: "POST",
      headers: { Origin: "https://app.example" },
      body: "{}",
    });
    expect(noToken.status).toBe(401);
    expect(noToken.headers.get("access-control-allow-origin")).toBe("https://app.example");
    const session = init.headers.get("mcp-session-id")!;
    await fetch(s.url, {
      method: "DELETE",
      headers: { Authorization: `Bearer ${ada.token}`, "Mcp-Session-Id": session },
    });
  });

  it("refuses a Host that is not the bound host (421), answers localhost at the port", async () => {
    await expect(
      httpClient(s.url, ada.token, { fetch: fetchWithHost(`rebound.example:${s.port}`) }),
    ).rejects.toThrow(/Host rebound\.example:\d+ is not this server's/);
    await expect(
      httpClient(s.url, ada.token, { fetch: fetchWithHost(`127.0.0.1:${s.port + 1}`) }),
    ).rejects.toThrow(/421|is not this server's/);
    const ok = await httpClient(s.url, ada.token, { fetch: fetchWithHost(`localhost:${s.port}`) });
    expect((await ok.client.ping()) as unknown).toEqual({});
    await ok.client.close();
  });

  it("gives a read-only token the read tools only; a write tool is refused and writes nothing", async () => {
    const before = readFileSync(join(v.root, journal("bob")), "utf8");
    const { client } = await httpClient(s.url, reader.token);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain("search");
    expect(names).not.toContain("append_journal");
    const r = (await client.callTool({
      name: "append_journal",
      arguments: { text: "should not land" },
    })) as Call;
    expect(r.isError).toBe(true);
    expect(readFileSync(join(v.root, journal("bob")), "utf8")).toBe(before);
    await client.close();
  });

  it("writes land in the token's agent folder, and the token list shows its last use", async () => {
    const { client } = await httpClient(s.url, ada.token);
    const r = (await client.callTool({
      name: "append_journal",
      arguments: { text: "wombat deployment over http" },
    })) as Call;
    expect(r.isError).toBeFalsy();
    expect(String(r.structuredContent?.path)).toBe(journal("ada"));
    await client.close();
    const list = cliRun("token", "list", v.root);
    const line = list.stdout.split("\n").find((l) => l.startsWith(ada.id)) ?? "";
    expect(line).toMatch(/^tk-\w+ agent=ada rights=read-write .*last_used=20\d\d-/);
    expect(list.stdout).not.toContain(ada.token);
  });

  it("eight clients appending to one note at once: nothing lost, nothing doubled", async () => {
    const tokens = Array.from({ length: 8 }, () => addTokenCli(v.root, "--agent", "ada"));
    const clients = await Promise.all(tokens.map((t) => httpClient(s.url, t.token)));
    const texts = clients.flatMap((_, c) => [0, 1, 2, 3, 4].map((i) => `numbat-${c}-${i} note`));
    await Promise.all(
      clients.map(async ({ client }, c) => {
        for (let i = 0; i < 5; i++) {
          const r = (await client.callTool({
            name: "append_journal",
            arguments: { text: `numbat-${c}-${i} note` },
          })) as Call;
          expect(r.isError).toBeFalsy();
        }
      }),
    );
    const text = readFileSync(join(v.root, journal("ada")), "utf8");
    for (const t of texts) expect(text.split(t).length - 1, t).toBe(1);
    await Promise.all(clients.map(({ client }) => client.close()));
  }, 60_000);

  it("refuses a token revoked while the server runs, from its next request", async () => {
    const t = addTokenCli(v.root, "--agent", "ada");
    const { client } = await httpClient(s.url, t.token);
    expect(await client.ping()).toEqual({});
    const r = cliRun("token", "revoke", v.root, t.id);
    expect(r.code).toBe(0);
    await expect(client.ping()).rejects.toThrow(/token revoked/);
    await expect(httpClient(s.url, t.token)).rejects.toThrow(/token revoked/);
  });

  it("refuses a body over 1 MiB (413), not one of exactly 1 MiB", async () => {
    const ping = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
    const post = (size: number) =>
      fetch(s.url, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${ada.token}`,
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
        },
        body: ping + " ".repeat(size - ping.length),
      });
    const at = await post(1024 * 1024);
    expect(at.status).toBe(400);
    expect(await at.text()).toMatch(/send initialize first/);
    expect((await post(1024 * 1024 + 1)).status).toBe(413);
  });

  it("cleans up a session its client ends, and logs no token and no argument text", async () => {
    const { client, transport } = await httpClient(s.url, ada.token);
    const sid = transport.sessionId ?? "";
    await client.callTool({ name: "search", arguments: { query: "secretword-in-arguments" } });
    await transport.terminateSession();
    await client.close();
    await pollUntil(async () =>
      s.stderr().includes(`session ${sid.slice(0, 8)} of ${ada.id} closed (ended by the client)`)
        ? true
        : undefined,
    );
    const log = s.stderr();
    expect(log).toMatch(/http: \S+Z tk-\w+ tools\/call:search 200 \d+ ms/);
    expect(log).not.toContain(ada.token);
    expect(log).not.toContain("secretword-in-arguments");
    expect(log).not.toContain("numbat-");
  });
});

describe("mcp --http limits and shutdown", () => {
  it("refuses a remote address without --allow-remote (exit 2, saying why)", () => {
    const v = initVault();
    try {
      const r = cliRun("mcp", v.root, "--http", "0.0.0.0:0");
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(
        /^agent-memory mcp: --http 0\.0\.0\.0:0 listens beyond this machine.*--allow-remote/,
      );
      expect(cliRun("mcp", v.root, "--http", "0", "--agent", "ada").stderr).toMatch(
        /--agent does not go with --http/,
      );
    } finally {
      v.cleanup();
    }
  });

  it("answers N requests a minute per token, then 429 with Retry-After", async () => {
    const v = initVault();
    const t = addTokenCli(v.root, "--agent", "ada");
    const other = addTokenCli(v.root, "--agent", "bob");
    const s = await startHttpMcp(v.root, ["--rate", "4"]);
    try {
      const post = (token: string) =>
        fetch(s.url, { method: "POST", headers: { Authorization: `Bearer ${token}` }, body: "{}" });
      for (let i = 0; i < 4; i++) expect((await post(t.token)).status).not.toBe(429);
      const refused = await post(t.token);
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toBe("15");
      expect((await post(other.token)).status).not.toBe(429);
    } finally {
      await s.stop();
      v.cleanup();
    }
  }, 60_000);

  it("on SIGTERM answers the request in flight, then saves the index and exits 0", async () => {
    const v = initVault();
    const t = addTokenCli(v.root, "--agent", "ada");
    const s = await startHttpMcp(v.root);
    try {
      const path = journal("ada");
      // Another writer holds the journal's lock, so the server's append waits in flight.
      let release: () => void = () => undefined;
      const held = new Promise<void>((r) => (release = r));
      let holding: () => void = () => undefined;
      const isHolding = new Promise<void>((r) => (holding = r));
      const other = new NodeVault(v.root);
      other.beforeCommit = async () => {
        holding();
        await held;
      };
      const otherWrite = other.process(path, (text) => `${text ?? ""}\nanother writer\n`);
      await isHolding;
      // The answer is one JSON body, sent once the call is done: the server has the call when a
      // request on a connection opened after the call was written has been answered (the
      // server read the call's bytes, already there, no later than the newer connection's).
      let sent: () => void = () => undefined;
      const callSent = new Promise<void>((r) => (sent = r));
      const watching = fetchWithHost(`127.0.0.1:${s.port}`, (body) => {
        if (body.includes('"tools/call"')) sent();
      });
      const { client } = await httpClient(s.url, t.token, { fetch: watching });
      const call = client.callTool({
        name: "append_journal",
        arguments: { text: "quokka last words" },
      });
      await callSent;
      const after = await fetch(s.url, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${t.token}`,
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
        },
        body: "{}",
      });
      expect(after.status).toBe(400);
      const indexBefore = statSync(join(v.root, ".agent-memory/search-index.bin")).mtimeMs;
      const exit = s.stop("SIGTERM");
      release();
      await otherWrite;
      const r = (await call) as Call;
      expect(r.isError).toBeFalsy();
      expect(await exit).toBe(0);
      const text = readFileSync(join(v.root, path), "utf8");
      expect(text).toContain("quokka last words");
      expect(text).toContain("another writer");
      const index = join(v.root, ".agent-memory/search-index.bin");
      expect(statSync(index).mtimeMs).toBeGreaterThan(indexBefore);
      expect(readFileSync(index, "utf8")).toContain("quokka");
      expect(s.stderr()).toMatch(/stopping/);
    } finally {
      await s.stop();
      v.cleanup();
    }
  }, 60_000);
});
