// bench/lib/request-signal-fetch.ts: the SDK's HTTP client transport passes one abort signal to
// every request; the wrapper keeps the listeners on it from piling up, and aborting it still
// aborts what is in flight.
import { getEventListeners } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { requestSignalFetch } from "../../bench/lib/request-signal-fetch";

let server: Server | null = null;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r) ?? r(undefined));
  server = null;
});

/** A server answering `/json` with a JSON body and `/stream` with an event stream left open. */
async function start(): Promise<string> {
  server = createServer((req, res) => {
    if (req.url === "/stream") {
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      res.write("data: first\n\n");
      return;
    }
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ ok: true }));
  });
  await new Promise<void>((r) => server?.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("requestSignalFetch", () => {
  it("leaves no listener on the shared signal once a JSON answer is in", async () => {
    const url = await start();
    const shared = new AbortController();
    const f = requestSignalFetch();
    for (let i = 0; i < 300; i++) {
      const res = await f(`${url}/json`, { signal: shared.signal });
      expect(await res.json()).toEqual({ ok: true });
      expect(getEventListeners(shared.signal, "abort")).toHaveLength(0);
    }
  });

  it("keeps a stream abortable by the shared signal, then lets its listener go", async () => {
    const url = await start();
    const shared = new AbortController();
    const res = await requestSignalFetch()(`${url}/stream`, { signal: shared.signal });
    expect(getEventListeners(shared.signal, "abort")).toHaveLength(1);
    const reader = res.body?.getReader();
    expect(new TextDecoder().decode((await reader?.read())?.value)).toContain("first");
    const next = reader?.read();
    shared.abort(new Error("closed"));
    await expect(next).rejects.toThrow();
    expect(getEventListeners(shared.signal, "abort")).toHaveLength(0);
  });

  it("passes errors and an already aborted signal through", async () => {
    const url = await start();
    const gone = new AbortController();
    gone.abort();
    await expect(requestSignalFetch()(`${url}/json`, { signal: gone.signal })).rejects.toThrow();
    const shared = new AbortController();
    await expect(
      requestSignalFetch()("http://127.0.0.1:1/none", { signal: shared.signal }),
    ).rejects.toThrow();
    expect(getEventListeners(shared.signal, "abort")).toHaveLength(0);
  });
});
