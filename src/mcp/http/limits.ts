/**
 * The HTTP server's refusals that need no session (docs/mcp.md, "What the HTTP server refuses"):
 * where it listens (loopback unless told otherwise), which `Host` and `Origin` it answers (DNS
 * rebinding), and how often one token may call it. Pure functions and a clock-driven limiter, so
 * each boundary is tested on both sides without a server (test/mcp/http-limits.test.ts).
 */
import { UsageError } from "../../core/errors";

/** Where `--http [HOST:]PORT` listens. */
export interface ListenAddress {
  /** As given (`127.0.0.1`, `localhost`, `::1`, `0.0.0.0` …); `127.0.0.1` when only a port is given. */
  host: string;
  /** 0 asks the system for a free port. */
  port: number;
  /** True for `localhost`, `127.0.0.0/8` and `::1`: nothing off this machine reaches it. */
  loopback: boolean;
}

/** True for a host name or address that only this machine reaches. */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase();
  return h === "localhost" || h === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * Parses `--http [HOST:]PORT` (`8765`, `127.0.0.1:8765`, `[::1]:8765`, `0.0.0.0:8765`).
 * @param allowRemote `--allow-remote`: without it, an address beyond loopback is refused
 * @throws {@link UsageError} for a value that is not one, or a remote address without `allowRemote`
 */
export function parseListen(value: string, allowRemote: boolean): ListenAddress {
  const m = /^(?:(?:\[([0-9a-fA-F:.]+)\]|([^:[\]\s]+)):)?(\d{1,5})$/.exec(value.trim());
  const port = Number(m?.[3]);
  if (!m || port > 65535)
    throw new UsageError(
      `--http ${value}: not [HOST:]PORT (e.g. 8765, 127.0.0.1:8765 or [::1]:8765: an IPv6 address in brackets; port 0 to 65535)`,
      value,
    );
  const host = m[1] ?? m[2] ?? "127.0.0.1";
  const loopback = isLoopback(host);
  if (!loopback && !allowRemote)
    throw new UsageError(
      `--http ${value} listens beyond this machine, where anyone who reaches the port can try a token: pass --allow-remote to mean it, and put TLS in front (docs/mcp.md, "A reverse proxy with TLS")`,
      value,
    );
  return { host, port, loopback };
}

/** `host` as it appears in a `Host` header: IPv6 addresses in brackets. */
function hostForm(host: string): string {
  return host.includes(":") ? `[${host.toLowerCase()}]` : host.toLowerCase();
}

/**
 * The `Host` header values a server bound to loopback answers: the bound host and `localhost`
 * (and, bound to `localhost`, both loopback addresses), each with the port it listens on.
 */
export function loopbackHosts(bound: string, port: number): Set<string> {
  const names = new Set([hostForm(bound), "localhost"]);
  if (bound.toLowerCase() === "localhost") {
    names.add("127.0.0.1");
    names.add("[::1]");
  }
  return new Set([...names].map((n) => `${n}:${port}`));
}

/** An `Origin` (or `--allow-origin`) as compared: lower case, no trailing `/`. */
export function normalOrigin(origin: string): string {
  return origin.trim().toLowerCase().replace(/\/+$/, "");
}

/**
 * True when a request's `Origin` may be answered: none (a program, not a web page), or one of
 * `allowed` (`--allow-origin`). Browsers send `Origin` on every cross-site request, so a page that
 * reaches the port through DNS rebinding is refused.
 */
export function originAllowed(origin: string | undefined, allowed: ReadonlySet<string>): boolean {
  return origin === undefined || allowed.has(normalOrigin(origin));
}

/**
 * The CORS headers of every answer to a request whose `Origin` is allowed (a web page of an
 * `--allow-origin` origin; docs/mcp.md, "A web page as the client"): the origin itself, never `*`,
 * and the response headers a page's script must read (the session id, the 401 challenge, the 429
 * wait). None for a request without `Origin`, which no browser sent.
 */
export function corsHeaders(origin: string | undefined): Record<string, string> {
  if (origin === undefined) return {};
  return {
    "Access-Control-Allow-Origin": origin,
    "Access-Control-Expose-Headers": "Mcp-Session-Id, WWW-Authenticate, Retry-After",
    Vary: "Origin",
  };
}

/**
 * What a browser's preflight (`OPTIONS` with `Access-Control-Request-Method`) of an allowed origin
 * is answered with, besides {@link corsHeaders}: the methods and request headers of Streamable HTTP
 * (the token, the session, the protocol version, a resumed stream's last event), for ten minutes.
 * A preflight carries no token, so it is answered before the token is asked for; the request it
 * announces still needs one.
 */
export const PREFLIGHT_HEADERS: Readonly<Record<string, string>> = {
  "Access-Control-Allow-Methods": "GET, POST, DELETE",
  "Access-Control-Allow-Headers":
    "Authorization, Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID",
  "Access-Control-Max-Age": "600",
};

/**
 * A token bucket per token id: `perMinute` requests at once, refilled at `perMinute` per 60 s.
 * The clock is a parameter (ms), so the limiter never reads the time itself.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  /** @param perMinute requests a token may make per minute (≥ 1) */
  constructor(readonly perMinute: number) {
    if (!(perMinute >= 1)) throw new UsageError(`--rate ${perMinute}: at least 1 per minute`);
  }

  /**
   * Takes one request for `key` at `nowMs`. Returns `0` when allowed, else the whole seconds to
   * wait before the next one is (the `Retry-After` value, at least 1).
   */
  take(key: string, nowMs: number): number {
    const rate = this.perMinute / 60_000;
    const b = this.buckets.get(key) ?? { tokens: this.perMinute, at: nowMs };
    b.tokens = Math.min(this.perMinute, b.tokens + Math.max(0, nowMs - b.at) * rate);
    b.at = nowMs;
    this.buckets.set(key, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / rate / 1000));
  }
}
