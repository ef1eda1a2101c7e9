// The HTTP server's refusals that need no session (src/mcp/http/limits.ts): where it may listen,
// which Host and Origin it answers, and the per-token rate, each on both sides of its boundary.
import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/core/errors";
import {
  RateLimiter,
  isLoopback,
  loopbackHosts,
  originAllowed,
  parseListen,
} from "../../src/mcp/http/limits";

describe("--http [HOST:]PORT", () => {
  it("listens on 127.0.0.1 when only a port is given", () => {
    expect(parseListen("8765", false)).toEqual({ host: "127.0.0.1", port: 8765, loopback: true });
    expect(parseListen("0", false).port).toBe(0);
  });

  it("takes loopback names and addresses without --allow-remote", () => {
    expect(parseListen("localhost:9000", false).loopback).toBe(true);
    expect(parseListen("[::1]:9000", false)).toEqual({ host: "::1", port: 9000, loopback: true });
    expect(parseListen("127.0.0.2:9000", false).loopback).toBe(true);
  });

  it("refuses any other address without --allow-remote, saying why, and takes it with", () => {
    expect(() => parseListen("0.0.0.0:8765", false)).toThrow(UsageError);
    expect(() => parseListen("0.0.0.0:8765", false)).toThrow(/--allow-remote.*TLS/);
    expect(() => parseListen("192.168.1.5:8765", false)).toThrow(/beyond this machine/);
    expect(parseListen("0.0.0.0:8765", true)).toEqual({
      host: "0.0.0.0",
      port: 8765,
      loopback: false,
    });
  });

  it("refuses what is not [HOST:]PORT, and a port above 65535 but not 65535", () => {
    expect(() => parseListen("65536", false)).toThrow(/not \[HOST:\]PORT/);
    expect(parseListen("65535", false).port).toBe(65535);
    expect(() => parseListen("host:", false)).toThrow(UsageError);
    expect(() => parseListen("http://127.0.0.1:80", false)).toThrow(UsageError);
    // An IPv6 address without brackets is refused with the bracketed form as the example.
    expect(() => parseListen("::1:8765", false)).toThrow(
      /\[::1\]:8765: an IPv6 address in brackets/,
    );
  });

  it("tells loopback from the rest", () => {
    expect(["localhost", "127.0.0.1", "::1", "LOCALHOST"].every(isLoopback)).toBe(true);
    expect(["0.0.0.0", "::", "10.0.0.1", "example.com", "128.0.0.1"].some(isLoopback)).toBe(false);
  });
});

describe("Host and Origin", () => {
  it("answers the bound host and localhost at the bound port only", () => {
    expect(loopbackHosts("127.0.0.1", 4000)).toEqual(new Set(["127.0.0.1:4000", "localhost:4000"]));
    expect(loopbackHosts("::1", 4000)).toEqual(new Set(["[::1]:4000", "localhost:4000"]));
    expect(loopbackHosts("localhost", 4000).has("[::1]:4000")).toBe(true);
    expect(loopbackHosts("127.0.0.1", 4000).has("127.0.0.1:4001")).toBe(false);
  });

  it("answers no Origin and the listed ones, as compared without case or a final slash", () => {
    const allowed = new Set(["https://app.example"]);
    expect(originAllowed(undefined, allowed)).toBe(true);
    expect(originAllowed("https://APP.example/", allowed)).toBe(true);
    expect(originAllowed("https://evil.example", allowed)).toBe(false);
    expect(originAllowed("null", allowed)).toBe(false);
    expect(originAllowed("http://localhost:4000", new Set())).toBe(false);
  });
});

describe("the rate per token", () => {
  it("allows N requests a minute at once and refuses the next, with the seconds to wait", () => {
    const r = new RateLimiter(3);
    expect([r.take("a", 0), r.take("a", 0), r.take("a", 0)]).toEqual([0, 0, 0]);
    // One request comes back every 20 s at 3 a minute.
    expect(r.take("a", 0)).toBe(20);
    expect(r.take("b", 0)).toBe(0);
  });

  it("gives one request back after 60 s / N, not before", () => {
    const r = new RateLimiter(3);
    for (let i = 0; i < 3; i++) r.take("a", 0);
    expect(r.take("a", 19_999)).toBe(1);
    expect(r.take("a", 20_000)).toBe(0);
    expect(r.take("a", 20_000)).toBeGreaterThan(0);
  });

  it("never stores more than N requests however long a token was quiet", () => {
    const r = new RateLimiter(2);
    r.take("a", 0);
    expect([r.take("a", 3_600_000), r.take("a", 3_600_000)]).toEqual([0, 0]);
    expect(r.take("a", 3_600_000)).toBeGreaterThan(0);
  });

  it("refuses a rate below 1", () => {
    expect(() => new RateLimiter(0)).toThrow(UsageError);
    expect(new RateLimiter(1).take("a", 0)).toBe(0);
  });
});
