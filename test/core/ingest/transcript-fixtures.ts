// Transcript fixtures (test/fixtures/transcripts/) and builders of odd cases, for the ingest tests.
import { readFileSync } from "node:fs";

/** A fixture file's text. */
export function fixture(name: string): string {
  return readFileSync(new URL(`../../fixtures/transcripts/${name}`, import.meta.url), "utf8");
}

/** Every marker the fixtures put in what must never reach a journal. */
export const NEVER = "MUST NOT APPEAR";

/** One Claude Code record of session `sessionId`. */
export function ccLine(
  sessionId: string,
  type: "user" | "assistant",
  uuid: string,
  timestamp: string,
  content: unknown,
  extra: Record<string, unknown> = {},
): string {
  return JSON.stringify({
    parentUuid: null,
    isSidechain: false,
    cwd: "/home/dev/shop",
    sessionId,
    type,
    uuid,
    timestamp,
    message: { role: type, content },
    ...extra,
  });
}

/**
 * Fake secrets of several kinds, well-formed for their patterns, built from parts so that no
 * scanner takes this file for one that leaks keys.
 */
export const FAKE = {
  aws: "AKIA" + "Q7XK2MZ4P6LW3RTB",
  github: "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A",
  anthropic: "sk-ant-" + "api03-" + "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe-_Dc9Ba8",
  openai: "sk-" + "proj-" + "Tq3Wz8Lm5Np2Rv7Xs4Yk9Hd6Jf1Gb0Cc",
  slack: "xoxb-" + "1234567890-0987654321-AbCdEfGhIjKlMnOpQrStUv",
  jwt:
    "eyJ" +
    "hbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9" +
    ".eyJ" +
    "zdWIiOiIxMjM0NTY3ODkwIn0" +
    ".dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
  gitlab: "glpat-" + "xR4mT8kP2wQ6nB9vC3zL",
  google: "AIza" + "SyD4x9Kq2Lm7Np3Rv8Ws5Yt1Zu6Ab0Cd2Ef",
  privateKey:
    "-----BEGIN " +
    "RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAz4x9fakefakefake\nQ29udGVudHM=\n-----END " +
    "RSA PRIVATE KEY-----",
  urlPassword: "hunter2secret",
  /** An agent-memory HTTP bearer token (src/mcp/http/tokens.ts): `amt_` and 43 base64url characters. */
  agentMemory: "amt_" + "Zm9yLXRlc3RzLW9ubHkt-m90LWEtcmVhbC10b2tlbix",
} as const;
